//! `pgnkit check --format sarif|junit|gitlab|github`: the CI formats say
//! what the JSON records say, at the same places, with fingerprints that
//! survive unrelated edits. (The official SARIF schema and a real JUnit
//! reader check the same outputs in CI: `scripts/ci_formats_check.py`.)

use std::path::{Path, PathBuf};

mod support;
use support::{data, first_games};

use assert_cmd::Command;
use serde_json::Value;

fn pgnkit() -> Command {
    Command::cargo_bin("pgnkit").expect("binary built")
}

/// Real games with scoresheet slips, real games with wrong check marks.
fn inputs() -> Vec<PathBuf> {
    vec![
        data("repair/slips.pgn"),
        data("repair/stray.pgn"),
        data("fix/check-marks-kosteniuk.pgn"),
        data("fix/check-marks-eco-de-latin1.pgn"),
        data("convert/twic944-games700-999.pgn"),
    ]
}

fn check(format: &str, files: &[PathBuf]) -> (Vec<u8>, i32) {
    let out = pgnkit()
        .args(["check", "-q", "--format", format])
        .args(files)
        .output()
        .expect("runs");
    (out.stdout, out.status.code().unwrap_or(-1))
}

fn json_diagnostics(files: &[PathBuf]) -> Vec<Value> {
    let (out, _) = check("json", files);
    String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|v| v["type"] == "diagnostic")
        .collect()
}

fn sarif_results(files: &[PathBuf]) -> Vec<Value> {
    let (out, _) = check("sarif", files);
    let doc: Value = serde_json::from_slice(&out).expect("one SARIF document");
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let results = run["results"].as_array().expect("results").clone();
    for r in &results {
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], r["ruleId"], "ruleIndex names the rule");
    }
    results
}

#[test]
fn sarif_has_a_result_for_every_diagnostic_at_its_place_with_its_end() {
    let files = inputs();
    let json = json_diagnostics(&files);
    let sarif = sarif_results(&files);
    assert!(json.len() >= 18, "the inputs have problems");
    assert_eq!(json.len(), sarif.len());
    for (j, s) in json.iter().zip(&sarif) {
        assert_eq!(s["ruleId"], j["code"]);
        assert_eq!(s["level"], j["severity"]);
        assert_eq!(s["properties"]["game"], j["game"]);
        let place = &s["locations"][0]["physicalLocation"];
        let region = &place["region"];
        assert_eq!(region["startLine"], j["line"]);
        assert_eq!(region["startColumn"], j["column"]);
        assert_eq!(region["byteOffset"], j["byte"]);
        let file = j["file"].as_str().expect("file");
        assert!(
            place["artifactLocation"]["uri"]
                .as_str()
                .expect("uri")
                .ends_with(
                    Path::new(file)
                        .file_name()
                        .and_then(|n| n.to_str())
                        .expect("name")
                )
        );
        // A move token ends on its line, as many characters on as it has.
        if let Some(token) = j["token"].as_str() {
            assert_eq!(region["endLine"], j["line"]);
            let width = token.chars().count() as u64;
            assert_eq!(
                region["endColumn"].as_u64(),
                Some(j["column"].as_u64().expect("column") + width),
                "{token}"
            );
        }
    }
}

#[test]
fn a_problem_keeps_its_fingerprint_when_games_are_added_before_it_and_lines_rewrapped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slips = std::fs::read_to_string(data("repair/slips.pgn")).expect("slips");
    // Ten real games before the same games, whose movetext is wrapped anew:
    // a line break after every move number.
    let ten = first_games("convert/twic944-games700-999.pgn", 10);
    let rewrapped = slips.replace(". ", ".\n");
    let edited = dir.path().join("edited.pgn");
    std::fs::write(&edited, format!("{ten}\n\n{rewrapped}")).expect("write");
    let prints = |file: &Path| -> Vec<(String, String)> {
        sarif_results(&[file.to_path_buf()])
            .iter()
            .map(|r| {
                (
                    r["ruleId"].as_str().unwrap_or_default().to_owned(),
                    r["partialFingerprints"]["pgnkit/v1"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                )
            })
            .collect()
    };
    let before = prints(&data("repair/slips.pgn"));
    let after = prints(&edited);
    assert!(before.len() >= 10);
    for p in &before {
        assert!(after.contains(p), "{p:?} lost its fingerprint");
    }
    // The places did move.
    let line = |file: &Path| {
        sarif_results(&[file.to_path_buf()])[0]["locations"][0]
        ["physicalLocation"]["region"]["startLine"]
        .clone()
    };
    assert_ne!(line(&data("repair/slips.pgn")), line(&edited));
}

