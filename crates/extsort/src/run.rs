//! Sorted runs: records written in order to an anonymous temporary file,
//! and read back a segment at a time.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::marker::PhantomData;
use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::Record;

/// Buffer of each run segment while it is read back.
const READ_BUFFER: usize = 32 << 10;

/// A sorted run on disk.
#[derive(Debug)]
pub struct Run<R> {
    file: File,
    entries: u64,
    record: PhantomData<R>,
}

impl<R: Record> Run<R> {
    /// Records in the run.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// A reader of records `from..to`.
    pub(crate) fn segment(&self, from: u64, to: u64) -> Segment<'_, R> {
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
    bytes: Vec<u8>,
}

impl<R: Record> RunWriter<R> {
    /// A new, empty run in `dir`.
    pub fn create(dir: &Path) -> io::Result<RunWriter<R>> {
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(dir)?),
            entries: 0,
            last: None,
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
        e.encode(&mut self.bytes);
        self.out.write_all(&self.bytes)?;
        self.entries += 1;
        Ok(())
    }

    /// The finished run.
    pub fn finish(self) -> io::Result<Run<R>> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Run {
            file,
            entries: self.entries,
            record: PhantomData,
        })
    }
}

/// Reads records of a run back, by positioned reads: readers of several
/// segments of one run work side by side.
pub(crate) struct Segment<'r, R> {
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
    pub(crate) fn next(&mut self) -> io::Result<Option<R>> {
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
