//! The searches of the dead-position analysis: a helpmate search (both
//! sides cooperate to mate one king) that proves a position winnable, and
//! an exhaustive search of the positions reachable from it that proves it
//! unwinnable, pruned where the static rules already do.

use std::collections::{HashMap, VecDeque};

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

use super::mobility::Mobility;
use crate::keyed::{KeySet, Keyed, key_unplayed, next_key, position_key};

/// Which colours a search is about: for each, whether its mates count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Winners {
    pub white: bool,
    pub black: bool,
}

impl Winners {
    pub(crate) fn one(color: Color) -> Winners {
        Winners {
            white: color == Color::White,
            black: color == Color::Black,
        }
    }

    pub(crate) fn has(self, color: Color) -> bool {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub(crate) fn without(self, color: Color) -> Winners {
        Winners {
            white: self.white && color != Color::White,
            black: self.black && color != Color::Black,
        }
    }

    fn colors(self) -> impl Iterator<Item = Color> {
        [Color::White, Color::Black]
            .into_iter()
            .filter(move |&c| self.has(c))
    }
}

/// Whether `winner` can never mate in `pos` by the rules that need no
/// search: insufficient material, or the semi-static analysis.
pub(crate) fn hopeless(pos: &Chess, winner: Color, mobility: Option<&Mobility>) -> bool {
    pos.has_insufficient_material(winner) || mobility.is_some_and(|m| !m.can_mate(winner))
}

/// Whether `color` looks free to mate in `pos`, so that the semi-static
/// analysis (tens of times the cost of a move) would not conclude and the
/// exhaustive search skips it (skipping it is always sound: it only
/// prunes): a queen or rook with no locked pawn wall, or a pawn that can
/// take or has no enemy pawn ahead of it ([`super::may_be_unwinnable`]).
/// On CHA's test vectors this prunes as much and saves a tenth of the time.
pub(crate) fn free_to_mate(pos: &Chess, color: Color) -> bool {
    super::heavy_and_open(pos, color) || !super::may_be_unwinnable(pos, color)
}

/// What the exhaustive search found.
pub(crate) enum Explored {
    /// A checkmate by one of the winners is reachable by this line.
    Mate(Vec<Move>),
    /// Every reachable position was visited or shown hopeless: no mate.
    NoMate,
    /// The budget ran out.
    OutOfBudget,
    /// The search sprawls ([`Exploration::sprawls`]): it will not end
    /// within any budget.
    Sprawls,
}

/// A position the exhaustive search reached, and how.
struct Node {
    key: u64,
    /// The node it was reached from (`u32::MAX` for the start).
    parent: u32,
    /// The move that reached it (none for the start).
    by: Option<Move>,
    /// Worth the static rules: the root's children, and positions after a
    /// capture, a pawn move or a loss of castling rights (after other moves
    /// they rarely conclude what they did not before).
    judge: bool,
    /// Where its position is kept, once it was expanded.
    kept: u32,
}

/// How far a position looks from a mate by one of the winners, in rough
/// moves: the exhaustive search expands the nearest first, so that it
/// meets a mate early where there is one (the order of expansion does not
/// change what the search proves when it runs to its end).
#[derive(Copy, Clone, Debug)]
struct Guide {
    /// The corner of the mate, per winner.
    corners: [Option<Corner>; 2],
}

impl Guide {
    fn new(pos: &Chess, winners: Winners) -> Guide {
        let corner_for = |c: Color| winners.has(c).then(|| corner(pos, c));
        Guide {
            corners: [corner_for(Color::White), corner_for(Color::Black)],
        }
    }