#[test]
fn junit_has_a_test_case_per_file_failed_by_errors_in_error_when_unreadable() {
    let files = [
        data("repair/slips.pgn"),
        data("fix/check-marks-kosteniuk.pgn"),
        data("repair/white.pgn"),
        data("check/no-such-file.pgn"),
    ];
    let (out, code) = check("junit", &files);
    assert_eq!(code, 2, "a file could not be read");
    let xml = String::from_utf8(out).expect("UTF-8");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
    assert!(xml.contains("tests=\"4\" failures=\"1\" errors=\"1\""));
    assert_eq!(xml.matches("<testcase ").count(), 4);
    assert_eq!(xml.matches("<failure ").count(), 1);
    assert_eq!(xml.matches("<error ").count(), 1);
    // The failure lists each error of the file (10 games, one slip each).
    let failure =
        &xml[xml.find("<failure ").expect("failure")..xml.find("</failure>").expect("end")];
    assert_eq!(failure.matches(": error[").count(), 10);
    // Warnings (check marks) do not fail a file, except under --strict.
    let strict = pgnkit()
        .args(["check", "-q", "--strict", "--format", "junit"])
        .arg(data("fix/check-marks-kosteniuk.pgn"))
        .output()
        .expect("runs");
    let xml = String::from_utf8(strict.stdout).expect("UTF-8");
    assert!(xml.contains("tests=\"1\" failures=\"1\" errors=\"0\""));
}

#[test]
fn gitlab_issues_are_unique_and_say_where_the_token_begins_and_ends() {
    let files = inputs();
    let json = json_diagnostics(&files);
    let (out, _) = check("gitlab", &files);
    let issues: Vec<Value> = serde_json::from_slice(&out).expect("a JSON array");
    assert_eq!(issues.len(), json.len());
    let mut prints: Vec<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().expect("fingerprint"))
        .collect();
    prints.sort_unstable();
    prints.dedup();
    assert_eq!(prints.len(), issues.len(), "fingerprints are unique");
    for (i, j) in issues.iter().zip(&json) {
        assert_eq!(i["check_name"], j["code"]);
        let severity = if j["severity"] == "error" {
            "major"
        } else {
            "minor"
        };
        assert_eq!(i["severity"], severity);
        assert_eq!(i["location"]["path"], j["file"]);
        assert_eq!(i["location"]["positions"]["begin"]["line"], j["line"]);
        assert_eq!(i["location"]["positions"]["begin"]["column"], j["column"]);
        assert!(i["location"]["positions"]["end"]["column"].is_u64());
    }
}

#[test]
fn github_annotations_stop_at_the_limit_and_the_job_summary_counts_every_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let summary = dir.path().join("summary.md");
    let files = inputs();
    let json = json_diagnostics(&files);
    let out = pgnkit()
        .args([
            "check",
            "-q",
            "--format",
            "github",
            "--max-annotations",
            "5",
        ])
        .args(&files)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let annotations = text
        .lines()
        .filter(|l| l.starts_with("::error ") || l.starts_with("::warning "))
        .count();
    assert_eq!(annotations, 5);
    assert!(text.contains(&format!(
        "::notice title=pgnkit::{} more problems",
        json.len() - 5
    )));
    assert!(text.contains(",endLine=") && text.contains(",endColumn="));
    let md = std::fs::read_to_string(&summary).expect("a job summary");
    for code in ["illegal-move", "check-mark"] {
        let n = json.iter().filter(|j| j["code"] == code).count();
        assert!(n > 0);
        let row = format!("| `{code}` | ");
        let line = md
            .lines()
            .find(|l| l.starts_with(&row))
            .expect("a row per code");
        assert!(line.ends_with(&format!("| {n} |")), "{line}");
    }
    assert!(md.contains("Games with the most problems"));
}

#[test]
fn game_records_are_refused_with_the_document_formats() {
    let out = pgnkit()
        .args(["check", "--games", "--format", "sarif"])
        .arg(data("repair/slips.pgn"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--games"));
}

#[test]
fn sarif_names_an_unreadable_input_as_a_tool_notification() {
    let (out, code) = check(
        "sarif",
        &[data("repair/slips.pgn"), data("check/no-such-file.pgn")],
    );
    assert_eq!(code, 2);
    let doc: Value = serde_json::from_slice(&out).expect("one SARIF document");
    let invocation = &doc["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let note = &invocation["toolExecutionNotifications"][0];
    assert!(
        note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("uri")
            .ends_with("no-such-file.pgn")
    );
    assert!(doc["runs"][0]["results"].as_array().expect("results").len() >= 10);
}
