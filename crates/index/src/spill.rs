//! Sorted runs of position entries spilled to temporary files, and their
//! k-way merge: how the [`Builder`](crate::Builder) writes the index of a
//! PGN file of any size in bounded memory.
//!
//! A run is an anonymous temporary file in the directory of the index
//! (`tempfile::tempfile_in`: on Linux an `O_TMPFILE` file that never has a
//! name, elsewhere a file unlinked as soon as it is created), so the
//! operating system reclaims it whenever the process ends — on an error, on
//! Ctrl-C, even when it is killed. Runs go beside the index rather than to
//! `TMPDIR`, which is often a RAM disk (tmpfs), where spilling would save no
//! memory; the index's disk must hold the index anyway, and the runs take
//! about 1.5 times its position table, only while it is written (twice
//! that while the first 64 runs are merged into one).
//!
//! A run holds entries sorted by (key, game) without repeats, 12 bytes each:
//! the key (`u64`) and the game number (`u32`), little-endian.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

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

/// Bytes of an entry in a run.
const RUN_ENTRY: usize = 12;

/// At most this many runs are merged at once: more are first merged into
/// one run (few file handles, and a small heap).
pub(crate) const MAX_RUNS: usize = 64;

/// Buffer of each run segment while it is read back.
const READ_BUFFER: usize = 32 << 10;

/// Bytes read at a time when a partition of a run is read whole.
const WHOLE_READ: usize = 256 << 10;

/// Partitions of a run: entries whose keys share their top 8 bits, as in
/// the builder's tables.
pub(crate) const PARTITIONS: usize = 256;

/// The partition of an entry.
fn partition(e: &Entry) -> usize {
    (e.hi >> 24) as usize
}

/// A sorted run on disk.
#[derive(Debug)]
pub(crate) struct Run {
    file: File,
    /// Entry index where each partition starts (and the end of the last).
    starts: Vec<u64>,
}

impl Run {
    /// Entries in the run.
    pub(crate) fn entries(&self) -> u64 {
        self.starts[PARTITIONS]
    }

    /// Entries of partition `p`.
    pub(crate) fn partition_entries(&self, p: usize) -> u64 {
        self.starts[p + 1] - self.starts[p]
    }

    /// Appends the entries of partition `p` to `entries`, in their order
    /// in the run, reading [`WHOLE_READ`] bytes at a time into `buffer`.
    pub(crate) fn read_partition(
        &self,
        p: usize,
        entries: &mut Vec<Entry>,
        buffer: &mut Vec<u8>,
    ) -> io::Result<()> {
        let (mut next, end) = (self.starts[p], self.starts[p + 1]);
        entries.reserve((end - next) as usize);
        let per_read = (WHOLE_READ / RUN_ENTRY) as u64;
        while next < end {
            let n = (end - next).min(per_read);
            buffer.resize(n as usize * RUN_ENTRY, 0);
            self.file.read_exact_at(buffer, next * RUN_ENTRY as u64)?;
            entries.extend(buffer.chunks_exact(RUN_ENTRY).map(decode));
            next += n;
        }
        Ok(())
    }

    /// A reader of entries `from..to`.
    fn segment(&self, from: u64, to: u64) -> Segment<'_> {
        Segment {
            file: &self.file,
            next: from,
            end: to,
            buffer: Vec::new(),
            at: 0,
        }
    }
}

/// Writes a run, in (key, game) order, dropping repeats.
pub(crate) struct RunWriter {
    out: BufWriter<File>,
    entries: u64,
    last: Option<Entry>,
    starts: Vec<u64>,
    /// The partition of the last entry.
    partition: usize,
}

impl RunWriter {
    /// A new, empty run in `dir`.
    pub(crate) fn create(dir: &Path) -> io::Result<RunWriter> {
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(dir)?),
            entries: 0,
            last: None,
            starts: vec![0; PARTITIONS + 1],
            partition: 0,
        })
    }

    /// Appends `e`, which comes at or after every entry pushed before.
    pub(crate) fn push(&mut self, e: Entry) -> io::Result<()> {
        if self.last == Some(e) {
            return Ok(());
        }
        debug_assert!(self.last.is_none_or(|last| last < e), "a run is sorted");
        self.last = Some(e);
        let p = partition(&e);
        if p != self.partition {
            for s in &mut self.starts[self.partition + 1..=p] {
                *s = self.entries;
            }
            self.partition = p;
        }
        let mut bytes = [0u8; RUN_ENTRY];
        bytes[..8].copy_from_slice(&e.key().to_le_bytes());
        bytes[8..].copy_from_slice(&e.game.to_le_bytes());
        self.out.write_all(&bytes)?;
        self.entries += 1;
        Ok(())
    }

    /// Appends the entries of partition `p`, already sorted, without
    /// repeats and encoded ([`encode_entries`]); `p` comes after the
    /// partition of every entry before.
    pub(crate) fn push_encoded(&mut self, p: usize, bytes: &[u8]) -> io::Result<()> {
        debug_assert!(p >= self.partition && bytes.len().is_multiple_of(RUN_ENTRY));
        for s in &mut self.starts[self.partition + 1..=p] {
            *s = self.entries;
        }
        self.partition = p;
        self.out.write_all(bytes)?;
        self.entries += (bytes.len() / RUN_ENTRY) as u64;
        self.last = None;
        Ok(())
    }

    /// The finished run.
    pub(crate) fn finish(mut self) -> io::Result<Run> {
        for s in &mut self.starts[self.partition + 1..] {
            *s = self.entries;
        }
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Run {
            file,
            starts: self.starts,
        })
    }
}

/// Reads entries of a run back, by positioned reads: readers of several
/// segments of one run work side by side.
struct Segment<'r> {
    file: &'r File,
    /// The entry after the buffered ones.
    next: u64,
    end: u64,
    buffer: Vec<u8>,
    /// Where the next entry is in `buffer`.
    at: usize,
}

