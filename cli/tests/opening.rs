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

/// The games (1-based) `pgnkit search FILE ARGS` selects, by their JSON
/// records (`mode`: `[]` for the index, `["--scan"]` without), and the
/// records themselves.
fn searched(file: &str, mode: &[&str], args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["search", "-q", "--format", "json", file];
    all.extend_from_slice(mode);
    all.extend_from_slice(args);
    let (out, err, code) = pgnkit(&all);
    assert!(code <= 1, "{args:?}: {err}");
    out.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|r| r["type"] == "game")
        .collect()
}

/// Whether ECO code `eco` lies in `lo..=hi` (codes of three characters).
fn within(eco: &str, lo: &str, hi: &str) -> bool {
    eco.len() == 3 && (lo..=hi).contains(&eco)
}

/// `search --eco` and `--opening` name each game from its moves, as
/// python-chess names them, with the index and without (`--scan`); the
/// JSON records carry the opening; `--eco-tag` reads the ECO tag, which
/// some real games of euroteams2011 give otherwise than their moves.
#[test]
fn search_eco_and_opening_follow_the_moves_with_and_without_the_index() {
    let dir = tempfile::tempdir().expect("dir");
    for name in ["gotd", "euroteams2011", "chess960wch06"] {
        let file = dir.path().join(format!("{name}.pgn"));
        std::fs::copy(testdata(&format!("{name}.pgn")), &file).expect("copy");
        let file = file.to_string_lossy().into_owned();
        let (_, err, code) = pgnkit(&["index", "-q", &file]);
        assert_eq!(code, 0, "{err}");
        let reference = expected(name);
        let numbers = |pass: &dyn Fn(&str, &str) -> bool| -> Vec<u64> {
            (1..)
                .zip(&reference)
                .filter(|(_, (eco, n))| eco != "-" && pass(eco, n))
                .map(|(i, _)| i)
                .collect()
        };
        let has = |text: &'static str| move |_: &str, n: &str| n.to_lowercase().contains(text);
        let cases: [(&[&str], Vec<u64>); 6] = [
            (
                &["--eco", "B20-B99"],
                numbers(&|e, _| within(e, "B20", "B99")),
            ),
            (&["--eco", "E"], numbers(&|e, _| within(e, "E00", "E99"))),
            (&["--eco", "D85"], numbers(&|e, _| e == "D85")),
            (&["--opening", "SICILIAN"], numbers(&has("sicilian"))),
            (&["--opening", "najdorf"], numbers(&has("najdorf"))),
            (
                &["--opening", "queen's gambit declined: "],
                numbers(&has("queen's gambit declined: ")),
            ),
        ];
        for (args, want) in &cases {
            for mode in [&[][..], &["--scan"][..]] {
                let got: Vec<u64> = searched(&file, mode, args)
                    .iter()
                    .map(|r| r["game"].as_u64().expect("game"))
                    .collect();
                assert_eq!(&got, want, "{name} {args:?} {mode:?}");
            }
        }
        if name != "chess960wch06" {
            assert!(cases.iter().any(|(_, w)| !w.is_empty()), "{name}");
        }
        // The records name the opening as check --games does.
        let all = searched(&file, &[], &[]);
        assert_eq!(all, searched(&file, &["--scan"], &[]), "{name}");
        for (r, (eco, n)) in all.iter().zip(&reference) {
            let named = match (r["opening"].as_str(), r["variation"].as_str()) {
                (Some(o), Some(v)) => format!("{o}: {v}"),
                (Some(o), None) => o.to_owned(),
                _ => String::new(),
            };
            if eco == "-" {
                assert!(r["opening_eco"].is_null() && named.is_empty(), "{r}");
            } else {
                assert_eq!(
                    (r["opening_eco"].as_str(), named.as_str()),
                    (Some(eco.as_str()), n.as_str())
                );
            }
        }
    }
    // --eco-tag: the tag, whatever the moves.
    let file = dir.path().join("euroteams2011.pgn");
    let file = file.to_string_lossy().into_owned();
    let tags = tag_values(&std::fs::read_to_string(&file).expect("read"), "ECO");
    let reference = expected("euroteams2011");
    // The first game whose tag names another code than its moves reach.
    let (wrong, code) = (1u64..)
        .zip(tags.iter().zip(&reference))
        .find_map(|(i, (t, (e, _)))| t.as_ref().filter(|t| *t != e).map(|t| (i, t.clone())))
        .expect("a tag that disagrees");
    let with = |pick: &dyn Fn(usize) -> bool| -> Vec<u64> {
        (1u64..)
            .zip(0..reference.len())
            .filter(|&(_, i)| pick(i))
            .map(|(n, _)| n)
            .collect()
    };
    let by_tag = with(&|i| tags[i].as_deref() == Some(code.as_str()));
    let by_moves = with(&|i| reference[i].0 == code);
    assert!(by_tag.contains(&wrong) && !by_moves.contains(&wrong));
    for mode in [&[][..], &["--scan"][..]] {
        let games = |args: &[&str]| -> Vec<u64> {
            searched(&file, mode, args)
                .iter()
                .map(|r| r["game"].as_u64().expect("game"))
                .collect()
        };
        assert_eq!(games(&["--eco-tag", &code]), by_tag, "{mode:?}");
        assert_eq!(games(&["--eco", &code]), by_moves, "{mode:?}");
    }
}
