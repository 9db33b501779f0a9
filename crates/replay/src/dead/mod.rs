//! Dead positions (Law 5.2.2) and who can still checkmate (Law 6.9).
//!
//! A position is *dead* when neither player can checkmate the other by any
//! series of legal moves; a player who cannot checkmate by any series of
//! legal moves does not win on time (Law 6.9). Both questions are about a
//! *helpmate*: can the would-be winner mate if the other side cooperates?
//!
//! The approach is that of the Chess Unwinnability Analyzer (CHA, Miguel
//! Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022),
//! rebuilt here on shakmaty:
//!
//! 1. Forced moves are played (a position with one legal move is as
//!    winnable as the one after it; a forced cycle never ends).
//! 2. Insufficient material (shakmaty's rule, per colour).
//! 3. A semi-static analysis (`mobility`): where each piece could ever
//!    go, given the pawns and pieces that can never move or be taken (a
//!    locked pawn wall no king can cross, bishops that never meet an enemy
//!    pawn, knights and rooks with no way through), and whether a mate is
//!    conceivable there at all: a square of the king's region a piece
//!    could check, with every flight square taken or covered (a bishop of
//!    one colour never covers the others); again with the other king kept
//!    away from a side caught in a stalemate trap (it moves nothing but its
//!    king, between two squares: the king that steps next to them ends the
//!    game, by stalemate or by a discovered check, which is looked for).
//! 4. A short helpmate search (both sides cooperate, CHA's heuristics:
//!    the loser's king steered to a corner of the right colour).
//! 5. An exhaustive search of the positions reachable from this one, each
//!    judged by steps 2 and 3 first: when every line ends in a position
//!    they settle, nobody (or the winner in question) can mate. It expands
//!    the positions that look nearest to a mate first (a distance built on
//!    CHA's picture of a helpmate: the loser's king in the corner, a piece
//!    of its own beside it, the winner's pieces around), so that it is
//!    also a search for long helpmates. A pawn structure (with its
//!    material) where the rules did not conclude is not judged again, and
//!    a search that sprawls (most of the positions it met still to expand,
//!    after thousands) is given up: it would not end within any budget
//!    (step 6 gets what is left of its turn, or, where no pawn faces an
//!    enemy pawn, the rest of the budget). (The ideas are CHA's, the code
//!    is not.)
//! 6. A deeper helpmate search (CHA's rewards, by iterative deepening) in
//!    turns with step 5, which takes sixteen times its share of the nodes.
//!
//! Every step is sound: a position is [`Verdict::Winnable`] only with a
//! mating line ([`Verdict::Winnable`] carries it, checked move by move by
//! the tests), and [`Verdict::Unwinnable`] only by steps 1-3, a helpmate
//! search that ran to its end without a depth cut, or step 5 running to
//! its end. When the node budget runs out first, the answer is
//! [`Verdict::Undecided`]. (Step 5 identifies positions by 64-bit Zobrist
//! keys, as repetition detection does; a collision could hide a position,
//! with a probability far below one in a billion per search.)
//!
//! # Example
//!
//! ```
//! use pgnkit_replay::dead::{Budget, Verdict, can_checkmate, is_dead, Life};
//! use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
//!
//! let pos = |fen: &str| -> Chess {
//!     fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
//! };
//! // A locked pawn wall, each bishop on the colour of its own pawns: no
//! // king can cross, no bishop ever attacks an enemy pawn.
//! let wall = pos("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 40");
//! assert_eq!(is_dead(&wall, Budget::FULL), Life::Dead);
//!
//! // A knight against a pawn: the pawn's side can help the knight mate.
//! let knight = pos("k7/p7/2K5/8/8/8/8/6N1 w - - 0 60");
//! assert!(matches!(can_checkmate(&knight, Color::White, Budget::THOROUGH), Verdict::Winnable(_)));
//! // A knight against a bare king: never.
//! let bare = pos("k7/8/2K5/8/8/8/8/6N1 w - - 0 60");
//! assert_eq!(can_checkmate(&bare, Color::White, Budget::QUICK), Verdict::Unwinnable);
//! ```

