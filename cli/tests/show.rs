//! `pgnkit show`: the board of one position of a real game, the moves
//! written around it and the problems found there, with and without
//! colour, in Unicode and ASCII (insta snapshots, in `snapshots/`), and
//! the same board as SVG.

use assert_cmd::Command;

/// `pgnkit show ARGS` from the repository root: exit status, output, error.
fn show(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("show")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The output of a run that succeeded.
fn shown(args: &[&str]) -> String {
    let (code, out, err) = show(args);
    assert_eq!(code, 0, "pgnkit show {args:?}: {err}");
    out
}

const MISSING: &str = "testdata/check/missing-move.pgn";
const AMBIGUOUS: &str = "testdata/check/illegal-ambiguous.pgn";

#[test]
fn a_left_out_move_at_the_ply_of_the_problem() {
    // Vachier Lagrave - Kramnik, Chessable Masters 2023: `3.Kg3` cannot
    // follow `2.Kf2 e5`: black's second move is missing.
    insta::assert_snapshot!(
        "missing_plain",
        shown(&[MISSING, "--game", "1", "--color", "never"])
    );
    insta::assert_snapshot!(
        "missing_color",
        shown(&[MISSING, "--game", "1", "--color", "always"])
    );
}

#[test]
fn an_ambiguous_move_in_ascii() {
    let args = [AMBIGUOUS, "--game", "2", "--ascii"];
    insta::assert_snapshot!(
        "ambiguous_ascii",
        shown(&[&args[..], &["--color", "never"]].concat())
    );
    insta::assert_snapshot!(
        "ambiguous_ascii_color",
        shown(&[&args[..], &["--color", "always"]].concat())
    );
}

#[test]
fn any_ply_of_the_main_line() {
    // White's view before 6. Bd3 (ply 11) of game 1: no problem there.
    insta::assert_snapshot!(
        "ply_11",
        shown(&[AMBIGUOUS, "--game", "1", "--ply", "11", "--color", "never"])
    );
    // Ply 1 is the start position; the last is after the last move.
    let start = shown(&[
        AMBIGUOUS, "--game", "1", "--ply", "1", "--ascii", "--color", "never",
    ]);
    assert!(start.contains("\n8 r n b q k b n r\n"), "{start}");
    let (code, _, err) = show(&[AMBIGUOUS, "--game", "2", "--ply", "27"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("replayed to ply 25: --ply goes from 1 to 26"),
        "{err}"
    );
}

#[test]
fn no_such_game() {
    let (code, _, err) = show(&[AMBIGUOUS, "--game", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("has 3 games: there is no game 4"), "{err}");
    let (code, _, err) = show(&[AMBIGUOUS, "--game", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("numbered from 1"), "{err}");
}

#[test]
fn the_svg_board_is_the_text_board() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("board.svg");
    let text = shown(&[
        AMBIGUOUS,
        "--game",
        "2",
        "--ascii",
        "--color",
        "never",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let board: String = text.lines().skip(3).take(8).collect();
    let pieces = board.chars().filter(char::is_ascii_alphabetic).count();
    assert_eq!(svg.matches("class=\"piece\"").count(), pieces);
    // Both suggestions that fit (Ndf6 and Ngf6) are drawn as arrows.
    assert_eq!(svg.matches("class=\"arrow\"").count(), 2);
}
