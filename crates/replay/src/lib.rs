//! Replay PGN games under the FIDE Laws of Chess.
//!
//! `pgnkit-replay` turns the games that [`pgnkit_pgn`] lexes into replayed
//! games and a stream of [`Diagnostic`]s: every movetext token is accounted
//! for, moves are read in any notation and language
//! ([`pgnkit_notation`]), variations are replayed from the position before
//! the move they replace, and each game gets its true status under the Laws
//! ([`Status`]), the result the rules give, and the draws that became
//! claimable ([`Claim`]).
//!
//! Nothing here prints: diagnostics are data, rendered by the `pgnkit`
//! binary.
//!
//! # Example
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, Status, replay_game};
//!
//! let pgn = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
//! let mut reader = Reader::new(pgn);
//! let mut game = Game::default();
//! assert!(reader.read_game(&mut game));
//!
//! let report = replay_game(pgn, &game, &Options::default());
//! assert_eq!(report.status, Status::Checkmate);
//! assert_eq!(report.result.map(|r| r.as_str()), Some("0-1"));
//! assert_eq!(report.plies, 4);
//! assert!(report.diagnostics.is_empty());
//! ```

pub mod compare;
pub mod dead;
pub mod diagnostic;
pub mod exchange;
pub mod fix;
pub mod json;
mod marks;
pub mod movetext;
pub mod outcome;
pub mod pairing;
mod plain;
pub mod positions;
pub mod records;
pub mod repair;
pub mod setup;
pub mod visitor;

pub use diagnostic::{
    Code, Diagnostic, Diagnostics, Omitted, Selection, Severity, Suggestion, brief,
};
pub use outcome::{Claim, ClaimKind, DeclaredMove, GameResult, History, Ruling, Status};
pub use pgnkit_pgn::text;
pub use pgnkit_pgn::text::{Encoding, GameText};
pub use visitor::{MoveEvent, MoveWriter, MoveWriting, Visitor};

use pgnkit_notation::{Language, LanguageSet, LetterEvidence, parse_move};
use pgnkit_pgn::{Game, SyntaxErrorKind};
use shakmaty::{Chess, Color, Position};

use crate::movetext::{Pass, probe_main_line, replay_movetext};
use crate::outcome::Tracker;
use crate::setup::SetupError;

/// How to replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// Read piece letters in this language only (plus English SAN); `None`
    /// chooses per game the language under which the whole game replays,
    /// or, for a game with errors, the one its piece letters speak for
    /// that leaves the fewest errors once each is repaired (so that one
    /// slip early in a game does not change its language).
    pub language: Option<Language>,
    /// Look for what the writer probably meant at each error (scoresheet
    /// repair). Costs a little time on games with errors only.
    pub suggestions: bool,
    /// What the caller needs of the report.
    pub detail: Detail,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            language: None,
            suggestions: true,
            detail: Detail::Full,
        }
    }
}

/// What a caller needs of a [`GameReport`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Everything: every diagnostic, the claims, the Zobrist keys.
    #[default]
    Full,
    /// The errors, the status and result, the plies, and the moves shown
    /// to the [`Visitor`] (what a converter needs): a game without error
    /// may then be reported without its warnings, its
    /// [`claims`](GameReport::claims), its [`keys`](GameReport::keys) and
    /// its main-line [`moves`](GameReport::moves) (and its
    /// [`MoveEvent::key`]s are `None`). Plain games (standard
    /// start, UTF-8, English SAN, no error) are then replayed by a faster
    /// lane; everything else as with [`Detail::Full`]. With a forced
    /// [`Options::language`] other than English, the same as `Full`.
    Errors,
    /// What `check` prints without `--games`: every diagnostic (errors and
    /// warnings, kept and omitted), the plies, the status and result, the
    /// main-line moves, and whether a dead-position search ran out of
    /// budget, all as with [`Detail::Full`]; the
    /// [`claims`](GameReport::claims) and [`keys`](GameReport::keys) may be
    /// left empty (and [`MoveEvent::key`]s `None`). Plain games (as for
    /// [`Detail::Errors`]) without any diagnostic are then replayed by the
    /// faster lane. With a forced [`Options::language`] other than English,
    /// the same as `Full`.
    Diagnostics,
    /// What an index needs: the errors (counted as with [`Detail::Full`]),
    /// the plies, the status and result, the main-line moves and the
    /// [`keys`](GameReport::keys) of every main-line position, as with
    /// `Full`; a game without error may then be reported without its
    /// warnings and its [`claims`](GameReport::claims) (and its
    /// [`MoveEvent::key`]s are `None`). Plain games are replayed by the
    /// faster lane, as for [`Detail::Errors`]. With a forced
    /// [`Options::language`] other than English, the same as `Full`.
    Keys,
}

