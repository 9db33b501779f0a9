//! Truncated copies (`--prefix`) among any number of games, in a fixed
//! memory budget.
//!
//! A game is a truncated copy of another when its whole main line is a
//! proper prefix of the other's and their compared tags but Result agree.
//! Every step below is an external sort ([`Sorter`]: in memory up to its
//! share of the budget, beyond it in sorted runs on disk) or a merge of two
//! sorted streams, so memory does not grow with the number of games and
//! time stays about linear (`n log n` in the sorts):
//!
//! 1. [`PrefixDeduper::push`]: each game's record, numbered in the order
//!    read, sorted in [`SortKey`](crate::cluster::SortKey) order;
//! 2. [`PrefixDeduper::group`]: the one [`Grouper`] forms the clusters of
//!    exact (and contradicting, fuzzy) copies; each cluster's kept game
//!    offers its line (a [`KnownLines`] filter remembers them in a fixed
//!    number of bits: a Bloom filter, whose false positives cost only time);
//! 3. [`Grouped::push`]: the inputs are replayed again and, game after game,
//!    the fingerprints of the proper prefixes of each line that the filter
//!    may know ([`KnownLines::prefixes`]) are sorted;
//! 4. [`Grouped::finish`]: a merge of the kept lines with the prefixes
//!    pairs each cluster with the games it is a truncated copy of (tags
//!    agreeing); each cluster goes with the longest of them (then the
//!    first read) that is in another cluster, and clusters follow where
//!    that cluster went (pointer jumping, by sorts, `log` of the longest
//!    chain rounds); the games of a cluster that went into another are
//!    its `prefix` duplicates, the longest line's cluster keeps its game.
//!
//! The result is the same whatever the budget: a run that spills is
//! byte for byte a run in memory.

use std::io;
use std::path::{Path, PathBuf};

use pgnkit_extsort::{Record, Sorted, Sorter};

use crate::bounded::{Deduper, Duplicate, Found, Item};
use crate::cluster::{Grouper, Kind, MAX_APART, Options, Placed};
use crate::fingerprint::{Chain, LineFingerprint};
use crate::record::{COMPARED_TAGS, ENCODED_SIZE, GameRecord, TAG_DIGEST_SIZE, TagDigest};
use crate::report::Counts;

/// Rounds of pointer jumping at most: chains of `2^64` clusters do not
/// exist, so more rounds can only come of a cycle (two lines with one
/// fingerprint), which they end.
const MAX_ROUNDS: u32 = 64;

/// Sorted runs, in shares of the budget: one share a sorter (a few are
/// alive at once).
const SHARES: u64 = 8;

/// `N` numbers, in lexicographic order: the pairs, triples and quadruples
/// of game numbers the steps sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Ints<const N: usize>([u64; N]);

impl<const N: usize> Record for Ints<N> {
    const SIZE: usize = 8 * N;

    fn encode(&self, out: &mut [u8]) {
        for (slot, n) in out.chunks_exact_mut(8).zip(self.0) {
            slot.copy_from_slice(&n.to_le_bytes());
        }
    }

    fn decode(b: &[u8]) -> Ints<N> {
        let mut out = [0u64; N];
        for (n, bytes) in out.iter_mut().zip(b.chunks_exact(8)) {
            let mut x = [0u8; 8];
            x.copy_from_slice(bytes);
            *n = u64::from_le_bytes(x);
        }
        Ints(out)
    }
}

/// The kept game of a cluster, by its line.
#[derive(Clone, Copy, Debug)]
struct KeptLine {
    index: u64,
    record: GameRecord,
}

impl KeptLine {
    fn key(&self) -> (LineFingerprint, u64) {
        (self.record.line, self.index)
    }
}

