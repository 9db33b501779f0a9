//! Where games come from: files are memory-mapped; standard input and
//! compressed files (`.zst`, `.gz`, `.bz2`, recognised by their magic bytes)
//! are streamed. Either way the bytes are cut into chunks at game boundaries
//! ([`pgnkit_pgn::game_starts_near`]), so that chunks can be replayed in
//! parallel and give exactly the games of the whole.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::Range;
use std::sync::Arc;

use anyhow::{Context, bail};
use memmap2::Mmap;

/// Bytes of one chunk (a little more: chunks end at a game start).
pub const CHUNK_SIZE: usize = 2 << 20;

/// One input: a file or standard input.
pub struct Input {
    /// The name diagnostics use (`-` is shown as `<stdin>`).
    pub name: String,
    /// Total size in bytes when known (for the progress bar).
    pub len: Option<u64>,
    source: Source,
}

enum Source {
    Mapped(Arc<Mmap>),
    Empty,
    Stream(Box<dyn Read + Send>),
}

/// What compression, if any, a file starts with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`28 b5 2f fd`).
    Zstd,
    /// gzip (`1f 8b`).
    Gzip,
    /// bzip2 (`BZh`).
    Bzip2,
}

impl Compression {
    /// Recognises compression by the first bytes of the data.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
        {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }
}

fn decompress<R: BufRead + Send + 'static>(mut reader: R) -> io::Result<Box<dyn Read + Send>> {
    let head = reader.fill_buf()?;
    Ok(match Compression::sniff(head) {
        Compression::None => Box::new(reader),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(reader)?),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
    })
}

impl Input {
    /// Opens `path` (`-` is standard input).
    pub fn open(path: &str) -> anyhow::Result<Input> {
        if path == "-" {
            let stdin = BufReader::with_capacity(1 << 16, io::stdin());
            return Ok(Input {
                name: "<stdin>".to_owned(),
                len: None,
                source: Source::Stream(decompress(stdin).context("cannot read standard input")?),
            });
        }
        let meta = std::fs::metadata(path).with_context(|| format!("cannot read `{path}`"))?;
        if meta.is_dir() {
            bail!("cannot read `{path}`: it is a directory");
        }
        let file = File::open(path).with_context(|| format!("cannot read `{path}`"))?;
        let name = path.to_owned();
        if meta.len() == 0 {
            return Ok(Input {
                name,
                len: Some(0),
                source: Source::Empty,
            });
        }
        if !meta.is_file() {
            // A pipe or a device: stream it.
            let reader = BufReader::with_capacity(1 << 16, file);
            return Ok(Input {
                name,
                len: None,
                source: Source::Stream(decompress(reader)?),
            });
        }
        // SAFETY: the map is read-only and private to this process. If another
        // process truncates the file while we read it, the OS may raise SIGBUS;
        // that is the documented risk every mmap-based reader (ripgrep included)
        // accepts for the speed.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.with_context(|| format!("cannot map `{path}`"))?;
        let _ = map.advise(memmap2::Advice::Sequential);
        if Compression::sniff(&map[..map.len().min(8)]) != Compression::None {
            drop(map);
            let reader = BufReader::with_capacity(1 << 20, file);
            return Ok(Input {
                name,
                len: Some(meta.len()),
                source: Source::Stream(decompress(reader)?),
            });
        }
        Ok(Input {
            name,
            len: Some(meta.len()),
            source: Source::Mapped(Arc::new(map)),
        })
    }

    /// The chunks of this input, in order.
    pub fn chunks(self, chunk_size: usize) -> Chunks {
        match self.source {
            Source::Mapped(map) => Chunks::Mapped {
                map,
                next: 0,
                chunk_size,
            },
            Source::Empty => Chunks::Done,
            Source::Stream(reader) => Chunks::Stream(StreamChunks {
                reader,
                buf: Vec::new(),
                base: 0,
                eof: false,
                chunk_size,
            }),
        }
    }
}

/// Bytes a chunk's ranges index into.
#[derive(Clone)]
pub enum Data {
    /// The whole memory-mapped file.
    Mapped(Arc<Mmap>),
    /// A buffer read from a stream.
    Owned(Arc<Vec<u8>>),
}

impl std::ops::Deref for Data {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

/// A piece of an input that starts at a game start and ends before one.
pub struct Chunk {
    /// The bytes (`range` is the chunk's part of them).
    pub data: Data,
    /// The chunk's range in `data`.
    pub range: Range<usize>,
    /// Offset of `data[0]` in the (decompressed) input: add it to spans.
    pub base: usize,
}

impl Chunk {
    /// The chunk's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data[self.range.clone()]
    }

    /// Tells the OS that the chunk's pages of a mapped file are no longer
    /// needed, so that resident memory stays bounded on huge files.
    pub fn release(&self) {
        if let Data::Mapped(map) = &self.data {
            const PAGE: usize = 4096;
            let start = self.range.start / PAGE * PAGE;
            let len = self.range.end.saturating_sub(start);
            if len > 0 {
                // SAFETY: the map is read-only and file-backed: dropping its
                // pages only makes the next access read them again from the
                // page cache; no data can be lost or changed.
                #[allow(unsafe_code)]
                let _ = unsafe {
                    map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, len)
                };
            }
        }
    }
}

/// The chunks of one input.
pub enum Chunks {
    /// Cutting a mapped file.
    Mapped {
        /// The file.
        map: Arc<Mmap>,
        /// Where the next chunk starts.
        next: usize,
        /// About how large a chunk is.
        chunk_size: usize,
    },
    /// Reading a stream.
    Stream(StreamChunks),
    /// Nothing (left).
    Done,
}

/// Chunks read from a stream, with bounded memory.
pub struct StreamChunks {
    reader: Box<dyn Read + Send>,
    buf: Vec<u8>,
    base: usize,
    eof: bool,
    chunk_size: usize,
}

impl Iterator for Chunks {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        match self {
            Chunks::Done => None,
            Chunks::Mapped {
                map,
                next,
                chunk_size,
            } => {
                let len = map.len();
                if *next >= len {
                    return None;
                }
                let start = *next;
                let end = pgnkit_pgn::game_starts_near(map, start + *chunk_size)
                    .filter(|&e| e > start)
                    .unwrap_or(len);
                *next = end;
                Some(Ok(Chunk {
                    data: Data::Mapped(map.clone()),
                    range: start..end,
                    base: 0,
                }))
            }
            Chunks::Stream(s) => s.next_chunk().transpose(),
        }
    }
}

impl StreamChunks {
    fn fill(&mut self, want: usize) -> io::Result<()> {
        let mut tmp = [0u8; 1 << 16];
        while self.buf.len() < want && !self.eof {
            match self.reader.read(&mut tmp) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&tmp[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut want = self.chunk_size;
        loop {
            self.fill(want)?;
            if self.buf.is_empty() {
                return Ok(None);
            }
            let cut = if self.eof {
                Some(self.buf.len())
            } else {
                pgnkit_pgn::game_starts_near(&self.buf, self.buf.len() / 2).filter(|&c| c > 0)
            };
            match cut {
                Some(cut) => {
                    let rest = self.buf.split_off(cut);
                    let data = std::mem::replace(&mut self.buf, rest);
                    let base = self.base;
                    self.base += data.len();
                    let len = data.len();
                    return Ok(Some(Chunk {
                        data: Data::Owned(Arc::new(data)),
                        range: 0..len,
                        base,
                    }));
                }
                // One game longer than the buffer: read more.
                None => want = self.buf.len() * 2,
            }
        }
    }
}
