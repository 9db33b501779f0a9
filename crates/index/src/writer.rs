//! Building an index: games are gathered in [`Batch`]es (one per chunk of
//! the PGN file, built in parallel), added in file order to a [`Builder`],
//! which writes the file to a temporary file beside its final name and
//! renames it into place, so that a crash never leaves a broken index.

use std::collections::HashMap;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pgnkit_facts::{Eco, GameFacts};
use pgnkit_pgn::GameResult;
use rayon::prelude::*;

use crate::direct::Direct;
use crate::fingerprint::Fingerprint;
use crate::layout::{
    self, GAME_SIZE, HEADER_SIZE, MAGIC, POSITION_SIZE, VERSION, crc, header, status_code,
};
use crate::spill::{
    self, Aligned, BatchEntries, Entry, PARTITION_BITS, PARTITIONS, Prefetched, Sorter, Spiller,
    Spool, Table,
};

/// FxHash (rustc's hasher): strings from a PGN file need no protection
/// against flooding, and interning them is on the hot path.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0xf135_7aea_2e62_a9c5);
    }
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// A game record waiting for its string ids to become global.
#[derive(Clone, Debug)]
struct Pending {
    record: [u8; GAME_SIZE],
    texts: [u32; 6],
}

/// The distinct names of a batch, each numbered by its first appearance:
/// their bytes one after the other, and a table of their numbers by hash.
/// Nothing is allocated per name, and the memory is kept from one batch to
/// the next.
#[derive(Debug, Default)]
struct Names {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
    /// The names' numbers, found by their text.
    table: hashbrown::HashTable<u32>,
}

/// Name `i` of a [`Names`]'s `text` and `ends`.
fn name_at<'t>(text: &'t str, ends: &[usize], i: u32) -> &'t str {
    let i = i as usize;
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text[start..ends[i]]
}

/// The hash of a name.
fn name_hash(s: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

impl Names {
    /// The names, in the order of their numbers.
    fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.ends.len()).map(|i| name_at(&self.text, &self.ends, i as u32))
    }

    /// The number of `s`, a new one if it is new; `None` past `u32::MAX`
    /// names.
    fn intern(&mut self, s: &str) -> Option<u32> {
        let Names { text, ends, table } = self;
        let hash = name_hash(s);
        if let Some(&id) = table.find(hash, |&id| name_at(text, ends, id) == s) {
            return Some(id);
        }
        let id = u32::try_from(ends.len()).ok()?;
        text.push_str(s);
        ends.push(text.len());
        table.insert_unique(hash, id, |&id| name_hash(name_at(text, ends, id)));
        Some(id)
    }

    /// Forgets every name, keeping the memory.
    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.table.clear();
    }
}

/// The games of one chunk of the PGN file, with chunk-local string ids and
/// game numbers.
#[derive(Debug, Default)]
pub struct Batch {
    names: Names,
    games: Vec<Pending>,
    /// The keys of the games' main-line positions, game after game, not
    /// encoded yet ([`Batch::seal`]).
    keys: Vec<u64>,
    /// Where the keys of each game end in `keys`.
    ends: Vec<usize>,
    /// The position entries, encoded by key partition once sealed: the
    /// builder keeps them as they are until they are spilled or written.
    entries: BatchEntries,
    /// Whether `entries` holds the entries of every game pushed.
    sealed: bool,
    /// Position entries in the batch.
    positions: usize,
    /// Why the batch cannot be indexed, found while it was filled (the
    /// error is returned when it is added to a [`Builder`]).
    overflow: Option<BuildError>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Number of games in the batch.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn intern(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return u32::MAX;
        }
        match self.names.intern(s) {
            Some(id) => id,
            None => {
                self.overflow.get_or_insert(BuildError::TooManyStrings);
                u32::MAX
            }
        }
    }

    /// Adds a game: its facts, and the keys of its main-line positions
    /// (the start position included; repeats are stored once in the index).
    ///
    /// A batch of more than 4,294,967,295 games, or a game of 4 GiB or more
    /// (its length is not stored exactly), makes [`Builder::add`] fail.
    pub fn push(&mut self, facts: &GameFacts<'_>, keys: &[u64]) {
        // Games are numbered in 32 bits.
        if u32::try_from(self.games.len()).is_err() {
            self.overflow.get_or_insert(BuildError::TooManyGames);
            return;
        }
        if facts.length == u32::MAX {
            self.overflow.get_or_insert(BuildError::GameTooLong {
                offset: facts.offset,
            });
            return;
        }
        let mut texts = [u32::MAX; 6];
        for (slot, t) in texts.iter_mut().zip(facts.texts.iter()) {
            *slot = self.intern(t);
        }
        let mut r = [0u8; GAME_SIZE];
        use layout::game as g;
        r[g::OFFSET..g::OFFSET + 8].copy_from_slice(&facts.offset.to_le_bytes());
        r[g::LENGTH..g::LENGTH + 4].copy_from_slice(&facts.length.to_le_bytes());
        r[g::PLIES..g::PLIES + 4].copy_from_slice(&facts.plies.to_le_bytes());
        r[g::DATE..g::DATE + 4].copy_from_slice(&facts.date.0.to_le_bytes());
        r[g::WHITE_ELO..g::WHITE_ELO + 2].copy_from_slice(&facts.white_elo.to_le_bytes());
        r[g::BLACK_ELO..g::BLACK_ELO + 2].copy_from_slice(&facts.black_elo.to_le_bytes());
        let eco = facts.eco.map_or(Eco::NONE, |e| e.0);
        r[g::ECO..g::ECO + 2].copy_from_slice(&eco.to_le_bytes());
        r[g::RESULT] = GameResult::code_of(facts.outcome);
        r[g::STATUS] = status_code(facts.status);
        let errors = u16::try_from(facts.errors).unwrap_or(u16::MAX);
        r[g::ERRORS..g::ERRORS + 2].copy_from_slice(&errors.to_le_bytes());
        let opening = facts.opening.map_or(0, |o| o.id().saturating_add(1));
        r[g::OPENING..g::OPENING + 2].copy_from_slice(&opening.to_le_bytes());
        r[g::LINE..g::LINE + 16].copy_from_slice(&facts.line.to_le_bytes());
        r[g::TAGGED..g::TAGGED + 4].copy_from_slice(&facts.tagged.to_le_bytes());
        r[g::ANNOTATION..g::ANNOTATION + 4].copy_from_slice(&facts.annotation.to_le_bytes());
        self.games.push(Pending { record: r, texts });

        // Repeats within a game are dropped when the sorted table is written.
        self.keys.extend_from_slice(keys);
        self.ends.push(self.keys.len());
        self.positions += keys.len();
        self.sealed = false;
    }

    /// Encodes the position entries of the games pushed, by key
    /// partition, as the builder keeps them.
    /// [`Builder::take`] seals a batch that is not sealed, but the thread
    /// that filled the batch had better do it: the encoding is then spread
    /// over the threads that fill batches, and the batch's keys are still
    /// in that thread's cache.
    ///
    /// ```
    /// use pgnkit_index::{Batch, Builder};
    /// let mut batch = Batch::new();
    /// // ... games pushed ...
    /// batch.seal();
    /// let mut builder = Builder::new();
    /// builder.take(&mut batch).unwrap();
    /// ```
    pub fn seal(&mut self) {
        if !self.sealed {
            self.entries.encode(&self.keys, &self.ends);
            self.sealed = true;
        }
    }

    /// Empties the batch and keeps its memory, for the games of another
    /// chunk.
    pub fn clear(&mut self) {
        self.names.clear();
        self.games.clear();
        self.keys.clear();
        self.ends.clear();
        self.entries.clear();
        self.sealed = false;
        self.positions = 0;
        self.overflow = None;
    }
}

/// Why an index cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// More games than the format numbers (2^32 - 1).
    #[error("more than 4,294,967,295 games: split the file")]
    TooManyGames,
    /// More names than the format numbers (2^32 - 1).
    #[error("more than 4,294,967,295 names: split the file")]
    TooManyStrings,
    /// A game too long for the game table (4 GiB or more).
    #[error(
        "the game at byte {offset} is 4 GiB long or more: the index stores game lengths in 32 bits"
    )]
    GameTooLong {
        /// Its byte offset in the PGN file.
        offset: u64,
    },
    /// Writing failed.
    #[error("cannot write the index: {0}")]
    Io(#[from] io::Error),
}

