//! Writing and reading large files around the page cache.
//!
//! The index's spill file and the index itself are written once, in order,
//! and (the spill) read back once: through the page cache, each of their
//! pages would be taken from the system's free memory, filled, and held
//! until it is written out, evicting the user's other files. Where the
//! system allows it (`O_DIRECT`, on Linux), [`Direct`] writes them straight
//! to the disk from a buffer aligned to [`BLOCK`] bytes instead, and reads
//! the spill back the same way. Where it does not (another system, a file
//! system without direct I/O, a device with larger blocks), the same
//! aligned writes go through the page cache, as any other write.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

/// The alignment of direct I/O: of the buffer, of file offsets and of
/// lengths (the logical block size of any disk in use, or a multiple of
/// it).
pub(crate) const BLOCK: usize = 4096;

/// Bytes gathered before they are written.
const BUFFER: usize = 1 << 20;

/// A buffer whose usable part starts at a multiple of [`BLOCK`] in memory.
#[derive(Debug, Default)]
pub(crate) struct Aligned {
    memory: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    /// A buffer of `len` bytes (a multiple of [`BLOCK`]), zeroed.
    fn with_len(len: usize) -> Aligned {
        let mut a = Aligned::default();
        a.resize(len);
        a
    }

    /// Makes its usable part `len` bytes long (a multiple of [`BLOCK`]);
    /// the bytes kept are not moved unless the memory grows.
    pub(crate) fn resize(&mut self, len: usize) {
        if self.memory.len() < len + BLOCK {
            self.memory = vec![0; len + BLOCK];
            // Where the first aligned byte is (always below BLOCK for a
            // byte buffer of this length).
            self.start = self.memory.as_ptr().align_offset(BLOCK).min(BLOCK);
        }
        self.len = len;
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.memory[self.start..self.start + self.len]
    }

    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.memory[self.start..self.start + self.len]
    }
}

/// Turns direct I/O on for `file`, if the system allows it; says whether
/// it did.
#[cfg(target_os = "linux")]
fn set_direct(file: &File, on: bool) -> bool {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    let Ok(flags) = fcntl_getfl(file) else {
        return false;
    };
    let flags = if on {
        flags | OFlags::DIRECT
    } else {
        flags - OFlags::DIRECT
    };
    fcntl_setfl(file, flags).is_ok() && on
}

/// Direct I/O is not used here.
#[cfg(not(target_os = "linux"))]
fn set_direct(_file: &File, _on: bool) -> bool {
    false
}

/// A file written from its start in blocks of [`BLOCK`] bytes, around the
/// page cache where the system allows it (see the module).
#[derive(Debug)]
pub(crate) struct Direct {
    file: File,
    direct: bool,
    buffer: Aligned,
    /// Bytes in `buffer`.
    filled: usize,
    /// Where the buffer goes in the file.
    offset: u64,
}

impl Direct {
    /// Writes `file` (empty) from its start.
    pub(crate) fn new(file: File) -> Direct {
        let direct = set_direct(&file, true);
        Direct {
            file,
            direct,
            buffer: Aligned::with_len(BUFFER),
            filled: 0,
            offset: 0,
        }
    }

    /// Bytes written so far (buffered ones included).
    pub(crate) fn len(&self) -> u64 {
        self.offset + self.filled as u64
    }

