//! The replay of a game's movetext: main line and variations, token by token.
//!
//! Every token is accounted for: a move is played, an annotation marks the
//! move before it, a move number is checked against the ply, and a word that
//! is no move in any notation is an `unparsable-move` error. After the first
//! error in a line the position is unknown, so the rest of that line is not
//! replayed (and the diagnostic says how much was left); variations that
//! branch off before the error are still replayed.
//!
//! There is one walk of a game's movetext ([`walk`]); what it keeps of the
//! main line and what a problem does is its [`Book`]'s: the full replay
//! records every problem, the plain lane ([`crate::plain`]) stops at the
//! first one and hands the game to the full replay.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;

use pgnkit_notation::{
    Annotation, Language, LanguageSet, Line as Play, MoveToken, ParseError, ResolveError, Suffix,
    parse_annotation, parse_move, write_move,
};
use pgnkit_pgn::text::Encoding;
use pgnkit_pgn::write::{MoveBuffers, MoveSink};
use pgnkit_pgn::{Game, Token, TokenKind, Tokens};
use shakmaty::{Chess, Color, FromSetup, Move, Position, Role, san::SanPlus};

use crate::diagnostic::{Code, Diagnostic, Diagnostics, brief};
use crate::illegal::Stood;
use crate::keyed::KeyStep;
use crate::marks::{self, Mark};
use crate::outcome::{History, Tracker};
use crate::position_text::{PositionFormat, write_position};
use crate::text::GameText;
use crate::visitor::{MoveEvent, MoveWriting, Visitor};

/// Whether a variation (which needs the position before the move at
/// `index`) follows the move, with only comments, NAGs and marks between.
/// Marks are recognised cheaply as words without a digit; a word that is
/// really a move without a digit (castling) only costs a copy. At most
/// eight words (`MAX_MARKS`) are looked at, so that a run of digitless words
/// (null moves, junk) costs linear time in all.
pub(crate) fn variation_follows(tokens: &Tokens<'_>, index: usize) -> bool {
    if !tokens.has_variations() {
        return false;
    }
    let mut words = 0;
    for t in tokens.range(index.saturating_add(1)..tokens.len()) {
        match t.kind {
            TokenKind::OpenVariation => return true,
            TokenKind::Comment | TokenKind::Nag(_) | TokenKind::Escape => {}
            TokenKind::Word if words < MAX_MARKS && !t.text.iter().any(u8::is_ascii_digit) => {
                words += 1;
            }
            _ => return false,
        }
    }
    false
}

/// Words after a move that [`variation_follows`] reads as marks on it
/// (`+`, `!?`, `e.p.`, `ch` …) before it gives up: a real move has at most a
/// few. A variation after more marks than this starts from an unknown
/// position (an error), never a wrong one.
const MAX_MARKS: usize = 8;

/// Variations nested deeper than this are read but not replayed: one
/// `syntax` error says so. No game needs as many; the limit keeps the
/// memory of a game of a million `(` bounded (about 500 bytes a level).
/// The lexer makes such a variation one [`TokenKind::DeepVariation`].
use pgnkit_pgn::MAX_VARIATION_DEPTH;

/// One move of the main line as the replay resolved it.
#[derive(Clone, Debug)]
pub struct MainMove {
    /// Index of its token in [`Game::tokens`] (12 bytes a move: a game may
    /// have millions; `u32::MAX` for a token beyond, in a game of more than
    /// 2^32 tokens).
    pub token: u32,
    /// The move played.
    pub played: Move,
}

/// The main line's first error, for repair and language detection.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    /// Index of the failing token.
    pub token: usize,
    /// The position before it.
    pub position: Chess,
    /// The 1-based ply the token would have had.
    pub ply: u32,
    /// Index into the diagnostics of the error reported for it (`None`
    /// when the game had too many diagnostics to keep it).
    pub diagnostic: Option<usize>,
    /// The token could be parsed but not resolved (illegal, ambiguous, unknown
    /// piece letter): another language might read it.
    pub resolvable_elsewhere: bool,
}

/// The outcome of one pass over the movetext.
#[derive(Debug)]
pub(crate) struct Pass<B> {
    /// Diagnostics in token order (the first ones kept, the others counted).
    pub diagnostics: Diagnostics,
    /// Main-line plies played.
    pub plies: u32,
    /// The last main-line position reached (before any error).
    pub final_position: Chess,
    /// What the pass kept of the main line: repetitions, claims, keys.
    pub book: B,
    /// The main line's first error.
    pub failure: Option<Failure>,
    /// The main-line moves played, in order (where the book keeps them).
    pub main_moves: Vec<MainMove>,
    /// Token indices of every main-line word that was read as a move
    /// attempt (played, failed or not replayed), in order (full replay
    /// only).
    pub main_tokens: Vec<u32>,
    /// The clock commands after the main-line moves.
    pub clocks: crate::clock::Reader,
    /// The main-line moves that stood though illegal.
    pub stood: Vec<Stood>,
}

impl<B: Book> Pass<B> {
    /// The main-line move `m` of token `index` was played, at `ply`: kept
    /// where the book keeps the moves, and counted.
    #[inline(always)]
    fn main_move(&mut self, index: usize, m: Move, ply: u32) {
        if self.book.keeps_moves() {
            self.main_moves.push(MainMove {
                token: u32::try_from(index).unwrap_or(u32::MAX),
                played: m,
            });
        }
        self.plies = ply;
    }
}

