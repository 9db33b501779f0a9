//! Clusters of any number of games in a fixed memory budget.
//!
//! The games' records are sorted in [`SortKey`] order by an external sort
//! ([`pgnkit_extsort::Sorter`], the one the index sorts its large position
//! partitions with): up to the budget in memory, beyond it in sorted runs
//! spilled to anonymous temporary files and merged back. The one
//! [`Grouper`] reads them in that order and forms the clusters; what it
//! finds (each kept game with a duplicate, each duplicate) is sorted again
//! by kept game, and the numbers of the duplicates by number, in the same
//! way, so that the report and the copy of the games read them in the
//! order of the inputs. The result is the one [`clusters`](crate::cluster::clusters)
//! finds in memory, spilled or not.

use std::io;
use std::path::Path;

use pgnkit_extsort::{Record, Sorted, Sorter};

use crate::cluster::{Grouper, Kind, Options, Placed, SortKey, sort_key};
use crate::counts::Counts;
use crate::record::{COMPARED_TAGS, ENCODED_SIZE, GameRecord, Source};

/// A game's record with its number, in [`SortKey`] order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keyed {
    key: SortKey,
    pub(crate) record: GameRecord,
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Keyed) -> bool {
        self.key == other.key
    }
}
impl Eq for Keyed {}
impl PartialOrd for Keyed {
    fn partial_cmp(&self, other: &Keyed) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Keyed {
    fn cmp(&self, other: &Keyed) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl Keyed {
    /// Record number `index`.
    pub(crate) fn new(index: u64, record: GameRecord) -> Keyed {
        Keyed {
            key: sort_key(&record, index),
            record,
        }
    }

    /// The record's number.
    pub(crate) fn index(&self) -> u64 {
        self.key.1.3
    }
}

impl Record for Keyed {
    const SIZE: usize = 8 + ENCODED_SIZE;

    fn encode(&self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.index().to_le_bytes());
        self.record.encode(&mut out[8..]);
    }

    fn decode(b: &[u8]) -> Keyed {
        let mut index = [0u8; 8];
        index.copy_from_slice(&b[..8]);
        let record = GameRecord::decode(&b[8..]);
        Keyed {
            key: sort_key(&record, u64::from_le_bytes(index)),
            record,
        }
    }
}

/// A game of a cluster, as the report gives it: in the order of the
/// kept games' numbers, the kept game first, then its duplicates by
/// number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    /// The number of the cluster's kept game.
    pub kept: u64,
    /// 0 for the kept game, 1 for a duplicate.
    role: u8,
    /// The game's number.
    pub index: u64,
    /// `None` for the kept game, else how it is a duplicate.
    kind: u8,
    /// The compared tags that differ from the kept game's (bits in the
    /// order of [`COMPARED_TAGS`]).
    differing: u8,
    /// Where it is.
    pub source: Source,
    /// Its main-line plies.
    pub plies: u32,
    /// Bit 0: incomplete; bit 1: known.
    flags: u8,
}

const KINDS: [Kind; 4] = [
    Kind::Exact,
    Kind::ContradictingTags,
    Kind::Prefix,
    Kind::Fuzzy,
];

impl Item {
    /// Game number `index` (record `r`) of the cluster of kept game
    /// `kept`: the kept game itself (`member` `None`), or a duplicate of
    /// that kind with those compared tags differing.
    pub(crate) fn new(
        kept: u64,
        index: u64,
        r: &GameRecord,
        member: Option<(Kind, &[&str])>,
    ) -> Item {
        let (role, kind, differing) = match member {
            None => (0, 0, 0),
            Some((kind, tags)) => {
                let kind = KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u8 + 1;
                let mut bits = 0u8;
                for (i, t) in COMPARED_TAGS.iter().enumerate() {
                    if tags.contains(t) {
                        bits |= 1 << i;
                    }
                }
                (1, kind, bits)
            }
        };
        Item {
            kept,
            role,
            index,
            kind,
            differing,
            source: r.source,
            plies: r.plies,
            flags: u8::from(r.incomplete) | (u8::from(r.known) << 1),
        }
    }

    /// The kept game of its cluster.
    pub fn is_kept(&self) -> bool {
        self.role == 0
    }

    /// How it is a duplicate (`None`: the kept game).
    pub fn kind(&self) -> Option<Kind> {
        self.kind
            .checked_sub(1)
            .and_then(|k| KINDS.get(usize::from(k)))
            .copied()
    }

    /// The compared tags that differ from the kept game's.
    pub fn differing(&self) -> Vec<&'static str> {
        (COMPARED_TAGS.iter().enumerate())
            .filter(|(i, _)| self.differing & (1 << i) != 0)
            .map(|(_, t)| *t)
            .collect()
    }

    /// The game's replay found an error.
    pub fn incomplete(&self) -> bool {
        self.flags & 1 != 0
    }

    /// The game is of a known database (`--against`).
    pub fn known(&self) -> bool {
        self.flags & 2 != 0
    }
}

impl Record for Item {
    const SIZE: usize = 44;

