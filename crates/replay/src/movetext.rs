//! The replay of a game's movetext: main line and variations, token by token.
//!
//! Every token is accounted for: a move is played, an annotation marks the
//! move before it, a move number is checked against the ply, and a word that
//! is no move in any notation is an `unparsable-move` error. After the first
//! error in a line the position is unknown, so the rest of that line is not
//! replayed (and the diagnostic says how much was left); variations that
//! branch off before the error are still replayed.

use std::ops::Range;

use pgnkit_notation::{
    Annotation, Language, Line as Play, MoveToken, Notation, ResolveError, Style, Suffix,
    parse_annotation, parse_move, write_move, write_move_checked,
};
use pgnkit_pgn::text::Encoding;
use pgnkit_pgn::write::Moves;
use pgnkit_pgn::{Game, Token, TokenKind, Tokens};
use shakmaty::{Chess, Color, FromSetup, Move, Position, san::SanPlus};

use crate::diagnostic::{Code, Diagnostic, Diagnostics, brief};
use crate::outcome::{History, KeyStep, Status, Tracker};
use crate::positions::{PositionFormat, write_position};
use crate::text::GameText;

/// What a [`Visitor`] sees for each move played.
#[derive(Debug)]
pub struct MoveEvent<'a> {
    /// Index of the move's token in [`Game::tokens`].
    pub token: usize,
    /// The position before the move.
    pub before: &'a Chess,
    /// The move.
    pub played: Move,
    /// The position after the move.
    pub after: &'a Chess,
    /// Whether the move gives check (the side to move in `after` is in
    /// check).
    pub check: bool,
    /// 1-based ply of the move in its line (counted from the game's start).
    pub ply: u32,
    /// 0 in the main line, 1 in a variation, 2 in a variation of a variation …
    pub depth: u32,
    /// The Zobrist key of `after` (Law 9.2 identity), main line only.
    pub key: Option<u64>,
}

/// Receives the moves of a game as they are replayed. Every method has a
/// default that does nothing.
pub trait Visitor {
    /// The replay starts again (under another piece-letter language):
    /// forget the moves seen so far for this game.
    fn restart(&mut self) {}
    /// The replay of the movetext starts from `start` (the standard
    /// position or the FEN tag's), again after each [`Visitor::restart`].
    fn on_start(&mut self, start: &Chess) {
        let _ = start;
    }
    /// Whether [`Visitor::on_move`] wants to see the moves (with the
    /// positions before and after them). A visitor that does not spares the
    /// replay a copy of the position per move.
    const WANTS_POSITIONS: bool = true;
    /// A move was played.
    fn on_move(&mut self, event: &MoveEvent<'_>) {
        let _ = event;
    }
    /// For a visitor that only writes each move into a [`Moves`] (as
    /// [`MoveWriter`] does): where and how. The replay may then write each
    /// move itself while it plays it, looking at each position once,
    /// instead of calling [`Visitor::on_move`]; the moves written are the
    /// same.
    fn move_writing(&mut self) -> Option<MoveWriting<'_>> {
        None
    }
}

/// Where and how a [`Visitor`] writes moves ([`Visitor::move_writing`]).
pub struct MoveWriting<'a> {
    /// The style of the written form.
    pub style: &'a Style,
    /// The style of the UCI form, if it is written too.
    pub uci: Option<&'a Style>,
    /// Whether each move's note is the FEN of the position after it
    /// ([`MoveWriter::with_fen_notes`]).
    pub fen: bool,
    /// Where the moves go.
    pub moves: &'a mut Moves,
}

impl Visitor for () {
    const WANTS_POSITIONS: bool = false;
}

