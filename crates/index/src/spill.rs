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
//! about 1.5 times its position table, only while it is written.
//!
//! A run holds entries sorted by (key, game) without repeats, 12 bytes each:
//! the key (`u64`) and the game number (`u32`), little-endian.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// A position entry while building: the key and the global game number.
/// The order is (key, game): the order of the position table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
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

/// Buffer of each run while it is read back.
const READ_BUFFER: usize = 128 << 10;

/// A sorted run on disk.
#[derive(Debug)]
pub(crate) struct Run {
    file: File,
    entries: u64,
}

impl Run {
    /// Entries in the run.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> u64 {
        self.entries
    }
}

/// Writes a run, in (key, game) order, dropping repeats.
pub(crate) struct RunWriter {
    out: BufWriter<File>,
    entries: u64,
    last: Option<Entry>,
}

impl RunWriter {
    /// A new, empty run in `dir`.
    pub(crate) fn create(dir: &Path) -> io::Result<RunWriter> {
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(dir)?),
            entries: 0,
            last: None,
        })
    }

    /// Appends `e`, which comes at or after every entry pushed before.
    pub(crate) fn push(&mut self, e: Entry) -> io::Result<()> {
        if self.last == Some(e) {
            return Ok(());
        }
        debug_assert!(self.last.is_none_or(|last| last < e), "a run is sorted");
        self.last = Some(e);
        let mut bytes = [0u8; RUN_ENTRY];
        bytes[..8].copy_from_slice(&e.key().to_le_bytes());
        bytes[8..].copy_from_slice(&e.game.to_le_bytes());
        self.out.write_all(&bytes)?;
        self.entries += 1;
        Ok(())
    }

    /// The finished run, ready to be read from its start.
    pub(crate) fn finish(self) -> io::Result<Run> {
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        Ok(Run {
            file,
            entries: self.entries,
        })
    }
}

/// Reads a run back.
struct RunReader {
    input: BufReader<File>,
    left: u64,
}

impl RunReader {
    fn next(&mut self) -> io::Result<Option<Entry>> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut bytes = [0u8; RUN_ENTRY];
        self.input.read_exact(&mut bytes)?;
        self.left -= 1;
        let mut key = [0u8; 8];
        key.copy_from_slice(&bytes[..8]);
        let mut game = [0u8; 4];
        game.copy_from_slice(&bytes[8..]);
        Ok(Some(Entry::new(
            u64::from_le_bytes(key),
            u32::from_le_bytes(game),
        )))
    }
}

/// The k-way merge of sorted runs: their entries in (key, game) order,
/// each (key, game) pair once.
pub(crate) struct Merge {
    readers: Vec<RunReader>,
    heap: BinaryHeap<Reverse<(Entry, usize)>>,
    last: Option<Entry>,
}

impl Merge {
    /// Merges `runs`.
    pub(crate) fn new(runs: Vec<Run>) -> io::Result<Merge> {
        let mut readers: Vec<RunReader> = runs
            .into_iter()
            .map(|r| RunReader {
                input: BufReader::with_capacity(READ_BUFFER, r.file),
                left: r.entries,
            })
            .collect();
        let mut heap = BinaryHeap::with_capacity(readers.len());
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(e) = r.next()? {
                heap.push(Reverse((e, i)));
            }
        }
        Ok(Merge {
            readers,
            heap,
            last: None,
        })
    }

    /// The next entry, or `None` at the end of every run.
    pub(crate) fn next(&mut self) -> io::Result<Option<Entry>> {
        loop {
            let Some(mut top) = self.heap.peek_mut() else {
                return Ok(None);
            };
            let Reverse((e, i)) = *top;
            match self.readers[i].next()? {
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

/// Merges `runs` into one run in `dir`.
pub(crate) fn merge_runs(dir: &Path, runs: Vec<Run>) -> io::Result<Run> {
    let mut merge = Merge::new(runs)?;
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
        let mut m = Merge::new(vec![merged]).unwrap();
        let mut got = Vec::new();
        while let Some(e) = m.next().unwrap() {
            got.push((e.key(), e.game));
        }
        assert_eq!(got, [(1, 0), (5, 0), (5, 1), (9, 2), (u64::MAX, 3)]);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
