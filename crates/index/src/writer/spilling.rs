//! What a bounded [`Builder`] spills beyond its memory budget, and where:
//! the game records (to a file of their own, or straight into the index
//! begun early), the names' offsets and bytes, the position entries (to
//! the spool).

use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use super::builder::Builder;
use crate::direct::Direct;
use crate::layout::HEADER_SIZE;
use crate::spill::{Spiller, Spool, Table};
use pgnkit_atomic::Temporary;

/// Where the builder spills what does not fit in its memory budget.
pub(super) struct Spill {
    /// The directory of the temporary files.
    pub(super) dir: PathBuf,
    /// The memory budget, in bytes.
    pub(super) memory: u64,
    /// The position entries spilled, once the tables have been full.
    pub(super) spiller: Option<Spiller>,
    /// Times the position entries were spilled.
    pub(super) spilled: u64,
    /// The game records written out so far, in file order.
    pub(super) games: Option<SpilledGames>,
    /// Their checksum so far.
    pub(super) games_crc: crc32fast::Hasher,
    /// The index being written, when it was begun before the end.
    pub(super) output: Option<Temporary>,
    /// The name table's offsets and bytes written out so far, in id order.
    pub(super) names: Option<(BufWriter<std::fs::File>, BufWriter<std::fs::File>)>,
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

impl Builder {
    /// Appends the game records to the games file and empties their table.
    pub(super) fn spill_games(&mut self) -> io::Result<()> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if !self.games.is_empty() {
            let games = match &mut spill.games {
                Some(games) => games,
                None => spill.games.insert(match &spill.output {
                    Some(output) => {
                        // Where they go in the index: after its header.
                        let mut out = Direct::new(output.file().try_clone()?);
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
    pub(super) fn spill_names(&mut self) -> io::Result<()> {
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
    pub(super) fn spill_tables(&mut self) -> io::Result<()> {
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

    /// Ends spilling before the index is written: once spilled, the last
    /// entries are spilled too, and the tables' memory is given back. Gives
    /// the spool, the memory budget and the directory of temporary files.
    pub(super) fn finish_spilling(&mut self) -> io::Result<(Option<Spool>, u64, PathBuf)> {
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
}

/// Reads a spilled file from its start and hands its bytes to `put`, a
/// megabyte at a time.
pub(super) fn copy_back(
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
