//! Scoresheet repair through the binary: one fixture game per slip type, a
//! game with several slips, and `check --fix`.

use assert_cmd::Command;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/testdata/repair/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The error diagnostics of `check --format json` on `file`.
fn errors(file: &str) -> Vec<Value> {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "--format", "json", file])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic" && v["severity"] == "error")
        .collect()
}

/// `check --fix` of fixture `name` (exit status 1: it has errors): the
/// temporary directory (kept while it lives), the fixed file and its text.
fn fixed(name: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("fixed.pgn").to_string_lossy().into_owned();
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args([
            "check",
            "-q",
            "--format",
            "json",
            "--fix",
            "-o",
            &path,
            &fixture(name),
        ])
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&path).expect("fixed file");
    (dir, path, text)
}

/// The SAN (or swap pair, or "insert ply SAN") of each suggestion.
fn suggestions(d: &Value) -> Vec<String> {
    d["suggestions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| match s["action"].as_str() {
                    Some("insert") => {
                        format!("insert {} {}", s["ply"], s["san"].as_str().unwrap_or(""))
                    }
                    Some("swap") => format!("swap {} {}", s["ply"], s["san"]),
                    _ => s["san"].as_str().unwrap_or("").to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_slip_type_gets_the_move_that_was_played() {
    let errs = errors(&fixture("slips.pgn"));
    // game, token, what was played, and whether it must be the first suggestion.
    let expected: &[(u64, &str, &str, bool)] = &[
        (1, "Ng3", "Ng4", true),
        (2, "b5", "d5", true),
        (3, "Bf5", "Nf5", true),
        (4, "Cc3", "Nc3", true),
        (5, "Rxf2", "Rf2", true),
        // Both rooks reach g1 and the game replays with either: listed, in the top 3.
        (6, "Rg1", "Rhg1", false),
        (7, "d8+", "d8=Q", true),
        (8, "Nd2", "Nd7", true),
        (9, "gxf3", "insert 24 exf3", true),
        (10, "Rxf3", "swap 59 [\"Bxc5\",\"Rxf3\"]", true),
    ];
    assert_eq!(errs.len(), expected.len(), "one error per game: {errs:#?}");
    for (d, &(game, token, played, first)) in errs.iter().zip(expected) {
        assert_eq!(d["game"], game);
        assert_eq!(d["token"], token);
        let s = suggestions(d);
        if first {
            assert_eq!(
                s.first().map(String::as_str),
                Some(played),
                "game {game}: {s:?}"
            );
            assert_eq!(d["suggestions"][0]["confirmed"], true, "game {game}");
        } else {
            assert!(s.iter().take(3).any(|x| x == played), "game {game}: {s:?}");
        }
    }
}

#[test]
fn left_out_move_is_a_missing_move_error_with_an_insert() {
    let errs = errors(&fixture("slips.pgn"));
    let d = errs.iter().find(|d| d["game"] == 9).expect("game 9");
    assert_eq!(d["code"], "missing-move");
    assert_eq!(d["suggestions"][0]["action"], "insert");
    assert_eq!(d["suggestions"][0]["ply"], 24);
}

#[test]
fn ambiguous_move_lists_both_rooks_first() {
    let errs = errors(&fixture("slips.pgn"));
    let d = errs.iter().find(|d| d["game"] == 6).expect("game 6");
    assert_eq!(d["code"], "ambiguous-move");
    let mut top2: Vec<String> = suggestions(d).into_iter().take(2).collect();
    top2.sort();
    assert_eq!(top2, ["Rag1", "Rhg1"]);
}

#[test]
fn several_slips_in_one_game_are_each_reported_and_fixed() {
    let errs = errors(&fixture("several.pgn"));
    let got: Vec<(String, String)> = errs
        .iter()
        .map(|d| {
            (
                d["token"].as_str().unwrap_or("").to_owned(),
                suggestions(d).first().cloned().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("Bc5".to_owned(), "Be5".to_owned()),
            ("Qf6".to_owned(), "Qf5".to_owned()),
            ("Rq2".to_owned(), "Rg2".to_owned()),
        ]
    );
    // With every top fix applied the game replays to the end: all confirmed.
    for d in &errs {
        assert_eq!(d["suggestions"][0]["confirmed"], true, "{d}");
    }
    assert_eq!(errs[1]["ply"], 31);
    assert_eq!(errs[2]["ply"], 49);
}

#[test]
fn human_output_says_what_was_meant() {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "--format", "human", &fixture("several.pgn")])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("help: did you mean Be5?"), "{text}");
    assert!(text.contains("help: did you mean Rg2?"), "{text}");
}

