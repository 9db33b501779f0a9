//! Measures the dead-position analysis (`pgnkit_replay::dead`).
//!
//! - `dead_bench cha [FILE [NODES]]`: CHA's test vectors
//!   (`testdata/dead/cha-test-vectors.txt`: `WB`/`W-`/`-B`/`--` and a
//!   FEN), every position asked for both colours, as Law 6.9 asks
//!   ([`can_checkmate`]), and whether it is dead ([`is_dead`]), with
//!   [`Budget::FULL`] or `NODES`: found, false (a winnable position called
//!   unwinnable: must be 0), undecided, and the time per question (mean,
//!   median, p99, max). `SLOW_MS=N` lists the questions slower than `N`
//!   milliseconds (60 by default).
//! - `dead_bench full FILE`: a FEN a line, then `white` or `black` (the
//!   winner asked about; else the side that moved last, as CHA's command
//!   line reads its input), asked whether it can mate with
//!   [`Budget::FULL`] (or `NODES=N`): the answers, the share of the time
//!   each kind of answer took, and the time per question (mean, median,
//!   p99, max). `benches/dead_vs_cha.sh` runs it beside CHA.
//! - `dead_bench static [FILE]`: the static rules alone on the same
//!   positions.
//! - `dead_bench gate [FILE]`: how many of the dead positions pass the
//!   prefilter of the replay, and of the sides unable to mate the prefilter
//!   of Law 6.9.
//! - `dead_bench real FILE.pgn [GAMES]`: every position of the first
//!   `GAMES` games through the per-position test of the replay (time per
//!   position: mean, median, p99, max), and the final positions through
//!   `outcome::final_status`.
//!
//! Run with `cargo run --release -p pgnkit-replay --example dead_bench -- cha`.

use std::time::Instant;

use pgnkit_replay::dead::{Budget, Life, Verdict, after_time_forfeit, can_checkmate, is_dead};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("cha") => cha(
            args.get(1)
                .map_or("testdata/dead/cha-test-vectors.txt", |s| s),
            args.get(2)
                .and_then(|n| n.parse().ok())
                .map_or(Budget::FULL, Budget::nodes),
        ),
        Some("real") => real(
            args.get(1)
                .map_or("/work/shared/corpus/bench/real.pgn", |s| s),
            args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5_000),
        ),
        Some("gate") => gate(
            args.get(1)
                .map_or("testdata/dead/cha-test-vectors.txt", |s| s),
        ),
        Some("full") => match args.get(1) {
            Some(path) => full(path),
            None => eprintln!("usage: dead_bench full FILE (a FEN a line, then white or black)"),
        },
        Some("static") => static_only(
            args.get(1)
                .map_or("testdata/dead/cha-test-vectors.txt", |s| s),
        ),
        Some("finals") => match args.get(1) {
            Some(path) => finals(path),
            None => {
                eprintln!("usage: dead_bench finals FILE (a FEN a line, words after it ignored)")
            }
        },
        _ => eprintln!(
            "usage: dead_bench cha [FILE [NODES]] | real FILE.pgn [GAMES] | gate [FILE] | static [FILE] | finals FILE | full FILE"
        ),
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