    /// The nearest of the winners' estimates.
    fn estimate(&self, pos: &Chess) -> u32 {
        [Color::White, Color::Black]
            .into_iter()
            .zip(&self.corners)
            .filter_map(|(c, corner)| Some(distance_to_mate(pos, c, corner.as_ref()?)))
            .min()
            .unwrap_or(0)
    }
}

/// A rough count of the moves before `winner` mates in `pos` with the
/// loser's king in `corner` (CHA's picture of a helpmate, made a distance;
/// the idea is CHA's, the code is not):
/// the loser's king to the corner, the winner's king beside it, its knights
/// within a jump, its pawns forward, a loser's piece to the blocking square,
/// the loser's pawns taken.
fn distance_to_mate(pos: &Chess, winner: Color, corner: &Corner) -> u32 {
    let board = pos.board();
    let (Some(loser_king), Some(king)) = (board.king_of(!winner), board.king_of(winner)) else {
        return 0;
    };
    let ours = board.by_color(winner);
    let theirs = board.by_color(!winner);
    let at = |table: &[u8; 64], sq: Square| u32::from(table[usize::from(sq)]);
    // Weights measured on CHA's test vectors: the loser's king weighs most.
    let mut h = 3 * at(&corner.to_king, loser_king) + at(&corner.to_guard, king);
    for sq in ours & board.knights() {
        h += at(&corner.jumps_to_king, sq);
    }
    // A bishop off the corner's diagonals counts one.
    h += (ours & board.bishops() & !corner.diagonals).count() as u32;
    h += nearest_promotion(ours & board.pawns(), winner).unwrap_or(0);
    // Each of the loser's pawns counts two: pawn walls open by captures.
    let their_pawns = theirs & board.pawns();
    h += 2 * their_pawns.count() as u32;
    // The loser's nearest blocker's steps to the blocking square.
    let blockers = theirs & !board.kings() & !board.pawns();
    h += blockers
        .into_iter()
        .map(|sq| at(&corner.to_block, sq))
        .min()
        .unwrap_or_else(|| nearest_promotion(their_pawns, !winner).unwrap_or(0));
    h
}

/// The steps to the last rank of the most advanced of `pawns`, pawns of
/// `color`.
fn nearest_promotion(pawns: Bitboard, color: Color) -> Option<u32> {
    match color {
        Color::White => pawns.last().map(|sq| 7 - u32::from(sq.rank())),
        Color::Black => pawns.first().map(|sq| u32::from(sq.rank())),
    }
}

/// Every position reachable from a start, those nearest to a mate first
/// ([`Guide`]), until a checkmate by one of the winners turns up;
/// positions where the static rules show that none of them can mate are
/// not expanded. Resumable: each [`Exploration::run`] goes on where the
/// last one stopped. Only the positions expanded are kept whole; the
/// others are a move from one.
pub(crate) struct Exploration {
    winners: Winners,
    nodes: Vec<Node>,
    kept: Vec<Chess>,
    seen: KeySet,
    /// The nodes still to expand, nearest to a mate first ([`Guide`]),
    /// then in the order they were met.
    open: Frontier,
    guide: Guide,
    /// Pawn structures (with the material) where the static rules did not
    /// conclude: positions with the same structure are not judged again
    /// (skipping a judgement only prunes less, and the rules rarely
    /// conclude where they did not before with the same pawns).
    futile: KeySet,
}

/// The positions an exhaustive search expands before it may be found to
/// sprawl ([`Exploration::sprawls`]); looked at every 1,024 after that. On
/// CHA's test vectors 2,000 still keeps every proof, 1,000 loses 8: 4,000
/// keeps a margin.
const SPRAWL_AFTER: usize = 4_000;

/// Positions generated per node of budget, besides the one expanded: a
/// wide position (many queens) spends its budget faster, which keeps the
/// time of a budget about the same whatever the position (4 rather than 8
/// halved the worst time on CHA's test vectors and lost 1 of 1,857 proofs).
const CHILDREN_PER_NODE: u32 = 4;

/// Nodes of budget a judgement by the static rules spends (the
/// semi-static analysis costs several expansions): a search that judges
/// position after position (walls of pawns, a bishop) would otherwise take
/// many times the time of its budget. On CHA's test vectors 4 keeps every
/// proof and cuts the slowest question from about 110 ms to 50 ms (10
/// loses 4 proofs).
const JUDGEMENT_COST: u32 = 4;

/// The memory of an exploration, which each thread keeps between
/// questions: the next search starts with the room the last ones grew (no
/// growing it again, no fresh pages to fault in: with two threads, mapping
/// and faulting in pages took as much time as the searches), unless they
/// grew it past [`ROOM_KEPT`] positions. The table of positions met keeps
/// its memory but starts small ([`KeySet::reset`]): a small search is not
/// spread over a large table.
#[derive(Default)]
struct Room {
    nodes: Vec<Node>,
    kept: Vec<Chess>,
    open: Frontier,
    seen: KeySet,
    futile: KeySet,
}

/// The most positions met whose room a thread keeps: a search of
/// [`super::Budget::FULL`] meets at most 500,000 (about 35 MB of room, and
/// a table of positions met of at most 16 MB, four slots a position).
const ROOM_KEPT: usize = 1 << 19;

thread_local! {
    static ROOM: std::cell::Cell<Option<Box<Room>>> = const { std::cell::Cell::new(None) };
}

impl Exploration {
    pub(crate) fn new(pos: &Chess, winners: Winners) -> Exploration {
        let Room {
            mut nodes,
            mut kept,
            mut open,
            mut seen,
            mut futile,
        } = ROOM.take().map(|room| *room).unwrap_or_default();
        nodes.clear();
        kept.clear();
        open.clear();
        futile.reset(64);
        let start = position_key(pos);
        seen.reset(1 << 10);
        seen.insert(start);
        nodes.push(Node {
            key: start,
            parent: u32::MAX,
            by: None,
            judge: false,
            kept: 0,
        });
        kept.push(pos.clone());
        open.push(0, 0);
        Exploration {
            winners,
            nodes,
            kept,
            seen,
            open,
            guide: Guide::new(pos, winners),
            futile,
        }
    }