/// What was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games indexed.
    pub games: u64,
    /// Distinct strings in the name table.
    pub strings: u64,
    /// (position, game) pairs in the position table.
    pub positions: u64,
    /// Bytes of the index file.
    pub bytes: u64,
    /// Times the position entries were spilled to the temporary spill file
    /// (0 when everything fitted in memory).
    pub runs: u64,
}

/// Entries sorted, without repeats, encoded as position table entries.
#[derive(Default)]
struct Encoded {
    /// The partition they are of.
    partition: usize,
    /// Not encoded: the partition is too large to be sorted in memory, and
    /// is sorted through runs as it is written.
    large: bool,
    bytes: Vec<u8>,
    /// (bucket, end of its entries in `bytes`) for each bucket with entries.
    segments: Vec<(usize, usize)>,
    /// The bucket of the last entry, while its segment is open.
    current: Option<usize>,
}

impl Encoded {
    /// Empties it, keeping its memory.
    fn clear(&mut self) {
        self.bytes.clear();
        self.segments.clear();
        self.current = None;
    }

    /// Appends `e`, which comes after every entry appended before.
    fn push(&mut self, e: &Entry, bits: u32) {
        let b = layout::bucket(e.key(), bits);
        if self.current != Some(b) {
            self.close();
            self.current = Some(b);
        }
        // The key bits then the game, little-endian: one 8-byte copy.
        let entry = u64::from(layout::key_bits(e.key(), bits)) | (u64::from(e.game) << 32);
        self.bytes.extend_from_slice(&entry.to_le_bytes());
    }

    /// Ends the last segment.
    fn close(&mut self) {
        if let Some(c) = self.current.take() {
            self.segments.push((c, self.bytes.len()));
        }
    }
}

/// Sorts the entries of one partition (keys with the same top
/// [`PARTITION_BITS`] bits) by (key, game); repeats stay.
///
/// The sort is a counting sort by the key bits below the partition's
/// (stable), then a stable sort by the whole key of each group of the
/// counting sort (about one entry each, see [`sort_groups`]): entries of one key
/// keep the order they arrive in, which is game order (entries come in game
/// order, from the tables or from the spool's spills read in order). A
/// large partition is first spread by the next 8 key bits into
/// `scratch.spread`, and each of those groups sorted so, back into
/// `entries`: the table of the counting sort and the groups being filled
/// stay in the cache at any size. The sorted entries are in `entries` or
/// in `scratch.spread`: the slice returned.
fn sort_partition<'s>(entries: &'s mut [Entry], scratch: &'s mut Sorting) -> &'s [Entry] {
    let Sorting { spread, next } = scratch;
    let n = entries.len();
    // Every entry is written over: the memory is only cleared as it grows.
    if spread.len() < n {
        spread.resize(n, Entry::default());
    }
    let spread = &mut spread[..n];
    if n <= SPREAD {
        sort_groups(entries, spread, next, BELOW_PARTITION);
        return spread;
    }
    // Spread, then sorted back into `entries`: two tables, not three.
    let Ok(()) = scatter(&*entries, spread, next, SPREAD_SHIFT, 0xff);
    sort_spread(spread, entries, next);
    entries
}

/// The key bits a large partition is spread by: the 8 below the
/// partition's.
const SPREAD_SHIFT: u32 = BELOW_PARTITION - 8;

/// Sorts each group of `spread` (group `g` ending at `ends[g]`) into its
/// place in `sorted` (as long), the groups on any core.
fn sort_spread(spread: &[Entry], sorted: &mut [Entry], ends: &[usize]) {
    let mut groups = Vec::with_capacity(ends.len());
    let (mut from, mut to): (&[Entry], &mut [Entry]) = (spread, sorted);
    let mut start = 0;
    for &end in ends {
        let (group_from, rest_from) = from.split_at(end - start);
        let (group_to, rest_to) = to.split_at_mut(end - start);
        groups.push((group_from, group_to));
        (from, to) = (rest_from, rest_to);
        start = end;
    }
    groups
        .into_par_iter()
        .for_each_init(Vec::new, |next, (from, to)| {
            sort_groups(from, to, next, SPREAD_SHIFT);
        });
}

/// The key bits below a partition's.
const BELOW_PARTITION: u32 = 64 - PARTITION_BITS;

/// Partitions of more entries than this are spread by 8 more key bits
/// before they are sorted (see [`sort_partition`]).
const SPREAD: usize = 32 << 10;

/// Moves `entries` into `out` (of the same length) by their key bits
/// `shift..` under `mask`, stably; `next[g]` is then the end of group `g`.
fn scatter<S: EntrySource + ?Sized>(
    entries: &S,
    out: &mut [Entry],
    next: &mut Vec<usize>,
    shift: u32,
    mask: usize,
) -> Result<(), S::Error> {
    let group = |e: &Entry| (e.key() >> shift) as usize & mask;
    next.clear();
    next.resize(mask + 1, 0);
    entries.for_each(|e| next[group(&e)] += 1)?;
    let mut sum = 0;
    for n in next.iter_mut() {
        let c = *n;
        *n = sum;
        sum += c;
    }
    entries.for_each(|e| {
        let at = &mut next[group(&e)];
        if let Some(slot) = out.get_mut(*at) {
            *slot = e;
        }
        *at += 1;
    })
}

/// Entries in one order, handed out as often as asked: a counting sort
/// ([`scatter`]) goes over them twice.
trait EntrySource {
    /// Why the entries could not be handed out.
    type Error;

    /// Hands each entry to `each`, in order.
    fn for_each(&self, each: impl FnMut(Entry)) -> Result<(), Self::Error>;
}

impl EntrySource for [Entry] {
    type Error = std::convert::Infallible;

    #[inline]
    fn for_each(&self, mut each: impl FnMut(Entry)) -> Result<(), Self::Error> {
        for e in self {
            each(*e);
        }
        Ok(())
    }
}

/// The entries of partition `p` of `sources`, decoded from its pieces in
/// game order (the spool's from `read`, a read of its group).
struct PartitionEntries<'s> {
    sources: &'s Sources<'s>,
    read: &'s Prefetched,
    p: usize,
}

impl EntrySource for PartitionEntries<'_> {
    type Error = io::Error;

    #[inline]
    fn for_each(&self, mut each: impl FnMut(Entry)) -> io::Result<()> {
        for (bytes, first_game) in self.sources.pieces(self.p, self.read) {
            spill::for_each_entry(self.p, bytes, first_game, &mut each)?;
        }
        Ok(())
    }
}

/// Sorts `entries`, whose keys agree above their `bits` low bits, into
/// `out` (of the same length), stably: a counting sort by the top bits of
/// those, then each of its groups sorted by the whole key.
///
/// The groups are about one entry each: the few groups of more than
/// [`SMALL_GROUP`] (the games of a common position, keys alike by chance)
/// are sorted on their own, then one pass of insertion over the whole
/// sorts the rest, no entry moving out of its group: about 20% faster
/// than a group at a time (fewer, larger groups, each sorted by
/// insertion), and in linear time whatever the keys.
fn sort_groups(entries: &[Entry], out: &mut [Entry], next: &mut Vec<usize>, bits: u32) {
    // At most 4,096 groups: the table of the counting sort and the groups
    // being filled stay in the cache.
    let group_bits = (usize::BITS - entries.len().leading_zeros()).clamp(1, 12);
    let Ok(()) = scatter(
        entries,
        out,
        next,
        bits - group_bits,
        (1usize << group_bits) - 1,
    );
    let mut start = 0;
    for &end in next.iter() {
        if end - start > SMALL_GROUP {
            out[start..end].sort_by_key(Entry::key);
        }
        start = end;
    }
    insertion_sort(out);
}

/// Groups of at most this many entries are sorted by insertion.
const SMALL_GROUP: usize = 16;

/// Sorts entries by key, stably, by insertion: in linear time when no
/// entry is more than a few places from its own (as in [`sort_groups`]).
fn insertion_sort(entries: &mut [Entry]) {
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && entries[j - 1].key() > e.key() {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
    }
}