/// Everything the replay found out about one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Problems, in the order of the tokens they are about: the first
    /// [`diagnostic::MAX_PER_GAME`] errors and as many warnings found.
    pub diagnostics: Vec<Diagnostic>,
    /// The problems found beyond those, counted only.
    pub omitted: Omitted,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The game's status per the Laws.
    pub status: Status,
    /// What the rules give (`None` where they give nothing).
    pub result: Option<GameResult>,
    /// The Result tag as written.
    pub result_tag: Option<String>,
    /// The result the rules decide for certain, where a `result-mismatch`
    /// says the record (Result tag or termination marker) disagrees with
    /// it; `None` where the rules decide nothing, or the record agrees.
    pub ruling: Option<Ruling>,
    /// Every draw a player could have claimed, first ply first.
    pub claims: Vec<Claim>,
    /// The piece-letter language the moves were read in.
    pub language: Language,
    /// The game was played under Chess960 castling rules.
    pub chess960: bool,
    /// The start position (standard or from the FEN tag).
    pub start: Chess,
    /// The main-line moves, in order, with the index of their tokens.
    pub moves: Vec<movetext::MainMove>,
    /// The Zobrist key (Law 9.2 identity) of every main-line position, the
    /// start included.
    pub keys: Vec<u64>,
    /// The encoding the game was read in.
    pub encoding: Encoding,
    /// A search for a dead position (Law 5.2.2) or for whether the winner
    /// of a loss on time can checkmate (Law 6.9) ran out of budget: the
    /// report says nothing of it. Counted in the `check` summary.
    pub dead_undecided: bool,
}

impl GameReport {
    /// The main-line position before ply `ply` (1-based, as in
    /// [`Diagnostic::ply`]: ply 1 is played from the start position) and the
    /// move that led to it (`None` at the start); `None` where the main line
    /// was not replayed that far (it stops at its first error, so the
    /// position before the faulty move is always there). Linear in `ply`.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    /// use shakmaty::{Position, Square};
    ///
    /// let pgn = b"1. e4 e5 2. Ke3 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// let ply = report.diagnostics[0].ply.unwrap();
    /// let (position, last) = report.position_before(ply).unwrap();
    /// assert_eq!(position.board().piece_at(Square::E5).map(|p| p.char()), Some('p'));
    /// assert_eq!(last.map(|m| m.to()), Some(Square::E5));
    /// assert!(report.position_before(ply + 1).is_none());
    /// ```
    pub fn position_before(&self, ply: u32) -> Option<(Chess, Option<shakmaty::Move>)> {
        let played = usize::try_from(ply.checked_sub(1)?).ok()?;
        let moves = self.moves.get(..played)?;
        let mut position = self.start.clone();
        for m in moves {
            position.play_unchecked(m.played);
        }
        Some((position, moves.last().map(|m| m.played)))
    }

