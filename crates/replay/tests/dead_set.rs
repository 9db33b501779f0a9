//! The labelled dead-position set, `testdata/dead/labelled.tsv` (built by
//! `examples/dead_set.rs`; see `testdata/dead/README.md`): locked pawn
//! walls with bishops, knights, rooks and queens, walls with a breakable
//! spot, boxed-in kings, light endings, kings caught in a stalemate trap,
//! and the locked positions of real games, each labelled for each side with
//! whether it can still checkmate.
//!
//! How each was labelled, independently of the code under test: `cannot`
//! only where a plain breadth-first search over every legal move (no static
//! rule, no heuristic) visited every reachable position without meeting a
//! mate by that side; `mates` with the moves of a mate, which this test
//! plays again.
//!
//! The test: no side that can mate is ever called unable (Law 6.9), no
//! position where a side can mate is ever called dead (Law 5.2.2), and most
//! of the others (99.5%) are found within [`Budget::QUICK`].

use pgnkit_replay::dead::{Budget, Life, Verdict, can_checkmate, is_dead};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position};

/// A labelled line: the position, per side whether it can mate, and the
/// certificates (mating lines) of the sides that can.
struct Labelled {
    fen: String,
    pos: Chess,
    mates: [bool; 2],
    lines: [Vec<String>; 2],
}

fn read() -> Vec<Labelled> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/dead/labelled.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the labelled set");
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, white, black, how, _source] = fields[..] else {
                panic!("bad line {line}");
            };
            let pos: Chess = fen
                .parse::<Fen>()
                .expect("a FEN")
                .into_position(CastlingMode::Standard)
                .expect("a legal position");
            let mut lines: [Vec<String>; 2] = [Vec::new(), Vec::new()];
            let mut current = None;
            for word in how.split(' ') {
                if let Some(rest) = word.strip_prefix("white:") {
                    current = Some(0);
                    lines[0].extend((!rest.is_empty()).then(|| rest.to_owned()));
                } else if let Some(rest) = word.strip_prefix("black:") {
                    current = Some(1);
                    lines[1].extend((!rest.is_empty()).then(|| rest.to_owned()));
                } else if word.contains(':') {
                    current = None;
                } else if let Some(i) = current {
                    lines[i].push(word.to_owned());
                }
            }
            let label = |l: &str| match l {
                "mates" => true,
                "cannot" => false,
                other => panic!("label {other} in {line}"),
            };
            Labelled {
                fen: fen.to_owned(),
                pos,
                mates: [label(white), label(black)],
                lines,
            }
        })
        .collect()
}

#[test]
fn no_side_that_can_mate_is_called_unable_and_most_others_are_found() {
    let set = read();
    assert!(set.len() >= 2_000, "only {} positions", set.len());
    let (mut unable, mut unable_found) = (0, 0);
    let (mut dead, mut dead_found) = (0, 0);
    for l in &set {
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            if l.mates[i] {
                // The certificate mates.
                let mut pos = l.pos.clone();
                for u in &l.lines[i] {
                    let m = u
                        .parse::<UciMove>()
                        .expect("a UCI move")
                        .to_move(&pos)
                        .expect("a legal move");
                    pos.play_unchecked(m);
                }
                assert!(
                    pos.is_checkmate() && pos.turn() != color,
                    "the line of {color:?} in {} does not mate",
                    l.fen
                );
            }
            match can_checkmate(&l.pos, color, Budget::QUICK) {
                Verdict::Unwinnable => {
                    assert!(!l.mates[i], "{} : {color:?} can mate, called unable", l.fen);
                    unable_found += 1;
                }
                Verdict::Winnable(_) => {
                    assert!(l.mates[i], "{} : {color:?} labelled unable, mates", l.fen);
                }
                Verdict::Undecided => {}
            }
            unable += usize::from(!l.mates[i]);
        }
        let labelled_dead = !l.mates[0] && !l.mates[1];
        dead += usize::from(labelled_dead);
        match is_dead(&l.pos, Budget::QUICK) {
            Life::Dead => {
                assert!(labelled_dead, "{}: a side can mate, called dead", l.fen);
                dead_found += 1;
            }
            Life::Alive => assert!(!labelled_dead, "{}: labelled dead, alive", l.fen),
            Life::Undecided => {}
        }
    }
    eprintln!("unable found: {unable_found} of {unable}; dead found: {dead_found} of {dead}");
    assert!(unable >= 500 && dead >= 300, "{unable} unable, {dead} dead");
    assert!(
        unable_found * 1000 >= unable * 995,
        "only {unable_found} of {unable} sides unable to mate found"
    );
    assert!(
        dead_found * 1000 >= dead * 995,
        "only {dead_found} of {dead} dead positions found"
    );
}
