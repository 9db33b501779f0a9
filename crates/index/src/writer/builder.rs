//! The [`Builder`]: batches gathered in file order, spilled beyond a memory
//! budget, and the index written (game table, name table, position table,
//! directory, header).

use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::atomic::{Temporary, write_atomically};
use super::batch::Batch;
use super::buckets::{Directory, Encoded};
use super::names::FastMap;
use super::partitions::{
    GROUP, LARGE_SHARE_BYTES, Scratch, Sources, WHOLE_SORT_BYTES, groups_of, write_large,
};
use super::pipeline::Pipeline;
use crate::direct::Direct;
use crate::fingerprint::Fingerprint;
use crate::layout::{self, GAME_SIZE, HEADER_SIZE, MAGIC, POSITION_SIZE, VERSION, crc, header};
use crate::spill::{BatchEntries, PARTITIONS, Prefetched, Spiller, Spool, Table};

/// Why an index cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// More games than the format numbers (2^32 - 1).
    #[error("more than 4,294,967,295 games: split the file")]
    TooManyGames,
    /// More names than the format numbers (2^32 - 1).
    #[error("more than 4,294,967,295 names: split the file")]
    TooManyStrings,
    /// A game too long for the game table (4 GiB or more).
    #[error(
        "the game at byte {offset} is 4 GiB long or more: the index stores game lengths in 32 bits"
    )]
    GameTooLong {
        /// Its byte offset in the PGN file.
        offset: u64,
    },
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
    /// Times the position entries were spilled to the temporary spill file
    /// (0 when everything fitted in memory).
    pub runs: u64,
}

/// The fewest bytes of entries spilled at a time (a smaller budget would
/// only multiply the spills).
const MIN_RUN: u64 = 4 << 10;

/// Estimated bytes of memory a distinct name costs beyond its text (its
/// offset, its key in the lookup table, the table's slot).
const NAME_OVERHEAD: u64 = 64;

/// Memory of the table that finds a name already stored (estimated as
/// 64 bytes plus twice its text per name). When it is full it is
/// emptied, and a name seen before is stored again under a new id: a
/// database of millions of distinct names (one Site per lichess game) is
/// indexed in bounded memory, at the cost of some names stored twice.
/// Fixed, not taken from the memory budget, so that the index does not
/// depend on the budget.
pub const NAME_CACHE: u64 = 16 << 20;

/// Where the builder spills what does not fit in its memory budget.
pub(super) struct Spill {
    /// The directory of the temporary files.
    dir: PathBuf,
    /// The memory budget, in bytes.
    memory: u64,
    /// The position entries spilled, once the tables have been full.
    spiller: Option<Spiller>,
    /// Times the position entries were spilled.
    spilled: u64,
    /// The game records written out so far, in file order.
    pub(super) games: Option<SpilledGames>,
    /// Their checksum so far.
    games_crc: crc32fast::Hasher,
    /// The index being written, when it was begun before the end.
    output: Option<Temporary>,
    /// The name table's offsets and bytes written out so far, in id order.
    names: Option<(BufWriter<std::fs::File>, BufWriter<std::fs::File>)>,
}

/// Where the game records that did not fit in memory are.
pub(super) enum SpilledGames {
    /// In the index itself, begun early ([`Builder::start_output`]), after
    /// its header's place: where they belong.
    InIndex(Direct),
    /// In a file of their own, copied into the index at the end.
    OwnFile(Direct),
}

impl SpilledGames {
    /// The file they are written to.
    fn file(&mut self) -> &mut Direct {
        match self {
            SpilledGames::InIndex(file) | SpilledGames::OwnFile(file) => file,
        }
    }
}

