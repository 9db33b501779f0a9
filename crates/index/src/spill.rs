//! Sorted runs of fixed-size records spilled to temporary files, and their
//! k-way merge: how the [`Builder`](crate::Builder) writes the index of a
//! PGN file of any size in bounded memory, and how [`Sorter`] sorts any
//! number of records in a fixed budget (`pgnkit dedup` sorts its games'
//! records with it).
//!
//! A run is an anonymous temporary file in a directory
//! (`tempfile::tempfile_in`: on Linux an `O_TMPFILE` file that never has a
//! name, elsewhere a file unlinked as soon as it is created), so the
//! operating system reclaims it whenever the process ends — on an error, on
//! Ctrl-C, even when it is killed. The index's runs go beside the index
//! rather than to `TMPDIR`, which is often a RAM disk (tmpfs), where
//! spilling would save no memory; the index's disk must hold the index
//! anyway, and the runs take about 1.5 times its position table, only while
//! it is written (twice that while the first 64 runs are merged into one).
//!
//! A run holds records of one [`Record`] type sorted without repeats, each
//! [`Record::SIZE`] bytes; the index's position entries are 12 bytes: the
//! key (`u64`) and the game number (`u32`), little-endian.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::marker::PhantomData;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// A record that runs hold: ordered, and encoded in [`Record::SIZE`] bytes.
pub trait Record: Copy + Ord {
    /// Bytes of a record in a run.
    const SIZE: usize;
    /// Writes the record into `out` ([`Record::SIZE`] bytes).
    fn encode(&self, out: &mut [u8]);
    /// The record of the [`Record::SIZE`] bytes `b`.
    fn decode(b: &[u8]) -> Self;
    /// Its partition, below [`PARTITIONS`], that does not decrease along
    /// the order (0 for records that are not partitioned).
    fn partition(&self) -> usize {
        0
    }
}

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

    /// Entries whose keys share their top 8 bits, as in the builder's
    /// tables.
    fn partition(&self) -> usize {
        (self.hi >> 24) as usize
    }
}

/// At most this many runs are merged at once: more are first merged into
/// one run (few file handles, and a small heap).
pub const MAX_RUNS: usize = 64;

/// Buffer of each run segment while it is read back.
const READ_BUFFER: usize = 32 << 10;

/// Bytes read at a time when a partition of a run is read whole.
const WHOLE_READ: usize = 256 << 10;

/// Partitions of a run.
pub const PARTITIONS: usize = 256;

/// A sorted run on disk.
#[derive(Debug)]
pub struct Run<R> {
    file: File,
    /// Record index where each partition starts (and the end of the last).
    starts: Vec<u64>,
    record: PhantomData<R>,
}

impl<R: Record> Run<R> {
    /// Records in the run.
    pub fn entries(&self) -> u64 {
        self.starts[PARTITIONS]
    }

    /// Records of partition `p`.
    pub fn partition_entries(&self, p: usize) -> u64 {
        self.starts[p + 1] - self.starts[p]
    }

    /// Appends the records of partition `p` to `entries`, in their order
    /// in the run, reading `WHOLE_READ` bytes at a time into `buffer`.
    pub fn read_partition(
        &self,
        p: usize,
        entries: &mut Vec<R>,
        buffer: &mut Vec<u8>,
    ) -> io::Result<()> {
        let (mut next, end) = (self.starts[p], self.starts[p + 1]);
        entries.reserve((end - next) as usize);
        let per_read = (WHOLE_READ / R::SIZE).max(1) as u64;
        while next < end {
            let n = (end - next).min(per_read);
            buffer.resize(n as usize * R::SIZE, 0);
            self.file.read_exact_at(buffer, next * R::SIZE as u64)?;
            entries.extend(buffer.chunks_exact(R::SIZE).map(R::decode));
            next += n;
        }
        Ok(())
    }

    /// A reader of records `from..to`.
    fn segment(&self, from: u64, to: u64) -> Segment<'_, R> {
        Segment {
            file: &self.file,
            next: from,
            end: to,
            buffer: Vec::new(),
            at: 0,
            record: PhantomData,
        }
    }
}

/// Writes a run, in order, dropping repeats.
pub struct RunWriter<R> {
    out: BufWriter<File>,
    entries: u64,
    last: Option<R>,
    starts: Vec<u64>,
    /// The partition of the last record.
    partition: usize,
    bytes: Vec<u8>,
}

