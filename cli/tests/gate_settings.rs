//! The CI gate's settings: `pgnkit rules`, `check --select/--ignore/--warn/
//! --error`, `pgnkit.toml` with per-path overrides, and baselines that let a
//! database keep its known problems and fail on new ones. On real games.

use std::path::{Path, PathBuf};

mod support;
use support::{data, first_games};

use assert_cmd::Command;
use serde_json::Value;

fn pgnkit() -> Command {
    Command::cargo_bin("pgnkit").expect("binary built")
}

/// Runs `check --format json` in `dir` with `args`: the records and the
/// exit status.
fn check_in(dir: &Path, args: &[&str]) -> (Vec<Value>, i32) {
    let out = pgnkit()
        .current_dir(dir)
        .args(["check", "-q", "--format", "json"])
        .args(args)
        .output()
        .expect("runs");
    let records = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (records, out.status.code().unwrap_or(-1))
}

fn codes(records: &[Value]) -> Vec<(String, String)> {
    records
        .iter()
        .filter(|r| r["type"] == "diagnostic")
        .map(|r| {
            (
                r["code"].as_str().unwrap_or_default().to_owned(),
                r["severity"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn summary(records: &[Value]) -> &Value {
    records.last().expect("a summary")
}

fn copy(dir: &Path, from: &str, to: &str) -> PathBuf {
    let target = dir.join(to);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::copy(data(from), &target).expect("copy");
    target
}

#[test]
fn rules_lists_every_code_and_explains_one_with_its_example() {
    let out = pgnkit().arg("rules").output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let list = String::from_utf8(out.stdout).expect("UTF-8");
    for code in [
        "illegal-move",
        "check-mark",
        "moves-after-draw",
        "null-move",
    ] {
        assert!(list.lines().any(|l| l.starts_with(code)), "{code}");
    }
    let out = pgnkit()
        .args(["rules", "ambiguous-move"])
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.starts_with("ambiguous-move (error by default)"));
    assert!(text.contains("Example:"));
    assert!(
        text.contains("error[ambiguous-move]"),
        "the example is replayed"
    );
    let out = pgnkit()
        .args(["rules", "no-such-code"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal-move, ambiguous-move"));
}

#[test]
fn select_ignore_warn_and_error_choose_what_is_reported_and_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slips = copy(dir.path(), "repair/slips.pgn", "slips.pgn");
    let marks = copy(dir.path(), "fix/check-marks-kosteniuk.pgn", "marks.pgn");
    let (slips, marks) = (slips.to_str().expect("path"), marks.to_str().expect("path"));
    let (all, code) = check_in(dir.path(), &[slips]);
    assert_eq!(code, 1);
    let illegal = codes(&all)
        .iter()
        .filter(|(c, _)| c == "illegal-move")
        .count();
    assert!(illegal >= 3);

    let (only, _) = check_in(dir.path(), &["--select", "illegal-move", slips]);
    assert!(codes(&only).iter().all(|(c, _)| c == "illegal-move"));
    assert_eq!(codes(&only).len(), illegal);
    assert_eq!(summary(&only)["errors"], illegal);

    // Check marks are warnings: exit 0; as errors they fail; ignored, gone.
    let (found, code) = check_in(dir.path(), &[marks]);
    assert_eq!((code, summary(&found)["warnings"].as_u64()), (0, Some(2)));
    let (found, code) = check_in(dir.path(), &["--error", "check-mark", marks]);
    assert_eq!(code, 1);
    assert!(codes(&found).iter().all(|(_, s)| s == "error"));
    assert_eq!(summary(&found)["errors"], 2);
    let (found, code) = check_in(dir.path(), &["--ignore", "check-mark", "--strict", marks]);
    assert_eq!(code, 0);
    assert!(codes(&found).is_empty());
    assert_eq!(summary(&found)["warnings"], 0);

    // Errors turned into warnings pass, except under --strict.
    let (found, code) = check_in(
        dir.path(),
        &["--warn", "illegal-move", "--select", "illegal-move", slips],
    );
    assert_eq!((code, summary(&found)["errors"].as_u64()), (0, Some(0)));
    assert_eq!(summary(&found)["games_with_errors"], 0);
    let (_, code) = check_in(
        dir.path(),
        &[
            "--warn",
            "illegal-move",
            "--select",
            "illegal-move",
            "--strict",
            slips,
        ],
    );
    assert_eq!(code, 1);

    // An unknown code is a usage error naming the codes.
    let out = pgnkit()
        .args(["check", "--ignore", "checkmark", marks])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("check-mark"));
}

#[test]
fn the_settings_file_is_found_upwards_and_its_overrides_follow_paths() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy(dir.path(), "fix/check-marks-kosteniuk.pgn", "games/new.pgn");
    copy(
        dir.path(),
        "fix/check-marks-kosteniuk.pgn",
        "archive/1990/old.pgn",
    );
    std::fs::write(
        dir.path().join("pgnkit.toml"),
        "# the project's gate\nerror = [\"check-mark\"]\n\n[[overrides]]\npaths = [\"archive/**\"]\nignore = [\"check-mark\"]\n",
    )
    .expect("write");
    let games = dir.path().join("games");
    let (found, code) = check_in(&games, &["new.pgn", "../archive/1990/old.pgn"]);
    assert_eq!(code, 1, "check marks are errors here");
    let files: Vec<&str> = found
        .iter()
        .filter(|r| r["type"] == "diagnostic")
        .map(|r| r["file"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(files, ["new.pgn", "new.pgn"], "and ignored in the archive");
    // A flag wins over the file; --no-config reads none.
    let (_, code) = check_in(&games, &["--warn", "check-mark", "new.pgn"]);
    assert_eq!(code, 0);
    let (found, code) = check_in(&games, &["--no-config", "new.pgn"]);
    assert_eq!((code, codes(&found)[0].1.as_str()), (0, "warning"));

    // A mistake in the file names the file, its line and the key.
    std::fs::write(
        dir.path().join("pgnkit.toml"),
        "strict = true\nignor = [\"check-mark\"]\n",
    )
    .expect("write");
    let out = pgnkit()
        .current_dir(&games)
        .args(["check", "new.pgn"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("pgnkit.toml: line 2") && err.contains("ignor"),
        "{err}"
    );
}

#[test]
fn a_baseline_keeps_known_problems_quiet_and_new_ones_fail() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slips = std::fs::read_to_string(data("repair/slips.pgn")).expect("read");
    let marks = std::fs::read_to_string(data("fix/check-marks-kosteniuk.pgn")).expect("read");
    let db = dir.path().join("db.pgn");
    std::fs::write(&db, format!("{slips}\n{marks}")).expect("write");
    let (written, code) = check_in(dir.path(), &["--write-baseline", "baseline.json", "db.pgn"]);
    assert_eq!(code, 1, "the database has errors");
    let problems = codes(&written).len() as u64;
    assert!(problems >= 12);
    let (known, code) = check_in(dir.path(), &["--baseline", "baseline.json", "db.pgn"]);
    assert_eq!(code, 0);
    assert!(codes(&known).is_empty());
    assert_eq!(summary(&known)["baseline"]["known"], problems);

    // Ten real games inserted at the top, and one new error in the last game.
    let ten = first_games("convert/twic944-games700-999.pgn", 10);
    assert!(marks.contains("16.Bxh7+ Kxh7"));
    let edited = format!(
        "{ten}\n\n{slips}\n{}",
        marks.replacen("16.Bxh7+ Kxh7", "16.Bxh6+ Kxh7", 1)
    );
    std::fs::write(&db, edited).expect("write");
    let (found, code) = check_in(dir.path(), &["--baseline", "baseline.json", "db.pgn"]);
    assert_eq!(code, 1);
    let new: Vec<&Value> = found.iter().filter(|r| r["type"] == "diagnostic").collect();
    assert_eq!(new.len(), 1, "only the new error: {new:?}");
    assert_eq!(new[0]["token"], "Bxh6+");
    assert_eq!(new[0]["game"], 22);
    // The check mark later in that game is no longer reached: stale.
    let stale: Vec<&Value> = found.iter().filter(|r| r["type"] == "stale").collect();
    assert_eq!(stale.len(), 1);
    assert_eq!(stale[0]["code"], "check-mark");
    assert_eq!(summary(&found)["baseline"]["stale"], 1);

    // The baseline through a pipe (as `--baseline <(git show main:…)`
    // gives it), which cannot be read twice: the same verdict.
    let out = pgnkit()
        .current_dir(dir.path())
        .args([
            "check",
            "-q",
            "--format",
            "json",
            "--baseline",
            "/dev/stdin",
            "db.pgn",
        ])
        .write_stdin(std::fs::read(dir.path().join("baseline.json")).expect("read"))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let piped: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(summary(&piped)["baseline"], summary(&found)["baseline"]);
}

#[test]
fn the_settings_file_gives_checks_defaults_and_flags_win() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy(dir.path(), "fix/check-marks-kosteniuk.pgn", "marks.pgn");
    copy(dir.path(), "repair/slips.pgn", "slips.pgn");
    std::fs::write(
        dir.path().join("pgnkit.toml"),
        "strict = true\nformat = \"junit\"\nmax-annotations = 1\n",
    )
    .expect("write");
    let run = |args: &[&str]| {
        let out = pgnkit()
            .current_dir(dir.path())
            .args(["check", "-q"])
            .args(args)
            .output()
            .expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // Warnings fail under the file's strict, in the file's format.
    let (code, out) = run(&["marks.pgn"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("<?xml"), "{out}");
    // The file's annotation limit, and the flag's over it.
    let annotations = |out: &str| out.lines().filter(|l| l.starts_with("::error ")).count();
    let (_, out) = run(&["--format", "github", "slips.pgn"]);
    assert_eq!(annotations(&out), 1);
    let (_, out) = run(&["--format", "github", "--max-annotations", "4", "slips.pgn"]);
    assert_eq!(annotations(&out), 4);
}

#[test]
fn a_broken_baseline_is_refused_with_its_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy(dir.path(), "repair/slips.pgn", "slips.pgn");
    std::fs::write(dir.path().join("base.json"), "{\"problems\": [").expect("write");
    let out = pgnkit()
        .current_dir(dir.path())
        .args(["check", "--baseline", "base.json", "slips.pgn"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("base.json")
            && err.contains("not a pgnkit baseline")
            && err.contains("line 1"),
        "{err}"
    );
}
