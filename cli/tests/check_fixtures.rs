//! `pgnkit check --games --format json` on every fixture in
//! `testdata/check/` must give exactly the NDJSON stored beside it.
//!
//! `PGNKIT_BLESS=1 cargo test -p pgnkit --test check_fixtures` rewrites the
//! expected files; review the diff before committing it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/check")
}

/// The run's output without the one figure that changes from run to run.
fn normalized(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    text.lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).expect("every line is JSON");
            if let Some(o) = v.as_object_mut() {
                o.remove("seconds");
            }
            v.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn every_fixture_gives_its_expected_ndjson() {
    let dir = fixtures();
    let mut pgns: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/check exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    pgns.sort();
    assert!(pgns.len() >= 20, "fixtures missing: {pgns:?}");
    let bless = std::env::var_os("PGNKIT_BLESS").is_some();
    let mut failures = Vec::new();
    for pgn in &pgns {
        let name = pgn
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        let out = Command::cargo_bin("pgnkit")
            .expect("binary built")
            .current_dir(&dir)
            .args(["check", "--games", "--format", "json", "-j1", name])
            .output()
            .expect("pgnkit runs");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "{name}: exit {code:?}, stderr {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = normalized(&out.stdout);
        let expected_path = pgn.with_extension("ndjson");
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!("{name}:\n--- expected\n{expected}\n--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_code_status_and_claim_is_covered() {
    let mut all = String::new();
    for e in std::fs::read_dir(fixtures()).expect("testdata/check exists") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "ndjson") {
            all.push_str(&std::fs::read_to_string(&p).expect("read"));
        }
    }
    for code in [
        "unparsable-move",
        "illegal-move",
        "ambiguous-move",
        "missing-move",
        "moves-after-end",
        "result-mismatch",
        "bad-fen",
        "syntax",
        "check-mark",
        "move-number",
        "encoding",
        "moves-after-draw",
        "unsupported-variant",
    ] {
        assert!(
            all.contains(&format!("\"code\":\"{code}\"")),
            "no fixture shows {code}"
        );
    }
    for status in [
        "checkmate",
        "stalemate",
        "insufficient-material",
        "fivefold-repetition",
        "seventyfive-moves",
        "ongoing",
        "invalid",
    ] {
        assert!(
            all.contains(&format!("\"status\":\"{status}\"")),
            "no fixture shows {status}"
        );
    }
    for claim in ["threefold", "fifty-moves"] {
        assert!(
            all.contains(&format!("\"kind\":\"{claim}\"")),
            "no fixture shows the {claim} claim"
        );
    }
}