/// Memory for sorting one partition, kept from one partition to the next
/// (no fresh pages for each).
#[derive(Default)]
struct Scratch {
    /// The partition's entries, read back and decoded.
    entries: Vec<Entry>,
    /// The sort's memory.
    sorting: Sorting,
}

/// Memory of [`sort_partition`].
#[derive(Default)]
struct Sorting {
    /// The entries sorted (a small partition), or spread by 8 more key
    /// bits (a large one, then sorted back into its own table).
    spread: Vec<Entry>,
    /// The counting sort's counts.
    next: Vec<usize>,
}

/// Encodes `sorted` (a partition's entries, sorted) into `out` as position
/// table entries of `bits` bucket bits, without repeats.
fn encode_sorted(sorted: &[Entry], bits: u32, out: &mut Encoded) {
    out.clear();
    out.bytes.reserve(sorted.len() * POSITION_SIZE);
    let mut previous = None;
    for e in sorted {
        if previous == Some(e) {
            continue;
        }
        previous = Some(e);
        out.push(e, bits);
    }
    out.close();
}

impl Scratch {
    /// Sorts partition `p` of `sources` into `out`: read whole (entries of
    /// one key then come in game order, see [`sort_partition`]) and sorted.
    ///
    /// A large partition is decoded straight into its spread ([`scatter`]
    /// from its pieces, decoded twice): the entries are written once
    /// before they are sorted, not decoded then moved.
    fn encode_sources(
        &mut self,
        sources: &Sources<'_>,
        read: &Prefetched,
        p: usize,
        bits: u32,
        out: &mut Encoded,
    ) -> io::Result<()> {
        let n = usize::try_from(sources.entries(p)).map_err(io::Error::other)?;
        let source = PartitionEntries { sources, read, p };
        let mut entries = std::mem::take(&mut self.entries);
        if n <= SPREAD {
            entries.clear();
            entries.reserve(n);
            source.for_each(|e| entries.push(e))?;
            encode_sorted(sort_partition(&mut entries, &mut self.sorting), bits, out);
        } else {
            let Sorting { spread, next } = &mut self.sorting;
            // Every entry is written over: the memory is only cleared as
            // it grows.
            if spread.len() < n {
                spread.resize(n, Entry::default());
            }
            // Every entry is written over by the sort: only the memory
            // beyond the last partition's is cleared.
            entries.resize(n, Entry::default());
            let spread = &mut spread[..n];
            scatter(&source, spread, next, SPREAD_SHIFT, 0xff)?;
            if next.last() != Some(&n) {
                return Err(io::Error::other("a spilled partition is corrupt"));
            }
            sort_spread(spread, &mut entries, next);
            encode_sorted(&entries, bits, out);
        }
        self.entries = entries;
        Ok(())
    }
}

/// Where the position entries are when the index is written: the spool's
/// spills, then the entries kept in memory.
struct Sources<'a> {
    spool: Option<&'a Spool>,
    table: &'a Table,
}

impl Sources<'_> {
    /// Entries of partition `p`.
    fn entries(&self, p: usize) -> u64 {
        self.spool.map_or(0, |s| s.entries(p)) + self.table.entries(p)
    }

    /// The encoded entries of partition `p`, a piece at a time in game
    /// order, each with the game number its first difference is from,
    /// from `read` (a read of its group, [`Spool::read_group`]) and from
    /// memory.
    fn pieces<'r>(
        &'r self,
        p: usize,
        read: &'r Prefetched,
    ) -> impl Iterator<Item = (&'r [u8], u32)> {
        let spilled = self.spool.into_iter().flat_map(move |s| s.pieces(p, read));
        let kept = self
            .table
            .pieces(p)
            .map(|piece| (piece.bytes, piece.first_game));
        spilled.map(|bytes| (bytes, 0)).chain(kept)
    }

    /// Decodes the entries of partition `p`, a piece at a time in game
    /// order (read into `bytes` from the spool), and hands each piece's to
    /// `each` (in `entries`, emptied before each piece).
    fn read(
        &self,
        p: usize,
        bytes: &mut Aligned,
        mut each: impl FnMut(&[u8], u32) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(spool) = self.spool {
            spool.read_partition(p, bytes, |piece| each(piece, 0))?;
        }
        self.table
            .pieces(p)
            .try_for_each(|piece| each(piece.bytes, piece.first_game))
    }
}

/// Sorts partition `p` of `sources`, too large to be sorted with the
/// others (see [`WHOLE_SORT_BYTES`]), in `memory` bytes, and hands its
/// encoded entries to `emit` a megabyte at a time (in `chunk`).
///
/// When its entries fit in `memory` ([`LARGE_SORT_BYTES`] each) they are
/// read whole and sorted as a partition of a group is ([`sort_partition`]).
/// Beyond that they go through a [`Sorter`], which spills sorted runs to
/// `dir` in `memory` and merges them (equal entries come out
/// once): neither the entries nor their part of the table are ever whole
/// in memory.
fn write_large(
    sources: &Sources<'_>,
    p: usize,
    bits: u32,
    memory: u64,
    dir: &Path,
    chunk: &mut Encoded,
    emit: &mut dyn FnMut(&Encoded) -> io::Result<()>,
) -> io::Result<()> {
    let mut emit_sorted = |sorted: &mut dyn FnMut() -> io::Result<Option<Entry>>| {
        chunk.clear();
        while let Some(e) = sorted()? {
            chunk.push(&e, bits);
            if chunk.bytes.len() >= 1 << 20 {
                chunk.close();
                emit(chunk)?;
                chunk.clear();
            }
        }
        chunk.close();
        emit(chunk)?;
        chunk.clear();
        Ok(())
    };
    let mut bytes = Aligned::default();
    if sources.entries(p).saturating_mul(LARGE_SORT_BYTES) <= memory {
        let mut entries =
            Vec::with_capacity(usize::try_from(sources.entries(p)).map_err(io::Error::other)?);
        sources.read(p, &mut bytes, |piece, first_game| {
            spill::decode_partition(p, piece, first_game, &mut entries)
        })?;
        drop(bytes);
        let mut sorting = Sorting::default();
        let sorted = sort_partition(&mut entries, &mut sorting);
        let (mut next, mut previous) = (sorted.iter(), None);
        return emit_sorted(&mut || {
            Ok(next.by_ref().copied().find(|e| {
                let new = previous != Some(*e);
                previous = Some(*e);
                new
            }))
        });
    }
    let mut sorter = Sorter::new(memory, dir);
    let mut entries = Vec::new();
    sources.read(p, &mut bytes, |piece, first_game| {
        entries.clear();
        spill::decode_partition(p, piece, first_game, &mut entries)?;
        entries.iter().try_for_each(|&e| sorter.push(e))
    })?;
    drop((entries, bytes));
    let sorted = sorter.finish()?;
    let mut reader = sorted.reader()?;
    emit_sorted(&mut || reader.next())
}

/// Bytes of memory an entry of a large partition takes while it is sorted
/// whole ([`write_large`]): decoded (12), spread and sorted back (12).
const LARGE_SORT_BYTES: u64 = 24;

/// Bytes of memory an entry of a partition read whole takes while it is
/// sorted and encoded: read (9, and 9 more for the next group's, read
/// meanwhile), decoded and sorted back (12), spread (12), encoded (8, and
/// 8 more for the group before's, written meanwhile).
const WHOLE_SORT_BYTES: u64 = 58;

/// Of [`WHOLE_SORT_BYTES`], what a large partition has while it is
/// written ([`write_large`]): all but the next group's read (9) and the
/// encoded entries' buffer (8), which it writes through.
const LARGE_SHARE_BYTES: u64 = 41;

/// Partitions sorted at a time: their sorting and encoding is spread over
/// the threads, and while one group is written the next is sorted.
const GROUP: usize = 8;

/// The partitions sorted together, in order: up to `at_once` partitions
/// that fit in memory (`fits`), or one that does not, followed by an empty
/// group: while [`Pipeline`] writes the large one (when the empty group is
/// sorted), no other group is sorted, and it has the memory.
fn groups_of(at_once: usize, fits: impl Fn(usize) -> bool) -> Vec<Range<usize>> {
    let mut groups = Vec::new();
    let mut start = 0;
    for p in 0..PARTITIONS {
        if !fits(p) {
            if start < p {
                groups.push(start..p);
            }
            groups.push(p..p + 1);
            groups.push(p + 1..p + 1);
            start = p + 1;
        } else if p + 1 - start == at_once {
            groups.push(start..p + 1);
            start = p + 1;
        }
    }
    if start < PARTITIONS {
        groups.push(start..PARTITIONS);
    }
    groups
}

