//! Reading the SAN tokens of real games: pgnkit-notation (`parse_move` +
//! `resolve` under English) against shakmaty's own `San::from_ascii` +
//! `to_move`, on the same tokens and positions, in one run; prints the ratio.
//!
//! `cargo bench -p pgnkit-notation --bench read` (input: shared/corpus/bench/real.pgn,
//! or the file named by `PGNKIT_BENCH_PGN`; `PGNKIT_BENCH_PLIES` caps the plies, default 500,000).

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use pgnkit_notation::{Language, parse_move};
use shakmaty::san::San;

fn main() {
    let path = std::env::var_os("PGNKIT_BENCH_PGN").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bench/real.pgn"),
        PathBuf::from,
    );
    let limit: usize = std::env::var("PGNKIT_BENCH_PLIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500_000);
    let games = common::load(&path, limit);
    let plies: Vec<&common::Ply> = games.iter().flat_map(|g| g.plies.iter()).collect();
    println!("{} games, {} SAN tokens from {}", games.len(), plies.len(), path.display());

    // both readers agree on every token
    for p in &plies {
        let ours = parse_move(&p.token).ok().and_then(|t| t.resolve(&p.pos, Language::En).ok());
        assert_eq!(ours, Some(p.m), "{}", p.token);
    }

    let shakmaty = || {
        let mut n = 0usize;
        for p in &plies {
            if let Ok(san) = San::from_ascii(black_box(p.token.as_bytes())) {
                if let Ok(m) = san.to_move(&p.pos) {
                    n += usize::from(m.is_capture());
                }
            }
        }
        n
    };
    let ours = || {
        let mut n = 0usize;
        for p in &plies {
            if let Ok(t) = parse_move(black_box(&p.token)) {
                if let Ok(m) = t.resolve(&p.pos, Language::En) {
                    n += usize::from(m.is_capture());
                }
            }
        }
        n
    };
    let mut times_s: Vec<Duration> = Vec::new();
    let mut times_o: Vec<Duration> = Vec::new();
    let rounds = 11;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(shakmaty());
        times_s.push(t.elapsed());
        let t = Instant::now();
        black_box(ours());
        times_o.push(t.elapsed());
    }
    times_s.sort();
    times_o.sort();
    let (s, o) = (times_s[rounds / 2], times_o[rounds / 2]);
    let per = |d: Duration| d.as_nanos() as f64 / plies.len() as f64;
    println!("shakmaty San::from_ascii + to_move : {:>8.1} ns/token (median of {rounds})", per(s));
    println!("pgnkit parse_move + resolve(En)    : {:>8.1} ns/token", per(o));
    println!("ratio pgnkit / shakmaty            : {:.3}x", o.as_secs_f64() / s.as_secs_f64());
}