/// Gathers batches in file order and writes the index.
///
/// [`Builder::new`] keeps every table in memory (8 or 9 bytes per
/// main-line position, 80 per game, the names). [`Builder::bounded`] keeps
/// the memory it uses under a budget: the position entries fill one of two
/// tables of half what the budget leaves; when it is full, a thread of its
/// own appends its entries as they are to a temporary spill file (see the
/// [`spill`](crate::spill) module) while the other table fills, and the game records go
/// to another file, or straight into the index when it was begun early
/// ([`Builder::start_output`]); [`Builder::write`] then sorts each key
/// partition once while it writes the index, which is byte for byte the
/// index [`Builder::new`] writes. The names (players, events, sites,
/// rounds, dates) are stored once each while the table that finds them
/// fits in [`NAME_CACHE`]; their offsets and bytes are spilled to files of
/// their own.
pub struct Builder {
    lookup: FastMap<Box<str>, u32>,
    /// Estimated memory of `lookup`.
    lookup_memory: u64,
    /// The most `lookup` may hold ([`NAME_CACHE`]; smaller in tests).
    pub(super) name_cache: u64,
    /// Strings in the name table (string 0, the empty string, included).
    strings: u64,
    /// The end offsets of the names not spilled yet (the first is the
    /// start of the first of them).
    string_offsets: Vec<u64>,
    /// The bytes of the names not spilled yet.
    string_data: Vec<u8>,
    /// Bytes of names spilled before `string_data`.
    data_spilled: u64,
    games: Vec<u8>,
    pub(super) game_count: u64,
    /// Position entries by partition of their key, encoded (8 or 9
    /// bytes an entry), batch after batch, not spilled yet.
    table: Table,
    /// Batches' entries spilled, their memory to be used again: each is
    /// given to a batch taken in exchange for its own.
    free: Vec<BatchEntries>,
    /// Position entries so far (repeats within a game included).
    positions: u64,
    remap: Vec<u32>,
    /// Spilling, for a bounded builder.
    pub(super) spill: Option<Spill>,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// An empty index (string 0 is the empty string), built in memory.
    pub fn new() -> Builder {
        Builder {
            lookup: FastMap::default(),
            lookup_memory: 0,
            name_cache: NAME_CACHE,
            strings: 1,
            string_offsets: vec![0, 0],
            string_data: Vec::new(),
            data_spilled: 0,
            games: Vec::new(),
            game_count: 0,
            table: Table::default(),
            free: Vec::new(),
            positions: 0,
            remap: Vec::new(),
            spill: None,
        }
    }

    /// An empty index built in about `memory` bytes, whatever the number of
    /// games: position entries and game records beyond it are spilled to
    /// anonymous temporary files in `dir` (see the [`spill`](crate::spill)
    /// module), which the operating system removes when they are closed or
    /// the process ends. `dir` is best the directory of the index: it must
    /// have room for about 1.6 times the index while it is written.
    pub fn bounded(memory: u64, dir: &Path) -> Builder {
        Builder {
            spill: Some(Spill {
                dir: dir.to_path_buf(),
                memory,
                spiller: None,
                spilled: 0,
                games: None,
                games_crc: crc32fast::Hasher::new(),
                output: None,
                names: None,
            }),
            ..Builder::new()
        }
    }

    /// Begins the index file that [`Builder::write`] will write to `path`
    /// (which it must then be given): a bounded builder writes the game
    /// records that do not fit in its budget straight to their place in
    /// it, not to a temporary file to be copied at the end. The file is a
    /// temporary one beside `path` until the index is complete, removed
    /// if the builder is dropped first or on an interrupt
    /// ([`remove_temporary_files`](super::remove_temporary_files)). An unbounded builder writes nothing
    /// before [`Builder::write`].
    ///
    /// # Errors
    /// When the temporary file cannot be created.
    pub fn start_output(&mut self, path: &Path) -> io::Result<()> {
        if let Some(spill) = &mut self.spill
            && spill.output.is_none()
            && spill.games.is_none()
        {
            spill.output = Some(Temporary::beside(path)?);
        }
        Ok(())
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.game_count
    }

    /// Times the position entries were spilled so far.
    pub fn runs(&self) -> u64 {
        self.spill.as_ref().map_or(0, |s| s.spilled)
    }

    /// Bytes of memory the tables hold now (an estimate for the names).
    pub fn memory(&self) -> u64 {
        let free: usize = self.free.iter().map(BatchEntries::memory).sum();
        (self.table.memory() + free + self.games.len()) as u64 + self.names_memory()
    }

    fn names_memory(&self) -> u64 {
        self.lookup_memory + 8 * self.string_offsets.len() as u64 + self.string_data.len() as u64
    }