/// The three stages of writing the position table, side by side: groups
/// are read from the spool (`read`) on a thread of their own, sorted
/// (`compute`, on every core) and written (`write`) on another thread, in
/// order, each stage going on as soon as a buffer is free: two read
/// buffers and two encoded ones go round, so that while a group is
/// sorted the next is read and the one before written, without a stage
/// waiting for the slowest of the three at every group.
///
/// An empty group (after a large partition, see [`groups_of`]) is sorted
/// (its memory given back) and then waits until every group before it is
/// written: while the large partition is written, nothing is sorted and
/// only the next group is read.
struct Pipeline<'g, R, C, W> {
    groups: &'g [Range<usize>],
    read: R,
    compute: C,
    write: W,
}

impl<R, C, W> Pipeline<'_, R, C, W>
where
    R: FnMut(usize, &mut Prefetched) -> io::Result<()> + Send,
    C: FnMut(usize, &Prefetched, &mut Vec<Encoded>) -> io::Result<()>,
    W: FnMut(&mut Vec<Encoded>) -> io::Result<()> + Send,
{
    fn run(self) -> io::Result<()> {
        use std::sync::mpsc::sync_channel;
        let Pipeline {
            groups,
            mut read,
            mut compute,
            mut write,
        } = self;
        let n = groups.len();
        // Buffers go round: free ones to the reader, read ones to the
        // sort, encoded ones to the writer, and written ones back.
        let (free_read, free_reads) = sync_channel::<Prefetched>(2);
        let (to_sort, reads) = sync_channel::<(usize, Prefetched)>(2);
        let (to_writer, encoded) = sync_channel::<Vec<Encoded>>(2);
        let (written_back, free_outs) = sync_channel::<Vec<Encoded>>(2);
        for _ in 0..2 {
            free_read
                .send(Prefetched::default())
                .map_err(|_| io::Error::other("the index writer's pipeline stopped"))?;
        }
        let stopped = || io::Error::other("the index writer's pipeline stopped");
        std::thread::scope(|scope| -> io::Result<()> {
            let reader = scope.spawn(move || -> io::Result<()> {
                for g in 0..n {
                    // The sort stopped (an error): so does the reader.
                    let Ok(mut buffer) = free_reads.recv() else {
                        return Ok(());
                    };
                    read(g, &mut buffer)?;
                    if to_sort.send((g, buffer)).is_err() {
                        return Ok(());
                    }
                }
                Ok(())
            });
            let writer = scope.spawn(move || -> io::Result<()> {
                for mut out in encoded {
                    write(&mut out)?;
                    // The sort may have ended: nothing more to write.
                    let _ = written_back.send(out);
                }
                Ok(())
            });
            let mut spare: Vec<Vec<Encoded>> = vec![Vec::new(), Vec::new()];
            let sorted = (|| -> io::Result<()> {
                for (g, mut buffer) in reads {
                    let mut out = match spare.pop() {
                        Some(out) => out,
                        None => free_outs.recv().map_err(|_| stopped())?,
                    };
                    if groups[g].is_empty() {
                        // After a large partition: its memory is the large
                        // one's, written meanwhile (see `groups_of`).
                        buffer = Prefetched::default();
                    }
                    compute(g, &buffer, &mut out)?;
                    if groups[g].is_empty() {
                        // Every group before it written: the other buffer
                        // back (the one the large partition was written
                        // from; `spare` is empty after the first groups).
                        if spare.is_empty() {
                            spare.push(free_outs.recv().map_err(|_| stopped())?);
                        }
                    }
                    let _ = free_read.send(buffer);
                    to_writer.send(out).map_err(|_| stopped())?;
                }
                Ok(())
            })();
            drop(to_writer);
            drop(free_read);
            let joined = |h: std::thread::ScopedJoinHandle<'_, io::Result<()>>| {
                h.join().unwrap_or_else(|_| {
                    Err(io::Error::other("a thread of the index writer panicked"))
                })
            };
            let (read, written) = (joined(reader), joined(writer));
            // The stage that failed first says why; "stopped" only follows.
            read.and(written).and(sorted)
        })
    }
}

/// The bucket directory and bucket checksums, computed as the position
/// table is written in order.
struct Directory {
    /// Entry index where each bucket starts (and the end of the last).
    starts: Vec<u64>,
    crcs: Vec<u32>,
    hasher: crc32fast::Hasher,
    current: usize,
    /// Entries written so far.
    entries: u64,
}

impl Directory {
    fn new(bits: u32) -> Directory {
        let buckets = 1usize << bits;
        Directory {
            starts: vec![0; buckets + 1],
            crcs: vec![0; buckets],
            hasher: crc32fast::Hasher::new(),
            current: 0,
            entries: 0,
        }
    }

    /// Accounts for `e`, the next entries of the table.
    fn add(&mut self, e: &Encoded) {
        let mut from = 0usize;
        for &(b, end) in &e.segments {
            if b != self.current {
                self.crcs[self.current] = std::mem::take(&mut self.hasher).finalize();
                for d in &mut self.starts[self.current + 1..=b] {
                    *d = self.entries;
                }
                self.current = b;
            }
            self.hasher.update(&e.bytes[from..end]);
            self.entries += ((end - from) / POSITION_SIZE) as u64;
            from = end;
        }
    }

    /// Ends the table.
    fn finish(&mut self) {
        self.crcs[self.current] = std::mem::take(&mut self.hasher).finalize();
        for d in &mut self.starts[self.current + 1..] {
            *d = self.entries;
        }
    }
}

/// The fewest bytes of entries spilled at a time (a smaller budget would
/// only multiply the spills).
const MIN_RUN: u64 = 4 << 10;

/// Estimated bytes of memory a distinct name costs beyond its text (its
/// offset, its key in the lookup table, the table's slot).
const NAME_OVERHEAD: u64 = 64;

/// Memory of the table that finds a name already stored (estimated as
/// 64 bytes plus twice its text per name). When it is full it is
/// emptied, and a name seen before is stored again under a new id: a
/// database of millions of distinct names (one Site per lichess game) is
/// indexed in bounded memory, at the cost of some names stored twice.
/// Fixed, not taken from the memory budget, so that the index does not
/// depend on the budget.
pub const NAME_CACHE: u64 = 16 << 20;

/// Where the builder spills what does not fit in its memory budget.
struct Spill {
    /// The directory of the temporary files.
    dir: PathBuf,
    /// The memory budget, in bytes.
    memory: u64,
    /// The position entries spilled, once the tables have been full.
    spiller: Option<Spiller>,
    /// Times the position entries were spilled.
    spilled: u64,
    /// The game records written out so far, in file order.
    games: Option<SpilledGames>,
    /// Their checksum so far.
    games_crc: crc32fast::Hasher,
    /// The index being written, when it was begun before the end.
    output: Option<Temporary>,
    /// The name table's offsets and bytes written out so far, in id order.
    names: Option<(BufWriter<std::fs::File>, BufWriter<std::fs::File>)>,
}

/// Where the game records that did not fit in memory are.
enum SpilledGames {
    /// In the index itself, begun early ([`Builder::start_output`]), after
    /// its header's place: where they belong.
    InIndex(Direct),
    /// In a file of their own, copied into the index at the end.
    OwnFile(Direct),
}

impl SpilledGames {
    /// The file they are written to.
    fn file(&mut self) -> &mut Direct {
        match self {
            SpilledGames::InIndex(file) | SpilledGames::OwnFile(file) => file,
        }
    }
}

