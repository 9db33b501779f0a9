//! Building an index: games are gathered in [`Batch`]es (one per chunk of
//! the PGN file, built in parallel), added in file order to a [`Builder`],
//! which writes the file to a temporary file beside its final name and
//! renames it into place, so that a crash never leaves a broken index.

use std::collections::HashMap;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use rayon::prelude::*;

use crate::fingerprint::Fingerprint;
use crate::layout::{self, GAME_SIZE, HEADER_SIZE, MAGIC, POSITION_SIZE, VERSION, crc, header};
use crate::record::{GameFacts, status_code};
use crate::tags::Eco;

/// FxHash (rustc's hasher): strings from a PGN file need no protection
/// against flooding, and interning them is on the hot path.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0xf135_7aea_2e62_a9c5);
    }
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// A game record waiting for its string ids to become global.
#[derive(Clone, Debug)]
struct Pending {
    record: [u8; GAME_SIZE],
    texts: [u32; 6],
}

/// The games of one chunk of the PGN file, with chunk-local string ids and
/// game numbers.
#[derive(Debug, Default)]
pub struct Batch {
    strings: Vec<Box<str>>,
    lookup: FastMap<Box<str>, u32>,
    games: Vec<Pending>,
    /// (key, local game number).
    positions: Vec<(u64, u32)>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Number of games in the batch.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn intern(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return u32::MAX;
        }
        if let Some(&id) = self.lookup.get(s) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(s.into());
        self.lookup.insert(s.into(), id);
        id
    }

    /// Adds a game: its facts, and the keys of its main-line positions
    /// (the start position included; repeats are stored once in the index).
    pub fn push(&mut self, facts: &GameFacts<'_>, keys: &[u64]) {
        let game = self.games.len() as u32;
        let mut texts = [u32::MAX; 6];
        for (slot, t) in texts.iter_mut().zip(facts.texts.iter()) {
            *slot = self.intern(t);
        }
        let mut r = [0u8; GAME_SIZE];
        use layout::game as g;
        r[g::OFFSET..g::OFFSET + 8].copy_from_slice(&facts.offset.to_le_bytes());
        r[g::LENGTH..g::LENGTH + 4].copy_from_slice(&facts.length.to_le_bytes());
        r[g::PLIES..g::PLIES + 4].copy_from_slice(&facts.plies.to_le_bytes());
        r[g::DATE..g::DATE + 4].copy_from_slice(&facts.date.0.to_le_bytes());
        r[g::WHITE_ELO..g::WHITE_ELO + 2].copy_from_slice(&facts.white_elo.to_le_bytes());
        r[g::BLACK_ELO..g::BLACK_ELO + 2].copy_from_slice(&facts.black_elo.to_le_bytes());
        let eco = facts.eco.map_or(Eco::NONE, |e| e.0);
        r[g::ECO..g::ECO + 2].copy_from_slice(&eco.to_le_bytes());
        r[g::RESULT] = facts.outcome as u8;
        r[g::STATUS] = status_code(facts.status);
        let errors = u16::try_from(facts.errors).unwrap_or(u16::MAX);
        r[g::ERRORS..g::ERRORS + 2].copy_from_slice(&errors.to_le_bytes());
        self.games.push(Pending { record: r, texts });

        // Repeats within a game are dropped when the sorted table is written.
        self.positions.extend(keys.iter().map(|&k| (k, game)));
    }
}

/// A position entry while building: the key and the global game number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    hi: u32,
    lo: u32,
    game: u32,
}

impl Entry {
    fn key(&self) -> u64 {
        (u64::from(self.hi) << 32) | u64::from(self.lo)
    }
}

/// Why an index cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// More games than the format numbers (2^32 - 1).
    #[error("too many games for one index (the format numbers at most 4294967295)")]
    TooManyGames,
    /// Writing failed.
    #[error("cannot write the index: {0}")]
    Io(#[from] io::Error),
}

/// What was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games indexed.
    pub games: u64,
    /// Distinct strings in the name table.
    pub strings: u64,
    /// (position, game) pairs in the position table.
    pub positions: u64,
    /// Bytes of the index file.
    pub bytes: u64,
}

/// One partition's entries, sorted, without repeats, encoded.
struct Encoded {
    bytes: Vec<u8>,
    /// (bucket, end of its entries in `bytes`) for each bucket with entries.
    segments: Vec<(usize, usize)>,
}

