//! The fast lane of the replay, for plain games when the caller asked for
//! errors only ([`Detail::Errors`](crate::Detail::Errors)) or for the
//! diagnostics only ([`Detail::Diagnostics`](crate::Detail::Diagnostics)).
//!
//! A plain game starts from the standard position, is UTF-8, has no broken
//! structure, and every word of it is plain English SAN (with glyphs) or an
//! annotation; every move is legal, and the final position's status (mate,
//! stalemate, no fivefold repetition or 75-move rule on the way, no dead
//! position) agrees with the recorded result. Such a game has no error, and
//! its report is made here without the full replay's bookkeeping (no
//! Zobrist keys, no claims, no warnings). Anything else gives `None`, and
//! the full replay redoes the game from the start, diagnostics and language
//! detection included.
//!
//! For [`Detail::Diagnostics`](crate::Detail::Diagnostics) the lane also
//! gives `None` where the full replay would give a warning: a check or
//! mate mark missing or wrong (judged inline, as each move is played), a
//! move number that does not match, a mark written as a word of its own,
//! moves after an automatic draw. A game it takes then has no diagnostic
//! at all.

use std::collections::HashMap;

use pgnkit_notation::{
    Annotation, Language, Line, MoveToken, Suffix, parse_annotation, parse_move, write_move,
};
use pgnkit_pgn::{Game, Token, TokenKind};
use shakmaty::{Chess, Color, Move, Position};

use crate::Detail;
use crate::movetext::{MainMove, MoveEvent, Visitor, is_uci, mark_problem, variation_follows};
use crate::outcome::Keyed;
use crate::outcome::{self, GameResult, History, KeyStep, Status, Tracker};
use crate::positions::{PositionFormat, write_position};
use crate::text::{Encoding, GameText};

/// A line being replayed by [`replay`].
struct FastLine {
    line: Line,
    /// The position before the line's last move (valid when `has_before`),
    /// kept only when a variation follows that move.
    before: Line,
    has_before: bool,
    /// The mark written on the line's last move when that move gave check
    /// and whether it mated is not known yet (diagnostics only): the next
    /// move played in the line says it did not, the end of the line looks.
    unjudged: Option<Suffix>,
}

/// Whether the full replay finds the check or mate mark `written` right
/// on a move that gave check (`check`) and mated (`mate`), by its own rule
/// ([`mark_problem`]); `++` is left to the full replay, which knows whether
/// two pieces give check.
fn mark_is_right(written: Suffix, check: bool, mate: bool) -> bool {
    written != Suffix::DoubleCheck && mark_problem(written, check, false, mate).is_none()
}

/// Whether the mark left unjudged on `line`'s last move is right, the line
/// having ended (mate is looked at only now).
fn ends_right(line: &FastLine) -> bool {
    line.unjudged
        .is_none_or(|w| mark_is_right(w, true, line.line.is_checkmate()))
}

/// What the fast lane found out about a plain game: the rest of the
/// report is the full replay's for a game without errors.
pub(crate) struct Fast {
    /// The main-line moves (empty with [`Detail::Errors`], which does not
    /// report them).
    pub moves: Vec<MainMove>,
    /// How many main-line moves were played.
    pub plies: u32,
    /// The final status (never dead: those games take the full replay).
    pub status: Status,
    /// The dead-position search at the end ran out of budget.
    pub undecided: bool,
    /// The final position's side to move.
    pub turn: Color,
    /// The key of every main-line position, the start included
    /// ([`Detail::Keys`] only; empty otherwise).
    pub keys: Vec<u64>,
}