mod mobility;
mod search;

use shakmaty::{Bitboard, Chess, Color, Move, Position};

use mobility::Mobility;
use search::{Exploration, Explored, Helped, Helpmate, PawnMoves, Winners, hopeless};

/// Whether one colour can still checkmate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It can: the moves of a helpmate from the position (empty when the
    /// other side is checkmated already).
    Winnable(Vec<Move>),
    /// It cannot, by any series of legal moves.
    Unwinnable,
    /// The node budget ran out before the question was settled.
    Undecided,
}

/// Whether a position is dead (Law 5.2.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Life {
    /// Neither player can checkmate by any series of legal moves.
    Dead,
    /// At least one player can still checkmate.
    Alive,
    /// The node budget ran out before the question was settled.
    Undecided,
}

/// How many positions the searches of one question may expand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    nodes: u32,
}

impl Budget {
    /// No search: the rules alone (insufficient material, forced moves,
    /// the semi-static analysis). For the final position of a played game,
    /// where a database is checked at full speed.
    pub const RULES: Budget = Budget { nodes: 0 };
    /// Two thousand positions of search (a few milliseconds at most): for
    /// the winner of a played game lost on time, where the answer decides
    /// the result.
    pub const QUICK: Budget = Budget { nodes: 2_000 };
    /// The full analysis of one position (a game of no moves: a position
    /// to judge): under a millisecond on average, about 50 ms at most on
    /// CHA's test vectors (the hardest: walls of bishops, many queens).
    pub const FULL: Budget = Budget { nodes: 100_000 };
    /// A budget for one hard position (a second or so).
    pub const THOROUGH: Budget = Budget { nodes: 2_000_000 };

    /// A budget of `nodes` expanded positions.
    pub const fn nodes(nodes: u32) -> Budget {
        Budget { nodes }
    }
}

/// Whether `winner` can checkmate from `pos` by any series of legal moves,
/// the other side cooperating (a helpmate).
///
/// ```
/// use pgnkit_replay::dead::{Budget, Verdict, can_checkmate};
/// use shakmaty::{Chess, Color, Position};
///
/// let start = Chess::default();
/// let Verdict::Winnable(line) = can_checkmate(&start, Color::Black, Budget::FULL) else {
///     panic!("Black can mate from the start");
/// };
/// // The line is the certificate: play it and Black has mated.
/// let mut pos = start;
/// for m in line {
///     pos = pos.play(m).unwrap();
/// }
/// assert!(pos.is_checkmate() && pos.turn() == Color::White);
/// ```
pub fn can_checkmate(pos: &Chess, winner: Color, budget: Budget) -> Verdict {
    let (forced, end) = match forced_line(pos) {
        Forced::Ends(pos, line) => (line, pos),
        Forced::Cycle => return Verdict::Unwinnable,
    };
    let winnable = |line: Vec<Move>| {
        let mut all = forced.clone();
        all.extend(line);
        Verdict::Winnable(all)
    };
    if end.is_checkmate() {
        return if end.turn() == winner {
            Verdict::Unwinnable
        } else {
            winnable(Vec::new())
        };
    }
    if end.legal_moves().is_empty() || hopeless(&end, winner, Mobility::new(&end).as_ref()) {
        return Verdict::Unwinnable;
    }
    match settle(&end, Winners::one(winner), budget.nodes) {
        Settled::Mate(line) => winnable(line),
        Settled::NoMate => Verdict::Unwinnable,
        Settled::Unknown => Verdict::Undecided,
    }
}

/// What the searches settled.
enum Settled {
    /// A winner can mate, by this line.
    Mate(Vec<Move>),
    /// None of the winners can mate.
    NoMate,
    /// The budget ran out first.
    Unknown,
}

