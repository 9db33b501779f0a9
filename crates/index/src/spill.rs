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

use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, mpsc};

pub use pgnkit_extsort::{
    MAX_RUNS, Merge, Record, Run, RunWriter, Sorted, SortedReader, Sorter, merge_runs,
};

pub(crate) use crate::direct::Aligned;
use crate::direct::{BLOCK, Direct};

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

/// the system can.
#[cfg(target_os = "linux")]
fn punch_hole(file: &File, from: u64, to: u64) {
    use rustix::fs::{FallocateFlags, fallocate};
    if to > from {
        // An error (no holes on this file system) only means the space
        // comes back later, when the file is closed.
        let _ = fallocate(
            file,
            FallocateFlags::PUNCH_HOLE | FallocateFlags::KEEP_SIZE,
            from,
            to - from,
        );
    }
}

/// Frees bytes `from..to` of `file` where the system can: here it cannot,
/// and the space comes back when the file is closed.
#[cfg(not(target_os = "linux"))]
fn punch_hole(_file: &File, _from: u64, _to: u64) {}

pub(crate) struct Spool {
    /// Written and read around the page cache where the system allows it.
    out: Direct,
    /// Each spill: where each partition starts in the file, and the end.
    spills: Vec<Box<[u64]>>,
    /// Entries of each partition, in all spills.
    entries: Vec<u64>,
    /// The spill being written: its partition starts so far.
    open: Vec<u64>,
    /// Whether [`Spool::release`] gives the space back (see
    /// [`Spool::release_only_if_short`]).
    give_back: bool,
}

impl Spool {
    /// An empty spool in `dir`.
    pub(crate) fn create(dir: &Path) -> io::Result<Spool> {
        Ok(Spool {
            out: Direct::new(tempfile::tempfile_in(dir)?),
            spills: Vec::new(),
            entries: vec![0; PARTITIONS],
            open: Vec::with_capacity(PARTITIONS + 1),
            give_back: true,
        })
    }

    /// Appends the entries of `table` as one spill, a partition after the
    /// other, each partition's pieces renumbered as one: the first
    /// difference of each piece is from the last game of the piece before
    /// (from 0 for the first).
    pub(crate) fn push_all(&mut self, table: &Table) -> io::Result<()> {
        let corrupt = || io::Error::other("a table of position entries is corrupt");
        for p in 0..PARTITIONS {
            self.open.push(self.out.len());
            let mut last = 0u32;
            for piece in table.pieces(p) {
                let (local, skip) = read_varint(piece.bytes).ok_or_else(corrupt)?;
                let first = piece.first_game.checked_add(local).ok_or_else(corrupt)?;
                let mut head = [0u8; 5];
                let n = put_varint(&mut head, first.wrapping_sub(last));
                self.out.write_all(&head[..n])?;
                self.out
                    .write_all(piece.bytes.get(skip..).ok_or_else(corrupt)?)?;
                last = piece.first_game.wrapping_add(piece.last);
            }
            self.entries[p] += table.entries(p);
        }
        self.end_spill();
        Ok(())
    }

    /// Ends the spill being written.
    pub(crate) fn end_spill(&mut self) {
        while self.open.len() <= PARTITIONS {
            self.open.push(self.out.len());
        }
        self.spills
            .push(std::mem::take(&mut self.open).into_boxed_slice());
        self.open.reserve(PARTITIONS + 1);
    }

    /// Spills written so far.
    #[cfg(test)]
    pub(crate) fn spills(&self) -> usize {
        self.spills.len()
    }

    /// Entries of partition `p` in all spills (repeats within a game
    /// included).
    pub(crate) fn entries(&self, p: usize) -> u64 {
        self.entries[p]
    }