/// Sorts the entries of partition `p` (keys whose top 8 bits are `p`) by
/// (key, game), drops repeats and encodes them.
///
/// The sort is a counting sort by the key bits below the partition's 8
/// (stable: entries arrive in game order), then a stable sort by the whole
/// key of each group of the counting sort (a few entries each, but all the
/// games of a common position).
fn encode(entries: Vec<Entry>, bits: u32) -> Encoded {
    let mut out = Encoded {
        bytes: Vec::with_capacity(entries.len() * POSITION_SIZE),
        segments: Vec::new(),
    };
    let group_bits = (usize::BITS - entries.len().leading_zeros()).clamp(1, 20);
    let shift = 56 - group_bits;
    let mask = (1usize << group_bits) - 1;
    let group = |e: &Entry| (e.key() >> shift) as usize & mask;
    let mut next = vec![0usize; mask + 1];
    for e in &entries {
        next[group(e)] += 1;
    }
    let mut sum = 0;
    for n in &mut next {
        let c = *n;
        *n = sum;
        sum += c;
    }
    let mut sorted = vec![
        Entry {
            hi: 0,
            lo: 0,
            game: 0
        };
        entries.len()
    ];
    for e in &entries {
        let g = group(e);
        sorted[next[g]] = *e;
        next[g] += 1;
    }
    drop(entries);
    // `next[g]` is now the end of group g.
    let mut start = 0;
    for &end in &next {
        if end - start > 1 {
            sorted[start..end].sort_by_key(Entry::key);
        }
        start = end;
    }
    let mut previous = None;
    let mut current = None;
    for e in &sorted {
        if previous == Some(e) {
            continue;
        }
        previous = Some(e);
        let b = layout::bucket(e.key(), bits);
        if current != Some(b) {
            if let Some(c) = current {
                out.segments.push((c, out.bytes.len()));
            }
            current = Some(b);
        }
        out.bytes
            .extend_from_slice(&layout::key_bits(e.key(), bits).to_le_bytes());
        out.bytes.extend_from_slice(&e.game.to_le_bytes());
    }
    if let Some(c) = current {
        out.segments.push((c, out.bytes.len()));
    }
    out
}

/// Gathers batches in file order and writes the index.
pub struct Builder {
    lookup: FastMap<Box<str>, u32>,
    string_offsets: Vec<u64>,
    string_data: Vec<u8>,
    games: Vec<u8>,
    game_count: u64,
    /// Position entries partitioned by the top 8 bits of their key.
    parts: Vec<Vec<Entry>>,
    /// Position entries so far (repeats within a game included).
    positions: u64,
    remap: Vec<u32>,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// An empty index (string 0 is the empty string).
    pub fn new() -> Builder {
        Builder {
            lookup: FastMap::default(),
            string_offsets: vec![0, 0],
            string_data: Vec::new(),
            games: Vec::new(),
            game_count: 0,
            parts: (0..256).map(|_| Vec::new()).collect(),
            positions: 0,
            remap: Vec::new(),
        }
    }

    /// Makes room for about `n` position entries in all (a hint: saves
    /// the copies of growing tables; memory is only used as it fills).
    pub fn reserve_positions(&mut self, n: u64) {
        let per = usize::try_from(n / 256).unwrap_or(usize::MAX);
        for p in &mut self.parts {
            p.reserve(per.saturating_sub(p.len()));
        }
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.game_count
    }

    /// Adds the next batch (batches must come in file order).
    pub fn add(&mut self, batch: Batch) -> Result<(), BuildError> {
        let first = self.game_count;
        if first + batch.games.len() as u64 > u64::from(u32::MAX) {
            return Err(BuildError::TooManyGames);
        }
        self.remap.clear();
        for s in batch.strings {
            let id = match self.lookup.get(&s) {
                Some(&id) => id,
                None => {
                    let id = (self.string_offsets.len() - 1) as u32;
                    self.string_data.extend_from_slice(s.as_bytes());
                    self.string_offsets.push(self.string_data.len() as u64);
                    self.lookup.insert(s, id);
                    id
                }
            };
            self.remap.push(id);
        }
        self.games.reserve(batch.games.len() * GAME_SIZE);
        for mut p in batch.games {
            for (i, local) in p.texts.iter().enumerate() {
                let id = if *local == u32::MAX {
                    0
                } else {
                    self.remap.get(*local as usize).copied().unwrap_or(0)
                };
                let at = layout::game::TEXTS + 4 * i;
                p.record[at..at + 4].copy_from_slice(&id.to_le_bytes());
            }
            self.games.extend_from_slice(&p.record);
        }
        self.game_count = (self.games.len() / GAME_SIZE) as u64;
        self.positions += batch.positions.len() as u64;
        for (key, local) in batch.positions {
            let game = (first + u64::from(local)) as u32;
            self.parts[(key >> 56) as usize].push(Entry {
                hi: (key >> 32) as u32,
                lo: key as u32,
                game,
            });
        }
        Ok(())
    }