impl Segment<'_> {
    fn next(&mut self) -> io::Result<Option<Entry>> {
        if self.at == self.buffer.len() {
            if self.next == self.end {
                return Ok(None);
            }
            let entries = (self.end - self.next).min((READ_BUFFER / RUN_ENTRY) as u64);
            self.buffer.resize(entries as usize * RUN_ENTRY, 0);
            self.file
                .read_exact_at(&mut self.buffer, self.next * RUN_ENTRY as u64)?;
            self.next += entries;
            self.at = 0;
        }
        let e = decode(&self.buffer[self.at..self.at + RUN_ENTRY]);
        self.at += RUN_ENTRY;
        Ok(Some(e))
    }
}

/// The entry of the [`RUN_ENTRY`] bytes `b`.
fn decode(b: &[u8]) -> Entry {
    let mut key = [0u8; 8];
    key.copy_from_slice(&b[..8]);
    let mut game = [0u8; 4];
    game.copy_from_slice(&b[8..RUN_ENTRY]);
    Entry::new(u64::from_le_bytes(key), u32::from_le_bytes(game))
}

/// The k-way merge of sorted runs (or of one partition of each): their
/// entries in (key, game) order, each (key, game) pair once.
pub(crate) struct Merge<'r> {
    segments: Vec<Segment<'r>>,
    /// Key, game and segment of the head of each segment, packed into one
    /// number that orders them: `key << 64 | game << 32 | segment`.
    heap: BinaryHeap<Reverse<u128>>,
    last: Option<Entry>,
}

fn pack(e: &Entry, segment: usize) -> u128 {
    (u128::from(e.key()) << 64) | (u128::from(e.game) << 32) | segment as u128
}

impl<'r> Merge<'r> {
    fn new(segments: Vec<Segment<'r>>) -> io::Result<Merge<'r>> {
        let mut merge = Merge {
            heap: BinaryHeap::with_capacity(segments.len()),
            segments,
            last: None,
        };
        for i in 0..merge.segments.len() {
            if let Some(e) = merge.segments[i].next()? {
                merge.heap.push(Reverse(pack(&e, i)));
            }
        }
        Ok(merge)
    }

    /// Merges whole runs.
    pub(crate) fn runs(runs: &'r [Run]) -> io::Result<Merge<'r>> {
        Merge::new(runs.iter().map(|r| r.segment(0, r.entries())).collect())
    }

    /// Merges partition `p` of each run.
    pub(crate) fn partition(runs: &'r [Run], p: usize) -> io::Result<Merge<'r>> {
        Merge::new(
            runs.iter()
                .map(|r| r.segment(r.starts[p], r.starts[p + 1]))
                .collect(),
        )
    }

    /// The next entry, or `None` at the end of every run.
    pub(crate) fn next(&mut self) -> io::Result<Option<Entry>> {
        loop {
            let Some(mut top) = self.heap.peek_mut() else {
                return Ok(None);
            };
            let Reverse(packed) = *top;
            let e = Entry::new((packed >> 64) as u64, (packed >> 32) as u32);
            let i = packed as u32 as usize;
            match self.segments[i].next()? {
                Some(next) => *top = Reverse(pack(&next, i)),
                None => {
                    std::collections::binary_heap::PeekMut::pop(top);
                }
            }
            if self.last != Some(e) {
                self.last = Some(e);
                return Ok(Some(e));
            }
        }
    }
}

/// Replaces `bytes` by the bytes of sorted entries in a run, each (key,
/// game) pair once.
pub(crate) fn encode_entries(sorted: &[Entry], bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.reserve(sorted.len() * RUN_ENTRY);
    let mut last = None;
    for e in sorted {
        if last == Some(e) {
            continue;
        }
        last = Some(e);
        bytes.extend_from_slice(&e.key().to_le_bytes());
        bytes.extend_from_slice(&e.game.to_le_bytes());
    }
}

/// Merges `runs` into one run in `dir`.
pub(crate) fn merge_runs(dir: &Path, runs: Vec<Run>) -> io::Result<Run> {
    let mut merge = Merge::runs(&runs)?;
    let mut out = RunWriter::create(dir)?;
    while let Some(e) = merge.next()? {
        out.push(e)?;
    }
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, mut entries: Vec<Entry>) -> Run {
        entries.sort();
        let mut w = RunWriter::create(dir).unwrap();
        for e in entries {
            w.push(e).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn runs_merge_in_order_without_repeats_and_leave_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = run(
            dir.path(),
            vec![Entry::new(5, 1), Entry::new(1, 0), Entry::new(5, 1)],
        );
        assert_eq!(a.entries(), 2);
        let b = run(dir.path(), vec![Entry::new(5, 0), Entry::new(9, 2)]);
        let c = run(dir.path(), vec![Entry::new(1, 0), Entry::new(u64::MAX, 3)]);
        let d = run(dir.path(), Vec::new());
        let merged = merge_runs(dir.path(), vec![a, b, c, d]).unwrap();
        let merged = [merged];
        let mut m = Merge::runs(&merged).unwrap();
        let mut got = Vec::new();
        while let Some(e) = m.next().unwrap() {
            got.push((e.key(), e.game));
        }
        assert_eq!(got, [(1, 0), (5, 0), (5, 1), (9, 2), (u64::MAX, 3)]);
        assert_eq!(merged[0].partition_entries(0), 4);
        assert_eq!(merged[0].partition_entries(255), 1);
        let mut last = Merge::partition(&merged, 255).unwrap();
        assert_eq!(last.next().unwrap().map(|e| e.game), Some(3));
        assert_eq!(last.next().unwrap(), None);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
