//! The clocks through the binary (testdata/clocks, see its README.md):
//! `check --games` records as python-chess reads the clocks, `convert
//! --no-clocks` and `--clocks`, the search filters from an index and from a
//! scan, `show --ply` and `report`.

// The helpers below are test code too.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use pgnkit_testkit::{Run, records};
use serde_json::Value;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/clocks")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn pgnkit(args: &[&str]) -> Run {
    let mut cmd = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")));
    cmd.args(args);
    Run::of(cmd)
}

/// `pgnkit ARGS` with `input` on standard input.
fn pgnkit_in(args: &[&str], input: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("in.pgn");
    std::fs::write(&path, input).unwrap();
    let mut all: Vec<&str> = args.to_vec();
    let p = path.to_string_lossy().into_owned();
    all.push(&p);
    let run = pgnkit(&all);
    assert!(run.code == 0 || run.code == 1, "{args:?}: {}", run.stderr);
    run.stdout
}

fn expected() -> Value {
    serde_json::from_slice(&std::fs::read(fixture("expected.json")).unwrap()).unwrap()
}

#[test]
fn game_records_give_the_clocks_python_chess_reads() {
    let expected = expected();
    for (file, games) in expected.as_object().unwrap() {
        let run = pgnkit(&["check", "--games", "--format", "json", &fixture(file)]);
        let found = records(&run.stdout, "game");
        let games = games.as_array().unwrap();
        assert_eq!(found.len(), games.len(), "{file}");
        for (record, want) in found.iter().zip(games) {
            for key in ["clk", "emt"] {
                let field = if key == "clk" { "clocks" } else { "emt" };
                let plies = record["plies"].as_u64().unwrap() as usize;
                let got: Vec<Option<f64>> = match record[field].as_array() {
                    Some(list) => list.iter().map(Value::as_f64).collect(),
                    None => vec![None; plies],
                };
                let want: Vec<Option<f64>> = want[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(Value::as_f64)
                    .collect();
                assert_eq!(got, want, "{file} game {} {field}", record["game"]);
            }
        }
    }
}

#[test]
fn a_record_gives_the_control_and_the_time_used() {
    let pgn = b"[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:58.5] } 2. Nf3 { [%clk 0:00:15] } *\n";
    let out = pgnkit_in(&["check", "--games", "--format", "json"], pgn);
    let game = &records(&out, "game")[0];
    assert_eq!(game["time_control"]["kind"], "blitz");
    assert_eq!(game["time_control"]["base"], 180);
    assert_eq!(game["time_control"]["increment"], 2);
    assert_eq!(game["clocks"], serde_json::json!([180, 178.5, 15]));
    assert_eq!(game["time_use"]["white"]["used"], 169);
    assert_eq!(game["time_use"]["white"]["trouble"], serde_json::json!([3]));
    assert_eq!(game["time_use"]["trouble_below"], 18);
}

/// Each game's main line as UCI moves, from `convert --format json`.
fn main_lines(json: &str) -> Vec<Vec<String>> {
    records(json, "game")
        .iter()
        .map(|g| {
            g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["uci"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn no_clocks_keeps_every_move_and_every_other_word() {
    for file in ["lichess.pgn", "pgn4web.pgn", "emt.pgn", "faults.pgn"] {
        let input = std::fs::read(fixture(file)).unwrap();
        let out = pgnkit(&["convert", "--no-clocks", &fixture(file)]);
        // faults.pgn has clock errors, which convert reports (exit 1).
        assert!(out.code <= 1, "{file}: {}", out.stderr);
        assert!(
            !out.stdout.contains("%clk") && !out.stdout.contains("%emt"),
            "{file}"
        );
        let before = pgnkit_in(&["convert", "--format", "json"], &input);
        let after = pgnkit_in(&["convert", "--format", "json"], out.stdout.as_bytes());
        assert_eq!(main_lines(&before), main_lines(&after), "{file}");
        assert!(!main_lines(&after).is_empty());
    }
    let pgn = b"1. e4 { [%clk 0:00:07][%eval -6.05] White is toast } e5 { [%clk 0:01:00] } *\n";
    let out = pgnkit_in(&["convert", "--no-clocks"], pgn);
    assert!(out.contains("{ [%eval -6.05] White is toast }"), "{out}");
    assert!(!out.contains("e5 {"), "an emptied comment goes: {out}");
}

#[test]
fn clocks_become_times_taken_and_back() {
    // emt.pgn: clean games with `%emt` made by python-chess from their
    // clocks (scripts/clock_fixtures.py); emt.json: those clocks.
    let want: Value = serde_json::from_slice(&std::fs::read(fixture("emt.json")).unwrap()).unwrap();
    let clk = pgnkit(&["convert", "--clocks", "clk", &fixture("emt.pgn")]);
    assert_eq!(clk.code, 0, "{}", clk.stderr);
    assert!(!clk.stdout.contains("%emt"));
    let checked = pgnkit_in(
        &["check", "--games", "--format", "json"],
        clk.stdout.as_bytes(),
    );
    let games = records(&checked, "game");
    assert_eq!(games.len(), want.as_array().unwrap().len());
    for (g, w) in games.iter().zip(want.as_array().unwrap()) {
        let got: Vec<Option<f64>> = g["clocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::as_f64)
            .collect();
        let want: Vec<Option<f64>> = w["clk"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::as_f64)
            .collect();
        assert_eq!(got, want);
    }
    // And back: the times taken are python-chess's.
    let emt = pgnkit_in(&["convert", "--clocks", "emt"], clk.stdout.as_bytes());
    let again = pgnkit_in(&["check", "--games", "--format", "json"], emt.as_bytes());
    let expected = expected();
    let python = expected["emt.pgn"].as_array().unwrap();
    let numbers = |v: &Value| -> Vec<Option<f64>> {
        v.as_array().unwrap().iter().map(Value::as_f64).collect()
    };
    for (g, w) in records(&again, "game").iter().zip(python) {
        assert_eq!(numbers(&g["emt"]), numbers(&w["emt"]));
        assert!(g.get("clocks").is_none());
    }
}

#[test]
fn clock_filters_agree_between_an_index_and_a_scan() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lichess.pgn");
    std::fs::copy(fixture("lichess.pgn"), &file).unwrap();
    let file = file.to_string_lossy().into_owned();
    let count = |args: &[&str]| -> String {
        let mut all = vec!["search", file.as_str(), "--count"];
        all.extend_from_slice(args);
        let run = pgnkit(&all);
        assert!(run.code <= 1, "{args:?}: {}", run.stderr);
        run.stdout.trim().to_owned()
    };
    let filters: [&[&str]; 5] = [
        &["--time-control", "300+3"],
        &["--time-class", "blitz"],
        &["--time-class", "rapid"],
        &["--clock-below", "10"],
        &["--clock-below", "10", "--time-control", "60"],
    ];
    let scanned: Vec<String> = filters.iter().map(|f| count(f)).collect();
    // The TimeControl tags of lichess.pgn: 11 games of 300+3, one of 900+0
    // (rapid), the 29 others blitz.
    assert_eq!(&scanned[..3], ["11", "29", "1"]);
    assert_ne!(scanned[3], "0");
    assert_eq!(pgnkit(&["index", &file]).code, 0);
    let indexed: Vec<String> = filters.iter().map(|f| count(f)).collect();
    assert_eq!(scanned, indexed);
}

#[test]
fn show_gives_both_clocks_and_report_draws_them() {
    let run = pgnkit(&[
        "show",
        &fixture("lichess.pgn"),
        "--game",
        "1",
        "--ply",
        "5",
        "--ascii",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("clocks: White 0:05:01, Black 0:05:02"),
        "{}",
        run.stdout
    );
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("r.html");
    let run = pgnkit(&[
        "report",
        &fixture("faults.pgn"),
        "-o",
        &page.to_string_lossy(),
    ]);
    assert!(run.code <= 1, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let games = records(
        &pgnkit(&[
            "check",
            "--games",
            "--format",
            "json",
            &fixture("faults.pgn"),
        ])
        .stdout,
        "game",
    )
    .len();
    assert_eq!(html.matches("<svg class=\"clocks\"").count(), games);
    assert!(html.contains("<h2>Time</h2>"));
    // Every game of faults.pgn has a problem, so a card with its clocks;
    // the game of periods has the end of the first period marked.
    assert!(html.contains("class=\"period\""));
}

#[test]
fn hostile_clock_comments_are_warnings_and_the_run_goes_on() {
    let million = "9".repeat(1_000_000);
    let pgn = format!(
        "[TimeControl \"180+2\"]\n\n1. e4 {{ [%clk 1:xx] }} e5 {{ [%clk -0:00:05] }} 2. Nf3 {{ [%clk 25:00:00] }} Nc6 {{ [%clk {million}:00:00] }} *\n\n1. d4 d5 *\n"
    );
    let out = pgnkit_in(&["check", "--format", "json", "--games"], pgn.as_bytes());
    let warnings: Vec<Value> = records(&out, "diagnostic")
        .into_iter()
        .filter(|d| d["code"] == "clock-unreadable")
        .collect();
    assert_eq!(warnings.len(), 4);
    assert!(warnings.iter().all(|d| d["severity"] == "warning"));
    assert!(
        warnings
            .iter()
            .all(|d| d["message"].as_str().unwrap().len() < 200)
    );
    assert_eq!(records(&out, "game").len(), 2);
}