impl<R: Record> RunWriter<R> {
    /// A new, empty run in `dir`.
    pub fn create(dir: &Path) -> io::Result<RunWriter<R>> {
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(dir)?),
            entries: 0,
            last: None,
            starts: vec![0; PARTITIONS + 1],
            partition: 0,
            bytes: vec![0; R::SIZE],
        })
    }

    /// Appends `e`, which comes at or after every record pushed before.
    pub fn push(&mut self, e: R) -> io::Result<()> {
        if self.last == Some(e) {
            return Ok(());
        }
        debug_assert!(self.last.is_none_or(|last| last < e), "a run is sorted");
        self.last = Some(e);
        let p = e.partition().min(PARTITIONS - 1);
        if p > self.partition {
            for s in &mut self.starts[self.partition + 1..=p] {
                *s = self.entries;
            }
            self.partition = p;
        }
        e.encode(&mut self.bytes);
        self.out.write_all(&self.bytes)?;
        self.entries += 1;
        Ok(())
    }

    /// Appends the records of partition `p`, already sorted, without
    /// repeats and encoded ([`encode_entries`]); `p` comes after the
    /// partition of every record before.
    pub fn push_encoded(&mut self, p: usize, bytes: &[u8]) -> io::Result<()> {
        debug_assert!(p >= self.partition && bytes.len().is_multiple_of(R::SIZE));
        for s in &mut self.starts[self.partition + 1..=p] {
            *s = self.entries;
        }
        self.partition = p;
        self.out.write_all(bytes)?;
        self.entries += (bytes.len() / R::SIZE) as u64;
        self.last = None;
        Ok(())
    }

    /// The finished run.
    pub fn finish(mut self) -> io::Result<Run<R>> {
        for s in &mut self.starts[self.partition + 1..] {
            *s = self.entries;
        }
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Run {
            file,
            starts: self.starts,
            record: PhantomData,
        })
    }
}

/// Reads records of a run back, by positioned reads: readers of several
/// segments of one run work side by side.
struct Segment<'r, R> {
    file: &'r File,
    /// The record after the buffered ones.
    next: u64,
    end: u64,
    buffer: Vec<u8>,
    /// Where the next record is in `buffer`.
    at: usize,
    record: PhantomData<R>,
}

impl<R: Record> Segment<'_, R> {
    fn next(&mut self) -> io::Result<Option<R>> {
        if self.at == self.buffer.len() {
            if self.next == self.end {
                return Ok(None);
            }
            let entries = (self.end - self.next).min((READ_BUFFER / R::SIZE).max(1) as u64);
            self.buffer.resize(entries as usize * R::SIZE, 0);
            self.file
                .read_exact_at(&mut self.buffer, self.next * R::SIZE as u64)?;
            self.next += entries;
            self.at = 0;
        }
        let e = R::decode(&self.buffer[self.at..self.at + R::SIZE]);
        self.at += R::SIZE;
        Ok(Some(e))
    }
}

/// The k-way merge of sorted runs (or of one partition of each): their
/// records in order, each once.
pub struct Merge<'r, R> {
    segments: Vec<Segment<'r, R>>,
    /// The head of each segment and the segment.
    heap: BinaryHeap<Reverse<(R, usize)>>,
    last: Option<R>,
}

