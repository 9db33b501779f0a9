//! Clusters of duplicates among game records, and which game of each to
//! keep.

use std::cmp::Reverse;
use std::collections::HashMap;

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
    /// One line a proper prefix of another ([`crate::prefix`]; [`clusters`]
    /// and [`crate::bounded::Deduper`] leave it aside).
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
pub(crate) const MAX_APART: usize = 16;

/// What records are grouped by: the position at the fuzzy depth when the
/// record has one ([`GameRecord::fuzzy`], only with `--fuzzy-depth`), else
/// the line.
pub fn group_key(r: &GameRecord) -> (u8, u128) {
    match r.fuzzy {
        Some(k) => (1, u128::from(k)),
        None => (0, r.line),
    }
}

/// The order of preference: a known game first (`--against`), then the
/// most complete tags, then the most annotation, then the first.
pub fn preference(r: &GameRecord, index: u64) -> (Reverse<bool>, Reverse<u32>, Reverse<u32>, u64) {
    (
        Reverse(r.known),
        Reverse(r.completeness),
        Reverse(r.annotation),
        index,
    )
}

/// The order [`Grouper`] takes records in: by [`group_key`], then by
/// [`preference`].
pub type SortKey = ((u8, u128), (Reverse<bool>, Reverse<u32>, Reverse<u32>, u64));

/// The [`SortKey`] of record number `index`.
pub fn sort_key(r: &GameRecord, index: u64) -> SortKey {
    (group_key(r), preference(r, index))
}

/// A kept game while its group is read: its number and record.
struct Open {
    index: u64,
    record: GameRecord,
}

/// Where [`Grouper::push`] puts a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placed {
    /// It is kept (it may stay alone).
    Kept,
    /// It is a duplicate of the kept game `kept`.
    Member {
        /// The number of the kept game.
        kept: u64,
        /// The kept game's record, when this is its first duplicate.
        first: Option<GameRecord>,
        /// The duplicate.
        member: Member,
    },
}

/// Forms the clusters of records that come in [`SortKey`] order, one at a
/// time, in memory independent of their number: the one rule of
/// [`clusters`], for records sorted in memory or read back from runs
/// spilled to disk.
///
/// ```
/// use pgnkit_dedup::cluster::{Grouper, Options, Placed};
/// let grouper = Grouper::new(&Options::default());
/// # let _ = grouper;
/// ```
pub struct Grouper {
    options: Options,
    key: Option<(u8, u128)>,
    open: Vec<(Open, bool)>,
}

impl Grouper {
    /// A grouper of the kinds of `options` (prefixes aside: they are pairs
    /// found apart, see [`clusters`]).
    pub fn new(options: &Options) -> Grouper {
        Grouper {
            options: *options,
            key: None,
            open: Vec::new(),
        }
    }

    /// Places record number `index`, which comes after every record placed
    /// before in [`SortKey`] order.
    pub fn push(&mut self, index: u64, r: &GameRecord) -> Placed {
        let key = group_key(r);
        if self.key != Some(key) {
            self.key = Some(key);
            self.open.clear();
        }
        for (kept, any) in &mut self.open {
            let differing = kept.record.tags.differing(&r.tags, true);
            let kind = if kept.record.line != r.line {
                Kind::Fuzzy
            } else if differing.is_empty() {
                Kind::Exact
            } else if self.options.contradicting_tags {
                Kind::ContradictingTags
            } else {
                continue;
            };
            let first = (!*any).then_some(kept.record);
            *any = true;
            return Placed::Member {
                kept: kept.index,
                first,
                member: Member {
                    index: usize::try_from(index).unwrap_or(usize::MAX),
                    kind,
                    differing,
                },
            };
        }
        if self.open.len() < MAX_APART {
            let open = Open { index, record: *r };
            self.open.push((open, false));
        }
        Placed::Kept
    }
}

/// The clusters of `records`, first kept game first (truncated copies
/// aside: [`crate::prefix`] finds them).
///
/// ```
/// use pgnkit_dedup::cluster::{clusters, Options};
/// let clusters = clusters(&[], &Options::default());
/// assert!(clusters.is_empty());
/// ```
pub fn clusters(records: &[GameRecord], options: &Options) -> Vec<Cluster> {
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_unstable_by_key(|&i| sort_key(&records[i], i as u64));
    let mut out: Vec<Cluster> = Vec::new();
    let mut of_kept: HashMap<u64, usize> = HashMap::new();
    let mut grouper = Grouper::new(options);
    for &i in &order {
        match grouper.push(i as u64, &records[i]) {
            Placed::Kept => {
                of_kept.insert(i as u64, out.len());
                out.push(Cluster {
                    kept: i,
                    members: Vec::new(),
                });
            }
            Placed::Member { kept, member, .. } => {
                if let Some(&c) = of_kept.get(&kept) {
                    out[c].members.push(member);
                }
            }
        }
    }
    out.retain(|c| !c.members.is_empty());
    for c in &mut out {
        c.members.sort_unstable_by_key(|m| m.index);
    }
    out.sort_unstable_by_key(|c| c.kept);
    out
}
