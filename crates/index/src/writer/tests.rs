//! The builder's behaviour: batches in, an index file out, in memory or
//! spilled, byte for byte the same.

use std::path::Path;

use super::partitions::{LARGE_SHARE_BYTES, LARGE_SORT_BYTES, WHOLE_SORT_BYTES};
use super::spilling::SpilledGames;
use super::*;
use crate::fingerprint::Fingerprint;
use crate::layout;
use crate::spill::PARTITIONS;

/// A batch taken by a builder is left empty (its games, names and
/// positions), to be filled again: nothing of one chunk is added again
/// with the next.
#[test]
fn a_taken_batch_is_left_empty() {
    let dir = tempfile::tempdir().unwrap();
    for memory in [None, Some(0), Some(1 << 30)] {
        let mut builder = match memory {
            None => Builder::new(),
            Some(m) => Builder::bounded(m, dir.path()),
        };
        for mut batch in random_batches(3) {
            builder.take(&mut batch).unwrap();
            assert!(batch.is_empty());
            assert_eq!(batch.names.iter().count(), 0);
            assert_eq!((batch.positions, batch.entries.bytes()), (0, 0));
            assert!(batch.keys.is_empty() && batch.ends.is_empty() && !batch.sealed);
        }
    }
}

/// Enough positions for 2^10 buckets: the counting sort by bucket within
/// each partition, the directory and the bucket checksums at scale.
#[test]
fn many_buckets_find_exactly_their_games() {
    use crate::reader::{Index, index_path};
    use pgnkit_facts::{Date, GameFacts};
    use pgnkit_pgn::GameResult;

    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("synthetic.pgn");
    std::fs::write(&pgn, b"*\n").unwrap();
    let facts = GameFacts {
        offset: 0,
        length: 1,
        texts: Default::default(),
        date: Date::UNKNOWN,
        eco: None,
        opening: None,
        white_elo: 0,
        black_elo: 0,
        outcome: Some(GameResult::Unknown),
        plies: 0,
        status: None,
        errors: 0,
        line: 0,
        tagged: 0,
        annotation: 0,
    };
    // xorshift keys; game g has keys k(g, 0..100) plus one repeat, and
    // every 7th game shares key SHARED.
    const SHARED: u64 = 0x8000_0000_0000_0001;
    let key = |g: u64, i: u64| {
        let mut x = (g << 8 | i).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut builder = Builder::new();
    for chunk in 0..3u64 {
        let mut batch = Batch::new();
        for local in 0..1000u64 {
            let g = chunk * 1000 + local;
            let mut keys: Vec<u64> = (0..100).map(|i| key(g, i)).collect();
            keys.push(key(g, 3));
            if g % 7 == 0 {
                keys.push(SHARED);
            }
            batch.push(&facts, &keys);
        }
        builder.add(batch).unwrap();
    }
    let summary = builder
        .write(&index_path(&pgn), &Fingerprint::of(&pgn).unwrap())
        .unwrap();
    assert_eq!(summary.positions, 3000 * 100 + 3000u64.div_ceil(7));
    let index = Index::open(&index_path(&pgn), &pgn, &Fingerprint::of(&pgn).unwrap()).unwrap();
    assert_eq!(layout::bucket_bits(index.positions()), 10);
    for g in (0..3000u64).step_by(37) {
        for i in [0, 3, 50, 99] {
            assert_eq!(index.games_with_position(key(g, i)).unwrap(), [g as u32]);
        }
    }
    let shared: Vec<u32> = (0..3000).filter(|g| g % 7 == 0).collect();
    assert_eq!(index.games_with_position(SHARED).unwrap(), shared);
    assert!(index.games_with_position(key(5000, 1)).unwrap().is_empty());
}

/// A deterministic pseudo-random stream (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A directory holding a PGN file `games.pgn`, and its fingerprint
/// (what an index records of the file it indexes).
fn a_pgn_file() -> (tempfile::TempDir, Fingerprint) {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, b"*\n").unwrap();
    let fingerprint = Fingerprint::of(&pgn).unwrap();
    (dir, fingerprint)
}

