//! The plain lane of the replay: the [`walk`] of a game's movetext with a
//! book that keeps only what a game without problems needs, for the callers
//! that ask for less than everything ([`Detail::Errors`],
//! [`Detail::Diagnostics`], [`Detail::Keys`]).
//!
//! A plain game starts from the standard position, is UTF-8, has no broken
//! structure, and is read in English; every move is legal, and the final
//! position's status (mate, stalemate, no fivefold repetition or 75-move
//! rule on the way, no dead position) agrees with the recorded result. The
//! walk stops at the first problem the caller would hear of (an error; a
//! warning too for [`Detail::Diagnostics`]), and the full replay redoes the
//! game from the start, diagnostics and language detection included: a
//! game the lane takes has the report the full replay would give it, less
//! what the caller did not ask for (the Zobrist keys but at
//! [`Detail::Keys`], the claims, the warnings at [`Detail::Errors`]).

use std::collections::HashMap;

use pgnkit_notation::Language;
use pgnkit_pgn::Game;
use shakmaty::{Chess, Color, Move, Position};

use crate::Detail;
use crate::keyed::KeyStep;
use crate::movetext::{Book as Keeping, MainMove, NotPlain, walk};
use crate::outcome::Keyed;
use crate::outcome::{self, GameResult, History, Status, Tracker};
use crate::text::{Encoding, GameText};
use crate::visitor::Visitor;

/// What the plain lane keeps of the main line: the keys where asked for,
/// and what the automatic draws need. The main-line moves are kept at
/// every level (8 bytes a move, fewer instructions than following the
/// draws as the line is played): the automatic draws are looked for in
/// them at the end; [`Detail::Errors`] does not report them.
pub(crate) struct Book {
    /// The key of every main-line position, the start included
    /// ([`Detail::Keys`] only).
    keys: Option<Vec<u64>>,
    /// The main-line moves are reported (all but [`Detail::Errors`]).
    report_moves: bool,
    /// Warnings end the lane ([`Detail::Diagnostics`]).
    warnings: bool,
    /// The largest halfmove clock after a main-line move.
    max_clock: u32,
    /// A dead position came (the full replay reports the moves after it).
    dead: bool,
}

impl Keeping for Book {
    type Stop = NotPlain;
    const RECORDS: bool = false;
    // A plain game's words are read without them; one that needs them
    // takes the full replay.
    const ORIGINS: bool = false;

    #[inline]
    fn problem(&self) -> Result<(), NotPlain> {
        Err(NotPlain)
    }

    #[inline]
    fn warnings(&self) -> bool {
        self.warnings
    }

    #[inline]
    fn keeps_moves(&self) -> bool {
        true
    }

    #[inline(always)]
    fn step(&self, before: &Chess, m: Move) -> Option<KeyStep> {
        let keys = self.keys.as_ref()?;
        Some(KeyStep::new(
            before,
            keys.last().copied().unwrap_or_default(),
            m,
        ))
    }

    #[inline(always)]
    fn played(&mut self, step: Option<KeyStep>, _: Move, after: &Chess, _: u32) -> Option<u64> {
        if let (Some(keys), Some(step)) = (self.keys.as_mut(), step) {
            keys.push(step.finish(after));
        }
        // As the full replay's tracker: a dead position after a capture or
        // a pawn move (the quick test first, which is false for most of a
        // game).
        if outcome::may_be_static_dead(after) && after.halfmoves() == 0 && !self.dead {
            self.dead = outcome::static_dead_status(after).is_some();
        }
        self.max_clock = self.max_clock.max(after.halfmoves());
        // The lane shows the visitor no keys.
        None
    }

    fn passed(&mut self, _after: &Chess, _ply: u32) {
        // A main-line null move is a warning: the walk stopped before.
    }
}