    /// Number of errors, kept or omitted.
    pub fn errors(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| d.is_error()).count();
        kept.saturating_add(usize::try_from(self.omitted.errors).unwrap_or(usize::MAX))
    }

    /// Number of warnings, kept or omitted.
    pub fn warnings(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| !d.is_error()).count();
        kept.saturating_add(usize::try_from(self.omitted.warnings).unwrap_or(usize::MAX))
    }
}

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
    let fast_lane = match options.detail {
        Detail::Full => false,
        Detail::Errors | Detail::Keys => true,
        // The warnings about the tag section, which the lane does not see.
        Detail::Diagnostics => {
            let mut tags = Diagnostics::default();
            repeated_tags(game, Encoding::Utf8, &mut tags);
            tags.is_empty() && !empty_game(game)
        }
    };
    if fast_lane && options.language.is_none_or(|l| l == Language::En) {
        visitor.on_start(&Chess::default());
        if let Some(fast) = plain::replay(game, &text, visitor, options.detail) {
            return fast_report(game, &text, fast);
        }
        visitor.restart();
    }
    let encoding = text.encoding();
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
    let tag = |name: &str| {
        game.tag(name)
            .map(|t| encoding.decode(&t.value()).into_owned())
    };
    let result_tag = tag("Result");
    let start = setup::start(tag("Variant").as_deref(), tag("FEN").as_deref());

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
    };

    let start = match start {
        Ok(s) => s,
        Err(err) => {
            let (code, span, message) = match err {
                SetupError::BadFen(m) => (
                    Code::BadFen,
                    game.tag("FEN")
                        .map_or(game.span.start..game.span.start, |t| t.span.clone()),
                    m,
                ),
                SetupError::UnsupportedVariant(v) => {
                    report.status = Status::Unsupported;
                    (
                        Code::UnsupportedVariant,
                        game.tag("Variant")
                            .map_or(game.span.start..game.span.start, |t| t.span.clone()),
                        format!(
                            "the variant `{v}` is not chess or Chess960, so its moves were not replayed"
                        ),
                    )
                }
            };
            let mut d = Diagnostic::new(code, span, message);
            let moves = game
                .tokens
                .iter()
                .filter(|t| t.kind == pgnkit_pgn::TokenKind::Word)
                .count();
            if moves > 0 {
                d.help
                    .push(format!("{moves} movetext words were not replayed"));
            }
            head.push(d);
            (report.diagnostics, report.omitted) = head.into_parts();
            return report;
        }
    };
    report.chess960 = start.chess960;
    report.start = start.position.clone();

    let mut lang = options.language.unwrap_or(Language::En);
    // Keys are reported only where they are asked for.
    let history = match options.detail {
        Detail::Full | Detail::Keys => History::All,
        Detail::Errors | Detail::Diagnostics => History::Recent,
    };
    visitor.on_start(&start.position);
    let mut pass = replay_movetext(game, text, &start.position, lang, history, visitor);
    let mut repairs = None;
    if options.language.is_none() && pass.failure.is_some() {
        let (better, found) = choose_language(game, text, &start.position, &pass);
        repairs = found;
        if better != lang {
            visitor.restart();
            visitor.on_start(&start.position);
            lang = better;
            pass = replay_movetext(game, text, &start.position, lang, history, visitor);
        }
    }
    report.language = lang;

    if options.suggestions {
        match repairs {
            Some(found) => found.attach(game, &mut pass),
            None => repair::suggest(game, encoding, &start.position, lang, &mut pass),
        }
    }
    finish(game, &mut report, pass, head);
    report
}

/// A game with a tag section but neither moves nor a result (a warning).
fn empty_game(game: &Game<'_>) -> bool {
    game.result_token.is_none() && !game.has_movetext() && !game.tags.is_empty()
}

/// The report of a game the fast lane replayed: a game without error.
fn fast_report(game: &Game<'_>, text: &GameText<'_>, fast: plain::Plain) -> GameReport {
    let result = match fast.status {
        Status::Checkmate => Some(GameResult::win_for(!fast.turn)),
        s => outcome::rule_result(s, fast.turn),
    };
    GameReport {
        diagnostics: Vec::new(),
        omitted: Omitted::default(),
        plies: fast.plies,
        status: fast.status,
        result,
        result_tag: game
            .tag("Result")
            .map(|t| text.decode(&t.value()).into_owned()),
        ruling: None,
        claims: Vec::new(),
        language: Language::En,
        chess960: false,
        start: Chess::default(),
        moves: fast.moves,
        keys: fast.keys,
        encoding: Encoding::Utf8,
        dead_undecided: fast.undecided,
    }
}

