//! Reading the SAN tokens of real games: pgnkit-notation (`parse_move` +
//! `resolve` under English) against shakmaty's own `San::from_ascii` +
//! `to_move`, on the same tokens and positions, in one run; prints the ratio.
//!
//! `cargo bench -p pgnkit-notation --bench read` (input: shared/corpus/bench/real.pgn,
//! or the file named by `PGNKIT_BENCH_PGN`; `PGNKIT_BENCH_PLIES` caps the plies, default 500,000).
//! `PGNKIT_BENCH_ONLY=shakmaty|parse|ours` runs one reader in a loop, for profilers.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use pgnkit_notation::{Language, parse_move};
use shakmaty::san::San;

fn main() {
    let (path, games) = common::bench_input();
    let plies: Vec<&common::Ply> = games.iter().flat_map(|g| g.plies.iter()).collect();
    println!(
        "{} games, {} SAN tokens from {}",
        games.len(),
        plies.len(),
        path.display()
    );

    // both readers agree on every token
    for p in &plies {
        let ours = parse_move(&p.token)
            .ok()
            .and_then(|t| t.resolve(&p.pos, Language::En).ok());
        assert_eq!(ours, Some(p.m), "{}", p.token);
    }

    let shakmaty = |plies: &[&common::Ply]| {
        let mut n = 0usize;
        for p in plies {
            if let Ok(san) = San::from_ascii(black_box(p.token.as_bytes()))
                && let Ok(m) = san.to_move(&p.pos)
            {
                n += usize::from(m.is_capture());
            }
        }
        n
    };
    let ours = |plies: &[&common::Ply]| {
        let mut n = 0usize;
        for p in plies {
            if let Ok(t) = parse_move(black_box(&p.token))
                && let Ok(m) = t.resolve(&p.pos, Language::En)
            {
                n += usize::from(m.is_capture());
            }
        }
        n
    };
    let parse_only = |plies: &[&common::Ply]| {
        let mut n = 0usize;
        for p in plies {
            if let Ok(t) = parse_move(black_box(&p.token)) {
                let r: Option<Result<shakmaty::Move, pgnkit_notation::ResolveError>> =
                    t.san().map(|s| {
                        s.to_move(&p.pos)
                            .map_err(|_| pgnkit_notation::ResolveError::Illegal)
                    });
                if let Some(Ok(m)) = black_box(r) {
                    n += usize::from(m.is_capture());
                }
            }
        }
        n
    };
    if let Ok(mode) = std::env::var("PGNKIT_BENCH_ONLY") {
        let f: &dyn Fn(&[&common::Ply]) -> usize = match mode.as_str() {
            "shakmaty" => &shakmaty,
            "parse" => &parse_only,
            _ => &ours,
        };
        for _ in 0..20 {
            for chunk in plies.chunks(512) {
                black_box(f(chunk));
            }
        }
        return;
    }
    // Interleaved and robust to a shared, loaded machine: each chunk of 512
    // tokens is read by both readers in alternating order, several times, and
    // the fastest time of each reader on each chunk is kept (preemption only
    // ever adds time); the sums over all chunks are compared.
    let repeats = 9;
    let (mut s, mut o) = (Duration::ZERO, Duration::ZERO);
    for (i, chunk) in plies.chunks(512).enumerate() {
        let time = |f: &dyn Fn(&[&common::Ply]) -> usize| {
            let t = Instant::now();
            black_box(f(chunk));
            t.elapsed()
        };
        let (mut best_s, mut best_o) = (Duration::MAX, Duration::MAX);
        for r in 0..repeats {
            if (i + r) % 2 == 0 {
                best_s = best_s.min(time(&shakmaty));
                best_o = best_o.min(time(&ours));
            } else {
                best_o = best_o.min(time(&ours));
                best_s = best_s.min(time(&shakmaty));
            }
        }
        s += best_s;
        o += best_o;
    }
    let per = |d: Duration| d.as_nanos() as f64 / plies.len() as f64;
    println!(
        "shakmaty San::from_ascii + to_move : {:>8.1} ns/token (best of {repeats} per chunk)",
        per(s)
    );
    println!(
        "pgnkit parse_move + resolve(En)    : {:>8.1} ns/token",
        per(o)
    );
    println!(
        "ratio pgnkit / shakmaty            : {:.3}x",
        o.as_secs_f64() / s.as_secs_f64()
    );
}
