//! `pgnkit diff` on two players' records of the same games.

use assert_cmd::Command;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/../testdata/repair/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn records(args: &[&str], code: i32) -> Vec<Value> {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line"))
        .collect()
}

#[test]
fn differences_say_which_version_is_legal() {
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let recs = records(&["diff", "--format", "json", &w, &b], 1);
    let diffs: Vec<&Value> = recs.iter().filter(|r| r["type"] == "difference").collect();
    let short: Vec<(u64, u64, Value, Value, Value, Value)> = diffs
        .iter()
        .map(|d| {
            (
                d["game_a"].as_u64().unwrap_or(0),
                d["ply"].as_u64().unwrap_or(0),
                d["a"].clone(),
                d["b"].clone(),
                d["b_legal"].clone(),
                d["merged"].clone(),
            )
        })
        .collect();
    assert_eq!(
        short,
        vec![
            (1, 42, "d4".into(), "d3".into(), false.into(), "d4".into()),
            (1, 55, "Kd3".into(), "Kd2".into(), true.into(), Value::Null),
            (
                2,
                25,
                "Ne4".into(),
                "Ne3".into(),
                false.into(),
                "Ne4".into()
            ),
            (2, 38, "Bh3".into(), Value::Null, Value::Null, "Bh3".into()),
        ]
    );
    // Games were paired by Round/White/Black, not by order.
    assert_eq!(diffs[0]["game_b"], 2);
    let summary = recs.last().expect("summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["differences"], 4);
}

#[test]
fn merged_game_takes_the_legal_version_and_stops_where_both_are_legal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let merged = dir.path().join("merged.pgn");
    let merged_s = merged.to_string_lossy().into_owned();
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let recs = records(&["diff", "--format", "json", "-o", &merged_s, &w, &b], 1);
    let games: Vec<&Value> = recs.iter().filter(|r| r["type"] == "game").collect();
    assert_eq!(games[0]["merged_complete"], false);
    assert_eq!(games[1]["merged_complete"], true);
    let text = std::fs::read_to_string(&merged).expect("merged file");
    assert!(
        text.contains("A has \"Kd3\", B has \"Kd2\"; both are legal"),
        "{text}"
    );
    assert!(text.contains("19. Nf7 Bh3 20. g3"), "{text}");
    // The complete merged game replays cleanly.
    let second = text.split("\n\n[").nth(1).expect("second game");
    let path = dir.path().join("second.pgn");
    std::fs::write(&path, format!("[{second}")).expect("write");
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "-q", "--format", "json", &path.to_string_lossy()])
        .assert()
        .code(0);
}

#[test]
fn identical_records_agree() {
    let w = fixture("white.pgn");
    let recs = records(&["diff", "--format", "json", &w, &w], 0);
    assert!(recs.iter().all(|r| r["type"] != "difference"));
    // Each game record carries the merged line (no -o needed): game 1 of
    // the fixture is the Havana game of 29 moves, ending 29...Rf4+.
    let games: Vec<&Value> = recs.iter().filter(|r| r["type"] == "game").collect();
    assert_eq!(games.len(), 2);
    let merged = games[0]["merged"].as_str().unwrap_or("");
    assert!(
        merged.starts_with("1. e4 e5 2. Nf3 Nc6 3. d4 exd4"),
        "{merged}"
    );
    assert!(merged.ends_with("29. Kxe4 Rf4+"), "{merged}");
    assert_eq!(games[0]["merged_complete"], true);
}
