//! Position keys: what a `--fen` query looks up.

use pgnkit_replay::outcome::position_key;
use pgnkit_replay::setup::{SetupError, start};

/// The key (Zobrist, Law 9.2 identity: pieces, side to move, castling
/// rights, legal en passant) of the position a FEN describes, as the index
/// stores the keys of main-line positions. The move counters do not count.
/// Chess960 castling rights (X-FEN, Shredder-FEN) are understood.
pub fn fen_key(fen: &str) -> Result<u64, String> {
    match start(None, Some(fen)) {
        Ok(s) => Ok(position_key(&s.position)),
        Err(SetupError::BadFen(m) | SetupError::UnsupportedVariant(m)) => {
            Err(format!("bad FEN `{}`: {m}", fen.trim()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_do_not_count_but_the_side_to_move_does() {
        let a = fen_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let b = fen_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 9");
        let c = fen_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            a, b,
            "an en passant square no pawn can use is no part of the identity"
        );
        assert_ne!(a, c);
        assert!(fen_key("not a fen").is_err());
    }
}
