//! Measures lexing speed: `cargo run --release -p pgnkit-pgn --example lexbench -- [FILE] [ROUNDS]`
//! (default: the benchmark corpus `/work/shared/corpus/bench/real.pgn`, 5 rounds). Prints MB/s of the
//! best and median round, and what was found.

use std::time::Instant;

use pgnkit_pgn::{Game, Reader};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/work/shared/corpus/bench/real.pgn".to_string());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let input = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut times = Vec::new();
    let mut counts = (0, 0, 0, 0);
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        let mut reader = Reader::new(&input);
        let mut game = Game::default();
        let (mut games, mut tags, mut tokens, mut errors) = (0usize, 0usize, 0usize, 0usize);
        while reader.read_game(&mut game) {
            games += 1;
            tags += game.tags.len();
            tokens += game.tokens.len();
            errors += game.errors.len();
        }
        times.push(start.elapsed().as_secs_f64());
        counts = (games, tags, tokens, errors);
    }
    times.sort_by(f64::total_cmp);
    let mb = input.len() as f64 / 1e6;
    let (games, tags, tokens, errors) = counts;
    println!(
        "{path}: {mb:.1} MB, {games} games, {tags} tags, {tokens} tokens, {errors} syntax errors"
    );
    println!(
        "best {:.0} MB/s ({:.1} ms), median {:.0} MB/s",
        mb / times[0],
        times[0] * 1e3,
        mb / times[times.len() / 2]
    );
}
