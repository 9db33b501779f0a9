//! Static exchange: what a side wins by capturing on a square, each side
//! capturing with its least valuable piece while that pays, and whether a
//! move gives material away that the reply played does not take. The
//! repair's evidence for which of two fixes the players made, where both
//! replay the rest of the game ([`blunder`]).
//!
//! ```
//! use pgnkit_replay::exchange::see;
//! use shakmaty::{Chess, Color, Position, Square, fen::Fen, CastlingMode};
//!
//! // A knight on e5 attacked by the d6 pawn and defended by the f4 pawn.
//! let fen: Fen = "4k3/8/3p4/4N3/5P2/8/8/4K3 b - - 0 1".parse().unwrap();
//! let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! // dxe5 fxe5: Black wins a knight (3) for a pawn (1).
//! assert_eq!(see(pos.board(), Square::E5, Color::Black), 2);
//! ```

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

/// A piece's value in pawns (the king's: more than all the others).
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// The least valuable piece of `side` that attacks `sq` through `occupied`.
fn least(board: &Board, sq: Square, side: Color, occupied: Bitboard) -> Option<(Square, Role)> {
    let attackers = board.attacks_to(sq, side, occupied) & occupied;
    attackers
        .into_iter()
        .filter_map(|s| board.role_at(s).map(|r| (s, r)))
        .min_by_key(|&(_, r)| value(r))
}

/// What `side` wins, in pawns, by capturing the piece on `sq` and going
/// on exchanging there while it pays (0 if it does not pay or there is
/// nothing to capture). Pins and checks are not looked at.
pub fn see(board: &Board, sq: Square, side: Color) -> i32 {
    let Some(target) = board.role_at(sq) else {
        return 0;
    };
    if board.color_at(sq) == Some(side) {
        return 0;
    }
    let mut occupied = board.occupied();
    // At most 32 pieces take part: the exchange is bounded.
    let mut gain: Vec<i32> = Vec::with_capacity(32);
    gain.push(value(target));
    let mut turn = side;
    let mut next = least(board, sq, turn, occupied);
    while let Some((from, role)) = next {
        let last = gain.last().copied().unwrap_or(0);
        // What the other side gets by taking the piece that just took.
        gain.push(value(role) - last);
        if gain.len() >= 32 {
            break;
        }
        occupied.discard(from);
        turn = !turn;
        next = least(board, sq, turn, occupied);
    }
    // The last entry is a capture nobody answered: dropped; then each side
    // stops where going on would lose.
    gain.pop();
    while gain.len() > 1 {
        let Some(g) = gain.pop() else { break };
        if let Some(prev) = gain.last_mut() {
            *prev = -(-*prev).max(g);
        }
    }
    gain.first().copied().unwrap_or(0).max(0)
}

/// Pawns `m`, played from `before`, gives away at once: the most the
/// opponent wins by one exchange in `after`, less what `m` captured.
/// Negative or zero: nothing given away.
pub fn given_away(before: &Chess, m: Move, after: &Chess) -> i32 {
    given_away_at_least(before, m, after, i32::MIN)
}

/// [`given_away`] when it is at least `floor`; some number under `floor`
/// otherwise, found without looking at the position before the move when
/// the threat after it is too small already (the common case: half the
/// work).
fn given_away_at_least(before: &Chess, m: Move, after: &Chess, floor: i32) -> i32 {
    let won =
        m.capture().map_or(0, value) + m.promotion().map_or(0, |r| value(r).saturating_sub(1));
    let mover = before.turn();
    let board = after.board();
    let threat = (board.by_color(mover) & !board.kings())
        .into_iter()
        .map(|sq| see(board, sq, !mover))
        .max()
        .unwrap_or(0);
    // What the move gives is at most the threat after it, less its gain.
    if threat - won < floor {
        return threat - won;
    }
    // What was hanging before the move and still is, is not this move's.
    let before_threat = (before.board().by_color(mover) & !before.board().kings())
        .into_iter()
        .filter(|&sq| Some(sq) != m.from())
        .map(|sq| see(before.board(), sq, !mover))
        .max()
        .unwrap_or(0);
    threat.saturating_sub(before_threat.min(threat)) - won
}

/// Whether `m` (from `before`, giving `after`) gives away at least a
/// minor piece's worth (two pawns) and `reply`, the opponent's next move
/// as written, takes none of it: both players would have erred, which a
/// fix that gives nothing away does not need.
pub fn blunder(before: &Chess, m: Move, after: &Chess, reply: Option<Move>) -> bool {
    if given_away_at_least(before, m, after, 2) < 2 {
        return false;
    }
    let Some(reply) = reply else {
        return false;
    };
    // The reply takes what was given: a capture that wins material.
    !(reply.is_capture() && see(after.board(), reply.to(), after.turn()) >= 2)
}