/// Whether one of `winners` can mate from `pos`, by the searches: a quick
/// helpmate search (a mate in a few moves toward it), then the exhaustive
/// search (nearest positions to a mate first) and the deeper helpmate
/// searches in turns, the exhaustive search taking the larger share, each
/// turn twice as long as the last, until `nodes` run out. The two find
/// different mates: on CHA's test vectors each finds dozens the other
/// misses within the budget.
///
/// The quick search frees every pawn move of the winner (pawns that must
/// march to promote). For one winner with pieces, where that spends the
/// nodes on pawn marches, and a large budget (`SECOND_QUICK_FROM`), a
/// second quick search frees only a pawn's last steps, as CHA's does, so
/// that the free moves go to the pieces: on 5,000 final positions of
/// lichess games lost on time, 23% fewer instructions with `Budget::FULL`
/// for the same answers.
fn settle(pos: &Chess, winners: Winners, mut nodes: u32) -> Settled {
    let mut helpmates: Vec<Helpmate> = [!pos.turn(), pos.turn()]
        .into_iter()
        .filter(|&c| winners.has(c))
        .map(|c| Helpmate::new(pos, c))
        .collect();
    // The winners free to mate (a queen or rook with no wall, a pawn free
    // to run or take): nearly always able, mostly by a short helpmate.
    let free = Winners {
        white: winners.white && search::free_to_mate(pos, Color::White),
        black: winners.black && search::free_to_mate(pos, Color::Black),
    };
    let mut open = winners;
    for h in &mut helpmates {
        let quick = if free.has(h.winner()) {
            QUICK_HELPMATE_FREE
        } else {
            QUICK_HELPMATE
        };
        if let Some(line) = helpmate_turn(h, &mut nodes, quick, Some(PawnMoves::Every), &mut open) {
            return Settled::Mate(line);
        }
        // Rewarding only the pawns' last steps leaves the free moves to
        // the pieces: another search, which finds other mates. Asked for
        // one winner (Law 6.9); whether a position is dead, asked for both,
        // it decided nothing more on CHA's test vectors and took 15% longer.
        if winners.white != winners.black
            && nodes >= SECOND_QUICK_FROM
            && has_pieces(pos, h.winner())
            && open.has(h.winner())
            && let Some(line) =
                helpmate_turn(h, &mut nodes, quick, Some(PawnMoves::Advanced), &mut open)
        {
            return Settled::Mate(line);
        }
    }
    let mut exploration = Some(Exploration::new(pos, open));
    let mut turn = 1_000u32;
    while nodes > 0 && (open.white || open.black) {
        if let Some(explored) = exploration.as_mut() {
            let mut slice = turn.saturating_mul(EXPLORATION_SHARE).min(nodes);
            nodes -= slice;
            match explored.run(&mut slice) {
                Explored::Mate(line) => return Settled::Mate(line),
                Explored::NoMate => return Settled::NoMate,
                // It will not end within any budget. Behind a wall the
                // helpmate searches get what is left of its turn and
                // `AFTER_SPRAWL_BEHIND_WALL` more; with no wall it is a
                // search of many pieces free to roam, whose mate they
                // nearly always find in the end: they keep the budget.
                Explored::Sprawls => {
                    exploration = None;
                    if pawns_face_to_face(pos) {
                        nodes = nodes.min(AFTER_SPRAWL_BEHIND_WALL);
                    }
                }
                Explored::OutOfBudget => {}
            }
            nodes += slice;
        }
        for h in &mut helpmates {
            if open.has(h.winner())
                && let Some(line) = helpmate_turn(h, &mut nodes, turn, None, &mut open)
            {
                return Settled::Mate(line);
            }
        }
        turn = turn.saturating_mul(2);
    }
    if open.white || open.black {
        Settled::Unknown
    } else {
        Settled::NoMate
    }
}

/// The nodes left to the helpmate searches, beside the rest of the turn,
/// when the exhaustive search sprawls behind a wall (see `settle`). On CHA's
/// test vectors, with none: 78 sides able to mate left undecided; with
/// 10,000: 71, for 1.8% more instructions (20,000: 68, +3.4%). On the
/// 30,000 lichess positions of games lost on time: 19, 8 and 6 undecided.
const AFTER_SPRAWL_BEHIND_WALL: u32 = 10_000;