impl PartialEq for KeptLine {
    fn eq(&self, other: &KeptLine) -> bool {
        self.key() == other.key()
    }
}
impl Eq for KeptLine {}
impl PartialOrd for KeptLine {
    fn partial_cmp(&self, other: &KeptLine) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for KeptLine {
    fn cmp(&self, other: &KeptLine) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Record for KeptLine {
    const SIZE: usize = 8 + ENCODED_SIZE;

    fn encode(&self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.index.to_le_bytes());
        self.record.encode(&mut out[8..]);
    }

    fn decode(b: &[u8]) -> KeptLine {
        let mut index = [0u8; 8];
        index.copy_from_slice(&b[..8]);
        KeptLine {
            index: u64::from_le_bytes(index),
            record: GameRecord::decode(&b[8..]),
        }
    }
}

/// A proper prefix of a game's line: its fingerprint, the game (its number
/// and plies) and the game's tags.
#[derive(Clone, Copy, Debug)]
struct Prefix {
    line: LineFingerprint,
    long: u64,
    plies: u32,
    tags: TagDigest,
}

impl PartialEq for Prefix {
    fn eq(&self, other: &Prefix) -> bool {
        (self.line, self.long) == (other.line, other.long)
    }
}
impl Eq for Prefix {}
impl PartialOrd for Prefix {
    fn partial_cmp(&self, other: &Prefix) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Prefix {
    fn cmp(&self, other: &Prefix) -> std::cmp::Ordering {
        (self.line, self.long).cmp(&(other.line, other.long))
    }
}

impl Record for Prefix {
    const SIZE: usize = 16 + 8 + 4 + TAG_DIGEST_SIZE;

    fn encode(&self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.line.to_le_bytes());
        out[16..24].copy_from_slice(&self.long.to_le_bytes());
        out[24..28].copy_from_slice(&self.plies.to_le_bytes());
        self.tags.encode(&mut out[28..28 + TAG_DIGEST_SIZE]);
    }

    fn decode(b: &[u8]) -> Prefix {
        let mut line = [0u8; 16];
        line.copy_from_slice(&b[..16]);
        let mut long = [0u8; 8];
        long.copy_from_slice(&b[16..24]);
        let mut plies = [0u8; 4];
        plies.copy_from_slice(&b[24..28]);
        Prefix {
            line: u128::from_le_bytes(line),
            long: u64::from_le_bytes(long),
            plies: u32::from_le_bytes(plies),
            tags: TagDigest::decode(&b[28..28 + TAG_DIGEST_SIZE]),
        }
    }
}

/// A game's place: its cluster (first the cluster the grouper formed,
/// then the cluster it ends in), whether it is that cluster's kept game,
/// how it is a duplicate, and its record.
#[derive(Clone, Copy, Debug)]
struct Placement {
    cluster: u64,
    /// 0: the kept game of `cluster`; 1: a duplicate.
    role: u8,
    index: u64,
    /// 0: kept; else 1 + the place of its kind in [`KINDS`].
    kind: u8,
    /// The compared tags that differ from the kept game's (bits in the
    /// order of [`COMPARED_TAGS`]).
    differing: u8,
    record: GameRecord,
}

impl Placement {
    fn key(&self) -> (u64, u8, u64) {
        (self.cluster, self.role, self.index)
    }
}

impl PartialEq for Placement {
    fn eq(&self, other: &Placement) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Placement {}
impl PartialOrd for Placement {
    fn partial_cmp(&self, other: &Placement) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Placement {
    fn cmp(&self, other: &Placement) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Record for Placement {
    const SIZE: usize = 8 + 1 + 8 + 1 + 1 + ENCODED_SIZE;

    fn encode(&self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.cluster.to_le_bytes());
        out[8] = self.role;
        out[9..17].copy_from_slice(&self.index.to_le_bytes());
        out[17] = self.kind;
        out[18] = self.differing;
        self.record.encode(&mut out[19..]);
    }

    fn decode(b: &[u8]) -> Placement {
        let u64_at = |at: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(x)
        };
        Placement {
            cluster: u64_at(0),
            role: b[8],
            index: u64_at(9),
            kind: b[17],
            differing: b[18],
            record: GameRecord::decode(&b[19..]),
        }
    }
}

/// The kinds, as [`Placement::kind`] numbers them from 1.
const KINDS: [Kind; 4] = [
    Kind::Exact,
    Kind::ContradictingTags,
    Kind::Prefix,
    Kind::Fuzzy,
];

fn kind_code(kind: Kind) -> u8 {
    KINDS
        .iter()
        .position(|&k| k == kind)
        .map_or(1, |k| k as u8 + 1)
}

fn tag_bits(tags: &[&str]) -> u8 {
    let mut bits = 0u8;
    for (i, t) in COMPARED_TAGS.iter().enumerate() {
        if tags.contains(t) {
            bits |= 1 << i;
        }
    }
    bits
}

fn tags_of(bits: u8) -> Vec<&'static str> {
    (COMPARED_TAGS.iter().enumerate())
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, t)| *t)
        .collect()
}

/// The lines of the clusters' kept games, as a Bloom filter of a fixed
/// number of bits: whether a fingerprint may be one of them (never `false`
/// for one that is).
#[derive(Clone, Debug)]
pub struct KnownLines {
    bits: Vec<u64>,
    hashes: u32,
}

