//! `pgnkit-source`: where games come from: files are memory-mapped; standard input and
//! compressed files (`.zst`, `.gz`, `.bz2`, recognised by their magic bytes)
//! are streamed. Either way the bytes are cut into chunks at game boundaries
//! ([`pgnkit_pgn::game_starts_near`]), so that chunks can be replayed in
//! parallel and give exactly the games of the whole.
//!
//! The paths of a command line are turned into inputs by [`walk::Walk`]:
//! a directory stands for the PGN files under it (`.gitignore` and
//! `.ignore` honoured, as ripgrep honours them).
//!
//! A mapped file can be cut to one shard (`--shard K/N`, see
//! [`pgnkit_pgn::shard`]); its [`Origin`] then tells how many games and lines
//! come before, so that game and line numbers stay file-global.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::Range;
use std::sync::Arc;

use pgnkit_atomic::{Identity, Mapped};
use pgnkit_pgn::shard::{Origin, Shard};

pub mod walk;

/// Why an input cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Standard input could not be read.
    #[error("cannot read standard input")]
    Stdin(#[source] io::Error),
    /// The file could not be opened or read.
    #[error("cannot read `{path}`")]
    Read {
        /// The path given.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The path is a directory ([`Input::open`] opens files; [`walk::Walk`]
    /// finds the files of a directory).
    #[error("cannot read `{0}`: it is a directory")]
    Directory(String),
    /// A directory had no file to read ([`walk`]).
    #[error(
        "no PGN file in `{dir}`: none of its files is named {globs} (files that .gitignore or \
         .ignore exclude and hidden ones are skipped; --glob GLOB chooses other names)"
    )]
    NoPgnFiles {
        /// The directory as given.
        dir: String,
        /// The globs looked for, separated by spaces.
        globs: String,
    },
    /// A directory (or an ignore file in it) could not be read while walking.
    #[error("cannot read `{path}` (walking its directory)")]
    Walk {
        /// The directory or file the error is about.
        path: String,
        /// Why.
        #[source]
        source: Box<ignore::Error>,
    },
    /// A `--glob` that does not parse.
    #[error("`{glob}` is no glob: {reason}")]
    Glob {
        /// The glob given.
        glob: String,
        /// Why.
        reason: String,
    },
    /// The file could not be memory-mapped.
    #[error("cannot map `{path}`")]
    Map {
        /// The path given.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The input is binary data, not text (the message says what it is).
    #[error("{0}")]
    NotPgn(String),
    /// `--shard` was asked of a stream, which cannot be cut.
    #[error("--shard {shard} cannot cut `{name}`: {}", shard_refusal(*.compression))]
    ShardOfStream {
        /// The shard asked for.
        shard: Shard,
        /// The input's name.
        name: String,
        /// Its compression.
        compression: Compression,
    },
}

impl Error {
    /// The path the error is about, when it is about one (not standard
    /// input, a shard of a stream or a glob).
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Read { path, .. } | Error::Map { path, .. } | Error::Walk { path, .. } => {
                Some(path)
            }
            Error::Directory(path) | Error::NoPgnFiles { dir: path, .. } => Some(path),
            Error::Stdin(_)
            | Error::NotPgn(_)
            | Error::ShardOfStream { .. }
            | Error::Glob { .. } => None,
        }
    }
}

/// Why a stream cannot be cut to a shard.
fn shard_refusal(compression: Compression) -> String {
    if compression == Compression::None {
        "it is a stream (standard input or a pipe) whose size is unknown; give a regular file"
            .to_owned()
    } else {
        format!(
            "it is {}-compressed, and a compressed stream can only be read from its start; \
             decompress it first, or give each machine whole files",
            compression.name()
        )
    }
}

/// Bytes of one chunk (a little more: chunks end at a game start).
pub const CHUNK_SIZE: usize = 2 << 20;

/// Chunks a stream is read ahead of the workers.
const READ_AHEAD: usize = 8;