    /// Adds the next batch (batches must come in file order).
    ///
    /// A bounded builder spills its tables here once they reach its budget;
    /// an I/O error while spilling is returned.
    pub fn add(&mut self, mut batch: Batch) -> Result<(), BuildError> {
        self.take(&mut batch)
    }

    /// Adds the next batch like [`Builder::add`], and leaves it empty with
    /// its memory, to be filled with the games of another chunk: no fresh
    /// memory is touched for each chunk.
    pub fn take(&mut self, batch: &mut Batch) -> Result<(), BuildError> {
        if let Some(e) = batch.overflow.take() {
            return Err(e);
        }
        let first = self.game_count;
        let count = batch.games.len() as u64;
        match first.checked_add(count) {
            Some(n) if n <= u64::from(u32::MAX) => {}
            _ => return Err(BuildError::TooManyGames),
        }
        self.remap.clear();
        for s in batch.names.iter() {
            let id = match self.lookup.get(s) {
                Some(&id) => id,
                None => {
                    let id = u32::try_from(self.strings).map_err(|_| BuildError::TooManyStrings)?;
                    self.strings += 1;
                    self.string_data.extend_from_slice(s.as_bytes());
                    self.string_offsets
                        .push(self.data_spilled + self.string_data.len() as u64);
                    let cost = NAME_OVERHEAD + 2 * s.len() as u64;
                    if self.lookup_memory + cost > self.name_cache {
                        self.lookup = FastMap::default();
                        self.lookup_memory = 0;
                    }
                    self.lookup_memory += cost;
                    self.lookup.insert(s.into(), id);
                    id
                }
            };
            self.remap.push(id);
        }
        // Left empty, with its memory, for another chunk.
        batch.names.clear();
        if let Some(s) = &self.spill
            && 8 * self.string_offsets.len() as u64 + self.string_data.len() as u64 >= s.memory / 8
        {
            self.spill_names()?;
        }
        self.games.reserve(batch.games.len() * GAME_SIZE);
        for mut p in batch.games.drain(..) {
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
        self.game_count = first + count;
        if let Some(s) = &self.spill
            && self.games.len() as u64 >= s.memory / 4
        {
            self.spill_games()?;
        }
        self.positions += batch.positions as u64;
        batch.positions = 0;
        // The batch's entries are kept as they are; it goes on with the
        // memory of entries spilled before.
        batch.seal();
        // `first + count` fits in a u32 (checked above).
        let first = u32::try_from(first).map_err(|_| BuildError::TooManyGames)?;
        let spare = self.free.pop().unwrap_or_default();
        let entries = Arc::new(std::mem::replace(&mut batch.entries, spare));
        batch.keys.clear();
        batch.ends.clear();
        batch.sealed = false;
        // As many of its partitions as the table has room for (one at
        // least in an empty table), the table spilled, and so on.
        let mut from = 0;
        while from < PARTITIONS {
            let left = self.room().saturating_sub(self.table.memory());
            let mut to = from;
            while to < PARTITIONS
                && (entries.bytes_of(from..to + 1) <= left || (to == from && self.table.is_empty()))
            {
                to += 1;
            }
            if to > from {
                self.table.push(&entries, first, from..to);
            }
            if to < PARTITIONS || self.table.memory() >= self.room() {
                self.spill_tables()?;
            }
            from = to;
        }
        Ok(())
    }

    /// How many bytes of memory position entries may hold before they are
    /// spilled: what the budget leaves beside the game records and the
    /// names, but never less than an eighth of it (no tiny spills when the
    /// names alone outgrow the budget), nor than [`MIN_RUN`] bytes.
    fn room(&self) -> usize {
        let Some(s) = &self.spill else {
            return usize::MAX;
        };
        let others = self.games.len() as u64 + self.names_memory();
        // Two tables of entries: one is filled while the other is spilled.
        let bytes = (s.memory.saturating_sub(others).max(s.memory / 8) / 2).max(MIN_RUN);
        usize::try_from(bytes).unwrap_or(usize::MAX)
    }

    /// Appends the game records to the games file and empties their table.
    fn spill_games(&mut self) -> io::Result<()> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if !self.games.is_empty() {
            let games = match &mut spill.games {
                Some(games) => games,
                None => spill.games.insert(match &spill.output {
                    Some(output) => {
                        // Where they go in the index: after its header.
                        let mut out = Direct::new(output.file.try_clone()?);
                        out.write_all(&[0u8; HEADER_SIZE])?;
                        SpilledGames::InIndex(out)
                    }
                    None => SpilledGames::OwnFile(Direct::new(tempfile::tempfile_in(&spill.dir)?)),
                }),
            };
            games.file().write_all(&self.games)?;
            spill.games_crc.update(&self.games);
            self.games.clear();
        }
        Ok(())
    }

