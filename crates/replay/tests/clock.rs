//! The clocks of real games (testdata/clocks): read as python-chess reads
//! them, checked against their control, faults put in by a script of its own
//! (scripts/clock_fixtures.py) each found at its ply, flags that fell given
//! the Laws' result, and hostile clock comments warned of, never a panic.

use std::path::PathBuf;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::clock::Time;
use pgnkit_replay::{Detail, GameReport, Options, Severity, replay_game};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/clocks")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn json(name: &str) -> Value {
    serde_json::from_slice(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every game of `pgn`, replayed with `detail`.
fn reports(pgn: &[u8], detail: Detail) -> Vec<GameReport> {
    let options = Options {
        detail,
        ..Options::default()
    };
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        out.push(replay_game(pgn, &game, &options));
    }
    out
}

/// The clock codes (and `time-control`) of a report, with their plies.
fn clock_findings(report: &GameReport) -> Vec<(String, Option<u32>)> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str().starts_with("clock-") || d.code.as_str() == "time-control")
        .map(|d| (d.code.as_str().to_owned(), d.ply))
        .collect()
}

fn seconds(list: &[Option<Time>], plies: u32) -> Vec<Option<f64>> {
    (0..plies as usize)
        .map(|i| list.get(i).copied().flatten().map(Time::seconds))
        .collect()
}

#[test]
fn clocks_and_emt_are_python_chess_s_ply_by_ply() {
    let expected = json("expected.json");
    let files = expected.as_object().unwrap();
    assert!(files.len() >= 3);
    for (file, games) in files {
        let games = games.as_array().unwrap();
        for detail in [Detail::Full, Detail::Diagnostics, Detail::Errors] {
            let found = reports(&read(file), detail);
            assert_eq!(found.len(), games.len(), "{file}");
            for (i, (report, want)) in found.iter().zip(games).enumerate() {
                for (key, got) in [
                    ("clk", seconds(report.clocks.clk(), report.plies)),
                    ("emt", seconds(report.clocks.emt(), report.plies)),
                ] {
                    let want: Vec<Option<f64>> = want[key]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(Value::as_f64)
                        .collect();
                    assert_eq!(got, want, "{file} game {} {key} ({detail:?})", i + 1);
                }
            }
        }
    }
}

#[test]
fn clean_games_have_no_clock_diagnostic() {
    let pgn = read("clean.pgn");
    let found = reports(&pgn, Detail::Full);
    assert!(found.len() >= 20);
    for (i, report) in found.iter().enumerate() {
        assert_eq!(clock_findings(report), [], "game {}", i + 1);
        assert!(!report.clocks.clk().is_empty(), "game {}", i + 1);
        assert_ne!(report.status.as_str(), "flag-fell");
    }
}

#[test]
fn each_fault_is_found_at_its_ply() {
    let pgn = read("faults.pgn");
    let found = reports(&pgn, Detail::Full);
    let expected = json("faults.json");
    let expected = expected.as_array().unwrap();
    assert_eq!(found.len(), expected.len());
    for (report, want) in found.iter().zip(expected) {
        let ply = want["ply"].as_u64().map(|p| p as u32);
        let code = want["code"].as_str().unwrap().to_owned();
        assert_eq!(clock_findings(report), [(code, ply)], "{want}");
        if let Some(status) = want["status"].as_str() {
            assert_eq!(report.status.as_str(), status, "{want}");
            assert_eq!(
                report.result.map(|r| r.as_str()),
                want["result"].as_str(),
                "{want}"
            );
            let mismatch = report
                .diagnostics
                .iter()
                .any(|d| d.code.as_str() == "result-mismatch" && d.ply == ply);
            assert_eq!(mismatch, want["mismatch"].as_bool().unwrap(), "{want}");
            assert_eq!(report.ruling.is_some(), mismatch, "{want}");
        }
        // The fast lanes give the game to the full replay.
        for detail in [Detail::Diagnostics, Detail::Errors] {
            let lane = &reports(&pgn, detail)[want["game"].as_u64().unwrap() as usize - 1];
            assert_eq!(lane.status, report.status, "{want} {detail:?}");
            assert_eq!(lane.result, report.result, "{want} {detail:?}");
        }
    }
}

#[test]
fn the_bare_king_case_is_a_draw() {
    let expected = json("faults.json");
    let bare: Vec<&Value> = expected
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["fault"] == "bare-king")
        .collect();
    assert!(!bare.is_empty());
    assert!(bare.iter().all(|e| e["result"] == "1/2-1/2"));
}

#[test]
fn hostile_clock_comments_are_warnings_at_their_place() {
    let million = "9".repeat(1_000_000);
    for bad in [
        "[%clk 1:xx]".to_owned(),
        "[%clk -0:00:05]".to_owned(),
        "[%clk 25:00:00]".to_owned(),
        format!("[%clk {million}:00:00]"),
        format!("[%clk 0:00:00.{million}]"),
        format!("[%emt {million}]"),
        "[%clk 0:00:01".to_owned(),
        "[%clk]".to_owned(),
    ] {
        let pgn = format!(
            "[TimeControl \"180+2\"]\n\n1. e4 {{ [%clk 0:03:00] }} e5 {{ {bad} }} 2. Nf3 {{ [%clk 0:02:59] }} Nc6 *\n"
        );
        let report = &reports(pgn.as_bytes(), Detail::Full)[0];
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.code.as_str() == "clock-unreadable")
            .unwrap_or_else(|| panic!("{}", &bad[..bad.len().min(40)]));
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.ply, Some(2));
        let at = pgn.find("e5 { ").unwrap() + 5;
        assert_eq!(d.span.start, at);
        assert!(d.message.len() < 200, "{}", d.message);
        // The run goes on: the moves after it are replayed.
        assert_eq!(report.plies, 4);
        assert_eq!(report.clocks.clk_at(3), Some(Time::from_seconds(179)));
    }
}

#[test]
fn a_time_control_that_is_none_is_a_warning_on_the_tag() {
    let pgn = b"[TimeControl \"3 min\"]\n\n1. e4 e5 *\n";
    let report = &reports(pgn, Detail::Full)[0];
    assert_eq!(clock_findings(report), [("time-control".to_owned(), None)]);
    assert_eq!(report.diagnostics[0].span.start, 0);
    assert!(report.time_control.is_none());
}
