//! External sort: any number of fixed-size records sorted in a fixed budget
//! of memory.
//!
//! A [`Sorter`] gathers records in memory up to its budget, then sorts them
//! and spills them as a sorted run ([`Run`], written by a [`RunWriter`]) to
//! an anonymous temporary file in a directory; [`Sorted::reader`] reads
//! them back in order by a k-way merge of the runs ([`Merge`], a binary
//! heap of the runs' heads). More than [`MAX_RUNS`] runs are first merged
//! into one ([`merge_runs`]): few file handles, and a small heap. Equal
//! records come out once.
//!
//! Every temporary file is anonymous (`tempfile::tempfile_in`: on Linux an
//! `O_TMPFILE` file that never has a name, elsewhere a file unlinked as soon
//! as it is created), so the operating system reclaims it whenever the
//! process ends — on an error, on Ctrl-C, even when it is killed.
//!
//! `pgnkit-index` sorts the position entries of a partition too large for
//! its budget with it, and `pgnkit-dedup` its games' records.
//!
//! ```
//! use pgnkit_extsort::{Record, Sorter};
//! #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
//! struct N(u32);
//! impl Record for N {
//!     const SIZE: usize = 4;
//!     fn encode(&self, out: &mut [u8]) { out.copy_from_slice(&self.0.to_le_bytes()) }
//!     fn decode(b: &[u8]) -> N { N(u32::from_le_bytes([b[0], b[1], b[2], b[3]])) }
//! }
//! let dir = tempfile::tempdir().unwrap();
//! let mut sorter = Sorter::new(0, dir.path()); // a run every few records
//! for n in (0..5_000u32).rev() {
//!     sorter.push(N(n % 1_000)).unwrap();
//! }
//! assert!(sorter.runs() > 1);
//! let sorted = sorter.finish().unwrap();
//! let mut reader = sorted.reader().unwrap();
//! let mut got = Vec::new();
//! while let Some(N(n)) = reader.next().unwrap() {
//!     got.push(n);
//! }
//! assert_eq!(got, (0..1_000).collect::<Vec<_>>());
//! ```

mod merge;
mod run;
mod sorter;

pub use merge::{MAX_RUNS, Merge, merge_runs};
pub use run::{Run, RunWriter};
pub use sorter::{Sorted, SortedReader, Sorter};

/// A record that runs hold: ordered, and encoded in [`Record::SIZE`] bytes.
pub trait Record: Copy + Ord {
    /// Bytes of a record in a run.
    const SIZE: usize;
    /// Writes the record into `out` ([`Record::SIZE`] bytes).
    fn encode(&self, out: &mut [u8]);
    /// The record of the [`Record::SIZE`] bytes `b`.
    fn decode(b: &[u8]) -> Self;
}
