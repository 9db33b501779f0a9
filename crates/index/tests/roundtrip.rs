//! Build an index of real games and read everything back.

#![allow(clippy::unwrap_used)] // test helpers: a failure is a test failure

use std::path::Path;

use pgnkit_index::{
    Batch, Builder, Filter, Fingerprint, GameFacts, Index, IndexError, TextTag, index_path,
};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/index")
            .join(name),
    )
    .unwrap()
}

/// Indexes `pgn` (split into batches of `per_batch` games, as chunks would
/// be) and returns the facts and keys of every game too.
fn build(
    dir: &Path,
    pgn: &[u8],
    per_batch: usize,
) -> (std::path::PathBuf, Vec<GameFacts<'static>>, Vec<Vec<u64>>) {
    let path = dir.join("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    // Every language detected; no repair.
    let options = Options {
        suggestions: false,
        ..Options::default()
    };
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut builder = Builder::new();
    let mut batch = Batch::new();
    let (mut all, mut keys) = (Vec::new(), Vec::new());
    while reader.read_game(&mut game) {
        let report = replay_game(pgn, &game, &options);
        let facts = GameFacts::new(pgn, 0, &game, Some(&report));
        batch.push(&facts, &report.keys);
        all.push(facts.into_owned());
        keys.push(report.keys.clone());
        if batch.len() == per_batch {
            builder.add(std::mem::take(&mut batch)).unwrap();
        }
    }
    builder.add(batch).unwrap();
    let summary = builder
        .write(&index_path(&path), &Fingerprint::of(&path).unwrap())
        .unwrap();
    assert_eq!(summary.games, all.len() as u64);
    (path, all, keys)
}

#[test]
fn every_field_and_every_position_comes_back() {
    for name in ["twic-232.pgn", "dortmund-latin1.pgn", "chess960rwch.pgn"] {
        let dir = tempfile::tempdir().unwrap();
        let pgn = fixture(name);
        let (path, facts, keys) = build(dir.path(), &pgn, 17);
        let now = Fingerprint::of(&path).unwrap();
        let index = Index::open(&index_path(&path), &path, &now).unwrap();
        index.verify_games().unwrap();
        index.verify_strings().unwrap();
        assert_eq!(index.games(), facts.len() as u64);
        let distinct: usize = keys
            .iter()
            .map(|k| {
                let mut k = k.clone();
                k.sort_unstable();
                k.dedup();
                k.len()
            })
            .sum();
        assert_eq!(
            index.positions(),
            distinct as u64,
            "{name}: repeats are stored once"
        );
        let mut by_key: std::collections::HashMap<u64, Vec<u32>> = Default::default();
        for (n, ks) in keys.iter().enumerate() {
            for &k in ks {
                let v = by_key.entry(k).or_default();
                if v.last() != Some(&(n as u32)) {
                    v.push(n as u32);
                }
            }
        }
        for (n, f) in facts.iter().enumerate() {
            let g = index.game(n as u32);
            assert_eq!(g.offset(), f.offset);
            assert_eq!(g.length(), f.length);
            assert_eq!(g.plies(), f.plies);
            assert_eq!(g.date(), f.date);
            assert_eq!(g.eco(), f.eco);
            assert_eq!(g.outcome(), f.outcome);
            assert_eq!((g.white_elo(), g.black_elo()), (f.white_elo, f.black_elo));
            assert_eq!(g.status(), f.status);
            for tag in TextTag::ALL {
                assert_eq!(g.text(tag), f.text(tag), "{name} game {n}");
            }
            assert_eq!(&g.facts(), f, "{name} game {n}");
            let bytes = &pgn[f.offset as usize..(f.offset + u64::from(f.length)) as usize];
            assert!(
                bytes.starts_with(b"[") || bytes.starts_with(b"{"),
                "{name} game {n}"
            );
            for &k in &keys[n] {
                let games = index.games_with_position(k).unwrap();
                assert!(games.contains(&(n as u32)), "{name} game {n} key {k:x}");
                // Exactly the games that have this key.
                assert_eq!(&games, &by_key[&k]);
            }
        }
        assert!(
            index
                .games_with_position(0x0123_4567_89ab_cdef)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            index.search(&Filter::default(), None).unwrap().len(),
            facts.len()
        );
        assert_eq!(
            index.search(&Filter::default(), Some(5)).unwrap(),
            [0, 1, 2, 3, 4]
        );
    }
}

#[test]
fn an_index_of_another_file_is_stale() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _, _) = build(dir.path(), &fixture("chess960rwch.pgn"), 100);
    let other = dir.path().join("other.pgn");
    std::fs::write(&other, fixture("twic-232.pgn")).unwrap();
    let now = Fingerprint::of(&other).unwrap();
    let err = Index::open(&index_path(&path), &other, &now).unwrap_err();
    assert!(matches!(err, IndexError::Stale { .. }), "{err}");
    let err = Index::open(&index_path(&other), &other, &now).unwrap_err();
    assert!(matches!(err, IndexError::Missing(_)), "{err}");
}

#[test]
fn an_index_of_the_older_format_is_refused_with_the_advice_to_rebuild_it() {
    let dir = tempfile::tempdir().unwrap();
    let (path, facts, keys) = build(dir.path(), &fixture("twic-232.pgn"), 100);
    let now = Fingerprint::of(&path).unwrap();
    let index = Index::open(&index_path(&path), &path, &now).unwrap();
    // The line fingerprint of each game is the one of its positions.
    for (n, k) in keys.iter().enumerate() {
        let line = index.game(n as u32).line();
        assert_eq!(line, pgnkit_index::mainline::line_fingerprint(k));
        assert_eq!(line, facts[n].line);
    }
    drop(index);
    let mut bytes = std::fs::read(index_path(&path)).unwrap();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(index_path(&path), &bytes).unwrap();
    let err = Index::open(&index_path(&path), &path, &now).unwrap_err();
    assert!(matches!(err, IndexError::NotAnIndex { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("version 1") && text.contains("rebuild it with `pgnkit index`"),
        "{text}"
    );
}