    /// Appends the names' offsets and bytes to their files and empties
    /// their tables (the last offset stays: it starts the next name).
    fn spill_names(&mut self) -> io::Result<()> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        let Some((&last, done)) = self.string_offsets.split_last() else {
            return Ok(());
        };
        if done.is_empty() {
            return Ok(());
        }
        let (offsets, data) = match &mut spill.names {
            Some(files) => files,
            None => spill.names.insert((
                BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&spill.dir)?),
                BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&spill.dir)?),
            )),
        };
        for o in done {
            offsets.write_all(&o.to_le_bytes())?;
        }
        data.write_all(&self.string_data)?;
        self.data_spilled += self.string_data.len() as u64;
        self.string_data.clear();
        self.string_offsets.clear();
        self.string_offsets.push(last);
        Ok(())
    }

    /// Appends the game records to the games file and the position entries
    /// to the spool (as they are, a partition after the other), and empties
    /// both tables (keeping their memory for the next spill: the pages stay
    /// in use, the resident memory does not grow).
    fn spill_tables(&mut self) -> io::Result<()> {
        self.spill_games()?;
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if self.table.is_empty() {
            return Ok(());
        }
        let spiller = match &mut spill.spiller {
            Some(s) => s,
            None => spill.spiller.insert(Spiller::create(&spill.dir)?),
        };
        let full = std::mem::take(&mut self.table);
        if let Some(mut written) = spiller.spill(full)? {
            written.drain_into(&mut self.free);
        }
        spill.spilled += 1;
        Ok(())
    }

    /// Writes the index for a PGN file with fingerprint `pgn` to `path`,
    /// through a temporary file in the same directory that is renamed into
    /// place once complete and synced.
    pub fn write(mut self, path: &Path, pgn: &Fingerprint) -> Result<Summary, BuildError> {
        if let Some(mut output) = self.spill.as_mut().and_then(|s| s.output.take()) {
            if output.target != path {
                return Err(BuildError::Io(io::Error::other(format!(
                    "the index was begun for `{}`, not `{}`",
                    output.target.display(),
                    path.display()
                ))));
            }
            let summary = self.write_to(&mut output.file, pgn)?;
            output.persist()?;
            return Ok(summary);
        }
        let mut summary = None;
        write_atomically(path, |file| {
            summary = Some(self.write_to(file, pgn)?);
            Ok(())
        })?;
        summary.ok_or_else(|| BuildError::Io(io::Error::other("nothing written")))
    }

    fn write_to(&mut self, file: &mut std::fs::File, pgn: &Fingerprint) -> io::Result<Summary> {
        // No name is added any more.
        self.lookup = FastMap::default();
        self.lookup_memory = 0;
        let (mut spool, memory, dir) = self.finish_spilling()?;
        let bits = layout::bucket_bits(self.positions);
        if let Some(spool) = spool.as_mut() {
            // At most: repeats within a game are dropped.
            let index = self.game_count * GAME_SIZE as u64
                + 8 * (self.strings + 1)
                + self.data_spilled
                + self.string_data.len() as u64
                + self.positions * POSITION_SIZE as u64
                + (1u64 << bits) * 12
                + HEADER_SIZE as u64;
            spool.release_only_if_short(index);
        }
        let (mut out, games_crc) = self.write_games(file)?;
        let (strings_at, data_at, strings_crc) = self.write_names(&mut out)?;
        // The game and name tables are written: their memory is the sort's.
        self.games = Vec::new();
        self.string_data = Vec::new();
        self.string_offsets = Vec::new();
        let positions_at = out.at;
        let directory = self.write_positions(&mut out, spool.as_ref(), memory, &dir, bits)?;
        let directory_at = out.at;
        let directory_crc = write_directory(&directory, &mut out)?;
        let sections = Sections {
            bits,
            games: self.game_count,
            strings: self.strings,
            positions: directory.entries,
            size: out.at,
            games_at: HEADER_SIZE as u64,
            strings_at,
            data_at,
            positions_at,
            directory_at,
            games_crc,
            strings_crc,
            directory_crc,
        };
        let h = header_of(pgn, &sections);
        drop(out.out.finish()?);
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&h)?;
        Ok(Summary {
            games: sections.games,
            strings: sections.strings,
            positions: sections.positions,
            bytes: sections.size,
            runs: self.runs(),
        })
    }

    /// Ends spilling before the index is written: once spilled, the last
    /// entries are spilled too, and the tables' memory is given back. Gives
    /// the spool, the memory budget and the directory of temporary files.
    fn finish_spilling(&mut self) -> io::Result<(Option<Spool>, u64, PathBuf)> {
        // Once spilled, the last entries are spilled too, and the tables'
        // memory is given back: the pages that held them (the whole budget,
        // filled before each spill) are free for the sort.
        if self.spill.as_ref().is_some_and(|s| s.spiller.is_some()) {
            self.spill_tables()?;
            self.table = Table::default();
            self.free = Vec::new();
        }
        Ok(match self.spill.as_mut() {
            Some(s) => (
                s.spiller.take().map(Spiller::finish).transpose()?,
                s.memory,
                s.dir.clone(),
            ),
            // Everything is sorted in memory.
            None => (None, u64::MAX, std::env::temp_dir()),
        })
    }

    /// Writes the game table after the header's place in `file`: the
    /// game records spilled, then those in memory. Gives the index file
    /// so far and the table's checksum.
    fn write_games(&mut self, file: &std::fs::File) -> io::Result<(IndexFile, u32)> {
        // The spilled game records are in the index already (it was begun
        // early), or copied from their own file.
        let (out, at, spilled) = match self.spill.as_mut().and_then(|s| s.games.take()) {
            Some(SpilledGames::InIndex(games)) => {
                let at = games.len();
                (games, at, None)
            }
            spilled => {
                let mut out = Direct::new(file.try_clone()?);
                out.write_all(&[0u8; HEADER_SIZE])?;
                let own = match spilled {
                    Some(SpilledGames::OwnFile(games)) => Some(games),
                    _ => None,
                };
                (out, HEADER_SIZE as u64, own)
            }
        };
        let mut out = IndexFile { out, at };
        let games_at = HEADER_SIZE as u64;
        if let Some(spilled) = spilled {
            spilled.read_back(&mut |bytes| out.put(bytes))?;
        }
        let mut games_crc = self
            .spill
            .as_mut()
            .map_or_else(crc32fast::Hasher::new, |s| {
                std::mem::replace(&mut s.games_crc, crc32fast::Hasher::new())
            });
        games_crc.update(&self.games);
        out.put(&self.games)?;
        if out.at - games_at != self.game_count * GAME_SIZE as u64 {
            return Err(io::Error::other("the spilled game table is incomplete"));
        }
        Ok((out, games_crc.finalize()))
    }

    /// Writes the name table: the names' offsets, then their bytes, each
    /// spilled part first. Gives where the offsets and the bytes start, and
    /// the table's checksum.
    fn write_names(&mut self, out: &mut IndexFile) -> io::Result<(u64, u64, u32)> {
        let strings_at = out.at;
        let mut strings_crc = crc32fast::Hasher::new();
        let spilled_names = self.spill.as_mut().and_then(|s| s.names.take());
        let mut spilled_data = None;
        if let Some((offsets, data)) = spilled_names {
            copy_back(offsets, &mut |bytes| {
                strings_crc.update(bytes);
                out.put(bytes)
            })?;
            spilled_data = Some(data);
        }
        let mut offsets = Vec::with_capacity(self.string_offsets.len() * 8);
        for o in &self.string_offsets {
            offsets.extend_from_slice(&o.to_le_bytes());
        }
        strings_crc.update(&offsets);
        out.put(&offsets)?;
        drop(offsets);
        let data_at = out.at;
        if let Some(data) = spilled_data {
            copy_back(data, &mut |bytes| {
                strings_crc.update(bytes);
                out.put(bytes)
            })?;
        }
        strings_crc.update(&self.string_data);
        out.put(&self.string_data)?;
        if out.at - data_at != self.data_spilled + self.string_data.len() as u64
            || data_at - strings_at != 8 * (self.strings + 1)
        {
            return Err(io::Error::other("the spilled name table is incomplete"));
        }
        out.pad()?;
        Ok((strings_at, data_at, strings_crc.finalize()))
    }

    /// Writes the position table, its entries sorted partition after
    /// partition (those of `spool` and those in memory) in `memory` bytes,
    /// large partitions through runs in `dir`, in buckets of `bits` bits.
    /// Gives the bucket directory.
    fn write_positions(
        &self,
        out: &mut IndexFile,
        spool: Option<&Spool>,
        memory: u64,
        dir: &Path,
        bits: u32,
    ) -> io::Result<Directory> {
        let mut directory = Directory::new(bits);
        // A partition is read whole (from the spool's spills in order,
        // then from memory) and sorted when it fits in the budget
        // ([`WHOLE_SORT_BYTES`] an entry: the tables and the workers'
        // memory are given back by now), as many at a time as the budget
        // holds, up to a group: a group's spilled bytes are read while the
        // group before is sorted, which is written meanwhile. A larger one
        // (the start position is in every game, so one partition grows
        // with the number of games) is a group of its own, sorted through
        // sorted runs in a quarter of the budget by the writing thread, and
        // written as it comes out of the merge.
        let sources = Sources {
            spool,
            table: &self.table,
        };
        let fits = |p: usize| sources.entries(p).saturating_mul(WHOLE_SORT_BYTES) <= memory;
        let largest = (0..PARTITIONS)
            .filter(|&p| fits(p))
            .map(|p| sources.entries(p))
            .max()
            .unwrap_or(0);
        let at_once =
            (memory / (largest * WHOLE_SORT_BYTES).max(1)).clamp(1, GROUP as u64) as usize;
        let groups = groups_of(at_once, fits);
        // A large partition is written while the group after it, empty,
        // is sorted: the sort's memory is given back meanwhile.
        let large_memory = memory / WHOLE_SORT_BYTES * LARGE_SHARE_BYTES;
        // The sort's memory, a partition's at a time on each thread: taken
        // for a partition and given back, so that the next one sorted on
        // that core finds it in the cache.
        let scratch: Mutex<Vec<Scratch>> = Mutex::new(Vec::new());
        let take = || {
            scratch
                .lock()
                .ok()
                .and_then(|mut s| s.pop())
                .unwrap_or_default()
        };
        let give = |s: Scratch| {
            if let Ok(mut free) = scratch.lock() {
                free.push(s);
            }
        };
        Pipeline {
            groups: &groups,
            read: |g: usize, read: &mut Prefetched| match sources.spool {
                Some(spool) if !groups[g].is_empty() && fits(groups[g].start) => {
                    spool.read_group(groups[g].clone(), read)
                }
                _ => Ok(()),
            },
            compute: |g: usize, read: &Prefetched, encoded: &mut Vec<Encoded>| {
                let group = groups[g].clone();
                if group.is_empty()
                    && let Ok(mut free) = scratch.lock()
                {
                    *free = Vec::new();
                }
                encoded.resize_with(group.len(), Encoded::default);
                group
                    .into_par_iter()
                    .zip(encoded.par_iter_mut())
                    .map(|(p, e)| {
                        e.partition = p;
                        e.large = !fits(p);
                        if e.large {
                            e.clear();
                            Ok(())
                        } else {
                            let mut s = take();
                            let sorted = s.encode_sources(&sources, read, p, bits, e);
                            give(s);
                            sorted
                        }
                    })
                    .collect::<io::Result<()>>()
            },
            write: |encoded: &mut Vec<Encoded>| -> io::Result<()> {
                let mut emit = |e: &Encoded| {
                    directory.add(e);
                    out.put(&e.bytes)
                };
                for e in encoded.iter_mut() {
                    if e.large {
                        write_large(&sources, e.partition, bits, large_memory, dir, e, &mut emit)?;
                    } else {
                        emit(e)?;
                    }
                }
                // Those partitions are read for the last time: their disk
                // space goes back to the system.
                if let (Some(spool), Some(first), Some(last)) =
                    (sources.spool, encoded.first(), encoded.last())
                {
                    spool.release(first.partition..last.partition + 1);
                }
                Ok(())
            },
        }
        .run()?;
        directory.finish();
        Ok(directory)
    }
}