    /// Ends the writing: what is buffered is written, and the spool is
    /// read from now on.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        self.out.flush_padded().map(drop)
    }

    /// Reads partition `p` of every spill, in order, into `buffer`, and
    /// hands each spill's bytes to `each` (to be decoded by
    /// [`decode_partition`]). The spool is finished ([`Spool::finish`]).
    pub(crate) fn read_partition(
        &self,
        p: usize,
        buffer: &mut Aligned,
        mut each: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        for spill in &self.spills {
            let (from, to) = (spill[p], spill[p + 1]);
            if from < to {
                each(self.out.read_at(from, to, buffer)?)?;
            }
        }
        Ok(())
    }

    /// Reads partitions `group` of every spill into `into` at once: one
    /// read a spill, of the blocks around the group's bytes.
    pub(crate) fn read_group(&self, group: Range<usize>, into: &mut Prefetched) -> io::Result<()> {
        let block = BLOCK as u64;
        let around = |spill: &[u64]| {
            let (from, to) = (spill[group.start], spill[group.end]);
            (from - from % block, to.next_multiple_of(block), from)
        };
        let mut total = 0u64;
        for spill in &self.spills {
            let (start, end, _) = around(spill);
            total += end - start;
        }
        into.buffer
            .resize(usize::try_from(total).map_err(io::Error::other)?);
        into.starts.clear();
        let mut at = 0usize;
        for spill in &self.spills {
            let (start, end, from) = around(spill);
            let len = (end - start) as usize;
            if len > 0 {
                self.out
                    .read_blocks(start, &mut into.buffer.bytes_mut()[at..at + len])?;
            }
            into.starts.push(at + (from - start) as usize);
            at += len;
        }
        into.group = group;
        Ok(())
    }

    /// The bytes of partition `p` in each spill, from `read`, a read of
    /// its group ([`Spool::read_group`]).
    pub(crate) fn pieces<'r>(
        &'r self,
        p: usize,
        read: &'r Prefetched,
    ) -> impl Iterator<Item = &'r [u8]> + 'r {
        let first = read.group.start;
        self.spills
            .iter()
            .zip(&read.starts)
            .map(move |(spill, &at)| {
                let from = at + (spill[p] - spill[first]) as usize;
                let to = at + (spill[p + 1] - spill[first]) as usize;
                &read.buffer.bytes()[from..to]
            })
    }

    /// Decides whether [`Spool::release`] gives the space of the
    /// partitions read back at once, with `to_write` bytes (at most) still
    /// to be written beside the spool on its file system: only when the
    /// file system would otherwise have less room left, at the end, than
    /// the spool takes. Elsewhere the spool keeps its space until it is
    /// dropped, all at once: punching holes range after range costs more
    /// (on a disk mounted with online discard, each range freed is
    /// discarded at once: about 0.3 s a GB measured, against about 0.1 s a
    /// GB for a whole file freed when it is closed, while the index is
    /// being written).
    pub(crate) fn release_only_if_short(&mut self, to_write: u64) {
        let free = free_space(self.out.file());
        self.give_back = free.is_none_or(|free| short_of_room(free, to_write, self.out.len()));
    }

    /// Gives back the disk space of partitions `parts` of every spill,
    /// read for the last time: the file keeps its size, and those bytes
    /// read as zeros from then on. Best effort: where holes cannot be
    /// punched nothing is given back until the spool is dropped; nothing
    /// either when the disk has room ([`Spool::release_only_if_short`]).
    pub(crate) fn release(&self, parts: Range<usize>) {
        if !self.give_back {
            return;
        }
        let end = parts.end.min(PARTITIONS);
        for spill in &self.spills {
            punch_hole(self.out.file(), spill[parts.start.min(end)], spill[end]);
        }
    }
}

/// Whether a file system with `free` bytes available is short of room
/// for `to_write` more bytes while a spool of `spool` bytes keeps its
/// space: when less than the spool's size would be left.
fn short_of_room(free: u64, to_write: u64, spool: u64) -> bool {
    to_write
        .checked_add(spool)
        .is_none_or(|needed| free < needed)
}

