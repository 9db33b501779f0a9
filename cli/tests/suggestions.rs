//! What `check` says of the repair's suggestions (issue 14): for humans the
//! best suggestion, and the others only where they are as good as it (at
//! most three; `--all-suggestions` prints all); in JSON every suggestion,
//! with `best`, `score` and `written` (the move in the game's notation and
//! language, which reads back as the suggested move); and a left-out move
//! as one `missing-move` error, without a `move-number` warning beside it.
//!
//! Real games: Capablanca - Corzo, Havana 1901 (`testdata/repair`) as
//! `pgnkit convert` writes it in German and on a Russian scoresheet, with
//! slips written in; the README's sample (`testdata/check/languages.pgn`).

use std::path::{Path, PathBuf};

use pgnkit_notation::{Language, parse_move};
use serde_json::Value;
use shakmaty::{Chess, Position, san::San};

mod support;
use support::{first_game, first_game_as, moves, records, run};

/// A language the game is written in: how `convert` writes it, and the
/// language its piece letters are read in.
struct Written {
    convert: &'static [&'static str],
    lang: Language,
}

const GERMAN: Written = Written {
    convert: &["--to", "san", "--lang", "de"],
    lang: Language::De,
};

const RUSSIAN: Written = Written {
    convert: &["--to", "ru-scoresheet"],
    lang: Language::Ru,
};

/// Slips written into the first game, each in German and on a Russian
/// scoresheet: (language, as played, as written, a move).
type Slips = [(&'static Written, &'static str, &'static str, &'static str); 2];

/// 20.Rc1 written Rc2: Rc1 is clearly the likeliest fix.
const CLEAR: Slips = [
    (&GERMAN, "20. Tc1", "20. Tc2", "Tc1"),
    (&RUSSIAN, "20. Лc1", "20. Лc2", "Лc1"),
];

/// 9...Nxe4 left out, the numbers written as they were: `9. Lxc3 10. Dxe4`
/// (and the move to insert).
const LEFT_OUT: Slips = [
    (&GERMAN, "9. Lxc3 Sxe4 10.", "9. Lxc3 10.", "Sxe4"),
    (&RUSSIAN, "9. С:c3 К:e4 10.", "9. С:c3 10.", "К:e4"),
];

/// The first game in `w`'s language with `from` written `to`, in a file in
/// `dir`.
fn slip(dir: &Path, w: &Written, from: &str, to: &str) -> PathBuf {
    let game = first_game_as(dir, w.convert);
    assert!(game.contains(from), "`{from}` is not in\n{game}");
    let path = dir.join("slip.pgn");
    std::fs::write(&path, game.replacen(from, to, 1)).expect("write");
    path
}

/// The `help:` lines of `check --format FORMAT ARGS... FILE`.
fn help(format: &str, args: &[&str], file: &Path) -> Vec<String> {
    let file = file.to_string_lossy();
    let mut all = vec!["check", "--format", format];
    all.extend_from_slice(args);
    all.push(&file);
    let (code, stdout, stderr) = run(&all);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // A GitHub annotation is one line: its help lines are `%0Ahelp: …`.
    stdout
        .split(['\n'])
        .flat_map(|l| l.split("%0A"))
        .filter_map(|l| l.split_once("help: ").map(|(_, h)| h.to_owned()))
        .collect()
}

/// The diagnostics and the summary of `check --format json FILE`.
fn check_json(file: &Path) -> (Vec<Value>, Value) {
    let (_, stdout, _) = run(&["check", "--format", "json", &file.to_string_lossy()]);
    let all = records(&stdout);
    let summary = all
        .iter()
        .find(|r| r["type"] == "summary")
        .cloned()
        .expect("summary");
    let diagnostics = all
        .into_iter()
        .filter(|r| r["type"] == "diagnostic")
        .collect();
    (diagnostics, summary)
}

/// The one diagnostic of `file`, an error.
fn the_error(file: &Path) -> Value {
    let (diagnostics, _) = check_json(file);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = diagnostics.into_iter().next().expect("one");
    assert_eq!(d["severity"], "error", "{d}");
    d
}