fn cha(path: &str, budget: Budget) {
    let text = std::fs::read_to_string(path).expect("the test vectors");
    let (mut unwinnable, mut found, mut false_dead, mut winnable, mut proved, mut undecided) =
        (0, 0, 0, 0, 0, 0);
    let (mut dead, mut dead_found, mut dead_false, mut dead_undecided) = (0, 0, 0, 0);
    let mut times = Vec::new();
    let mut dead_times = Vec::new();
    // Time (us) and count per (label, verdict): where the mean goes.
    let mut by_outcome = std::collections::BTreeMap::<(&str, &str), (f64, usize)>::new();
    let mut dead_by_outcome = by_outcome.clone();
    let mut skipped = 0;
    // Questions slower than this are listed (`SLOW_MS`, 60 by default).
    let slow_us = std::env::var("SLOW_MS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(60.0)
        * 1e3;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some((label, fen)) = line.split_once(' ') else {
            continue;
        };
        let Ok(pos) = pgnkit_replay::setup::start(None, Some(fen)).map(|s| s.position) else {
            skipped += 1;
            continue;
        };
        let labels = label.as_bytes();
        for (color, can) in [
            (Color::White, labels[0] == b'W'),
            (Color::Black, labels[1] == b'B'),
        ] {
            let start = Instant::now();
            let verdict = can_checkmate(&pos, color, budget);
            let took = start.elapsed().as_secs_f64() * 1e6;
            if took > slow_us {
                println!(
                    "slow: {:.0} ms {line} ({color:?}) {}",
                    took / 1e3,
                    match verdict {
                        Verdict::Winnable(_) => "winnable",
                        Verdict::Unwinnable => "unwinnable",
                        Verdict::Undecided => "undecided",
                    }
                );
            }
            times.push(took);
            let outcome = by_outcome
                .entry((
                    if can { "can mate" } else { "cannot mate" },
                    match verdict {
                        Verdict::Winnable(_) => "winnable",
                        Verdict::Unwinnable => "unwinnable",
                        Verdict::Undecided => "undecided",
                    },
                ))
                .or_default();
            outcome.0 += took;
            outcome.1 += 1;
            if can {
                winnable += 1;
                match verdict {
                    Verdict::Winnable(_) => proved += 1,
                    Verdict::Unwinnable => {
                        false_dead += 1;
                        println!("FALSE unwinnable: {line} ({color:?})");
                    }
                    Verdict::Undecided => {
                        undecided += 1;
                        println!("undecided winnable: {line} ({color:?})");
                    }
                }
            } else {
                unwinnable += 1;
                match verdict {
                    Verdict::Unwinnable => found += 1,
                    Verdict::Winnable(_) => {
                        println!("LABEL? winnable by the search: {line} ({color:?})")
                    }
                    Verdict::Undecided => println!("missed unwinnable: {line} ({color:?})"),
                }
            }
        }
        let start = Instant::now();
        let life = is_dead(&pos, budget);
        let took = start.elapsed().as_secs_f64() * 1e6;
        dead_times.push(took);
        let outcome = dead_by_outcome
            .entry((
                if label == "--" { "dead" } else { "alive" },
                match life {
                    Life::Dead => "dead",
                    Life::Alive => "alive",
                    Life::Undecided => "undecided",
                },
            ))
            .or_default();
        outcome.0 += took;
        outcome.1 += 1;
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
        } else if life == Life::Undecided {
            println!("undecided alive: {line}");
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
    breakdown(&times, &by_outcome);
    println!("is_dead: {}", spread(&mut dead_times));
    breakdown(&dead_times, &dead_by_outcome);
}

/// Where the time of `times` went, per (label, verdict).
fn breakdown(times: &[f64], by_outcome: &std::collections::BTreeMap<(&str, &str), (f64, usize)>) {
    let total: f64 = times.iter().sum();
    for ((label, verdict), (us, n)) in by_outcome {
        println!(
            "  {label}, found {verdict}: {n} questions, {:.0} ms ({:.0}% of the time), mean {:.1} us",
            us / 1e3,
            100.0 * us / total,
            us / *n as f64
        );
    }
}

/// The positions of a test-vector file that shakmaty accepts.
fn vectors(path: &str) -> Vec<(String, Chess)> {
    let text = std::fs::read_to_string(path).expect("the test vectors");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let (label, fen) = line.split_once(' ')?;
            let pos = pgnkit_replay::setup::start(None, Some(fen)).ok()?.position;
            Some((label.to_owned(), pos))
        })
        .collect()
}