/// Bytes available to this process on the file system of `file`, if the
/// system says.
#[cfg(target_os = "linux")]
fn free_space(file: &File) -> Option<u64> {
    let stat = rustix::fs::fstatvfs(file).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// Bytes available on the file system of `file`: not known here.
#[cfg(not(target_os = "linux"))]
fn free_space(_file: &File) -> Option<u64> {
    None
}

/// Writes the builder's full tables of position entries to a [`Spool`] on
/// a thread of its own, while the builder fills its other table: the
/// workers never wait for the disk. Spills are written in the order they
/// are handed over, so a partition's entries stay in game order.
pub(crate) struct Spiller {
    /// Where the spilled tables go, until the thread ends.
    to_thread: Option<mpsc::SyncSender<Table>>,
    /// Each spilled table back, written, its memory to be used again (or
    /// the error that ended the thread).
    back: mpsc::Receiver<io::Result<Table>>,
    thread: Option<std::thread::JoinHandle<io::Result<Spool>>>,
    /// Whether a table handed over has not come back yet.
    in_flight: bool,
}

impl Spiller {
    /// A spiller to a new spool in `dir` (created here, so that an error
    /// comes at once).
    pub(crate) fn create(dir: &Path) -> io::Result<Spiller> {
        let mut spool = Spool::create(dir)?;
        let (to_thread, from_builder) = mpsc::sync_channel::<Table>(1);
        let (to_builder, back) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("pgnkit-spill".into())
            .spawn(move || {
                for table in from_builder {
                    let written = spool.push_all(&table);
                    let failed = written.is_err();
                    if to_builder.send(written.map(|()| table)).is_err() || failed {
                        break;
                    }
                }
                Ok(spool)
            })?;
        Ok(Spiller {
            to_thread: Some(to_thread),
            back,
            thread: Some(thread),
            in_flight: false,
        })
    }

    /// Hands `table` over to be spilled, and returns the one handed over
    /// before, written (waiting until it is), if there is one.
    pub(crate) fn spill(&mut self, table: Table) -> io::Result<Option<Table>> {
        let written = if self.in_flight {
            Some(self.wait()?)
        } else {
            None
        };
        let sent = self.to_thread.as_ref().map(|t| t.send(table));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.stopped());
        }
        self.in_flight = true;
        Ok(written)
    }

    /// The table handed over last, written.
    fn wait(&mut self) -> io::Result<Table> {
        self.in_flight = false;
        match self.back.recv() {
            Ok(written) => written,
            Err(_) => Err(self.stopped()),
        }
    }

    /// Why the thread stopped early.
    fn stopped(&mut self) -> io::Error {
        self.to_thread = None;
        match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(Err(e))) => e,
            _ => io::Error::other("the spill thread stopped"),
        }
    }

    /// Waits for every spill to be written, and returns the spool, to be
    /// read.
    pub(crate) fn finish(mut self) -> io::Result<Spool> {
        if self.in_flight {
            self.wait()?;
        }
        self.to_thread = None;
        let mut spool = match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(spool)) => spool?,
            _ => return Err(io::Error::other("the spill thread stopped")),
        };
        spool.finish()?;
        Ok(spool)
    }
}

/// The spilled bytes of a group of partitions, read ahead of their sort
/// ([`Spool::read_group`]).
#[derive(Default)]
pub(crate) struct Prefetched {
    /// The partitions read.
    pub(crate) group: Range<usize>,
    buffer: Aligned,
    /// Where each spill's bytes of the group start in `buffer`.
    starts: Vec<usize>,
}

/// The low 56 bits of a key: what an entry stores of it (its top bits
/// are its partition's).
const KEY_LOW: u64 = (1 << 56) - 1;

// An entry stores the key's low 7 bytes: the partition must say the rest.
const _: () = assert!(PARTITION_BITS >= 8);

/// The LEB128 number at the start of `bytes`, and its length (`None`
/// when it is cut short or passes 32 bits).
fn read_varint(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    for (i, &b) in bytes.iter().enumerate().take(5) {
        n |= u32::from(b & 0x7f).checked_shl(7 * i as u32)?;
        if b < 0x80 {
            return Some((n, i + 1));
        }
    }
    None
}

/// The length of `delta` in LEB128.
fn varint_len(delta: u32) -> usize {
    match delta {
        0..0x80 => 1,
        0x80..0x4000 => 2,
        0x4000..0x20_0000 => 3,
        0x20_0000..0x1000_0000 => 4,
        _ => 5,
    }
}