struct Line {
    /// `None` once an error made the position unknown.
    pos: Option<Play>,
    /// The position before the last move (a variation starts there).
    before: Option<Play>,
    ply: u32,
    depth: u32,
    /// Tokens left unreplayed after an error, and the diagnostic to tell.
    skipped: u32,
    dead_diag: Option<usize>,
    /// Written move numbers minus the real ones, once a mismatch was
    /// reported: numbers off by the same amount are not reported again.
    number_offset: Option<i64>,
    /// The `(` of a variation that follows no move it could replace (its
    /// moves cannot be replayed; an error is given if it has any).
    orphan: Option<Range<usize>>,
}

impl Line {
    fn new(pos: Option<Play>, ply: u32, depth: u32) -> Line {
        Line {
            pos,
            before: None,
            ply,
            depth,
            skipped: 0,
            dead_diag: None,
            number_offset: None,
            orphan: None,
        }
    }
}

/// What a pass keeps of the main line as it is played, and what it does
/// with a problem: the full replay's [`Tracker`] (repetitions, claims,
/// keys; every problem recorded) or the plain lane's
/// [`plain::Book`](crate::plain::Book) (a problem ends the pass). Both walk
/// the movetext with the one loop of [`walk`].
pub(crate) trait Book {
    /// What ends a pass: nothing ([`std::convert::Infallible`]) for the
    /// full replay, [`NotPlain`] for the plain lane.
    type Stop;
    /// Whether problems are recorded (the full replay), which needs the
    /// main line's words and every position a visitor wants.
    const RECORDS: bool;
    /// A problem was found: the full replay records it (`Ok`), the plain
    /// lane stops here.
    fn problem(&self) -> Result<(), Self::Stop>;
    /// Whether warnings are looked for (the full replay: always; the plain
    /// lane: where the caller wants to hear of them, and then they stop
    /// it).
    fn warnings(&self) -> bool;
    /// Whether the pass keeps the main-line moves.
    fn keeps_moves(&self) -> bool;
    /// Whether variations are replayed (else they are passed over).
    fn variations(&self) -> bool {
        true
    }
    /// Whether the lines follow where the pieces started (descriptive
    /// `KR`, `QN`); without, a word that needs it is a problem
    /// ([`Play::reads`]).
    const ORIGINS: bool = true;
    /// Begins the main-line move `m` from `before`: what the position key
    /// after it needs, where keys are kept.
    fn step(&self, before: &Chess, m: Move) -> Option<KeyStep>;
    /// The main-line move `m` begun by `step` led to `after`, at `ply`:
    /// the key of `after` to show the visitor, if any.
    fn played(&mut self, step: Option<KeyStep>, m: Move, after: &Chess, ply: u32) -> Option<u64>;
    /// A main-line null move led to `after`, at `ply`.
    fn passed(&mut self, after: &Chess, ply: u32);
    /// Whether an illegal main-line move whose piece its token names
    /// stands ([`crate::illegal`]): the full replay's, when asked.
    fn stands(&self) -> bool {
        false
    }
    /// A main-line move stood: the positions from here on may not be
    /// [`regular`](crate::illegal::regular).
    fn stood(&mut self) {}
}

/// The plain lane met what a plain game does not have: the game takes the
/// full replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotPlain;

impl Book for Tracker {
    type Stop = std::convert::Infallible;
    const RECORDS: bool = true;

    #[inline]
    fn problem(&self) -> Result<(), Self::Stop> {
        Ok(())
    }

    #[inline]
    fn warnings(&self) -> bool {
        true
    }

    #[inline]
    fn keeps_moves(&self) -> bool {
        true
    }

    #[inline]
    fn step(&self, before: &Chess, m: Move) -> Option<KeyStep> {
        Some(KeyStep::new(before, self.key(), m))
    }

    #[inline]
    fn played(&mut self, step: Option<KeyStep>, m: Move, after: &Chess, ply: u32) -> Option<u64> {
        let step = step.unwrap_or_else(|| KeyStep::new(after, self.key(), m));
        Some(self.push_step(step, after, ply))
    }

    fn passed(&mut self, after: &Chess, ply: u32) {
        self.push_key(crate::outcome::position_key(after), after, ply);
    }

    #[inline]
    fn stands(&self) -> bool {
        self.stand
    }

    fn stood(&mut self) {
        self.irregular = true;
    }
}

/// Replays the movetext of `game` from `start` reading piece letters as
/// `lang`, keeping the main line's position keys `history` says, and
/// recording every problem; illegal main-line moves stand where `stand`
/// says. Diagnostics about tags and structure are the caller's.
pub(crate) fn replay_movetext<V: Visitor>(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    (lang, history, stand): (Language, History, bool),
    visitor: &mut V,
) -> Pass<Tracker> {
    let mut tracker = Tracker::with_history(start, history);
    tracker.stand = stand;
    tracker.reserve(game.tokens.len().min(1 << 12));
    match walk(game, text, start, lang, tracker, visitor) {
        Ok(pass) => pass,
        Err(never) => match never {},
    }
}