    /// Whether the search sprawls: after some thousands of positions
    /// expanded, most of those it met are still to expand. A search that
    /// will end (every line closed by the rules) soon meets mostly positions
    /// it has seen: on CHA's test vectors, those it proves keep under a
    /// quarter of their positions open, those it cannot settle within any
    /// budget over two thirds from the first thousands on.
    pub(crate) fn sprawls(&self) -> bool {
        self.kept.len() >= SPRAWL_AFTER && self.open.len() * 2 > self.nodes.len()
    }

    /// Goes on, spending from `nodes`: one per position expanded or judged,
    /// one per [`CHILDREN_PER_NODE`] positions generated.
    pub(crate) fn run(&mut self, nodes: &mut u32) -> Explored {
        let winners = self.winners;
        let mut generated = 0u32;
        while let Some(at) = self.open.first() {
            if *nodes == 0 {
                return Explored::OutOfBudget;
            }
            if self.kept.len().is_multiple_of(1024) && self.sprawls() {
                return Explored::Sprawls;
            }
            *nodes -= 1;
            self.open.pop();
            let at = at as usize;
            let node = &self.nodes[at];
            let (key, mut judge) = (node.key, node.judge);
            let p = match node.by {
                None => self.kept[node.kept as usize].clone(),
                Some(m) => {
                    let mut p = self.kept[self.nodes[node.parent as usize].kept as usize].clone();
                    p.play_unchecked(m);
                    p
                }
            };
            if judge {
                if winners.colors().all(|c| p.has_insufficient_material(c)) {
                    continue;
                }
                if winners.colors().any(|c| free_to_mate(&p, c)) {
                    judge = false;
                }
            }
            if judge {
                let structure = structure(&p);
                if !self.futile.contains(structure) {
                    *nodes = nodes.saturating_sub(JUDGEMENT_COST - 1);
                    let mobility = Mobility::new(&p);
                    if winners.colors().all(|c| hopeless(&p, c, mobility.as_ref())) {
                        continue;
                    }
                    self.futile.insert(structure);
                }
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                continue;
            }
            self.nodes[at].kept = self.kept.len() as u32;
            for &m in &moves {
                // Most moves lead to a position met before: its key first.
                let unplayed = key_unplayed(&p, key, m);
                if unplayed.is_some_and(|k| self.seen.contains(k)) {
                    continue;
                }
                let mut after = p.clone();
                after.play_unchecked(m);
                let k = unplayed.unwrap_or_else(|| next_key(&p, key, m, &after));
                if !self.seen.insert(k) {
                    continue;
                }
                generated += 1;
                if generated == CHILDREN_PER_NODE {
                    generated = 0;
                    *nodes = nodes.saturating_sub(1);
                }
                let zeroing = m.is_zeroing()
                    || after.castles().castling_rights() != p.castles().castling_rights();
                self.open
                    .push(self.guide.estimate(&after), self.nodes.len() as u32);
                self.nodes.push(Node {
                    key: k,
                    parent: at as u32,
                    by: Some(m),
                    judge: at == 0 || zeroing,
                    kept: u32::MAX,
                });
                if winners.has(!after.turn()) && after.is_check() && !super::has_legal_move(&after)
                {
                    let mut line = Vec::new();
                    let mut i = self.nodes.len() - 1;
                    while let Some(m) = self.nodes[i].by {
                        line.push(m);
                        i = self.nodes[i].parent as usize;
                    }
                    line.reverse();
                    return Explored::Mate(line);
                }
            }
            self.kept.push(p);
        }
        Explored::NoMate
    }
}

/// The nodes an exploration has still to expand, by their distance to a
/// mate ([`Guide::estimate`], a small number): a queue for each distance,
/// taken nearest first, each in the order its nodes were met (what a heap
/// of (distance, node) gives, without its scattered reads and writes).
#[derive(Default)]
struct Frontier {
    queues: Vec<VecDeque<u32>>,
    /// No queue before this one holds a node.
    nearest: usize,
    len: usize,
}

impl Frontier {
    fn clear(&mut self) {
        self.queues.iter_mut().for_each(VecDeque::clear);
        self.nearest = 0;
        self.len = 0;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, distance: u32, node: u32) {
        let d = distance as usize;
        if d >= self.queues.len() {
            self.queues.resize_with(d + 1, Default::default);
        }
        self.queues[d].push_back(node);
        self.nearest = self.nearest.min(d);
        self.len += 1;
    }

