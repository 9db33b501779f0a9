//! `check --fix` as an arbiter may use it: a fix is applied only where no
//! other replays the game alike, a tie is left for a human, an inserted move
//! is renumbered, and the fixed games go to `-o`, back into the input files
//! (`--in-place`) or into a diff (`--diff`). Real games (Capablanca - Corzo,
//! Havana 1901, from `testdata/repair`) with slips written in; the German
//! copy is the one `pgnkit convert --lang de` writes.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

mod support;
use support::{first_game, first_game_as, fixture, moves, records, run};

fn summary(stdout: &str) -> Value {
    records(stdout)
        .into_iter()
        .find(|r| r["type"] == "summary")
        .expect("summary")
}

/// `check --fix -o` of `pgn` (exit status 1: it has an error): the fixed
/// text, the summary, and what is said on standard error.
fn fix(dir: &Path, pgn: &str) -> (String, Value, String) {
    let input = dir.join("slip.pgn");
    let output = dir.join("fixed.pgn");
    std::fs::write(&input, pgn).expect("write");
    let (code, stdout, stderr) = run(&[
        "check",
        "--format",
        "json",
        "--fix",
        "-o",
        &output.to_string_lossy(),
        &input.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let fixed = std::fs::read_to_string(&output).expect("fixed file");
    (fixed, summary(&stdout), stderr)
}

/// `check` of `file`: exit status and its diagnostics.
fn check(file: &Path) -> (i32, Vec<Value>, Value) {
    let (code, stdout, _) = run(&["check", "--format", "json", &file.to_string_lossy()]);
    let diagnostics = records(&stdout)
        .into_iter()
        .filter(|r| r["type"] == "diagnostic")
        .collect();
    (code, diagnostics, summary(&stdout))
}

#[test]
fn a_left_out_move_is_inserted_renumbered_and_the_game_rechecks_clean() {
    // 9...Nxe4 left out, and the move numbers counted on from there, as a
    // typist who numbers the moves he reads would write them.
    let game = first_game();
    let (tags, _) = game.split_once("\n\n").expect("tags");
    let played = moves(&game);
    let nxe4 = played.iter().position(|m| m == "Nxe4").expect("9...Nxe4");
    assert_eq!(nxe4, 17);
    let mut written = played.clone();
    written.remove(nxe4);
    let movetext: Vec<String> = written
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if i % 2 == 0 {
                format!("{}. {m}", i / 2 + 1)
            } else {
                m.clone()
            }
        })
        .collect();
    let pgn = format!("{tags}\n\n{} 0-1\n", movetext.join(" "));
    assert!(pgn.contains("9. Bxc3 Qxe4 10. Re8 Be5 11. f6"), "{pgn}");

    let dir = tempfile::tempdir().expect("tempdir");
    let (fixed, summary, _) = fix(dir.path(), &pgn);
    assert_eq!(summary["fixed"]["moves"], 1, "{summary}");
    assert_eq!(summary["fixed"]["needs_human"], 0, "{summary}");
    // Inserted, and the moves after it numbered as PGN numbers them.
    assert!(
        fixed.contains(
            "9. Bxc3 Nxe4 {pgnkit: a move left out, \"Nxe4\" inserted} 10. Qxe4 Re8 11. Be5 f6"
        ),
        "{fixed}"
    );
    assert_eq!(moves(&fixed), played);
    let (code, diagnostics, summary) = check(&dir.path().join("fixed.pgn"));
    assert_eq!(code, 0);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(summary["warnings"], 0);
}

/// The first game in German (`convert --lang de`): `Sf3`, `Lb4`, `Dd3`, `Te8`.
fn first_game_in_german(dir: &Path) -> String {
    let german = first_game_as(dir, &["--to", "san", "--lang", "de"]);
    assert!(german.contains("11. Le5 f6"), "{german}");
    german
}

