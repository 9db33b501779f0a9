//! `--illegal-moves stand` through the binary: `check` (records, rulings,
//! `--fix`, `pgnkit.toml`), `convert` (the game as played, read back),
//! `show` (the board after the move that stood).
//!
//! The fixture `testdata/illegal/broadcast.pgn` is a blitz game whose
//! moves python-chess replays legally but for `16. Bc4` (the f1 bishop
//! through the knight on e2) and the kings put on the centre squares at the
//! end (the DGT board's result signal); the game set of
//! `crates/replay/tests/stood.rs` checks the replay against python-chess.

// The helpers below are test code too.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use pgnkit_testkit::{Run, records};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/illegal")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn pgnkit(args: &[&str]) -> Run {
    let mut cmd = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")));
    cmd.args(args);
    Run::of(cmd)
}

#[test]
fn check_reports_the_move_that_stood_and_the_ruling() {
    let file = fixture("broadcast.pgn");
    let run = pgnkit(&[
        "check",
        "--illegal-moves",
        "stand",
        "--games",
        "--format",
        "json",
        &file,
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let diagnostics = records(&run.stdout, "diagnostic");
    let codes: Vec<(&str, u64, bool)> = diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["ply"].as_u64().unwrap(),
                d["stood"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        codes,
        vec![
            ("illegal-move", 31, true),
            ("result-signal", 41, false),
            ("result-signal", 42, false)
        ]
    );
    let games = records(&run.stdout, "game");
    assert_eq!(games[0]["plies"], 40);
    assert_eq!(games[0]["rulings"][0]["article"], "B.3");
    assert_eq!(games[0]["rulings"][0]["ply"], 31);
    assert_eq!(games[0]["rulings"][0]["side"], "white");
    // The position python-chess reaches after the 40 plies, `Board.push`
    // playing 16. Bc4 as written.
    assert_eq!(
        games[0]["fen"],
        "r3nrk1/3nbppp/3p4/4p1P1/pp2P2P/1P1NqP2/PP2N3/1K1RQ2R w - - 0 21"
    );

    // By default the replay stops there, as before.
    let run = pgnkit(&["check", "--games", "--format", "json", &file]);
    let games = records(&run.stdout, "game");
    assert_eq!(games[0]["plies"], 30);
    assert!(games[0].get("rulings").is_none());
}

#[test]
fn the_settings_file_chooses_stand_and_a_bad_value_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("broadcast.pgn"), dir.path().join("game.pgn")).unwrap();
    std::fs::write(
        dir.path().join("pgnkit.toml"),
        "illegal-moves = \"stand\"\n",
    )
    .unwrap();
    let mut cmd = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")));
    cmd.current_dir(dir.path())
        .args(["check", "--format", "json", "game.pgn"]);
    let run = Run::of(cmd);
    let stood: Vec<_> = records(&run.stdout, "diagnostic")
        .into_iter()
        .filter(|d| d["stood"] == true)
        .collect();
    assert_eq!(stood.len(), 1, "{}", run.stdout);

    let run = pgnkit(&[
        "check",
        "--illegal-moves",
        "keep",
        &fixture("broadcast.pgn"),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("neither `stop` nor `stand`"),
        "{}",
        run.stderr
    );
}

#[test]
fn convert_writes_the_game_as_played_and_it_reads_back() {
    let file = fixture("broadcast.pgn");
    for to in ["san", "lan", "uci", "figurine"] {
        let run = pgnkit(&["convert", "--illegal-moves", "stand", "--to", to, &file]);
        assert!(run.code <= 1, "{to}: {}", run.stderr);
        let dir = tempfile::tempdir().unwrap();
        let converted = dir.path().join("converted.pgn");
        std::fs::write(&converted, &run.stdout).unwrap();
        let back = pgnkit(&[
            "check",
            "--illegal-moves",
            "stand",
            "--games",
            "--format",
            "json",
            &converted.to_string_lossy(),
        ]);
        let games = records(&back.stdout, "game");
        assert_eq!(games[0]["plies"], 40, "{to}: {}", run.stdout);
        assert_eq!(
            games[0]["fen"], "r3nrk1/3nbppp/3p4/4p1P1/pp2P2P/1P1NqP2/PP2N3/1K1RQ2R w - - 0 21",
            "{to}"
        );
    }
    // In SAN the bishop names its square: another bishop is on the board.
    let run = pgnkit(&["convert", "--illegal-moves", "stand", "--to", "san", &file]);
    assert!(run.stdout.contains("16. Bf1c4 "), "{}", run.stdout);
}

#[test]
fn fix_leaves_a_move_that_stood_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fixed.pgn");
    let file = fixture("broadcast.pgn");
    let run = pgnkit(&[
        "check",
        "--illegal-moves",
        "stand",
        "--fix",
        "-o",
        &out.to_string_lossy(),
        &file,
    ]);
    assert!(run.code <= 1, "{}", run.stderr);
    let fixed = std::fs::read_to_string(&out).unwrap();
    assert!(fixed.contains("16. Bc4 Bxc4"), "{fixed}");
}