/// The `summary` record of `check --format json` on `file`.
fn summary(file: &str) -> Value {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "-q", "--format", "json", file])
        .output()
        .expect("run")
        .stdout;
    String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .expect("summary")
}

#[test]
fn fix_applies_the_fixes_the_record_decides() {
    let (_dir, fixed_s, text) = fixed("several.pgn");
    assert!(
        text.contains("11.Be5 {pgnkit: \"Bc5\" written, \"Be5\" applied}"),
        "{text}"
    );
    // 16.Qf6: Qf5 (a rank off by one) and Qg6 (a neighbouring file) both
    // replay the game on to the next error; Qg6 gives the queen to hxg6,
    // which 16...d5 does not take: Qf5 is applied (before the moves'
    // material weighed, a tie left for a human; the tie of a game that
    // holds nothing to tell two fixes apart: 17.Rg1 of slips.pgn below).
    assert!(
        text.contains("16.Qf5 {pgnkit: \"Qf6\" written, \"Qf5\" applied} d5"),
        "{text}"
    );
    assert!(
        text.contains("25.Rg2 {pgnkit: \"Rq2\" written, \"Rg2\" applied"),
        "{text}"
    );
    assert!(text.starts_with("[Event \"Havana m\"]"));
    // The fixed file has no problem left: `check` passes it.
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "-q", &fixed_s])
        .assert()
        .code(0);
    assert_eq!(summary(&fixed_s)["warnings"], 0);
}

#[test]
fn fix_applies_inserts_and_swaps_and_keeps_every_game() {
    let (_dir, fixed_s, text) = fixed("slips.pgn");
    assert_eq!(text.matches("[Event ").count(), 10);
    assert!(
        text.contains("exf3 {pgnkit: a move left out, \"exf3\" inserted"),
        "{text}"
    );
    assert!(text.contains("30.Bxc5 {pgnkit: \"Rxf3\" written, \"Bxc5\" applied; two moves written in swapped order}"), "{text}");
    // 17.Rg1: both rooks reach g1 and the game replays with either: left
    // for a human, the only error left.
    assert!(
        text.contains("17.Rg1 {pgnkit: \"Rg1\" left as written for a human: Rag1 and Rhg1 replay the game alike}"),
        "{text}"
    );
    let errs = errors(&fixed_s);
    let tokens: Vec<&str> = errs.iter().filter_map(|d| d["token"].as_str()).collect();
    assert_eq!(tokens, ["Rg1"]);
}

#[test]
fn fix_needs_an_output_file() {
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "--fix", &fixture("several.pgn")])
        .assert()
        .code(2);
}

/// The `action` and `reason` of a diagnostic's first suggestion.
fn top(d: &Value) -> (String, String, bool) {
    let s = &d["suggestions"][0];
    (
        s["action"].as_str().unwrap_or("").to_owned(),
        s["reason"].as_str().unwrap_or("").to_owned(),
        s["confirmed"].as_bool().unwrap_or(false),
    )
}

