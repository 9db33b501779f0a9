//! The labelled game-end test set (`testdata/dead/positions.tsv`, built by
//! `examples/dead_set.rs`): no winnable position is called dead, and at
//! least 99% of the dead ones are found, as `check` decides at the end of a
//! game.

use pgnkit_replay::dead::{Budget, Life, is_dead};
use pgnkit_replay::{Status, outcome};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

#[test]
fn no_winnable_position_is_dead_and_dead_ones_are_found() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/dead/positions.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the test set");
    let (mut dead, mut found, mut winnable) = (0, 0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, label, how] = fields[..] else {
            panic!("bad line {line}");
        };
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let status = outcome::final_status(&pos).status;
        let called_dead = matches!(status, Status::DeadPosition | Status::InsufficientMaterial);
        // The module itself, without the gate `check` puts before the
        // search, on every composed position (a small budget keeps the test
        // quick; on the final positions of real games it would only run out).
        let life = if how.starts_with("composed") {
            is_dead(&pos, Budget::nodes(500))
        } else {
            Life::Undecided
        };
        match label {
            "winnable" => {
                winnable += 1;
                // The certificate: the line mates.
                let moves = how.split_once(':').map_or("", |(_, m)| m);
                let mut q = pos.clone();
                for u in moves.split_whitespace() {
                    let m = u.parse::<UciMove>().unwrap().to_move(&q).unwrap();
                    q.play_unchecked(m);
                }
                assert!(q.is_checkmate(), "certificate of {fen} does not mate");
                assert!(!called_dead, "{fen} is winnable ({how}) but called dead");
                assert_ne!(
                    life,
                    Life::Dead,
                    "{fen} is winnable ({how}) but is_dead says dead"
                );
            }
            "dead" => {
                dead += 1;
                assert_ne!(
                    life,
                    Life::Alive,
                    "{fen} is dead ({how}) but is_dead says alive"
                );
                if called_dead {
                    found += 1;
                }
            }
            other => panic!("label {other}"),
        }
    }
    assert!(dead + winnable >= 1000, "{dead} dead, {winnable} winnable");
    assert!(
        found * 100 >= dead * 99,
        "only {found} of {dead} dead positions found"
    );
}
