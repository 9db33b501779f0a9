//! Dead positions (Law 5.2.2) and who can still checkmate (Law 6.9).
//!
//! A position is *dead* when neither player can checkmate the other by any
//! series of legal moves; a player who cannot checkmate by any series of
//! legal moves does not win on time (Law 6.9). Both questions are about a
//! *helpmate*: can the would-be winner mate if the other side cooperates?
//!
//! The approach follows the Chess Unwinnability Analyzer (CHA, Miguel
//! Ambrona): cheap static rules settle the common cases, and a search
//! settles the rest.
//!
//! 1. Insufficient material (shakmaty's rule, per colour and for both).
//! 2. A *frozen* pawn structure: only kings and pawns, every pawn blocked
//!    by a pawn in front of it, no pawn can capture, and no king can ever
//!    reach a pawn it could take. Then no pawn ever moves, nothing is ever
//!    captured, and nothing but a pawn could give check, which no king ever
//!    walks into: no mate is possible.
//! 3. A helpmate search with iterative deepening: the would-be winner's
//!    pieces are tried toward the other king first, the other king toward
//!    the edge and the winner's king, its pieces toward their own king
//!    (where they take its flight squares), with a transposition table.
//! 4. An exhaustive search of every position reachable from this one,
//!    pruned where rule 1 or 2 holds.
//!
//! Every step is sound: a position is [`Verdict::Winnable`] only with a
//! mating line, checked move by move ([`Verdict::Winnable`] carries it), and
//! [`Verdict::Unwinnable`] only by rule 1 or 2 or by step 4 running to its
//! end. When the node budget runs out first, the answer is
//! [`Verdict::Undecided`]. (Step 4 identifies positions by 64-bit Zobrist
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
//! // A locked pawn wall: the kings can never meet a pawn they could take.
//! let wall = pos("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 40");
//! assert_eq!(is_dead(&wall, Budget::QUICK), Life::Dead);
//!
//! // A knight against a pawn: the pawn's side can help the knight mate.
//! let knight = pos("k7/p7/2K5/8/8/8/8/6N1 w - - 0 60");
//! assert!(matches!(can_checkmate(&knight, Color::White, Budget::THOROUGH), Verdict::Winnable(_)));
//! // A knight against a bare king: never.
//! let bare = pos("k7/8/2K5/8/8/8/8/6N1 w - - 0 60");
//! assert_eq!(can_checkmate(&bare, Color::White, Budget::QUICK), Verdict::Unwinnable);
//! ```

use std::collections::{HashMap, HashSet, VecDeque};

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, Position, Role, Square, attacks,
    zobrist::Zobrist64,
};

use crate::keyed::Keyed;

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

/// How many positions a search may expand (generate the moves of).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    nodes: u32,
}

impl Budget {
    /// The budget of one question about one position (Law 6.9's ruling on a
    /// loss on time): a few milliseconds at most.
    pub const QUICK: Budget = Budget { nodes: 8_000 };
    /// The budget of the dead-position search at the end of every game that
    /// gets through [`worth_searching`]: a quarter of [`Budget::QUICK`], since
    /// it runs on every such game of a database (on the whole test corpus it
    /// settles as many positions as the larger budget, for a quarter of the
    /// time).
    pub const GAME_END: Budget = Budget { nodes: 2_000 };
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
/// let Verdict::Winnable(line) = can_checkmate(&start, Color::Black, Budget::THOROUGH) else {
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
    if mated(pos) {
        return if pos.turn() == winner {
            Verdict::Unwinnable
        } else {
            Verdict::Winnable(Vec::new())
        };
    }
    if pos.has_insufficient_material(winner) || frozen(pos) || pos.legal_moves().is_empty() {
        return Verdict::Unwinnable;
    }
    let mut nodes = budget.nodes;
    if let Some(line) = helpmate(pos, winner, &mut nodes) {
        return Verdict::Winnable(line);
    }
    match explore(pos, Some(winner), nodes) {
        Explored::Mate(line) => Verdict::Winnable(line),
        Explored::NoMate => Verdict::Unwinnable,
        Explored::OutOfBudget => Verdict::Undecided,
    }
}

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
    if pos.is_checkmate() {
        return Life::Alive;
    }
    if statically_dead(pos) || pos.legal_moves().is_empty() {
        return Life::Dead;
    }
    // The exhaustive search first: where it is worth running (locked
    // pawns, minor pieces) the reachable positions are few and mates rare.
    // A helpmate search spends the rest if it ran out.
    let mut nodes = budget.nodes / 4;
    match explore(pos, None, budget.nodes - nodes) {
        Explored::Mate(_) => return Life::Alive,
        Explored::NoMate => return Life::Dead,
        Explored::OutOfBudget => {}
    }
    for winner in [!pos.turn(), pos.turn()] {
        if !pos.has_insufficient_material(winner) && helpmate(pos, winner, &mut nodes).is_some() {
            return Life::Alive;
        }
    }
    Life::Undecided
}