    /// Writes the index for a PGN file with fingerprint `pgn` to `path`,
    /// through a temporary file in the same directory that is renamed into
    /// place once complete and synced.
    pub fn write(mut self, path: &Path, pgn: &Fingerprint) -> Result<Summary, BuildError> {
        let mut summary = None;
        write_atomically(path, |file| {
            summary = Some(self.write_to(file, pgn)?);
            Ok(())
        })?;
        summary.ok_or_else(|| BuildError::Io(io::Error::other("nothing written")))
    }

    fn write_to(&mut self, file: &mut std::fs::File, pgn: &Fingerprint) -> io::Result<Summary> {
        let mut out = BufWriter::with_capacity(1 << 20, &mut *file);
        let mut at = 0u64;
        let put = |out: &mut BufWriter<_>, bytes: &[u8], at: &mut u64| -> io::Result<()> {
            out.write_all(bytes)?;
            *at += bytes.len() as u64;
            Ok(())
        };
        let pad = |out: &mut BufWriter<_>, at: &mut u64| -> io::Result<()> {
            let n = (8 - (*at % 8) as usize) % 8;
            out.write_all(&[0u8; 8][..n])?;
            *at += n as u64;
            Ok(())
        };
        put(&mut out, &[0u8; HEADER_SIZE], &mut at)?;

        let games_at = at;
        put(&mut out, &self.games, &mut at)?;
        let games_crc = crc(&self.games);

        let strings_at = at;
        let mut strings_crc = crc32fast::Hasher::new();
        let mut offsets = Vec::with_capacity(self.string_offsets.len() * 8);
        for o in &self.string_offsets {
            offsets.extend_from_slice(&o.to_le_bytes());
        }
        strings_crc.update(&offsets);
        put(&mut out, &offsets, &mut at)?;
        let data_at = at;
        strings_crc.update(&self.string_data);
        put(&mut out, &self.string_data, &mut at)?;
        pad(&mut out, &mut at)?;

        let bits = layout::bucket_bits(self.positions);
        let buckets = 1usize << bits;
        let positions_at = at;
        let mut dir = vec![0u64; buckets + 1];
        let mut bucket_crcs = vec![0u32; buckets];
        let mut hasher = crc32fast::Hasher::new();
        let mut current = 0usize;
        let mut index = 0u64;
        // Partitions are sorted and encoded in parallel, a group at a time
        // (memory stays bounded), and written in order.
        let mut parts = std::mem::take(&mut self.parts);
        while !parts.is_empty() {
            let rest = parts.split_off(parts.len().min(16));
            let encoded: Vec<Encoded> = parts
                .into_par_iter()
                .map(|entries| encode(entries, bits))
                .collect();
            parts = rest;
            for e in encoded {
                let mut from = 0usize;
                for &(b, end) in &e.segments {
                    if b != current {
                        bucket_crcs[current] = std::mem::take(&mut hasher).finalize();
                        for d in &mut dir[current + 1..=b] {
                            *d = index;
                        }
                        current = b;
                    }
                    hasher.update(&e.bytes[from..end]);
                    index += ((end - from) / POSITION_SIZE) as u64;
                    from = end;
                }
                put(&mut out, &e.bytes, &mut at)?;
            }
        }
        bucket_crcs[current] = hasher.finalize();
        for d in &mut dir[current + 1..] {
            *d = index;
        }

        let directory_at = at;
        let mut directory = Vec::with_capacity(dir.len() * 8 + bucket_crcs.len() * 4);
        for d in &dir {
            directory.extend_from_slice(&d.to_le_bytes());
        }
        for c in &bucket_crcs {
            directory.extend_from_slice(&c.to_le_bytes());
        }
        let directory_crc = crc(&directory);
        put(&mut out, &directory, &mut at)?;
        pad(&mut out, &mut at)?;
        let size = at;

        let mut h = [0u8; HEADER_SIZE];
        let mut set = |at: usize, bytes: &[u8]| h[at..at + bytes.len()].copy_from_slice(bytes);
        set(0, &MAGIC);
        set(header::VERSION, &VERSION.to_le_bytes());
        set(header::HEADER_SIZE, &(HEADER_SIZE as u32).to_le_bytes());
        set(header::PGN_SIZE, &pgn.size.to_le_bytes());
        set(header::PGN_MTIME_SECS, &pgn.mtime_secs.to_le_bytes());
        set(header::PGN_MTIME_NANOS, &pgn.mtime_nanos.to_le_bytes());
        set(header::PGN_HEAD_CRC, &pgn.head_crc.to_le_bytes());
        set(header::PGN_TAIL_CRC, &pgn.tail_crc.to_le_bytes());
        set(header::BUCKET_BITS, &bits.to_le_bytes());
        set(header::GAMES, &self.game_count.to_le_bytes());
        let strings = (self.string_offsets.len() - 1) as u64;
        set(header::STRINGS, &strings.to_le_bytes());
        set(header::POSITIONS, &index.to_le_bytes());
        set(header::FILE_SIZE, &size.to_le_bytes());
        set(header::GAMES_AT, &games_at.to_le_bytes());
        set(header::STRINGS_AT, &strings_at.to_le_bytes());
        set(header::STRING_DATA_AT, &data_at.to_le_bytes());
        set(header::POSITIONS_AT, &positions_at.to_le_bytes());
        set(header::DIRECTORY_AT, &directory_at.to_le_bytes());
        set(header::GAMES_CRC, &games_crc.to_le_bytes());
        set(header::STRINGS_CRC, &strings_crc.finalize().to_le_bytes());
        set(header::DIRECTORY_CRC, &directory_crc.to_le_bytes());
        let header_crc = crc(&h[..header::HEADER_CRC]);
        h[header::HEADER_CRC..header::HEADER_CRC + 4].copy_from_slice(&header_crc.to_le_bytes());

        out.flush()?;
        drop(out);
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&h)?;
        Ok(Summary {
            games: self.game_count,
            strings,
            positions: index,
            bytes: size,
        })
    }
}