/// Readings of a game's letters (one language each) replayed with their
/// repairs when its English replay fails, at most.
const MAX_READINGS: usize = 4;

/// The language to read a game in whose replay in English failed, and the
/// repairs found for the main line's errors in it (`None` where none were
/// looked for: they are then found for the language chosen if wanted).
///
/// The evidence of the whole game is weighed, so that a slip before the
/// replay has seen much of the game does not derail the choice: first its
/// piece letters, wherever they stand (before and after the first error),
/// name the languages they speak for ([`LetterEvidence::candidates`]); then
/// the game is replayed in each of them (and in English, where English
/// explains the letters) with the best repair of each error applied, and
/// the reading that leaves the fewest errors wins, the one the letters
/// speak for most on a tie. A game with one slip is so read in its own
/// language, with one error. Where the letters speak for no language, the
/// language under which the main line replays farthest is chosen
/// ([`farthest_language`]).
fn choose_language(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    english: &Pass<Tracker>,
) -> (Language, Option<repair::Repairs>) {
    let encoding = text.encoding();
    let mut evidence = LetterEvidence::default();
    for i in english.main_tokens.iter().map(|&i| i as usize) {
        let Some(token) = game.tokens.get(i) else {
            continue;
        };
        let word = text.slice(token.span.clone(), token.text);
        if let Ok(mt) = parse_move(word.trim_start_matches(['.', '…'])) {
            evidence.add(&mt);
        }
    }
    let mut readings = evidence.candidates();
    if readings.is_empty() {
        // One foreign-looking letter in an English game is more likely a
        // slip (`Cc3` for `Nc3`) than a language: another language needs
        // two words of evidence, or the whole main line replaying in it.
        let better = english
            .failure
            .as_ref()
            .is_some_and(|f| f.resolvable_elsewhere)
            .then(|| farthest_language(game, text, start, english))
            .flatten()
            .filter(|&l| {
                evidence.speaks_for(l) >= 2
                    || probe_main_line(game, text, start, l) as usize == english.main_tokens.len()
            });
        return (better.unwrap_or(Language::En), None);
    }
    readings.truncate(MAX_READINGS);
    // English last: on a tie, the letters' evidence decides.
    if evidence.is_plausible(Language::En) {
        readings.push(Language::En);
    }
    // (errors left, with one more for a game the repairs do not carry to
    // its end; the language; its repairs)
    let mut best: Option<(usize, Language, Option<repair::Repairs>)> = None;
    for lang in readings {
        // A reading wins with fewer errors than the best: its search stops
        // one short of that many.
        let limit = best
            .as_ref()
            .map_or(repair::MAX_ERRORS, |b| b.0.saturating_sub(1));
        if limit == 0 {
            // Only a reading without error can win: the main line replaying
            // to its end, which a probe tells.
            if probe_main_line(game, text, start, lang) as usize == english.main_tokens.len() {
                best = Some((0, lang, None));
                break;
            }
            continue;
        }
        let own;
        let pass = if lang == Language::En {
            english
        } else {
            own = replay_movetext(game, text, start, lang, History::Recent, &mut ());
            &own
        };
        let (errors, found) = if pass.failure.is_none() {
            (0, None)
        } else {
            match repair::Repairs::find(game, encoding, start, lang, pass, limit) {
                Some(r) => (r.errors() + usize::from(!r.finished()), Some(r)),
                None => (2, None),
            }
        };
        if best.as_ref().is_none_or(|b| errors < b.0) {
            best = Some((errors, lang, found));
        }
        if errors == 0 {
            break;
        }
    }
    match best {
        Some((_, lang, found)) => (lang, found),
        None => (Language::En, None),
    }
}