/// The static rules alone: insufficient material or a frozen pawn
/// structure. Cheap (a few bitboard operations in most positions); `true`
/// means dead, `false` means the static rules do not settle it.
///
/// ```
/// use pgnkit_replay::dead::statically_dead;
/// use shakmaty::Chess;
///
/// assert!(!statically_dead(&Chess::default()));
/// ```
pub fn statically_dead(pos: &Chess) -> bool {
    pos.is_insufficient_material() || frozen(pos)
}

/// Whether every pawn has a pawn directly in front of it (the frontmost
/// pawn of a file is then blocked by an enemy pawn, and the ones behind by
/// their own) and no en passant capture is possible: no pawn can move
/// forward. Captures are the callers' to rule out.
fn pawns_blocked(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = pawns & board.white();
    let black = pawns & board.black();
    white.shift(8) & pawns == white.shift(8)
        && black.shift(-8) & pawns == black.shift(-8)
        && pos.legal_ep_square().is_none()
}

/// Whether `pos` deserves a search for deadness: a pawn structure locked
/// pawn against pawn, no pawn able to capture, no king able to reach a pawn
/// it could take, and no queen or rook (which would break through). Only such positions are searched at the end of a
/// game: a position where a pawn can still move, or without pawns, is not
/// called dead unless [`statically_dead`] says so. That is sound, and in
/// positions from real games it misses very few dead ones (see the test
/// set in `testdata/dead/`).
///
/// ```
/// use pgnkit_replay::dead::worth_searching;
/// use shakmaty::Chess;
///
/// assert!(!worth_searching(&Chess::default()));
/// ```
pub fn worth_searching(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() || board.rooks_and_queens().any() {
        return false;
    }
    if !pawns_blocked(pos) {
        return false;
    }
    let white = pawns & board.white();
    let black = pawns & board.black();
    // A pawn can capture when an enemy piece stands diagonally ahead.
    let takes = |mine: Bitboard, color: Color| {
        mine.into_iter()
            .any(|sq| (attacks::pawn_attacks(color, sq) & board.by_color(!color)).any())
    };
    !takes(white, Color::White) && !takes(black, Color::Black) && Walls::new(board).is_some()
}

/// Whether `winner`'s chances to checkmate deserve a search: it has no
/// queen or rook, and none of its pawns can move or capture now. Otherwise
/// it is taken to be able to mate (a queen, a rook or a pawn that runs to
/// promote nearly always can), which is the safe side for Law 6.9: the
/// Result tag stands. Insufficient material is decided apart, always.
///
/// ```
/// use pgnkit_replay::dead::worth_searching_for;
/// use shakmaty::{Chess, Color};
///
/// assert!(!worth_searching_for(&Chess::default(), Color::White));
/// ```
pub fn worth_searching_for(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner);
    if (ours & board.rooks_and_queens()).any() {
        return false;
    }
    let pawns = ours & board.pawns();
    let ahead = match winner {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    };
    if (ahead & !board.occupied()).any() || pos.legal_ep_square().is_some() {
        return false;
    }
    !pawns
        .into_iter()
        .any(|sq| (attacks::pawn_attacks(winner, sq) & board.by_color(!winner)).any())
}

