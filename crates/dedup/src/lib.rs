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
//! let options = Replay { language: None, suggestions: false, detail: Detail::Keys };
//! let mut records = Vec::new();
//! let mut reader = Reader::new(pgn.as_bytes());
//! let mut game = Game::default();
//! while reader.read_game(&mut game) {
//!     let report = replay_game(pgn.as_bytes(), &game, &options);
//!     records.push(GameRecord::new(pgn.as_bytes(), 0, &game, &report, None));
//! }
//! let found = clusters(&records, &[], &Options::default());
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].kept, 1); // more tags
//! assert_eq!(found[0].members[0].index, 0);
//! assert_eq!(found[0].members[0].kind, Kind::Exact);
//! ```

pub mod bounded;
pub mod cluster;
pub mod record;
pub mod report;

/// The fingerprint of a main line ([`pgnkit_index::mainline`]: the index
/// stores it per game, so a database is compared by its index alone).
pub use pgnkit_index::mainline as fingerprint;

pub use cluster::{Cluster, Kind, Member, Options};
pub use record::{GameRecord, Source, TagDigest};

use std::collections::HashMap;

use fingerprint::{Chain, LineFingerprint};

/// The records whose whole line is a proper prefix of the line with the
/// position keys `keys` (of a game with the tags `tags`), with tags that
/// agree (the Result aside): one per prefix length, looked up in `lines`
/// ([`cluster::full_lines`]). Linear in the plies of the game.
pub fn prefix_matches(
    keys: &[u64],
    tags: &TagDigest,
    lines: &HashMap<LineFingerprint, usize>,
    records: &[GameRecord],
) -> Vec<usize> {
    let mut chain = Chain::new();
    let mut out = Vec::new();
    let last = keys.len().saturating_sub(1);
    for (ply, &k) in keys.iter().enumerate() {
        let fp = chain.push(k);
        if ply == 0 || ply >= last {
            continue;
        }
        if let Some(&short) = lines.get(&fp)
            && let Some(r) = records.get(short)
            && r.tags.differing(tags, false).is_empty()
        {
            out.push(short);
        }
    }
    out
}

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
        let found = cluster::clusters(&all, &[], &Options::default());
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

    #[test]
    fn a_truncated_line_is_found_among_the_prefixes_of_its_game() {
        let (all, keys) = records(LONDON);
        let long = (0..all.len()).max_by_key(|&i| all[i].plies).expect("games");
        let mut short = all[long];
        short.line = fingerprint::line_fingerprint(&keys[long][..21]);
        short.plies = 20;
        let records = vec![all[long], short];
        let lines = cluster::full_lines(&records);
        let found = prefix_matches(&keys[long], &records[0].tags, &lines, &records);
        assert_eq!(found, [1]);
        let options = Options {
            prefix: true,
            ..Options::default()
        };
        let c = cluster::clusters(&records, &[(1, 0)], &options);
        assert_eq!(
            (c.len(), c[0].kept, c[0].members[0].kind),
            (1, 0, Kind::Prefix)
        );
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
        let found = cluster::clusters(&all, &[], &options);
        let shared: Vec<usize> = groups.values().copied().filter(|&n| n > 1).collect();
        assert!(shared.len() > 10, "London 1851 repeats its openings");
        assert_eq!(found.len(), shared.len());
        let members: usize = found.iter().map(|c| c.members.len()).sum();
        assert_eq!(members, shared.iter().map(|n| n - 1).sum::<usize>());
    }
}
