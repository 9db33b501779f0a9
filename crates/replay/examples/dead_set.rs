//! Builds and times the labelled game-end test set of `testdata/dead/`.
//!
//! `cargo run --release -p pgnkit-replay --example dead_set -- build FILE.pgn…`
//! writes `fen<TAB>label<TAB>how` lines: the final positions of the games
//! in the files, then composed positions (locked pawn walls with kings,
//! bishops and knights, some with a breakable spot). Labels are given
//! independently of the code under test where possible:
//!
//! - `winnable` with `bfs:<uci moves>`: a plain breadth-first search over
//!   every legal move (no heuristics, no static rules) reached a checkmate;
//!   the moves are the certificate, replayed by the test.
//! - `dead` with `bfs-exhaustive:<positions>`: the same search visited every
//!   reachable position and found no checkmate.
//! - `winnable` with `helpmate:<uci moves>`: found by `dead::can_checkmate`
//!   with a thorough budget; the line is replayed by the test.
//!
//! Positions none of these settles are left out.
//!
//! `… -- time testdata/dead/positions.tsv` prints the median and maximum
//! time of `outcome::final_status` per position.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::time::Instant;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::dead::{Budget, Verdict, can_checkmate};
use pgnkit_replay::{Options, Status, outcome, replay_game};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("build") => build(&args[1..]),
        Some("time") => time(args.get(1).map_or("testdata/dead/positions.tsv", |s| s)),
        _ => eprintln!("usage: dead_set build FILE.pgn… | dead_set time FILE.tsv"),
    }
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn build(files: &[String]) {
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let options = Options {
        language: None,
        suggestions: false,
        ..Options::default()
    };
    for file in files {
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let mut reader = Reader::new(&bytes);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            let report = replay_game(&bytes, &game, &options);
            if matches!(report.status, Status::Invalid | Status::Unsupported) {
                continue;
            }
            let mut pos = report.start.clone();
            for m in &report.moves {
                pos.play_unchecked(m.played);
            }
            if seen.insert(fen(&pos)) {
                positions.push((pos, "corpus"));
            }
        }
    }
    for pos in composed() {
        if seen.insert(fen(&pos)) {
            positions.push((pos, "composed"));
        }
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    for (pos, source) in positions {
        let Some((label, how)) = label(&pos) else {
            continue;
        };
        let _ = writeln!(out, "{}\t{label}\t{source} {how}", fen(&pos));
    }
}

/// The label of a position, independently of the code under test where
/// the plain search settles it.
fn label(pos: &Chess) -> Option<(&'static str, String)> {
    match bfs(pos, 30_000) {
        Bfs::Mate(line) => return Some(("winnable", format!("bfs:{}", uci(&line)))),
        Bfs::None(n) => return Some(("dead", format!("bfs-exhaustive:{n}"))),
        Bfs::Unknown => {}
    }
    for color in [Color::White, Color::Black] {
        if let Verdict::Winnable(line) = can_checkmate(pos, color, Budget::nodes(100_000)) {
            return Some(("winnable", format!("helpmate:{}", uci(&line))));
        }
    }
    None
}

