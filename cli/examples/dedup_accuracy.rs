//! Precision and recall of `pgnkit dedup` per kind, on real games with
//! injected duplicates of every kind (the figures in benches/README.md).
//!
//! ```text
//! cargo build --release
//! cargo run --release --example dedup_accuracy -- target/release/pgnkit CORPUS.pgn DIR [GAMES]
//! ```
//!
//! The base: the first GAMES (default 2000) games of CORPUS.pgn with a
//! decided result, at least 10 movetext words and no comment or variation,
//! that `pgnkit dedup --contradicting-tags --prefix` finds in no cluster of
//! CORPUS.pgn (real duplicates would blur the truth). Game `i` of the base
//! gets one copy by `i % 8`: 0 in German LAN (`convert --to lan --lang
//! de`), 1 in UCI (`--to uci`), 2 re-tagged (tags reversed, two added), 3
//! re-wrapped (a word per line), 4 annotated (a comment and a NAG): all
//! `exact`; 5 truncated to half its words (`prefix`); 6 the result changed
//! (`contradicting-tags`); 7 none. `pgnkit dedup --format json
//! --contradicting-tags --prefix base.pgn copies.pgn` is then run: a pair
//! is found when original and copy are in one cluster and the one not kept
//! has the kind injected; every game not kept of another kind, or in a
//! cluster without its pair, is a false positive of its kind.

use std::collections::HashMap;
use std::process::Command;

use pgnkit_pgn::{Game, Reader};

fn games_of(bytes: &[u8]) -> Vec<String> {
    let mut reader = Reader::new(bytes);
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let text = String::from_utf8_lossy(bytes.get(game.span.clone()).unwrap_or_default());
        out.push(text.replace("\r\n", "\n"));
    }
    out
}

fn pgnkit(bin: &str, args: &[&str]) -> String {
    let out = Command::new(bin).args(args).output().expect("run pgnkit");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// (file, game) of every game in a cluster of the JSON report, with its
/// cluster and kind.
fn clusters(json: &str) -> HashMap<(String, u64), (usize, String)> {
    let mut out = HashMap::new();
    for (i, line) in json.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        for g in v["games"].as_array().into_iter().flatten() {
            let file = g["file"].as_str().unwrap_or_default().to_owned();
            let game = g["game"].as_u64().unwrap_or_default();
            out.insert(
                (file, game),
                (i, g["kind"].as_str().unwrap_or_default().to_owned()),
            );
        }
    }
    out
}