/// The position entries of one batch of games by key partition (the top
/// [`PARTITION_BITS`] bits of the key), each partition encoded as the
/// [`Spool`] stores it:
/// entries in the order they came, each the difference of its game number
/// from the one before (LEB128; the first from 0) then the key's low 56
/// bits. The games are numbered from the batch's first (0); a [`Table`]
/// knows where the batch's games start among all games.
///
/// Its memory goes round: filled by a worker ([`BatchEntries::encode`]),
/// kept in a table until the table is spilled, then given back to a worker
/// to be filled again.
#[derive(Debug)]
pub(crate) struct BatchEntries {
    /// The partitions, one after the other.
    bytes: Vec<u8>,
    parts: Box<[Part; PARTITIONS]>,
}

impl Default for BatchEntries {
    fn default() -> BatchEntries {
        BatchEntries {
            bytes: Vec::new(),
            parts: Box::new([Part::default(); PARTITIONS]),
        }
    }
}

/// One partition of [`BatchEntries`].
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    /// Where its bytes end (they start where the partition before ends).
    end: usize,
    entries: u64,
    /// The game of its last entry.
    last: u32,
}

impl Part {
    /// The difference of `game`, the next entry's, from the last entry's
    /// (wrapping: the games of a batch come in order, but any order
    /// round-trips); `game` is then the last.
    #[inline]
    fn step(&mut self, game: u32) -> u32 {
        let delta = game.wrapping_sub(self.last);
        self.last = game;
        delta
    }
}

/// Each key of `keys` with its game's number, game `g`'s keys being
/// `keys[ends[g - 1]..ends[g]]` (from 0 for game 0).
fn keys_by_game<'k>(keys: &'k [u64], ends: &'k [usize]) -> impl Iterator<Item = (u64, u32)> + 'k {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    starts
        .zip(ends)
        .zip(0u32..)
        .flat_map(move |((from, &to), game)| {
            keys.get(from..to)
                .unwrap_or_default()
                .iter()
                .map(move |&key| (key, game))
        })
}

impl BatchEntries {
    /// Encodes the entries of `keys`, the keys of game `g` being
    /// `keys[ends[g - 1]..ends[g]]` (from 0 for game 0), in place of the
    /// entries it held. Its memory is kept when it has room.
    ///
    /// The partitions' lengths are counted first, so that the entries are
    /// written once, in place, into a buffer that holds exactly them (and
    /// that fits in a core's cache for a batch of a few megabytes of PGN).
    pub(crate) fn encode(&mut self, keys: &[u64], ends: &[usize]) {
        let parts = &mut *self.parts;
        parts.fill(Part::default());
        // The length of each partition, in `end` for now.
        for (key, game) in keys_by_game(keys, ends) {
            let part = &mut parts[partition(key)];
            let delta = part.step(game);
            part.entries += 1;
            part.end += if delta < 0x80 {
                8
            } else {
                varint_len(delta) + 7
            };
        }
        // Where each partition starts, in `end` until its entries are
        // written after it.
        let mut total = 0;
        for part in parts.iter_mut() {
            let len = part.end;
            part.end = total;
            part.last = 0;
            total += len;
        }
        // Room for exactly these (not doubled): the table counts the
        // memory its batches hold. Every byte is written below: only the
        // bytes beyond the last batch's are cleared first.
        self.bytes
            .reserve_exact(total.saturating_sub(self.bytes.len()));
        self.bytes.resize(total, 0);
        let bytes = &mut self.bytes[..];
        for (key, game) in keys_by_game(keys, ends) {
            let part = &mut parts[partition(key)];
            let delta = part.step(game);
            let at = part.end;
            if delta < 0x80 {
                // The byte and the key's 7 low bytes, written at once.
                let word = ((key & KEY_LOW) << 8) | u64::from(delta);
                if let Some(out) = bytes.get_mut(at..at + 8) {
                    out.copy_from_slice(&word.to_le_bytes());
                }
                part.end = at + 8;
            } else {
                let mut entry = [0u8; 12];
                let n = put_varint(&mut entry, delta);
                entry[n..n + 7].copy_from_slice(&(key & KEY_LOW).to_le_bytes()[..7]);
                if let Some(out) = bytes.get_mut(at..at + n + 7) {
                    out.copy_from_slice(&entry[..n + 7]);
                }
                part.end = at + n + 7;
            }
        }
    }