/// Is the side to move checkmated?
fn mated(pos: &Chess) -> bool {
    pos.is_check() && pos.legal_moves().is_empty()
}

/// Rule 2, a frozen structure: only kings, pawns and bishops of one square
/// colour; every pawn blocked by a pawn in front of it; no pawn attacking
/// an enemy pawn and no legal en passant capture; no king able to reach an
/// enemy pawn it could take; no bishop able to reach an enemy pawn, or a
/// square an enemy pawn attacks. Then no pawn ever moves and no pawn is
/// ever captured. Only a bishop can then give check, on its own square
/// colour; the four orthogonal neighbours of a king on such a square are of
/// the other colour, where no bishop, own or enemy, ever stands or attacks,
/// and the enemy king covers at most one of them. So if, wherever a king
/// could be checked, two of those neighbours neither hold its own pawns nor
/// are attacked by enemy pawns (or one, which the enemy king can never come
/// near), it always has a flight square: no mate, ever.
///
/// Every position reachable from a frozen one is frozen too.
fn frozen(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let bishops = board.bishops();
    if pawns.is_empty() || board.occupied() != pawns | board.kings() | bishops {
        return false;
    }
    let colour = if (bishops & Bitboard::LIGHT_SQUARES).is_empty() {
        Bitboard::DARK_SQUARES
    } else if (bishops & Bitboard::DARK_SQUARES).is_empty() {
        Bitboard::LIGHT_SQUARES
    } else {
        return false;
    };
    if !pawns_blocked(pos) {
        return false;
    }
    let white = pawns & board.white();
    let black = pawns & board.black();
    let Some(walls) = Walls::new(board) else {
        return false;
    };
    // Bishops: where each could ever go (over-approximated: only pawns
    // stop it), and what it could take or be taken by from there.
    for sq in bishops {
        let Some(color) = board.color_at(sq) else {
            return false;
        };
        let enemy = if color == Color::White { black } else { white };
        let mut seen = Bitboard::from_square(sq);
        let mut frontier = seen;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for from in frontier {
                let rays = attacks::bishop_attacks(from, pawns);
                if (rays & enemy).any() {
                    return false;
                }
                next |= rays & !pawns;
            }
            next &= !seen;
            seen |= next;
            frontier = next;
        }
        if (seen & walls.attacked_by(!color)).any() {
            return false;
        }
    }
    if bishops.is_empty() {
        return true;
    }
    // Every square of the bishops' colour a king could stand on keeps two
    // orthogonal neighbours free of its own pawns and of enemy pawn attacks
    // (where the enemy has a bishop: otherwise nothing can check it).
    for color in [Color::White, Color::Black] {
        if (bishops & board.by_color(!color)).is_empty() {
            continue;
        }
        let own = board.by_color(color) & pawns;
        let blocked = own | walls.attacked_by(!color);
        // The squares the enemy king could ever attack.
        let mut reach = Bitboard::EMPTY;
        for k in walls.region(!color) {
            reach |= attacks::king_attacks(k);
        }
        for s in walls.region(color) & colour {
            let free = attacks::rook_attacks(s, Bitboard::FULL) & !blocked;
            if (free & !reach).is_empty() && free.count() < 2 {
                return false;
            }
        }
    }
    true
}

/// With the pawns standing still: the squares each king could ever stand
/// on, over-approximated (the other king and the pieces are ignored).
struct Walls {
    white_attacks: Bitboard,
    black_attacks: Bitboard,
    white_king: Bitboard,
    black_king: Bitboard,
}

