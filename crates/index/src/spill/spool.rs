//! The spool: position entries spilled to one anonymous temporary file as
//! they came, by a thread of their own ([`Spiller`]), and read back a group
//! of partitions at a time, around the page cache where the system allows
//! it.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::sync::mpsc;

use super::entries::{put_varint, read_varint};
use super::{Aligned, PARTITIONS, Table};
use crate::direct::{BLOCK, Direct};

/// Frees bytes `from..to` of `file` (a hole: they read as zeros), where
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

/// The index's position entries spilled as they came, in game order, one
/// key partition after the other, to one anonymous temporary file.
///
/// Each spill holds the entries of every partition of the builder's tables
/// at that time. An entry takes 8 or 9 bytes: the difference of its game
/// number from the entry before in its partition (LEB128, one byte in most
/// games), then the key's low 56 bits (its top bits are the partition's).
/// A partition is read back from every spill in order, so that the entries
/// of one key come in game order, as the index's sort needs them
/// (`sort_partition` is stable).
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
pub(super) fn short_of_room(free: u64, to_write: u64, spool: u64) -> bool {
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