    /// Bytes of encoded entries.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// Where partition `p` starts in `bytes` (for `p == PARTITIONS`, where
    /// the last one ends): where the partition before ends.
    fn start(&self, p: usize) -> usize {
        p.checked_sub(1)
            .and_then(|before| self.parts.get(before))
            .map_or(0, |part| part.end)
    }

    /// Bytes of encoded entries of partitions `parts`.
    pub(crate) fn bytes_of(&self, parts: Range<usize>) -> usize {
        self.start(parts.end)
            .saturating_sub(self.start(parts.start))
    }

    /// Bytes of memory it holds.
    pub(crate) fn memory(&self) -> usize {
        self.bytes.capacity() + std::mem::size_of::<[Part; PARTITIONS]>()
    }

    /// Entries of partition `p`.
    pub(crate) fn entries(&self, p: usize) -> u64 {
        self.parts.get(p).map_or(0, |part| part.entries)
    }

    /// The encoded entries of partition `p`.
    pub(crate) fn encoded(&self, p: usize) -> &[u8] {
        self.bytes
            .get(self.start(p)..self.start(p + 1))
            .unwrap_or_default()
    }

    /// Empties it, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.parts.fill(Part::default());
    }

    /// Counts one entry more in partition `p` than it holds, as a corrupt
    /// count would.
    #[cfg(test)]
    pub(crate) fn miscount(&mut self, p: usize) {
        self.parts[p].entries += 1;
    }
}

/// The entries of one partition of one batch in a [`Table`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'t> {
    /// Encoded as [`BatchEntries`] keeps them.
    pub(crate) bytes: &'t [u8],
    /// The number of the batch's first game: the first difference is from
    /// it.
    pub(crate) first_game: u32,
    /// The game of the last entry, numbered within the batch.
    last: u32,
}

/// Writes `delta` as LEB128 at the start of `out` (room for 5 bytes);
/// returns its length.
fn put_varint(out: &mut [u8], mut delta: u32) -> usize {
    let mut n = 0;
    while delta >= 0x80 {
        out[n] = delta as u8 | 0x80;
        delta >>= 7;
        n += 1;
    }
    out[n] = delta as u8;
    n + 1
}

/// The position entries the builder holds and has not spilled: the
/// batches' [`BatchEntries`] as they came, each with the number of its
/// first game among all games. Nothing is copied into it: a batch's
/// entries are written once by the worker that replayed its games, and
/// read once when they are spilled or sorted.
///
/// A table holds a range of a batch's partitions, all of them unless the
/// table was full midway: the rest are then in the next table (a
/// partition's entries stay in game order from one spill to the next),
/// and the batch's memory is used again once both are spilled.
#[derive(Debug, Default)]
pub(crate) struct Table {
    batches: Vec<Held>,
    /// Bytes of encoded entries held.
    bytes: usize,
    /// Bytes of memory they hold.
    memory: usize,
}

/// Partitions `parts` of a batch's entries, whose first game is game
/// number `first_game`.
#[derive(Debug)]
struct Held {
    entries: Arc<BatchEntries>,
    first_game: u32,
    parts: Range<usize>,
}

impl Table {
    /// Adds partitions `parts` of the entries of the next batch, whose
    /// first game is game number `first_game`. The table that holds a
    /// batch's first partitions counts the memory the batch's entries
    /// hold; the next table, which holds the rest, their bytes.
    pub(crate) fn push(
        &mut self,
        entries: &Arc<BatchEntries>,
        first_game: u32,
        parts: Range<usize>,
    ) {
        let bytes = entries.bytes_of(parts.clone());
        self.bytes += bytes;
        self.memory += if parts.start == 0 {
            entries.memory()
        } else {
            bytes
        };
        self.batches.push(Held {
            entries: Arc::clone(entries),
            first_game,
            parts,
        });
    }