/// The nodes left after the first quick helpmate search from which the
/// second one is tried (see `settle`). With `Budget::QUICK` (2,000, the
/// winner of a played game lost on time) it took the nodes the searches
/// after it need: of the 30,000 lichess positions, 692 left undecided with
/// it against 628 without; with `Budget::FULL` it saves a quarter of the
/// instructions on those positions.
const SECOND_QUICK_FROM: u32 = 10_000;

/// Whether `color` has a piece other than its king and pawns.
fn has_pieces(pos: &Chess, color: Color) -> bool {
    let board = pos.board();
    (board.by_color(color) & !board.pawns() & !board.kings()).any()
}

/// Whether a pawn of one side stands right in front of a pawn of the other
/// (the start of a wall).
fn pawns_face_to_face(pos: &Chess) -> bool {
    let board = pos.board();
    let white = board.pawns() & board.white();
    let black = board.pawns() & board.black();
    (white.0 << 8) & black.0 != 0
}

/// Runs `h` for at most `cap` of `nodes` (its quick round, or its next
/// rounds): the mating line if it finds one; a proof that its winner
/// cannot mate takes that winner out of `open`.
fn helpmate_turn(
    h: &mut Helpmate,
    nodes: &mut u32,
    cap: u32,
    quick: Option<PawnMoves>,
    open: &mut Winners,
) -> Option<Vec<Move>> {
    let mut slice = cap.min(*nodes);
    *nodes -= slice;
    let helped = match quick {
        Some(pawns) => h.quick(&mut slice, pawns),
        None => h.run(&mut slice),
    };
    *nodes += slice;
    match helped {
        Helped::Mate(line) => return Some(line),
        Helped::NoMate => *open = open.without(h.winner()),
        Helped::Unknown => {}
    }
    None
}

/// How many times the helpmate searches' nodes the exhaustive search gets
/// in each turn: on CHA's test vectors, 16 proves as many sides unable to
/// mate as the exhaustive search alone, and finds more helpmates, in less
/// time (4 finds more helpmates still, but proves fewer).
const EXPLORATION_SHARE: u32 = 16;

/// The nodes of the quick helpmate search, per winner.
const QUICK_HELPMATE: u32 = 400;

/// The nodes of the quick helpmate search for a winner free to mate
/// (`search::free_to_mate`: a queen or rook with no wall, a pawn free to
/// run or take), as in most final positions of real games, where the mate
/// is short but the exhaustive search sprawls (CHA's first search takes
/// 5,000 for every position). On 5,000 final positions of lichess games
/// lost on time (CHA's `tests/lichess-30K-games.txt`), the side with time
/// asked: 81 questions left undecided with 400 nodes, 16 with 1,500 (11
/// with 5,000), and 46% fewer instructions; on a quarter of CHA's test
/// vectors 3.5% more instructions (7% with 5,000) and 6 more helpmates.
/// (With the rest of the budget left to the helpmate searches where no
/// wall stands, see `settle`: 4 undecided of the 5,000.)
const QUICK_HELPMATE_FREE: u32 = 1_500;

/// Whether `pos` is dead: neither player can checkmate by any series of
/// legal moves (Law 5.2.2).
///
/// ```
/// use pgnkit_replay::dead::{Budget, Life, is_dead};
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// // A queen against a bare king.
/// let fen: Fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 50".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(is_dead(&pos, Budget::QUICK), Life::Alive);
/// // Bishops of one colour: dead.
/// let fen: Fen = "8/8/3k4/3b4/8/3BK3/8/8 w - - 0 50".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(is_dead(&pos, Budget::QUICK), Life::Dead);
/// ```
pub fn is_dead(pos: &Chess, budget: Budget) -> Life {
    life(pos, budget).0
}