    /// The next node to expand (left in the frontier).
    fn first(&mut self) -> Option<u32> {
        while let Some(queue) = self.queues.get(self.nearest) {
            if let Some(&node) = queue.front() {
                return Some(node);
            }
            self.nearest += 1;
        }
        None
    }

    /// Takes the node [`Frontier::first`] gave.
    fn pop(&mut self) {
        if let Some(queue) = self.queues.get_mut(self.nearest)
            && queue.pop_front().is_some()
        {
            self.len -= 1;
        }
    }
}

impl Drop for Exploration {
    /// Gives the thread its room back, for the next search.
    fn drop(&mut self) {
        if self.nodes.capacity() <= ROOM_KEPT && self.seen.room() <= 4 * ROOM_KEPT {
            ROOM.set(Some(Box::new(Room {
                nodes: std::mem::take(&mut self.nodes),
                kept: std::mem::take(&mut self.kept),
                open: std::mem::take(&mut self.open),
                seen: std::mem::take(&mut self.seen),
                futile: std::mem::take(&mut self.futile),
            })));
        }
    }
}

/// The pawns of both sides and the material, mixed into one number: what
/// [`Exploration`] keys its futile judgements by. Two structures that mix
/// to the same number only make the search skip a judgement it could have
/// made (it prunes less): the key need not be exact.
fn structure(pos: &Chess) -> u64 {
    let board = pos.board();
    let pawns = board.pawns();
    // Four bits a count (at most ten of a kind, with promotions).
    let material = Role::ALL.into_iter().fold(0u64, |packed, role| {
        let pieces = board.by_role(role);
        let count = |side: Bitboard| (pieces & side).count() as u64 & 15;
        packed << 8 | count(board.white()) << 4 | count(board.black())
    });
    let mix = |x: u64, k: u64| (x ^ x >> 29).wrapping_mul(k);
    mix((pawns & board.white()).0, 0x9E37_79B9_7F4A_7C15)
        ^ mix(
            (pawns & board.black()).0.rotate_left(17),
            0xC2B2_AE3D_27D4_EB4F,
        )
        ^ mix(material, 0x1656_67B1_9E37_79F9)
}

/// How a move is judged in the helpmate search: a move toward the mate
/// costs no depth, an ordinary one a ply, a move away from it three.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Kind {
    Reward,
    Normal,
    Punish,
}

/// What a helpmate search ended with.
pub(crate) enum Helped {
    /// A mating line.
    Mate(Vec<Move>),
    /// The search ran to its end without a depth cut: no mate exists.
    NoMate,
    /// Out of budget (or depth) without a mate.
    Unknown,
}

/// Which pawn moves of the winner the helpmate search rewards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PawnMoves {
    /// Every pawn move: a pawn that must run far to promote.
    Every,
    /// Only a pawn's move to its sixth rank or beyond (CHA's rule), so that
    /// the search's free moves go to the pieces.
    Advanced,
}

/// The depths of the helpmate search's rounds (moves toward the mate do
/// not count).
const DEPTHS: [i32; 20] = [
    2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 80, 100,
];