    /// Whether it holds no batch.
    pub(crate) fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }

    /// Bytes of encoded entries.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Bytes of memory the batches' entries hold.
    pub(crate) fn memory(&self) -> usize {
        self.memory
    }

    /// Entries of partition `p`.
    pub(crate) fn entries(&self, p: usize) -> u64 {
        self.batches
            .iter()
            .filter(|held| held.parts.contains(&p))
            .map(|held| held.entries.entries(p))
            .sum()
    }

    /// The encoded entries of partition `p`, batch after batch (batches
    /// without any left out).
    pub(crate) fn pieces(&self, p: usize) -> impl Iterator<Item = Piece<'_>> {
        self.batches
            .iter()
            .filter(move |held| held.parts.contains(&p))
            .map(move |held| Piece {
                bytes: held.entries.encoded(p),
                first_game: held.first_game,
                last: held.entries.parts.get(p).map_or(0, |part| part.last),
            })
            .filter(|piece| !piece.bytes.is_empty())
    }

    /// Empties it, and hands the entries of each batch it held the last
    /// partitions of, emptied, to `free` (the others are still held by
    /// the next table).
    pub(crate) fn drain_into(&mut self, free: &mut Vec<BatchEntries>) {
        for held in self.batches.drain(..) {
            if let Ok(mut entries) = Arc::try_unwrap(held.entries) {
                entries.clear();
                free.push(entries);
            }
        }
        self.bytes = 0;
        self.memory = 0;
    }
}

/// Appends the entries of partition `p` encoded in `bytes` (as
/// [`BatchEntries`] and the [`Spool`] keep them, the first difference
/// from game number `first_game`) to `entries`.
pub(crate) fn decode_partition(
    p: usize,
    bytes: &[u8],
    first_game: u32,
    entries: &mut Vec<Entry>,
) -> io::Result<()> {
    for_each_entry(p, bytes, first_game, |e| entries.push(e))
}