/// Gathers batches in file order and writes the index.
///
/// [`Builder::new`] keeps every table in memory (8 or 9 bytes per
/// main-line position, 80 per game, the names). [`Builder::bounded`] keeps
/// the memory it uses under a budget: the position entries fill one of two
/// tables of half what the budget leaves; when it is full, a thread of its
/// own appends its entries as they are to a temporary spill file (see the
/// [`spill`] module) while the other table fills, and the game records go
/// to another file, or straight into the index when it was begun early
/// ([`Builder::start_output`]); [`Builder::write`] then sorts each key
/// partition once while it writes the index, which is byte for byte the
/// index [`Builder::new`] writes. The names (players, events, sites,
/// rounds, dates) are stored once each while the table that finds them
/// fits in [`NAME_CACHE`]; their offsets and bytes are spilled to files of
/// their own.
pub struct Builder {
    lookup: FastMap<Box<str>, u32>,
    /// Estimated memory of `lookup`.
    lookup_memory: u64,
    /// The most `lookup` may hold ([`NAME_CACHE`]; smaller in tests).
    name_cache: u64,
    /// Strings in the name table (string 0, the empty string, included).
    strings: u64,
    /// The end offsets of the names not spilled yet (the first is the
    /// start of the first of them).
    string_offsets: Vec<u64>,
    /// The bytes of the names not spilled yet.
    string_data: Vec<u8>,
    /// Bytes of names spilled before `string_data`.
    data_spilled: u64,
    games: Vec<u8>,
    game_count: u64,
    /// Position entries by partition of their key, encoded (8 or 9
    /// bytes an entry), batch after batch, not spilled yet.
    table: Table,
    /// Batches' entries spilled, their memory to be used again: each is
    /// given to a batch taken in exchange for its own.
    free: Vec<BatchEntries>,
    /// Position entries so far (repeats within a game included).
    positions: u64,
    remap: Vec<u32>,
    /// Spilling, for a bounded builder.
    spill: Option<Spill>,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// An empty index (string 0 is the empty string), built in memory.
    pub fn new() -> Builder {
        Builder {
            lookup: FastMap::default(),
            lookup_memory: 0,
            name_cache: NAME_CACHE,
            strings: 1,
            string_offsets: vec![0, 0],
            string_data: Vec::new(),
            data_spilled: 0,
            games: Vec::new(),
            game_count: 0,
            table: Table::default(),
            free: Vec::new(),
            positions: 0,
            remap: Vec::new(),
            spill: None,
        }
    }

    /// An empty index built in about `memory` bytes, whatever the number of
    /// games: position entries and game records beyond it are spilled to
    /// anonymous temporary files in `dir` (see the [`spill`]
    /// module), which the operating system removes when they are closed or
    /// the process ends. `dir` is best the directory of the index: it must
    /// have room for about 1.6 times the index while it is written.
    pub fn bounded(memory: u64, dir: &Path) -> Builder {
        Builder {
            spill: Some(Spill {
                dir: dir.to_path_buf(),
                memory,
                spiller: None,
                spilled: 0,
                games: None,
                games_crc: crc32fast::Hasher::new(),
                output: None,
                names: None,
            }),
            ..Builder::new()
        }
    }

    /// Begins the index file that [`Builder::write`] will write to `path`
    /// (which it must then be given): a bounded builder writes the game
    /// records that do not fit in its budget straight to their place in
    /// it, not to a temporary file to be copied at the end. The file is a
    /// temporary one beside `path` until the index is complete, removed
    /// if the builder is dropped first or on an interrupt
    /// ([`remove_temporary_files`]). An unbounded builder writes nothing
    /// before [`Builder::write`].
    ///
    /// # Errors
    /// When the temporary file cannot be created.
    pub fn start_output(&mut self, path: &Path) -> io::Result<()> {
        if let Some(spill) = &mut self.spill
            && spill.output.is_none()
            && spill.games.is_none()
        {
            spill.output = Some(Temporary::beside(path)?);
        }
        Ok(())
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.game_count
    }

    /// Times the position entries were spilled so far.
    pub fn runs(&self) -> u64 {
        self.spill.as_ref().map_or(0, |s| s.spilled)
    }

    /// Bytes of memory the tables hold now (an estimate for the names).
    pub fn memory(&self) -> u64 {
        let free: usize = self.free.iter().map(BatchEntries::memory).sum();
        (self.table.memory() + free + self.games.len()) as u64 + self.names_memory()
    }

    fn names_memory(&self) -> u64 {
        self.lookup_memory + 8 * self.string_offsets.len() as u64 + self.string_data.len() as u64
    }

    /// Adds the next batch (batches must come in file order).
    ///
    /// A bounded builder spills its tables here once they reach its budget;
    /// an I/O error while spilling is returned.
    pub fn add(&mut self, mut batch: Batch) -> Result<(), BuildError> {
        self.take(&mut batch)
    }

    /// Adds the next batch like [`Builder::add`], and leaves it empty with
    /// its memory, to be filled with the games of another chunk: no fresh
    /// memory is touched for each chunk.
    pub fn take(&mut self, batch: &mut Batch) -> Result<(), BuildError> {
        if let Some(e) = batch.overflow.take() {
            return Err(e);
        }
        let first = self.game_count;
        let count = batch.games.len() as u64;
        match first.checked_add(count) {
            Some(n) if n <= u64::from(u32::MAX) => {}
            _ => return Err(BuildError::TooManyGames),
        }
        self.remap.clear();
        for s in batch.names.iter() {
            let id = match self.lookup.get(s) {
                Some(&id) => id,
                None => {
                    let id = u32::try_from(self.strings).map_err(|_| BuildError::TooManyStrings)?;
                    self.strings += 1;
                    self.string_data.extend_from_slice(s.as_bytes());
                    self.string_offsets
                        .push(self.data_spilled + self.string_data.len() as u64);
                    let cost = NAME_OVERHEAD + 2 * s.len() as u64;
                    if self.lookup_memory + cost > self.name_cache {
                        self.lookup = FastMap::default();
                        self.lookup_memory = 0;
                    }
                    self.lookup_memory += cost;
                    self.lookup.insert(s.into(), id);
                    id
                }
            };
            self.remap.push(id);
        }
        // Left empty, with its memory, for another chunk.
        batch.names.clear();
        if let Some(s) = &self.spill
            && 8 * self.string_offsets.len() as u64 + self.string_data.len() as u64 >= s.memory / 8
        {
            self.spill_names()?;
        }
        self.games.reserve(batch.games.len() * GAME_SIZE);
        for mut p in batch.games.drain(..) {
            for (i, local) in p.texts.iter().enumerate() {
                let id = if *local == u32::MAX {
                    0
                } else {
                    self.remap.get(*local as usize).copied().unwrap_or(0)
                };
                let at = layout::game::TEXTS + 4 * i;
                p.record[at..at + 4].copy_from_slice(&id.to_le_bytes());
            }
            self.games.extend_from_slice(&p.record);
        }
        self.game_count = first + count;
        if let Some(s) = &self.spill
            && self.games.len() as u64 >= s.memory / 4
        {
            self.spill_games()?;
        }
        self.positions += batch.positions as u64;
        batch.positions = 0;
        // The batch's entries are kept as they are; it goes on with the
        // memory of entries spilled before.
        batch.seal();
        // `first + count` fits in a u32 (checked above).
        let first = u32::try_from(first).map_err(|_| BuildError::TooManyGames)?;
        let spare = self.free.pop().unwrap_or_default();
        let entries = Arc::new(std::mem::replace(&mut batch.entries, spare));
        batch.keys.clear();
        batch.ends.clear();
        batch.sealed = false;
        // As many of its partitions as the table has room for (one at
        // least in an empty table), the table spilled, and so on.
        let mut from = 0;
        while from < PARTITIONS {
            let left = self.room().saturating_sub(self.table.memory());
            let mut to = from;
            while to < PARTITIONS
                && (entries.bytes_of(from..to + 1) <= left || (to == from && self.table.is_empty()))
            {
                to += 1;
            }
            if to > from {
                self.table.push(&entries, first, from..to);
            }
            if to < PARTITIONS || self.table.memory() >= self.room() {
                self.spill_tables()?;
            }
            from = to;
        }
        Ok(())
    }

    /// How many bytes of memory position entries may hold before they are
    /// spilled: what the budget leaves beside the game records and the
    /// names, but never less than an eighth of it (no tiny spills when the
    /// names alone outgrow the budget), nor than [`MIN_RUN`] bytes.
    fn room(&self) -> usize {
        let Some(s) = &self.spill else {
            return usize::MAX;
        };
        let others = self.games.len() as u64 + self.names_memory();
        // Two tables of entries: one is filled while the other is spilled.
        let bytes = (s.memory.saturating_sub(others).max(s.memory / 8) / 2).max(MIN_RUN);
        usize::try_from(bytes).unwrap_or(usize::MAX)
    }