/// Law 6.9 on the final positions of played games (CHA's
/// `tests/lichess-30K-games.txt`: a FEN and a game id a line): each side
/// asked as the winner of a game lost on time, the way `check` asks for a
/// played game ([`after_time_forfeit`], not judged).
fn finals(path: &str) {
    let text = std::fs::read_to_string(path).expect("the positions");
    let (mut positions, mut unable, mut undecided) = (0, 0, 0);
    let (mut full_unable, mut full_undecided) = (0, 0);
    let mut times = Vec::new();
    for line in text.lines() {
        let fen: Vec<&str> = line.split_whitespace().take(6).collect();
        let Ok(start) = pgnkit_replay::setup::start(None, Some(&fen.join(" "))) else {
            continue;
        };
        positions += 1;
        for color in [Color::White, Color::Black] {
            let started = Instant::now();
            let verdict = after_time_forfeit(&start.position, color, false);
            times.push(started.elapsed().as_secs_f64() * 1e6);
            match verdict {
                Verdict::Unwinnable => unable += 1,
                Verdict::Undecided => {
                    undecided += 1;
                    // What the full analysis says of those the quick one left.
                    match can_checkmate(&start.position, color, Budget::FULL) {
                        Verdict::Unwinnable => full_unable += 1,
                        Verdict::Undecided => full_undecided += 1,
                        Verdict::Winnable(_) => {}
                    }
                }
                Verdict::Winnable(_) => {}
            }
        }
    }
    println!("{positions} positions: {unable} sides cannot mate, {undecided} undecided");
    println!(
        "of the undecided, the full analysis: {full_unable} cannot mate, {full_undecided} undecided"
    );
    println!("after_time_forfeit: {}", spread(&mut times));
}

/// Law 6.9 with the full analysis ([`can_checkmate`], [`Budget::FULL`])
/// on positions given as a FEN a line, as CHA's command line reads them:
/// the winner asked about after the FEN (`white`, `black`), else the side
/// that moved last (other words after the FEN ignored), so that the two run
/// on the same input (CHA's `tests/lichess-30K-games.txt`, or its test
/// vectors without labels).
fn full(path: &str) {
    let text = std::fs::read_to_string(path).expect("the positions");
    let (mut unable, mut able, mut undecided) = (0, 0, 0);
    let mut times = Vec::new();
    // The time spent on each kind of answer (microseconds).
    let (mut t_unable, mut t_able, mut t_undecided) = (0.0, 0.0, 0.0);
    let budget = std::env::var("NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .map_or(Budget::FULL, Budget::nodes);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The FEN's fields (castling and en passant may be left out), then
        // the winner.
        let fields = words
            .iter()
            .take(4)
            .take_while(|w| !matches!(**w, "white" | "black"))
            .count();
        let Ok(start) = pgnkit_replay::setup::start(None, Some(&words[..fields].join(" "))) else {
            continue;
        };
        let winner = match words.get(fields) {
            Some(&"white") => Color::White,
            Some(&"black") => Color::Black,
            _ => !start.position.turn(),
        };
        let started = Instant::now();
        let verdict = can_checkmate(&start.position, winner, budget);
        let took = started.elapsed().as_secs_f64() * 1e6;
        times.push(took);
        match verdict {
            Verdict::Unwinnable => {
                unable += 1;
                t_unable += took;
            }
            Verdict::Undecided => {
                undecided += 1;
                t_undecided += took;
                println!("undecided: {} ({winner:?})", words[..fields].join(" "));
            }
            Verdict::Winnable(_) => {
                able += 1;
                t_able += took;
            }
        }
    }
    println!(
        "{} positions: {able} winnable, {unable} unwinnable, {undecided} undecided",
        times.len()
    );
    let total = t_able + t_unable + t_undecided;
    if total > 0.0 {
        println!(
            "share of the time: winnable {:.0}%, unwinnable {:.0}%, undecided {:.0}%",
            100.0 * t_able / total,
            100.0 * t_unable / total,
            100.0 * t_undecided / total
        );
    }
    println!("can_checkmate: {}", spread(&mut times));
}

/// The time of the static rules alone ([`statically_dead`]) per position.
fn static_only(path: &str) {
    let positions = vectors(path);
    let mut times = Vec::new();
    let mut dead = 0;
    for (_, pos) in &positions {
        let start = Instant::now();
        let mut d = false;
        for _ in 0..20 {
            d = std::hint::black_box(pgnkit_replay::dead::statically_dead(std::hint::black_box(
                pos,
            )));
        }
        times.push(start.elapsed().as_secs_f64() * 1e6 / 20.0);
        dead += usize::from(d);
    }
    println!("statically dead: {dead} of {}", positions.len());
    if let Some((i, t)) = times.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)) {
        println!(
            "slowest: {t:.1} us, {}",
            Fen::from_position(&positions[i].1, shakmaty::EnPassantMode::Legal)
        );
    }
    println!(
        "statically_dead: {}",
        spread(&mut times).replace("questions", "positions")
    );
}

