//! Dead positions in games (Law 5.2.2) and losses on time against a player
//! who cannot checkmate (Law 6.9), as the replay rules on them: the first
//! dead position ends a game, a game of no moves from a set-up position is
//! judged in full, and a win on time the winner could never have achieved
//! over the board is a draw.

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Code, GameReport, GameResult, Options, Status, replay_game};

/// The report of the one game of `pgn`.
fn replay(pgn: &str) -> GameReport {
    let mut game = Game::default();
    assert!(Reader::new(pgn.as_bytes()).read_game(&mut game), "a game");
    replay_game(pgn.as_bytes(), &game, &Options::default())
}

fn codes(report: &GameReport, code: Code) -> usize {
    report.diagnostics.iter().filter(|d| d.code == code).count()
}

/// The textbook wall, each bishop on its own pawns' colour.
const WALL: &str = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1";

#[test]
fn the_wall_is_dead_and_a_win_recorded_in_it_is_an_error() {
    let report = replay(&format!(
        "[SetUp \"1\"]\n[FEN \"{WALL}\"]\n[Result \"1-0\"]\n\n1-0\n"
    ));
    assert_eq!(report.status, Status::DeadPosition);
    assert_eq!(report.result, Some(GameResult::Draw));
    assert_eq!(codes(&report, Code::ResultMismatch), 1);
}

#[test]
fn the_first_dead_position_of_a_played_game_ends_it() {
    // 1. h4 locks the last file: dead from there; the king moves after it
    // are legal chess played on, a warning.
    let report = replay(
        "[SetUp \"1\"]\n[FEN \"2b1k3/8/8/1p1p1p1p/1P1P1P2/8/7P/2B1K3 w - - 0 1\"]\n\
         [Result \"1/2-1/2\"]\n\n1. h4 Kd7 2. Kd2 Ke6 1/2-1/2\n",
    );
    assert_eq!(report.status, Status::DeadPosition);
    let after: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::MovesAfterDraw)
        .collect();
    assert_eq!(after.len(), 1, "{:?}", report.diagnostics);
    // Dead after 1. h4 (ply 1): the warning stands on 1... Kd7 (ply 2).
    assert_eq!(after[0].ply, Some(2));
}

#[test]
fn a_position_to_judge_gets_the_search() {
    // Black's only move takes the queen: dead after it, which no static
    // rule sees in the position itself.
    let report =
        replay("[SetUp \"1\"]\n[FEN \"7k/6Q1/8/8/8/8/8/K7 b - - 0 1\"]\n[Result \"1-0\"]\n\n1-0\n");
    assert_eq!(report.status, Status::DeadPosition);
    assert_eq!(codes(&report, Code::ResultMismatch), 1);
}

#[test]
fn a_loss_on_time_against_a_player_who_cannot_mate_is_a_draw() {
    // A wall: White's bishops, both on the dark squares of its pawns, can
    // never cross it nor take a pawn, and White can never mate; Black's
    // light bishop behind White's lines can help Black's king do it (CHA's
    // test vectors: `-B`).
    let fen = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1";
    let won_by = |result: &str| {
        replay(&format!(
            "[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\
             [Termination \"Time forfeit\"]\n\n{result}\n"
        ))
    };
    let report = won_by("1-0");
    assert_eq!(report.result, Some(GameResult::Draw));
    let ruling = report.ruling.as_ref().expect("a ruling");
    assert!(ruling.reason.contains("Law 6.9"), "{}", ruling.reason);
    assert_eq!(codes(&report, Code::ResultMismatch), 1);
    // Black can mate: the win on time stands.
    let report = won_by("0-1");
    assert_eq!(codes(&report, Code::ResultMismatch), 0);
    assert!(report.ruling.is_none());
}
