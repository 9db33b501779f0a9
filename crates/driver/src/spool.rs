//! A chunk's output, held in memory up to a limit and beyond it in an
//! anonymous temporary file.
//!
//! Workers convert chunks ahead of the one being written, so each chunk's
//! output waits until every chunk before it is out. One game of millions
//! of plies is one chunk, and its JSON is several times its size: held
//! whole, it would make memory grow with the longest game. A [`Spool`]
//! keeps the first [`SPOOL_LIMIT`] bytes in memory; the rest goes to a file
//! in the temporary folder (`TMPDIR`), which the system reclaims however
//! the process ends, and is read back in order when the chunk's turn comes.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};

/// Bytes of a chunk's output kept in memory. The output of an ordinary
/// chunk (2 MiB of PGN: about 7 MB of JSON) stays under it.
pub const SPOOL_LIMIT: usize = 8 << 20;

/// Output in memory, then in a temporary file.
pub struct Spool {
    /// The first bytes, up to the limit.
    mem: Vec<u8>,
    /// The bytes after them, once there are more than the limit.
    file: Option<BufWriter<File>>,
    /// How many bytes are in `file`.
    spilled: u64,
    /// Where a piece written with [`Spool::buffer`] waits for the file.
    scratch: Vec<u8>,
    limit: usize,
}

impl Spool {
    /// A spool that writes into `mem` (emptied first) and spills beyond
    /// `limit` bytes.
    pub fn new(mut mem: Vec<u8>, limit: usize) -> Spool {
        mem.clear();
        Spool {
            mem,
            file: None,
            spilled: 0,
            scratch: Vec::new(),
            limit,
        }
    }

