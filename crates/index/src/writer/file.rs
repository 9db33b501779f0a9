//! Writing the index file: the game table, the name table, the position
//! table (sorted partition after partition), the bucket directory, then
//! the header.

use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;

use super::atomic::write_atomically;
use super::buckets::{Directory, Encoded};
use super::builder::{BuildError, Builder, Summary};
use super::names::FastMap;
use super::partitions::{
    GROUP, LARGE_SHARE_BYTES, Scratch, Sources, WHOLE_SORT_BYTES, groups_of, write_large,
};
use super::pipeline::Pipeline;
use super::spilling::{SpilledGames, copy_back};
use crate::direct::Direct;
use crate::fingerprint::Fingerprint;
use crate::layout::{self, GAME_SIZE, HEADER_SIZE, MAGIC, POSITION_SIZE, VERSION, crc, header};
use crate::spill::{PARTITIONS, Prefetched, Spool};

impl Builder {
    /// Writes the index for a PGN file with fingerprint `pgn` to `path`,
    /// through a temporary file in the same directory that is renamed into
    /// place once complete and synced.
    pub fn write(mut self, path: &Path, pgn: &Fingerprint) -> Result<Summary, BuildError> {
        if let Some(mut output) = self.spill.as_mut().and_then(|s| s.output.take()) {
            if output.target() != path {
                return Err(BuildError::Io(io::Error::other(format!(
                    "the index was begun for `{}`, not `{}`",
                    output.target().display(),
                    path.display()
                ))));
            }
            let summary = self.write_to(output.file_mut(), pgn)?;
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
