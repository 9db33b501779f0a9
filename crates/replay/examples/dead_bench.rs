//! Measures the dead-position analysis (`pgnkit_replay::dead`).
//!
//! - `dead_bench cha [FILE]`: CHA's test vectors
//!   (`testdata/dead/cha-test-vectors.txt`: `WB`/`W-`/`-B`/`--` and a
//!   FEN), every position asked for both colours, as Law 6.9 asks
//!   ([`can_checkmate`]), and whether it is dead ([`is_dead`]): found,
//!   false (a winnable position called unwinnable: must be 0), undecided,
//!   and the time per question (mean, median, p99, max).
//!
//! Run with `cargo run --release -p pgnkit-replay --example dead_bench -- cha`.

use std::time::Instant;

use pgnkit_replay::dead::{Budget, Life, Verdict, can_checkmate, is_dead};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("cha") => cha(args.get(1).map_or("testdata/dead/cha-test-vectors.txt", |s| s)),
        _ => eprintln!("usage: dead_bench cha [FILE]"),
    }
}

/// Mean, median, p99 and maximum of `times` (microseconds), as text.
fn spread(times: &mut [f64]) -> String {
    if times.is_empty() {
        return "no positions".to_owned();
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let mean = times.iter().sum::<f64>() / n as f64;
    let at = |q: f64| times[((n as f64 * q) as usize).min(n - 1)];
    format!(
        "{n} questions: mean {mean:.1} us, median {:.1} us, p99 {:.1} us, max {:.1} us",
        at(0.5),
        at(0.99),
        times[n - 1]
    )
}

fn cha(path: &str) {
    let text = std::fs::read_to_string(path).expect("the test vectors");
    let budget = Budget::FULL;
    let (mut unwinnable, mut found, mut false_dead, mut winnable, mut proved, mut undecided) =
        (0, 0, 0, 0, 0, 0);
    let (mut dead, mut dead_found, mut dead_false, mut dead_undecided) = (0, 0, 0, 0);
    let mut times = Vec::new();
    let mut dead_times = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let Some((label, fen)) = line.split_once(' ') else {
            continue;
        };
        let Ok(pos) = fen
            .parse::<Fen>()
            .map_err(|_| ())
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).map_err(|_| ()))
        else {
            skipped += 1;
            continue;
        };
        let labels = label.as_bytes();
        for (color, can) in [(Color::White, labels[0] == b'W'), (Color::Black, labels[1] == b'B')] {
            let start = Instant::now();
            let verdict = can_checkmate(&pos, color, budget);
            times.push(start.elapsed().as_secs_f64() * 1e6);
            if can {
                winnable += 1;
                match verdict {
                    Verdict::Winnable(_) => proved += 1,
                    Verdict::Unwinnable => {
                        false_dead += 1;
                        println!("FALSE unwinnable: {line} ({color:?})");
                    }
                    Verdict::Undecided => undecided += 1,
                }
            } else {
                unwinnable += 1;
                match verdict {
                    Verdict::Unwinnable => found += 1,
                    Verdict::Winnable(_) => println!("LABEL? winnable by the search: {line} ({color:?})"),
                    Verdict::Undecided => println!("missed unwinnable: {line} ({color:?})"),
                }
            }
        }
        let start = Instant::now();
        let life = is_dead(&pos, budget);
        dead_times.push(start.elapsed().as_secs_f64() * 1e6);
        if label == "--" {
            dead += 1;
            match life {
                Life::Dead => dead_found += 1,
                Life::Alive => println!("LABEL? alive by the search: {line}"),
                Life::Undecided => dead_undecided += 1,
            }
        } else if life == Life::Dead {
            dead_false += 1;
            println!("FALSE dead: {line}");
        }
    }
    println!("skipped (not a legal position for shakmaty): {skipped}");
    println!(
        "Law 6.9: {found} of {unwinnable} unwinnable found; {proved} of {winnable} winnable proved, {undecided} undecided, {false_dead} FALSE"
    );
    println!(
        "Law 5.2.2: {dead_found} of {dead} dead found ({dead_undecided} undecided), {dead_false} FALSE"
    );
    println!("can_checkmate: {}", spread(&mut times));
    println!("is_dead: {}", spread(&mut dead_times));
}
