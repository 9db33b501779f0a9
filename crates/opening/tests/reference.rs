//! pgnkit's classification of real games against the one python-chess
//! computes independently (`benches/eco_reference.py`, checked in as
//! `testdata/opening/NAME.eco.tsv`).

use std::path::PathBuf;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opening")
        .join(name)
}

/// (eco, name) of each game, `-` for none.
type Named = Vec<(String, String)>;

/// (eco, name) of every game of `NAME.pgn` as pgnkit classifies it, `-`
/// for none, and as the reference file has it.
fn both(name: &str) -> (Named, Named) {
    let pgn = std::fs::read(testdata(&format!("{name}.pgn"))).expect("the fixture");
    let mut reader = Reader::new(&pgn);
    let mut game = Game::default();
    let mut ours = Vec::new();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(&pgn, &game, &Options::default());
        ours.push(match pgnkit_opening::classify(&game, &report) {
            Some(o) => (o.eco().to_owned(), o.name().to_owned()),
            None => ("-".to_owned(), "-".to_owned()),
        });
    }
    let expected =
        std::fs::read_to_string(testdata(&format!("{name}.eco.tsv"))).expect("the reference");
    let theirs = expected
        .lines()
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[1].to_owned(), cols[2].to_owned())
        })
        .collect();
    (ours, theirs)
}

#[test]
fn real_games_are_named_as_python_chess_names_them() {
    for name in ["gotd", "euroteams2011"] {
        let (ours, theirs) = both(name);
        assert_eq!(ours.len(), theirs.len(), "{name}");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name}.pgn game {}", i + 1);
        }
        // Real games: every one reaches a named position, and not all the same.
        assert!(ours.iter().all(|(eco, _)| eco != "-"), "{name}");
        let mut codes: Vec<&String> = ours.iter().map(|(eco, _)| eco).collect();
        codes.sort();
        codes.dedup();
        assert!(codes.len() > 20, "{name}: {codes:?}");
    }
}

#[test]
fn chess960_games_get_no_opening() {
    let (ours, theirs) = both("chess960wch06");
    assert_eq!(ours.len(), 8);
    assert_eq!(ours, theirs);
    assert!(ours.iter().all(|(eco, _)| eco == "-"));
}

#[test]
fn a_game_from_a_position_gets_none_and_a_transposition_is_named() {
    let pgn = b"[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 c5 *\n\n1. Nf3 c5 2. e4 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n";
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut found = Vec::new();
    while reader.read_game(&mut game) {
        let report = replay_game(pgn, &game, &Options::default());
        found.push(pgnkit_opening::classify(&game, &report).map(|o| o.name()));
    }
    // The Najdorf's position, reached from the Zukertort.
    assert_eq!(found, [None, Some("Sicilian Defense: Najdorf Variation")]);
}