/// [`is_dead`], and the side whose checkmate made the position alive (the
/// analysis found its mating line): Law 6.9 asks again of one side only.
pub(crate) fn life(pos: &Chess, budget: Budget) -> (Life, Option<Color>) {
    let end = match forced_line(pos) {
        Forced::Ends(pos, _) => pos,
        Forced::Cycle => return (Life::Dead, None),
    };
    if end.is_checkmate() {
        return (Life::Alive, Some(!end.turn()));
    }
    if end.legal_moves().is_empty() || end.is_insufficient_material() {
        return (Life::Dead, None);
    }
    let mobility = Mobility::new(&end);
    let open = Winners {
        white: !hopeless(&end, Color::White, mobility.as_ref()),
        black: !hopeless(&end, Color::Black, mobility.as_ref()),
    };
    if !open.white && !open.black {
        return (Life::Dead, None);
    }
    match settle(&end, open, budget.nodes) {
        // The line's last move mates: an odd line is the mover's.
        Settled::Mate(line) => (
            Life::Alive,
            Some(if line.len() % 2 == 1 {
                end.turn()
            } else {
                !end.turn()
            }),
        ),
        Settled::NoMate => (Life::Dead, None),
        Settled::Unknown => (Life::Undecided, None),
    }
}

/// Whether the side to move has a legal move: first whether its king can
/// step to a square no enemy piece attacks (with the king gone from its
/// square, so that a slider's line through it counts), which settles
/// nearly every position of a game in a few bitboard operations; else by
/// generating the moves.
///
/// ```
/// use pgnkit_replay::dead::has_legal_move;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// assert!(has_legal_move(&Chess::default()));
/// // Stalemate: the king on a8 has no square, and nothing else moves.
/// let fen: Fen = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 60".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert!(!has_legal_move(&pos));
/// ```
pub fn has_legal_move(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    if let Some(king) = board.king_of(us) {
        let occupied = board.occupied().without(king);
        let steps = shakmaty::attacks::king_attacks(king) & !board.by_color(us);
        if steps
            .into_iter()
            .any(|to| board.attacks_to(to, !us, occupied).is_empty())
        {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

/// Whether the rules that need no search show `pos` dead: insufficient
/// material, a forced cycle, or the semi-static analysis for both sides.
/// A few microseconds; `false` says nothing.
///
/// ```
/// use pgnkit_replay::dead::statically_dead;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// assert!(!statically_dead(&Chess::default()));
/// let fen: Fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 40".parse().unwrap();
/// let wall: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert!(statically_dead(&wall));
/// ```
pub fn statically_dead(pos: &Chess) -> bool {
    if pos.is_insufficient_material() {
        return true;
    }
    let Some(mobility) = Mobility::new(pos) else {
        return false;
    };
    !mobility.can_mate(Color::White) && !mobility.can_mate(Color::Black)
}

/// Whether every pawn stands behind a pawn (no pawn can push), worked out
/// in a few operations without a branch; true on a board without pawns.
#[inline(always)]
pub(crate) fn pawns_blocked(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = (pawns & board.white()).0;
    let black = pawns.0 & !white;
    ((white << 8) | (black >> 8)) & !pawns.0 == 0
}

/// Whether a position met during a game deserves [`statically_dead`]: a
/// handful of bitboard operations, `false` for nearly every position of a
/// real game. It asks for pawns locked against each other with no pawn
/// free to capture, or, without pawns, for insufficient material; a dead
/// position that it passes over is still found at the end of the game.
///
/// ```
/// use pgnkit_replay::dead::may_be_dead;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// assert!(!may_be_dead(&Chess::default()));
/// let fen: Fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 40".parse().unwrap();
/// let wall: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert!(may_be_dead(&wall));
/// ```
pub fn may_be_dead(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = pawns & board.white();
    let black = pawns & board.black();
    // Every pawn stands behind a pawn (no pawn can push), and no pawn can
    // take: the structure is locked.
    if !pawns_blocked(pos) || white.is_empty() || black.is_empty() {
        return false;
    }
    let takes = |pawns: Bitboard, color: Color, prey: Bitboard| {
        pawns
            .into_iter()
            .any(|sq| (shakmaty::attacks::pawn_attacks(color, sq) & prey).any())
    };
    !takes(white, Color::White, board.black()) && !takes(black, Color::Black, board.white())
}

/// Law 6.9: whether `winner`, whose opponent ran out of time in `pos`
/// (a flag that fell, or a loss on time told by the Termination tag), can
/// checkmate by any series of legal moves: insufficient material never;
/// a position to judge (`judged`: a game of no moves) gets the full
/// analysis; a played game the quick search where the winner has no pawn
/// free to run or take ([`may_be_unwinnable`]) and no queen or rook free
/// to roam (with no locked pawn wall, [`may_be_dead`]), else the win
/// stands (such a player can nearly always mate).
pub fn after_time_forfeit(pos: &Chess, winner: Color, judged: bool) -> Verdict {
    if pos.has_insufficient_material(winner) {
        Verdict::Unwinnable
    } else if judged {
        can_checkmate(pos, winner, Budget::FULL)
    } else if may_be_unwinnable(pos, winner) && !heavy_and_open(pos, winner) {
        can_checkmate(pos, winner, Budget::QUICK)
    } else {
        Verdict::Winnable(Vec::new())
    }
}

/// Whether `winner` has a queen or a rook and no locked pawn wall stands
/// ([`may_be_dead`]): with the other side's help such a piece reaches
/// the king and mates. A few bitboard operations.
fn heavy_and_open(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    ((board.queens() | board.rooks()) & board.by_color(winner)).any() && !may_be_dead(pos)
}

/// Whether the question "can `winner` still checkmate?" (Law 6.9, for a
/// game lost on time) deserves the analysis: a few bitboard operations,
/// `false` when one of `winner`'s pawns can take now or has no enemy pawn
/// ahead of it on its file (such a player can nearly always mate, and the
/// Result tag stands: the safe side). Insufficient material is decided
/// apart, always.
///
/// ```
/// use pgnkit_replay::dead::may_be_unwinnable;
/// use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
///
/// let fen: Fen = "8/4k3/8/6p1/8/8/5K2/8 w - - 0 50".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert!(!may_be_unwinnable(&pos, Color::Black));
/// assert!(may_be_unwinnable(&pos, Color::White));
/// ```
pub fn may_be_unwinnable(pos: &Chess, winner: Color) -> bool {
    pos.board().by_color(winner) & pos.board().pawns() == Bitboard::EMPTY || opposed(pos, winner)
}

/// Whether `color` has pawns, none of which can take now (en passant
/// included) and each of which has an enemy pawn ahead on its file.
fn opposed(pos: &Chess, color: Color) -> bool {
    let board = pos.board();
    let pawns = board.pawns() & board.by_color(color);
    let enemy = board.pawns() & board.by_color(!color);
    if pawns.is_empty() || pos.legal_ep_square().is_some() {
        return false;
    }
    // The squares behind enemy pawns, on their files (seen from `color`).
    let mut behind = enemy.0;
    for _ in 0..6 {
        behind |= match color {
            Color::White => behind >> 8,
            Color::Black => behind << 8,
        };
    }
    if pawns.0 & !behind != 0 {
        return false;
    }
    let prey = board.by_color(!color) & !board.kings();
    !pawns
        .into_iter()
        .any(|sq| (shakmaty::attacks::pawn_attacks(color, sq) & prey).any())
}

/// A position after its forced moves.
enum Forced {
    /// The position where a choice (or the end of the game) comes, and the
    /// forced moves to it.
    Ends(Chess, Vec<Move>),
    /// The forced moves come back to a position: the game can only repeat.
    Cycle,
}

/// Plays the moves of `pos` while there is only one (at most 100).
fn forced_line(pos: &Chess) -> Forced {
    let mut line = Vec::new();
    let mut at = pos.clone();
    let mut seen = Vec::new();
    while line.len() < 100 {
        let moves = at.legal_moves();
        let [only] = moves.as_slice() else {
            break;
        };
        let only = *only;
        seen.push(crate::keyed::position_key(&at));
        at.play_unchecked(only);
        line.push(only);
        if seen.contains(&crate::keyed::position_key(&at)) {
            return Forced::Cycle;
        }
    }
    Forced::Ends(at, line)
}

#[cfg(test)]
mod tests;