/// How many of the dead positions of a test-vector file pass the prefilter
/// [`may_be_dead`](pgnkit_replay::dead::may_be_dead), and how many of them
/// the static rules settle.
fn gate(path: &str) {
    let positions = vectors(path);
    let (mut dead, mut passed, mut settled) = (0, 0, 0);
    for (label, pos) in &positions {
        if label != "--" {
            continue;
        }
        dead += 1;
        if pgnkit_replay::dead::may_be_dead(pos) || pos.is_insufficient_material() {
            passed += 1;
        } else {
            println!(
                "not passed: {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
        }
        settled += usize::from(pgnkit_replay::dead::statically_dead(pos));
    }
    println!("{passed} of {dead} dead positions pass the prefilter; {settled} settled statically");
    let (mut unwinnable, mut gated) = (0, 0);
    for (label, pos) in &positions {
        let labels = label.as_bytes();
        for (color, can) in [
            (Color::White, labels[0] == b'W'),
            (Color::Black, labels[1] == b'B'),
        ] {
            if can {
                continue;
            }
            unwinnable += 1;
            if pgnkit_replay::dead::may_be_unwinnable(pos, color)
                || pos.has_insufficient_material(color)
            {
                gated += 1;
            } else {
                println!(
                    "not passed ({color:?}): {}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
            }
        }
    }
    println!("{gated} of {unwinnable} unwinnable questions pass the Law 6.9 prefilter");
}

/// The positions of the first `games` games of a PGN file: every position
/// of every game through the per-position check a game's replay makes
/// ([`may_be_dead`](pgnkit_replay::dead::may_be_dead), then
/// [`statically_dead`](pgnkit_replay::dead::statically_dead) where it
/// passes), and every final position through `outcome::final_status`.
fn real(path: &str, games: usize) {
    use pgnkit_pgn::{Game, Reader};
    use pgnkit_replay::dead::{may_be_dead, statically_dead};
    let bytes = std::fs::read(path).expect("the PGN file");
    let mut reader = Reader::new(&bytes);
    let mut game = Game::default();
    let options = pgnkit_replay::Options::default();
    let mut finals = Vec::new();
    let mut all = Vec::new();
    let (mut passed, mut dead, mut count) = (0, 0, 0);
    while count < games && reader.read_game(&mut game) {
        count += 1;
        let report = pgnkit_replay::replay_game(&bytes, &game, &options);
        let mut pos = report.start.clone();
        let mut positions = vec![pos.clone()];
        for m in &report.moves {
            pos.play_unchecked(m.played);
            positions.push(pos.clone());
        }
        for p in &positions {
            let start = Instant::now();
            let check = std::hint::black_box(may_be_dead(std::hint::black_box(p)));
            let found = check && statically_dead(p);
            if found && std::env::var_os("DEAD_PRINT").is_some() {
                println!(
                    "static dead: {}",
                    Fen::from_position(p, shakmaty::EnPassantMode::Legal)
                );
            }
            all.push(start.elapsed().as_secs_f64() * 1e9);
            passed += usize::from(check);
            dead += usize::from(found);
        }
        let start = Instant::now();
        let status = std::hint::black_box(pgnkit_replay::outcome::final_status(&pos));
        let took = start.elapsed().as_secs_f64() * 1e6;
        finals.push(took);
        if took > 100.0 {
            println!(
                "slow final position ({took:.0} us, {:?}): {}",
                status,
                Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            );
        }
    }
    println!(
        "{count} games, {} positions: {passed} pass the prefilter, {dead} dead by the static rules",
        all.len()
    );
    println!(
        "per position: {}",
        spread(&mut all)
            .replace("questions", "positions")
            .replace("us", "ns")
    );
    println!(
        "final_status: {}",
        spread(&mut finals).replace("questions", "final positions")
    );
}