impl Walls {
    /// `None` when a pawn attacks an enemy pawn, or a king could reach an
    /// enemy pawn it could take (one no enemy pawn defends).
    fn new(board: &shakmaty::Board) -> Option<Walls> {
        let pawns = board.pawns();
        let white = pawns & board.white();
        let black = pawns & board.black();
        let mut white_attacks = Bitboard::EMPTY;
        for sq in white {
            white_attacks |= attacks::pawn_attacks(Color::White, sq);
        }
        let mut black_attacks = Bitboard::EMPTY;
        for sq in black {
            black_attacks |= attacks::pawn_attacks(Color::Black, sq);
        }
        if (white_attacks & black).any() || (black_attacks & white).any() {
            return None;
        }
        let region = |king: Option<Square>, own: Bitboard, enemy_attacks: Bitboard| {
            let Some(king) = king else {
                return Bitboard::EMPTY;
            };
            let open = !own & !enemy_attacks;
            let mut seen = Bitboard::from_square(king);
            let mut frontier = seen;
            while frontier.any() {
                let mut next = Bitboard::EMPTY;
                for sq in frontier {
                    next |= attacks::king_attacks(sq);
                }
                next &= open & !seen;
                seen |= next;
                frontier = next;
            }
            seen
        };
        let white_king = region(board.king_of(Color::White), white, black_attacks);
        let black_king = region(board.king_of(Color::Black), black, white_attacks);
        ((white_king & black).is_empty() && (black_king & white).is_empty()).then_some(Walls {
            white_attacks,
            black_attacks,
            white_king,
            black_king,
        })
    }

    /// The squares the pawns of `color` attack.
    fn attacked_by(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white_attacks,
            Color::Black => self.black_attacks,
        }
    }

    /// The squares the king of `color` could ever stand on.
    fn region(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white_king,
            Color::Black => self.black_king,
        }
    }
}

/// The rounds of the helpmate search: (most plies, moves tried per node,
/// `None` for all). Full width finds the short mates of crowded positions;
/// the narrow rounds follow the heuristics deep, for endgames where the
/// kings must first walk to an edge.
/// Each round may spend the given fraction (in quarters) of what is left.
const ROUNDS: [(u32, Option<usize>, u32); 3] = [(7, None, 1), (31, Some(2), 2), (41, Some(3), 4)];

/// Step 3: a helpmate for `winner` by iterative deepening, spending from
/// `nodes`. The mating line if one is found.
fn helpmate(pos: &Chess, winner: Color, nodes: &mut u32) -> Option<Vec<Move>> {
    let mut search = Helpmate {
        winner,
        nodes: *nodes,
        failed: HashMap::default(),
        line: Vec::new(),
        width: None,
    };
    let mut found = None;
    let mut left = *nodes;
    'rounds: for (most, width, quarters) in ROUNDS {
        let share = (u64::from(left) * u64::from(quarters) / 4) as u32;
        left -= share;
        search.nodes = share;
        search.width = width;
        search.failed.clear();
        // A mate is the winner's move: odd plies when the winner is to move.
        let mut depth = if pos.turn() == winner { 1 } else { 2 };
        while depth <= most {
            search.line.clear();
            match search.search(pos, depth) {
                Some(true) => {
                    found = Some(search.line.clone());
                    left += search.nodes;
                    break 'rounds;
                }
                Some(false) => depth += 2,
                None => break,
            }
        }
        left += search.nodes;
    }
    *nodes = left;
    found
}

struct Helpmate {
    winner: Color,
    nodes: u32,
    /// Positions searched without success, with the depth searched.
    failed: HashMap<u64, u32, Keyed>,
    /// The moves to the current node (the mating line once one is found).
    line: Vec<Move>,
    /// How many moves to try per node (all but the last ply's checks).
    width: Option<usize>,
}