#[test]
fn a_word_that_is_no_move_is_struck_out_and_the_rest_of_the_game_checked() {
    let errs = errors(&fixture("stray.pgn"));
    let found: Vec<(u64, String)> = errs
        .iter()
        .map(|d| {
            (
                d["game"].as_u64().unwrap_or(0),
                d["token"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    // One error per stray, none after it: the rest of each game replays.
    // Game 3's later slip is found because the stray did not end the check.
    assert_eq!(
        found,
        [
            (1, "\u{0}12.O-O-O".to_owned()),
            (2, "d5".to_owned()),
            (3, "xx".to_owned()),
            (3, "Rq2".to_owned()),
            (4, "\u{0}".to_owned()),
        ]
    );
    // The NUL glued to the move: the move it hides, not a deletion.
    assert_eq!(suggestions(&errs[0]), ["O-O-O"]);
    assert_eq!(
        top(&errs[0]),
        ("replace".into(), "a stray control character".into(), true)
    );
    assert_eq!(
        top(&errs[1]),
        ("delete".into(), "the same move written twice".into(), true)
    );
    assert_eq!(top(&errs[2]), ("delete".into(), "no move".into(), true));
    assert_eq!(
        suggestions(&errs[3]).first().map(String::as_str),
        Some("Rg2")
    );
    assert_eq!(
        top(&errs[4]),
        (
            "delete".into(),
            "a stray control character, no move".into(),
            true
        )
    );
}

#[test]
fn fix_strikes_out_a_stray_word_into_a_comment() {
    let (_dir, fixed_s, text) = fixed("stray.pgn");
    assert!(
        text.contains("16.Qf5 d5 {pgnkit: \"d5\" struck out: the same move written twice} 17.g4"),
        "{text}"
    );
    assert!(
        text.contains("Bxc3 {pgnkit: \"xx\" struck out: no move}"),
        "{text}"
    );
    assert!(
        text.contains("{pgnkit: \"\\x00\" struck out: a stray control character, no move}"),
        "{text}"
    );
    assert!(
        text.contains("O-O-O {pgnkit: \"\\x0012.O-O-O\" written, \"O-O-O\" applied}"),
        "{text}"
    );
    assert!(!text.contains('\u{0}'), "no NUL byte is written back");
    // Every game of the fixed file checks clean.
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "-q", "--format", "json", &fixed_s])
        .assert()
        .code(0);
}

#[test]
fn fix_keeps_every_game_when_a_game_has_only_a_stray_word() {
    // Game 2's only movetext word is `Raul` (cut off its White tag): struck
    // out, the game would have no movetext and the next game's tags would
    // join it when the fixed file is read again.
    let (_dir, fixed_s, text) = fixed("broken-tags.pgn");
    assert!(!text.contains("\"Raul\" struck out"), "{text}");
    let games = |file: &str| summary(file)["games"].as_u64().unwrap_or(0);
    assert_eq!(games(&fixture("broken-tags.pgn")), 3);
    assert_eq!(games(&fixed_s), 3);
}

#[test]
fn fix_with_no_suggestions_fixes_the_same_and_prints_no_suggestion() {
    let (_dir, _, with) = fixed("slips.pgn");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("fixed.pgn");
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args([
            "check",
            "-q",
            "--format",
            "json",
            "--fix",
            "--no-suggestions",
            "-o",
        ])
        .arg(&path)
        .arg(fixture("slips.pgn"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let without = std::fs::read_to_string(&path).expect("fixed file");
    assert!(with.contains("{pgnkit:"), "the fixes are marked");
    assert_eq!(without, with, "--no-suggestions changes no fix");
    let diagnostics: Vec<Value> = String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .collect();
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        assert_eq!(d["suggestions"], Value::Array(vec![]), "{d}");
    }
    // For humans: no "did you mean", the other help lines kept.
    let human = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args([
            "check",
            "-q",
            "--format",
            "human",
            "--fix",
            "--no-suggestions",
            "-o",
        ])
        .arg(&path)
        .arg(fixture("slips.pgn"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let human = String::from_utf8_lossy(&human);
    assert!(!human.contains("did you mean"), "{human}");
    assert!(
        human.contains("help: write one of `Rag1` and `Rhg1`"),
        "{human}"
    );
}

#[test]
fn a_move_number_with_a_stray_in_it_is_struck_out_and_nothing_else_suggested() {
    // Real games with a NUL inside one move number each (`4<NUL>.`, as a
    // damaged export has them): no move was written there, so striking it
    // out is the one fix, and no slip of the pen is weighed against it.
    let games = std::fs::read_to_string(format!(
        "{}/testdata/convert/twic944-games700-999.pgn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let end = games
        .match_indices("\n[Event ")
        .nth(19)
        .map_or(games.len(), |(i, _)| i + 1);
    let damaged: String = games[..end]
        .split_inclusive("\n\n[")
        .map(|part| part.replacen(" 4. ", " 4\u{0}. ", 1))
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("damaged.pgn");
    std::fs::write(&path, &damaged).expect("write");
    let errs = errors(&path.to_string_lossy());
    let hit = damaged.matches("4\u{0}.").count();
    assert!(hit >= 15, "only {hit} games damaged");
    assert_eq!(errs.len(), hit, "one error per damaged move number");
    for d in &errs {
        assert_eq!(d["token"], "4\u{0}.", "{d}");
        assert_eq!(
            d["suggestions"].as_array().map(Vec::len),
            Some(1),
            "only the strike-out: {d}"
        );
        assert_eq!(
            top(d),
            (
                "delete".into(),
                "a stray control character, no move".into(),
                true
            )
        );
        // Scored by the strike-out's cost alone: material given away later
        // in the game is weighed only between competing slips of the pen.
        assert_eq!(d["suggestions"][0]["score"], 100, "{d}");
    }
}