/// Chooses the language under which the main line replays farthest, if one
/// goes farther than English. Candidates are the languages in which every
/// piece letter of the main line means a piece.
fn farthest_language(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    english: &Pass<Tracker>,
) -> Option<Language> {
    let mut candidates = LanguageSet::ALL;
    let mut failing = LanguageSet::ALL;
    for i in english.main_tokens.iter().map(|&i| i as usize) {
        let Some(token) = game.tokens.get(i) else {
            continue;
        };
        let word = text.slice(token.span.clone(), token.text);
        if let Ok(mt) = parse_move(&word) {
            let langs = mt.languages();
            if english.failure.as_ref().is_some_and(|f| f.token == i) {
                failing = langs;
            }
            candidates = candidates.intersect(langs);
        }
    }
    if candidates.is_empty() {
        candidates = failing;
    }
    let mut best: Option<(u32, Language)> = None;
    for lang in candidates.iter() {
        if lang == Language::En {
            continue;
        }
        let plies = probe_main_line(game, text, start, lang);
        if best.is_none_or(|(b, _)| plies > b) {
            best = Some((plies, lang));
        }
    }
    best.filter(|&(plies, _)| plies > english.plies)
        .map(|(_, lang)| lang)
}

fn finish(
    game: &Game<'_>,
    report: &mut GameReport,
    mut pass: Pass<Tracker>,
    mut head: Diagnostics,
) {
    let pos = &pass.final_position;
    let pass_auto = pass.book.automatic_end();
    report.plies = pass.plies;
    report.claims = pass.book.claims();
    report.keys = pass.book.take_keys();
    report.moves = pass.main_moves;
    head.extend(pass.diagnostics);

    report.status = if pass.failure.is_some() {
        Status::Invalid
    } else if let Some((status, _)) = pass.book.automatic_end() {
        status
    } else {
        let last = outcome::final_status(pos);
        report.dead_undecided = last.undecided;
        last.status
    };
    report.result = match report.status {
        Status::Checkmate => Some(GameResult::win_for(!pos.turn())),
        s => outcome::rule_result(s, pos.turn()),
    };

    // A definite Result tag must agree with a game the rules ended.
    // The rules drew the game automatically before its last move: say so,
    // and do not hold the players' result against the final position.
    let mut continued = false;
    if let Some((status, ply)) = pass_auto
        && ply < report.plies
        && report.status == status
    {
        continued = true;
        let law = if status == Status::FivefoldRepetition {
            "the same position occurred for the fifth time (Law 9.6.1)"
        } else {
            "75 moves passed without a capture or pawn move (Law 9.6.2)"
        };
        let span = report
            .moves
            .get(ply as usize)
            .and_then(|m| game.tokens.get(m.token as usize))
            .map_or(game.span.start..game.span.start, |t| t.span.clone());
        let mut d = Diagnostic::new(
            Code::MovesAfterDraw,
            span,
            format!("the game went on after the rules drew it at ply {ply}: {law}"),
        );
        d.ply = Some(ply + 1);
        d.help.push(format!(
                "under the Laws the game ended there as a draw; the remaining {} plies were still checked",
                report.plies - ply
            ));
        head.push(d);
    }

    if matches!(
        report.status,
        Status::InsufficientMaterial | Status::DeadPosition
    ) && dead_before_the_end(game, report, &mut head)
    {
        continued = true;
    }

    // The result the rules decide for certain: a game they ended at its
    // last move.
    let certain = match (report.result, report.status.law(), continued) {
        (Some(result), Some(law), false) => Some(Ruling {
            result,
            reason: law.to_owned(),
        }),
        _ => None,
    };

    // Without a Result tag, the movetext's termination marker is the record.
    let recorded = report
        .result_tag
        .clone()
        .or_else(|| game.result().map(|r| r.as_str().to_owned()));
    if let (Some(rule), Some(tag), false) = (report.result, recorded.as_deref(), continued)
        && let Some(written) = GameResult::from_tag(tag)
        && written != rule
    {
        let span = match game.tag("Result") {
            Some(t) => t.span.clone(),
            None => game
                .tokens
                .iter()
                .rev()
                .find(|t| matches!(t.kind, pgnkit_pgn::TokenKind::Result(_)))
                .map_or(game.span.start..game.span.start, |t| t.span.clone()),
        };
        let what = if report.result_tag.is_some() {
            "the Result tag says"
        } else {
            "the game is recorded as"
        };
        let why = match report.status {
            Status::Checkmate => format!(
                "{} is checkmated",
                if pos.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                }
            ),
            Status::Stalemate => "the game ends in stalemate".to_owned(),
            Status::InsufficientMaterial => {
                "neither side can checkmate for lack of material (dead position, Law 5.2.2)"
                    .to_owned()
            }
            Status::DeadPosition => {
                "neither side can checkmate by any series of legal moves (dead position, Law 5.2.2)"
                    .to_owned()
            }
            Status::FivefoldRepetition => "the same position occurred five times".to_owned(),
            Status::SeventyfiveMoves => "75 moves passed without a capture or pawn move".to_owned(),
            _ => String::new(),
        };
        let mut d = Diagnostic::new(
            Code::ResultMismatch,
            span,
            format!("{what} {tag}, but {why}: the result is {}", rule.as_str()),
        );
        d.help.push(format!("write [Result \"{}\"]", rule.as_str()));
        d.ply = Some(report.plies);
        head.push(d);
        report.ruling = certain.clone();
    }
    marker_mismatch(game, report, certain, &mut head);
    time_forfeit(game, report, pos, &mut head);
    (report.diagnostics, report.omitted) = head.into_parts();
    report.diagnostics.sort_by_key(|d| d.span.start);
}