impl<'r, R: Record> Merge<'r, R> {
    fn new(segments: Vec<Segment<'r, R>>) -> io::Result<Merge<'r, R>> {
        let mut merge = Merge {
            heap: BinaryHeap::with_capacity(segments.len()),
            segments,
            last: None,
        };
        for i in 0..merge.segments.len() {
            if let Some(e) = merge.segments[i].next()? {
                merge.heap.push(Reverse((e, i)));
            }
        }
        Ok(merge)
    }

    /// Merges whole runs.
    pub fn runs(runs: &'r [Run<R>]) -> io::Result<Merge<'r, R>> {
        Merge::new(runs.iter().map(|r| r.segment(0, r.entries())).collect())
    }

    /// Merges partition `p` of each run.
    pub fn partition(runs: &'r [Run<R>], p: usize) -> io::Result<Merge<'r, R>> {
        Merge::new(
            runs.iter()
                .map(|r| r.segment(r.starts[p], r.starts[p + 1]))
                .collect(),
        )
    }

    /// The next record, or `None` at the end of every run.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> io::Result<Option<R>> {
        loop {
            let Some(mut top) = self.heap.peek_mut() else {
                return Ok(None);
            };
            let Reverse((e, i)) = *top;
            match self.segments[i].next()? {
                Some(next) => *top = Reverse((next, i)),
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

/// Replaces `bytes` by the bytes of sorted records in a run, each once.
pub fn encode_entries<R: Record>(sorted: &[R], bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.resize(sorted.len() * R::SIZE, 0);
    let mut at = 0;
    let mut last = None;
    for e in sorted {
        if last == Some(e) {
            continue;
        }
        last = Some(e);
        e.encode(&mut bytes[at..at + R::SIZE]);
        at += R::SIZE;
    }
    bytes.truncate(at);
}

/// Merges `runs` into one run in `dir`.
pub fn merge_runs<R: Record>(dir: &Path, runs: Vec<Run<R>>) -> io::Result<Run<R>> {
    let mut merge = Merge::runs(&runs)?;
    let mut out = RunWriter::create(dir)?;
    while let Some(e) = merge.next()? {
        out.push(e)?;
    }
    out.finish()
}

/// Sorts any number of records in a fixed budget of memory: records are
/// gathered in memory up to the budget, then sorted and spilled as a run
/// to an anonymous temporary file in a directory (more than [`MAX_RUNS`]
/// runs are merged into one), and read back in order by a k-way merge of
/// the runs ([`Sorted::reader`]). Equal records come out once.
///
/// ```
/// use pgnkit_index::spill::{Record, Sorter};
/// #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
/// struct N(u32);
/// impl Record for N {
///     const SIZE: usize = 4;
///     fn encode(&self, out: &mut [u8]) { out.copy_from_slice(&self.0.to_le_bytes()) }
///     fn decode(b: &[u8]) -> N { N(u32::from_le_bytes([b[0], b[1], b[2], b[3]])) }
/// }
/// let dir = tempfile::tempdir().unwrap();
/// let mut sorter = Sorter::new(0, dir.path()); // a run every few records
/// for n in (0..5_000u32).rev() {
///     sorter.push(N(n % 1_000)).unwrap();
/// }
/// assert!(sorter.runs() > 1);
/// let sorted = sorter.finish().unwrap();
/// let mut reader = sorted.reader().unwrap();
/// let mut got = Vec::new();
/// while let Some(N(n)) = reader.next().unwrap() {
///     got.push(n);
/// }
/// assert_eq!(got, (0..1_000).collect::<Vec<_>>());
/// ```
pub struct Sorter<R> {
    dir: PathBuf,
    /// Records gathered before a run is spilled.
    capacity: usize,
    buffer: Vec<R>,
    runs: Vec<Run<R>>,
    spilled: u64,
}

/// The fewest records a run holds, whatever the budget.
const MIN_RECORDS: usize = 16;

impl<R: Record> Sorter<R> {
    /// A sorter that holds about `memory` bytes of records, and spills
    /// beyond to `dir`.
    pub fn new(memory: u64, dir: &Path) -> Sorter<R> {
        let each = size_of::<R>().max(1) as u64;
        let capacity = usize::try_from(memory / each)
            .unwrap_or(usize::MAX)
            .max(MIN_RECORDS);
        Sorter {
            dir: dir.to_path_buf(),
            capacity,
            buffer: Vec::new(),
            runs: Vec::new(),
            spilled: 0,
        }
    }

    /// Adds a record.
    pub fn push(&mut self, r: R) -> io::Result<()> {
        if self.buffer.len() >= self.capacity {
            self.spill()?;
        }
        if self.buffer.capacity() == 0 {
            // Room for the whole budget at once: pages are only used as
            // they fill, and the buffer never doubles past the budget.
            self.buffer.reserve_exact(self.capacity);
        }
        self.buffer.push(r);
        Ok(())
    }

    /// Runs spilled so far (runs merged into one count each).
    pub fn runs(&self) -> u64 {
        self.spilled
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.buffer.sort_unstable();
        let mut run = RunWriter::create(&self.dir)?;
        for &r in &self.buffer {
            run.push(r)?;
        }
        self.buffer.clear();
        self.runs.push(run.finish()?);
        self.spilled += 1;
        if self.runs.len() >= MAX_RUNS {
            let runs = std::mem::take(&mut self.runs);
            self.runs.push(merge_runs(&self.dir, runs)?);
        }
        Ok(())
    }

    /// Every record, sorted: in memory when they fitted, else in runs.
    pub fn finish(mut self) -> io::Result<Sorted<R>> {
        if self.runs.is_empty() {
            self.buffer.sort_unstable();
            self.buffer.dedup();
            return Ok(Sorted {
                memory: self.buffer,
                runs: Vec::new(),
            });
        }
        self.spill()?;
        Ok(Sorted {
            memory: Vec::new(),
            runs: self.runs,
        })
    }
}

/// The records of a [`Sorter`], sorted.
pub struct Sorted<R> {
    memory: Vec<R>,
    runs: Vec<Run<R>>,
}

impl<R: Record> Sorted<R> {
    /// A reader of the records in order (as many as wanted, one after the
    /// other or side by side).
    pub fn reader(&self) -> io::Result<SortedReader<'_, R>> {
        Ok(if self.runs.is_empty() {
            SortedReader::Memory(self.memory.iter())
        } else {
            SortedReader::Runs(Merge::runs(&self.runs)?)
        })
    }
}

/// Reads the records of [`Sorted`] in order.
pub enum SortedReader<'s, R> {
    /// They fitted in memory.
    Memory(std::slice::Iter<'s, R>),
    /// They were spilled.
    Runs(Merge<'s, R>),
}

impl<R: Record> SortedReader<'_, R> {
    /// The next record, or `None` after the last.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> io::Result<Option<R>> {
        match self {
            SortedReader::Memory(it) => Ok(it.next().copied()),
            SortedReader::Runs(m) => m.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, mut entries: Vec<Entry>) -> Run<Entry> {
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