#[test]
fn a_unique_fix_in_a_german_game_is_applied_in_german_and_reads_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let german = first_game_in_german(dir.path());
    // 11.Le5 written Lc5 (a look-alike file letter): no other move lets
    // the game replay.
    let slip = german.replace("11. Le5 f6", "11. Lc5 f6");
    let (fixed, summary, _) = fix(dir.path(), &slip);
    assert!(
        fixed.contains("11. Le5 {pgnkit: \"Lc5\" written, \"Le5\" applied} f6"),
        "{fixed}"
    );
    assert_eq!(summary["fixed"]["moves"], 1, "{summary}");
    assert_eq!(summary["fixed"]["needs_human"], 0, "{summary}");
    assert_eq!(moves(&fixed), moves(&german));
    let (code, diagnostics, _) = check(&dir.path().join("fixed.pgn"));
    assert_eq!(code, 0);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

#[test]
fn a_queen_given_away_decides_what_the_margin_left_for_a_human() {
    let dir = tempfile::tempdir().expect("tempdir");
    let german = first_game_in_german(dir.path());
    // 16.Df5 written Df6: Df5 (a rank off by one) and Dg6 (a neighbouring
    // file) both replay the game to its end; Dg6 gives the queen to hxg6,
    // which the reply written, 16...d5, does not take: Df5 is applied
    // (before the moves' material weighed, a tie left for a human).
    let slip = german.replace("16. Df5 d5", "16. Df6 d5");
    let (fixed, summary, _) = fix(dir.path(), &slip);
    assert!(
        fixed.contains("16. Df5 {pgnkit: \"Df6\" written, \"Df5\" applied; also possible: Dg6} d5"),
        "{fixed}"
    );
    assert_eq!(summary["fixed"]["moves"], 1, "{summary}");
    assert_eq!(summary["fixed"]["needs_human"], 0, "{summary}");
    assert_eq!(moves(&fixed), moves(&german));
}