/// A [`Visitor`] that writes every move played (main line and variations)
/// in a [`Style`] into a [`Moves`], by token index: what the
/// [PGN writer](pgnkit_pgn::write::Writer) and the [JSON record](crate::json)
/// write for each move.
///
/// ```
/// use pgnkit_notation::{Language, Notation, Style};
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Moves, Writer};
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{MoveWriter, Options, replay_game_with};
///
/// let pgn = "[Event \"Moscou\"]\n\n1. e4 c5 (1... e5 2. Cf3) 2. Cf3 d6 *\n".as_bytes();
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let mut moves = Moves::new(false);
/// let figurine = Style::new(Notation::Figurine, Language::En);
/// let report = replay_game_with(pgn, &game, &Options::default(), &mut MoveWriter::new(figurine, false, &mut moves));
/// assert_eq!(report.language, Language::Fr);
///
/// let mut out = Vec::new();
/// Writer::new().write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
/// assert_eq!(
///     String::from_utf8(out)?,
///     "[Event \"Moscou\"]\n\n1. e4 c5 ( 1... e5 2. ♘f3 ) 2. ♘f3 d6 *\n\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MoveWriter<'m> {
    style: Style,
    uci: Option<Style>,
    fen: bool,
    moves: &'m mut Moves,
}

impl<'m> MoveWriter<'m> {
    /// Writes moves in `style` into `moves` (emptied first), and in UCI too
    /// when `uci`.
    pub fn new(style: Style, uci: bool, moves: &'m mut Moves) -> MoveWriter<'m> {
        moves.reset();
        MoveWriter {
            style,
            uci: uci.then(|| Style::new(Notation::Uci, Language::En)),
            fen: false,
            moves,
        }
    }

    /// Gives each move the FEN of the position after it as its note
    /// ([`Moves::push_noted`]): the PGN writer puts it in a comment after
    /// the move (pgn-extract's `--fencomments`).
    ///
    /// ```
    /// use pgnkit_notation::Style;
    /// use pgnkit_pgn::text::GameText;
    /// use pgnkit_pgn::write::{Moves, Writer};
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{MoveWriter, Options, replay_game_with};
    ///
    /// let pgn = b"1. e4 *";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let mut moves = Moves::new(true);
    /// replay_game_with(pgn, &game, &Options::default(), &mut MoveWriter::new(Style::SAN, false, &mut moves).with_fen_notes());
    /// let mut out = Vec::new();
    /// Writer::new().write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
    /// assert_eq!(
    ///     String::from_utf8(out)?,
    ///     "1. e4 {rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1} *\n\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_fen_notes(mut self) -> MoveWriter<'m> {
        self.fen = true;
        self
    }
}

impl Visitor for MoveWriter<'_> {
    fn move_writing(&mut self) -> Option<MoveWriting<'_>> {
        Some(MoveWriting {
            style: &self.style,
            uci: self.uci.as_ref(),
            fen: self.fen,
            moves: self.moves,
        })
    }

    fn restart(&mut self) {
        self.moves.reset();
    }

    fn on_start(&mut self, start: &Chess) {
        self.moves
            .set_start(start.fullmoves().get(), start.turn() == Color::White);
    }

    fn on_move(&mut self, event: &MoveEvent<'_>) {
        let (style, uci, fen) = (&self.style, &self.uci, self.fen);
        self.moves.push_noted(
            event.token,
            event.before.fullmoves().get(),
            event.before.turn() == Color::White,
            |text, uci_text, note| {
                if fen {
                    write_position(event.after, PositionFormat::Fen, note);
                }
                write_move_checked(
                    event.before,
                    &event.played,
                    event.after,
                    event.check,
                    style,
                    text,
                );
                if let Some(uci) = uci {
                    write_move(event.before, &event.played, uci, uci_text);
                }
            },
        );
    }
}

