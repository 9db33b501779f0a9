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
    let cpu_before = cpu_seconds();
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
    let cpu = cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
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
    if let Some(cpu) = cpu {
        // CPU time is less disturbed than wall time when the machine is shared.
        println!(
            "CPU time: {:.0} MB/s over {} rounds",
            mb * times.len() as f64 / cpu,
            times.len()
        );
    }
}

/// User + system CPU time of this thread so far (Linux, 10 ms resolution), if available.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