/// A game that ends in a position dead by the static rules was dead from
/// the first position where they held (once they hold, they hold for
/// good): when that came before the last move, the game ended there and the
/// moves after it are reported. The main line is played again from its
/// moves only here, in the rare games that end dead. Returns whether moves
/// came after the end.
fn dead_before_the_end(game: &Game<'_>, report: &mut GameReport, found: &mut Diagnostics) -> bool {
    let mut pos = report.start.clone();
    let mut first = outcome::static_dead_status(&pos).map(|s| (s, 0u32));
    if first.is_none() {
        for (ply, m) in (1u32..).zip(&report.moves) {
            pos.play_unchecked(m.played);
            // Only a capture, a pawn move or a promotion can make a
            // position dead, and each of them resets the clock.
            if pos.halfmoves() == 0
                && let Some(status) = outcome::static_dead_status(&pos)
            {
                first = Some((status, ply));
                break;
            }
        }
    }
    let Some((status, ply)) = first.filter(|&(_, ply)| ply < report.plies) else {
        return false;
    };
    report.status = status;
    report.result = Some(GameResult::Draw);
    let Some(next) = report.moves.get(ply as usize) else {
        return false;
    };
    let span = game
        .tokens
        .get(next.token as usize)
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let why = if status == Status::InsufficientMaterial {
        "neither side has the material to checkmate"
    } else {
        "the pawns are locked and neither side can ever checkmate"
    };
    // The moves after are legal chess, played on after an automatic draw
    // (as after a fivefold repetition): a warning, not a broken record.
    let mut d = Diagnostic::new(
        Code::MovesAfterDraw,
        span,
        format!(
            "the game went on after the rules drew it at ply {ply}: a dead position, {why} (Law 5.2.2)"
        ),
    );
    d.ply = Some(ply + 1);
    // `pos` is the dead position: its side to move made the next move.
    d.move_number = Some(pos.fullmoves().get());
    d.side = Some(pos.turn());
    d.token = game.tokens.get(next.token as usize).map(|t| {
        let word = report.encoding.decode(t.text);
        word.trim_start_matches(['.', '…']).to_owned()
    });
    d.help.push(format!(
        "under the Laws the game ended there as a draw; the remaining {} plies were still checked",
        report.plies - ply
    ));
    found.push(d);
    true
}