    fn encode(&self, out: &mut [u8]) {
        out[0..8].copy_from_slice(&self.kept.to_le_bytes());
        out[8] = self.role;
        out[9..17].copy_from_slice(&self.index.to_le_bytes());
        out[17] = self.kind;
        out[18] = self.differing;
        out[19..23].copy_from_slice(&self.source.file.to_le_bytes());
        out[23..31].copy_from_slice(&self.source.game.to_le_bytes());
        out[31..39].copy_from_slice(&self.source.byte.to_le_bytes());
        out[39..43].copy_from_slice(&self.plies.to_le_bytes());
        out[43] = self.flags;
    }

    fn decode(b: &[u8]) -> Item {
        let u64_at = |at: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(x)
        };
        let u32_at = |at: usize| {
            let mut x = [0u8; 4];
            x.copy_from_slice(&b[at..at + 4]);
            u32::from_le_bytes(x)
        };
        Item {
            kept: u64_at(0),
            role: b[8],
            index: u64_at(9),
            kind: b[17],
            differing: b[18],
            source: Source {
                file: u32_at(19),
                game: u64_at(23),
                byte: u64_at(31),
            },
            plies: u32_at(39),
            flags: b[43],
        }
    }
}

/// The number of a game that is a duplicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Duplicate(pub u64);

impl Record for Duplicate {
    const SIZE: usize = 8;

    fn encode(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes());
    }

    fn decode(b: &[u8]) -> Duplicate {
        let mut x = [0u8; 8];
        x.copy_from_slice(b);
        Duplicate(u64::from_le_bytes(x))
    }
}

/// What a run found: the games of its clusters (the report's order) and
/// the numbers of the duplicates, both sorted, and the counts.
pub struct Found {
    /// The games of the clusters.
    pub clusters: Sorted<Item>,
    /// The numbers of the games that are duplicates, in order.
    pub duplicates: Sorted<Duplicate>,
    /// The counts.
    pub counts: Counts,
    /// Sorted runs spilled to disk in all.
    pub runs: u64,
}

/// Gathers the records of the games, numbered in the order they are
/// pushed, and finds their clusters in about `memory` bytes.
///
/// ```
/// use pgnkit_dedup::bounded::Deduper;
/// use pgnkit_dedup::cluster::Options;
/// let dir = tempfile::tempdir().unwrap();
/// let found = Deduper::new(&Options::default(), 1 << 20, dir.path()).finish().unwrap();
/// assert_eq!(found.counts.games, 0);
/// ```
pub struct Deduper {
    pub(crate) options: Options,
    /// The records, numbered in the order read.
    pub(crate) games: Sorter<Keyed>,
    /// The number of the next record.
    pub(crate) next: u64,
    pub(crate) counts: Counts,
    pub(crate) memory: u64,
    pub(crate) dir: std::path::PathBuf,
}

impl Deduper {
    /// A deduper of the kinds of `options` (not [`Options::prefix`]: see
    /// [`crate::prefix::PrefixDeduper`]) in about `memory` bytes, spilling
    /// to `dir`.
    pub fn new(options: &Options, memory: u64, dir: &Path) -> Deduper {
        Deduper {
            options: *options,
            // Half for the games; the other half for what is found while
            // they are read back (they may stay in memory meanwhile).
            games: Sorter::new(memory / 2, dir),
            next: 0,
            counts: Counts::default(),
            memory,
            dir: dir.to_path_buf(),
        }
    }

    /// Adds the record of the next game.
    pub fn push(&mut self, r: GameRecord) -> io::Result<()> {
        if !r.known {
            self.counts.games += 1;
            self.counts.incomplete += u64::from(r.incomplete);
        }
        let index = self.next;
        self.next += 1;
        self.games.push(Keyed::new(index, r))
    }

    /// The clusters of the games pushed.
    pub fn finish(self) -> io::Result<Found> {
        let mut runs = self.games.runs();
        let games = self.games.finish()?;
        let mut items = Sorter::new(self.memory / 4, &self.dir);
        let mut duplicates = Sorter::new(self.memory / 4, &self.dir);
        let mut counts = self.counts;
        let mut grouper = Grouper::new(&self.options);
        let mut reader = games.reader()?;
        while let Some(k) = reader.next()? {
            match grouper.push(k.index(), &k.record) {
                Placed::Kept => {}
                Placed::Member {
                    kept: of,
                    first,
                    member,
                } => {
                    if let Some(r) = first {
                        items.push(Item::new(of, of, &r, None))?;
                        counts.clusters += 1;
                    }
                    items.push(Item::new(
                        of,
                        k.index(),
                        &k.record,
                        Some((member.kind, &member.differing)),
                    ))?;
                    duplicates.push(Duplicate(k.index()))?;
                    counts.add(member.kind, k.record.known);
                }
            }
        }
        drop(reader);
        drop(games);
        runs += items.runs() + duplicates.runs();
        Ok(Found {
            clusters: items.finish()?,
            duplicates: duplicates.finish()?,
            counts,
            runs,
        })
    }
}