/// The one walk of a game's movetext: every token, main line and
/// variations, replayed from `start` with piece letters read as `lang`;
/// `book` keeps the main line and says what a problem does.
///
/// Never inlined (nor is it worth it: once a game): inlined into the plain
/// lane, as a change elsewhere in the crate could make the compiler decide,
/// `check -j1` ran 2% more instructions.
#[inline(never)]
pub(crate) fn walk<'g, V: Visitor, B: Book>(
    game: &'g Game<'_>,
    text: GameText<'g>,
    start: &Chess,
    lang: Language,
    book: B,
    visitor: &mut V,
) -> Result<Pass<B>, B::Stop> {
    let warnings = book.warnings();
    let reserve = if B::RECORDS {
        game.tokens.len().min(1 << 12)
    } else if book.keeps_moves() {
        // Two moves for every three tokens (`12.`, White's, Black's) in
        // most games: no reallocation on the way.
        game.tokens.len().saturating_mul(2) / 3 + 4
    } else {
        0
    };
    let mut pass = Pass {
        diagnostics: Diagnostics::default(),
        plies: 0,
        final_position: start.clone(),
        book,
        failure: None,
        main_moves: {
            let mut moves = SPARE_MAIN_MOVES.take();
            moves.clear();
            moves.reserve(reserve);
            moves
        },
        main_tokens: if B::RECORDS {
            Vec::with_capacity(game.tokens.len().min(1 << 12))
        } else {
            Vec::new()
        },
        clocks: crate::clock::Reader::default(),
        stood: Vec::new(),
    };
    let mut lines = SPARE_LINES.take();
    lines.clear();
    lines.reserve(4);
    let first = if B::ORIGINS {
        Play::new(start.clone())
    } else {
        Play::without_origins(start.clone())
    };
    lines.push(Line::new(Some(first), 0, 0));
    let mut pending: Option<Mark<'_>> = None;
    // The position before a move, for a visitor that wants positions.
    let mut before_move = start.clone();

    // Variations open and passed over, for a book that replays none.
    let mut passed_over = 0u32;
    // A board's result signal was read: the main line has ended.
    let mut signals = 0u32;
    // A plain run ([`plain_run`]) is taken in a game without variations,
    // main line only, by the plain lane.
    let runs = !B::RECORDS
        && (!V::WANTS_POSITIONS || visitor.move_writing().is_some())
        && lang == Language::En
        && !game.tokens.has_variations();
    // By index, not by iterator: after a plain run the loop goes on at
    // the run's end in one step (an iterator's `nth` steps over each token
    // the run read).
    let mut next = 0;
    while let Some(kind) = game.tokens.kind(next) {
        let index = next;
        next += 1;
        if runs
            && kind == TokenKind::Word
            && pending.is_none()
            && let [line] = lines.as_mut_slice()
        {
            let end = plain_run(&game.tokens, index, line, &mut pass, visitor, warnings)?;
            if end > index {
                // The tokens up to `end` are read: the loop goes on there.
                next = end;
                continue;
            }
        }
        if passed_over > 0 {
            match kind {
                TokenKind::OpenVariation => passed_over += 1,
                TokenKind::CloseVariation => passed_over -= 1,
                _ => {}
            }
            continue;
        }
        match kind {
            TokenKind::Word => {
                let Some(token) = game.tokens.get_known(index, kind) else {
                    continue;
                };
                // Plain English SAN that resolves at once, the common case,
                // is read from the bytes in one step; any other word is
                // decoded and parsed in full.
                let mut fast = None;
                if lang == Language::En
                    && let Some(play) = current(&lines)
                {
                    fast = play.read_plain_san(token.text);
                }
                let written = match fast {
                    Some(_) => None,
                    None => {
                        let w = Written::read(text, &token, lang, current(&lines));
                        fast = w.fast;
                        // A move first, then a mark on the move before.
                        if let Some(annotation) = w.annotation() {
                            if warnings
                                && matches!(
                                    annotation,
                                    Annotation::Check | Annotation::DoubleCheck | Annotation::Mate
                                )
                            {
                                // The plain lane judges marks written in the
                                // move's own word only.
                                pass.book.problem()?;
                            }
                            if let Some(p) = pending.as_mut() {
                                p.add(annotation);
                            }
                            continue;
                        }
                        Some(w)
                    }
                };
                let word = written.as_ref().map_or("", Written::word);
                // The mark on the move before is judged once this word is
                // read: if it can be played, the move before did not mate.
                let mut previous = pending.take();
                let Some(line) = lines.last_mut() else {
                    settle(&mut previous, &mut pass, None)?;
                    continue;
                };
                if B::RECORDS && line.depth == 0 {
                    // 4 bytes a word. A game of more than 2^32 tokens (64 GiB
                    // of them in memory) would only lose repair beyond them.
                    if let Ok(i) = u32::try_from(index) {
                        pass.main_tokens.push(i);
                    }
                }
                let Some(play) = line.pos.as_mut() else {
                    settle(&mut previous, &mut pass, None)?;
                    line.skipped += 1;
                    line.before = None;
                    continue;
                };
                let variation = line.depth > 0;
                let ply = line.ply + 1;
                let side = play.position().turn();
                let move_number = play.position().fullmoves().get();
                // A null move (`--`, `Z0`): the side to move passes, as in
                // analysis. Legal unless the side to move is in check.
                if written.as_ref().is_some_and(Written::is_null)
                    && !play.in_check()
                    && let Some(passed) = pass_turn(play.position())
                {
                    settle(&mut previous, &mut pass, Some(play))?;
                    if line.depth == 0 {
                        // A warning, and a move the plain lane does not keep.
                        pass.book.problem()?;
                        if pass.diagnostics.has_room(Code::NullMove) {
                            pass.diagnostics.push(null_move(
                                token.span.clone(),
                                word,
                                side,
                                ply,
                                move_number,
                            ));
                        } else {
                            pass.diagnostics.count(Code::NullMove);
                        }
                    }
                    // A variation after the null move replaces it: it starts
                    // from the position before it.
                    let before = std::mem::replace(play, Play::new(passed));
                    if line.depth == 0 {
                        pass.book.passed(play.position(), ply);
                        pass.plies = ply;
                    }
                    line.before = Some(before);
                    line.ply = ply;
                    continue;
                }
                let outcome = match (fast, written.as_ref().and_then(|w| w.parsed.as_ref())) {
                    (Some(m), _) => Ok(m),
                    (None, Some(Ok(mt))) => {
                        if !B::ORIGINS && !play.reads(mt) {
                            pass.book.problem()?;
                        }
                        play.resolve(mt, lang).map_err(Some)
                    }
                    (None, _) => Err(None),
                };
                let mut stood = false;
                let m = match outcome {
                    Ok(m) => m,
                    Err(err) => {
                        pass.book.problem()?;
                        let parsed = written.as_ref().and_then(|w| w.parsed.as_ref());
                        let standing = match parsed {
                            Some(Ok(mt)) if line.depth == 0 && pass.book.stands() => standing(
                                game,
                                index,
                                mt,
                                &err,
                                play,
                                (lang, signals > 0),
                                &pass.main_tokens,
                            ),
                            _ => None,
                        };
                        if let Some(Standing::Artifact(code)) = standing {
                            settle(&mut previous, &mut pass, Some(play))?;
                            let mut d = crate::broadcast::warning(code, token.span.clone(), word);
                            // The signal's words take the plies they stand at.
                            let (ply, side, move_number) = if code == Code::ResultSignal {
                                signals += 1;
                                let k = signals - 1;
                                let later = if k % 2 == 1 { !side } else { side };
                                let number = move_number
                                    + u32::from(k % 2 == 1 && side == Color::Black)
                                    + k / 2;
                                (ply + k, later, number)
                            } else {
                                (ply, side, move_number)
                            };
                            d.ply = Some(ply);
                            d.move_number = Some(move_number);
                            d.side = Some(side);
                            d.token = Some(word.to_owned());
                            if pass.diagnostics.has_room(code) {
                                pass.diagnostics.push(d);
                            } else {
                                pass.diagnostics.count(code);
                            }
                            continue;
                        }
                        if let Some(Standing::Stood(m, foreign)) = standing {
                            let mut d = stood_move(token.span.clone(), word, play, &m);
                            d.ply = Some(ply);
                            d.move_number = Some(move_number);
                            d.side = Some(side);
                            d.token = Some(word.to_owned());
                            pass.diagnostics.push(d);
                            pass.stood.push(Stood { ply, side, foreign });
                            pass.book.stood();
                            stood = true;
                            m
                        } else {
                            settle(&mut previous, &mut pass, Some(play))?;
                            let mut d = move_error(
                                token.span.clone(),
                                word,
                                written.as_ref().and_then(|w| w.parsed.as_ref()),
                                err,
                                play,
                                line.ply,
                                lang,
                            );
                            let is_move = written
                                .as_ref()
                                .is_some_and(|w| matches!(w.parsed, Some(Ok(_))));
                            let resolvable_elsewhere = is_move && d.code != Code::MovesAfterEnd;
                            d.ply = Some(ply);
                            d.move_number = Some(move_number);
                            d.side = Some(side);
                            d.token = Some(word.to_owned());
                            d.variation = variation;
                            let at = pass.diagnostics.push(d);
                            if line.depth == 0 && pass.failure.is_none() {
                                pass.failure = Some(Failure {
                                    token: index,
                                    position: play.position().clone(),
                                    ply,
                                    diagnostic: at,
                                    resolvable_elsewhere,
                                });
                            }
                            // A junk word is no move attempt: a variation after it
                            // still replaces the last move played.
                            let dead = line.pos.take();
                            if is_move {
                                line.before = dead;
                            }
                            line.dead_diag = at;
                            continue;
                        }
                    }
                };
                if let Some(p) = previous.as_mut() {
                    p.mate = Some(false);
                }
                settle(&mut previous, &mut pass, None)?;
                let step = if line.depth == 0 {
                    pass.book.step(play.position(), m)
                } else {
                    None
                };
                // The position before the move, for a variation that
                // replaces it (the full replay keeps it for a visitor that
                // sees positions too, as it always has).
                if (B::RECORDS && V::WANTS_POSITIONS) || variation_follows(&game.tokens, index) {
                    match line.before.as_mut() {
                        Some(before) => before.clone_from(play),
                        None => line.before = Some(play.clone()),
                    }
                } else if line.before.is_some() {
                    line.before = None;
                }
                if let Some(w) = visitor.move_writing() {
                    // A word read as plain SAN carries no glyph.
                    let plain = written.is_none();
                    write_while_played(w, play, m, (stood, plain), index);
                    if line.depth == 0 {
                        pass.book.played(step, m, play.position(), ply);
                    }
                } else if V::WANTS_POSITIONS {
                    before_move.clone_from(play.position());
                    play.play(m);
                    let key = (line.depth == 0)
                        .then(|| pass.book.played(step, m, play.position(), ply))
                        .flatten();
                    visitor.on_move(&MoveEvent {
                        token: index,
                        before: &before_move,
                        played: m,
                        after: play.position(),
                        check: play.in_check(),
                        ply,
                        depth: line.depth,
                        key,
                    });
                } else {
                    play.play(m);
                    if line.depth == 0 {
                        pass.book.played(step, m, play.position(), ply);
                    }
                }
                if warnings {
                    let check = play.in_check();
                    let written = match &written {
                        Some(w) => w.suffix(),
                        None => Suffix::of_plain_san(token.text),
                    };
                    if !B::RECORDS && !check {
                        // The plain lane judges the mark of a move that
                        // gives no check at once (a mark written as a word
                        // of its own after it stopped the lane above).
                        if marks::mark_problem(written, false, false, false).is_some() {
                            pass.book.problem()?;
                        }
                    } else {
                        // Double check, for `++` in the word or `dbl ch`
                        // as a word of its own after it.
                        let double = check && play.position().checkers().count() > 1;
                        pending = Some(Mark {
                            text: token.text,
                            span: token.span.clone(),
                            written,
                            own: written,
                            check,
                            // Mate is decided lazily: most checks are followed
                            // by a move.
                            mate: if check { None } else { Some(false) },
                            double,
                            ply,
                            move_number,
                            side,
                            variation,
                        });
                    }
                }
                if line.depth == 0 {
                    pass.main_move(index, m, ply);
                }
                line.ply = ply;
            }
            TokenKind::MoveNumber { number, black } => {
                settle(&mut pending, &mut pass, current(&lines))?;
                if !warnings {
                    continue;
                }
                let Some(line) = lines.last_mut() else {
                    continue;
                };
                let Some(pos) = line.pos.as_ref().map(Play::position) else {
                    continue;
                };
                let expected = pos.fullmoves().get();
                let wrong_dots = black && pos.turn() == Color::White;
                let offset = i64::from(number) - i64::from(expected);
                let repeated = offset != 0 && line.number_offset == Some(offset);
                if (number != expected || wrong_dots) && !repeated {
                    pass.book.problem()?;
                    if offset != 0 {
                        line.number_offset = Some(offset);
                    }
                    if !pass.diagnostics.has_room(Code::MoveNumber) {
                        pass.diagnostics.count(Code::MoveNumber);
                        continue;
                    }
                    let Some(token) = game.tokens.get(index) else {
                        continue;
                    };
                    let (side, text) =
                        (pos.turn(), String::from_utf8_lossy(token.text).into_owned());
                    let mut d = Diagnostic::new(
                        Code::MoveNumber,
                        token.span,
                        format!(
                            "move number `{}` does not match: the next move is {}{} by {}",
                            text.trim(),
                            expected,
                            if side == Color::White { "." } else { "..." },
                            color_name(side)
                        ),
                    );
                    d.ply = Some(line.ply + 1);
                    d.move_number = Some(expected);
                    d.side = Some(side);
                    d.token = Some(text);
                    d.variation = line.depth > 0;
                    pass.diagnostics.push(d);
                }
            }
            TokenKind::DeepVariation => {
                // Variations open beyond MAX_VARIATION_DEPTH: read, not replayed.
                pass.book.problem()?;
                settle(&mut pending, &mut pass, current(&lines))?;
                let start = game.tokens.span(index).map_or(0, |s| s.start);
                let mut d = Diagnostic::new(
                    Code::Syntax,
                    start..start + 1,
                    format!(
                        "variations nested more than {MAX_VARIATION_DEPTH} deep are not replayed"
                    ),
                );
                d.help
                    .push("the moves inside this variation were read but not checked".to_owned());
                d.variation = true;
                pass.diagnostics.push(d);
            }
            TokenKind::OpenVariation if !pass.book.variations() => passed_over = 1,
            TokenKind::OpenVariation => {
                settle(&mut pending, &mut pass, current(&lines))?;
                let (start_pos, ply, depth, dead_diag) = match lines.last() {
                    Some(parent) => (
                        parent.before.clone(),
                        parent.ply.saturating_sub(1),
                        parent.depth + 1,
                        parent.dead_diag,
                    ),
                    None => (None, 0, 1, None),
                };
                let mut line = Line::new(start_pos, ply, depth);
                if line.pos.is_none() {
                    // Its moves cannot be replayed: after an error in the
                    // line it branches from, that error tells how many were
                    // left; with no move before it to replace, say so here
                    // (the plain lane gives way at once).
                    pass.book.problem()?;
                    line.dead_diag = dead_diag;
                    if dead_diag.is_none() {
                        line.orphan = game.tokens.span(index);
                    }
                }
                lines.push(line);
            }
            TokenKind::CloseVariation => {
                settle(&mut pending, &mut pass, current(&lines))?;
                if lines.len() > 1
                    && let Some(line) = lines.pop()
                {
                    finish_line(&line, &mut pass.diagnostics);
                }
            }
            TokenKind::Result(_) => settle(&mut pending, &mut pass, current(&lines))?,
            // The clock commands after a main-line move (the main line
            // still replayed).
            TokenKind::Comment => {
                if let [main] = lines.as_slice()
                    && main.pos.is_some()
                    && let Some(t) = game.tokens.get(index)
                {
                    pass.clocks.comment(t.text, t.span.start + 1, main.ply);
                }
            }
            _ => {}
        }
    }
    settle(&mut pending, &mut pass, current(&lines))?;
    // Lines left open by an unterminated variation, then the main line.
    if lines.len() > 1 {
        pass.book.problem()?;
    }
    while let Some(line) = lines.pop() {
        finish_line(&line, &mut pass.diagnostics);
        if line.depth == 0 {
            if let Some(play) = line.pos {
                pass.final_position = play.into_position();
            } else if let Some(f) = &pass.failure {
                pass.final_position = f.position.clone();
            }
        }
    }
    if lines.capacity() <= SPARE_LINES_KEPT {
        SPARE_LINES.set(lines);
    }
    Ok(pass)
}