/// What the plain lane found out about a plain game: the rest of the
/// report is the full replay's for a game without errors.
pub(crate) struct Plain {
    /// The main-line moves (empty with [`Detail::Errors`], which does not
    /// report them).
    pub moves: Vec<MainMove>,
    /// How many main-line moves were played.
    pub plies: u32,
    /// The final status (never dead: those games take the full replay).
    pub status: Status,
    /// The dead-position search at the end ran out of budget.
    pub undecided: bool,
    /// The final position.
    pub end: Chess,
    /// The key of every main-line position, the start included
    /// ([`Detail::Keys`] only; empty otherwise).
    pub keys: Vec<u64>,
    /// The time control and the clocks, which say nothing wrong.
    pub time_control: Option<crate::clock::TimeControl>,
    /// The clocks after the main-line moves.
    pub clocks: crate::clock::Clocks,
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
) -> Option<Plain> {
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
    let start = Chess::default();
    let with_keys = detail == Detail::Keys;
    let book = Book {
        keys: with_keys.then(|| {
            let mut keys = Vec::with_capacity(game.tokens.len().saturating_mul(2) / 3 + 5);
            keys.push(outcome::position_key(&start));
            keys
        }),
        report_moves: detail != Detail::Errors,
        warnings: detail == Detail::Diagnostics,
        max_clock: 0,
        dead: false,
    };
    let mut pass = walk(game, *text, &start, Language::En, book, visitor).ok()?;
    let plies = pass.plies;
    let (time_control, clocks) = crate::clock::plain(
        game,
        std::mem::take(&mut pass.clocks),
        plies,
        pass.book.warnings,
    )?;
    let end = &pass.final_position;
    // What the record says, read as the full replay reads it.
    let recorded = match game.tag("Result") {
        Some(tag) => std::str::from_utf8(&tag.value())
            .ok()
            .and_then(GameResult::from_tag),
        None => game.result().and_then(|r| GameResult::from_tag(r.as_str())),
    };
    let book = pass.book;
    if book.dead {
        return None;
    }
    // A fivefold repetition or the 75-move rule on the way drew the game
    // (a fivefold repetition needs 16 plies without a capture or a pawn
    // move): that is its status. Moves after it are legal chess played on
    // (a warning, which the errors-only lane leaves out); a decisive record
    // of a game the rules drew at its last move is an error: the full
    // replay says it.
    let draw = main_line_draw(&pass.main_moves, book.max_clock);
    if !book.report_moves {
        crate::movetext::spare_main_moves(std::mem::take(&mut pass.main_moves));
    }
    let keys = book.keys.unwrap_or_default();
    if let Some((status, ply)) = draw {
        let at_the_end = ply >= plies;
        // Moves after it: a warning.
        if book.warnings && !at_the_end {
            return None;
        }
        if at_the_end && recorded.is_some_and(|written| written != GameResult::Draw) {
            return None;
        }
        return Some(Plain {
            moves: pass.main_moves,
            plies,
            status,
            undecided: false,
            end: end.clone(),
            keys,
            time_control,
            clocks,
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
    Some(Plain {
        moves: pass.main_moves,
        plies,
        status: last.status,
        undecided: last.undecided,
        end: end.clone(),
        keys,
        time_control,
        clocks,
    })
}

/// The first automatic draw of a main line kept whole, its largest
/// halfmove clock being `max_clock`: each stretch without a capture or a
/// pawn move is filtered ([`run_may_repeat`]), and the line is replayed
/// only when one of them may hold a draw.
fn main_line_draw(main: &[MainMove], max_clock: u32) -> Option<(Status, u32)> {
    if max_clock < 16 {
        return None;
    }
    let moves = || main.iter().map(|m| m.played);
    // The run since the last capture or pawn move starts at `run`.
    let mut run = 0;
    let mut white_first = true;
    let mut white = true;
    let mut may = max_clock >= 150;
    for (i, m) in main.iter().enumerate() {
        if may {
            break;
        }
        if m.played.is_zeroing() {
            may = run_may_repeat(white_first, main.get(run..i).unwrap_or_default());
            run = i + 1;
            white_first = !white;
        }
        white = !white;
    }
    if !may && !run_may_repeat(white_first, main.get(run..).unwrap_or_default()) {
        return None;
    }
    automatic_draw(&Chess::default(), 1, moves())
}

/// A quick filter before [`automatic_draw`]: `false` when no fivefold
/// repetition can have come in the `run` of moves (none of them a capture
/// or a pawn move), its first move White's when `white_first`. Equal
/// positions have equal piece placements; the placements are hashed
/// incrementally from the moves alone, and a fivefold repetition needs one
/// of them five times (and 16 plies).
fn run_may_repeat(white_first: bool, run: &[MainMove]) -> bool {
    if run.len() < 16 {
        return false;
    }
    let mut white = white_first;
    // The placement hashes, from the start's (0) on.
    let mut seen: Vec<u64> = Vec::with_capacity(run.len() + 1);
    seen.push(u64::from(!white));
    let mut hash = 0u64;
    for m in run.iter().map(|m| &m.played) {
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
