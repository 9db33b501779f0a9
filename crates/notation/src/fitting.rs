//! The legal moves that fit what a written move states, and why none or
//! several do: the rule of every notation pgnkit reads (a written move is
//! its move when exactly one legal move fits).

use std::fmt;

use shakmaty::{Bitboard, CastlingMode, Chess, Move, Position, Square, attacks};

/// Why a parsed token does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResolveError {
    /// No legal move fits the token.
    Illegal,
    /// Several legal moves fit: the candidates, in move-generation order.
    Ambiguous(Vec<Move>),
    /// The piece letter means nothing in this language (nor in English).
    UnknownPiece,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Illegal => f.write_str("no legal move fits"),
            ResolveError::Ambiguous(moves) => {
                write!(f, "{} legal moves fit:", moves.len())?;
                for m in moves {
                    write!(f, " {}", m.to_uci(CastlingMode::Standard))?;
                }
                Ok(())
            }
            ResolveError::UnknownPiece => {
                f.write_str("the piece letter means nothing in this language")
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// Pieces of the side to move that alone stand between their king and an
/// enemy slider (as shakmaty computes them for legality).
pub(crate) fn slider_blockers(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let them = board.by_color(!pos.turn());
    let snipers = ((attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens()))
        & them;
    let mut blockers = Bitboard(0);
    for sniper in snipers {
        let b = attacks::between(king, sniper) & board.occupied();
        if !b.more_than_one() {
            blockers = blockers.with(b);
        }
    }
    blockers
}

/// Whether the piece of the side to move on `from` alone stands between
/// its king (on `king`) and an enemy slider: whether
/// [`slider_blockers`] holds `from`, asked of one square, so that only
/// the sliders on the line through both squares are looked at.
#[inline]
pub(crate) fn is_pinned(pos: &Chess, king: Square, from: Square) -> bool {
    let board = pos.board();
    let occupied = board.occupied();
    // Worked out without a branch: whether the square is on a line with the
    // king, and open to it, is no branch a processor predicts well; an
    // enemy slider of the line's kind on it is rare.
    let line = attacks::ray(king, from);
    let straight = (king.file() == from.file()) | (king.rank() == from.rank());
    let sliders = if straight {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let snipers = line & sliders & board.by_color(!pos.turn());
    let open = (attacks::between(king, from) & occupied).is_empty();
    if snipers.is_empty() | !open {
        return false;
    }
    snipers.into_iter().any(|s| {
        attacks::between(king, s).contains(from)
            && (attacks::between(from, s) & occupied).is_empty()
    })
}

/// The legal moves that fit every constraint a token states, gathered one
/// by one: the token is read as its move when exactly one fits (the rule
/// of every notation pgnkit reads).
#[derive(Default)]
pub(crate) struct Fitting {
    found: Option<Move>,
    more: Vec<Move>,
}

impl Fitting {
    /// One more move that fits.
    pub(crate) fn push(&mut self, m: Move) {
        if self.found.is_none() {
            self.found = Some(m);
        } else {
            self.more.push(m);
        }
    }

    /// The one move that fits; `Illegal` when none does, `Ambiguous` with
    /// every one (in the order found) when several do.
    pub(crate) fn resolve(self) -> Result<Move, ResolveError> {
        match self.found {
            None => Err(ResolveError::Illegal),
            Some(m) if self.more.is_empty() => Ok(m),
            Some(m) => {
                let mut all = self.more;
                all.insert(0, m);
                Err(ResolveError::Ambiguous(all))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Square};

    use super::{is_pinned, slider_blockers};

    /// `is_pinned` asked of every square agrees with `slider_blockers`, on
    /// positions made to pin along files, ranks and both diagonals (with a
    /// second piece between, an enemy piece between, a slider of the wrong
    /// kind on the line) and on every position of 400 games of moves drawn
    /// at random (a fixed seed: the same games every run).
    #[test]
    fn a_piece_is_pinned_where_the_slider_blockers_hold_it() {
        let fens = [
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
            "6k1/8/8/8/7b/8/5N2/4K3 w - - 0 1",
            "6k1/8/8/8/7r/8/5N2/4K3 w - - 0 1",
            "6k1/8/8/8/8/8/8/r1N1K3 w - - 0 1",
            "6k1/8/8/8/8/8/8/b1N1K3 w - - 0 1",
            "4q1k1/8/8/4p3/8/8/4N3/4K3 w - - 0 1",
            "4q1k1/8/8/4P3/8/8/4N3/4K3 w - - 0 1",
            "1b4k1/8/8/8/8/5B2/6N1/7K w - - 0 1",
            "q5k1/8/8/3N4/8/8/8/7K w - - 0 1",
            "k7/1n6/8/8/8/8/8/6KB b - - 0 1",
        ];
        let mut positions: Vec<Chess> = fens
            .iter()
            .map(|f| {
                f.parse::<Fen>()
                    .expect("a FEN")
                    .into_position(CastlingMode::Standard)
                    .expect("a legal position")
            })
            .collect();
        positions.extend(crate::random_games::positions(
            0x2545_f491_4f6c_dd1d,
            400,
            120,
        ));
        let mut pinned = 0;
        for pos in &positions {
            let Some(king) = pos.board().king_of(pos.turn()) else {
                continue;
            };
            let blockers = slider_blockers(pos, king);
            for from in Square::ALL {
                let expected = blockers.contains(from) && pos.us().contains(from);
                if from != king && pos.us().contains(from) {
                    assert_eq!(
                        is_pinned(pos, king, from),
                        expected,
                        "{from} in {}",
                        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    pinned += usize::from(expected);
                }
            }
        }
        assert!(pinned > 1_000, "{pinned} pinned pieces seen");
    }
}
