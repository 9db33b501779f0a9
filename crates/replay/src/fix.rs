//! Applying the replay's confirmed repairs to a game's text: the edits
//! that `pgnkit check --fix` makes to the moves of a main line.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, fix, replay_game};
//!
//! // `Nf4` cannot be played; `Nf3` can, and the rest replays with it.
//! let pgn = b"1. e4 e5 2. Nf4 Nc6 3. Bb5 a6 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let edits = fix::move_edits(&game, &report);
//! assert_eq!(edits.len(), 1);
//! assert_eq!(&pgn[edits[0].range.clone()], b"Nf4");
//! assert!(edits[0].text.starts_with("Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied"));
//! ```

use std::collections::HashMap;
use std::ops::Range;

use pgnkit_notation::{Notation, Style, parse_annotation, parse_move, write_move};
use pgnkit_pgn::{Game, TokenKind};
use shakmaty::{Chess, Move, Position, san::San};

use crate::movetext::main_line_words;

mod game;
use crate::{GameReport, Suggestion};
pub use game::{FixCounts, Fixed, fix_game};

/// One edit of a game's bytes: replace `range` (offsets in the input;
/// empty: insert) by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What replaces them.
    pub text: String,
}

/// A swap waiting for its second move: (ply, move in SAN).
type PendingSwap = Option<(u32, String)>;

