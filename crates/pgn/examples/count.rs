//! Lexes PGN files and prints, for each, the games, movetext tokens and
//! syntax errors the lexer finds: `count FILE...`.
//!
//! ```text
//! cargo run --release -p pgnkit-pgn --example count -- testdata/pgn/*.pgn
//! 3 games 212 tokens 0 syntax errors testdata/pgn/...
//! ```
//!
//! The lexer alone: no move is played (see `pgnkit-replay` for that).

use std::io::Write;

use pgnkit_pgn::{Game, Reader};

fn main() {
    let mut out = std::io::stdout().lock();
    for path in std::env::args().skip(1) {
        let input = match std::fs::read(&path) {
            Ok(input) => input,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let mut reader = Reader::new(&input);
        let mut game = Game::default();
        let (mut games, mut tokens, mut errors) = (0u64, 0u64, 0u64);
        while reader.read_game(&mut game) {
            games += 1;
            tokens += game.tokens.len() as u64;
            errors += game.errors.len() as u64 + game.omitted_errors;
        }
        // A closed pipe (`| head`) ends the run quietly.
        if writeln!(
            out,
            "{games} games {tokens} tokens {errors} syntax errors {path}"
        )
        .is_err()
        {
            return;
        }
    }
}