    /// Appends the game records to the games file and empties their table.
    fn spill_games(&mut self) -> io::Result<()> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if !self.games.is_empty() {
            let games = match &mut spill.games {
                Some(games) => games,
                None => spill.games.insert(match &spill.output {
                    Some(output) => {
                        // Where they go in the index: after its header.
                        let mut out = Direct::new(output.file.try_clone()?);
                        out.write_all(&[0u8; HEADER_SIZE])?;
                        SpilledGames::InIndex(out)
                    }
                    None => SpilledGames::OwnFile(Direct::new(tempfile::tempfile_in(&spill.dir)?)),
                }),
            };
            games.file().write_all(&self.games)?;
            spill.games_crc.update(&self.games);
            self.games.clear();
        }
        Ok(())
    }

    /// Appends the names' offsets and bytes to their files and empties
    /// their tables (the last offset stays: it starts the next name).
    fn spill_names(&mut self) -> io::Result<()> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        let Some((&last, done)) = self.string_offsets.split_last() else {
            return Ok(());
        };
        if done.is_empty() {
            return Ok(());
        }
        let (offsets, data) = match &mut spill.names {
            Some(files) => files,
            None => spill.names.insert((
                BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&spill.dir)?),
                BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&spill.dir)?),
            )),
        };
        for o in done {
            offsets.write_all(&o.to_le_bytes())?;
        }
        data.write_all(&self.string_data)?;
        self.data_spilled += self.string_data.len() as u64;
        self.string_data.clear();
        self.string_offsets.clear();
        self.string_offsets.push(last);
        Ok(())
    }

    /// Appends the game records to the games file and the position entries
    /// to the spool (as they are, a partition after the other), and empties
    /// both tables (keeping their memory for the next spill: the pages stay
    /// in use, the resident memory does not grow).
    fn spill_tables(&mut self) -> io::Result<()> {
        self.spill_games()?;
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if self.table.is_empty() {
            return Ok(());
        }
        let spiller = match &mut spill.spiller {
            Some(s) => s,
            None => spill.spiller.insert(Spiller::create(&spill.dir)?),
        };
        let full = std::mem::take(&mut self.table);
        if let Some(mut written) = spiller.spill(full)? {
            written.drain_into(&mut self.free);
        }
        spill.spilled += 1;
        Ok(())
    }

    /// Writes the index for a PGN file with fingerprint `pgn` to `path`,
    /// through a temporary file in the same directory that is renamed into
    /// place once complete and synced.
    pub fn write(mut self, path: &Path, pgn: &Fingerprint) -> Result<Summary, BuildError> {
        if let Some(mut output) = self.spill.as_mut().and_then(|s| s.output.take()) {
            if output.target != path {
                return Err(BuildError::Io(io::Error::other(format!(
                    "the index was begun for `{}`, not `{}`",
                    output.target.display(),
                    path.display()
                ))));
            }
            let summary = self.write_to(&mut output.file, pgn)?;
            output.persist()?;
            return Ok(summary);
        }
        let mut summary = None;
        write_atomically(path, |file| {
            summary = Some(self.write_to(file, pgn)?);
            Ok(())
        })?;
        summary.ok_or_else(|| BuildError::Io(io::Error::other("nothing written")))
    }

    fn write_to(&mut self, file: &mut std::fs::File, pgn: &Fingerprint) -> io::Result<Summary> {
        // Written around the page cache where the system allows it: the
        // index is read by searches a bucket at a time, never whole, and
        // gigabytes of it would take the page cache's free memory, one
        // fresh page after the other.
        let put = |out: &mut Direct, bytes: &[u8], at: &mut u64| -> io::Result<()> {
            out.write_all(bytes)?;
            *at += bytes.len() as u64;
            Ok(())
        };
        let pad = |out: &mut Direct, at: &mut u64| -> io::Result<()> {
            let n = (8 - (*at % 8) as usize) % 8;
            out.write_all(&[0u8; 8][..n])?;
            *at += n as u64;
            Ok(())
        };
        // No name is added any more.
        self.lookup = FastMap::default();
        self.lookup_memory = 0;

        // Once spilled, the last entries are spilled too, and the tables'
        // memory is given back: the pages that held them (the whole budget,
        // filled before each spill) are free for the sort.
        if self.spill.as_ref().is_some_and(|s| s.spiller.is_some()) {
            self.spill_tables()?;
            self.table = Table::default();
            self.free = Vec::new();
        }
        let (mut spool, memory, dir) = match self.spill.as_mut() {
            Some(s) => (
                s.spiller.take().map(Spiller::finish).transpose()?,
                s.memory,
                s.dir.clone(),
            ),
            // Everything is sorted in memory.
            None => (None, u64::MAX, std::env::temp_dir()),
        };
        let bits = layout::bucket_bits(self.positions);
        if let Some(spool) = spool.as_mut() {
            // At most: repeats within a game are dropped.
            let index = self.game_count * GAME_SIZE as u64
                + 8 * (self.strings + 1)
                + self.data_spilled
                + self.string_data.len() as u64
                + self.positions * POSITION_SIZE as u64
                + (1u64 << bits) * 12
                + HEADER_SIZE as u64;
            spool.release_only_if_short(index);
        }

        // The spilled game records are in the index already (it was begun
        // early), or copied from their own file.
        let (mut out, mut at, spilled) = match self.spill.as_mut().and_then(|s| s.games.take()) {
            Some(SpilledGames::InIndex(games)) => {
                let at = games.len();
                (games, at, None)
            }
            spilled => {
                let mut out = Direct::new(file.try_clone()?);
                out.write_all(&[0u8; HEADER_SIZE])?;
                let own = match spilled {
                    Some(SpilledGames::OwnFile(games)) => Some(games),
                    _ => None,
                };
                (out, HEADER_SIZE as u64, own)
            }
        };
        let games_at = HEADER_SIZE as u64;
        if let Some(spilled) = spilled {
            spilled.read_back(&mut |bytes| put(&mut out, bytes, &mut at))?;
        }
        let mut games_crc = self
            .spill
            .as_mut()
            .map_or_else(crc32fast::Hasher::new, |s| {
                std::mem::replace(&mut s.games_crc, crc32fast::Hasher::new())
            });
        games_crc.update(&self.games);
        put(&mut out, &self.games, &mut at)?;
        if at - games_at != self.game_count * GAME_SIZE as u64 {
            return Err(io::Error::other("the spilled game table is incomplete"));
        }
        let games_crc = games_crc.finalize();

        let strings_at = at;
        let mut strings_crc = crc32fast::Hasher::new();
        let spilled_names = self.spill.as_mut().and_then(|s| s.names.take());
        let mut spilled_data = None;
        if let Some((offsets, data)) = spilled_names {
            copy_back(offsets, &mut |bytes| {
                strings_crc.update(bytes);
                put(&mut out, bytes, &mut at)
            })?;
            spilled_data = Some(data);
        }
        let mut offsets = Vec::with_capacity(self.string_offsets.len() * 8);
        for o in &self.string_offsets {
            offsets.extend_from_slice(&o.to_le_bytes());
        }
        strings_crc.update(&offsets);
        put(&mut out, &offsets, &mut at)?;
        drop(offsets);
        let data_at = at;
        if let Some(data) = spilled_data {
            copy_back(data, &mut |bytes| {
                strings_crc.update(bytes);
                put(&mut out, bytes, &mut at)
            })?;
        }
        strings_crc.update(&self.string_data);
        put(&mut out, &self.string_data, &mut at)?;
        if at - data_at != self.data_spilled + self.string_data.len() as u64
            || data_at - strings_at != 8 * (self.strings + 1)
        {
            return Err(io::Error::other("the spilled name table is incomplete"));
        }
        pad(&mut out, &mut at)?;
        // The game and name tables are written: their memory is the sort's.
        self.games = Vec::new();
        self.string_data = Vec::new();
        self.string_offsets = Vec::new();

        let positions_at = at;
        let mut directory = Directory::new(bits);
        // A partition is read whole (from the spool's spills in order,
        // then from memory) and sorted when it fits in the budget
        // ([`WHOLE_SORT_BYTES`] an entry: the tables and the workers'
        // memory are given back by now), as many at a time as the budget
        // holds, up to a group: a group's spilled bytes are read while the
        // group before is sorted, which is written meanwhile. A larger one
        // (the start position is in every game, so one partition grows
        // with the number of games) is a group of its own, sorted through
        // sorted runs in a quarter of the budget by the writing thread, and
        // written as it comes out of the merge.
        let sources = Sources {
            spool: spool.as_ref(),
            table: &self.table,
        };
        let fits = |p: usize| sources.entries(p).saturating_mul(WHOLE_SORT_BYTES) <= memory;
        let largest = (0..PARTITIONS)
            .filter(|&p| fits(p))
            .map(|p| sources.entries(p))
            .max()
            .unwrap_or(0);
        let at_once =
            (memory / (largest * WHOLE_SORT_BYTES).max(1)).clamp(1, GROUP as u64) as usize;
        let groups = groups_of(at_once, fits);
        // A large partition is written while the group after it, empty,
        // is sorted: the sort's memory is given back meanwhile.
        let large_memory = memory / WHOLE_SORT_BYTES * LARGE_SHARE_BYTES;
        let dir = dir.as_path();
        // The sort's memory, a partition's at a time on each thread: taken
        // for a partition and given back, so that the next one sorted on
        // that core finds it in the cache.
        let scratch: Mutex<Vec<Scratch>> = Mutex::new(Vec::new());
        let take = || {
            scratch
                .lock()
                .ok()
                .and_then(|mut s| s.pop())
                .unwrap_or_default()
        };
        let give = |s: Scratch| {
            if let Ok(mut free) = scratch.lock() {
                free.push(s);
            }
        };
        Pipeline {
            groups: &groups,
            read: |g: usize, read: &mut Prefetched| match sources.spool {
                Some(spool) if !groups[g].is_empty() && fits(groups[g].start) => {
                    spool.read_group(groups[g].clone(), read)
                }
                _ => Ok(()),
            },
            compute: |g: usize, read: &Prefetched, encoded: &mut Vec<Encoded>| {
                let group = groups[g].clone();
                if group.is_empty()
                    && let Ok(mut free) = scratch.lock()
                {
                    *free = Vec::new();
                }
                encoded.resize_with(group.len(), Encoded::default);
                group
                    .into_par_iter()
                    .zip(encoded.par_iter_mut())
                    .map(|(p, e)| {
                        e.partition = p;
                        e.large = !fits(p);
                        if e.large {
                            e.clear();
                            Ok(())
                        } else {
                            let mut s = take();
                            let sorted = s.encode_sources(&sources, read, p, bits, e);
                            give(s);
                            sorted
                        }
                    })
                    .collect::<io::Result<()>>()
            },
            write: |encoded: &mut Vec<Encoded>| -> io::Result<()> {
                let mut emit = |e: &Encoded| {
                    directory.add(e);
                    put(&mut out, &e.bytes, &mut at)
                };
                for e in encoded.iter_mut() {
                    if e.large {
                        write_large(&sources, e.partition, bits, large_memory, dir, e, &mut emit)?;
                    } else {
                        emit(e)?;
                    }
                }
                // Those partitions are read for the last time: their disk
                // space goes back to the system.
                if let (Some(spool), Some(first), Some(last)) =
                    (sources.spool, encoded.first(), encoded.last())
                {
                    spool.release(first.partition..last.partition + 1);
                }
                Ok(())
            },
        }
        .run()?;
        directory.finish();

        let directory_at = at;
        let mut directory_crc = crc32fast::Hasher::new();
        for chunk in directory.starts.chunks(1 << 14) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
            directory_crc.update(&bytes);
            put(&mut out, &bytes, &mut at)?;
        }
        for chunk in directory.crcs.chunks(1 << 14) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|c| c.to_le_bytes()).collect();
            directory_crc.update(&bytes);
            put(&mut out, &bytes, &mut at)?;
        }
        let directory_crc = directory_crc.finalize();
        pad(&mut out, &mut at)?;
        let size = at;
        let index = directory.entries;

        let mut h = [0u8; HEADER_SIZE];
        let mut set = |at: usize, bytes: &[u8]| h[at..at + bytes.len()].copy_from_slice(bytes);
        set(0, &MAGIC);
        set(header::VERSION, &VERSION.to_le_bytes());
        set(header::HEADER_SIZE, &(HEADER_SIZE as u32).to_le_bytes());
        set(header::PGN_SIZE, &pgn.size.to_le_bytes());
        set(header::PGN_MTIME_SECS, &pgn.mtime_secs.to_le_bytes());
        set(header::PGN_MTIME_NANOS, &pgn.mtime_nanos.to_le_bytes());
        set(header::PGN_HEAD_CRC, &pgn.head_crc.to_le_bytes());
        set(header::PGN_TAIL_CRC, &pgn.tail_crc.to_le_bytes());
        set(header::BUCKET_BITS, &bits.to_le_bytes());
        set(header::GAMES, &self.game_count.to_le_bytes());
        let strings = self.strings;
        set(header::STRINGS, &strings.to_le_bytes());
        set(header::POSITIONS, &index.to_le_bytes());
        set(header::FILE_SIZE, &size.to_le_bytes());
        set(header::GAMES_AT, &games_at.to_le_bytes());
        set(header::STRINGS_AT, &strings_at.to_le_bytes());
        set(header::STRING_DATA_AT, &data_at.to_le_bytes());
        set(header::POSITIONS_AT, &positions_at.to_le_bytes());
        set(header::DIRECTORY_AT, &directory_at.to_le_bytes());
        set(header::GAMES_CRC, &games_crc.to_le_bytes());
        set(header::STRINGS_CRC, &strings_crc.finalize().to_le_bytes());
        set(header::DIRECTORY_CRC, &directory_crc.to_le_bytes());
        set(
            header::OPENINGS,
            &pgnkit_opening::table_digest().to_le_bytes(),
        );
        let header_crc = crc(&h[..header::HEADER_CRC]);
        h[header::HEADER_CRC..header::HEADER_CRC + 4].copy_from_slice(&header_crc.to_le_bytes());

        drop(out.finish()?);
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&h)?;
        Ok(Summary {
            games: self.game_count,
            strings,
            positions: index,
            bytes: size,
            runs: self.runs(),
        })
    }
}

