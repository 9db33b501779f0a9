//! Prints the number of games the lexer finds in each file given: `count FILE...`.

use pgnkit_pgn::{Game, Reader};

fn main() {
    for path in std::env::args().skip(1) {
        let Ok(input) = std::fs::read(&path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let mut reader = Reader::new(&input);
        let mut game = Game::default();
        let mut n = 0;
        while reader.read_game(&mut game) {
            n += 1;
        }
        println!("{n} {path}");
    }
}
