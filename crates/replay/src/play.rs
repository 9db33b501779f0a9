//! The steps of one game's replay: the tag section read, the start
//! position set up, the plain lane tried, the language chosen, the movetext
//! walked, the verdict given.

use std::borrow::Cow;

use pgnkit_notation::{Language, LanguageSet};
use pgnkit_pgn::Game;
use shakmaty::{Chess, Position};

use crate::diagnostic::{Code, Diagnostic, Omitted, Severity};
use crate::game::{Detail, GameReport, Options};
use crate::illegal::IllegalMoves;
use crate::movetext::{probe_main_line, replay_movetext};
use crate::outcome::{self, GameResult, History, Status};
use crate::setup::{self, SetupError};
use crate::text::{Encoding, GameText};
use crate::visitor::Visitor;
use crate::{language, plain, repair, structure, verdict};

/// Replays one game read from `input` (the bytes the [`pgnkit_pgn::Reader`]
/// read it from; spans in diagnostics are offsets into it).
pub fn replay_game(input: &[u8], game: &Game<'_>, options: &Options) -> GameReport {
    replay_game_with(input, game, options, &mut ())
}

/// [`replay_game`], showing every move played to `visitor`.
pub fn replay_game_with<V: Visitor>(
    input: &[u8],
    game: &Game<'_>,
    options: &Options,
    visitor: &mut V,
) -> GameReport {
    let text = GameText::new(input, game.span.clone());
    replay_game_text(input, game, &text, options, visitor)
}

/// [`replay_game_with`] for a caller that has the game's text already
/// ([`GameText::new`] of `input` and the game's span), so that it is not
/// validated twice.
pub fn replay_game_text<V: Visitor>(
    input: &[u8],
    game: &Game<'_>,
    text: &GameText<'_>,
    options: &Options,
    visitor: &mut V,
) -> GameReport {
    let text = *text;
    if takes_plain_lane(game, options) {
        visitor.on_start(&Chess::default());
        if let Some(plain) = plain::replay(game, &text, visitor, options.detail) {
            return plain_report(game, &text, plain);
        }
        visitor.restart();
    }
    let encoding = text.encoding();
    let mut head = structure::head(input, game, encoding);
    let tag = |name: &str| {
        game.tag(name)
            .map(|t| encoding.decode(&t.value()).into_owned())
    };
    let result_tag = game.tag("Result").map(|t| written_result(&text, t));
    let mut report = GameReport {
        diagnostics: Vec::new(),
        omitted: Omitted::default(),
        plies: 0,
        status: Status::Invalid,
        result: None,
        result_tag,
        ruling: None,
        claims: Vec::new(),
        language: options.language.unwrap_or(Language::En),
        chess960: false,
        start: Chess::default(),
        moves: Vec::new(),
        keys: Vec::new(),
        encoding,
        dead_undecided: false,
        time_control: None,
        clocks: crate::clock::Clocks::default(),
        end: None,
        rulings: Vec::new(),
    };
    let start = match setup::start(tag("Variant").as_deref(), tag("FEN").as_deref()) {
        Ok(s) => s,
        Err(err) => {
            head.push(not_set_up(game, err, &mut report));
            (report.diagnostics, report.omitted) = head.into_parts();
            return report;
        }
    };
    if let Some(why) = &start.unreachable {
        head.push(unreachable_start(game, why));
    }
    report.chess960 = start.chess960;
    report.start = start.position.clone();
    report.end = Some(start.position.clone());

    let mut lang = options.language.unwrap_or(Language::En);
    // Keys are reported only where they are asked for.
    let history = match options.detail {
        Detail::Full | Detail::Keys => History::All,
        Detail::Errors | Detail::Diagnostics => History::Recent,
    };
    let stand = options.illegal_moves == IllegalMoves::Stand;
    visitor.on_start(&start.position);
    let mut pass = replay_movetext(game, text, &start.position, (lang, history, stand), visitor);
    let mut repairs = None;
    // Moves stood where another language reads them as legal moves: the
    // game is in that language if its whole main line replays in it.
    if options.language.is_none() && pass.failure.is_none() && !pass.stood.is_empty() {
        let foreign = pass
            .stood
            .iter()
            .fold(LanguageSet::EMPTY, |all, s| all.union(s.foreign));
        let words = pass.main_tokens.len();
        if let Some(l) = foreign
            .iter()
            .find(|&l| probe_main_line(game, text, &start.position, l) as usize == words)
        {
            visitor.restart();
            visitor.on_start(&start.position);
            lang = l;
            pass = replay_movetext(game, text, &start.position, (lang, history, stand), visitor);
        }
    }
    // The language is chosen as if every illegal move ended its line (with
    // moves that stand, where one did not).
    if options.language.is_none() && pass.failure.is_some() {
        if stand {
            visitor.restart();
            visitor.on_start(&start.position);
            pass = replay_movetext(game, text, &start.position, (lang, history, false), visitor);
        }
        let (better, found) = language::choose(game, text, &start.position, &pass);
        repairs = found;
        if better != lang || stand {
            visitor.restart();
            visitor.on_start(&start.position);
            lang = better;
            pass = replay_movetext(game, text, &start.position, (lang, history, stand), visitor);
            if stand {
                repairs = None;
            }
        }
    }
    report.language = lang;

    // Repair explores the main line around its first error, which after a
    // move that stood may run through positions no legal game reaches:
    // games with moves that stood get no suggestions.
    if options.suggestions && !pass.book.irregular {
        match repairs {
            Some(found) => found.attach(game, &mut pass),
            None => repair::suggest(game, encoding, &start.position, lang, &mut pass),
        }
    }
    verdict::finish(game, &mut report, pass, head);
    report
}