/// Hands each entry of partition `p` encoded in `bytes` (as
/// [`decode_partition`] reads them) to `each`, in order.
#[inline]
pub(crate) fn for_each_entry(
    p: usize,
    bytes: &[u8],
    first_game: u32,
    mut each: impl FnMut(Entry),
) -> io::Result<()> {
    let corrupt = || io::Error::other("a spilled partition is corrupt");
    let top = (p as u64) << (64 - PARTITION_BITS);
    let mut game = first_game;
    let mut at = 0;
    while at < bytes.len() {
        // Most entries: a one-byte difference and the key, 8 bytes read
        // at once.
        if let Some(eight) = bytes.get(at..at + 8)
            && eight[0] < 0x80
        {
            let mut word = [0u8; 8];
            word.copy_from_slice(eight);
            let word = u64::from_le_bytes(word);
            game = game.wrapping_add((word & 0x7f) as u32);
            each(Entry::new(top | (word >> 8), game));
            at += 8;
            continue;
        }
        let (delta, len) = bytes.get(at..).and_then(read_varint).ok_or_else(corrupt)?;
        at += len;
        game = game.wrapping_add(delta);
        let key = bytes.get(at..at + 7).ok_or_else(corrupt)?;
        at += 7;
        let mut low = [0u8; 8];
        low[..7].copy_from_slice(key);
        each(Entry::new(top | u64::from_le_bytes(low), game));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' random numbers (xorshift64).
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// A table of a few random batches, whose games are numbered from
    /// `*first_game` on (raised past them and a random gap), and its
    /// entries by partition, with their global game numbers, in order.
    fn random_table(
        next: &mut impl FnMut() -> u64,
        first_game: &mut u32,
    ) -> (Table, Vec<Vec<Entry>>) {
        let mut table = Table::default();
        let mut expected = vec![Vec::new(); PARTITIONS];
        for _ in 0..1 + next() % 6 {
            let (mut keys, mut ends) = (Vec::new(), Vec::new());
            let games = next() as u32 % 300;
            for game in 0..games {
                // Some games without positions; some keys in many games.
                for _ in 0..next() % 90 {
                    let key = match next() % 8 {
                        0 => 0x1234,
                        1 => u64::MAX,
                        _ => next(),
                    };
                    keys.push(key);
                    expected[partition(key)].push(Entry::new(key, *first_game + game));
                }
                ends.push(keys.len());
            }
            let mut entries = BatchEntries::default();
            // Memory used before is reused as it is.
            entries.encode(&[next(), next()], &[2]);
            entries.encode(&keys, &ends);
            for (p, part) in expected.iter().enumerate() {
                let pieces: u64 = table.entries(p) + entries.entries(p);
                assert_eq!(pieces, part.len() as u64);
            }
            table.push(&Arc::new(entries), *first_game, 0..PARTITIONS);
            *first_game += games + (next() % 20_000_000) as u32;
        }
        (table, expected)
    }

    /// Property: the partitions of a table (batches numbered from 0, each
    /// with the number of its first game) decode, piece after piece, as
    /// the entries pushed with their global numbers.
    #[test]
    fn a_table_holds_its_batches_entries_renumbered() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..20 {
            let mut first_game = (next() % 100_000) as u32;
            let (table, expected) = random_table(&mut next, &mut first_game);
            for (p, want) in expected.iter().enumerate() {
                let mut got = Vec::new();
                for piece in table.pieces(p) {
                    decode_partition(p, piece.bytes, piece.first_game, &mut got).unwrap();
                }
                assert_eq!(&got, want, "partition {p}");
            }
            let mut free = Vec::new();
            let mut drained = table;
            drained.drain_into(&mut free);
            assert_eq!((drained.bytes(), drained.memory()), (0, 0));
            assert!(free.iter().all(|b| b.bytes() == 0));
        }
    }

    /// Property: tables handed to the spiller (its thread writes each
    /// while the next is filled, around the page cache where the system
    /// allows it) read back, a partition at a time or a group of
    /// partitions at once, as the entries spilled, in the order spilled,
    /// renumbered from one batch to the next, also after the partitions
    /// before them were released; each table comes back once written; no
    /// file is left.
    #[test]
    fn spilled_partitions_read_back_as_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let mut spiller = Spiller::create(dir.path()).unwrap();
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut spilled: Vec<Vec<Vec<Entry>>> = Vec::new();
        let mut first_game = 0;
        let mut back = 0;
        for _ in 0..5 {
            let (table, expected) = random_table(&mut next, &mut first_game);
            let bytes = table.bytes();
            if let Some(written) = spiller.spill(table).unwrap() {
                back += 1;
                assert!(written.bytes() > 0 && written.bytes() != bytes);
            }
            spilled.push(expected);
        }
        assert_eq!(back, 4);
        let spool = spiller.finish().unwrap();
        assert_eq!(spool.spills(), 5);
        let mut bytes = Aligned::default();
        let mut read = Prefetched::default();
        let mut first = 0;
        while first < PARTITIONS {
            let end = (first + 1 + next() as usize % 37).min(PARTITIONS);
            spool.read_group(first..end, &mut read).unwrap();
            for p in first..end {
                let expected: Vec<Entry> = spilled.iter().flat_map(|s| s[p].clone()).collect();
                let mut got = Vec::new();
                spool
                    .read_partition(p, &mut bytes, |b| decode_partition(p, b, 0, &mut got))
                    .unwrap();
                assert_eq!(got, expected, "partition {p}");
                let mut grouped = Vec::new();
                for piece in spool.pieces(p, &read) {
                    decode_partition(p, piece, 0, &mut grouped).unwrap();
                }
                assert_eq!(grouped, expected, "partition {p} of {first}..{end}");
                assert_eq!(spool.entries(p), expected.len() as u64);
            }
            spool.release(first..end);
            first = end;
        }
        drop(spool);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A batch whose partitions are split between two tables (the first
    /// was full midway) spills as the whole batch would, a partition in
    /// one spill or the other; its memory is free again once both tables
    /// are spilled, not before.
    #[test]
    fn a_batch_split_between_two_tables_spills_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut next = xorshift(0x1234_5678_9ABC_DEF1);
        let keys: Vec<u64> = (0..5_000).map(|_| next()).collect();
        let ends: Vec<usize> = (0..=5_000).step_by(10).skip(1).collect();
        let mut entries = BatchEntries::default();
        entries.encode(&keys, &ends);
        let entries = Arc::new(entries);
        let mut whole = Table::default();
        whole.push(&entries, 7, 0..PARTITIONS);
        let (mut first, mut second) = (Table::default(), Table::default());
        first.push(&entries, 7, 0..100);
        second.push(&entries, 7, 100..PARTITIONS);
        assert_eq!(first.bytes() + second.bytes(), whole.bytes());
        drop(entries);
        let (mut split_spool, mut whole_spool) = (
            Spool::create(dir.path()).unwrap(),
            Spool::create(dir.path()).unwrap(),
        );
        whole_spool.push_all(&whole).unwrap();
        split_spool.push_all(&first).unwrap();
        split_spool.push_all(&second).unwrap();
        whole_spool.finish().unwrap();
        split_spool.finish().unwrap();
        let mut bytes = Aligned::default();
        for p in 0..PARTITIONS {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let read = |spool: &Spool, into: &mut Vec<Entry>, bytes: &mut Aligned| {
                spool
                    .read_partition(p, bytes, |piece| decode_partition(p, piece, 0, into))
                    .unwrap();
            };
            read(&whole_spool, &mut a, &mut bytes);
            read(&split_spool, &mut b, &mut bytes);
            assert_eq!(a, b, "partition {p}");
            assert_eq!(whole_spool.entries(p), split_spool.entries(p));
        }
        let mut free = Vec::new();
        whole.drain_into(&mut free);
        first.drain_into(&mut free);
        assert!(free.is_empty());
        second.drain_into(&mut free);
        assert_eq!(free.len(), 1);
    }

    /// A table whose games would be numbered past `u32::MAX` is not
    /// spilled: an error, not numbers wrapped.
    #[test]
    fn a_table_numbered_past_u32_max_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut spool = Spool::create(dir.path()).unwrap();
        let mut entries = BatchEntries::default();
        // Game 1's entry is the first of partition 0.
        entries.encode(&[1 << 60, 2], &[1, 2]);
        let mut table = Table::default();
        table.push(&Arc::new(entries), u32::MAX, 0..PARTITIONS);
        assert!(spool.push_all(&table).is_err());
    }

    #[test]
    fn the_spool_keeps_its_space_while_the_disk_has_room() {
        let dir = tempfile::tempdir().unwrap();
        let mut spiller = Spiller::create(dir.path()).unwrap();
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let keys: Vec<u64> = (0..20_000).map(|_| next()).collect();
        let ends: Vec<usize> = (1..=20_000usize).step_by(7).chain([20_000]).collect();
        let mut entries = BatchEntries::default();
        entries.encode(&keys, &ends);
        let mut table = Table::default();
        table.push(&Arc::new(entries), 0, 0..PARTITIONS);
        drop(spiller.spill(table).unwrap());
        let mut spool = spiller.finish().unwrap();
        let read_all = |spool: &Spool| {
            let (mut bytes, mut all) = (Aligned::default(), Vec::new());
            for p in 0..PARTITIONS {
                spool
                    .read_partition(p, &mut bytes, |b| decode_partition(p, b, 0, &mut all))
                    .unwrap();
            }
            all
        };
        let before = read_all(&spool);
        assert_eq!(before.len(), 20_000);
        // Any disk the tests run on has room for a few hundred kilobytes
        // twice over: the partitions released keep their bytes.
        spool.release_only_if_short(1 << 20);
        spool.release(0..PARTITIONS);
        assert_eq!(read_all(&spool), before);
        // Short of room: the space goes back (as much as the file system
        // can give back at once).
        assert!(short_of_room(10 << 20, 8 << 20, 4 << 20));
        assert!(!short_of_room(20 << 20, 8 << 20, 4 << 20));
        assert!(short_of_room(u64::MAX, u64::MAX, 1));
    }
}
