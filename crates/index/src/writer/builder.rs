//! The [`Builder`]: batches gathered in file order, their names made
//! global, their tables kept under a memory budget (see `spilling`); the
//! index is written by `file`.

use std::io;
use std::path::Path;
use std::sync::Arc;

use super::batch::Batch;
use super::names::FastMap;
use super::spilling::Spill;
use crate::layout::{self, GAME_SIZE};
use crate::spill::{BatchEntries, PARTITIONS, Table};
use pgnkit_atomic::Temporary;

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
    /// Writing failed: the error itself (the caller names the index, and
    /// the cause is said once).
    #[error(transparent)]
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
    pub(super) lookup: FastMap<Box<str>, u32>,
    /// Estimated memory of `lookup`.
    pub(super) lookup_memory: u64,
    /// The most `lookup` may hold ([`NAME_CACHE`]; smaller in tests).
    pub(super) name_cache: u64,
    /// Strings in the name table (string 0, the empty string, included).
    pub(super) strings: u64,
    /// The end offsets of the names not spilled yet (the first is the
    /// start of the first of them).
    pub(super) string_offsets: Vec<u64>,
    /// The bytes of the names not spilled yet.
    pub(super) string_data: Vec<u8>,
    /// Bytes of names spilled before `string_data`.
    pub(super) data_spilled: u64,
    pub(super) games: Vec<u8>,
    pub(super) game_count: u64,
    /// Position entries by partition of their key, encoded (8 or 9
    /// bytes an entry), batch after batch, not spilled yet.
    pub(super) table: Table,
    /// Batches' entries spilled, their memory to be used again: each is
    /// given to a batch taken in exchange for its own.
    pub(super) free: Vec<BatchEntries>,
    /// Position entries so far (repeats within a game included).
    pub(super) positions: u64,
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
            spill.output = Some(Temporary::beside(path, false)?);
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
}