/// Replays a plain game, showing its moves to `visitor`; `None` (after
/// which the visitor must be restarted) when the game is not plain, or,
/// with [`Detail::Diagnostics`], when the full replay would warn about it.
/// With [`Detail::Keys`] the main line's position keys are computed too.
pub(crate) fn replay<V: Visitor>(
    game: &Game<'_>,
    text: &GameText<'_>,
    visitor: &mut V,
    detail: Detail,
) -> Option<Fast> {
    let diagnostics = detail == Detail::Diagnostics;
    let with_keys = detail == Detail::Keys;
    if !game.errors.is_empty()
        || game.omitted_errors > 0
        || text.encoding() != Encoding::Utf8
        || game
            .tags
            .iter()
            .any(|t| matches!(t.name, b"FEN" | b"Variant" | b"SetUp"))
    {
        return None;
    }
    // Rulings the full replay makes from the tags: the Result tag against
    // the termination marker, and a loss on time (Law 6.9).
    let tag_result = game
        .tag("Result")
        .and_then(|t| pgnkit_pgn::GameResult::from_bytes(t.value().trim_ascii()));
    if tag_result.is_some() && game.result().is_some() && tag_result != game.result() {
        return None;
    }
    if game
        .tag("Termination")
        .is_some_and(|t| crate::lost_on_time(&String::from_utf8_lossy(&t.value())))
    {
        return None;
    }
    let start = Line::new(Chess::default());
    let mut lines = Vec::with_capacity(4);
    lines.push(FastLine {
        line: start.clone(),
        before: start,
        has_before: false,
        unjudged: None,
    });
    // Two moves for every three tokens (`12.`, White's, Black's) in most
    // games: no reallocation on the way.
    let keep_moves = detail != Detail::Errors;
    let mut main: Vec<MainMove> = if keep_moves {
        Vec::with_capacity(game.tokens.len().saturating_mul(2) / 3 + 4)
    } else {
        Vec::new()
    };
    let mut plies = 0u32;
    // Without the main-line moves kept, the automatic draws are looked for
    // as the line is played; with them, once at the end.
    let mut draws = DrawWatch::new();
    let mut max_clock = 0u32;
    let mut before = Chess::default();
    let mut keys: Vec<u64> = Vec::new();
    if with_keys {
        keys.reserve(game.tokens.len().saturating_mul(2) / 3 + 5);
        keys.push(outcome::position_key(&before));
    }
    for (index, kind) in game.tokens.kinds().enumerate() {
        match kind {
            TokenKind::Word => {
                // The text of words only: the other tokens need their kind.
                let token = game.tokens.get(index)?;
                let depth = lines.len().saturating_sub(1);
                let line = lines.last_mut()?;
                let (m, written) = match line.line.read_plain_san(token.text) {
                    Some(m) => (m, Suffix::of_plain_san(token.text)),
                    None => {
                        let Some(mt) = fast_move_token(&token, text) else {
                            let word = text.slice(token.span.clone(), token.text);
                            let annotation = parse_annotation(&word)?;
                            // A mark of its own changes the move's mark; a
                            // word that reads as a move (a null move) is one.
                            if diagnostics
                                && (matches!(
                                    annotation,
                                    Annotation::Check | Annotation::DoubleCheck | Annotation::Mate
                                ) || parse_move(word.trim_start_matches(['.', '…'])).is_ok())
                            {
                                return None;
                            }
                            continue;
                        };
                        // Dots glued before the move (`...Nf3`, `…Nf3`).
                        if diagnostics
                            && (token.text.starts_with(b".")
                                || token.text.starts_with("…".as_bytes()))
                        {
                            return None;
                        }
                        (line.line.resolve(&mt, Language::En).ok()?, mt.suffix())
                    }
                };
                if diagnostics {
                    // The move before gave check; this one is legal, so it
                    // did not mate.
                    if let Some(w) = line.unjudged.take()
                        && !mark_is_right(w, true, false)
                    {
                        return None;
                    }
                }
                if depth == 0 {
                    plies = plies.saturating_add(1);
                }
                let step = (with_keys && depth == 0).then(|| {
                    KeyStep::new(
                        line.line.position(),
                        keys.last().copied().unwrap_or_default(),
                        m,
                    )
                });
                line.has_before = variation_follows(&game.tokens, index);
                if line.has_before {
                    line.before.clone_from(&line.line);
                }
                if let Some(w) = visitor.move_writing() {
                    // Written while played: each position looked at once.
                    let pos = line.line.position();
                    let (number, white) = (pos.fullmoves().get(), pos.turn() == Color::White);
                    let play = &mut line.line;
                    let fen = w.fen;
                    w.moves
                        .push_noted(index, number, white, |text, uci_text, note| {
                            if let Some(uci) = w.uci {
                                write_move(play.position(), &m, uci, uci_text);
                            }
                            play.write_and_play(m, w.style, text);
                            if fen {
                                write_position(play.position(), PositionFormat::Fen, note);
                            }
                        });
                } else if V::WANTS_POSITIONS {
                    before.clone_from(line.line.position());
                    line.line.play(m);
                    visitor.on_move(&MoveEvent {
                        token: index,
                        before: &before,
                        played: m,
                        after: line.line.position(),
                        check: line.line.in_check(),
                        ply: ply_of(&before),
                        depth: u32::try_from(depth).unwrap_or(u32::MAX),
                        key: None,
                    });
                } else {
                    line.line.play(m);
                }
                if diagnostics {
                    let check = line.line.in_check();
                    if !check {
                        if !mark_is_right(written, false, false) {
                            return None;
                        }
                    } else if written == Suffix::None {
                        // UCI and ICCF numeric never mark checks.
                        if !is_uci(token.text) {
                            return None;
                        }
                    } else if written == Suffix::DoubleCheck {
                        return None;
                    } else {
                        line.unjudged = Some(written);
                    }
                }
                let after = line.line.position();
                if let Some(step) = step {
                    keys.push(step.finish(after));
                }
                if depth == 0 {
                    if keep_moves {
                        main.push(MainMove {
                            token: u32::try_from(index).unwrap_or(u32::MAX),
                            played: m,
                        });
                        max_clock = max_clock.max(after.halfmoves());
                    } else {
                        draws.after(m, after, plies);
                    }
                }
            }
            TokenKind::OpenVariation => {
                let parent = lines.last()?;
                if !parent.has_before {
                    return None;
                }
                let start = parent.before.clone();
                lines.push(FastLine {
                    line: start.clone(),
                    before: start,
                    has_before: false,
                    unjudged: None,
                });
            }
            TokenKind::CloseVariation => {
                if lines.len() < 2 {
                    return None;
                }
                let line = lines.pop()?;
                if diagnostics && !ends_right(&line) {
                    return None;
                }
            }
            TokenKind::MoveNumber { number, black } if diagnostics => {
                // The full replay's move-number warning.
                let pos = lines.last()?.line.position();
                if number != pos.fullmoves().get() || (black && pos.turn() == Color::White) {
                    return None;
                }
            }
            // Not replayed: the full replay reports it.
            TokenKind::DeepVariation => return None,
            _ => {}
        }
    }
    if lines.len() != 1 {
        return None;
    }
    if diagnostics && !ends_right(lines.first()?) {
        return None;
    }
    let end = lines.first()?.line.position();
    // What the record says, read as the full replay reads it.
    let recorded = match game.tag("Result") {
        Some(tag) => std::str::from_utf8(&tag.value())
            .ok()
            .and_then(GameResult::from_tag),
        None => game.result().and_then(|r| GameResult::from_tag(r.as_str())),
    };
    // A fivefold repetition or the 75-move rule on the way drew the game
    // (a fivefold repetition needs 16 plies without a capture or a pawn
    // move): that is its status. Moves after it are legal chess played on
    // (a warning, which this lane leaves out); a decisive record of a game
    // the rules drew at its last move is an error: the full replay says it.
    let draw = if keep_moves {
        main_line_draw(&main, max_clock)
    } else {
        draws.finish()
    };
    if let Some((status, ply)) = draw {
        let at_the_end = ply >= plies;
        // Moves after it: a warning.
        if diagnostics && !at_the_end {
            return None;
        }
        if at_the_end && recorded.is_some_and(|written| written != GameResult::Draw) {
            return None;
        }
        return Some(Fast {
            moves: main,
            plies,
            status,
            undecided: false,
            turn: end.turn(),
            keys,
        });
    }
    let last = outcome::final_status(end);
    // A game that ends dead may have been dead before its last move: the
    // full replay reports the moves after that.
    if matches!(
        last.status,
        Status::InsufficientMaterial | Status::DeadPosition
    ) {
        return None;
    }
    // A game the rules ended must be recorded with the rules' result (or
    // `*`); the full replay says what is wrong otherwise.
    if let Some(rule) = outcome::rule_result(last.status, end.turn())
        && recorded.is_some_and(|written| written != rule)
    {
        return None;
    }
    Some(Fast {
        moves: main,
        plies,
        status: last.status,
        undecided: last.undecided,
        turn: end.turn(),
        keys,
    })
}