/// A depth-first helpmate search for one winner by iterative deepening,
/// where moves toward the mate are free (CHA's rewards). Resumable: each
/// [`Helpmate::run`] goes on with the round where the last stopped.
pub(crate) struct Helpmate {
    root: Chess,
    key: u64,
    winner: Color,
    /// The next round (an index in [`DEPTHS`]).
    round: usize,
    /// Nodes left in this round.
    nodes: u32,
    /// Positions searched without a mate, with the depth left then and
    /// whether a line below them was cut (kept from round to round).
    tt: HashMap<u64, Searched, Keyed>,
    /// The moves to the current node (the mating line once found).
    line: Vec<Move>,
    /// Some line was cut by the depth.
    cut: bool,
    /// Where the mate is aimed: the loser's king's corner.
    corner: Corner,
    /// The winner's pawn moves this round rewards.
    pawns: PawnMoves,
}

impl Helpmate {
    pub(crate) fn new(pos: &Chess, winner: Color) -> Helpmate {
        Helpmate {
            root: pos.clone(),
            key: position_key(pos),
            winner,
            round: 0,
            nodes: 0,
            tt: HashMap::default(),
            line: Vec::with_capacity(64),
            cut: false,
            corner: corner(pos, winner),
            pawns: PawnMoves::Every,
        }
    }

    /// The colour that is to mate.
    pub(crate) fn winner(&self) -> Color {
        self.winner
    }

    /// The first round alone (a mate in a few moves toward it), spending at
    /// most `nodes`, rewarding the winner's `pawns` moves (the later rounds
    /// reward every pawn move).
    pub(crate) fn quick(&mut self, nodes: &mut u32, pawns: PawnMoves) -> Helped {
        self.pawns = pawns;
        self.tt.clear();
        let helped = self.round(nodes, DEPTHS[0], *nodes);
        self.pawns = PawnMoves::Every;
        self.tt.clear();
        helped
    }

    /// The next rounds, while `nodes` lasts. Each round may spend at most a
    /// share that grows with its depth (CHA: 10,000 nodes a ply); a round
    /// the nodes ran out in is played again next time.
    pub(crate) fn run(&mut self, nodes: &mut u32) -> Helped {
        while self.round < DEPTHS.len() && *nodes > 0 {
            let depth = DEPTHS[self.round];
            let share = depth as u32 * 4_000;
            let before = *nodes;
            match self.round(nodes, depth, share) {
                Helped::Unknown if *nodes == 0 && before < share => return Helped::Unknown,
                Helped::Unknown => self.round += 1,
                done => return done,
            }
        }
        Helped::Unknown
    }

    /// One round to `depth`, at most `share` of `nodes`.
    fn round(&mut self, nodes: &mut u32, depth: i32, share: u32) -> Helped {
        let share = share.min(*nodes);
        self.nodes = share;
        self.cut = false;
        self.line.clear();
        let root = self.root.clone();
        let found = self.search(&root, self.key, depth, false, 0);
        *nodes -= share - self.nodes;
        match found {
            Some(true) => Helped::Mate(std::mem::take(&mut self.line)),
            Some(false) if !self.cut => Helped::NoMate,
            _ => Helped::Unknown,
        }
    }
}

/// A position the helpmate search has searched (or is searching) without
/// finding a mate.
#[derive(Copy, Clone, Debug)]
struct Searched {
    /// The depth left when it was searched.
    depth: i32,
    /// A line below it was cut by the depth or the ply limit: no mate was
    /// found, but one may be there.
    cut: bool,
}

/// The squares a helpmate is steered toward.
#[derive(Copy, Clone, Debug)]
struct Corner {
    /// The corner the loser's king goes to.
    king: Square,
    /// Where the winner's king goes (two squares from the corner).
    guard: Square,
    /// Where the loser's other pieces go (next to the corner, blocking).
    block: Square,
    /// The diagonals through the corner (where the winner's bishops go).
    diagonals: Bitboard,
    /// Per square, the king steps to `king`, to `guard` and to `block`, and
    /// the knight moves to `king`: the terms of [`distance_to_mate`], looked
    /// up once per position generated.
    to_king: [u8; 64],
    to_guard: [u8; 64],
    to_block: [u8; 64],
    jumps_to_king: [u8; 64],
}