impl Helpmate {
    /// Is there a helpmate within `depth` plies? `None` when out of budget.
    fn search(&mut self, pos: &Chess, depth: u32) -> Option<bool> {
        if self.nodes == 0 {
            return None;
        }
        self.nodes -= 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(pos.is_check() && pos.turn() != self.winner);
        }
        if depth == 0 || pos.has_insufficient_material(self.winner) {
            return Some(false);
        }
        let key = key(pos);
        if self.failed.get(&key).is_some_and(|&d| d >= depth) {
            return Some(false);
        }
        let mut ordered: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| (score(pos, m, self.winner), m))
            .collect();
        ordered.sort_by_key(|&(s, _)| -s);
        let mut tried = 0;
        for (_, m) in ordered {
            // The last ply must be the winner's mating move: only a check.
            let mut after = pos.clone();
            after.play_unchecked(m);
            if depth == 1 && !after.is_check() {
                continue;
            }
            if depth > 1 && self.width.is_some_and(|w| tried >= w) {
                break;
            }
            tried += 1;
            self.line.push(m);
            match self.search(&after, depth - 1) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => return None,
            }
            self.line.pop();
        }
        self.failed.insert(key, depth);
        Some(false)
    }
}

/// How promising `m` is for a helpmate by `winner` (higher first).
fn score(pos: &Chess, m: Move, winner: Color) -> i32 {
    let board = pos.board();
    let Some(their_king) = board.king_of(!winner) else {
        return 0;
    };
    let Some(our_king) = board.king_of(winner) else {
        return 0;
    };
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { king, .. } => (king, king),
        Move::Put { to, .. } => (to, to),
    };
    let closer = |target: Square| from.distance(target) as i32 - to.distance(target) as i32;
    let edge = |sq: Square| {
        let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
        f.min(7 - f).min(r).min(7 - r) as i32
    };
    let mut s = 0;
    if pos.turn() == winner {
        s += 4 * closer(their_king);
        match m.promotion() {
            Some(Role::Queen) => s += 100,
            Some(Role::Knight) => s += 10,
            Some(_) => s -= 5,
            None => {}
        }
        if m.is_capture() {
            s += 3;
        }
        if m.role() == Role::Pawn {
            s += 2;
        }
    } else if m.role() == Role::King {
        let corner = |sq: Square| {
            let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
            (f.min(7 - f) + r.min(7 - r)) as i32
        };
        s += 3 * (edge(from) - edge(to)) + 2 * (corner(from) - corner(to)) + closer(our_king);
    } else {
        // The loser's pieces gather around their own king (taking its
        // flight squares) and leave the winner's pieces alone.
        s += 2 * closer(their_king);
        if m.is_capture() {
            s -= 6;
        }
        match m.promotion() {
            Some(Role::Queen) => s -= 5,
            Some(_) => s += 1,
            None => {}
        }
        if m.role() == Role::Pawn {
            s += 1;
        }
    }
    s
}

/// The identity of a position for the searches: Law 9.2's.
fn key(pos: &Chess) -> u64 {
    let Zobrist64(k) = pos.zobrist_hash(EnPassantMode::Legal);
    k
}

enum Explored {
    /// A checkmate is reachable by this line.
    Mate(Vec<Move>),
    /// Every reachable position was visited: no checkmate.
    NoMate,
    /// The budget ran out.
    OutOfBudget,
}