    /// A buffer to write the next piece (a game) into directly; call
    /// [`Spool::settle`] after each piece, so that memory stays near the
    /// limit.
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        if self.file.is_some() {
            &mut self.scratch
        } else {
            &mut self.mem
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        (self.mem.len() as u64)
            .saturating_add(self.spilled)
            .saturating_add(self.scratch.len() as u64)
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves what is beyond the limit to the file.
    ///
    /// # Errors
    /// When the temporary file cannot be made or written.
    pub fn settle(&mut self) -> io::Result<()> {
        if self.file.is_some() {
            let scratch = std::mem::take(&mut self.scratch);
            let written = self.append_to_file(&scratch);
            self.scratch = scratch;
            self.scratch.clear();
            return written;
        }
        if self.mem.len() <= self.limit {
            return Ok(());
        }
        let beyond = self.mem.split_off(self.limit);
        self.append_to_file(&beyond)
    }

    /// Sends everything written from here on to the file, whatever the
    /// limit: for a piece (one game of millions of moves) that is known to
    /// be large, so that it never fills the memory part first.
    ///
    /// # Errors
    /// When the temporary file cannot be made.
    pub fn spill_from_here(&mut self) -> io::Result<()> {
        self.settle()?;
        self.append_to_file(&[])
    }

    /// Appends `bytes` to the file, made at the first call.
    fn append_to_file(&mut self, bytes: &[u8]) -> io::Result<()> {
        let file = match &mut self.file {
            Some(f) => f,
            None => self
                .file
                .insert(BufWriter::with_capacity(1 << 16, tempfile::tempfile()?)),
        };
        file.write_all(bytes)?;
        self.spilled = self.spilled.saturating_add(bytes.len() as u64);
        Ok(())
    }

    /// Reads back everything written, in order.
    ///
    /// # Errors
    /// When the temporary file cannot be flushed or rewound.
    pub fn into_reader(mut self) -> io::Result<SpoolReader> {
        self.settle()?;
        let file = match self.file {
            Some(w) => {
                let mut file = w.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                Some(BufReader::with_capacity(1 << 16, file).take(self.spilled))
            }
            None => None,
        };
        Ok(SpoolReader {
            file,
            mem: self.mem,
            at: 0,
        })
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && self.mem.len().saturating_add(buf.len()) <= self.limit {
            self.mem.extend_from_slice(buf);
        } else {
            self.settle()?;
            self.append_to_file(buf)?;
        }
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(buf).map(|_| ())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What a [`Spool`] holds, read in order.
pub struct SpoolReader {
    mem: Vec<u8>,
    /// Bytes of `mem` read.
    at: usize,
    file: Option<io::Take<BufReader<File>>>,
}

impl SpoolReader {
    /// Copies the next `n` bytes to `out`.
    ///
    /// # Errors
    /// Those of reading the file or writing `out`; fewer than `n` bytes
    /// left is an error too.
    pub fn copy(&mut self, n: u64, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        let copied = io::copy(&mut self.by_ref().take(n), out)?;
        if copied < n {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the spooled output is shorter than was written",
            ));
        }
        Ok(())
    }

    /// Copies the rest to `out`.
    ///
    /// # Errors
    /// Those of reading the file or writing `out`.
    pub fn copy_rest(&mut self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        io::copy(self, out).map(|_| ())
    }

    /// The memory buffer, for reuse.
    pub fn into_buffer(self) -> Vec<u8> {
        self.mem
    }
}

impl Read for SpoolReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.mem.get(self.at..).unwrap_or_default();
        if !rest.is_empty() {
            let n = rest.len().min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            self.at += n;
            return Ok(n);
        }
        match &mut self.file {
            Some(file) => file.read(buf),
            None => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_spilled_reads_back_in_order_with_the_rest() {
        let mut spool = Spool::new(Vec::new(), 10);
        let mut expected = Vec::new();
        for k in 0..100u32 {
            let piece = format!("game {k};");
            spool.buffer().extend_from_slice(piece.as_bytes());
            spool.settle().expect("spilled");
            expected.extend_from_slice(piece.as_bytes());
            write!(spool, "[{k}]").expect("written");
            expected.extend_from_slice(format!("[{k}]").as_bytes());
        }
        assert_eq!(spool.len(), expected.len() as u64);
        assert!(spool.file.is_some(), "over the limit: spilled");
        assert!(spool.mem.len() <= 10, "memory stays at the limit");
        assert!(
            spool.scratch.len() <= 10,
            "a piece waits no longer than it takes"
        );
        let mut reader = spool.into_reader().expect("a reader");
        let mut out = Vec::new();
        reader.copy(5, &mut out).expect("five bytes");
        assert_eq!(out, b"game ");
        reader.copy_rest(&mut out).expect("the rest");
        assert_eq!(out, expected);
        assert!(reader.copy(1, &mut out).is_err(), "nothing is left");
    }

    #[test]
    fn a_large_piece_goes_to_the_file_after_what_came_before() {
        let mut spool = Spool::new(Vec::new(), 1 << 20);
        spool.write_all(b"small game\n").expect("written");
        spool.spill_from_here().expect("a file");
        write!(spool, "large game").expect("written");
        spool.buffer().extend_from_slice(b"\nnext game\n");
        spool.settle().expect("settled");
        assert_eq!(
            spool.mem, b"small game\n",
            "only what came before is in memory"
        );
        assert_eq!(spool.len(), 32);
        let mut out = Vec::new();
        let mut reader = spool.into_reader().expect("a reader");
        reader.copy_rest(&mut out).expect("read");
        assert_eq!(out, b"small game\nlarge game\nnext game\n");
    }

    #[test]
    fn under_the_limit_nothing_touches_the_disk() {
        let mut spool = Spool::new(b"old".to_vec(), 1 << 20);
        spool.write_all(b"1. e4 e5 *\n").expect("written");
        assert!(spool.file.is_none());
        let mut out = Vec::new();
        let mut reader = spool.into_reader().expect("a reader");
        reader.copy_rest(&mut out).expect("read");
        assert_eq!(out, b"1. e4 e5 *\n");
        assert_eq!(reader.into_buffer(), b"1. e4 e5 *\n");
    }
}