/// The 1-based ply of the move played in `pos`, counted from the standard
/// start position.
fn ply_of(pos: &Chess) -> u32 {
    let black = u32::from(pos.turn() == Color::Black);
    (pos.fullmoves().get() - 1)
        .saturating_mul(2)
        .saturating_add(black)
        .saturating_add(1)
}

/// The first automatic draw of the main line (a fivefold repetition, the
/// 75-move rule), found as the line is played, as the full replay's
/// [`Tracker`] finds it. Only the moves since the last capture or pawn move
/// are kept (no position before such a move comes again), and at most 150
/// of them: by then the 75-move rule has ended the game.
struct DrawWatch {
    /// The position the run starts from (after the last capture or pawn
    /// move).
    start: Chess,
    /// The 1-based ply of the run's first move.
    first_ply: u32,
    /// The moves of the run.
    run: Vec<Move>,
    /// The largest halfmove clock after a move of the run.
    max_clock: u32,
    /// The draw and its ply, once found.
    found: Option<(Status, u32)>,
}

impl DrawWatch {
    fn new() -> DrawWatch {
        DrawWatch {
            start: Chess::default(),
            first_ply: 1,
            run: Vec::new(),
            max_clock: 0,
            found: None,
        }
    }

    /// After `m`, the main line's ply `ply`, was played, leading to `after`.
    #[inline]
    fn after(&mut self, m: Move, after: &Chess, ply: u32) {
        if self.found.is_some() {
            return;
        }
        let clock = after.halfmoves();
        if clock == 0 {
            // A capture or a pawn move: nothing before it comes again.
            self.look();
            if self.found.is_none() {
                self.run.clear();
                self.max_clock = 0;
                self.start.clone_from(after);
                self.first_ply = ply.saturating_add(1);
            }
            return;
        }
        self.run.push(m);
        self.max_clock = self.max_clock.max(clock);
        // The 75-move rule ends the game here (unless the move mated):
        // looked at once, so that a run costs its length.
        if clock == 150 {
            self.look();
        }
    }