fn suggestions(d: &Value) -> &Vec<Value> {
    d["suggestions"].as_array().expect("a list")
}

/// The `written` form of the suggestions `best` says are printed.
fn best_written(d: &Value) -> Vec<&str> {
    suggestions(d)
        .iter()
        .filter(|s| s["best"] == true)
        .map(|s| s["written"].as_str().expect("written"))
        .collect()
}

/// The position before ply `ply` (1-based) of the game as played.
fn before_ply(ply: u64) -> Chess {
    let mut pos = Chess::default();
    for word in moves(&first_game()).iter().take(ply as usize - 1) {
        let m = San::from_ascii(word.as_bytes())
            .expect("SAN")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
    }
    pos
}

/// Every `replace` and `insert` suggestion of `d` has a `written` form that,
/// read in `lang` in its position, is the move its `san` names. Returns how
/// many were checked.
fn written_reads_back(d: &Value, lang: Language) -> usize {
    let mut checked = 0;
    for s in suggestions(d) {
        let ply = match s["action"].as_str() {
            Some("replace") => d["ply"].as_u64(),
            Some("insert") => s["ply"].as_u64(),
            _ => None,
        };
        let Some(ply) = ply else { continue };
        let pos = before_ply(ply);
        let san = s["san"].as_str().expect("san");
        let written = s["written"].as_str().expect("written");
        let meant = San::from_ascii(san.as_bytes())
            .expect("SAN")
            .to_move(&pos)
            .expect("legal");
        let read = parse_move(written)
            .unwrap_or_else(|e| panic!("`{written}` does not parse: {e:?}"))
            .resolve(&pos, lang)
            .unwrap_or_else(|e| panic!("`{written}` is no move here: {e:?}"));
        assert_eq!(read, meant, "`{written}` for {san}");
        checked += 1;
    }
    checked
}

#[test]
fn the_readme_sample_is_what_check_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let intro = "The first prints, for the one game with a problem:\n\n```\n";
    let start = readme.find(intro).expect("the sample's introduction") + intro.len();
    let len = readme[start..].find("\n```").expect("the sample's end");
    let sample = &readme[start..start + len];
    let out = assert_cmd::Command::cargo_bin("pgnkit")
        .expect("binary")
        .current_dir(&root)
        .args(["check", "--format", "human", "testdata/check/languages.pgn"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), sample);
}

#[test]
fn a_clear_fix_prints_one_help_line_and_all_suggestions_prints_the_others() {
    for (w, from, to, meant) in CLEAR {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = slip(dir.path(), w, from, to);
        let d = the_error(&file);
        // Others replay the game too, but clearly less likely.
        let all = suggestions(&d).len();
        assert!(all > 1, "{d}");
        assert_eq!(best_written(&d), [meant], "{d}");
        assert_eq!(d["suggestions"][0]["written"], meant);
        assert!(written_reads_back(&d, w.lang) > 1);

        let human = help("human", &[], &file);
        assert_eq!(human.len(), 1, "{human:?}");
        assert!(
            human[0].starts_with(&format!("did you mean {meant}? ")),
            "{human:?}"
        );
        assert_eq!(help("github", &[], &file), human);
        let every = help("human", &["--all-suggestions"], &file);
        assert_eq!(every.len(), all, "{every:?}");
        assert_eq!(every[0], human[0]);
    }
}