/// Step 4: every position reachable from `pos`, breadth first, until a
/// checkmate by `winner` (by either side when `None`) turns up. Positions
/// where the static rules show no such mate can follow are not expanded.
fn explore(pos: &Chess, winner: Option<Color>, mut nodes: u32) -> Explored {
    let hopeless = |p: &Chess| {
        frozen(p)
            || match winner {
                Some(c) => p.has_insufficient_material(c),
                None => p.is_insufficient_material(),
            }
    };
    // The line is only wanted for one colour's verdict.
    let want_line = winner.is_some();
    let start = key(pos);
    let mut parent: HashMap<u64, (u64, Move), Keyed> = HashMap::default();
    let mut seen: HashSet<u64, Keyed> = HashSet::default();
    seen.insert(start);
    let mut queue = VecDeque::new();
    queue.push_back((pos.clone(), start));
    while let Some((p, k)) = queue.pop_front() {
        if hopeless(&p) {
            continue;
        }
        if nodes == 0 {
            return Explored::OutOfBudget;
        }
        nodes -= 1;
        for &m in &p.legal_moves() {
            let mut after = p.clone();
            after.play_unchecked(m);
            let next = crate::keyed::next_key(&p, k, m, &after);
            if !seen.insert(next) {
                continue;
            }
            if want_line {
                parent.insert(next, (k, m));
            }
            if mated(&after) && winner.is_none_or(|c| after.turn() != c) {
                // Walk the parents back to the start.
                let mut line = Vec::new();
                let mut at = next;
                while at != start {
                    let Some(&(up, mv)) = parent.get(&at) else {
                        break;
                    };
                    line.push(mv);
                    at = up;
                }
                line.reverse();
                return Explored::Mate(line);
            }
            queue.push_back((after, next));
        }
    }
    Explored::NoMate
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// A winnable verdict's line is legal and ends in mate by `winner`.
    fn assert_mates(p: &Chess, winner: Color, budget: Budget) {
        let Verdict::Winnable(line) = can_checkmate(p, winner, budget) else {
            panic!(
                "{winner:?} can mate in {}",
                shakmaty::fen::Fen::from_position(p, EnPassantMode::Legal)
            );
        };
        let mut q = p.clone();
        for m in line {
            q = q.play(m).expect("a legal move");
        }
        assert!(q.is_checkmate() && q.turn() != winner);
    }

    #[test]
    fn locked_pawn_chains_are_dead() {
        for fen in [
            "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 40",
            // A locked chain across the board.
            "8/8/1k6/p1p1p1p1/PpPpPpPp/1P1P1P1P/5K2/8 b - - 0 50",
            "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3K4 w - - 0 60",
        ] {
            let p = pos(fen);
            assert!(frozen(&p), "{fen}");
            assert_eq!(is_dead(&p, Budget::QUICK), Life::Dead, "{fen}");
            assert_eq!(
                can_checkmate(&p, Color::White, Budget::QUICK),
                Verdict::Unwinnable
            );
        }
    }

    #[test]
    fn same_coloured_bishops_behind_a_wall_are_dead() {
        // A light-squared bishop, pawns on dark squares: no capture is ever
        // possible, and no king can be mated (the static rule).
        let p = pos("8/2k5/8/p1p1p1p1/P1P1P1P1/8/2K1B3/8 w - - 0 40");
        assert!(frozen(&p));
        assert_eq!(is_dead(&p, Budget::QUICK), Life::Dead);
        // The same, left to the exhaustive search: it agrees.
        assert!(matches!(explore(&p, None, 1_000_000), Explored::NoMate));
        // A bishop that can reach a pawn is no frozen structure: the
        // search decides (here, it finds the mate after the wall opens).
        let p = pos("8/2k5/8/p1p1p1p1/P1P1P1P1/8/2K1b3/8 w - - 0 40");
        assert!(!frozen(&p));
    }

    #[test]
    fn a_wall_with_one_breakable_spot_is_winnable() {
        // Looks like a wall, but the h-pawn can advance and g4 can take it.
        let p = pos("8/4k3/8/p1p1p1pp/P1P1P1P1/8/4K3/8 w - - 0 40");
        assert!(!frozen(&p));
        assert_eq!(is_dead(&p, Budget::THOROUGH), Life::Alive);
        assert_mates(&p, Color::White, Budget::THOROUGH);
    }

    #[test]
    fn opposite_coloured_bishops_and_knight_against_pawn_are_winnable() {
        let p = pos("8/8/3k4/4b3/8/3BK3/8/8 w - - 0 50");
        assert_mates(&p, Color::White, Budget::THOROUGH);
        assert_mates(&p, Color::Black, Budget::THOROUGH);
        let p = pos("8/8/3k4/3p4/8/4K3/8/6N1 w - - 0 50");
        assert_mates(&p, Color::White, Budget::THOROUGH);
        assert_mates(&p, Color::Black, Budget::THOROUGH);
    }

    #[test]
    fn insufficient_material_for_one_side() {
        let p = pos("8/8/3k4/3q4/8/3NK3/8/8 w - - 0 50");
        assert_eq!(
            can_checkmate(&p, Color::White, Budget::QUICK),
            Verdict::Unwinnable
        );
        assert_mates(&p, Color::Black, Budget::QUICK);
    }
}