/// Reads a spilled file from its start and hands its bytes to `put`, a
/// megabyte at a time.
fn copy_back(
    file: BufWriter<std::fs::File>,
    put: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut file = file.into_inner().map_err(|e| e.into_error())?;
    file.seek(SeekFrom::Start(0))?;
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(());
        }
        put(&buffer[..n])?;
    }
}

/// The temporary files [`write_atomically`] is writing now, for
/// [`remove_temporary_files`].
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files that [`write_atomically`] is writing now (a
/// half-written index): for a Ctrl-C or SIGTERM handler, just before the
/// process exits. The spill files of a [`Builder`] need nothing: they are
/// anonymous files that the operating system reclaims.
pub fn remove_temporary_files() {
    for path in temporaries().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Writes `path` through `write`, atomically: the bytes go to a new
/// temporary file in the same directory (`.NAME.PID.N.tmp`, created like any
/// new file, so with the usual permissions), which is synced and renamed to
/// `path` only when `write` succeeds. On any error the temporary file is
/// removed and `path` is left as it was; while it is written,
/// [`remove_temporary_files`] removes it.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut std::fs::File) -> io::Result<()>,
{
    let mut temporary = Temporary::beside(path)?;
    write(&mut temporary.file)?;
    temporary.persist()
}

/// A new file beside `target` (`.NAME.PID.N.tmp`) that becomes `target`
/// when it is persisted ([`Temporary::persist`]), and is removed when it is
/// dropped before, or by [`remove_temporary_files`] on an interrupt.
struct Temporary {
    file: std::fs::File,
    path: PathBuf,
    target: PathBuf,
    /// Renamed to `target`.
    persisted: bool,
}

impl Temporary {
    /// Creates it.
    fn beside(target: &Path) -> io::Result<Temporary> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            // Registered before it exists: an interrupt never misses it.
            temporaries().push(path.clone());
            match std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    return Ok(Temporary {
                        file,
                        path,
                        target: target.to_path_buf(),
                        persisted: false,
                    });
                }
                Err(e) => {
                    temporaries().retain(|p| p != &path);
                    if e.kind() != io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Syncs it and renames it to its target.
    fn persist(mut self) -> io::Result<()> {
        self.file.sync_all()?;
        // Renamed under the lock, and only if an interrupt did not remove
        // it first: an interrupt either removes the temporary file before
        // the rename, or finds the index complete, never a rename in
        // between.
        let temporaries = temporaries();
        if !temporaries.contains(&self.path) {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted: the index was not written",
            ));
        }
        std::fs::rename(&self.path, &self.target)?;
        drop(temporaries);
        self.persisted = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
        temporaries().retain(|p| p != &self.path);
    }
}