/// Whether the plain lane may take the game: the caller asked for less than
/// everything, in English or any language, and (for the diagnostics) the
/// tag section has nothing to warn of, which the lane does not look at.
fn takes_plain_lane(game: &Game<'_>, options: &Options) -> bool {
    let lane = match options.detail {
        Detail::Full => false,
        Detail::Errors | Detail::Keys => true,
        Detail::Diagnostics => structure::is_quiet(game),
    };
    lane && options.language.is_none_or(|l| l == Language::En)
}

/// The error of a game whose start position cannot be set up (a bad FEN, a
/// variant pgnkit does not play): its moves are not replayed.
fn not_set_up(game: &Game<'_>, err: SetupError, report: &mut GameReport) -> Diagnostic {
    let at = |name: &str| {
        game.tag(name)
            .map_or(game.span.start..game.span.start, |t| t.span.clone())
    };
    let mut d = match err {
        SetupError::BadFen(m) => Diagnostic::new(Code::BadFen, at("FEN"), m),
        SetupError::UnsupportedVariant(v) => {
            report.status = Status::Unsupported;
            Diagnostic::new(
                Code::UnsupportedVariant,
                at("Variant"),
                format!(
                    "the variant `{v}` is not chess or Chess960, so its moves were not replayed"
                ),
            )
        }
    };
    let moves = game
        .tokens
        .kinds()
        .filter(|k| *k == pgnkit_pgn::TokenKind::Word)
        .count();
    if moves > 0 {
        d.help
            .push(format!("{moves} movetext words were not replayed"));
    }
    d
}

/// The warning for a start no game can reach (more material than
/// promotions give), set up all the same: a composed position.
fn unreachable_start(game: &Game<'_>, why: &str) -> Diagnostic {
    let span = game
        .tag("FEN")
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::BadFen,
        span,
        format!("no game can reach this position ({why}); its moves were replayed from it"),
    );
    d.severity = Severity::Warning;
    d.help.push(
        "a composed position (a study's, a test's) may have more pieces than promotions give"
            .to_owned(),
    );
    d
}

/// The report of a game the plain lane replayed: a game without error.
/// The value of a Result tag, borrowed from a static string when it is one
/// of the four results PGN writes (most games): a game's report then owns
/// no copy of it.
fn written_result(text: &GameText<'_>, tag: &pgnkit_pgn::Tag<'_>) -> Cow<'static, str> {
    match tag.raw_value {
        b"1-0" => Cow::Borrowed("1-0"),
        b"0-1" => Cow::Borrowed("0-1"),
        b"1/2-1/2" => Cow::Borrowed("1/2-1/2"),
        b"*" => Cow::Borrowed("*"),
        _ => Cow::Owned(text.decode(&tag.value()).into_owned()),
    }
}

fn plain_report(game: &Game<'_>, text: &GameText<'_>, fast: plain::Plain) -> GameReport {
    let turn = fast.end.turn();
    let result = match fast.status {
        Status::Checkmate => Some(GameResult::win_for(!turn)),
        s => outcome::rule_result(s, turn),
    };
    GameReport {
        diagnostics: Vec::new(),
        omitted: Omitted::default(),
        plies: fast.plies,
        status: fast.status,
        result,
        result_tag: game.tag("Result").map(|t| written_result(text, t)),
        ruling: None,
        claims: Vec::new(),
        language: Language::En,
        chess960: false,
        start: Chess::default(),
        moves: fast.moves,
        keys: fast.keys,
        encoding: Encoding::Utf8,
        dead_undecided: fast.undecided,
        time_control: fast.time_control,
        clocks: fast.clocks,
        end: Some(fast.end),
        rulings: Vec::new(),
    }
}
