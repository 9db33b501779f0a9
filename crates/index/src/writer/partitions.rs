//! The key partitions of the position table as it is written: where their
//! entries are (spilled and in memory, [`Sources`]), which are sorted
//! together ([`groups_of`]), how one is sorted and encoded on a core
//! ([`Scratch`]), and how one too large for the memory budget is sorted
//! through runs ([`write_large`]).

use std::io;
use std::ops::Range;
use std::path::Path;

use super::buckets::{Encoded, encode_sorted};
use super::sort::{
    EntrySource, SPREAD, SPREAD_SHIFT, Sorting, scatter, sort_partition, sort_spread,
};
use crate::spill::{self, Aligned, Entry, PARTITIONS, Prefetched, Sorter, Spool, Table};

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

/// Memory for sorting one partition, kept from one partition to the next
/// (no fresh pages for each).
#[derive(Default)]
pub(super) struct Scratch {
    /// The partition's entries, read back and decoded.
    entries: Vec<Entry>,
    /// The sort's memory.
    sorting: Sorting,
}

impl Scratch {
    /// Sorts partition `p` of `sources` into `out`: read whole (entries of
    /// one key then come in game order, see [`sort_partition`]) and sorted.
    ///
    /// A large partition is decoded straight into its spread ([`scatter`]
    /// from its pieces, decoded twice): the entries are written once
    /// before they are sorted, not decoded then moved.
    pub(super) fn encode_sources(
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
pub(super) struct Sources<'a> {
    pub(super) spool: Option<&'a Spool>,
    pub(super) table: &'a Table,
}

impl Sources<'_> {
    /// Entries of partition `p`.
    pub(super) fn entries(&self, p: usize) -> u64 {
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
pub(super) fn write_large(
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
pub(super) const LARGE_SORT_BYTES: u64 = 24;

/// Bytes of memory an entry of a partition read whole takes while it is
/// sorted and encoded: read (9, and 9 more for the next group's, read
/// meanwhile), decoded and sorted back (12), spread (12), encoded (8, and
/// 8 more for the group before's, written meanwhile).
pub(super) const WHOLE_SORT_BYTES: u64 = 58;

/// Of [`WHOLE_SORT_BYTES`], what a large partition has while it is
/// written ([`write_large`]): all but the next group's read (9) and the
/// encoded entries' buffer (8), which it writes through.
pub(super) const LARGE_SHARE_BYTES: u64 = 41;

/// Partitions sorted at a time: their sorting and encoding is spread over
/// the threads, and while one group is written the next is sorted.
pub(super) const GROUP: usize = 8;

/// The partitions sorted together, in order: up to `at_once` partitions
/// that fit in memory (`fits`), or one that does not, followed by an empty
/// group: while [`Pipeline`] writes the large one (when the empty group is
/// sorted), no other group is sorted, and it has the memory.
pub(super) fn groups_of(at_once: usize, fits: impl Fn(usize) -> bool) -> Vec<Range<usize>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spill::{BatchEntries, PARTITION_BITS};
    use crate::writer::sort::BELOW_PARTITION;

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
}