/// Random batches: games with random keys, keys shared by many games
/// (common openings), repeats within a game, games without positions,
/// empty batches, names from a small and a large pool.
fn random_batches(seed: u64) -> Vec<Batch> {
    use pgnkit_facts::{Date, GameFacts};
    use pgnkit_pgn::GameResult;
    use std::borrow::Cow;

    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let common: Vec<u64> = (0..40).map(|_| rng.next()).collect();
    let mut offset = 0;
    (0..1 + rng.below(6))
        .map(|_| {
            let mut batch = Batch::new();
            for _ in 0..rng.below(300) {
                let mut keys = Vec::new();
                for _ in 0..rng.below(120) {
                    keys.push(match rng.below(10) {
                        0..=2 => common[rng.below(40) as usize],
                        3 if !keys.is_empty() => keys[rng.below(keys.len() as u64) as usize],
                        _ => rng.next(),
                    });
                }
                let mut texts: [Cow<'_, str>; 6] = Default::default();
                texts[0] = Cow::Owned(format!("White {}", rng.below(20)));
                texts[1] = Cow::Owned(format!("Black {}", rng.below(5000)));
                let length = 1 + rng.below(900) as u32;
                let facts = GameFacts {
                    offset,
                    length,
                    texts,
                    date: Date::UNKNOWN,
                    eco: None,
                    opening: None,
                    white_elo: rng.below(3000) as u16,
                    black_elo: 0,
                    outcome: Some(GameResult::Unknown),
                    plies: keys.len() as u32,
                    status: None,
                    errors: 0,
                    line: pgnkit_facts::line_fingerprint(&keys),
                    tagged: rng.below(12) as u32,
                    annotation: rng.below(40) as u32,
                };
                offset += u64::from(length);
                batch.push(&facts, &keys);
            }
            batch
        })
        .collect()
}

/// Property: whatever the budget — one spill, many spills, spilled
/// partitions sorted whole or, too large for the budget, through sorted
/// runs (all of them with a budget of 0), a budget smaller than one
/// entry — a bounded builder writes the very bytes of an in-memory one,
/// and leaves no temporary file.
#[test]
fn spilled_builds_write_the_bytes_of_an_in_memory_build() {
    let (dir, fingerprint) = a_pgn_file();
    // Spilled builds with a partition sorted whole in a group, a large
    // one sorted whole alone, and one sorted through runs (the rules of
    // `Builder::write` and `write_large`).
    let (mut sorted_whole, mut large_whole, mut through_runs) = (0, 0, 0);
    for seed in 1..=6u64 {
        let mut entries = [0u64; PARTITIONS];
        for mut batch in random_batches(seed) {
            batch.seal();
            for (p, n) in entries.iter_mut().enumerate() {
                *n += batch.entries.entries(p);
            }
        }
        let mut builder = Builder::new();
        for batch in random_batches(seed) {
            builder.add(batch).unwrap();
        }
        let expected_path = dir.path().join("expected.pgnkit-index");
        let expected_summary = builder.write(&expected_path, &fingerprint).unwrap();
        assert_eq!(expected_summary.runs, 0);
        let expected = std::fs::read(&expected_path).unwrap();
        for memory in [0, 100, 3_000, 40_000, 1 << 30] {
            let spill_dir = tempfile::tempdir().unwrap();
            let mut builder = Builder::bounded(memory, spill_dir.path());
            for batch in random_batches(seed) {
                builder.add(batch).unwrap();
            }
            let path = dir.path().join("spilled.pgnkit-index");
            let summary = builder.write(&path, &fingerprint).unwrap();
            let got = std::fs::read(&path).unwrap();
            assert!(
                got == expected,
                "seed {seed}, memory {memory}: the bytes differ ({} runs)",
                summary.runs
            );
            assert_eq!(
                Summary { runs: 0, ..summary },
                expected_summary,
                "seed {seed}, memory {memory}"
            );
            if memory <= 3_000 && expected_summary.positions > 3_000 {
                assert!(summary.runs > 1, "seed {seed}, memory {memory}");
            }
            if summary.runs > 0 {
                let fits = |n: &&u64| n.saturating_mul(WHOLE_SORT_BYTES) <= memory;
                let large_fits = |n: &&u64| {
                    n.saturating_mul(LARGE_SORT_BYTES)
                        <= memory / WHOLE_SORT_BYTES * LARGE_SHARE_BYTES
                };
                let present = entries.iter().filter(|&&n| n > 0);
                sorted_whole += present.clone().filter(fits).count();
                let large = present.filter(|n| !fits(n));
                large_whole += large.clone().filter(large_fits).count();
                through_runs += large.filter(|n| !large_fits(n)).count();
            }
            assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
        }
    }
    assert!(
        sorted_whole > 0 && large_whole > 0 && through_runs > 0,
        "spilled partitions sorted whole: {sorted_whole} in groups, {large_whole} alone, \
         through runs: {through_runs}"
    );
}

/// Property: with a name cache that overflows again and again, names
/// are stored more than once, and the index answers every name query as
/// one that stores each once; spilled or not, the bytes are the same.
#[test]
fn an_overflowing_name_cache_stores_names_again_and_answers_the_same() {
    use crate::filter::Filter;
    use crate::needle::Needle;
    let (dir, fingerprint) = a_pgn_file();
    for seed in 1..=4u64 {
        let build = |cache: u64, memory: Option<u64>, name: &str| {
            let spill_dir = tempfile::tempdir().unwrap();
            let mut builder = match memory {
                Some(m) => Builder::bounded(m, spill_dir.path()),
                None => Builder::new(),
            };
            builder.name_cache = cache;
            for batch in random_batches(seed) {
                builder.add(batch).unwrap();
            }
            let path = dir.path().join(name);
            let summary = builder.write(&path, &fingerprint).unwrap();
            (summary, std::fs::read(&path).unwrap(), path)
        };
        let (once, _, once_path) = build(NAME_CACHE, None, "once.pgnkit-index");
        let (again, bytes, again_path) = build(2_000, None, "again.pgnkit-index");
        let (_, spilled, _) = build(2_000, Some(3_000), "spilled.pgnkit-index");
        assert!(bytes == spilled, "seed {seed}: spilling changed the bytes");
        if once.games > 50 {
            assert!(
                again.strings > once.strings,
                "seed {seed}: no name stored twice"
            );
        }
        let open = |path: &Path| {
            crate::Index::open(path, &dir.path().join("games.pgn"), &fingerprint).unwrap()
        };
        let (once, again) = (open(&once_path), open(&again_path));
        for needle in [
            "White 1",
            "White 7",
            "Black 12",
            "Black 4999",
            "k 3",
            "nobody",
        ] {
            for filter in [
                Filter {
                    white: Some(Needle::new(needle)),
                    ..Filter::default()
                },
                Filter {
                    player: Some(Needle::new(needle)),
                    ..Filter::default()
                },
            ] {
                assert_eq!(
                    once.search(&filter, None).unwrap(),
                    again.search(&filter, None).unwrap(),
                    "seed {seed}, {needle}"
                );
            }
        }
    }
}

/// A failed write of a spilled build (here: the index's directory does
/// not exist) leaves neither the index nor any temporary file.
#[test]
fn a_failed_spilled_build_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, b"*\n").unwrap();
    let mut builder = Builder::bounded(1_000, dir.path());
    for batch in random_batches(3) {
        builder.add(batch).unwrap();
    }
    assert!(builder.runs() > 0);
    let missing = dir.path().join("missing").join("games.pgn.pgnkit-index");
    let err = builder.write(&missing, &Fingerprint::of(&pgn).unwrap());
    assert!(err.is_err());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["games.pgn"]);
}

