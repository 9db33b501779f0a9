//! `pgnkit check`: one behaviour per test, on the fixtures in `testdata/`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
}

fn pgnkit() -> Command {
    Command::cargo_bin("pgnkit").expect("binary built")
}

fn summary(stdout: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().last().expect("output");
    let v: serde_json::Value = serde_json::from_str(last).expect("JSON");
    assert_eq!(v["type"], "summary");
    v
}

#[test]
fn a_clean_file_exits_0() {
    pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/status-stalemate.pgn"))
        .assert()
        .code(0);
}

#[test]
fn errors_exit_1_and_warnings_only_under_strict() {
    pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/illegal-ambiguous.pgn"))
        .assert()
        .code(1);
    // check-mark warnings only
    pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/check-mark.pgn"))
        .assert()
        .code(0);
    pgnkit()
        .args(["check", "--format", "json", "--strict"])
        .arg(data("check/check-mark.pgn"))
        .assert()
        .code(1);
}

#[test]
fn missing_files_and_directories_exit_2_but_the_others_are_checked() {
    // A directory is read for its PGN files (cli/tests/inputs.rs); one
    // without any is an error of its own.
    let empty = tempfile::tempdir().expect("tempdir");
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/no-such-file.pgn"))
        .arg(empty.path())
        .arg(data("check/illegal-ambiguous.pgn"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"type\":\"error\""), "{text}");
    assert!(text.contains("no PGN file in"), "{text}");
    assert!(
        text.contains("\"code\":\"ambiguous-move\""),
        "the readable file was still checked"
    );
    assert_eq!(summary(&out.stdout)["games"], 3);
}

#[test]
fn usage_errors_exit_2() {
    pgnkit()
        .args(["check", "--format", "yaml"])
        .assert()
        .code(2);
    pgnkit()
        .args(["check", "--input-lang", "xx"])
        .assert()
        .code(2);
    pgnkit().args(["frobnicate"]).assert().code(2);
}

#[test]
fn json_diagnostics_follow_the_contract() {
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/illegal-ambiguous.pgn"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a line")).expect("JSON");
    for key in [
        "type",
        "severity",
        "code",
        "file",
        "game",
        "line",
        "column",
        "byte",
        "ply",
        "move_number",
        "side",
        "token",
        "message",
        "suggestions",
    ] {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    assert_eq!(first["code"], "illegal-move");
    assert_eq!(first["token"], "Ne6");
    assert_eq!(first["variation"], true);
    // The byte offset points at the token.
    let bytes = std::fs::read(data("check/illegal-ambiguous.pgn")).expect("read");
    let at = first["byte"].as_u64().expect("byte") as usize;
    assert_eq!(&bytes[at..at + 3], b"Ne6");
}

#[test]
fn human_output_shows_the_line_a_caret_and_help() {
    pgnkit()
        .args(["check", "--format", "human"])
        .arg(data("check/languages.pgn"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error[illegal-move]: `Ae4+` is not a legal move for black here",
        ))
        .stdout(predicate::str::contains("languages.pgn:34:34"))
        .stdout(predicate::str::contains("^^^^"))
        // In the writer's own notation: Spanish SAN, with the check mark.
        .stdout(predicate::str::contains("help: did you mean Ce4+?"))
        .stderr(predicate::str::contains(
            "checked 1 file: 7 games (1 with errors), 1 error",
        ));
}