    /// Appends `bytes`.
    pub(crate) fn write_all(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            let n = bytes.len().min(BUFFER - self.filled);
            self.buffer.bytes_mut()[self.filled..self.filled + n].copy_from_slice(&bytes[..n]);
            self.filled += n;
            bytes = &bytes[n..];
            if self.filled == BUFFER {
                self.flush_blocks(BUFFER)?;
            }
        }
        Ok(())
    }

    /// Writes the first `len` bytes of the buffer (a multiple of
    /// [`BLOCK`]) at its place, and moves the rest to its start.
    fn flush_blocks(&mut self, len: usize) -> io::Result<()> {
        let block = &self.buffer.bytes()[..len];
        match self.file.write_all_at(block, self.offset) {
            Ok(()) => {}
            // A device whose blocks are larger, a file system that takes
            // the flag and not the writes: the page cache, then.
            Err(e) if self.direct && e.kind() == io::ErrorKind::InvalidInput => {
                self.direct = set_direct(&self.file, false);
                self.file.write_all_at(block, self.offset)?;
            }
            Err(e) => return Err(e),
        }
        self.offset += len as u64;
        let rest = self.filled - len;
        self.buffer.bytes_mut().copy_within(len..len + rest, 0);
        self.filled = rest;
        Ok(())
    }

    /// Writes what is buffered, padded with zeros to a whole block: the
    /// file's length is then a multiple of [`BLOCK`], its bytes past
    /// [`Direct::len`] zeros. Returns the length written before padding.
    /// More bytes may be written after, from the next block on.
    pub(crate) fn flush_padded(&mut self) -> io::Result<u64> {
        let len = self.len();
        if self.filled > 0 {
            let padded = self.filled.next_multiple_of(BLOCK);
            self.buffer.bytes_mut()[self.filled..padded].fill(0);
            self.filled = padded;
            self.flush_blocks(padded)?;
        }
        Ok(len)
    }

    /// Writes what is buffered and cuts the file at the bytes written: the
    /// file, with direct I/O off, for more writes anywhere in it.
    pub(crate) fn finish(mut self) -> io::Result<File> {
        let len = self.flush_padded()?;
        self.file.set_len(len)?;
        set_direct(&self.file, false);
        Ok(self.file)
    }

    /// Reads the whole blocks at `start` (a multiple of [`BLOCK`]) into
    /// `into` (of a length that is a multiple of [`BLOCK`], aligned in
    /// memory: a part of an [`Aligned`] buffer at a multiple of
    /// [`BLOCK`]); they must have been written and flushed
    /// ([`Direct::flush_padded`]).
    pub(crate) fn read_blocks(&self, start: u64, into: &mut [u8]) -> io::Result<()> {
        self.file.read_exact_at(into, start)
    }

    /// Hands every byte written to `put` in order, a megabyte at a time.
    pub(crate) fn read_back(
        mut self,
        put: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let len = self.flush_padded()?;
        let mut buffer = Aligned::default();
        let mut from = 0;
        while from < len {
            let to = len.min(from + BUFFER as u64);
            put(self.read_at(from, to, &mut buffer)?)?;
            from = to;
        }
        Ok(())
    }

    /// The file, for reads ([`Direct::read_at`]) and holes.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Reads bytes `from..to` of the file, which must have been written and
    /// flushed ([`Direct::flush_padded`]) up to `to` or beyond, into
    /// `buffer`: whole blocks are read around them.
    pub(crate) fn read_at<'b>(
        &self,
        from: u64,
        to: u64,
        buffer: &'b mut Aligned,
    ) -> io::Result<&'b [u8]> {
        let block = BLOCK as u64;
        let start = from - from % block;
        let end = to.next_multiple_of(block);
        let len = usize::try_from(end - start).map_err(io::Error::other)?;
        buffer.resize(len);
        self.file.read_exact_at(buffer.bytes_mut(), start)?;
        let skip = (from - start) as usize;
        Ok(&buffer.bytes()[skip..skip + (to - from) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Property: bytes written in pieces of any size, flushed padded
    /// between runs of writes, read back at any range; the finished file
    /// has exactly the bytes written, whether or not the directory's file
    /// system takes direct I/O.
    #[test]
    fn bytes_come_back_at_any_range() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = Direct::new(tempfile::tempfile_in(dir.path()).unwrap());
        let mut expected = Vec::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..3 {
            for _ in 0..200 {
                let n = (next() % 40_000) as usize;
                let piece: Vec<u8> = (0..n).map(|i| (i as u64 ^ next()) as u8).collect();
                w.write_all(&piece).unwrap();
                expected.extend_from_slice(&piece);
            }
            assert_eq!(w.len(), expected.len() as u64);
            let written = w.flush_padded().unwrap();
            assert_eq!(written, expected.len() as u64, "round {round}");
            // The next writes start at a block.
            expected.resize(expected.len().next_multiple_of(BLOCK), 0);
            let mut buffer = Aligned::default();
            for _ in 0..100 {
                let a = next() % expected.len() as u64;
                let b = a + next() % (expected.len() as u64 - a + 1);
                let got = w.read_at(a, b, &mut buffer).unwrap();
                assert_eq!(got, &expected[a as usize..b as usize]);
            }
        }
        let tail = b"the end";
        w.write_all(tail).unwrap();
        expected.extend_from_slice(tail);
        let file = w.finish().unwrap();
        let mut got = Vec::new();
        std::io::Read::read_to_end(&mut &file, &mut got).unwrap();
        assert_eq!(got, expected);
    }
}
