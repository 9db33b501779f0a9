//! What the tests that run `pgnkit` on the real games of `testdata/repair`
//! share: running the binary, reading its NDJSON, and the first game of
//! `white.pgn` (Capablanca - Corzo, Havana 1901) as played, or as `pgnkit
//! convert` writes it in another language.

// Each test file uses a part of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The path of `testdata/repair/NAME`.
pub fn fixture(name: &str) -> String {
    format!("{}/testdata/repair/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `pgnkit ARGS`: exit status, standard output, standard error.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(args)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON records of an NDJSON output.
pub fn records(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect()
}

/// The first game of `white.pgn` (Capablanca - Corzo, Havana 1901, 0-1).
pub fn first_game() -> String {
    let text = std::fs::read_to_string(fixture("white.pgn")).expect("fixture");
    let end = text.find("\n\n[").expect("two games");
    text[..end].to_owned()
}

/// The first game as `pgnkit convert -q ARGS` writes it (`--lang de`,
/// `--to ru-scoresheet`), through a file in `dir`.
pub fn first_game_as(dir: &Path, args: &[&str]) -> String {
    let english = dir.join("en.pgn");
    std::fs::write(&english, first_game()).expect("write");
    let english = english.to_string_lossy();
    let mut all = vec!["convert", "-q"];
    all.extend_from_slice(args);
    all.push(&english);
    let (code, converted, stderr) = run(&all);
    assert_eq!(code, 0, "{stderr}");
    converted
}

/// The move words of a game's movetext: no tags, comments, numbers or result.
pub fn moves(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut comment = false;
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        for word in line.split_whitespace() {
            if word.starts_with('{') {
                comment = true;
            }
            if comment {
                comment = !word.ends_with('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !word.is_empty() {
                out.push(word.to_owned());
            }
        }
    }
    out
}

/// The path of `testdata/NAME`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
}

/// The first `n` games of the real file `testdata/NAME` (games that start
/// with an Event tag after an empty line).
pub fn first_games(name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(data(name)).expect("fixture");
    text.split("\n\n[Event ")
        .take(n)
        .collect::<Vec<_>>()
        .join("\n\n[Event ")
}
