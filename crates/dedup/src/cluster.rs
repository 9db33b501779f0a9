//! Clusters of duplicates among game records, and which game of each to
//! keep.

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::fingerprint::LineFingerprint;
use crate::record::GameRecord;

/// How a game of a cluster is a duplicate of the kept one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The same moves, and tags that agree where both give them.
    Exact,
    /// The same moves, but tags that disagree (`--contradicting-tags`).
    ContradictingTags,
    /// Its main line is a proper prefix of the kept game's (`--prefix`).
    Prefix,
    /// Another line that reaches the same position at the fuzzy depth
    /// (`--fuzzy-depth N`).
    Fuzzy,
}

impl Kind {
    /// The kind as the report writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::ContradictingTags => "contradicting-tags",
            Kind::Prefix => "prefix",
            Kind::Fuzzy => "fuzzy",
        }
    }
}

/// Which near duplicates count besides exact ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The same moves with contradicting tags.
    pub contradicting_tags: bool,
    /// One line a proper prefix of another (given as pairs to [`clusters`]).
    pub prefix: bool,
    /// The same position at this ply ([`GameRecord::fuzzy`]).
    pub fuzzy_depth: Option<u32>,
}

/// A game of a cluster other than the kept one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its index in the records.
    pub index: usize,
    /// How it is a duplicate of the kept game.
    pub kind: Kind,
    /// The compared tags that disagree with the kept game's.
    pub differing: Vec<&'static str>,
}

/// A kept game and its duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// The index of the kept game in the records.
    pub kept: usize,
    /// The others, in the order of the records.
    pub members: Vec<Member>,
}

/// A cluster keeps at most this many kept games of one line apart (copies
/// of one line whose tags contradict each other's): beyond, a copy joins
/// none, so that a line copied a million times costs linear time.
const MAX_APART: usize = 16;

/// The order of preference: a known game first (`--against`), then the
/// most complete tags, then the most annotation, then the first.
fn preference(r: &GameRecord, index: usize) -> (Reverse<bool>, Reverse<u32>, Reverse<u32>, usize) {
    (
        Reverse(r.known),
        Reverse(r.completeness),
        Reverse(r.annotation),
        index,
    )
}

/// The clusters of `records`, first kept game first. `prefixes` are pairs
/// (short, long) of records where the short game's whole line is a proper
/// prefix of the long one's (used with [`Options::prefix`]).
///
/// ```
/// use pgnkit_dedup::cluster::{clusters, Options};
/// let clusters = clusters(&[], &[], &Options::default());
/// assert!(clusters.is_empty());
/// ```
pub fn clusters(
    records: &[GameRecord],
    prefixes: &[(usize, usize)],
    options: &Options,
) -> Vec<Cluster> {
    let group_key = |r: &GameRecord| -> (u8, u128) {
        match (options.fuzzy_depth, r.fuzzy) {
            (Some(_), Some(k)) => (1, u128::from(k)),
            _ => (0, r.line),
        }
    };
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_unstable_by_key(|&i| (group_key(&records[i]), preference(&records[i], i)));
    let mut out: Vec<Cluster> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let key = group_key(&records[order[start]]);
        let mut end = start + 1;
        while end < order.len() && group_key(&records[order[end]]) == key {
            end += 1;
        }
        let mut open: Vec<Cluster> = Vec::new();
        for &i in &order[start..end] {
            let r = &records[i];
            let mut joined = false;
            for c in open.iter_mut().take(MAX_APART) {
                let kept = &records[c.kept];
                let differing = kept.tags.differing(&r.tags, true);
                let kind = if kept.line != r.line {
                    Kind::Fuzzy
                } else if differing.is_empty() {
                    Kind::Exact
                } else if options.contradicting_tags {
                    Kind::ContradictingTags
                } else {
                    continue;
                };
                c.members.push(Member {
                    index: i,
                    kind,
                    differing,
                });
                joined = true;
                break;
            }
            if !joined {
                open.push(Cluster {
                    kept: i,
                    members: Vec::new(),
                });
            }
        }
        out.extend(open);
        start = end;
    }
    if options.prefix {
        attach_prefixes(records, prefixes, &mut out);
    }
    out.retain(|c| !c.members.is_empty());
    for c in &mut out {
        c.members.sort_unstable_by_key(|m| m.index);
    }
    out.sort_unstable_by_key(|c| c.kept);
    out
}

/// Moves the cluster of each short game (where it is the kept one) into
/// the cluster of its long game, as prefixes. The longest lines first, so
/// that a chain of truncations ends in the cluster of the longest.
fn attach_prefixes(records: &[GameRecord], prefixes: &[(usize, usize)], out: &mut [Cluster]) {
    let mut of: HashMap<usize, usize> = HashMap::new();
    for (ci, c) in out.iter().enumerate() {
        of.insert(c.kept, ci);
        for m in &c.members {
            of.insert(m.index, ci);
        }
    }
    let mut pairs: Vec<(usize, usize)> = prefixes
        .iter()
        .copied()
        .filter(|&(s, l)| s < records.len() && l < records.len())
        .collect();
    pairs.sort_unstable_by_key(|&(s, l)| (Reverse(records[l].plies), s));
    for (short, long) in pairs {
        let (Some(&cs), Some(&cl)) = (of.get(&short), of.get(&long)) else {
            continue;
        };
        if cs == cl || out[cs].kept != short {
            continue;
        }
        let moved = std::mem::replace(
            &mut out[cs],
            Cluster {
                kept: short,
                members: Vec::new(),
            },
        );
        let kept = out[cl].kept;
        for index in std::iter::once(moved.kept).chain(moved.members.into_iter().map(|m| m.index)) {
            let differing = records[kept].tags.differing(&records[index].tags, false);
            out[cl].members.push(Member {
                index,
                kind: Kind::Prefix,
                differing,
            });
            of.insert(index, cl);
        }
    }
}

/// Full-line fingerprints of the records, each with its first record: what
/// the prefix pass looks a game's prefixes up in.
pub fn full_lines(records: &[GameRecord]) -> HashMap<LineFingerprint, usize> {
    let mut map = HashMap::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        if r.plies > 0 {
            map.entry(r.line).or_insert(i);
        }
    }
    map
}
