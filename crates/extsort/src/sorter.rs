//! Sorting in a fixed budget of memory: runs spilled beyond it.

use std::io;
use std::path::{Path, PathBuf};

use crate::Record;
use crate::merge::{MAX_RUNS, Merge, merge_runs};
use crate::run::{Run, RunWriter};

/// Sorts any number of records in a fixed budget of memory: records are
/// gathered in memory up to the budget, then sorted and spilled as a run
/// to an anonymous temporary file in a directory (more than [`MAX_RUNS`]
/// runs are merged into one), and read back in order by a k-way merge of
/// the runs ([`Sorted::reader`]). Equal records come out once (see the
/// [crate](crate) for an example).
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
        if self.buffer.len() == self.buffer.capacity() {
            // Grown as it is used (never the whole budget at once: `--memory
            // 64G` on a smaller machine would abort), doubling, but never
            // past the budget.
            let room = self.buffer.len().max(MIN_RECORDS);
            let room = room.min(self.capacity - self.buffer.len());
            self.buffer.reserve_exact(room);
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

    /// A record of one number.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Number(u64);

    impl Record for Number {
        const SIZE: usize = 8;

        fn encode(&self, out: &mut [u8]) {
            out[..8].copy_from_slice(&self.0.to_le_bytes());
        }

        fn decode(b: &[u8]) -> Number {
            let mut n = [0u8; 8];
            n.copy_from_slice(&b[..8]);
            Number(u64::from_le_bytes(n))
        }
    }

    #[test]
    fn a_budget_larger_than_the_machine_is_not_reserved_at_once() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // A terabyte: reserved at once, the allocation fails (an abort).
        let mut sorter: Sorter<Number> = Sorter::new(1 << 40, dir.path());
        for n in 0..1_000u64 {
            sorter.push(Number(n)).expect("in memory");
        }
        assert!(
            sorter.buffer.capacity() < 4_096,
            "{}",
            sorter.buffer.capacity()
        );
        assert_eq!(sorter.runs(), 0);
    }
}