#[test]
fn a_tie_prints_the_tied_fixes_only_and_fix_leaves_the_same_ones_for_a_human() {
    // `Tf5+`: `Tg5` gives no check, which the mark written says: not tied.
    for (w, from, to, tied) in [
        (&GERMAN, "25. Tg2", "25. Tg1", &["Tg2", "Th1"][..]),
        (&GERMAN, "Tf4+ 0-1", "Tf5+ 0-1", &["Tf4+", "Te5+"][..]),
        (&RUSSIAN, "25. Лg2", "25. Лg1", &["Лg2", "Лh1"][..]),
        (&RUSSIAN, "Лf4+ 0-1", "Лf5+ 0-1", &["Лf4+", "Лe5+"][..]),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = slip(dir.path(), w, from, to);
        let d = the_error(&file);
        assert_eq!(best_written(&d), tied, "{d}");
        let all = suggestions(&d).len();
        assert!(all > tied.len(), "{d}");
        assert!(written_reads_back(&d, w.lang) >= tied.len());

        let human = help("human", &[], &file);
        let shown: Vec<String> = tied.iter().map(|m| format!("did you mean {m}? ")).collect();
        assert_eq!(human.len(), shown.len(), "{human:?}");
        for (line, start) in human.iter().zip(&shown) {
            assert!(line.starts_with(start.as_str()), "{human:?}");
        }
        assert_eq!(help("github", &[], &file), human);
        assert_eq!(help("human", &["--all-suggestions"], &file).len(), all);

        // `--fix` calls the same ones a tie.
        let (code, fixed, _) = run(&["check", "-q", "--fix", "--diff", &file.to_string_lossy()]);
        assert_eq!(code, 1);
        let listed = match tied {
            [a, b] => format!("{a} and {b}"),
            [a, b, c] => format!("{a}, {b} and {c}"),
            _ => unreachable!("two or three"),
        };
        assert!(
            fixed.contains(&format!(
                "left as written for a human: {listed} replay the game alike"
            )),
            "{fixed}"
        );
    }
}

#[test]
fn more_than_three_tied_fixes_print_three_and_say_how_many_more() {
    // Black's second move left out of a real game (Vachier Lagrave -
    // Kramnik, 2023): any of five pawn moves fits as well.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/check/missing-move.pgn");
    let d = the_error(&file);
    let best = best_written(&d);
    assert!(best.len() > 3, "{d}");
    let human = help("human", &[], &file);
    assert_eq!(human.len(), 4, "{human:?}");
    for (line, m) in human.iter().zip(&best).take(3) {
        assert!(
            line.starts_with(&format!("a move may be missing: insert {m} as ply 4 ")),
            "{human:?}"
        );
    }
    assert_eq!(
        human[3],
        format!(
            "{} more fixes fit as well (`--all-suggestions` prints them)",
            best.len() - 3
        )
    );
    assert_eq!(
        help("human", &["--all-suggestions"], &file).len(),
        best.len()
    );
}

#[test]
fn no_suggestions_prints_none_and_contradicts_all_suggestions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = slip(dir.path(), &GERMAN, "25. Tg2", "25. Tg1");
    let human = help("human", &["--no-suggestions"], &file);
    // Only what is no suggestion: the moves after it were not replayed.
    assert_eq!(human.len(), 1, "{human:?}");
    assert!(human[0].contains("were not replayed"), "{human:?}");
    // (`--fix --no-suggestions` in JSON: cli/tests/repair.rs.) The two
    // flags contradict each other: a usage error.
    let (code, _, stderr) = run(&[
        "check",
        "--no-suggestions",
        "--all-suggestions",
        &file.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_left_out_move_is_one_missing_move_error_and_no_move_number_warning() {
    for (w, from, to, inserted) in LEFT_OUT {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = slip(dir.path(), w, from, to);
        let (diagnostics, summary) = check_json(&file);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
        let d = &diagnostics[0];
        assert_eq!(d["code"], "missing-move", "{d}");
        assert_eq!(d["ply"], 18);
        assert_eq!(d["suggestions"][0]["action"], "insert");
        assert_eq!(d["suggestions"][0]["written"], inserted);
        assert_eq!(written_reads_back(d, w.lang), 1);
        assert_eq!(
            (summary["errors"].as_u64(), summary["warnings"].as_u64()),
            (Some(1), Some(0))
        );

        // A number the left-out move does not explain is still reported.
        let wrong = slip(dir.path(), w, from, &to.replace("10.", "12."));
        let (diagnostics, _) = check_json(&wrong);
        let codes: Vec<&str> = diagnostics
            .iter()
            .filter_map(|d| d["code"].as_str())
            .collect();
        assert_eq!(codes, ["move-number", "missing-move"], "{diagnostics:#?}");
    }
}