    /// The first automatic draw of the line, and its ply, the line having
    /// ended.
    fn finish(mut self) -> Option<(Status, u32)> {
        if self.found.is_none() {
            self.look();
        }
        self.found
    }

    /// Looks for the draw in the run (a fivefold repetition needs 16 plies
    /// without a capture or a pawn move).
    fn look(&mut self) {
        if self.max_clock >= 16 && may_repeat_or_exceed(&self.start, &self.run, self.max_clock) {
            self.found = automatic_draw(&self.start, self.first_ply, self.run.iter().copied());
        }
    }
}

/// The first automatic draw of a main line kept whole, its largest
/// halfmove clock being `max_clock`: each stretch without a capture or a
/// pawn move is filtered as [`DrawWatch`] filters it, and the line is
/// replayed only when one of them may hold a draw.
fn main_line_draw(main: &[MainMove], max_clock: u32) -> Option<(Status, u32)> {
    if max_clock < 16 {
        return None;
    }
    let moves = || main.iter().map(|m| m.played);
    let mut run: Vec<Move> = Vec::new();
    let mut white_first = true;
    let mut white = true;
    let mut may = max_clock >= 150;
    for m in moves() {
        if may {
            break;
        }
        if m.is_zeroing() {
            may = run_may_repeat(white_first, &run, 0);
            run.clear();
            white_first = !white;
        } else {
            run.push(m);
        }
        white = !white;
    }
    if !may && !run_may_repeat(white_first, &run, 0) {
        return None;
    }
    automatic_draw(&Chess::default(), 1, moves())
}

/// A quick filter before [`automatic_draw`]: `false` when neither the
/// 75-move rule (a clock of 150 plies) nor a fivefold repetition can have
/// come in the `run` of moves from `start`, none of them a capture or a
/// pawn move. Equal positions have equal piece placements; the
/// placements are hashed incrementally from the moves alone, and a
/// fivefold repetition needs one of them five times.
fn may_repeat_or_exceed(start: &Chess, run: &[Move], max_clock: u32) -> bool {
    run_may_repeat(start.turn() == Color::White, run, max_clock)
}