thread_local! {
    /// The lines of the last game this thread walked to its end, emptied:
    /// the next game's are kept in their memory (one allocation and one
    /// release a game less, and `malloc`'s code for blocks of their size is
    /// out of the instruction cache by then).
    static SPARE_LINES: Cell<Vec<Line>> = const { Cell::new(Vec::new()) };
}

/// Lines of variations within variations beyond which their memory is
/// given back (a game nested hundreds deep keeps nothing).
const SPARE_LINES_KEPT: usize = 16;

thread_local! {
    /// The main-line moves of the last game whose report did not take them
    /// ([`spare_main_moves`]), emptied: the next game's are kept in their
    /// memory.
    static SPARE_MAIN_MOVES: Cell<Vec<MainMove>> = const { Cell::new(Vec::new()) };
}

/// Moves beyond which a game's main-line moves are given back, not kept for
/// the next game (a game of a million moves keeps nothing).
const SPARE_MAIN_MOVES_KEPT: usize = 1 << 12;

/// Gives the memory of a game's main-line moves, which its report does not
/// take, to the next game this thread walks.
pub(crate) fn spare_main_moves(moves: Vec<MainMove>) {
    if moves.capacity() <= SPARE_MAIN_MOVES_KEPT {
        SPARE_MAIN_MOVES.set(moves);
    }
}

