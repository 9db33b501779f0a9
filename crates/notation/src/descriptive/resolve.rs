//! Resolving a descriptive move against a position: the squares it
//! states, and the one legal move that fits them.

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square, attacks,
};

use super::origins::{Origins, file_squares};
use super::{Descriptive, Side};
use crate::fitting::{Fitting, ResolveError};

/// The square of the man `m` captures (the passed pawn's for en passant).
pub(super) fn captured_square(m: &Move) -> Option<(Role, Square)> {
    match *m {
        Move::Normal {
            capture: Some(role),
            to,
            ..
        } => Some((role, to)),
        Move::EnPassant { from, to } => {
            Some((Role::Pawn, Square::from_coords(to.file(), from.rank())))
        }
        _ => None,
    }
}

/// What a token states about squares, as sets of squares: where the mover
/// may stand (its files, its square or rank as written, the side of the
/// board it started on) and where it goes (a move's destination) or what
/// it takes (the captured man's files, square and side). With the man's
/// kind and the promotion, a move fits the token when its squares are in
/// these sets ([`Descriptive::fits`]); the moves that fit are made from
/// them without a move list in the common cases.
struct Masks {
    from: Bitboard,
    /// A move's destination; the square of the man a capture takes.
    to: Bitboard,
}

impl Descriptive {
    fn masks(&self, turn: Color, origins: Option<&Origins>) -> Masks {
        let all = !Bitboard(0);
        let side = |side: Option<Side>| match (side, origins) {
            (Some(side), Some(o)) => o.of(side),
            _ => all,
        };
        let from = file_squares(self.man.files)
            & self.from.map_or(all, |p| p.squares(turn))
            & side(self.man.side);
        let mut to = self.to.map_or(all, |p| p.squares(turn));
        if let Some(c) = self.captured {
            to &= file_squares(c.files) & side(c.side);
        }
        Masks { from, to }
    }

    /// Whether `m` (legal) fits the token, whose squares are `masks`.
    fn fits(&self, m: &Move, masks: &Masks) -> bool {
        let Some(from) = m.from() else { return false };
        if m.is_castle() || m.role() != self.man.role || !masks.from.contains(from) {
            return false;
        }
        let square = match (self.captured, captured_square(m)) {
            (None, None) => m.to(),
            (Some(c), Some((role, sq))) if c.role == role => sq,
            _ => return false,
        };
        masks.to.contains(square)
            && match (self.promotion, m.promotion()) {
                (Some(p), Some(q)) => p == q,
                (Some(_), None) => false,
                (None, _) => true,
            }
    }

    /// The one legal move of `pos` that fits, with the pieces' origins if
    /// they are known (unknown: a piece named by its side fits either side);
    /// `in_check`: whether the side to move is in check, if known.
    pub(crate) fn resolve(
        &self,
        pos: &Chess,
        in_check: Option<bool>,
        origins: Option<&Origins>,
    ) -> Result<Move, ResolveError> {
        let board = pos.board();
        let turn = pos.turn();
        let occupied = board.occupied();
        let role = self.man.role;
        let masks = self.masks(turn, origins);
        let mut fitting = Fitting::default();
        // The squares a fitting move goes to: empty ones for a move, the
        // enemy men of the kind taken for a capture.
        let targets = match self.captured {
            None => masks.to & !occupied,
            Some(c) => masks.to & board.by_color(!turn) & board.by_role(c.role),
        };
        // En passant, rare: from shakmaty's candidates.
        if role == Role::Pawn
            && self.captured.is_some_and(|c| c.role == Role::Pawn)
            && let Some(ep) = pos.ep_square(EnPassantMode::PseudoLegal)
        {
            for m in pos.san_candidates(Role::Pawn, ep) {
                if self.fits(&m, &masks) {
                    fitting.push(m);
                }
            }
        }
        let Some(king) = board.king_of(turn) else {
            for to in targets {
                for m in pos.san_candidates(role, to) {
                    if self.fits(&m, &masks) {
                        fitting.push(m);
                    }
                }
            }
            return fitting.resolve();
        };
        let checkers = match in_check {
            Some(false) => Bitboard(0),
            _ => board.attacks_to(king, !turn, occupied),
        };
        if role == Role::King {
            if !masks.from.contains(king) || self.promotion.is_some() {
                return fitting.resolve();
            }
            for to in targets & attacks::king_attacks(king) {
                if board
                    .attacks_to(to, !turn, occupied.without(king))
                    .is_empty()
                {
                    fitting.push(Move::Normal {
                        role,
                        from: king,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
            return fitting.resolve();
        }
        // Out of check, any square; in single check, the checker's or one
        // between it and the king; in double check, none.
        let evasion = match checkers.single_square() {
            _ if checkers.is_empty() => !Bitboard(0),
            Some(checker) => attacks::between(king, checker).with(checker),
            None => Bitboard(0),
        };
        let ours = board.by_color(turn) & board.by_role(role) & masks.from;
        let last = match turn {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        let mut pinned = None;
        for to in targets & evasion {
            let capture = board.role_at(to);
            let from = match role {
                Role::Knight => attacks::knight_attacks(to) & ours,
                Role::Bishop => attacks::bishop_attacks(to, occupied) & ours,
                Role::Rook => attacks::rook_attacks(to, occupied) & ours,
                Role::Queen => attacks::queen_attacks(to, occupied) & ours,
                Role::Pawn if capture.is_some() => attacks::pawn_attacks(!turn, to) & ours,
                Role::Pawn => pawn_pushes_to(to, turn, ours, occupied),
                Role::King => Bitboard(0),
            };
            let promotes = role == Role::Pawn && to.rank() == last;
            if !promotes && self.promotion.is_some() {
                continue;
            }
            for from in from {
                // Only a piece on a line with its king can be pinned.
                if !attacks::ray(king, from).is_empty() {
                    let pinned =
                        *pinned.get_or_insert_with(|| crate::fitting::slider_blockers(pos, king));
                    if pinned.contains(from) && !attacks::aligned(from, to, king) {
                        continue;
                    }
                }
                let mut push = |promotion| {
                    fitting.push(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion,
                    });
                };
                match (promotes, self.promotion) {
                    (false, _) => push(None),
                    (true, Some(p)) => push(Some(p)),
                    (true, None) => {
                        for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            push(Some(p));
                        }
                    }
                }
            }
        }
        fitting.resolve()
    }
}

/// The square of the side to move's pawn (of `ours`) that pushes to the
/// empty square `to`, one step or two from its first rank.
fn pawn_pushes_to(to: Square, turn: Color, ours: Bitboard, occupied: Bitboard) -> Bitboard {
    let (back, double): (i32, Rank) = match turn {
        Color::White => (-8, Rank::Fourth),
        Color::Black => (8, Rank::Fifth),
    };
    match to.offset(back) {
        Some(one) if ours.contains(one) => Bitboard::from_square(one),
        Some(one) if !occupied.contains(one) && to.rank() == double => one
            .offset(back)
            .filter(|two| ours.contains(*two))
            .map_or(Bitboard(0), Bitboard::from_square),
        _ => Bitboard(0),
    }
}
