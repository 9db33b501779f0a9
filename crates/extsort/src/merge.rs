//! The k-way merge of sorted runs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::path::Path;

use crate::Record;
use crate::run::{Run, RunWriter, Segment};

/// At most this many runs are merged at once: more are first merged into
/// one run (few file handles, and a small heap).
pub const MAX_RUNS: usize = 64;

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

/// Merges `runs` into one run in `dir`.
pub fn merge_runs<R: Record>(dir: &Path, runs: Vec<Run<R>>) -> io::Result<Run<R>> {
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

    /// A position entry as the index spills it: a key, then a game.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Entry(u64, u32);

    impl Record for Entry {
        const SIZE: usize = 12;

        fn encode(&self, out: &mut [u8]) {
            out[..8].copy_from_slice(&self.0.to_le_bytes());
            out[8..12].copy_from_slice(&self.1.to_le_bytes());
        }

        fn decode(b: &[u8]) -> Entry {
            let mut key = [0u8; 8];
            key.copy_from_slice(&b[..8]);
            let mut game = [0u8; 4];
            game.copy_from_slice(&b[8..12]);
            Entry(u64::from_le_bytes(key), u32::from_le_bytes(game))
        }
    }

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
        let a = run(dir.path(), vec![Entry(5, 1), Entry(1, 0), Entry(5, 1)]);
        assert_eq!(a.entries(), 2);
        let b = run(dir.path(), vec![Entry(5, 0), Entry(9, 2)]);
        let c = run(dir.path(), vec![Entry(1, 0), Entry(u64::MAX, 3)]);
        let d = run(dir.path(), Vec::new());
        let merged = merge_runs(dir.path(), vec![a, b, c, d]).unwrap();
        let merged = [merged];
        let mut m = Merge::runs(&merged).unwrap();
        let mut got = Vec::new();
        while let Some(e) = m.next().unwrap() {
            got.push((e.0, e.1));
        }
        assert_eq!(got, [(1, 0), (5, 0), (5, 1), (9, 2), (u64::MAX, 3)]);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