/// The index file as it is written, around the page cache where the
/// system allows it (the index is read by searches a bucket at a time,
/// never whole, and gigabytes of it would take the page cache's free
/// memory, one fresh page after the other), and its length so far.
struct IndexFile {
    out: Direct,
    at: u64,
}

impl IndexFile {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// Pads the file to a multiple of 8 bytes.
    fn pad(&mut self) -> io::Result<()> {
        let n = (8 - (self.at % 8) as usize) % 8;
        self.out.write_all(&[0u8; 8][..n])?;
        self.at += n as u64;
        Ok(())
    }
}

/// Writes the bucket directory, then the buckets' checksums; gives the
/// checksum of both.
fn write_directory(directory: &Directory, out: &mut IndexFile) -> io::Result<u32> {
    let mut directory_crc = crc32fast::Hasher::new();
    for chunk in directory.starts.chunks(1 << 14) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
        directory_crc.update(&bytes);
        out.put(&bytes)?;
    }
    for chunk in directory.crcs.chunks(1 << 14) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|c| c.to_le_bytes()).collect();
        directory_crc.update(&bytes);
        out.put(&bytes)?;
    }
    let directory_crc = directory_crc.finalize();
    out.pad()?;
    Ok(directory_crc)
}

/// What the header of an index file says of its sections: where they
/// are, how large and their checksums.
struct Sections {
    bits: u32,
    games: u64,
    strings: u64,
    positions: u64,
    size: u64,
    games_at: u64,
    strings_at: u64,
    data_at: u64,
    positions_at: u64,
    directory_at: u64,
    games_crc: u32,
    strings_crc: u32,
    directory_crc: u32,
}

