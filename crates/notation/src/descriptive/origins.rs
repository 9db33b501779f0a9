//! Where each piece started (`KR`, `QN`: the king's rook, the queen's
//! knight), tracked along a line of play.

use shakmaty::{Bitboard, Chess, Color, File, Move, Position, Rank, Square};

use super::{Files, Place, Side};

/// Where each piece started, for `KR`, `QN` ...: the squares of the pieces
/// (of both sides) that stood on the king's side and on the queen's side of
/// the board when the line started. Pawns have none (they are named by
/// their file); a promoted piece has none.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Origins {
    king_side: Bitboard,
    queen_side: Bitboard,
}

impl Origins {
    /// The origins of the pieces of `pos` as they stand.
    pub(crate) fn new(pos: &Chess) -> Origins {
        let pieces = pos.board().occupied() & !pos.board().pawns();
        let king_files = Bitboard::from_file(File::E)
            | Bitboard::from_file(File::F)
            | Bitboard::from_file(File::G)
            | Bitboard::from_file(File::H);
        Origins {
            king_side: pieces & king_files,
            queen_side: pieces & !king_files,
        }
    }

    fn side_of(&self, sq: Square) -> Option<Side> {
        if self.king_side.contains(sq) {
            Some(Side::King)
        } else if self.queen_side.contains(sq) {
            Some(Side::Queen)
        } else {
            None
        }
    }

    /// Follows `m` (legal in the position before it).
    pub(crate) fn play(&mut self, m: &Move) {
        // The common move, branch-free: every line of every notation is
        // followed so (a few instructions a ply).
        if let Move::Normal {
            from,
            to,
            promotion: None,
            ..
        } = *m
        {
            let (f, t) = (from.to_u32(), to.to_u32());
            let gone = !((1u64 << f) | (1u64 << t));
            let (k, q) = (self.king_side.0, self.queen_side.0);
            self.king_side = Bitboard((k & gone) | (((k >> f) & 1) << t));
            self.queen_side = Bitboard((q & gone) | (((q >> f) & 1) << t));
            return;
        }
        let (steps, captured): ([(Square, Square); 2], Option<Square>) = match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => {
                if promotion.is_some() {
                    self.clear(from);
                    self.clear(to);
                    return;
                }
                ([(from, to), (from, to)], None)
            }
            Move::EnPassant { from, to } => (
                [(from, to), (from, to)],
                Some(Square::from_coords(to.file(), from.rank())),
            ),
            Move::Castle { king, rook } => {
                let short = rook.file() > king.file();
                let (kf, rf) = if short {
                    (File::G, File::F)
                } else {
                    (File::C, File::D)
                };
                let rank = king.rank();
                (
                    [
                        (king, Square::from_coords(kf, rank)),
                        (rook, Square::from_coords(rf, rank)),
                    ],
                    None,
                )
            }
            Move::Put { .. } => return,
        };
        if let Some(sq) = captured {
            self.clear(sq);
        }
        // Both pieces leave before either lands (Chess960 castling may
        // swap squares).
        let sides = steps.map(|(from, _)| self.side_of(from));
        for (from, _) in steps {
            self.clear(from);
        }
        for ((_, to), side) in steps.into_iter().zip(sides) {
            self.clear(to);
            match side {
                Some(Side::King) => self.king_side.add(to),
                Some(Side::Queen) => self.queen_side.add(to),
                None => {}
            }
        }
    }

    fn clear(&mut self, sq: Square) {
        self.king_side.discard(sq);
        self.queen_side.discard(sq);
    }
}

/// The set of files copied to every rank.
pub(super) fn file_squares(files: Files) -> Bitboard {
    Bitboard(u64::from(files).wrapping_mul(0x0101_0101_0101_0101))
}

impl Place {
    /// The squares the place names from `turn`'s side.
    pub(super) fn squares(self, turn: Color) -> Bitboard {
        let files = file_squares(self.files);
        match self.rank {
            Some(r) => {
                let r = match turn {
                    Color::White => r,
                    Color::Black => 7 - r,
                };
                files & Bitboard::from_rank(Rank::new(u32::from(r)))
            }
            None => files,
        }
    }
}

impl Origins {
    /// The squares of the pieces that started on `side`.
    pub(super) fn of(&self, side: Side) -> Bitboard {
        match side {
            Side::King => self.king_side,
            Side::Queen => self.queen_side,
        }
    }
}