impl KnownLines {
    /// A filter of about `bytes` bytes for about `lines` lines.
    fn new(bytes: u64, lines: u64) -> KnownLines {
        let words = usize::try_from(bytes / 8).unwrap_or(usize::MAX).max(8);
        let bits = words as u64 * 64;
        // k = ln 2 * m / n, between 1 and 8.
        let hashes = (bits.saturating_mul(7) / lines.max(1).saturating_mul(10)).clamp(1, 8) as u32;
        KnownLines {
            bits: vec![0; words],
            hashes,
        }
    }

    /// The bits of `line`.
    fn probes(&self, line: LineFingerprint) -> impl Iterator<Item = usize> + use<> {
        let m = self.bits.len() as u64 * 64;
        let (h1, h2) = (line as u64, ((line >> 64) as u64) | 1);
        (0..u64::from(self.hashes)).map(move |i| (h1.wrapping_add(i.wrapping_mul(h2)) % m) as usize)
    }

    fn insert(&mut self, line: LineFingerprint) {
        for b in self.probes(line) {
            if let Some(w) = self.bits.get_mut(b / 64) {
                *w |= 1 << (b % 64);
            }
        }
    }

    /// Whether `line` may be a kept game's line.
    pub fn may_hold(&self, line: LineFingerprint) -> bool {
        self.probes(line).all(|b| {
            self.bits
                .get(b / 64)
                .is_some_and(|w| w & (1 << (b % 64)) != 0)
        })
    }

    /// The fingerprints of the proper prefixes (one ply or more, fewer than
    /// the whole) of the line whose positions have the keys `keys` (the
    /// start first) that may be kept games' lines. Linear in the plies.
    pub fn prefixes(&self, keys: &[u64]) -> Vec<LineFingerprint> {
        let mut chain = Chain::new();
        let last = keys.len().saturating_sub(1);
        let mut out = Vec::new();
        for (ply, &k) in keys.iter().enumerate() {
            let fp = chain.push(k);
            if ply > 0 && ply < last && self.may_hold(fp) {
                out.push(fp);
            }
        }
        out
    }
}

/// Gathers the records of the games, numbered in the order they are
/// pushed, for clusters with truncated copies in about `memory` bytes.
///
/// ```
/// use pgnkit_dedup::cluster::Options;
/// use pgnkit_dedup::prefix::PrefixDeduper;
/// let dir = tempfile::tempdir().unwrap();
/// let options = Options { prefix: true, ..Options::default() };
/// let (grouped, _lines) = PrefixDeduper::new(&options, 1 << 20, dir.path()).group().unwrap();
/// assert_eq!(grouped.finish().unwrap().counts.games, 0);
/// ```
pub struct PrefixDeduper(Deduper);

impl PrefixDeduper {
    /// A deduper of the kinds of `options` and of truncated copies, in
    /// about `memory` bytes, spilling to `dir`: the records are taken as
    /// [`Deduper`] takes them.
    pub fn new(options: &Options, memory: u64, dir: &Path) -> PrefixDeduper {
        PrefixDeduper(Deduper::new(options, memory, dir))
    }

    /// Adds the record of the next game.
    pub fn push(&mut self, r: GameRecord) -> io::Result<()> {
        self.0.push(r)
    }

    /// Forms the clusters of the games pushed, and gives the filter of
    /// their kept games' lines for the second reading of the games
    /// ([`Grouped::push`]).
    pub fn group(self) -> io::Result<(Grouped, KnownLines)> {
        let records = self.0;
        let share = records.memory / SHARES;
        let mut runs = records.games.runs();
        let games = records.games.finish()?;
        let mut lines = KnownLines::new(share, records.next);
        let mut kept = Sorter::new(share, &records.dir);
        let mut bases = Sorter::new(share, &records.dir);
        let mut placements = Sorter::new(share, &records.dir);
        let mut grouper = Grouper::new(&records.options);
        let mut reader = games.reader()?;
        while let Some(k) = reader.next()? {
            let (index, record) = (k.index(), k.record);
            let (base, role, kind, differing) = match grouper.push(index, &record) {
                Placed::Kept => {
                    if record.plies > 0 {
                        lines.insert(record.line);
                        kept.push(KeptLine { index, record })?;
                    }
                    (index, 0, 0, 0)
                }
                Placed::Member { kept, member, .. } => {
                    (kept, 1, kind_code(member.kind), tag_bits(&member.differing))
                }
            };
            bases.push(Ints([index, base]))?;
            placements.push(Placement {
                cluster: base,
                role,
                index,
                kind,
                differing,
                record,
            })?;
        }
        drop(reader);
        drop(games);
        runs += kept.runs() + bases.runs() + placements.runs();
        let grouped = Grouped {
            memory: records.memory,
            counts: records.counts,
            runs,
            kept: kept.finish()?,
            bases: bases.finish()?,
            placements: placements.finish()?,
            prefixes: Sorter::new(share, &records.dir),
            next: 0,
            dir: records.dir,
        };
        Ok((grouped, lines))
    }
}