/// One input: a file or standard input.
pub struct Input {
    /// The name diagnostics use (`-` is shown as `<stdin>`).
    pub name: String,
    /// Total size in bytes when known (for the progress bar); for a shard,
    /// the shard's size.
    pub len: Option<u64>,
    /// The compression recognised by the magic bytes.
    pub compression: Compression,
    /// Games and line breaks before the first byte read (not zero for a
    /// shard or with `--game-offset`): add them to game and line numbers.
    pub origin: Origin,
    /// The shard this input was cut to, if any.
    pub shard: Option<Shard>,
    /// The regular file as it was read (its size the bytes mapped): what
    /// tells, before it is rewritten in place, whether it changed since.
    pub identity: Option<Identity>,
    source: Source,
}

enum Source {
    /// A mapped file and the range of it to read.
    Mapped(Arc<Mapped>, Range<usize>),
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
    /// The format's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }

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

/// How much of the start of an input is looked at to tell text from binary data.
const SNIFF_LEN: usize = 64 << 10;

/// Where `head` (the first bytes of an input, decompressed) shows binary data, if it does: the way
/// git and ripgrep tell, by control bytes, with a threshold that a PGN file with a few stray NUL or
/// control bytes in its games still passes (they are reported where they stand). Text in UTF-16
/// (every other byte NUL) is binary to a PGN reader too.
///
/// Returns the offset of the first control byte, when more than 8 of them and more than 1 in 100
/// bytes of `head` are control bytes (C0 controls other than tab, line feed, vertical tab, form feed,
/// carriage return and escape; and DEL).
pub fn binary_at(head: &[u8]) -> Option<usize> {
    let head = &head[..head.len().min(SNIFF_LEN)];
    let is_control = |b: u8| matches!(b, 0..=8 | 0x0E..=0x1A | 0x1C..=0x1F | 0x7F);
    let (mut first, mut controls) = (None, 0usize);
    let mut count = |at: usize, bytes: &[u8]| {
        for (i, &b) in bytes.iter().enumerate() {
            if is_control(b) {
                first.get_or_insert(at + i);
                controls += 1;
            }
        }
    };
    // Eight bytes at a time: only a word with a byte below a space or a
    // DEL (a line break, most often) is looked at byte by byte.
    let mut words = head.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        if may_hold_control(x) {
            count(at, word);
        }
        at += 8;
    }
    count(at, words.remainder());
    let first = first?;
    (controls > 8 && controls * 100 > head.len()).then_some(first)
}

/// Whether one of the eight bytes of `x` may be a control byte of
/// [`binary_at`]: a byte below 0x20 or a DEL is there (never a false "no").
#[inline]
fn may_hold_control(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = ONES * 0x80;
    let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
    let del = x ^ (ONES * 0x7F);
    let is_del = del.wrapping_sub(ONES) & !del & HIGHS;
    below_space | is_del != 0
}

/// The error for an input that is not text (see [`binary_at`]).
pub fn not_pgn(name: &str, head: &[u8], at: usize) -> String {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        format!(
            "`{name}` is not a PGN file: it is UTF-16 text (binary data at byte {at}); \
             convert it to UTF-8 first, e.g. `iconv -f UTF-16 -t UTF-8`"
        )
    } else {
        format!("`{name}` is not a PGN file: binary data at byte {at}")
    }
}

type Decoded = (Box<dyn Read + Send>, Compression);

fn decompress<R: BufRead + Send + 'static>(mut reader: R) -> io::Result<Decoded> {
    let head = reader.fill_buf()?;
    if head.is_empty() {
        // The end already: read no more (a terminal gives its end, Ctrl-D,
        // once; reading on would wait for another).
        return Ok((Box::new(io::empty()), Compression::None));
    }
    let compression = Compression::sniff(head);
    let decoded: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(reader),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(reader)?),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
    };
    Ok((decoded, compression))
}

impl Input {
    /// Opens `path` as the shared input flags say: `--shard K/N` cuts it to
    /// one shard (refused for standard input and compressed files) and
    /// `--game-offset N` is added to its game numbers. Every command that
    /// reads games should open its inputs this way.
    ///
    /// `jobs` is how many threads may count what comes before a shard
    /// (none or 0: all cores).
    ///
    /// # Errors
    /// Those of [`Input::open`] and [`Input::into_shard`].
    pub fn open_with(
        path: &str,
        shard: Option<Shard>,
        jobs: Option<usize>,
        game_offset: u64,
    ) -> Result<Input, Error> {
        let mut input = Input::open(path)?;
        if let Some(shard) = shard {
            let threads = jobs
                .filter(|&j| j > 0)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            input = input.into_shard(shard, threads)?;
        }
        input.origin.games = input.origin.games.saturating_add(game_offset);
        Ok(input)
    }