/// Whether a variation (which needs the position before the move at
/// `index`) follows the move, with only comments, NAGs and marks between.
/// Marks are recognised cheaply as words without a digit; a word that is
/// really a move without a digit (castling) only costs a copy. At most
/// eight words (`MAX_MARKS`) are looked at, so that a run of digitless words
/// (null moves, junk) costs linear time in all.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::movetext::variation_follows;
///
/// let mut game = Game::default();
/// Reader::new(b"1. e4 $1 {best} (1. d4) e5 *").read_game(&mut game);
/// assert!(variation_follows(&game.tokens, 1));
/// assert!(!variation_follows(&game.tokens, 5));
/// ```
pub fn variation_follows(tokens: &Tokens<'_>, index: usize) -> bool {
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
pub use pgnkit_pgn::MAX_VARIATION_DEPTH;

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
pub struct Failure {
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
pub struct Pass {
    /// Diagnostics in token order (the first ones kept, the others counted).
    pub diagnostics: Diagnostics,
    /// Main-line plies played.
    pub plies: u32,
    /// The last main-line position reached (before any error).
    pub final_position: Chess,
    /// Repetition and move-rule tracking of the main line.
    pub tracker: Tracker,
    /// The main line's first error.
    pub failure: Option<Failure>,
    /// The main-line moves played, in order.
    pub main_moves: Vec<MainMove>,
    /// Token indices of every main-line word that was read as a move
    /// attempt (played, failed or not replayed), in order.
    pub main_tokens: Vec<u32>,
    /// The main line reached checkmate or stalemate at this ply.
    pub ended: Option<(Status, u32)>,
}

struct Pending<'a> {
    token: usize,
    text: &'a [u8],
    span: Range<usize>,
    written: Suffix,
    /// The mark written in the move's own word (`written` may come from a
    /// mark written as a word of its own after it).
    own: Suffix,
    check: bool,
    /// `None` until known (a check followed by nothing in its line).
    mate: Option<bool>,
    double: bool,
    ply: u32,
    move_number: u32,
    side: Color,
    variation: bool,
}

struct Line {
    /// `None` once an error made the position unknown.
    pos: Option<Play>,
    /// The position before the last move (a variation starts there).
    before: Option<Play>,
    ply: u32,
    depth: u32,
    /// Checkmate or stalemate reached in this line: (status, ply).
    ended: Option<(Status, u32)>,
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
            ended: None,
            skipped: 0,
            dead_diag: None,
            number_offset: None,
            orphan: None,
        }
    }
}

