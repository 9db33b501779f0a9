//! Illegal moves that stood (`IllegalMoves::Stand`), on real games with
//! illegal moves inserted.
//!
//! `testdata/illegal/stood.pgn` is built by `scripts/make_stood_set.py`
//! from the TWIC games of `testdata/index/twic-232.pgn`: at a random ply
//! the side to move slides a piece through another, moves a piece off its
//! geometry or walks into check, and the game goes on with random legal
//! moves. The expected plies, plies of the moves that stood and final
//! FENs in `stood.expected.jsonl` are python-chess's (`Board.push` applies
//! a move without asking), not pgnkit's. The rulings expected follow the
//! Laws' articles for the pace the TimeControl tag gives (7.5.5 for
//! standard play, A.4.2 rapid, B.3 blitz).

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Code, IllegalMoves, Options, Status, replay_game};
use serde_json::Value;

const PGN: &[u8] = include_bytes!("../../../testdata/illegal/stood.pgn");
const EXPECTED: &str = include_str!("../../../testdata/illegal/stood.expected.jsonl");

fn stand() -> Options {
    Options {
        illegal_moves: IllegalMoves::Stand,
        ..Options::default()
    }
}

#[test]
fn every_illegal_move_stands_at_its_ply_and_the_game_is_replayed_to_its_end() {
    let expected: Vec<Value> = EXPECTED
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(expected.len() >= 50, "the set has {} games", expected.len());
    let mut reader = Reader::new(PGN);
    let mut game = Game::default();
    let mut seen = 0;
    let mut second_moves = 0;
    for e in &expected {
        assert!(reader.read_game(&mut game), "game {}", e["game"]);
        seen += 1;
        let report = replay_game(PGN, &game, &stand());
        let n = &e["game"];
        assert_eq!(
            u64::from(report.plies),
            e["plies"],
            "game {n}: every ply counted"
        );
        assert_eq!(
            report.fen().as_deref(),
            e["fen"].as_str(),
            "game {n}: the final position"
        );
        let stood: Vec<(u64, &str)> = e["stood"]
            .as_array()
            .expect("stood")
            .iter()
            .map(|s| {
                (
                    s["ply"].as_u64().unwrap_or(0),
                    s["side"].as_str().unwrap_or(""),
                )
            })
            .collect();
        let found: Vec<(u64, &str)> = report
            .diagnostics
            .iter()
            .map(|d| {
                assert_eq!(d.code, Code::IllegalMove, "game {n}: nothing else: {d:?}");
                assert!(d.stood, "game {n}: {d:?}");
                (
                    u64::from(d.ply.unwrap_or(0)),
                    d.side.map_or("", pgnkit_replay::diagnostic::side_name),
                )
            })
            .collect();
        assert_eq!(found, stood, "game {n}: the moves that stood");
        // The Laws' rulings, one for each move that stood.
        let articles: Vec<&str> = report.rulings.iter().map(|r| r.article).collect();
        let pace = e["pace"].as_str().unwrap_or("");
        let article = match pace {
            "standard" => "7.5.5",
            "rapid" => "A.4.2",
            _ => "B.3",
        };
        assert_eq!(articles, vec![article; stood.len()], "game {n} ({pace})");
        if pace == "standard" && stood.len() == 2 {
            second_moves += 1;
            // The second completed illegal move by one player loses (both
            // sides have their armies: the opponent can checkmate).
            assert_eq!(report.status, Status::SecondIllegalMove, "game {n}");
            let loser = stood[1].1;
            let winner = if loser == "white" { "0-1" } else { "1-0" };
            assert_eq!(report.result.map(|r| r.as_str()), Some(winner), "game {n}");
        } else {
            assert_ne!(report.status, Status::SecondIllegalMove, "game {n}");
        }
    }
    assert!(!reader.read_game(&mut game), "no game left over");
    assert_eq!(seen, expected.len());
    assert!(
        second_moves >= 10,
        "{second_moves} games with two by one player"
    );
}

#[test]
fn by_default_the_first_illegal_move_ends_the_line() {
    let mut reader = Reader::new(PGN);
    let mut game = Game::default();
    assert!(reader.read_game(&mut game));
    let report = replay_game(PGN, &game, &Options::default());
    assert_eq!(report.status, Status::Invalid);
    assert!(report.diagnostics.iter().all(|d| !d.stood));
    assert!(report.rulings.is_empty());
}

/// What a board-fed broadcast adds: a move sent twice, and the kings put
/// on the centre squares as the result signal. (Games written by hand: the
/// DGT board's convention, the kings on d4, e4, d5, e5, is from its manual.)
#[test]
fn a_broadcasts_artifacts_are_told_and_passed_over() {
    let pgn = b"1. e4 e5 2. Nf3 Nf3 Nc6 3. Bb5 a6 *\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Ke4 Kd5 1-0\n\n1. e3 e6 2. Ke4 Nc6 3. Nc3 a6 *\n";
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut codes = Vec::new();
    while reader.read_game(&mut game) {
        let report = replay_game(pgn, &game, &stand());
        let found: Vec<(&str, Option<u32>)> = report
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.ply))
            .collect();
        codes.push((found, report.plies));
    }
    assert_eq!(codes[0], (vec![("repeated-move", Some(4))], 6));
    assert_eq!(
        codes[1],
        (
            vec![("result-signal", Some(7)), ("result-signal", Some(8))],
            6
        )
    );
    // A king put on a centre square in mid-game is no signal: a move that
    // stood (the king jumps from e1 to e4).
    assert_eq!(codes[2], (vec![("illegal-move", Some(3))], 6));
}