/// Writes the move `m` of token `index` where `w` says while it is played
/// (`stood`: an illegal move that stood; `plain`: its word is plain SAN,
/// [`Play::read_plain_san`]'s): each position looked at once.
#[inline(always)]
fn write_while_played<S: MoveSink + ?Sized>(
    w: MoveWriting<'_, S>,
    play: &mut Play,
    m: Move,
    (stood, plain): (bool, bool),
    index: usize,
) {
    let pos = play.position();
    let (number, white) = (pos.fullmoves().get(), pos.turn() == Color::White);
    if plain
        && !stood
        && w.uci.is_none()
        && !w.fen
        && let Some((ascii, len)) = play.write_in_place_and_play(m, w.style)
    {
        // A conversion to UCI, English SAN or LAN: the move written in
        // place, no buffer.
        w.moves.push_plain_ascii(index, number, white, &ascii, len);
        return;
    }
    let MoveBuffers { text, uci, note } = w.moves.buffers();
    if let Some(style) = w.uci {
        write_move(play.position(), &m, style, uci);
    }
    if stood {
        play.write_stood_and_play(m, w.style, text);
    } else {
        play.write_and_play(m, w.style, text);
    }
    if w.fen {
        write_position(play.position(), PositionFormat::Fen, note);
    }
    if plain {
        w.moves.push_plain(index, number, white);
    } else {
        w.moves.push(index, number, white);
    }
}