/// The Result tag against the termination marker that ends the movetext:
/// the PGN standard requires them to agree, whatever the position. Where the
/// rules decide the result for `certain` and the tag gives it, the marker is
/// what is wrong: that is the game's ruling.
fn marker_mismatch(
    game: &Game<'_>,
    report: &mut GameReport,
    certain: Option<Ruling>,
    found: &mut Diagnostics,
) {
    let (Some(tag), Some(index)) = (report.result_tag.as_deref(), game.result_token) else {
        return;
    };
    let (Some(marker), Some(written)) = (
        game.result(),
        pgnkit_pgn::GameResult::from_bytes(tag.trim().as_bytes()),
    ) else {
        return;
    };
    if marker == written {
        return;
    }
    if report.ruling.is_none()
        && let Some(ruling) = certain
        && GameResult::from_tag(tag) == Some(ruling.result)
    {
        report.ruling = Some(ruling);
    }
    let span = game
        .tokens
        .get(index)
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::ResultMismatch,
        span,
        format!(
            "the Result tag says {}, but the moves end with the termination marker {}",
            written.as_str(),
            marker.as_str()
        ),
    );
    d.help.push(
        "the Result tag and the marker at the end of the moves must give the same result"
            .to_owned(),
    );
    found.push(d);
}

/// Whether a Termination tag says the game was lost on time (lichess writes
/// `Time forfeit`; other databases `time forfeit`, `lost on time`, `timeout`).
pub fn lost_on_time(termination: &str) -> bool {
    let t = termination.trim().to_ascii_lowercase();
    t.contains("time forfeit")
        || t.contains("time-forfeit")
        || t.contains("on time")
        || t.contains("timeout")
        || t.contains("time out")
        || t == "time"
        || t == "flag"
}

/// Law 6.9: a game lost on time is drawn when the opponent (the player the
/// Result tag gives the win) cannot checkmate by any series of legal moves.
/// Decided by [`dead::can_checkmate`], which is sound (it never calls a
/// side that could help-mate unable to); when its budget runs out, the
/// Result tag stands and the report counts the game as undecided.
fn time_forfeit(game: &Game<'_>, report: &mut GameReport, pos: &Chess, found: &mut Diagnostics) {
    if report.status != Status::Ongoing {
        return;
    }
    let Some(termination) = game.tag("Termination") else {
        return;
    };
    let termination = report.encoding.decode(&termination.value()).into_owned();
    if !lost_on_time(&termination) {
        return;
    }
    let Some(written) = report.result_tag.as_deref().and_then(GameResult::from_tag) else {
        return;
    };
    let winner = match written {
        GameResult::WhiteWins => Color::White,
        GameResult::BlackWins => Color::Black,
        GameResult::Draw => return,
    };
    // Insufficient material always; the search where the winner has
    // neither a queen nor a rook nor a pawn that can move.
    let verdict = if pos.has_insufficient_material(winner) {
        dead::Verdict::Unwinnable
    } else if dead::worth_searching_for(pos, winner) {
        dead::can_checkmate(pos, winner, dead::Budget::QUICK)
    } else {
        dead::Verdict::Undecided
    };
    match verdict {
        dead::Verdict::Unwinnable => {}
        dead::Verdict::Winnable(_) => return,
        // The search ran out of budget (counted), or did not run.
        dead::Verdict::Undecided => {
            report.dead_undecided = dead::worth_searching_for(pos, winner);
            return;
        }
    }
    report.result = Some(GameResult::Draw);
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    report.ruling = Some(Ruling {
        result: GameResult::Draw,
        reason: format!(
            "lost on time, but {} cannot checkmate by any series of legal moves (Law 6.9)",
            name(winner)
        ),
    });
    let span = game
        .tag("Result")
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::ResultMismatch,
        span,
        format!(
            "the game was lost on time ([Termination \"{}\"]) and the Result tag says {}, but {} cannot checkmate by any series of legal moves: under Law 6.9 the game is drawn, the result is 1/2-1/2",
            termination.trim(),
            written.as_str(),
            name(winner),
        ),
    );
    d.help.push("write [Result \"1/2-1/2\"]".to_owned());
    d.ply = Some(report.plies);
    found.push(d);
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