/// [`may_repeat_or_exceed`] for a run whose first move is White's when
/// `white_first`.
fn run_may_repeat(white_first: bool, run: &[Move], max_clock: u32) -> bool {
    if max_clock >= 150 {
        return true;
    }
    if run.len() < 16 {
        return false;
    }
    let mut white = white_first;
    // The placement hashes, from the start's (0) on.
    let mut seen: Vec<u64> = Vec::with_capacity(run.len() + 1);
    seen.push(u64::from(!white));
    let mut hash = 0u64;
    for m in run {
        let piece = |role: shakmaty::Role, sq: shakmaty::Square| {
            let k = (u64::from(white) << 10) | ((role as u64) << 6) | u64::from(u32::from(sq));
            k.wrapping_add(1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29)
                .wrapping_mul(0xBF58_476D_1CE4_E5B9)
        };
        match *m {
            Move::Castle { king, rook } => {
                let (k, r) = m.castling_side().map_or((king, rook), |side| {
                    let color = if white { Color::White } else { Color::Black };
                    (side.king_to(color), side.rook_to(color))
                });
                hash ^= piece(shakmaty::Role::King, king) ^ piece(shakmaty::Role::King, k);
                hash ^= piece(shakmaty::Role::Rook, rook) ^ piece(shakmaty::Role::Rook, r);
            }
            _ => {
                if let Some(from) = m.from() {
                    hash ^= piece(m.role(), from);
                }
                hash ^= piece(m.promotion().unwrap_or(m.role()), m.to());
            }
        }
        // The side to move after the move is part of the position.
        seen.push(hash ^ u64::from(white));
        white = !white;
    }
    seen_five_times(&mut seen)
}

/// Whether a hash occurs five times in `run` (reordered): sorted when the
/// run is short (the usual case), counted in a table when it is long, so
/// that the time stays linear in the run.
fn seen_five_times(run: &mut [u64]) -> bool {
    // Five occurrences of a position are at least four plies apart.
    if run.len() < 17 {
        return false;
    }
    if run.len() <= 4096 {
        run.sort_unstable();
        return run.windows(5).any(|w| w.first() == w.last());
    }
    let mut counts: HashMap<u64, u8, Keyed> = HashMap::default();
    run.iter().any(|&h| {
        let seen = counts.entry(h).or_insert(0);
        *seen = seen.saturating_add(1);
        *seen >= 5
    })
}

/// The first automatic draw (fivefold repetition, 75-move rule) in the
/// `run` of moves played from `start`, the first of them ply `first_ply`
/// of the game, and its ply, as the full replay's [`Tracker`] finds it.
fn automatic_draw(
    start: &Chess,
    first_ply: u32,
    run: impl IntoIterator<Item = Move>,
) -> Option<(Status, u32)> {
    let mut pos = start.clone();
    let mut tracker = Tracker::with_history(&pos, History::Recent);
    let mut before = pos.clone();
    for (ply, m) in (first_ply..).zip(run) {
        before.clone_from(&pos);
        pos.play_unchecked(m);
        tracker.push(&before, m, &pos, ply);
        if let Some(end) = tracker.automatic_end() {
            return Some(end);
        }
    }
    None
}

fn starts_like_san(text: &[u8]) -> bool {
    matches!(
        text.first(),
        Some(b'a'..=b'h' | b'K' | b'Q' | b'R' | b'B' | b'N' | b'O')
    )
}

/// The move token of a word that starts like English SAN (or is an ICCF
/// numeric move) and is no annotation word (the replay reads annotations
/// first: `ch`, `ep` ...).
fn fast_move_token(token: &Token<'_>, text: &GameText<'_>) -> Option<MoveToken> {
    if !(starts_like_san(token.text) || pgnkit_notation::token::is_iccf(token.text))
        || matches!(
            token.text,
            b"ch" | b"ch." | b"check" | b"ep" | b"e.p." | b"e.p" | b"e."
        )
    {
        return None;
    }
    parse_move(&text.slice(token.span.clone(), token.text)).ok()
}