/// Writes `path` through `write`, atomically: the bytes go to a new
/// temporary file in the same directory (`.NAME.PID.N.tmp`, created like any
/// new file, so with the usual permissions), which is synced and renamed to
/// `path` only when `write` succeeds. On any error the temporary file is
/// removed and `path` is left as it was.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut std::fs::File) -> io::Result<()>,
{
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);

    /// Removes the temporary file unless it was renamed.
    struct Guard<'p>(&'p Path, bool);
    impl Drop for Guard<'_> {
        fn drop(&mut self) {
            if !self.1 {
                let _ = std::fs::remove_file(self.0);
            }
        }
    }

    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (mut file, tmp) = loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (f, tmp),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    };
    let mut guard = Guard(&tmp, false);
    write(&mut file)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)?;
    guard.1 = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn.pgnkit-index");
        std::fs::write(&path, b"old index").unwrap();
        let err = write_atomically(&path, |f| {
            f.write_all(b"half a new ind")?;
            Err(io::Error::other("disk full"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old index");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "left behind: {names:?}");

        write_atomically(&path, |f| f.write_all(b"new index")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new index");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Enough positions for 2^10 buckets: the counting sort by bucket within
    /// each partition, the directory and the bucket checksums at scale.
    #[test]
    fn many_buckets_find_exactly_their_games() {
        use crate::reader::{Index, index_path};
        use crate::record::GameFacts;
        use crate::tags::{Date, Outcome};

        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("synthetic.pgn");
        std::fs::write(&pgn, b"*\n").unwrap();
        let facts = GameFacts {
            offset: 0,
            length: 1,
            texts: Default::default(),
            date: Date::UNKNOWN,
            eco: None,
            white_elo: 0,
            black_elo: 0,
            outcome: Outcome::Unknown,
            plies: 0,
            status: None,
            errors: 0,
        };
        // xorshift keys; game g has keys k(g, 0..100) plus one repeat, and
        // every 7th game shares key SHARED.
        const SHARED: u64 = 0x8000_0000_0000_0001;
        let key = |g: u64, i: u64| {
            let mut x = (g << 8 | i).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut builder = Builder::new();
        for chunk in 0..3u64 {
            let mut batch = Batch::new();
            for local in 0..1000u64 {
                let g = chunk * 1000 + local;
                let mut keys: Vec<u64> = (0..100).map(|i| key(g, i)).collect();
                keys.push(key(g, 3));
                if g % 7 == 0 {
                    keys.push(SHARED);
                }
                batch.push(&facts, &keys);
            }
            builder.add(batch).unwrap();
        }
        let summary = builder
            .write(&index_path(&pgn), &Fingerprint::of(&pgn).unwrap())
            .unwrap();
        assert_eq!(summary.positions, 3000 * 100 + 3000u64.div_ceil(7));
        let index = Index::open(&index_path(&pgn), &pgn, &Fingerprint::of(&pgn).unwrap()).unwrap();
        assert_eq!(layout::bucket_bits(index.positions()), 10);
        for g in (0..3000u64).step_by(37) {
            for i in [0, 3, 50, 99] {
                assert_eq!(index.games_with_position(key(g, i)).unwrap(), [g as u32]);
            }
        }
        let shared: Vec<u32> = (0..3000).filter(|g| g % 7 == 0).collect();
        assert_eq!(index.games_with_position(SHARED).unwrap(), shared);
        assert!(index.games_with_position(key(5000, 1)).unwrap().is_empty());
    }
}