/// The clusters formed, waiting for the prefixes of every game's line, in
/// the order the games were pushed to the [`PrefixDeduper`].
pub struct Grouped {
    memory: u64,
    dir: PathBuf,
    counts: Counts,
    runs: u64,
    kept: Sorted<KeptLine>,
    bases: Sorted<Ints<2>>,
    placements: Sorted<Placement>,
    prefixes: Sorter<Prefix>,
    next: u64,
}

impl Grouped {
    fn sorter<R: Record>(&self) -> Sorter<R> {
        Sorter::new(self.memory / SHARES, &self.dir)
    }

    /// Adds the next game's prefixes ([`KnownLines::prefixes`] of its
    /// line), its plies and its tags ([`GameRecord::tags`]).
    pub fn push(
        &mut self,
        prefixes: &[LineFingerprint],
        plies: u32,
        tags: &TagDigest,
    ) -> io::Result<()> {
        let long = self.next;
        self.next += 1;
        for &line in prefixes {
            self.prefixes.push(Prefix {
                line,
                long,
                plies,
                tags: *tags,
            })?;
        }
        Ok(())
    }

    /// The clusters, truncated copies joined to the games they are copies
    /// of.
    pub fn finish(mut self) -> io::Result<Found> {
        let prefixes = std::mem::replace(&mut self.prefixes, Sorter::new(0, &self.dir));
        self.runs += prefixes.runs();
        let prefixes = prefixes.finish()?;
        // From here on the steps' sorters share the budget.
        let pairs = self.pairs(&prefixes)?;
        drop(prefixes);
        let targets = self.targets(&pairs)?;
        drop(pairs);
        let roots = self.roots(targets)?;
        self.place(&roots)
    }

    /// (long, short, plies of long): the kept games `short` whose line is
    /// a proper prefix of game `long`'s, tags agreeing (the Result aside),
    /// sorted by `long`. At most [`MAX_APART`] kept games of one line take
    /// part (as the grouper keeps at most that many apart).
    fn pairs(&mut self, prefixes: &Sorted<Prefix>) -> io::Result<Sorted<Ints<3>>> {
        let mut out = self.sorter();
        let mut kept = self.kept.reader()?;
        let mut next = kept.next()?;
        let mut group: Vec<KeptLine> = Vec::new();
        let mut line = None;
        let mut reader = prefixes.reader()?;
        while let Some(p) = reader.next()? {
            if line != Some(p.line) {
                line = Some(p.line);
                group.clear();
                while next.is_some_and(|k| k.record.line < p.line) {
                    next = kept.next()?;
                }
                while let Some(k) = next.filter(|k| k.record.line == p.line) {
                    if group.len() < MAX_APART {
                        group.push(k);
                    }
                    next = kept.next()?;
                }
            }
            for k in &group {
                if k.record.tags.differing(&p.tags, false).is_empty() {
                    out.push(Ints([p.long, k.index, u64::from(p.plies)]))?;
                }
            }
        }
        self.runs += out.runs();
        out.finish()
    }

    /// (short, target): the cluster each cluster with a pair goes into:
    /// that of its longest long game (then the first read) that is in
    /// another cluster. Sorted by `short`.
    fn targets(&mut self, pairs: &Sorted<Ints<3>>) -> io::Result<Sorted<Ints<3>>> {
        // (short, plies from the longest, long, long's cluster).
        let mut by_short: Sorter<Ints<4>> = self.sorter();
        let mut bases = self.bases.reader()?;
        let mut base = bases.next()?;
        let mut reader = pairs.reader()?;
        while let Some(Ints([long, short, plies])) = reader.next()? {
            while base.is_some_and(|Ints([i, _])| i < long) {
                base = bases.next()?;
            }
            if let Some(Ints([i, cluster])) = base
                && i == long
            {
                by_short.push(Ints([short, u64::MAX - plies, long, cluster]))?;
            }
        }
        self.runs += by_short.runs();
        let by_short = by_short.finish()?;
        let mut out = self.sorter();
        let mut last = None;
        let mut reader = by_short.reader()?;
        while let Some(Ints([short, _, _, cluster])) = reader.next()? {
            if last == Some(short) || cluster == short {
                continue;
            }
            last = Some(short);
            // (cluster, where it goes, 0: not yet known to be a root).
            out.push(Ints([short, cluster, 0]))?;
        }
        self.runs += out.runs();
        out.finish()
    }