/// The corner on the loser's back rank, of the colour the winner's bishops
/// can mate on (CHA's choice).
fn corner(pos: &Chess, winner: Color) -> Corner {
    let board = pos.board();
    let ours = board.by_color(winner) & board.bishops();
    let theirs = board.by_color(!winner) & board.bishops();
    let dark = (ours & Bitboard::DARK_SQUARES).any()
        || (ours.is_empty() && (theirs & Bitboard::LIGHT_SQUARES).any());
    // For White winning on a dark corner: h8, the king on h6, a blocker on g8.
    let (mut king, mut guard, mut block) = (Square::H8, Square::H6, Square::G8);
    if !dark {
        (king, guard, block) = (
            king.flip_horizontal(),
            guard.flip_horizontal(),
            block.flip_horizontal(),
        );
    }
    if winner == Color::Black {
        (king, guard, block) = (king.rotate_180(), guard.rotate_180(), block.rotate_180());
    }
    Corner {
        king,
        guard,
        block,
        diagonals: shakmaty::attacks::bishop_attacks(king, Bitboard::EMPTY),
        to_king: Square::ALL.map(|sq| sq.distance(king) as u8),
        to_guard: Square::ALL.map(|sq| sq.distance(guard) as u8),
        to_block: Square::ALL.map(|sq| sq.distance(block) as u8),
        jumps_to_king: Square::ALL.map(|sq| knight_distance(sq, king)),
    }
}

/// Whether `pos` has nothing but kings, pawns and bishops, at least four
/// pawns blocked by an enemy pawn, and a pawn of each side on the same
/// files (CHA: no "lonely" pawn; a White pawn on its seventh rank or a
/// Black one on its second does not count).
pub(crate) fn bishop_wall(pos: &Chess) -> bool {
    let board = pos.board();
    if (board.knights() | board.rooks() | board.queens()).any() {
        return false;
    }
    let white = board.pawns() & board.white();
    let black = board.pawns() & board.black();
    if ((white.0 << 8) & black.0).count_ones() < 4 {
        return false;
    }
    let files = |pawns: Bitboard| {
        pawns
            .into_iter()
            .fold(0u8, |f, sq| f | 1 << (sq.file() as u8))
    };
    let white_files = files(white & !Bitboard::from_rank(shakmaty::Rank::Seventh));
    let black_files = files(black & !Bitboard::from_rank(shakmaty::Rank::Second));
    white_files == black_files
}

/// Whether the loser must promote for the winner to have mating material:
/// the winner has a lone knight and the loser nothing to block with but
/// pawns and queens, or the winner only bishops of one colour and the loser
/// no knight nor bishop of the other colour.
fn needs_loser_promotion(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner);
    let theirs = board.by_color(!winner);
    if ours.count() == 2 && (ours & board.knights()).count() == 1 {
        return (theirs & (board.knights() | board.bishops() | board.rooks())).is_empty();
    }
    let bishops = ours & board.bishops();
    if bishops.any() && ours.count() == bishops.count() + 1 {
        let colour = if (bishops & Bitboard::DARK_SQUARES).any() {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        return (board.bishops() & !colour).is_empty() && (theirs & board.knights()).is_empty();
    }
    false
}

/// Whether a king or knight move from `from` to `to` comes closer to `target`.
fn closer(role: Role, from: Square, to: Square, target: Square) -> bool {
    match role {
        Role::King => to.distance(target) < from.distance(target),
        Role::Knight => knight_distance(to, target) < knight_distance(from, target),
        _ => false,
    }
}

/// Knight moves from `a` to `b` on an empty board.
fn knight_distance(a: Square, b: Square) -> u8 {
    KNIGHT_DISTANCES[usize::from(a)][usize::from(b)]
}

/// [`knight_distance`] for every pair of squares, by a breadth-first walk
/// from each square, made when the crate is compiled.
static KNIGHT_DISTANCES: [[u8; 64]; 64] = {
    const JUMPS: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut table = [[u8::MAX; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let row = &mut table[from];
        row[from] = 0;
        let mut distance = 0;
        let mut changed = true;
        while changed {
            changed = false;
            let mut sq = 0;
            while sq < 64 {
                if row[sq] == distance {
                    let mut j = 0;
                    while j < JUMPS.len() {
                        let file = (sq % 8) as i32 + JUMPS[j].0;
                        let rank = (sq / 8) as i32 + JUMPS[j].1;
                        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                            let to = (rank * 8 + file) as usize;
                            if row[to] == u8::MAX {
                                row[to] = distance + 1;
                                changed = true;
                            }
                        }
                        j += 1;
                    }
                }
                sq += 1;
            }
            distance += 1;
        }
        from += 1;
    }
    table
};