/// Reads the tokens from `start` on, in the plain lane's main line of a
/// game without variations (`line`, no mark pending), while they are what
/// most of a plain game is: plain English SAN that resolves at once (with
/// `warnings`, without a mate mark, whose judging waits for the next
/// token), move numbers that agree, comments. Each is read as [`walk`]'s
/// loop reads it, without its work per token; a check mark that is wrong
/// or missing is the problem the loop would find at the next token (a
/// mate is looked for at once, where the loop waits for the next move).
/// Returns the index of the first token not read.
#[inline(never)]
fn plain_run<V: Visitor, B: Book>(
    tokens: &Tokens<'_>,
    start: usize,
    line: &mut Line,
    pass: &mut Pass<B>,
    visitor: &mut V,
    warnings: bool,
) -> Result<usize, B::Stop> {
    let Some(play) = line.pos.as_mut() else {
        return Ok(start);
    };
    let mut i = start;
    while let Some(kind) = tokens.kind(i) {
        match kind {
            TokenKind::MoveNumber { number, black } => {
                let pos = play.position();
                if warnings
                    && (number != pos.fullmoves().get() || (black && pos.turn() == Color::White))
                {
                    break;
                }
            }
            TokenKind::Word => {
                let Some(token) = tokens.get_known(i, kind) else {
                    break;
                };
                // A check mark is judged here once the move is played; a mate
                // mark is left to the loop (rare, and mate costs more).
                let marked_check = match token.text.last() {
                    Some(b'#') if warnings => break,
                    Some(b'+') => true,
                    _ => false,
                };
                let Some(m) = play.read_plain_san(token.text) else {
                    break;
                };
                let writing = visitor.move_writing();
                if writing.is_none() && V::WANTS_POSITIONS {
                    // The loop shows it the positions.
                    break;
                }
                let ply = line.ply + 1;
                let step = pass.book.step(play.position(), m);
                line.before = None;
                match writing {
                    Some(w) => write_while_played(w, play, m, (false, true), i),
                    None => play.play(m),
                }
                pass.book.played(step, m, play.position(), ply);
                // A mark missing, a check mark on a move that gives no check
                // or mates: the problems the loop's `marks::mark_problem`
                // finds, for the full replay to tell.
                if warnings
                    && (play.in_check() != marked_check || marked_check && play.is_checkmate())
                {
                    pass.book.problem()?;
                }
                pass.main_move(i, m, ply);
                line.ply = ply;
            }
            TokenKind::Comment => {
                if let Some(t) = tokens.get_known(i, kind) {
                    pass.clocks.comment(t.text, t.span.start + 1, line.ply);
                }
            }
            _ => break,
        }
        i += 1;
    }
    Ok(i)
}

/// A word that is not plain English SAN resolving at once, decoded and
/// parsed in full.
struct Written<'t> {
    /// The word as decoded.
    decoded: Cow<'t, str>,
    /// Where the word starts in `decoded`, after dots written before it
    /// (`...Nf6` and `…Nf6`: black's move marked without a number).
    start: usize,
    /// The word without its dots read as plain SAN that resolves.
    fast: Option<Move>,
    /// What the word parses as (`None` where `fast` read it).
    parsed: Option<Result<MoveToken, ParseError>>,
}

impl<'t> Written<'t> {
    /// Reads `token` of `text` in `lang`, in the line's position `play`.
    fn read(
        text: GameText<'t>,
        token: &Token<'t>,
        lang: Language,
        play: Option<&Play>,
    ) -> Written<'t> {
        let decoded = text.slice(token.span.clone(), token.text);
        let start = match decoded.trim_start_matches(['.', '…']) {
            "" => 0,
            rest => decoded.len() - rest.len(),
        };
        let mut written = Written {
            decoded,
            start,
            fast: None,
            parsed: None,
        };
        if lang == Language::En
            && start > 0
            && let Some(play) = play
        {
            written.fast = play.read_plain_san(written.word().as_bytes());
        }
        if written.fast.is_none() {
            written.parsed = Some(parse_move(written.word()));
        }
        written
    }

    /// The word, without the dots written before it.
    fn word(&self) -> &str {
        self.decoded.get(self.start..).unwrap_or_default()
    }

    /// The mark or sign the word is when it is no move.
    fn annotation(&self) -> Option<Annotation> {
        match self.parsed {
            Some(Err(_)) => parse_annotation(self.word()),
            _ => None,
        }
    }

    /// Whether the word is a null move (`--`, `Z0`).
    fn is_null(&self) -> bool {
        self.parsed
            .as_ref()
            .is_some_and(|p| p.as_ref().is_ok_and(MoveToken::is_null))
    }

    /// The check or mate mark written in the word.
    fn suffix(&self) -> Suffix {
        match &self.parsed {
            Some(Ok(mt)) => mt.suffix(),
            _ => Suffix::of_plain_san(self.word().as_bytes()),
        }
    }
}

