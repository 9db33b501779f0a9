//! Duplicate games in PGN databases, whatever their notation or language.
//!
//! Two games are the same game when their main lines are the same moves
//! from the same start position: each game is replayed by the one replay
//! ([`pgnkit_replay`]) and its chain of positions folded into a 128-bit
//! [`fingerprint`], so a German SAN copy and an English LAN or a UCI copy
//! of one game have one fingerprint; tags, comments, NAGs, variations,
//! whitespace and move numbers do not count. A game with errors is
//! fingerprinted by the moves before its first error, and marked
//! ([`GameRecord::incomplete`]).
//!
//! Per game a [`GameRecord`] of about 90 bytes is kept (fingerprint, place,
//! a digest of the compared tags, completeness and annotation), whatever
//! the length of the game. [`cluster::clusters`] groups them and chooses the
//! game to keep in each cluster: a game of a known database first
//! (`--against`), then the one with the most tags with a value, then the
//! most comments, NAGs and variations, then the first read.
//!
//! # Example
//!
//! ```
//! use pgnkit_dedup::{GameRecord, cluster::{clusters, Kind, Options}};
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Detail, Options as Replay, replay_game};
//!
//! let pgn = "[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n\n\
//!            [White \"A\"]\n[Black \"B\"]\n\n1. e2-e4 e7-e5 2. Sg1-f3 {de} *\n\n\
//!            1. d4 *\n";
//! let options = Replay { language: None, suggestions: false, detail: Detail::Keys, ..Replay::default() };
//! let mut records = Vec::new();
//! let mut reader = Reader::new(pgn.as_bytes());
//! let mut game = Game::default();
//! while reader.read_game(&mut game) {
//!     let report = replay_game(pgn.as_bytes(), &game, &options);
//!     records.push(GameRecord::new(pgn.as_bytes(), 0, &game, &report, None));
//! }
//! let found = clusters(&records, &Options::default());
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].kept, 1); // more tags
//! assert_eq!(found[0].members[0].index, 0);
//! assert_eq!(found[0].members[0].kind, Kind::Exact);
//! ```

pub mod bounded;
pub mod cluster;
mod counts;
pub mod prefix;
pub mod record;
pub mod report;

/// The fingerprint of a main line ([`pgnkit_facts::mainline`]: the index
/// stores it per game, so a database is compared by its index alone).
pub use pgnkit_facts::mainline as fingerprint;