#[test]
fn a_tie_in_a_german_game_is_left_as_written_for_a_human() {
    let dir = tempfile::tempdir().expect("tempdir");
    let german = first_game_in_german(dir.path());
    // 26...Taf8 written Tf8: the rook from a8 or the one from f5, both
    // replay the game to its end, neither gives anything away.
    let slip = german.replace("26. Te1 Taf8", "26. Te1 Tf8");
    let (fixed, summary, stderr) = fix(dir.path(), &slip);
    assert!(
        fixed.contains(
            "26. Te1 Tf8 {pgnkit: \"Tf8\" left as written for a human: Tff8 and Taf8 replay the game alike}"
        ),
        "{fixed}"
    );
    assert_eq!(summary["fixed"]["moves"], 0, "{summary}");
    assert_eq!(summary["fixed"]["needs_human"], 1, "{summary}");
    assert!(
        stderr.contains(
            "0 moves, 0 results and 0 check marks in 0 games; 1 problem left for a human"
        ),
        "{stderr}"
    );
    // The word is still the error it was; `--fix` again writes no second comment.
    let (code, diagnostics, _) = check(&dir.path().join("fixed.pgn"));
    assert_eq!(code, 1);
    let tokens: Vec<&str> = diagnostics
        .iter()
        .filter_map(|d| d["token"].as_str())
        .collect();
    assert_eq!(tokens, ["Tf8"]);
    let (again, summary, _) = fix(dir.path(), &fixed);
    assert_eq!(again, fixed);
    assert_eq!(summary["fixed"]["needs_human"], 1, "{summary}");
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn in_place_rewrites_a_file_with_fixes_and_keeps_the_original() {
    let dir = tempfile::tempdir().expect("tempdir");
    let several = std::fs::read(fixture("several.pgn")).expect("fixture");
    let white = std::fs::read(fixture("white.pgn")).expect("fixture");
    let (a, b) = (dir.path().join("several.pgn"), dir.path().join("white.pgn"));
    std::fs::write(&a, &several).expect("write");
    std::fs::write(&b, &white).expect("write");
    // What -o writes for it.
    let expected = dir.path().join("expected.out");
    let (code, _, _) = run(&[
        "check",
        "-q",
        "--fix",
        "-o",
        &expected.to_string_lossy(),
        &fixture("several.pgn"),
    ]);
    assert_eq!(code, 1);
    let expected = std::fs::read(&expected).expect("expected");

    let (code, _, stderr) = run(&[
        "check",
        "--format",
        "json",
        "--fix",
        "--in-place",
        &a.to_string_lossy(),
        &b.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "an error is left for a human: {stderr}");
    assert!(stderr.contains("rewrote 1 file"), "{stderr}");
    assert_eq!(std::fs::read(&a).expect("fixed"), expected);
    assert_eq!(
        std::fs::read(dir.path().join("several.pgn.orig")).expect("backup"),
        several
    );
    // A file with nothing to fix is left alone, with no backup; no
    // temporary file is left behind.
    assert_eq!(std::fs::read(&b).expect("untouched"), white);
    assert_eq!(
        listing(dir.path()),
        [
            "expected.out",
            "several.pgn",
            "several.pgn.orig",
            "white.pgn"
        ]
    );

    // --no-backup: rewritten, no .orig.
    std::fs::write(&a, &several).expect("write");
    std::fs::remove_file(dir.path().join("several.pgn.orig")).expect("remove");
    let (code, _, _) = run(&[
        "check",
        "-q",
        "--fix",
        "--in-place",
        "--no-backup",
        &a.to_string_lossy(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read(&a).expect("fixed"), expected);
    assert_eq!(
        listing(dir.path()),
        ["expected.out", "several.pgn", "white.pgn"]
    );
}

#[test]
fn in_place_refuses_standard_input() {
    for args in [
        &["check", "--fix", "--in-place"][..],
        &["check", "--fix", "--in-place", "-"][..],
    ] {
        let out = Command::cargo_bin("pgnkit")
            .expect("binary")
            .args(args)
            .write_stdin(std::fs::read(fixture("several.pgn")).expect("fixture"))
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--in-place cannot rewrite standard input"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn diff_shows_each_change_at_its_line_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let several = std::fs::read(fixture("several.pgn")).expect("fixture");
    let a = dir.path().join("several.pgn");
    std::fs::write(&a, &several).expect("write");
    let (code, stdout, stderr) = run(&["check", "--fix", "--diff", &a.to_string_lossy()]);
    assert_eq!(code, 1);
    let name = a.to_string_lossy();
    let text = String::from_utf8_lossy(&several);
    // 11.Bc5 is on line 13 of the file: three lines of context before it.
    let line = text
        .lines()
        .position(|l| l.contains("11.Bc5"))
        .expect("11.Bc5")
        + 1;
    assert_eq!(line, 13);
    let expected_head = format!("--- a/{name}\n+++ b/{name}\n@@ -10,6 +10,6 @@\n");
    assert!(stdout.starts_with(&expected_head), "{stdout}");
    assert!(
        stdout.contains("\n-9.Bxc3 Nxe4 10.Qxe4 Re8 11.Bc5 f6 12.O-O-O"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\n+9.Bxc3 Nxe4 10.Qxe4 Re8 11.Be5 {pgnkit: \"Bc5\" written, \"Be5\" applied} f6 12.O-O-O"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("\"type\""), "no diagnostics in a diff");
    assert!(stderr.contains("wrote nothing"), "{stderr}");
    assert_eq!(std::fs::read(&a).expect("untouched"), several);
    assert_eq!(listing(dir.path()), ["several.pgn"]);
}

/// A Russian scoresheet (`:` for captures, `0-0`): the suggestion and the
/// fix are written as the sheet writes its moves, not in PGN's `x`.
#[test]
fn a_fix_on_a_russian_scoresheet_keeps_its_capture_mark() {
    let dir = tempfile::tempdir().expect("tempdir");
    let russian = first_game_as(dir.path(), &["--to", "ru-scoresheet"]);
    assert!(russian.contains("10. Ф:e4 Лe8"), "{russian}");
    // 10.Qxe4 written with a rank off by one.
    let slip = russian.replace("10. Ф:e4 Лe8", "10. Ф:e3 Лe8");
    let input = dir.path().join("slip.pgn");
    std::fs::write(&input, &slip).expect("write");
    let (_, human, _) = run(&["check", "--format", "human", &input.to_string_lossy()]);
    assert!(human.contains("did you mean Ф:e4?"), "{human}");
    let (fixed, summary, _) = fix(dir.path(), &slip);
    assert!(
        fixed.contains("10. Ф:e4 {pgnkit: \"Ф:e3\" written, \"Ф:e4\" applied} Лe8"),
        "{fixed}"
    );
    assert_eq!(summary["fixed"]["moves"], 1, "{summary}");
    assert_eq!(moves(&fixed), moves(&russian));
}