/// Judges the mark of the move `pending` holds, `pos` being its line's
/// position after it: a wrong one is recorded, or stops the plain lane.
/// Once a ply: inlined.
#[inline]
fn settle<B: Book>(
    pending: &mut Option<Mark<'_>>,
    pass: &mut Pass<B>,
    pos: Option<&Play>,
) -> Result<(), B::Stop> {
    let Some(mark) = pending.take() else {
        return Ok(());
    };
    let Some(problem) = mark.problem(pos) else {
        return Ok(());
    };
    pass.book.problem()?;
    marks::report(mark, problem, &mut pass.diagnostics);
    Ok(())
}

/// The diagnostic of a main-line null move (a warning).
fn null_move(
    span: Range<usize>,
    word: &str,
    side: Color,
    ply: u32,
    move_number: u32,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::NullMove,
        span,
        format!(
            "`{}` is a null move in the main line: {} passes, which is no move of chess",
            brief(word),
            color_name(side)
        ),
    );
    d.help.push(
        "null moves belong in analysis variations; in the game itself, write the move played"
            .to_owned(),
    );
    d.ply = Some(ply);
    d.move_number = Some(move_number);
    d.side = Some(side);
    d.token = Some(word.to_owned());
    d
}

fn is_game_over(pos: &Chess) -> bool {
    !crate::dead::has_legal_move(pos)
}

/// Tells, on the line's first error, how much of the line was not replayed.
fn finish_line(line: &Line, diagnostics: &mut Diagnostics) {
    if line.skipped == 0 {
        return;
    }
    let mut dead_diag = line.dead_diag;
    if let Some(span) = line.orphan.clone() {
        let mut d = Diagnostic::new(
            Code::Syntax,
            span,
            "this variation follows no move that it could replace",
        );
        d.help
            .push("a variation comes after the move it is an alternative to".to_owned());
        d.variation = line.depth > 1;
        dead_diag = diagnostics.push(d);
    }
    if let Some(d) = dead_diag.and_then(|i| diagnostics.get_mut(i)) {
        let n = line.skipped;
        d.help.push(format!(
            "the {} after it in this line {} not replayed: the position is unknown from here",
            if n == 1 {
                "move".to_owned()
            } else {
                format!("{n} moves")
            },
            if n == 1 { "was" } else { "were" }
        ));
    }
}

/// The position after a null move: the other side to move, no en passant,
/// and the next move number after black passes.
fn pass_turn(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    if setup.turn == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Chess::from_setup(setup, shakmaty::CastlingMode::Chess960).ok()
}

/// The position of the innermost line, if known.
fn current(lines: &[Line]) -> Option<&Play> {
    lines.last().and_then(|l| l.pos.as_ref())
}

/// `"white"` or `"black"`.
fn color_name(c: Color) -> &'static str {
    crate::diagnostic::side_name(c)
}

fn join_or(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [init @ .., last] => {
            let head: Vec<String> = init.iter().map(|n| format!("`{n}`")).collect();
            format!("{} and `{last}`", head.join(", "))
        }
    }
}

/// The words of `game`'s main line (outside every variation) that are no
/// annotation (`!?`, `+-`, …): the moves as written, and words that fail
/// to be moves. `diff` compares them, `--fix` counts them.
pub fn main_line_words<'g, 'a>(
    game: &'g Game<'a>,
    encoding: Encoding,
) -> impl Iterator<Item = Token<'a>> + 'g {
    let mut depth = 0u32;
    game.tokens.iter().filter(move |t| match t.kind {
        TokenKind::OpenVariation => {
            depth += 1;
            false
        }
        TokenKind::CloseVariation => {
            depth = depth.saturating_sub(1);
            false
        }
        TokenKind::Word => depth == 0 && parse_annotation(&encoding.decode(t.text)).is_none(),
        _ => false,
    })
}

/// Replays only the main line under `lang` and says how many plies pass
/// before the first move that does not resolve. Used to choose a language.
pub(crate) fn probe_main_line<'a>(
    game: &Game<'a>,
    text: impl Into<GameText<'a>>,
    start: &Chess,
    lang: Language,
) -> u32 {
    match walk(game, text.into(), start, lang, Probe { plies: 0 }, &mut ()) {
        Ok(pass) => pass.plies,
        Err(plies) => plies,
    }
}

/// The book of [`probe_main_line`]: the main line only, up to its first
/// error.
struct Probe {
    plies: u32,
}

impl Book for Probe {
    /// The plies played before the error.
    type Stop = u32;
    const RECORDS: bool = false;

    fn problem(&self) -> Result<(), u32> {
        Err(self.plies)
    }

    fn warnings(&self) -> bool {
        false
    }

    fn keeps_moves(&self) -> bool {
        false
    }

    fn variations(&self) -> bool {
        false
    }

    fn step(&self, _before: &Chess, _m: Move) -> Option<KeyStep> {
        None
    }

    fn played(
        &mut self,
        _step: Option<KeyStep>,
        _m: Move,
        _after: &Chess,
        ply: u32,
    ) -> Option<u64> {
        self.plies = ply;
        None
    }

