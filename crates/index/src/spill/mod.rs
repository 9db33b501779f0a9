//! Spilling to temporary files: how the [`Builder`](crate::Builder) writes
//! the index of a PGN file of any size in bounded memory.
//!
//! The index's position entries go to a spool (`Spool`): each time one of
//! its two tables is full, the builder hands it to a thread of its own
//! (`Spiller`), which appends the entries as they are, in game order, a
//! key partition after the other (256 partitions by the top 8 bits of the
//! key, the partitions the builder keeps them in), about 8 bytes an entry,
//! while the builder fills the other table: the workers never wait for the
//! disk. When the index is written, each group of partitions is read back
//! from every spill (one read a spill) and each partition sorted once; a
//! partition too large for the budget is sorted by a [`Sorter`] (the
//! external sort of [`pgnkit_extsort`], re-exported here). Nothing is
//! sorted twice, and the bytes spilled are two thirds of what sorted runs
//! of whole entries took.
//!
//! The spool is written and read around the page cache where the system
//! allows it (`O_DIRECT`, on Linux, through a buffer aligned to the disk's
//! blocks): its gigabytes are read once, and through the page cache each of
//! their pages would be taken from the system's free memory and filled
//! first (on the virtual machine this was measured on, about 2 s of system
//! time per GB, more than the sort).
//!
//! Every temporary file is anonymous, in a directory
//! (`tempfile::tempfile_in`: on Linux an `O_TMPFILE` file that never has a
//! name, elsewhere a file unlinked as soon as it is created), so the
//! operating system reclaims it whenever the process ends — on an error, on
//! Ctrl-C, even when it is killed. The index's spool goes beside the index
//! rather than to `TMPDIR`, which is often a RAM disk (tmpfs), where
//! spilling would save no memory. While the index is written, the parts of
//! the spool read for the last time are given back to the system (on
//! Linux, by punching holes) when the disk would otherwise be short of
//! room, so that the spool shrinks as the index grows; with room to spare
//! it is freed at once when it is dropped, which costs less
//! (`Spool::release_only_if_short`).

pub use pgnkit_extsort::{
    MAX_RUNS, Merge, Record, Run, RunWriter, Sorted, SortedReader, Sorter, merge_runs,
};

pub(crate) use crate::direct::Aligned;

mod entries;
mod spool;
#[cfg(test)]
mod tests;

pub(crate) use entries::{BatchEntries, Table, decode_partition, for_each_entry};
pub(crate) use spool::{Prefetched, Spiller, Spool};

/// A position entry while building: the key and the global game number.
/// The order is (key, game): the order of the position table.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Entry {
    pub(crate) hi: u32,
    pub(crate) lo: u32,
    pub(crate) game: u32,
}

impl Entry {
    /// An entry for `key` in game number `game`.
    pub(crate) fn new(key: u64, game: u32) -> Entry {
        Entry {
            hi: (key >> 32) as u32,
            lo: key as u32,
            game,
        }
    }

    /// The whole Zobrist key.
    pub(crate) fn key(&self) -> u64 {
        (u64::from(self.hi) << 32) | u64::from(self.lo)
    }
}

impl Record for Entry {
    const SIZE: usize = 12;

    fn encode(&self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.key().to_le_bytes());
        out[8..12].copy_from_slice(&self.game.to_le_bytes());
    }

    fn decode(b: &[u8]) -> Entry {
        let mut key = [0u8; 8];
        key.copy_from_slice(&b[..8]);
        let mut game = [0u8; 4];
        game.copy_from_slice(&b[8..12]);
        Entry::new(u64::from_le_bytes(key), u32::from_le_bytes(game))
    }
}

/// The key bits that say an entry's partition: its top 8.
pub const PARTITION_BITS: u32 = 8;

/// Key partitions of the index's position entries (by the top
/// [`PARTITION_BITS`] bits of the key). 4,096 were tried: the sort of a
/// partition of 1 GiB then fits in a core's cache, but was no faster, and
/// reading the groups back took twice as long.
pub const PARTITIONS: usize = 1 << PARTITION_BITS;

/// The partition of `key`.
#[inline]
pub(crate) fn partition(key: u64) -> usize {
    (key >> (64 - PARTITION_BITS)) as usize
}
