//! The gate: every command on every class of hostile or odd input
//! (`testdata/hostile/hostile.rs`, generated here, nothing large in git).
//! For each: no crash, exit 0 or 1 (2 for binary data), the exact game
//! count, and at most 100 errors and 100 warnings kept per game with the
//! rest counted.
//!
//! Time and memory are measured by `benches/hostile.sh` on 10 MB of each
//! class, not asserted here.

#[path = "../../testdata/hostile/hostile.rs"]
mod hostile;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hostile::Class;
use serde_json::Value;

/// Bytes of each class: enough for every cap to be reached, small enough
/// for a debug build.
const SIZE: usize = 96 << 10;

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    code: i32,
}

fn pgnkit(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("pgnkit runs");
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        // A crash (a signal) has no code.
        code: out.status.code().unwrap_or(-1),
    }
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn sample() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/convert/twic944-games700-999.pgn"
    ))
    .expect("sample games")
}

/// Writes each class once into `dir`.
fn inputs(dir: &Path) -> Vec<(Class, PathBuf, u64)> {
    let sample = sample();
    Class::ALL
        .iter()
        .map(|&class| {
            let (bytes, games) = class.make(SIZE, &sample);
            let path = dir.join(format!("{}.pgn", class.name()));
            std::fs::write(&path, bytes).expect("input written");
            (class, path, games)
        })
        .collect()
}

fn records(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON record a line"))
        .collect()
}

/// Checks the exit status; `said` is what the run printed (stderr, or the
/// JSON records where errors go with `--format json`).
fn expected_code(class: Class, code: i32, what: &str, said: &str) {
    if class.is_binary() {
        assert_eq!(code, 2, "{what}: binary data is refused: {said}");
        assert!(
            said.contains("not a PGN file: binary data at byte"),
            "{what}: {said}"
        );
    } else {
        assert!(code == 0 || code == 1, "{what}: exit {code}: {said}");
    }
}

#[test]
fn check_counts_every_game_and_caps_the_diagnostics_of_each() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (class, path, games) in inputs(dir.path()) {
        let what = format!("check {}", class.name());
        let run = pgnkit(&["check", "--format", "json", "--games", "-j2", arg(&path)]);
        expected_code(
            class,
            run.code,
            &what,
            &String::from_utf8_lossy(&run.stdout),
        );
        let recs = records(&run.stdout);
        let summary = recs.last().expect("a summary");
        assert_eq!(summary["type"], "summary", "{what}");
        assert_eq!(summary["games"], games, "{what}: game count");
        if class.is_binary() {
            continue;
        }
        // Per game: at most 100 errors and 100 warnings printed; the rest
        // in one `omitted` record; the summary counts them all.
        let mut per_game: std::collections::HashMap<u64, [u64; 2]> = Default::default();
        let (mut errors, mut warnings) = (0u64, 0u64);
        for r in &recs {
            let game = r["game"].as_u64().unwrap_or(0);
            match r["type"].as_str() {
                Some("diagnostic") => {
                    let e = per_game.entry(game).or_default();
                    if r["severity"] == "error" {
                        e[0] += 1;
                        errors += 1;
                    } else {
                        e[1] += 1;
                        warnings += 1;
                    }
                }
                Some("omitted") => {
                    errors += r["errors"].as_u64().expect("errors");
                    warnings += r["warnings"].as_u64().expect("warnings");
                    let kept = per_game.get(&game).copied().unwrap_or_default();
                    assert!(
                        kept[0] == 100 || kept[1] == 100,
                        "{what}: game {game} omitted diagnostics with {kept:?} kept"
                    );
                }
                Some("game") => {
                    let kept = per_game.get(&game).copied().unwrap_or_default();
                    assert!(r["errors"].as_u64() >= Some(kept[0]), "{what}");
                }
                _ => {}
            }
        }
        for (game, kept) in &per_game {
            assert!(
                kept[0] <= 100 && kept[1] <= 100,
                "{what}: game {game} printed {kept:?}"
            );
        }
        assert_eq!(summary["errors"], errors, "{what}: errors counted");
        assert_eq!(summary["warnings"], warnings, "{what}: warnings counted");
        assert_eq!(
            run.code,
            i32::from(errors > 0),
            "{what}: exit status follows the errors"
        );
    }
}