#[test]
fn an_index_begun_early_holds_the_bytes_of_one_written_at_the_end() {
    let (dir, fingerprint) = a_pgn_file();
    let listing = || {
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let target = dir.path().join("games.pgn.pgnkit-index");
    for seed in [3, 4] {
        // Spilled game records: copied from their own file at the end,
        // or written in place from the start.
        let mut builder = Builder::bounded(1_000, dir.path());
        for batch in random_batches(seed) {
            builder.add(batch).unwrap();
        }
        builder.write(&target, &fingerprint).unwrap();
        let expected = std::fs::read(&target).unwrap();
        let mut builder = Builder::bounded(1_000, dir.path());
        builder.start_output(&target).unwrap();
        for batch in random_batches(seed) {
            builder.add(batch).unwrap();
        }
        assert!(
            builder
                .spill
                .as_ref()
                .is_some_and(|s| matches!(s.games, Some(SpilledGames::InIndex(_))))
        );
        // The index being written is a temporary file until it is done.
        assert_eq!(listing().len(), 3, "{:?}", listing());
        assert_eq!(std::fs::read(&target).unwrap(), expected);
        builder.write(&target, &fingerprint).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), expected, "seed {seed}");
        assert_eq!(listing(), ["games.pgn", "games.pgn.pgnkit-index"]);
    }
    // Dropped before it is written: no file is left, the old index is kept.
    let before = std::fs::read(&target).unwrap();
    let mut builder = Builder::bounded(1_000, dir.path());
    builder.start_output(&target).unwrap();
    for batch in random_batches(5) {
        builder.add(batch).unwrap();
    }
    drop(builder);
    assert_eq!(listing(), ["games.pgn", "games.pgn.pgnkit-index"]);
    assert_eq!(std::fs::read(&target).unwrap(), before);
    // Written to another path than it was begun for: an error, and
    // nothing left.
    let mut builder = Builder::bounded(1_000, dir.path());
    builder.start_output(&target).unwrap();
    builder.add(random_batches(5).remove(0)).unwrap();
    let other = dir.path().join("other.pgnkit-index");
    assert!(builder.write(&other, &fingerprint).is_err());
    assert_eq!(listing(), ["games.pgn", "games.pgn.pgnkit-index"]);
}

#[test]
fn too_many_games_or_names_is_an_error_not_a_wrap() {
    let mut builder = Builder::new();
    builder.game_count = u64::from(u32::MAX) - 1;
    let batch = random_batches(5).into_iter().find(|b| b.len() > 2).unwrap();
    let err = builder.add(batch).unwrap_err();
    assert!(matches!(err, BuildError::TooManyGames));
    assert_eq!(
        err.to_string(),
        "more than 4,294,967,295 games: split the file"
    );
}
