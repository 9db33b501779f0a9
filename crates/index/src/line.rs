//! Opening lines: what `search --moves` compares with the start of a
//! game's main line (pgn-extract's `-v`).
//!
//! A line is movetext as PGN writes it (`1. e4 c5 2. Nf3`; move numbers,
//! comments and NAGs are skipped), read by the PGN lexer; `*` between
//! moves stands for any one move. Each move is read against the game's own
//! position at its ply, in any notation pgnkit reads (SAN, LAN, UCI,
//! figurines, piece letters of any language), so `e2e4` and `e4` find the
//! same games.
//!
//! ```
//! use pgnkit_index::line::MoveLine;
//! use pgnkit_notation::Language;
//! use shakmaty::{Chess, Position, uci::UciMove};
//!
//! let line = MoveLine::parse("1. e4 * 2. Sf3").unwrap();
//! let mut pos = Chess::default();
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "c7c5", "g1f3", "d7d6"] {
//!     let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! assert!(line.starts(&Chess::default(), &moves, Language::En));
//! assert!(!line.starts(&Chess::default(), &moves[..2], Language::En));
//! assert!(MoveLine::parse("1. e4 (1. d4) e5").is_err());
//! ```

use pgnkit_notation::{Language, MoveToken, parse_move};
use pgnkit_pgn::{Game, GameResult, Reader, TokenKind};
use shakmaty::{Chess, Move, Position};

/// One step of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// Any move.
    Any,
    /// This move, as written.
    Move(MoveToken),
}

/// A line of moves from the start (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    steps: Vec<Step>,
}

impl MoveLine {
    /// Reads a line.
    pub fn parse(text: &str) -> Result<MoveLine, String> {
        let bad = |why: String| format!("bad move line `{}`: {why}", text.trim());
        let bytes = text.as_bytes();
        let mut reader = Reader::new(bytes);
        let mut game = Game::default();
        let mut steps = Vec::new();
        while reader.read_game(&mut game) {
            if !game.tags.is_empty() || !game.errors.is_empty() {
                return Err(bad("write moves only".into()));
            }
            for (i, token) in game.tokens.iter().enumerate() {
                match token.kind {
                    TokenKind::Word => {
                        let word = String::from_utf8_lossy(token.text);
                        let m = parse_move(&word)
                            .map_err(|e| bad(format!("`{word}` is no move ({e})")))?;
                        steps.push(Step::Move(m));
                    }
                    TokenKind::Result(GameResult::Unknown) if game.result_token == Some(i) => {
                        steps.push(Step::Any);
                    }
                    TokenKind::MoveNumber { .. } | TokenKind::Comment | TokenKind::Nag(_) => {}
                    _ => return Err(bad("write moves only (no variations or results)".into())),
                }
            }
        }
        while steps.last() == Some(&Step::Any) {
            steps.pop();
        }
        if steps.is_empty() {
            return Err(bad("no move".into()));
        }
        Ok(MoveLine { steps })
    }

    /// How many plies the line has.
    pub fn plies(&self) -> usize {
        self.steps.len()
    }

    /// Whether the main line `moves`, played from `start`, begins with this
    /// line. A move is read in English, in `language` (the game's), or in
    /// any language its letters can be.
    pub fn starts(&self, start: &Chess, moves: &[Move], language: Language) -> bool {
        if moves.len() < self.steps.len() {
            return false;
        }
        let mut pos = start.clone();
        for (step, played) in self.steps.iter().zip(moves) {
            if let Step::Move(token) = step {
                let same = |lang: Language| token.resolve(&pos, lang).ok() == Some(*played);
                if !same(Language::En) && !same(language) && !token.languages().iter().any(same) {
                    return false;
                }
            }
            pos.play_unchecked(*played);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_comments_and_notations_do_not_matter() {
        let a = MoveLine::parse("1. e4 {best} c5 $1 2. Nf3").unwrap();
        let b = MoveLine::parse("e2e4 c7c5 g1f3").unwrap();
        assert_eq!(a.plies(), 3);
        assert_eq!(b.plies(), 3);
        let c = MoveLine::parse("e4 c5 *").unwrap();
        assert_eq!(c.plies(), 2, "a trailing `*` asks for nothing");
        assert!(MoveLine::parse("").is_err());
        assert!(MoveLine::parse("[White \"x\"] e4").is_err());
        assert!(MoveLine::parse("e4 1-0").is_err());
    }
}