fn uci(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

enum Bfs {
    Mate(Vec<Move>),
    None(usize),
    Unknown,
}

/// Every position reachable by legal moves, breadth first, until a
/// checkmate (of either side). Nothing else.
fn bfs(start: &Chess, limit: usize) -> Bfs {
    let key = |p: &Chess| fen(p).rsplitn(3, ' ').nth(2).unwrap_or_default().to_owned();
    let mut parent: HashMap<String, (String, Move)> = HashMap::new();
    let mut queue = VecDeque::new();
    let k0 = key(start);
    let mut seen = HashSet::new();
    seen.insert(k0.clone());
    queue.push_back((start.clone(), k0.clone()));
    if start.is_checkmate() {
        return Bfs::Mate(Vec::new());
    }
    while let Some((p, k)) = queue.pop_front() {
        if seen.len() > limit {
            return Bfs::Unknown;
        }
        for m in p.legal_moves() {
            let mut q = p.clone();
            q.play_unchecked(m);
            let kq = key(&q);
            if !seen.insert(kq.clone()) {
                continue;
            }
            parent.insert(kq.clone(), (k.clone(), m));
            if q.is_checkmate() {
                let mut line = Vec::new();
                let mut at = kq;
                while at != k0 {
                    let Some((up, mv)) = parent.get(&at) else {
                        break;
                    };
                    line.push(*mv);
                    at = up.clone();
                }
                line.reverse();
                return Bfs::Mate(line);
            }
            queue.push_back((q, kq));
        }
    }
    Bfs::None(seen.len())
}

/// Locked pawn walls: pawn pairs on every file or most files, kings on
/// their own side, sometimes bishops of one colour or a knight, sometimes
/// a pawn pair missing (a breakable spot).
fn composed() -> Vec<Chess> {
    let mut out = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    while out.len() < 900 {
        // Each file gets a white pawn on rank r and a black one on r+1,
        // neighbouring files differing by one rank at most (a chain).
        let mut rank = 2 + next(3) as i32;
        let mut board = [['.'; 8]; 8];
        let holes = (next(5) as usize).saturating_sub(2); // mostly full walls
        let hole_files: Vec<usize> = (0..holes).map(|_| next(8) as usize).collect();
        let mut white_ranks = [0i32; 8];
        for (file, wr) in white_ranks.iter_mut().enumerate() {
            // Neighbouring files one rank apart: no pawn attacks another.
            let step = if next(2) == 0 { -1 } else { 1 };
            rank = if (1..=5).contains(&(rank + step)) {
                rank + step
            } else {
                rank - step
            };
            *wr = rank;
            if hole_files.contains(&file) {
                continue;
            }
            board[rank as usize][file] = 'P';
            board[rank as usize + 1][file] = 'p';
        }
        // Kings behind their walls.
        let wk = (
            next(8) as usize,
            next(white_ranks.iter().copied().min().unwrap_or(1) as u64) as usize,
        );
        let bk_min = white_ranks.iter().copied().max().unwrap_or(5) as usize + 2;
        if bk_min > 7 {
            continue;
        }
        let bk = (
            next(8) as usize,
            bk_min + next((8 - bk_min) as u64) as usize,
        );
        board[wk.1][wk.0] = 'K';
        board[bk.1][bk.0] = 'k';
        let extra = next(5);
        for _ in 0..(extra % 3) {
            let (f, r) = (next(8) as usize, next(8) as usize);
            if board[r][f] == '.' {
                board[r][f] = match extra {
                    0 => 'B',
                    1 => 'b',
                    2 => 'N',
                    3 => 'n',
                    _ => 'B',
                };
            }
        }
        let mut text = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for &c in &board[r] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if r > 0 {
                text.push('/');
            }
        }
        let turn = if next(2) == 0 { "w" } else { "b" };
        let full = format!("{text} {turn} - - 0 40");
        let Ok(parsed) = full.parse::<Fen>() else {
            continue;
        };
        if let Ok(pos) = parsed.into_position::<Chess>(CastlingMode::Standard) {
            out.push(pos);
        }
    }
    out
}

fn time(path: &str) {
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {path}");
        return;
    };
    let mut all = Vec::new();
    let mut by_source: HashMap<String, Vec<f64>> = HashMap::new();
    let mut slowest = Vec::new();
    for line in text.lines() {
        let mut fields = line.split('\t');
        let (Some(f), Some(label), Some(how)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(pos) = f.parse::<Fen>().map_err(|_| ()).and_then(|p| {
            p.into_position::<Chess>(CastlingMode::Standard)
                .map_err(|_| ())
        }) else {
            continue;
        };
        let runs = 20;
        let t = Instant::now();
        for _ in 0..runs {
            std::hint::black_box(outcome::final_status(std::hint::black_box(&pos)));
        }
        let secs = t.elapsed().as_secs_f64() / f64::from(runs);
        all.push(secs);
        let source = how.split(' ').next().unwrap_or_default().to_owned();
        by_source
            .entry(format!("{source} {label}"))
            .or_default()
            .push(secs);
        slowest.push((secs, line.to_owned()));
    }
    let show = |name: &str, times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        let n = times.len();
        if n == 0 {
            return;
        }
        let mean = times.iter().sum::<f64>() / n as f64;
        println!(
            "{name}: {n} positions: median {:.2} µs, mean {:.2} µs, max {:.2} ms",
            times[n / 2] * 1e6,
            mean * 1e6,
            times[n - 1] * 1e3
        );
    };
    show("all", &mut all);
    let mut names: Vec<String> = by_source.keys().cloned().collect();
    names.sort();
    for name in names {
        if let Some(times) = by_source.get_mut(&name) {
            show(&name, times);
        }
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, line) in slowest.iter().take(5) {
        let short: String = line.chars().take(120).collect();
        println!("slow: {:.2} ms {short}", secs * 1e3);
    }
}