    /// Cuts a mapped file to shard `shard` (see [`pgnkit_pgn::shard`]) and counts
    /// what comes before it with up to `threads` threads. Streams
    /// (standard input, pipes, compressed files) cannot be cut: their size
    /// is not known before they are read.
    ///
    /// # Errors
    /// [`Error::ShardOfStream`] for a stream.
    pub fn into_shard(mut self, shard: Shard, threads: usize) -> Result<Input, Error> {
        match &self.source {
            Source::Empty => {}
            Source::Mapped(map, range) => {
                let data = &map[range.clone()];
                let cut = shard.range(data);
                self.origin = Origin::of_prefix(data, cut.start, threads);
                self.len = Some(cut.len() as u64);
                let cut = range.start + cut.start..range.start + cut.end;
                self.source = Source::Mapped(map.clone(), cut);
            }
            Source::Stream(_) => {
                return Err(Error::ShardOfStream {
                    shard,
                    name: self.name,
                    compression: self.compression,
                });
            }
        }
        self.shard = Some(shard);
        Ok(self)
    }

    /// A streamed input (standard input, a pipe, a compressed file, or any
    /// reader): decompressed as its first bytes say ([`Compression::sniff`]),
    /// then cut into chunks as it is read. `name` is what diagnostics call
    /// it, `len` its size when known (for the progress bar).
    pub fn stream<R: BufRead + Send + 'static>(
        name: String,
        len: Option<u64>,
        reader: R,
    ) -> io::Result<Input> {
        let (reader, compression) = decompress(reader)?;
        Ok(Input {
            name,
            len,
            compression,
            origin: Origin::default(),
            shard: None,
            identity: None,
            source: Source::Stream(reader),
        })
    }

    /// Opens `path` (`-` is standard input).
    ///
    /// # Errors
    /// When the file cannot be read or mapped, is a directory, or is not
    /// text ([`binary_at`]).
    pub fn open(path: &str) -> Result<Input, Error> {
        let read = |source| Error::Read {
            path: path.to_owned(),
            source,
        };
        if path == "-" {
            let stdin = BufReader::with_capacity(1 << 16, io::stdin());
            return Input::stream("<stdin>".to_owned(), None, stdin).map_err(Error::Stdin);
        }
        let meta = std::fs::metadata(path).map_err(read)?;
        if meta.is_dir() {
            return Err(Error::Directory(path.to_owned()));
        }
        let file = File::open(path).map_err(read)?;
        let name = path.to_owned();
        let identity = Identity::of_file(&file).map_err(read)?;
        if identity.size == 0 {
            return Ok(Input {
                name,
                len: Some(0),
                compression: Compression::None,
                origin: Origin::default(),
                shard: None,
                identity: meta.is_file().then_some(identity),
                source: Source::Empty,
            });
        }
        if !meta.is_file() {
            // A pipe or a device: stream it.
            let reader = BufReader::with_capacity(1 << 16, file);
            return Input::stream(name, None, reader).map_err(read);
        }
        // A file truncated by another program while it is mapped is reported
        // by name (exit status 2), not a SIGBUS crash: see `Mapped`.
        let map = Mapped::new(&file, path).map_err(|source| Error::Map {
            path: path.to_owned(),
            source,
        })?;
        let _ = map.map().advise(memmap2::Advice::Sequential);
        if Compression::sniff(&map[..map.len().min(8)]) != Compression::None {
            drop(map);
            let reader = BufReader::with_capacity(1 << 20, file);
            let mut input = Input::stream(name, Some(meta.len()), reader).map_err(read)?;
            input.identity = Some(identity);
            return Ok(input);
        }
        let len = map.len();
        if let Some(at) = binary_at(&map) {
            return Err(Error::NotPgn(not_pgn(path, &map, at)));
        }
        Ok(Input {
            name,
            len: Some(len as u64),
            compression: Compression::None,
            origin: Origin::default(),
            shard: None,
            identity: Some(identity.with_size(len as u64)),
            source: Source::Mapped(Arc::new(map), 0..len),
        })
    }

    /// The chunks of this input, in order.
    pub fn chunks(self, chunk_size: usize) -> Chunks {
        match self.source {
            Source::Mapped(map, range) => Chunks::Mapped {
                map,
                next: range.start,
                end: range.end,
                chunk_size,
            },
            Source::Empty => Chunks::Done,
            Source::Stream(reader) => {
                let mut stream = StreamChunks {
                    reader,
                    buf: Vec::new(),
                    base: 0,
                    eof: false,
                    failed: None,
                    name: self.name,
                    compression: self.compression,
                    chunk_size,
                };
                // Read (and decompress) on a thread of its own, a few chunks
                // ahead, while the workers replay the chunks before.
                let (tx, rx) = std::sync::mpsc::sync_channel(READ_AHEAD);
                let spawned = std::thread::Builder::new()
                    .name("pgnkit-read".to_owned())
                    .spawn(move || {
                        while let Some(next) = stream.next_chunk().transpose() {
                            let failed = next.is_err();
                            // A closed channel: the consumer stopped early.
                            if tx.send(next).is_err() || failed {
                                return;
                            }
                        }
                    });
                match spawned {
                    Ok(_) => Chunks::Stream(rx),
                    Err(e) => Chunks::Failed(Some(e)),
                }
            }
        }
    }
}