    fn passed(&mut self, _after: &Chess, _ply: u32) {}
}

/// What becomes of a main-line word that fits no legal move when illegal
/// moves stand.
enum Standing {
    /// Something a board-fed broadcast added ([`crate::broadcast`]).
    Artifact(Code),
    /// The move as played, and the other languages that read the word as
    /// a legal move (the game may be in one of them).
    Stood(Move, LanguageSet),
}

/// With illegal moves that stand, what the main-line word `mt` (token
/// `index`, which fits no legal move in `play`: `err`) is: a broadcast's
/// artifact, a move that stood, or neither (the line ends there). Out of
/// the walk's loop: legal games never come here.
#[cold]
#[inline(never)]
fn standing(
    game: &Game<'_>,
    index: usize,
    mt: &MoveToken,
    err: &Option<ResolveError>,
    play: &Play,
    (lang, signalled): (Language, bool),
    main_tokens: &[u32],
) -> Option<Standing> {
    // What a board-fed broadcast adds: a move sent twice, the kings put
    // on the centre at the end.
    let word = |i: usize| game.tokens.get(i).map(|t| t.text);
    let previous_word = main_tokens
        .len()
        .checked_sub(2)
        .and_then(|i| main_tokens.get(i))
        .and_then(|&i| word(i as usize));
    let king_to = match mt.san() {
        Some(shakmaty::san::San::Normal {
            role: Role::King,
            to,
            ..
        }) => Some(to),
        _ => None,
    };
    let repeated = previous_word.is_some() && previous_word == word(index);
    if let Some(code) = crate::broadcast::artifact(game, index, signalled, repeated, king_to) {
        return Some(Standing::Artifact(code));
    }
    if !matches!(err, Some(ResolveError::Illegal)) || is_game_over(play.position()) {
        return None;
    }
    let m = mt.resolve_as_played(play.position(), lang).ok()?;
    // Other languages may read the word legally: those in which its
    // letters mean pieces of their own (a word without letters reads
    // alike in all). Each reading is tried once.
    let mut foreign = LanguageSet::EMPTY;
    if mt.has_letters() {
        let mut tried = vec![(lang, false)];
        for l in mt.own_languages().iter() {
            let legal = match tried.iter().find(|t| mt.reads_alike(t.0, l)) {
                Some(&(_, legal)) => legal,
                None => {
                    let legal = mt.resolve(play.position(), l).is_ok();
                    tried.push((l, legal));
                    legal
                }
            };
            if legal {
                foreign.insert(l);
            }
        }
    }
    Some(Standing::Stood(m, foreign))
}

/// The `illegal-move` error of `m`, a move that stood though illegal in
/// `play`, written `word`.
fn stood_move(span: Range<usize>, word: &str, play: &Play, m: &Move) -> Diagnostic {
    let fault = pgnkit_notation::stood::Fault::of(play.position(), m);
    let mut d = Diagnostic::new(
        Code::IllegalMove,
        span,
        format!(
            "`{}` is not a legal move for {} here ({}); it stood, and the game goes on from the position it made",
            brief(word),
            color_name(play.position().turn()),
            fault.describe()
        ),
    );
    d.stood = true;
    d.help.push(
        "the move was replayed as played (--illegal-moves stand); the game's rulings say what the Laws give"
            .to_owned(),
    );
    d
}

/// The error of a word that is no move here: `parsed` is what it was read
/// as (`None` for plain SAN read at once), `err` why it did not resolve in
/// `play` (whose line had reached ply `at`) under `lang`.
fn move_error(
    span: Range<usize>,
    word: &str,
    parsed: Option<&Result<MoveToken, ParseError>>,
    err: Option<ResolveError>,
    play: &Play,
    at: u32,
    lang: Language,
) -> Diagnostic {
    let shown = brief(word);
    match (parsed, err) {
        (Some(Err(parse_error)), _) => Diagnostic::new(
            Code::UnparsableMove,
            span,
            match parse_error {
                ParseError::Unparsable => {
                    format!("`{shown}` is not a move in any notation pgnkit reads")
                }
                other => format!("`{shown}` is not a move: {other}"),
            },
        ),
        _ if is_game_over(play.position()) => {
            let what = if play.in_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            Diagnostic::new(
                Code::MovesAfterEnd,
                span,
                format!("the game already ended in {what} at ply {at}; `{shown}` comes after it"),
            )
        }
        (_, Some(ResolveError::Ambiguous(candidates))) => {
            let names: Vec<String> = candidates
                .iter()
                .map(|c| SanPlus::from_move(play.position().clone(), *c).to_string())
                .collect();
            let mut d = Diagnostic::new(
                Code::AmbiguousMove,
                span,
                format!(
                    "`{shown}` is ambiguous: {} {} fit",
                    join_or(&names),
                    if names.len() == 2 { "both" } else { "all" }
                ),
            );
            d.help.push(format!("write one of {}", join_or(&names)));
            d
        }
        (_, Some(ResolveError::UnknownPiece)) => Diagnostic::new(
            Code::UnparsableMove,
            span,
            format!("`{shown}` names no piece in {} notation", lang.name()),
        ),
        _ => Diagnostic::new(
            Code::IllegalMove,
            span,
            format!(
                "`{shown}` is not a legal move for {} here",
                color_name(play.position().turn())
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_pgn::Reader;

    #[test]
    fn a_variation_follows_a_move_across_its_marks_and_comments() {
        let mut game = Game::default();
        Reader::new(b"1. e4 $1 {best} (1. d4) e5 *").read_game(&mut game);
        assert!(variation_follows(&game.tokens, 1));
        assert!(!variation_follows(&game.tokens, 5));
    }
}
