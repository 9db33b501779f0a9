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