    /// (cluster, root): where each cluster with a target ends, following
    /// the targets (pointer jumping: every round, each pointer not yet at
    /// a root jumps to where its target points).
    fn roots(&mut self, mut pointers: Sorted<Ints<3>>) -> io::Result<Sorted<Ints<3>>> {
        for _ in 0..MAX_ROUNDS {
            // (target, cluster) of the pointers not at a root yet.
            let mut open: Sorter<Ints<2>> = self.sorter();
            let mut next: Sorter<Ints<3>> = self.sorter();
            let mut reader = pointers.reader()?;
            while let Some(p @ Ints([cluster, to, done])) = reader.next()? {
                if done == 1 {
                    next.push(p)?;
                } else {
                    open.push(Ints([to, cluster]))?;
                }
            }
            drop(reader);
            self.runs += open.runs();
            let open = open.finish()?;
            let mut queries = open.reader()?;
            let Some(mut query) = queries.next()? else {
                return Ok(pointers);
            };
            let mut table = pointers.reader()?;
            let mut row = table.next()?;
            loop {
                let Ints([to, cluster]) = query;
                while row.is_some_and(|Ints([c, _, _])| c < to) {
                    row = table.next()?;
                }
                next.push(match row {
                    Some(Ints([c, further, done])) if c == to => Ints([cluster, further, done]),
                    _ => Ints([cluster, to, 1]),
                })?;
                match queries.next()? {
                    Some(q) => query = q,
                    None => break,
                }
            }
            drop((table, queries));
            self.runs += next.runs();
            pointers = next.finish()?;
        }
        Ok(pointers)
    }

    /// The games in their final clusters: the report's items, the
    /// duplicates' numbers and the counts.
    fn place(self, roots: &Sorted<Ints<3>>) -> io::Result<Found> {
        let mut counts = self.counts;
        let mut runs = self.runs;
        // Every game's final cluster.
        let mut placed: Sorter<Placement> = self.sorter();
        let mut root_of = roots.reader()?;
        let mut root = root_of.next()?;
        let mut reader = self.placements.reader()?;
        while let Some(mut p) = reader.next()? {
            while root.is_some_and(|Ints([c, _, _])| c < p.cluster) {
                root = root_of.next()?;
            }
            if let Some(Ints([c, to, _])) = root
                && c == p.cluster
            {
                p.cluster = to;
                p.role = 1;
                p.kind = kind_code(Kind::Prefix);
                // Set against the kept game below.
                p.differing = u8::MAX;
            }
            placed.push(p)?;
        }
        drop(reader);
        runs += placed.runs();
        let placed = placed.finish()?;
        let mut items = self.sorter();
        let mut duplicates = self.sorter();
        let mut kept: Option<(Placement, bool)> = None;
        let mut reader = placed.reader()?;
        while let Some(p) = reader.next()? {
            if p.role == 0 {
                kept = Some((p, false));
                continue;
            }
            let Some((k, any)) = kept.as_mut().filter(|(k, _)| k.cluster == p.cluster) else {
                continue; // no kept game: cannot be (every cluster has one)
            };
            if !*any {
                *any = true;
                items.push(Item::new(k.index, k.index, &k.record, None))?;
                counts.clusters += 1;
            }
            let kind = KINDS
                .get(usize::from(p.kind.saturating_sub(1)))
                .copied()
                .unwrap_or(Kind::Exact);
            let differing = if p.differing == u8::MAX {
                k.record.tags.differing(&p.record.tags, false)
            } else {
                tags_of(p.differing)
            };
            items.push(Item::new(
                k.index,
                p.index,
                &p.record,
                Some((kind, &differing)),
            ))?;
            duplicates.push(Duplicate(p.index))?;
            counts.add(kind, p.record.known);
        }
        runs += items.runs() + duplicates.runs();
        Ok(Found {
            clusters: items.finish()?,
            duplicates: duplicates.finish()?,
            counts,
            runs,
        })
    }
}