/// Bytes a chunk's ranges index into.
#[derive(Clone)]
pub enum Data {
    /// The whole memory-mapped file.
    Mapped(Arc<Mapped>),
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
                    map.map()
                        .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, len)
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
        map: Arc<Mapped>,
        /// Where the next chunk starts.
        next: usize,
        /// Where the last chunk ends (the end of the file or of the shard).
        end: usize,
        /// About how large a chunk is.
        chunk_size: usize,
    },
    /// Chunks of a stream, read ahead on a thread of their own.
    Stream(std::sync::mpsc::Receiver<io::Result<Chunk>>),
    /// The reading thread could not be started.
    Failed(Option<io::Error>),
    /// Nothing (left).
    Done,
}

/// Chunks read from a stream, with bounded memory.
struct StreamChunks {
    reader: Box<dyn Read + Send>,
    buf: Vec<u8>,
    base: usize,
    eof: bool,
    /// A read error, reported once the bytes read before it are chunked.
    failed: Option<io::Error>,
    name: String,
    compression: Compression,
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
                end: len,
                chunk_size,
            } => {
                let len = (*len).min(map.len());
                if *next >= len {
                    return None;
                }
                let start = *next;
                let end = pgnkit_pgn::game_starts_near(&map[..len], start + *chunk_size)
                    .filter(|&e| e > start)
                    .unwrap_or(len);
                *next = end;
                Some(Ok(Chunk {
                    data: Data::Mapped(map.clone()),
                    range: start..end,
                    base: 0,
                }))
            }
            Chunks::Stream(rx) => rx.recv().ok(),
            Chunks::Failed(e) => e.take().map(Err),
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
                Err(e) => {
                    // Hand out what was read before the error first, then the error.
                    self.eof = true;
                    let read = self.base + self.buf.len();
                    let what = match self.compression {
                        Compression::None => format!("cannot read `{}`", self.name),
                        c => format!(
                            "cannot decompress `{}` ({}): the data ends early or is corrupt \
                             after {read} decompressed bytes (the games in those were checked)",
                            self.name,
                            c.name()
                        ),
                    };
                    self.failed = Some(io::Error::new(e.kind(), format!("{what}: {e}")));
                }
            }
        }
        Ok(())
    }

    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut want = self.chunk_size;
        loop {
            self.fill(want)?;
            if self.buf.is_empty() {
                return match self.failed.take() {
                    Some(e) => Err(e),
                    None => Ok(None),
                };
            }
            let cut = if self.eof {
                Some(self.buf.len())
            } else {
                pgnkit_pgn::game_starts_near(&self.buf, self.buf.len() / 2).filter(|&c| c > 0)
            };
            if self.base == 0
                && (self.buf.len() >= SNIFF_LEN || self.eof)
                && let Some(at) = binary_at(&self.buf)
            {
                let message = not_pgn(&self.name, &self.buf, at);
                self.buf.clear();
                self.failed = None;
                return Err(io::Error::new(io::ErrorKind::InvalidData, message));
            }
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