/// The edits that apply the confirmed top fixes of `game`'s main line
/// (from its `report`), in byte order: each repaired move written in SAN
/// in the game's language, followed by a comment that says what was
/// written and what was applied (`Nf3 {pgnkit: "Nf4" written, "Nf3"
/// applied}`), an inserted move likewise. The main line is replayed with
/// the fixes; from the first word that neither replays nor has a
/// confirmed fix, the rest stays as written.
pub fn move_edits(game: &Game<'_>, report: &GameReport) -> Vec<Edit> {
    let fixes: Vec<(Range<usize>, &Suggestion, String)> = report
        .diagnostics
        .iter()
        .filter(|d| !d.variation)
        .filter_map(|d| {
            d.suggestions
                .first()
                .filter(|s| s.confirmed())
                .map(|s| (d.span.clone(), s, alternatives(&d.suggestions)))
        })
        .collect();
    let mut edits = Vec::new();
    if fixes.is_empty() {
        return edits;
    }
    // Striking out every word of the movetext would leave a game of tags
    // and comments, which the next game's tags would join when the fixed
    // file is read again (found by fuzzing): such a game keeps its words.
    let strikes = fixes
        .iter()
        .filter(|f| matches!(f.1, Suggestion::Delete { .. }))
        .count();
    let fixes = if strikes > 0 && strikes >= main_line_words(game, report.encoding).count() {
        fixes
            .into_iter()
            .filter(|f| !matches!(f.1, Suggestion::Delete { .. }))
            .collect()
    } else {
        fixes
    };
    if fixes.is_empty() {
        return edits;
    }
    let lang = report.language;
    let style = Style::new(Notation::San, lang);
    let mut pos: Chess = report.start.clone();
    let mut ply = 0u32;
    let mut depth = 0u32;
    let mut swap: PendingSwap = None;
    let mut used = vec![false; fixes.len()];
    // The fixes by what they are looked up by (in fix order): inserts and
    // swaps by ply, replacements by their token's start, so that each word
    // looks at its own candidates only (linear in the words and fixes).
    let mut inserts: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut swaps: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut replaces: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, (s, f, _)) in fixes.iter().enumerate() {
        match f {
            Suggestion::Insert { ply, .. } => inserts.entry(*ply).or_default().push(i),
            Suggestion::Swap { ply, .. } => swaps.entry(*ply).or_default().push(i),
            Suggestion::Replace { .. } | Suggestion::Delete { .. } => {
                replaces.entry(s.start).or_default().push(i)
            }
        }
    }
    // The first unused fix of `list` whose span passes `fits`.
    let first = |list: Option<&Vec<usize>>,
                 used: &[bool],
                 fits: &dyn Fn(&Range<usize>) -> bool|
     -> Option<usize> {
        list?.iter().copied().find(|&i| {
            !used.get(i).copied().unwrap_or(true) && fixes.get(i).is_some_and(|f| fits(&f.0))
        })
    };
    for token in &game.tokens {
        match token.kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                let text = report.encoding.decode(token.text);
                if parse_annotation(&text).is_some() {
                    continue;
                }
                // A move left out before this one.
                if let Some(i) = first(inserts.get(&ply.saturating_add(1)), &used, &|s| {
                    s.start >= token.span.start
                }) {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    let Some((_, Suggestion::Insert { san, .. }, also)) = fixes.get(i) else {
                        break;
                    };
                    let Some(m) = san_move(&pos, san) else { break };
                    let written = written(&pos, &m, &style);
                    edits.push(Edit {
                        range: token.span.start..token.span.start,
                        text: format!(
                            "{written} {{pgnkit: a move left out, \"{written}\" inserted{also}}} "
                        ),
                    });
                    pos.play_unchecked(m);
                    ply = ply.saturating_add(1);
                }
                let here = ply.saturating_add(1);
                let replace = first(replaces.get(&token.span.start), &used, &|s| {
                    *s == token.span
                });
                let swap_here = first(swaps.get(&here), &used, &|s| s.start >= token.span.start);
                // The first in fix order, as a scan of every fix would find.
                let fix = match (replace, swap_here) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                if let Some(i) = fix
                    && let Some((_, Suggestion::Delete { reason, .. }, _)) = fixes.get(i)
                {
                    // A word that is no move: kept in a comment, not played.
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    edits.push(Edit {
                        range: token.span.clone(),
                        text: format!("{{pgnkit: \"{}\" struck out: {reason}}}", shown(&text)),
                    });
                    continue;
                }
                let replacement: Option<(String, String)> =
                    match fix.and_then(|i| fixes.get(i).map(|f| (i, f))) {
                        Some((i, (_, Suggestion::Replace { san, .. }, also))) => {
                            if let Some(u) = used.get_mut(i) {
                                *u = true;
                            }
                            Some((san.clone(), also.clone()))
                        }
                        Some((i, (_, Suggestion::Swap { san, .. }, _))) => {
                            if let Some(u) = used.get_mut(i) {
                                *u = true;
                            }
                            swap = Some((here.saturating_add(2), san[1].clone()));
                            Some((
                                san[0].clone(),
                                "; two moves written in swapped order".to_owned(),
                            ))
                        }
                        _ => match &swap {
                            Some((p, san)) if *p == here => {
                                let s = san.clone();
                                swap = None;
                                Some((s, "; two moves written in swapped order".to_owned()))
                            }
                            _ => None,
                        },
                    };
                let m = match replacement {
                    Some((san, also)) => {
                        let Some(m) = san_move(&pos, &san) else { break };
                        let w = written(&pos, &m, &style);
                        edits.push(Edit {
                            range: token.span.clone(),
                            text: format!(
                                "{w} {{pgnkit: \"{}\" written, \"{w}\" applied{also}}}",
                                shown(&text)
                            ),
                        });
                        m
                    }
                    None => match parse_move(&text)
                        .ok()
                        .and_then(|t| t.resolve(&pos, lang).ok())
                    {
                        Some(m) => m,
                        // An unconfirmed problem: the rest stays as written.
                        None => break,
                    },
                };
                pos.play_unchecked(m);
                ply = ply.saturating_add(1);
            }
            _ => {}
        }
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits
}

/// The other confirmed suggestions, for the comment: "; also possible: Nh6".
fn alternatives(suggestions: &[Suggestion]) -> String {
    let others: Vec<&str> = suggestions
        .iter()
        .skip(1)
        .filter(|s| s.confirmed())
        .filter_map(|s| match s {
            Suggestion::Replace { san, .. } | Suggestion::Insert { san, .. } => Some(san.as_str()),
            Suggestion::Swap { .. } | Suggestion::Delete { .. } => None,
        })
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!("; also possible: {}", others.join(", "))
    }
}

/// A written word for a comment: control characters (a NUL byte) and `}`
/// written as `\x00`, so that nothing ends the comment early.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            // Control characters are U+0000 to U+009F: two hex digits.
            if c.is_control() || c == '}' {
                format!("\\x{:02X}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn san_move(pos: &Chess, san: &str) -> Option<Move> {
    san.parse::<San>().ok()?.to_move(pos).ok()
}

fn written(pos: &Chess, m: &Move, style: &Style) -> String {
    let mut s = String::new();
    write_move(pos, m, style, &mut s);
    s
}