/// The deepest a line of the helpmate search goes (each ply holds a move
/// list on the stack); moves toward the mate stop being free well before.
const MAX_PLY: u32 = 240;
/// Beyond this ply no move is rewarded (CHA stops at 400).
const REWARD_PLY: u32 = 160;

impl Helpmate {
    /// Is there a helpmate within `depth` (moves toward the mate free)?
    /// `None` when the round's nodes ran out.
    fn search(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        progress: bool,
        ply: u32,
    ) -> Option<bool> {
        if self.nodes == 0 {
            return None;
        }
        self.nodes -= 1;
        // A leaf needs only to know whether it is the end: the king's
        // steps settle that without generating the moves, mostly.
        if depth <= 0 && super::has_legal_move(pos) {
            if !pos.has_insufficient_material(self.winner) {
                self.cut = true;
            }
            return Some(false);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(pos.is_check() && pos.turn() != self.winner);
        }
        if pos.has_insufficient_material(self.winner) {
            return Some(false);
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.cut = true;
            return Some(false);
        }
        if let Some(seen) = self.tt.get(&key)
            && seen.depth >= depth
        {
            // Searched already with as much depth, without a mate: a line
            // cut below it then is cut here too. (A position still being
            // searched is on this line: a repetition, which no mate needs.)
            self.cut |= seen.cut;
            return Some(false);
        }
        self.tt.insert(key, Searched { depth, cut: false });
        let cut_above = std::mem::replace(&mut self.cut, false);
        let winners_turn = pos.turn() == self.winner;
        let loser_promotes = !winners_turn && needs_loser_promotion(pos, self.winner);
        let king_target = if winners_turn {
            self.king_target(pos)
        } else {
            self.corner.king
        };
        // Behind a wall of pawns with bishops (CHA's rule): the kings and
        // bishops heading for the mate are rewarded, where the loser has
        // bishops to block with.
        let bishops_to_mate = bishop_wall(pos)
            && (pos.board().by_color(!self.winner) & pos.board().bishops()).count() > 1;
        // The moves in the order they are generated (pawns, knights,
        // bishops, rooks, queens, the king: Stockfish's, which CHA's search
        // follows), not the rewarded ones first: a line of rewarded moves
        // and the free moves after them costs no depth, and taking those
        // first sent the search down long walks of the kings before any
        // piece moved. On 30,000 final positions of lichess games lost on
        // time, 19 left undecided within the full budget against 41, and
        // on CHA's test vectors 4 more sides proved able to mate, for the
        // same instructions.
        for &m in &moves {
            let kind = if ply <= REWARD_PLY {
                let kind = self.kind(m, winners_turn, loser_promotes, king_target);
                if bishops_to_mate {
                    self.behind_bishop_wall(m, winners_turn, kind)
                } else {
                    kind
                }
            } else {
                Kind::Normal
            };
            let mut after = pos.clone();
            after.play_unchecked(m);
            let k = next_key(pos, key, m, &after);
            let cost = match kind {
                Kind::Reward => 0,
                Kind::Normal if progress => 0,
                Kind::Normal => 1,
                Kind::Punish => 3,
            };
            self.line.push(m);
            match self.search(&after, k, depth - cost, kind == Kind::Reward, ply + 1) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => {
                    // Out of nodes: what is below was not all searched.
                    self.tt.insert(key, Searched { depth, cut: true });
                    return None;
                }
            }
            self.line.pop();
        }
        let cut = self.cut;
        self.tt.insert(key, Searched { depth, cut });
        self.cut |= cut_above;
        Some(false)
    }

    /// Where the winner's king heads: with nothing but pawns, for the
    /// nearest enemy pawn that blocks one of them (to take it and let the
    /// pawn run); otherwise next to the corner of the mate.
    fn king_target(&self, pos: &Chess) -> Square {
        let board = pos.board();
        let ours = board.by_color(self.winner);
        let Some(king) = board.king_of(self.winner) else {
            return self.corner.guard;
        };
        if (ours & !board.pawns() & !board.kings()).any() {
            return self.corner.guard;
        }
        let pawns = ours & board.pawns();
        let ahead = match self.winner {
            Color::White => Bitboard(pawns.0 << 8),
            Color::Black => Bitboard(pawns.0 >> 8),
        };
        (ahead & board.by_color(!self.winner) & board.pawns())
            .into_iter()
            .min_by_key(|&sq| sq.distance(king))
            .unwrap_or(self.corner.guard)
    }

    /// CHA's judgement of a move behind a wall of pawns with bishops
    /// (`bishop_wall`, the loser having bishops to block with), over
    /// [`Helpmate::kind`]'s `kind`: a king or bishop heading to its square
    /// of the mate is rewarded. (CHA's search also punishes all but the
    /// kings' steps and the winner's captures where two pawns stand one
    /// square apart: on its test vectors that changed no answer and no
    /// count of instructions, and is left out.)
    fn behind_bishop_wall(&self, m: Move, winners_turn: bool, kind: Kind) -> Kind {
        let role = m.role();
        let (Some(from), Role::King | Role::Bishop) = (m.from(), role) else {
            return kind;
        };
        if let Move::Castle { .. } = m {
            return kind;
        }
        let target = match (winners_turn, role) {
            (true, Role::King) => self.corner.guard,
            (true, _) | (false, Role::King) => self.corner.king,
            (false, _) => self.corner.block,
        };
        if m.to().distance(target) < from.distance(target) {
            Kind::Reward
        } else {
            kind
        }
    }

    /// CHA's judgement of a move: toward the corner, a capture or a pawn
    /// advance by the winner are progress; the loser's pieces are steered
    /// to the corner and away from captures.
    fn kind(&self, m: Move, winners_turn: bool, loser_promotes: bool, king_target: Square) -> Kind {
        let role = m.role();
        let (from, to) = match m.from() {
            Some(from) => (from, m.to()),
            None => return Kind::Normal,
        };
        if let Move::Castle { .. } = m {
            return Kind::Normal;
        }
        if winners_turn {
            let target = if role == Role::King {
                king_target
            } else {
                self.corner.king
            };
            let free_pawn = role == Role::Pawn
                && (self.pawns == PawnMoves::Every
                    || self.winner.fold_wb(to.rank(), to.rank().flip_vertical())
                        > shakmaty::Rank::Fifth);
            if free_pawn || m.is_capture() || closer(role, from, to, target) {
                return Kind::Reward;
            }
            return Kind::Normal;
        }
        let mut kind = Kind::Normal;
        if loser_promotes {
            let heavy = matches!(m.promotion(), Some(Role::Queen | Role::Rook));
            kind = if role == Role::Pawn && !heavy {
                Kind::Reward
            } else {
                Kind::Punish
            };
        }
        let target = if role == Role::King {
            self.corner.king
        } else {
            self.corner.block
        };
        if closer(role, from, to, target) {
            Kind::Reward
        } else if m.is_capture() {
            Kind::Punish
        } else {
            kind
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frontier gives its nodes in the order of the heap of
    /// (distance, node) it replaced (std's `BinaryHeap`, the reference),
    /// pushes and takes interleaved as a search makes them.
    #[test]
    fn the_frontier_takes_nodes_as_a_heap_of_distance_and_node_would() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut frontier = Frontier::default();
        let mut heap = BinaryHeap::new();
        let mut rng = pgnkit_testkit::Xorshift::new(0x2545_f491_4f6c_dd1d);
        let mut next = 0u32;
        for round in 0..3 {
            frontier.clear();
            heap.clear();
            for _ in 0..20_000 {
                let seed = rng.next_u64();
                if !seed.is_multiple_of(3) {
                    let distance = (seed >> 40) as u32 % 60;
                    frontier.push(distance, next);
                    heap.push(Reverse((distance, next)));
                    next += 1;
                } else {
                    let expected = heap.pop().map(|Reverse((_, node))| node);
                    assert_eq!(frontier.first(), expected, "round {round}");
                    frontier.pop();
                }
                assert_eq!(frontier.len(), heap.len());
            }
        }
    }

    /// The table against a walk of shakmaty's knight attacks.
    #[test]
    fn knight_distances_are_the_jumps_of_a_knight() {
        for from in Square::ALL {
            let mut seen = Bitboard::from_square(from);
            let mut frontier = seen;
            let mut d = 0;
            while frontier.any() {
                for sq in frontier {
                    assert_eq!(knight_distance(from, sq), d, "{from} to {sq}");
                }
                let mut next = Bitboard::EMPTY;
                for sq in frontier {
                    next |= shakmaty::attacks::knight_attacks(sq);
                }
                frontier = next & !seen;
                seen |= next;
                d += 1;
            }
            assert_eq!(seen, Bitboard::FULL);
        }
    }
}
