//! The static rules of the dead-position analysis against the test vectors
//! of the Chess Unwinnability Analyzer (CHA, Miguel Ambrona,
//! `testdata/dead/cha-test-vectors.txt`): each line says which sides can
//! still checkmate (`W`, `B`, `-`), as CHA's author labelled them, not
//! pgnkit. The rules (no search: [`Budget::RULES`]) may leave a position
//! undecided, never contradict a label.

use pgnkit_replay::dead::{Budget, Life, Verdict, can_checkmate, is_dead};
use pgnkit_replay::setup::start;
use shakmaty::Color;

#[test]
fn the_rules_never_call_a_side_that_can_mate_unable() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/dead/cha-test-vectors.txt"
    ))
    .expect("the test vectors");
    let (mut positions, mut dead, mut dead_found, mut unable, mut unable_found) = (0, 0, 0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (label, fen) = line.split_once(' ').expect("a label and a FEN");
        let pos = start(None, Some(fen))
            .expect("CHA's positions set up")
            .position;
        positions += 1;
        let label = label.as_bytes();
        for (color, can) in [
            (Color::White, label[0] == b'W'),
            (Color::Black, label[1] == b'B'),
        ] {
            let verdict = can_checkmate(&pos, color, Budget::RULES);
            if can {
                assert_ne!(verdict, Verdict::Unwinnable, "{color:?} can mate: {line}");
            } else {
                unable += 1;
                unable_found += usize::from(verdict == Verdict::Unwinnable);
            }
        }
        let life = is_dead(&pos, Budget::RULES);
        if label == b"--" {
            dead += 1;
            dead_found += usize::from(life == Life::Dead);
        } else {
            assert_ne!(life, Life::Dead, "not dead: {line}");
        }
    }
    assert_eq!(
        positions, 1803,
        "every vector set up, too much material included"
    );
    // What the rules alone decide (636 of 806 dead positions and 1,425
    // of 1,857 unable sides when the stalemate trap came): a floor, so that
    // a change that loses some is seen.
    assert!(
        dead_found * 100 >= dead * 78,
        "{dead_found} of {dead} dead positions"
    );
    assert!(
        unable_found * 100 >= unable * 76,
        "{unable_found} of {unable} unable sides"
    );
}
