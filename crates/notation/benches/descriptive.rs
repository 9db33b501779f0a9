//! Reading descriptive notation against reading SAN, on the same real games:
//! every main-line move written with `--to descriptive`'s style
//! (`Style::new(Notation::Descriptive, ..)`, its move word without the
//! marks), then `parse_move` + `resolve(En)` of the descriptive word and of
//! the SAN token in the same positions, interleaved; prints the ratio (the
//! goal: at most 2x).
//!
//! `cargo bench -p pgnkit-notation --bench descriptive` (input: shared/corpus/bench/real.pgn,
//! or the file named by `PGNKIT_BENCH_PGN`; `PGNKIT_BENCH_PLIES` caps the plies, default 500,000).

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use pgnkit_notation::{Language, Notation, Style, parse_move, write_move};
use shakmaty::Chess;

fn main() {
    let (path, games) = common::bench_input();
    let style = Style::new(Notation::Descriptive, Language::En);
    // (position, SAN token, descriptive word)
    let plies: Vec<(&Chess, &str, String)> = games
        .iter()
        .flat_map(|g| g.plies.iter())
        .map(|p| {
            let mut w = String::new();
            write_move(&p.pos, &p.m, &style, &mut w);
            let word = w.split(' ').next().unwrap_or_default().to_owned();
            (&p.pos, p.token.as_str(), word)
        })
        .collect();
    println!(
        "{} games, {} moves from {}",
        games.len(),
        plies.len(),
        path.display()
    );
    // Both read every move as the move played.
    for ((pos, san, desc), p) in plies.iter().zip(games.iter().flat_map(|g| g.plies.iter())) {
        for w in [*san, desc.as_str()] {
            let m = parse_move(w)
                .ok()
                .and_then(|t| t.resolve(pos, Language::En).ok());
            assert_eq!(m, Some(p.m), "{w}");
        }
    }
    let read = |plies: &[(&Chess, &str, String)], descriptive: bool| {
        let mut n = 0usize;
        for (pos, san, desc) in plies {
            let w = if descriptive { desc.as_str() } else { san };
            if let Ok(t) = parse_move(black_box(w))
                && let Ok(m) = t.resolve(pos, Language::En)
            {
                n += usize::from(m.is_capture());
            }
        }
        n
    };
    // Interleaved, the fastest of several runs of each chunk kept (a shared
    // machine only ever adds time), as in the `read` bench.
    let repeats = 9;
    let (mut s, mut d) = (Duration::ZERO, Duration::ZERO);
    for (i, chunk) in plies.chunks(512).enumerate() {
        let time = |descriptive: bool| {
            let t = Instant::now();
            black_box(read(chunk, descriptive));
            t.elapsed()
        };
        let (mut best_s, mut best_d) = (Duration::MAX, Duration::MAX);
        for r in 0..repeats {
            if (i + r) % 2 == 0 {
                best_s = best_s.min(time(false));
                best_d = best_d.min(time(true));
            } else {
                best_d = best_d.min(time(true));
                best_s = best_s.min(time(false));
            }
        }
        s += best_s;
        d += best_d;
    }
    let per = |t: Duration| t.as_nanos() as f64 / plies.len() as f64;
    println!(
        "SAN         parse_move + resolve(En) : {:>8.1} ns/move",
        per(s)
    );
    println!(
        "descriptive parse_move + resolve(En) : {:>8.1} ns/move",
        per(d)
    );
    println!(
        "ratio descriptive / SAN              : {:.3}x",
        d.as_secs_f64() / s.as_secs_f64()
    );
}
