//! `convert --add-opening`, `--replace-eco` and the opening fields of
//! `check --games`, on real games, against the openings python-chess
//! computes for them (`testdata/opening/*.eco.tsv`, from
//! `benches/eco_reference.py`).

use std::path::PathBuf;
use std::process::Command;

fn testdata(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/opening")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Standard output, standard error and exit status of `pgnkit ARGS`.
fn pgnkit(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .output()
        .expect("pgnkit runs");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The reference's (eco, name) of each game.
fn expected(name: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(testdata(&format!("{name}.eco.tsv")))
        .expect("reference")
        .lines()
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[1].to_owned(), c[2].to_owned())
        })
        .collect()
}

/// The value of tag `name` in each game of a PGN export.
fn tag_values(pgn: &str, name: &str) -> Vec<Option<String>> {
    let head = format!("[{name} \"");
    pgn.split("\n\n[")
        .map(|g| {
            let g = if g.starts_with('[') {
                g.to_owned()
            } else {
                format!("[{g}")
            };
            g.lines()
                .find_map(|l| l.strip_prefix(&head))
                .map(|v| v.trim_end_matches("\"]").to_owned())
        })
        .collect()
}

#[test]
fn check_games_records_name_the_opening_python_chess_names() {
    let (out, _, _) = pgnkit(&[
        "check",
        "--games",
        "--format",
        "json",
        &testdata("gotd.pgn"),
    ]);
    let got: Vec<(String, String)> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|r| r["type"] == "game")
        .map(|r| {
            let name = match r["variation"].as_str() {
                Some(v) => format!("{}: {v}", r["opening"].as_str().unwrap_or_default()),
                None => r["opening"].as_str().unwrap_or_default().to_owned(),
            };
            (r["eco"].as_str().unwrap_or("-").to_owned(), name)
        })
        .collect();
    assert_eq!(got, expected("gotd"));
}

#[test]
fn chess960_records_have_no_opening() {
    let (out, _, _) = pgnkit(&[
        "check",
        "--games",
        "--format",
        "json",
        &testdata("chess960wch06.pgn"),
    ]);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .filter(|r: &serde_json::Value| r["type"] == "game")
        .collect();
    assert_eq!(records.len(), 8);
    for r in records {
        assert!(r["eco"].is_null() && r["opening"].is_null() && r["variation"].is_null());
    }
}

#[test]
fn add_opening_keeps_eco_tags_reports_the_wrong_ones_and_replaces_them_when_asked() {
    let file = testdata("euroteams2011.pgn");
    let pgn = std::fs::read_to_string(&file).expect("fixture");
    let written = tag_values(&pgn, "ECO");
    let reference = expected("euroteams2011");
    assert_eq!(written.len(), reference.len());
    // Real tags: most agree with the moves, some do not.
    let wrong = written
        .iter()
        .zip(&reference)
        .filter(|(w, (eco, _))| w.as_deref().is_some_and(|w| w != eco))
        .count();
    assert!(wrong > 0 && wrong < reference.len() / 2, "{wrong}");

    let (kept, err, code) = pgnkit(&["convert", "--add-opening", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        tag_values(&kept, "ECO"),
        written
            .iter()
            .zip(&reference)
            .map(|(w, (e, _))| Some(w.clone().unwrap_or_else(|| e.clone())))
            .collect::<Vec<_>>()
    );
    assert_eq!(err.matches("warning[eco-mismatch]").count(), wrong, "{err}");

    let (replaced, _, _) = pgnkit(&[
        "convert",
        "--add-opening",
        "--replace-eco",
        "--quiet",
        &file,
    ]);
    let ecos: Vec<Option<String>> = reference.iter().map(|(e, _)| Some(e.clone())).collect();
    assert_eq!(tag_values(&replaced, "ECO"), ecos);
    let openings: Vec<Option<String>> = reference
        .iter()
        .map(|(_, n)| Some(n.split(':').next().unwrap_or(n).trim().to_owned()))
        .collect();
    assert_eq!(tag_values(&replaced, "Opening"), openings);
    let variations: Vec<Option<String>> = reference
        .iter()
        .map(|(_, n)| n.split_once(':').map(|(_, v)| v.trim().to_owned()))
        .collect();
    assert_eq!(tag_values(&replaced, "Variation"), variations);
    // The moves are those of a conversion without the flag.
    let (plain, _, _) = pgnkit(&["convert", "--quiet", &file]);
    let moves = |pgn: &str| -> Vec<String> {
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(moves(&replaced), moves(&plain));
}

#[test]
fn add_opening_needs_pgn_output() {
    let (_, err, code) = pgnkit(&[
        "convert",
        "--add-opening",
        "--format",
        "json",
        &testdata("gotd.pgn"),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--add-opening"), "{err}");
}
