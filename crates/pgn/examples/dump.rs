//! Prints the games, tags, tokens and errors the lexer finds in a PGN file: `dump FILE`.

use pgnkit_pgn::{Game, LineIndex, Reader};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump FILE");
        std::process::exit(2);
    };
    let input = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let lines = LineIndex::new(&input);
    let mut reader = Reader::new(&input);
    let mut game = Game::default();
    let mut n = 0;
    while reader.read_game(&mut game) {
        n += 1;
        let (line, col) = lines.line_col(game.span.start);
        println!(
            "game {n} at {line}:{col} {:?} result={:?}",
            game.span,
            game.result()
        );
        for tag in &game.tags {
            println!(
                "  tag {} = {:?}",
                String::from_utf8_lossy(tag.name),
                String::from_utf8_lossy(&tag.value())
            );
        }
        for token in &game.tokens {
            println!(
                "  {:?} {:?} {:?}",
                token.kind,
                String::from_utf8_lossy(token.text),
                token.span
            );
        }
        for error in &game.errors {
            let (line, col) = lines.line_col(error.span.start);
            println!("  ERROR {} at {line}:{col} {:?}", error.kind, error.span);
        }
    }
}