#[test]
fn github_annotations() {
    pgnkit()
        .args(["check", "--format", "github"])
        .arg(data("check/moves-after-end.pgn"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("::error file="))
        .stdout(predicate::str::contains(
            ",line=9,endLine=9,col=52,endColumn=55,title=moves-after-end::game 1, ply 11",
        ));
}

#[test]
fn games_records_give_status_result_and_claims() {
    let out = pgnkit()
        .args(["check", "--format", "json", "--games"])
        .arg(data("check/claims.pgn"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .filter(|v: &serde_json::Value| v["type"] == "game")
        .collect();
    assert_eq!(games.len(), 2);
    // Game 1: a threefold repetition claimable only by declaring a move
    // (the position never stood three times on the board), then the 50
    // moves, first by declaring a quiet move, then on the board.
    let claims = games[0]["claims"].as_array().expect("claims");
    assert_eq!(claims.len(), 3, "{claims:?}");
    assert_eq!(claims[0]["kind"], "threefold");
    assert_eq!(claims[0]["ply"], 61);
    assert_eq!(claims[0]["by_move"]["san"], "Ng5");
    assert_eq!(claims[0]["by_move"]["uci"], "e6g5");
    assert_eq!(claims[1]["kind"], "fifty-moves");
    assert_eq!(claims[1]["ply"], 101);
    assert!(claims[1]["by_move"]["san"].is_string());
    assert_eq!(claims[2]["kind"], "fifty-moves");
    assert_eq!(claims[2]["ply"], 102);
    assert!(claims[2].get("by_move").is_none());
    // Game 2: declared one ply before the position stands for the third time.
    let claims = games[1]["claims"].as_array().expect("claims");
    assert_eq!(claims[0]["kind"], "threefold");
    assert_eq!(claims[0]["ply"], 8);
    assert_eq!(claims[0]["by_move"]["san"], "Rg7");
    assert_eq!(claims[1]["ply"], 9);
    assert!(claims[1].get("by_move").is_none());
}

#[test]
fn standard_input_gives_the_same_diagnostics_as_the_file() {
    let path = data("check/result-mismatch.pgn");
    let from_file = pgnkit()
        .args(["check", "--format", "json", "--games"])
        .arg(&path)
        .output()
        .expect("runs");
    let from_stdin = pgnkit()
        .args(["check", "--format", "json", "--games", "-"])
        .write_stdin(std::fs::read(&path).expect("read"))
        .output()
        .expect("runs");
    let strip = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(|l| {
                l.replace(&*path.to_string_lossy(), "F")
                    .replace("<stdin>", "F")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&from_file.stdout), strip(&from_stdin.stdout));
    assert_eq!(from_stdin.status.code(), Some(1));
}

#[test]
fn output_is_identical_whatever_the_number_of_threads() {
    // A file large enough to be cut into many chunks.
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.pgn");
    let mut bytes = Vec::new();
    for name in [
        "check/unparsable.pgn",
        "check/claims.pgn",
        "check/encoding-latin1.pgn",
        "check/syntax.pgn",
        "check/crlf.pgn",
    ] {
        bytes.extend(std::fs::read(data(name)).expect("read"));
        bytes.extend_from_slice(b"\n\n");
    }
    let unit = bytes.clone();
    while bytes.len() < 6 << 20 {
        bytes.extend_from_slice(&unit);
    }
    std::fs::write(&big, &bytes).expect("write");
    let run = |j: &str| {
        let out = pgnkit()
            .args(["check", "--format", "json", "--games", "-j", j])
            .arg(&big)
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let one = run("1");
    let two = run("2");
    let four = run("4");
    assert!(one.len() > 1000);
    assert_eq!(one, two);
    assert_eq!(one, four);
}

#[test]
fn empty_input_is_zero_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, b"").expect("write");
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .arg(&empty)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(summary(&out.stdout)["games"], 0);
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .write_stdin("")
        .output()
        .expect("runs");
    assert_eq!(summary(&out.stdout)["games"], 0);
}

#[test]
fn every_game_is_counted_even_junk_and_a_truncated_end() {
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .arg(data("check/truncated-and-junk.pgn"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let s = summary(&out.stdout);
    assert_eq!(s["games"], 2);
    assert_eq!(s["games_with_errors"], 2);
}

#[test]
fn forced_input_language_reads_only_that_language() {
    // The French game reads under fr, but not under de (R is no German piece).
    pgnkit()
        .args(["check", "--format", "json", "--input-lang", "fr"])
        .write_stdin("[Event \"x\"]\n\n1.f3 Cf6 2.Rf2 d5 3.Rg3 e5 4.Rh4 Ce4+ 5.Rh5 Dg5# 0-1\n")
        .assert()
        .code(0);
    pgnkit()
        .args(["check", "--format", "json", "--input-lang", "de"])
        .write_stdin("[Event \"x\"]\n\n1.f3 Cf6 2.Rf2 d5 3.Rg3 e5 4.Rh4 Ce4+ 5.Rh5 Dg5# 0-1\n")
        .assert()
        .code(1);
}

#[test]
fn quiet_prints_no_summary_for_humans() {
    pgnkit()
        .args(["check", "--format", "human", "--quiet"])
        .arg(data("check/status-stalemate.pgn"))
        .assert()
        .code(0)
        .stderr(predicate::str::is_empty());
}

#[test]
fn deep_variations_huge_comments_and_unclosed_variations_are_read() {
    let deep = format!(
        "[Event \"deep\"]\n\n1. e4 {}{} e5 *\n",
        "(1. d4 ".repeat(100_000),
        ")".repeat(100_000)
    );
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .write_stdin(deep)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(summary(&out.stdout)["plies"], 2);

    // One level more than 100,000 is read, not replayed: one error says so.
    let deeper = format!(
        "[Event \"deep\"]\n\n1. e4 {}{} e5 *\n",
        "(1. d4 ".repeat(100_001),
        ")".repeat(100_001)
    );
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .write_stdin(deeper)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(summary(&out.stdout)["plies"], 2);
    assert_eq!(summary(&out.stdout)["errors"], 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("nested more than 100000 deep"));

    let comment = format!("[Event \"c\"]\n\n1. e4 {{{}}} e5 *\n", "x".repeat(20 << 20));
    let out = pgnkit()
        .args(["check", "--format", "json"])
        .write_stdin(comment)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(summary(&out.stdout)["plies"], 2);

    // Every unclosed variation is a syntax error; the game is still counted.
    let unclosed = format!("[Event \"u\"]\n\n1. e4 {} *\n", "(1. c4 ".repeat(20_000));
    let out = pgnkit()
        .args(["check", "--format", "human"])
        .write_stdin(unclosed)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("error[syntax]: this variation is never closed")
    );
}

/// A line of Arabic moves (piece letters in Arabic, squares in Latin
/// letters): the caret stands under the wrong move, counted in characters
/// of the line as stored (logical order), one `^` per character of the
/// token (`وa5` is three characters, four bytes).
#[test]
fn human_caret_under_an_arabic_move() {
    let line = "1. d4 e6 2. \u{62D}f3 f5 3. \u{62D}c3 \u{62D}f6 4. \u{641}g5 \u{641}e7 5. \u{641}xf6 \u{641}xf6 6. e4 fxe4 7. \u{62D}xe4 b6 8. \u{62D}e5 O-O 9. \u{641}d3 \u{641}b7 10. \u{648}h5 \u{648}e7 11. \u{648}a5 *";
    let token = "\u{648}a5";
    let pgn = format!("[Event \"ar\"]\n[Result \"*\"]\n\n{line}\n");
    let out = pgnkit()
        .args(["check", "--format", "human", "--input-lang", "ar", "-"])
        .write_stdin(pgn.clone())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let at = line.find(token).expect("the token");
    let column = line[..at].chars().count() + 1;
    assert!(
        text.contains(&format!(":4:{column}")),
        "column {column} in characters: {text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let shown = lines
        .iter()
        .position(|l| l.contains(line.trim_end_matches(" *")))
        .unwrap_or_else(|| panic!("the source line: {text}"));
    let source = lines[shown];
    let caret = lines[shown + 1];
    let token_at = source[..source.find(token).expect("token")].chars().count();
    let caret_at = caret[..caret.find('^').expect("a caret")].chars().count();
    assert_eq!(caret_at, token_at, "{text}");
    assert_eq!(caret.matches('^').count(), token.chars().count(), "{text}");
    // Detected without --input-lang: the letters speak Arabic.
    pgnkit()
        .args(["check", "--format", "human", "-"])
        .write_stdin(pgn)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("`{token}`")))
        .stdout(predicate::str::contains(format!(":4:{column}")));
}

/// A word of 30,000 characters in a real game is quoted by its ends in the
/// message, and its line (longer than `Locator::MAX_LINE`) is named by its
/// line and column, not printed: the human output stays a few lines long,
/// in `check` and `convert` alike, and the JSON token keeps the whole word.
#[test]
fn a_huge_word_is_quoted_by_its_ends_and_its_line_not_shown() {
    let real = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/repair/white.pgn"),
    )
    .expect("fixture");
    let word = format!("P{}", "(Q)".repeat(10_000));
    let game = real.replacen("1.e4 e5", &format!("1.e4 {word} e5"), 1);
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("huge-word.pgn");
    std::fs::write(&file, game).expect("write");
    for args in [&["check", "--format", "human"][..], &["convert"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args(args)
            .arg(&file)
            .output()
            .expect("pgnkit runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let human = if args[0] == "check" {
            String::from_utf8_lossy(&out.stdout).into_owned() + &stderr
        } else {
            stderr.into_owned()
        };
        assert!(
            human.contains("P(Q)(Q)(Q)") && human.contains('…'),
            "{args:?}: {human:.400}"
        );
        assert!(
            human.contains("huge-word.pgn:"),
            "{args:?}: the place is named"
        );
        assert!(
            human.len() < 4_000,
            "{args:?}: {} bytes of diagnostics",
            human.len()
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["check", "--format", "json"])
        .arg(&file)
        .output()
        .expect("pgnkit runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("\"token\":\"{word}\"")));
}