#[test]
fn show_draws_the_board_after_the_move_that_stood() {
    let file = fixture("broadcast.pgn");
    let run = pgnkit(&[
        "show",
        &file,
        "--game",
        "1",
        "--illegal-moves",
        "stand",
        "--ascii",
        "--color",
        "never",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("(ply 32), Black to move"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("error[illegal-move]"), "{}", run.stdout);
}

/// Two copies of the broadcast fixture's game as a feed sends them: after
/// 20 plies, then after 22 (both unfinished).
fn broadcast_copies() -> (String, String) {
    let game = std::fs::read_to_string(fixture("broadcast.pgn")).unwrap();
    let head: String = game.lines().take(10).collect::<Vec<_>>().join("\n");
    let early = head.replace("[Result \"0-1\"]", "[Result \"*\"]");
    let early = early.split("1. e4").next().unwrap().to_owned()
        + "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be7\n8. f3 Be6 9. Qd2 O-O 10. O-O-O *\n\n";
    let later = early.replace("10. O-O-O *", "10. O-O-O Nbd7 11. g4 *");
    (early, later)
}

#[test]
fn a_game_sent_again_with_more_moves_is_told_on_the_later_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feed.pgn");
    let (early, later) = broadcast_copies();
    std::fs::write(&path, format!("{early}{later}")).unwrap();
    let file = path.to_string_lossy();
    let run = pgnkit(&[
        "check",
        "--illegal-moves",
        "stand",
        "--format",
        "json",
        &file,
    ]);
    let found: Vec<(String, u64)> = records(&run.stdout, "diagnostic")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["game"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, vec![("resent-game".to_owned(), 2)], "{}", run.stdout);
    // Not without the flag: the default output is as before.
    let run = pgnkit(&["check", "--format", "json", &file]);
    assert!(
        records(&run.stdout, "diagnostic").is_empty(),
        "{}",
        run.stdout
    );
}

#[test]
fn a_feed_of_games_sent_again_gives_the_same_warnings_whatever_the_threads_and_format() {
    // A long feed (about 500 KB: several chunks) of the broadcast's game,
    // each round sent twice, the second time with two more plies: what is
    // found must not depend on where the file is cut for the threads.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feed.pgn");
    let (early, later) = broadcast_copies();
    let rounds = 1200;
    let feed: String = (1..=rounds)
        .map(|r| {
            let round = |g: &str| g.replace("[Round ", &format!("[Round \"{r}\"]\n[Board "));
            round(&early) + &round(&later)
        })
        .collect();
    std::fs::write(&path, feed).unwrap();
    let file = path.to_string_lossy();
    let count = |jobs: &str, format: &str| {
        let run = pgnkit(&[
            "check",
            "--illegal-moves",
            "stand",
            "-j",
            jobs,
            "--format",
            format,
            &file,
        ]);
        run.stdout.matches("resent-game").count()
    };
    let one = count("1", "json");
    assert!(
        one * 100 >= rounds * 99,
        "{one} of {rounds} resent games found"
    );
    assert_eq!(count("2", "json"), one);
    assert_eq!(count("4", "json"), one);
    assert_eq!(count("2", "human"), one);
}