/// The header of the index of the PGN file `pgn` whose sections are `s`.
fn header_of(pgn: &Fingerprint, s: &Sections) -> [u8; HEADER_SIZE] {
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
    set(header::BUCKET_BITS, &s.bits.to_le_bytes());
    set(header::GAMES, &s.games.to_le_bytes());
    set(header::STRINGS, &s.strings.to_le_bytes());
    set(header::POSITIONS, &s.positions.to_le_bytes());
    set(header::FILE_SIZE, &s.size.to_le_bytes());
    set(header::GAMES_AT, &s.games_at.to_le_bytes());
    set(header::STRINGS_AT, &s.strings_at.to_le_bytes());
    set(header::STRING_DATA_AT, &s.data_at.to_le_bytes());
    set(header::POSITIONS_AT, &s.positions_at.to_le_bytes());
    set(header::DIRECTORY_AT, &s.directory_at.to_le_bytes());
    set(header::GAMES_CRC, &s.games_crc.to_le_bytes());
    set(header::STRINGS_CRC, &s.strings_crc.to_le_bytes());
    set(header::DIRECTORY_CRC, &s.directory_crc.to_le_bytes());
    set(
        header::OPENINGS,
        &pgnkit_opening::table_digest().to_le_bytes(),
    );
    let header_crc = crc(&h[..header::HEADER_CRC]);
    h[header::HEADER_CRC..header::HEADER_CRC + 4].copy_from_slice(&header_crc.to_le_bytes());

    h
}

/// Reads a spilled file from its start and hands its bytes to `put`, a
/// megabyte at a time.
fn copy_back(
    file: BufWriter<std::fs::File>,
    put: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut file = file.into_inner().map_err(|e| e.into_error())?;
    file.seek(SeekFrom::Start(0))?;
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(());
        }
        put(&buffer[..n])?;
    }
}