pub use cluster::{Cluster, Kind, Member, Options};
pub use record::{GameRecord, Source, TagDigest};

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_pgn::{Game, Reader};
    use pgnkit_replay::{Detail, Options as Replay, replay_game};

    /// The real games of London 1851.
    const LONDON: &[u8] = include_bytes!("../../../testdata/index/london1851.pgn");

    fn records(pgn: &[u8]) -> (Vec<GameRecord>, Vec<Vec<u64>>) {
        let options = Replay {
            language: None,
            suggestions: false,
            detail: Detail::Keys,
            ..Replay::default()
        };
        let (mut records, mut keys) = (Vec::new(), Vec::new());
        let mut reader = Reader::new(pgn);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            if game.is_comment_only() {
                continue;
            }
            let report = replay_game(pgn, &game, &options);
            let mut r = GameRecord::new(pgn, 0, &game, &report, None);
            r.source.game = records.len() as u64 + 1;
            records.push(r);
            keys.push(report.keys);
        }
        (records, keys)
    }

    #[test]
    fn the_copy_with_the_tags_is_kept_and_the_bare_one_is_an_exact_duplicate() {
        let (mut all, _) = records(LONDON);
        let n = all.len();
        // The same games without their tag sections, read after them.
        let text = String::from_utf8_lossy(LONDON).replace("\r\n", "\n");
        let bare: String = (text.split("\n\n").filter(|part| !part.starts_with('[')))
            .map(|moves| format!("{moves}\n\n"))
            .collect();
        let (bare, _) = records(bare.as_bytes());
        assert_eq!(bare.len(), n);
        all.extend(bare);
        let found = cluster::clusters(&all, &Options::default());
        let paired: Vec<&Cluster> = found
            .iter()
            .filter(|c| c.members.iter().any(|m| m.index == c.kept + n))
            .collect();
        // Every game has its bare copy as a duplicate, the tagged one kept
        // (a game of London 1851 played twice stays with its first copy).
        assert!(paired.len() >= n - 3, "{} of {n}", paired.len());
        for c in &found {
            assert!(c.kept < n, "a tagged game is kept");
        }
    }

    /// The items of `records` (each with the keys of its line) as
    /// [`prefix::PrefixDeduper`] finds them in `memory` bytes, and the runs
    /// it spilled.
    fn with_prefixes(
        records: &[GameRecord],
        keys: &[Vec<u64>],
        memory: u64,
    ) -> (Vec<bounded::Item>, report::Counts, u64) {
        let dir = tempfile::tempdir().expect("dir");
        let options = Options {
            prefix: true,
            contradicting_tags: true,
            ..Options::default()
        };
        let mut deduper = prefix::PrefixDeduper::new(&options, memory, dir.path());
        for r in records {
            deduper.push(*r).expect("push");
        }
        let (mut grouped, lines) = deduper.group().expect("group");
        for (r, k) in records.iter().zip(keys) {
            grouped
                .push(&lines.prefixes(k), r.plies, &r.tags)
                .expect("push");
        }
        let found = grouped.finish().expect("finish");
        let mut items = Vec::new();
        let mut reader = found.clusters.reader().expect("reader");
        while let Some(item) = reader.next().expect("item") {
            items.push(item);
        }
        (items, found.counts, found.runs)
    }

    #[test]
    fn truncated_copies_join_the_longest_game_in_any_memory() {
        let (mut all, mut keys) = records(LONDON);
        let n = all.len();
        let long = (0..n).max_by_key(|&i| all[i].plies).expect("games");
        // Two truncations of the longest game, one of the other: a chain.
        for plies in [30usize, 20, 10] {
            let mut short = all[long];
            short.line = fingerprint::line_fingerprint(&keys[long][..=plies]);
            short.plies = plies as u32;
            short.source.game = all.len() as u64 + 1;
            all.push(short);
            keys.push(keys[long][..=plies].to_vec());
        }
        let (items, counts, runs) = with_prefixes(&all, &keys, 64 << 20);
        assert_eq!(runs, 0);
        let cluster: Vec<&bounded::Item> = items.iter().filter(|i| i.kept == long as u64).collect();
        let members: Vec<(u64, Option<Kind>)> =
            cluster.iter().map(|i| (i.index, i.kind())).collect();
        let prefix = Some(Kind::Prefix);
        let (a, b, c) = (n as u64, n as u64 + 1, n as u64 + 2);
        assert!(members.starts_with(&[(long as u64, None)]), "{members:?}");
        for copy in [a, b, c] {
            assert!(members.contains(&(copy, prefix)), "{members:?}");
        }
        assert!(counts.prefix >= 3, "{counts:?}");
        // A budget of a few records spills every step, and finds the same.
        let (spilled, spilled_counts, runs) = with_prefixes(&all, &keys, 2 << 10);
        assert!(runs > 10, "{runs}");
        assert_eq!(spilled, items);
        assert_eq!(spilled_counts, counts);
    }

    /// Tags agree where both games give them, which is no transitive
    /// relation: each truncation below agrees with the next longer one
    /// only, so the shortest reaches the longest game's cluster through
    /// two others (pointer jumping over two rounds).
    #[test]
    fn a_chain_of_truncations_ends_in_the_cluster_of_the_longest() {
        let text = String::from_utf8_lossy(LONDON).replace("\r\n", "\n");
        let movetext = text.split("\n\n").nth(1).expect("the first game's moves");
        let words: Vec<&str> = movetext.split_whitespace().collect();
        let cut = |tags: &str, n: usize| format!("{tags}\n\n{} *\n\n", words[..n].join(" "));
        let pgn = [
            cut("[White \"a\"]\n[Black \"z\"]", words.len() - 1),
            cut("[White \"a\"]", 30),
            cut("[Black \"b\"]", 20),
            cut("[White \"q\"]\n[Black \"b\"]", 10),
        ]
        .concat();
        let (all, keys) = records(pgn.as_bytes());
        assert_eq!(all.len(), 4);
        let (items, counts, _) = with_prefixes(&all, &keys, 64 << 20);
        let got: Vec<(u64, u64, Option<Kind>)> =
            items.iter().map(|i| (i.kept, i.index, i.kind())).collect();
        let prefix = Some(Kind::Prefix);
        assert_eq!(
            got,
            [(0, 0, None), (0, 1, prefix), (0, 2, prefix), (0, 3, prefix)]
        );
        assert_eq!(counts.prefix, 3);
        let tags: Vec<Vec<&str>> = items.iter().map(bounded::Item::differing).collect();
        assert_eq!(tags[2], ["Black"]);
        assert_eq!(tags[3], ["White", "Black"]);
    }

    #[test]
    fn fuzzy_clusters_are_the_games_that_share_the_position_at_the_depth() {
        let (mut all, keys) = records(LONDON);
        let depth = 6;
        let mut groups: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for (r, k) in all.iter_mut().zip(&keys) {
            r.fuzzy = k.get(depth).copied();
            // Shorter games (a few of London 1851) are compared by their line.
            if let Some(&key) = k.get(depth) {
                *groups.entry(key).or_default() += 1;
            }
        }
        let options = Options {
            fuzzy_depth: Some(6),
            ..Options::default()
        };
        let found = cluster::clusters(&all, &options);
        let shared: Vec<usize> = groups.values().copied().filter(|&n| n > 1).collect();
        assert!(shared.len() > 10, "London 1851 repeats its openings");
        assert_eq!(found.len(), shared.len());
        let members: usize = found.iter().map(|c| c.members.len()).sum();
        assert_eq!(members, shared.iter().map(|n| n - 1).sum::<usize>());
    }
}