/// The temporary files being written, locked.
fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch taken by a builder is left empty (its games, names and
    /// positions), to be filled again: nothing of one chunk is added again
    /// with the next.
    /// The position table's partitions are sorted in groups of up to
    /// `at_once` in order, each partition once, one too large for memory
    /// in a group of its own.
    #[test]
    fn groups_hold_up_to_at_once_partitions_and_a_large_one_alone() {
        let large = [3usize, 4, 100, 255];
        let groups = groups_of(8, |p| !large.contains(&p));
        let flat: Vec<usize> = groups.iter().flat_map(Clone::clone).collect();
        assert_eq!(flat, (0..PARTITIONS).collect::<Vec<_>>());
        for (i, g) in groups.iter().enumerate() {
            assert!(g.len() <= 8, "{g:?}");
            if g.clone().any(|p| large.contains(&p)) {
                assert_eq!(g.len(), 1, "{g:?}");
                // The next group is empty: nothing is sorted meanwhile.
                assert_eq!(groups[i + 1], g.end..g.end);
            } else if g.is_empty() {
                assert!(large.contains(&(g.start - 1)), "{g:?}");
            }
        }
        assert_eq!(groups[..6], [0..3, 3..4, 4..4, 4..5, 5..5, 5..13]);
        assert_eq!(groups[groups.len() - 2..], [255..256, 256..256]);
        assert_eq!(groups_of(1, |_| true).len(), PARTITIONS);
        assert_eq!(groups_of(8, |_| true).len(), PARTITIONS / 8);
        assert_eq!(groups_of(8, |_| false).len(), 2 * PARTITIONS);
    }

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

    /// Names are numbered by first appearance, found again whatever the
    /// table's growth, and forgotten by `clear`, in one batch after another.
    #[test]
    fn a_batch_numbers_its_names_by_first_appearance() {
        let mut names = Names::default();
        for round in 0..3 {
            let words: Vec<String> = (0..5_000)
                .map(|i| format!("{round} Player {}", i % 1_700))
                .collect();
            let mut expected: Vec<&str> = Vec::new();
            for w in &words {
                let id = names.intern(w).unwrap() as usize;
                match expected.iter().position(|e| e == w) {
                    Some(at) => assert_eq!(id, at, "{w}"),
                    None => {
                        assert_eq!(id, expected.len(), "{w}");
                        expected.push(w);
                    }
                }
            }
            assert_eq!(names.iter().collect::<Vec<_>>(), expected);
            assert_eq!(names.intern("é…").unwrap() as usize, expected.len());
            names.clear();
            assert_eq!(names.iter().count(), 0);
        }
    }

    /// A table of four batches whose partition `p` is larger than
    /// [`SPREAD`] (keys repeated within and across games, a few in
    /// another partition), with the entries of `p` in game order; `count`
    /// changes each batch's entries before they are held.
    fn table_with_a_large_partition(
        p: usize,
        count: impl Fn(&mut BatchEntries),
    ) -> (Table, Vec<Entry>) {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut table = Table::default();
        let mut all = Vec::new();
        let mut first_game = 0u32;
        for _ in 0..4 {
            let (mut keys, mut ends) = (Vec::new(), Vec::new());
            for game in 0..3_000u32 {
                for _ in 0..next() % 9 {
                    let low = match next() % 4 {
                        0 => 0x1234,
                        _ => next() >> PARTITION_BITS,
                    };
                    // Mostly in partition `p`, a few elsewhere.
                    let top = if next() % 16 == 0 { 0x11 } else { p as u64 };
                    let key = (top << BELOW_PARTITION) | low;
                    keys.push(key);
                    if top == p as u64 {
                        all.push(Entry::new(key, first_game + game));
                    }
                }
                ends.push(keys.len());
            }
            let mut entries = BatchEntries::default();
            entries.encode(&keys, &ends);
            count(&mut entries);
            table.push(&std::sync::Arc::new(entries), first_game, 0..PARTITIONS);
            first_game += 3_000 + (next() % 1_000) as u32;
        }
        assert!(all.len() > SPREAD, "{} entries", all.len());
        (table, all)
    }

    /// A partition larger than [`SPREAD`], in pieces of several batches,
    /// decoded straight into its spread and sorted, encodes as a plain
    /// sort of its entries does.
    #[test]
    fn a_large_partition_decoded_into_its_spread_encodes_as_a_plain_sort() {
        let p = 0x5A;
        let (table, mut all) = table_with_a_large_partition(p, |_| {});
        let sources = Sources {
            spool: None,
            table: &table,
        };
        let (mut scratch, mut got) = (Scratch::default(), Encoded::default());
        scratch
            .encode_sources(&sources, &Prefetched::default(), p, 18, &mut got)
            .unwrap();
        all.sort();
        let mut expected = Encoded::default();
        encode_sorted(&all, 18, &mut expected);
        assert_eq!(got.segments, expected.segments);
        assert!(got.bytes == expected.bytes);
    }

    /// A large partition whose pieces decode to fewer entries than its
    /// batches counted (a corrupt spill) is an error, not an index with
    /// entries that were never written.
    #[test]
    fn a_large_partition_of_fewer_entries_than_counted_is_an_error() {
        let p = 0x5A;
        let (table, _) = table_with_a_large_partition(p, |entries| entries.miscount(p));
        let sources = Sources {
            spool: None,
            table: &table,
        };
        let err = Scratch::default()
            .encode_sources(
                &sources,
                &Prefetched::default(),
                p,
                18,
                &mut Encoded::default(),
            )
            .unwrap_err();
        assert!(err.to_string().contains("corrupt"), "{err}");
    }

    #[test]
    fn keys_alike_in_their_top_bits_sort_as_a_stable_sort_by_key() {
        // 50,000 keys that agree in their top 40 bits (positions made to
        // share a bucket), distinct below and in falling order, each in
        // two games: one group of the counting sort holds them all. Sorted
        // by insertion alone that is 10^9 moves; in groups, n log n.
        let mut sorting = Sorting::default();
        for n in [50_000u64, SPREAD as u64 / 2] {
            let entries: Vec<Entry> = (0..2 * n)
                .map(|i| {
                    let key = (0xA5_5A5A_5A5Au64 << 24) | (n - i / 2);
                    Entry::new(key, u32::try_from(i % 2).unwrap())
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_by_key(Entry::key);
            let mut input = entries;
            assert_eq!(sort_partition(&mut input, &mut sorting), expected);
        }
    }

    #[test]
    fn a_large_partition_sorts_as_a_stable_sort_by_key() {
        // Keys of one partition (top bits equal), many repeated, games in
        // arrival order: spread, counted and sorted as a stable sort would,
        // also in memory left larger by a partition before.
        let mut sorting = Sorting::default();
        for n in [5 * SPREAD, 1, SPREAD + 1, 17, SPREAD, 5 * SPREAD] {
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            let entries: Vec<Entry> = (0..n)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // One of n/3 keys, spread over the bits below.
                    let pick = state % (n as u64 / 3 + 1);
                    let low =
                        pick.wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31) >> PARTITION_BITS;
                    let key = (0x5Au64 << BELOW_PARTITION) | low;
                    Entry::new(key, u32::try_from(i).unwrap())
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_by_key(Entry::key);
            let mut input = entries.clone();
            let sorted = sort_partition(&mut input, &mut sorting);
            assert_eq!(sorted, expected, "{n} entries");
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn.pgnkit-index");
        std::fs::write(&path, b"old index").unwrap();
        let err = write_atomically(&path, |f| {
            f.write_all(b"half a new ind")?;
            Err(io::Error::other("disk full"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old index");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "left behind: {names:?}");

        write_atomically(&path, |f| f.write_all(b"new index")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new index");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
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
}