fn split(game: &str) -> (&str, &str) {
    game.split_once("\n\n").unwrap_or((game, ""))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (bin, corpus, dir) = (&args[1], &args[2], std::path::Path::new(&args[3]));
    let want: usize = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(2000);
    std::fs::create_dir_all(dir).expect("dir");
    let bytes = std::fs::read(corpus).expect("corpus");
    let all = games_of(&bytes);
    let known = clusters(&pgnkit(
        bin,
        &[
            "dedup",
            "--format",
            "json",
            "--contradicting-tags",
            "--prefix",
            corpus,
        ],
    ));
    let decided = |g: &str| {
        ["1-0\"]", "0-1\"]", "1/2-1/2\"]"]
            .iter()
            .any(|r| g.contains(&format!("[Result \"{r}")))
    };
    let base: Vec<&String> = (all.iter().enumerate())
        .filter(|(i, g)| {
            let (_, moves) = split(g);
            !known.contains_key(&(corpus.clone(), *i as u64 + 1))
                && decided(g)
                && moves.split_whitespace().count() >= 10
                && !moves.contains(['{', '(', ';', '%'])
        })
        .map(|(_, g)| g)
        .take(want)
        .collect();
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let join = |gs: &[String]| gs.iter().map(|g| format!("{g}\n\n")).collect::<String>();
    let base: Vec<String> = base.into_iter().cloned().collect();
    std::fs::write(path("base.pgn"), join(&base)).expect("write");
    let convert = |to: &[&str], name: &str| -> Vec<String> {
        let mut a = vec!["convert", "-q"];
        a.extend_from_slice(to);
        let (b, o) = (path("base.pgn"), path(name));
        a.extend_from_slice(&[b.as_str(), "-o", o.as_str()]);
        pgnkit(bin, &a);
        games_of(&std::fs::read(&o).expect("converted"))
    };
    let de = convert(&["--to", "lan", "--lang", "de"], "de.pgn");
    let uci = convert(&["--to", "uci"], "uci.pgn");
    assert_eq!((de.len(), uci.len()), (base.len(), base.len()));
    let kinds = [
        "exact",
        "exact",
        "exact",
        "exact",
        "exact",
        "prefix",
        "contradicting-tags",
    ];
    let mut copies = Vec::new();
    let mut truth = Vec::new(); // (original game, copy game, kind)
    for (i, g) in base.iter().enumerate() {
        let (tags, moves) = split(g);
        let words: Vec<&str> = moves.split_whitespace().collect();
        let copy = match i % 8 {
            0 => de[i].clone(),
            1 => uci[i].clone(),
            2 => {
                let mut t: Vec<&str> = tags.lines().rev().collect();
                t.push("[Annotator \"pgnkit test\"]");
                t.push("[Source \"copy\"]");
                format!("{}\n\n{moves}", t.join("\n"))
            }
            3 => format!("{tags}\n\n{}", words.join("\n")),
            4 => {
                let mut w = words.clone();
                w.insert(3, "$1 {a comment}");
                format!("{tags}\n\n{{annotated copy}} {}", w.join(" "))
            }
            5 => format!("{tags}\n\n{} *", words[..words.len() / 2].join(" ")),
            6 => {
                let swapped = if tags.contains("[Result \"1-0\"]") {
                    "0-1"
                } else {
                    "1-0"
                };
                let t: Vec<String> = (tags.lines())
                    .map(|l| {
                        if l.starts_with("[Result ") {
                            format!("[Result \"{swapped}\"]")
                        } else {
                            l.to_owned()
                        }
                    })
                    .collect();
                let w = words[..words.len() - 1].join(" ");
                format!("{}\n\n{w} {swapped}", t.join("\n"))
            }
            _ => continue,
        };
        copies.push(copy);
        truth.push((i as u64 + 1, copies.len() as u64, kinds[i % 8]));
    }
    std::fs::write(path("copies.pgn"), join(&copies)).expect("write");
    let (b, c) = (path("base.pgn"), path("copies.pgn"));
    let found = clusters(&pgnkit(
        bin,
        &[
            "dedup",
            "--format",
            "json",
            "--contradicting-tags",
            "--prefix",
            &b,
            &c,
        ],
    ));
    let mut tp: HashMap<&str, u64> = HashMap::new();
    let mut injected: HashMap<&str, u64> = HashMap::new();
    let mut explained = std::collections::HashSet::new();
    for &(o, k, kind) in &truth {
        *injected.entry(kind).or_default() += 1;
        let (Some(a), Some(z)) = (found.get(&(b.clone(), o)), found.get(&(c.clone(), k))) else {
            continue;
        };
        let member = if a.1 == "kept" { z } else { a };
        if a.0 == z.0 && member.1 == kind {
            *tp.entry(kind).or_default() += 1;
            explained.insert(if a.1 == "kept" {
                (c.clone(), k)
            } else {
                (b.clone(), o)
            });
        }
    }
    let mut reported: HashMap<String, u64> = HashMap::new();
    for (place, (_, kind)) in &found {
        if kind != "kept" {
            *reported.entry(kind.clone()).or_default() += 1;
            let _ = place;
        }
    }
    println!(
        "base: {} real games of {corpus}; {} injected copies",
        base.len(),
        copies.len()
    );
    println!(
        "{:<20} {:>8} {:>8} {:>8} {:>10} {:>8}",
        "kind", "injected", "reported", "correct", "precision", "recall"
    );
    for kind in ["exact", "contradicting-tags", "prefix"] {
        let (t, i, r) = (
            tp.get(kind).copied().unwrap_or(0),
            injected.get(kind).copied().unwrap_or(0),
            reported.get(kind).copied().unwrap_or(0),
        );
        println!(
            "{kind:<20} {i:>8} {r:>8} {t:>8} {:>9.2}% {:>7.2}%",
            100.0 * t as f64 / r.max(1) as f64,
            100.0 * t as f64 / i.max(1) as f64
        );
    }
}