/// Replays the movetext of `game` from `start` reading piece letters as
/// `lang`, keeping the main line's position keys `history` says.
/// Diagnostics about tags and structure are the caller's.
pub fn replay_movetext<V: Visitor>(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    lang: Language,
    history: History,
    visitor: &mut V,
) -> Pass {
    let mut pass = Pass {
        diagnostics: Diagnostics::default(),
        plies: 0,
        final_position: start.clone(),
        tracker: Tracker::with_history(start, history),
        failure: None,
        main_moves: Vec::with_capacity(game.tokens.len().min(1 << 12)),
        main_tokens: Vec::with_capacity(game.tokens.len().min(1 << 12)),
        ended: None,
    };
    pass.tracker.reserve(game.tokens.len().min(1 << 12));
    let mut lines: Vec<Line> = vec![Line::new(Some(Play::new(start.clone())), 0, 0)];
    let mut pending: Option<Pending<'_>> = None;

    for (index, token) in game.tokens.iter().enumerate() {
        let span = token.span.clone();
        match token.kind {
            TokenKind::Word => {
                let word = text.slice(span.clone(), token.text);
                // `...Nf6` and `…Nf6`: black's move marked without a number.
                let text = match word.trim_start_matches(['.', '…']) {
                    "" => word.as_ref(),
                    rest => rest,
                };
                // Plain English SAN that resolves at once, the common case,
                // is read in one step; any other word is parsed in full.
                let fast = (lang == Language::En)
                    .then(|| lines.last().and_then(|l| l.pos.as_ref()))
                    .flatten()
                    .and_then(|play| play.read_plain_san(text.as_bytes()));
                let parsed = match fast {
                    Some(_) => None,
                    None => Some(parse_move(text)),
                };
                // A move first, then a mark on the move before.
                if let Some(Err(_)) = parsed
                    && let Some(annotation) = parse_annotation(text)
                {
                    if let Some(p) = pending.as_mut() {
                        match annotation {
                            Annotation::Check if p.written == Suffix::None => {
                                p.written = Suffix::Check
                            }
                            Annotation::DoubleCheck if p.written == Suffix::None => {
                                p.written = Suffix::DoubleCheck
                            }
                            Annotation::Mate => p.written = Suffix::Mate,
                            _ => {}
                        }
                    }
                    continue;
                }
                // The mark on the move before is judged once this word is
                // read: if it can be played, the move before did not mate.
                let mut previous = pending.take();
                let Some(line) = lines.last_mut() else {
                    flush(&mut previous, &mut pass.diagnostics, None);
                    continue;
                };
                if line.depth == 0 {
                    // 4 bytes a word. A game of more than 2^32 tokens (64 GiB
                    // of them in memory) would only lose repair beyond them.
                    if let Ok(i) = u32::try_from(index) {
                        pass.main_tokens.push(i);
                    }
                }
                let Some(play) = line.pos.as_mut() else {
                    flush(&mut previous, &mut pass.diagnostics, None);
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
                if parsed
                    .as_ref()
                    .is_some_and(|p| p.as_ref().is_ok_and(MoveToken::is_null))
                    && !play.in_check()
                    && let Some(passed) = pass_turn(play.position())
                {
                    flush(&mut previous, &mut pass.diagnostics, Some(play));
                    if line.depth == 0 {
                        if pass.diagnostics.has_room(Code::NullMove) {
                            let shown = brief(text);
                            let mut d = Diagnostic::new(
                                Code::NullMove,
                                span.clone(),
                                format!(
                                    "`{shown}` is a null move in the main line: {} passes, which is no move of chess",
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
                            d.token = Some(text.to_owned());
                            pass.diagnostics.push(d);
                        } else {
                            pass.diagnostics.count(Code::NullMove);
                        }
                    }
                    // A variation after the null move replaces it: it starts
                    // from the position before it.
                    let before = std::mem::replace(play, Play::new(passed));
                    if line.depth == 0 {
                        pass.tracker.push_key(
                            crate::outcome::position_key(play.position()),
                            play.position(),
                            ply,
                        );
                        pass.plies = ply;
                    }
                    line.before = Some(before);
                    line.ply = ply;
                    continue;
                }
                let outcome = match (fast, &parsed) {
                    (Some(m), _) => Ok(m),
                    (None, Some(Ok(mt))) => play.resolve(mt, lang).map_err(Some),
                    (None, _) => Err(None),
                };
                match outcome {
                    Ok(m) => {
                        let need_before =
                            V::WANTS_POSITIONS || variation_follows(&game.tokens, index);
                        if let Some(p) = previous.as_mut() {
                            p.mate = Some(false);
                        }
                        flush(&mut previous, &mut pass.diagnostics, None);
                        let step = (line.depth == 0)
                            .then(|| KeyStep::new(play.position(), pass.tracker.key(), m));
                        let before = need_before.then(|| play.clone());
                        play.play(m);
                        let key =
                            step.map(|step| pass.tracker.push_step(step, play.position(), ply));
                        if let Some(before) = before.as_ref() {
                            visitor.on_move(&MoveEvent {
                                token: index,
                                before: before.position(),
                                played: m,
                                after: play.position(),
                                check: play.in_check(),
                                ply,
                                depth: line.depth,
                                key,
                            });
                        }
                        let check = play.in_check();
                        // Mate is decided lazily: most checks are followed by a move.
                        let mate = if check { None } else { Some(false) };
                        let written = match &parsed {
                            Some(Ok(mt)) => mt.suffix(),
                            _ => Suffix::of_plain_san(text.as_bytes()),
                        };
                        // Only `++` needs to know about double check.
                        let double = check
                            && written == Suffix::DoubleCheck
                            && play.position().checkers().count() > 1;
                        pending = Some(Pending {
                            token: index,
                            text: token.text,
                            span,
                            written,
                            own: written,
                            check,
                            mate,
                            double,
                            ply,
                            move_number,
                            side,
                            variation,
                        });
                        if line.depth == 0 {
                            pass.main_moves.push(MainMove {
                                token: u32::try_from(index).unwrap_or(u32::MAX),
                                played: m,
                            });
                            pass.plies = ply;
                        }
                        // (Most moves keep no position before them: no copy then.)
                        if before.is_some() || line.before.is_some() {
                            line.before = before;
                        }
                        line.ply = ply;
                    }
                    Err(err) => {
                        flush(&mut previous, &mut pass.diagnostics, Some(play));
                        let shown = brief(text);
                        let mut d = match (&parsed, err) {
                            (Some(Err(parse_error)), _) => Diagnostic::new(
                                Code::UnparsableMove,
                                span,
                                match parse_error {
                                    pgnkit_notation::ParseError::Unparsable => {
                                        format!(
                                            "`{shown}` is not a move in any notation pgnkit reads"
                                        )
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
                                let at = line.ply;
                                Diagnostic::new(
                                    Code::MovesAfterEnd,
                                    span,
                                    format!(
                                        "the game already ended in {what} at ply {at}; `{shown}` comes after it"
                                    ),
                                )
                            }
                            (_, Some(ResolveError::Ambiguous(candidates))) => {
                                let names: Vec<String> = candidates
                                    .iter()
                                    .map(|c| {
                                        SanPlus::from_move(play.position().clone(), *c).to_string()
                                    })
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
                                    color_name(side)
                                ),
                            ),
                        };
                        let is_move = matches!(parsed, Some(Ok(_)));
                        let resolvable_elsewhere = is_move && d.code != Code::MovesAfterEnd;
                        d.ply = Some(ply);
                        d.move_number = Some(move_number);
                        d.side = Some(side);
                        d.token = Some(text.to_owned());
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
                    }
                }
            }
            TokenKind::MoveNumber { number, black } => {
                flush(&mut pending, &mut pass.diagnostics, current(&lines));
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
                    if offset != 0 {
                        line.number_offset = Some(offset);
                    }
                    if !pass.diagnostics.has_room(Code::MoveNumber) {
                        pass.diagnostics.count(Code::MoveNumber);
                        continue;
                    }
                    let (side, text) =
                        (pos.turn(), String::from_utf8_lossy(token.text).into_owned());
                    let mut d = Diagnostic::new(
                        Code::MoveNumber,
                        span,
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
                flush(&mut pending, &mut pass.diagnostics, current(&lines));
                let open = span.start..span.start + 1;
                let mut d = Diagnostic::new(
                    Code::Syntax,
                    open,
                    format!(
                        "variations nested more than {MAX_VARIATION_DEPTH} deep are not replayed"
                    ),
                );
                d.help
                    .push("the moves inside this variation were read but not checked".to_owned());
                d.variation = true;
                pass.diagnostics.push(d);
            }
            TokenKind::OpenVariation => {
                flush(&mut pending, &mut pass.diagnostics, current(&lines));
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
                    // left; with no move before it to replace, say so here.
                    line.dead_diag = dead_diag;
                    if dead_diag.is_none() {
                        line.orphan = Some(span);
                    }
                }
                lines.push(line);
            }
            TokenKind::CloseVariation => {
                flush(&mut pending, &mut pass.diagnostics, current(&lines));
                if lines.len() > 1
                    && let Some(line) = lines.pop()
                {
                    finish_line(&line, &mut pass.diagnostics);
                }
            }
            TokenKind::Result(_) => flush(&mut pending, &mut pass.diagnostics, current(&lines)),
            _ => {}
        }
    }
    flush(&mut pending, &mut pass.diagnostics, current(&lines));
    // Lines left open by an unterminated variation, then the main line.
    while let Some(line) = lines.pop() {
        finish_line(&line, &mut pass.diagnostics);
        if line.depth == 0 {
            pass.ended = line.ended;
            if let Some(play) = line.pos {
                pass.final_position = play.into_position();
            } else if let Some(f) = &pass.failure {
                pass.final_position = f.position.clone();
            }
        }
    }
    pass
}

fn is_game_over(pos: &Chess) -> bool {
    pos.legal_moves().is_empty()
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

/// Is `b` a UCI move (`e2e4`, `e7e8q`) or an ICCF numeric one (`5254`,
/// `27281`)? Neither notation marks checks, so a missing mark on one is no
/// problem.
pub(crate) fn is_uci(b: &[u8]) -> bool {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    ((b.len() == 4 || (b.len() == 5 && matches!(b[4], b'q' | b'r' | b'b' | b'n')))
        && square(b[0], b[1])
        && square(b[2], b[3]))
        || pgnkit_notation::token::is_iccf(b)
}

/// What is wrong with the check or mate mark `written` on a move that gives
/// check (`check`; by two pieces: `double`) and mates (`mate`): the problem
/// in words and the right mark; `None` when the mark is right.
pub(crate) fn mark_problem(
    written: Suffix,
    check: bool,
    double: bool,
    mate: bool,
) -> Option<(&'static str, &'static str)> {
    match written {
        Suffix::Mate if !mate && check => Some(("marks mate, but the move only gives check", "+")),
        Suffix::Mate if !mate => Some(("marks mate, but the move gives no check", "")),
        Suffix::Check if mate => Some(("marks check, but the move mates", "#")),
        Suffix::Check if !check => Some(("marks check, but the move gives no check", "")),
        Suffix::DoubleCheck if !check => Some(("marks check, but the move gives no check", "")),
        Suffix::DoubleCheck if !double && !mate => {
            Some(("marks double check, but only one piece gives check", "+"))
        }
        Suffix::None if mate => Some(("is missing the mate mark", "#")),
        Suffix::None if check => Some(("is missing the check mark", "+")),
        _ => None,
    }
}

/// The position of the innermost line, if known.
fn current(lines: &[Line]) -> Option<&Play> {
    lines.last().and_then(|l| l.pos.as_ref())
}

/// Judges the check or mate mark of the pending move. `pos` is the position
/// after it, for deciding mate where that is not known yet.
fn flush(pending: &mut Option<Pending<'_>>, diagnostics: &mut Diagnostics, pos: Option<&Play>) {
    let Some(p) = pending.take() else { return };
    let mate = p
        .mate
        .unwrap_or_else(|| pos.is_some_and(Play::is_checkmate));
    // UCI and ICCF numeric never mark checks: no warning for a missing mark.
    if p.written == Suffix::None && (p.check || mate) && is_uci(p.text) {
        return;
    }
    let Some((what, mark)) = mark_problem(p.written, p.check, p.double, mate) else {
        return;
    };
    // The word rewritten with the right mark, where the mark is the word's
    // own (a mark written as a word of its own is left as it is).
    // (The word's text is its whole span, so that the rewrite replaces it.)
    let rewrite = (p.written == p.own && p.text.len() == p.span.len())
        .then(|| std::str::from_utf8(p.text).ok())
        .flatten()
        .and_then(|word| {
            let rest = word.trim_start_matches(['.', '…']);
            let dots = word.get(..word.len() - rest.len())?;
            let suffix = match mark {
                "+" => Suffix::Check,
                "#" => Suffix::Mate,
                _ => Suffix::None,
            };
            pgnkit_notation::with_suffix(rest, suffix).map(|w| format!("{dots}{w}"))
        });
    if !diagnostics.has_room(Code::CheckMark) {
        diagnostics.count(Code::CheckMark);
        return;
    }
    let mut d = Diagnostic::new(Code::CheckMark, p.span, format!("the move {what}"));
    d.help.push(if mark.is_empty() {
        "write the move without `+` or `#`".to_owned()
    } else {
        format!("write the move with `{mark}`")
    });
    d.ply = Some(p.ply);
    d.move_number = Some(p.move_number);
    d.side = Some(p.side);
    d.variation = p.variation;
    d.rewrite = rewrite;
    d.token = Some(
        String::from_utf8_lossy(p.text)
            .trim_start_matches(['.', '…'])
            .to_owned(),
    );
    let _ = p.token;
    diagnostics.push(d);
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
pub(crate) fn main_line_words<'g, 'a>(
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
pub fn probe_main_line<'a>(
    game: &Game<'a>,
    text: impl Into<GameText<'a>>,
    start: &Chess,
    lang: Language,
) -> u32 {
    let text = text.into();
    let mut pos = start.clone();
    let mut depth = 0u32;
    let mut plies = 0;
    for token in &game.tokens {
        match token.kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                let text = text.slice(token.span.clone(), token.text);
                match parse_move(&text) {
                    Ok(mt) => match mt.resolve(&pos, lang) {
                        Ok(m) => {
                            pos.play_unchecked(m);
                            plies += 1;
                        }
                        Err(_) => return plies,
                    },
                    Err(_) if parse_annotation(&text).is_some() => {}
                    Err(_) => return plies,
                }
            }
            _ => {}
        }
    }
    plies
}