#[test]
fn the_caps_are_reached_where_a_game_has_many_problems() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (class, path, _) in inputs(dir.path()) {
        if !matches!(class, Class::CloseParens | Class::MoveNumbers) {
            continue;
        }
        let run = pgnkit(&["check", "--format", "json", arg(&path)]);
        let recs = records(&run.stdout);
        let omitted: Vec<&Value> = recs.iter().filter(|r| r["type"] == "omitted").collect();
        assert_eq!(omitted.len(), 1, "{}: one note", class.name());
        let summary = recs.last().expect("summary");
        let shown = recs.iter().filter(|r| r["type"] == "diagnostic").count() as u64;
        let hidden = omitted[0]["errors"].as_u64().unwrap_or(0)
            + omitted[0]["warnings"].as_u64().unwrap_or(0);
        assert!(hidden > 100, "{}: {hidden}", class.name());
        assert_eq!(
            summary["errors"].as_u64().unwrap_or(0) + summary["warnings"].as_u64().unwrap_or(0),
            shown + hidden,
            "{}",
            class.name()
        );
        // Humans get the note too.
        let run = pgnkit(&["check", "--format", "human", arg(&path)]);
        let text = String::from_utf8_lossy(&run.stdout);
        assert!(
            text.contains("found in this game and not shown"),
            "{}",
            class.name()
        );
    }
}

#[test]
fn check_fix_convert_index_search_and_diff_survive_every_class() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let fixed = dir.path().join("fixed.pgn");
    for (class, path, games) in inputs(dir.path()) {
        let name = class.name();
        let run = pgnkit(&[
            "check",
            "-q",
            "--format",
            "human",
            "--fix",
            "-o",
            arg(&fixed),
            arg(&path),
        ]);
        expected_code(class, run.code, &format!("check --fix {name}"), &run.stderr);

        for to in ["san", "lan", "uci", "figurine", "ru-scoresheet"] {
            let what = format!("convert --to {to} {name}");
            let run = pgnkit(&["convert", "--to", to, "-q", arg(&path)]);
            expected_code(class, run.code, &what, &run.stderr);
        }
        for to in ["san", "uci", "spoken"] {
            let what = format!("convert --to {to} --format json {name}");
            let run = pgnkit(&["convert", "--to", to, "--format", "json", "-q", arg(&path)]);
            expected_code(class, run.code, &what, &run.stderr);
            if !class.is_binary() {
                let n = String::from_utf8_lossy(&run.stdout).lines().count() as u64;
                assert_eq!(n, games, "{what}: one record a game");
            }
        }

        let copy = dir.path().join(format!("indexed-{name}.pgn"));
        std::fs::copy(&path, &copy).expect("copy");
        let run = pgnkit(&["index", "-q", arg(&copy)]);
        let what = format!("index {name}");
        if class.is_binary() {
            expected_code(class, run.code, &what, &run.stderr);
        } else {
            assert_eq!(run.code, 0, "{what}: {}", run.stderr);
            let run = pgnkit(&["search", arg(&copy), "--count"]);
            assert_eq!(
                run.code,
                i32::from(games == 0),
                "search {name}: {}",
                run.stderr
            );
            let count: u64 = String::from_utf8_lossy(&run.stdout)
                .trim()
                .parse()
                .expect("a count");
            assert_eq!(count, games, "search {name}: every game matches no filter");
        }
        let run = pgnkit(&["diff", "--format", "human", "-q", arg(&path), arg(&path)]);
        expected_code(class, run.code, &format!("diff {name}"), &run.stderr);
    }
}

#[test]
fn standard_input_is_read_like_a_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (class, path, games) in inputs(dir.path()) {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args(["check", "--format", "json", "-"])
            .stdin(std::fs::File::open(&path).expect("open"))
            .output()
            .expect("runs");
        let code = out.status.code().unwrap_or(-1);
        let said = String::from_utf8_lossy(&out.stdout);
        expected_code(class, code, &format!("stdin {}", class.name()), &said);
        let recs = records(&out.stdout);
        let summary = recs.last().expect("summary");
        assert_eq!(summary["games"], games, "stdin {}", class.name());
        if class.is_binary() {
            assert!(
                recs.iter().any(|r| r["type"] == "error"
                    && r["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("binary data"))),
                "binary data on standard input is named"
            );
        }
    }
}

#[test]
fn a_pgn_with_a_few_stray_control_bytes_is_still_read() {
    let mut pgn = sample();
    pgn.insert(200, 0);
    pgn.insert(5000, 0x01);
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("stray.pgn");
    std::fs::write(&path, pgn).expect("write");
    let run = pgnkit(&["check", "--format", "json", arg(&path)]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    let recs = records(&run.stdout);
    assert!(recs.last().expect("summary")["games"].as_u64() > Some(250));
}
