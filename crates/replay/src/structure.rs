//! Diagnostics of a game's text before its moves: the encoding it was read
//! in, the lexer's syntax errors, tags given twice, a tag section with
//! neither moves nor a result.

use pgnkit_pgn::{Game, SyntaxErrorKind};

use crate::diagnostic::{Code, Diagnostic, Diagnostics, Severity};
use crate::text::Encoding;

/// The diagnostics of `game`'s text before its moves, read from `input` in
/// `encoding`.
pub(crate) fn head(input: &[u8], game: &Game<'_>, encoding: Encoding) -> Diagnostics {
    let mut head = Diagnostics::default();
    if let Encoding::Windows1252 { first_invalid } = encoding {
        let at = game.span.start + first_invalid;
        head.push(Diagnostic::new(
            Code::Encoding,
            at..at + 1,
            "this game is not valid UTF-8; it was read as Latin-1 (Windows-1252)",
        ));
    }
    for e in &game.errors {
        let text = encoding.decode(input.get(e.span.clone()).unwrap_or_default());
        let text: String = text.chars().take(20).collect();
        head.push(Diagnostic::new(
            Code::Syntax,
            e.span.clone(),
            syntax_message(e.kind, &text),
        ));
    }
    head.count_many(Code::Syntax, game.omitted_errors);
    repeated_tags(game, encoding, &mut head);
    if empty_game(game) {
        let mut d = Diagnostic::new(
            Code::Syntax,
            game.span.clone(),
            "this game has a tag section but neither moves nor a result",
        );
        d.severity = Severity::Warning;
        d.help.push(
            "a game without moves ends with a termination marker: `*` (unknown) or its result"
                .to_owned(),
        );
        head.push(d);
    }
    head
}

/// Whether the tag section of a UTF-8 game has nothing to warn of (no tag
/// given twice, and it is not a tag section alone).
pub(crate) fn is_quiet(game: &Game<'_>) -> bool {
    let mut tags = Diagnostics::default();
    repeated_tags(game, Encoding::Utf8, &mut tags);
    tags.is_empty() && !empty_game(game)
}

/// A game with a tag section but neither moves nor a result (a warning).
fn empty_game(game: &Game<'_>) -> bool {
    game.result_token.is_none() && !game.has_movetext() && !game.tags.is_empty()
}

/// Warns of every tag whose name was already given in the game's tag section (the first value is
/// the one used). Linear in the number of tags.
fn repeated_tags(game: &Game<'_>, encoding: Encoding, found: &mut Diagnostics) {
    let tags = &game.tags;
    if tags.len() < 2 {
        return;
    }
    // A usual tag section (a dozen or two tags) goes through a 64-bit filter
    // of the names, compared pair by pair only where the filter hits, with
    // no allocation; a long one through a set, so that time stays linear.
    let mut seen = std::collections::HashSet::new();
    let mut filter = 0u64;
    let sketch = |name: &[u8]| {
        let (first, last) = (name.first().copied(), name.last().copied());
        let h =
            name.len() * 7 + usize::from(first.unwrap_or(0)) * 3 + usize::from(last.unwrap_or(0));
        1u64 << (h % 64)
    };
    for (i, t) in tags.iter().enumerate() {
        let repeated = if tags.len() <= 64 {
            let bit = sketch(t.name);
            let maybe = filter & bit != 0;
            filter |= bit;
            maybe && tags[..i].iter().any(|u| u.name == t.name)
        } else {
            !seen.insert(t.name)
        };
        if !repeated {
            continue;
        }
        if !found.has_room_for(Severity::Warning) {
            found.count_as(Code::Syntax, Severity::Warning, 1);
            continue;
        }
        let name = encoding.decode(t.name);
        let mut d = Diagnostic::new(
            Code::Syntax,
            t.span.clone(),
            format!("the tag `{name}` is given twice in this tag section; the first value is used"),
        );
        d.severity = Severity::Warning;
        d.help.push(format!("remove one of the `{name}` tags"));
        found.push(d);
    }
}

fn syntax_message(kind: SyntaxErrorKind, text: &str) -> String {
    match kind {
        SyntaxErrorKind::UnterminatedComment => "this comment is never closed with `}`".to_owned(),
        SyntaxErrorKind::UnterminatedTag => "this tag is never closed with `]`".to_owned(),
        SyntaxErrorKind::UnterminatedVariation => {
            "this variation is never closed with `)`".to_owned()
        }
        SyntaxErrorKind::UnmatchedCloseVariation => "this `)` closes no variation".to_owned(),
        SyntaxErrorKind::BadTag => "this is not a tag of the form [Name \"value\"]".to_owned(),
        SyntaxErrorKind::BadNag => "this NAG is not a number from 0 to 255".to_owned(),
        SyntaxErrorKind::StrayCharacter => {
            format!(
                "a stray `{}` outside any comment, tag or variation",
                text.trim()
            )
        }
        #[allow(unreachable_patterns)]
        other => other.description().to_owned(),
    }
}
