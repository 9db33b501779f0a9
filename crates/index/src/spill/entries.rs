//! Position entries encoded by key partition, 8 or 9 bytes each: the
//! difference of the game number from the entry before (LEB128), then the
//! key's low 56 bits. A batch's entries ([`BatchEntries`]) and the tables
//! of them the builder holds ([`Table`]).

use std::io;
use std::ops::Range;
use std::sync::Arc;

use super::{Entry, PARTITION_BITS, PARTITIONS, partition};

/// The low 56 bits of a key: what an entry stores of it (its top bits
/// are its partition's).
const KEY_LOW: u64 = (1 << 56) - 1;

// An entry stores the key's low 7 bytes: the partition must say the rest.
const _: () = assert!(PARTITION_BITS >= 8);

/// The LEB128 number at the start of `bytes`, and its length (`None`
/// when it is cut short or passes 32 bits).
pub(super) fn read_varint(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    for (i, &b) in bytes.iter().enumerate().take(5) {
        n |= u32::from(b & 0x7f).checked_shl(7 * i as u32)?;
        if b < 0x80 {
            return Some((n, i + 1));
        }
    }
    None
}

/// The length of `delta` in LEB128.
fn varint_len(delta: u32) -> usize {
    match delta {
        0..0x80 => 1,
        0x80..0x4000 => 2,
        0x4000..0x20_0000 => 3,
        0x20_0000..0x1000_0000 => 4,
        _ => 5,
    }
}

/// The position entries of one batch of games by key partition (the top
/// [`PARTITION_BITS`] bits of the key), each partition encoded as the
/// [`Spool`] stores it:
/// entries in the order they came, each the difference of its game number
/// from the one before (LEB128; the first from 0) then the key's low 56
/// bits. The games are numbered from the batch's first (0); a [`Table`]
/// knows where the batch's games start among all games.
///
/// Its memory goes round: filled by a worker ([`BatchEntries::encode`]),
/// kept in a table until the table is spilled, then given back to a worker
/// to be filled again.
#[derive(Debug)]
pub(crate) struct BatchEntries {
    /// The partitions, one after the other.
    bytes: Vec<u8>,
    parts: Box<[Part; PARTITIONS]>,
}

impl Default for BatchEntries {
    fn default() -> BatchEntries {
        BatchEntries {
            bytes: Vec::new(),
            parts: Box::new([Part::default(); PARTITIONS]),
        }
    }
}

/// One partition of [`BatchEntries`].
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    /// Where its bytes end (they start where the partition before ends).
    end: usize,
    entries: u64,
    /// The game of its last entry.
    last: u32,
}

impl Part {
    /// The difference of `game`, the next entry's, from the last entry's
    /// (wrapping: the games of a batch come in order, but any order
    /// round-trips); `game` is then the last.
    #[inline]
    fn step(&mut self, game: u32) -> u32 {
        let delta = game.wrapping_sub(self.last);
        self.last = game;
        delta
    }
}

/// Each key of `keys` with its game's number, game `g`'s keys being
/// `keys[ends[g - 1]..ends[g]]` (from 0 for game 0).
fn keys_by_game<'k>(keys: &'k [u64], ends: &'k [usize]) -> impl Iterator<Item = (u64, u32)> + 'k {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    starts
        .zip(ends)
        .zip(0u32..)
        .flat_map(move |((from, &to), game)| {
            keys.get(from..to)
                .unwrap_or_default()
                .iter()
                .map(move |&key| (key, game))
        })
}

impl BatchEntries {
    /// Encodes the entries of `keys`, the keys of game `g` being
    /// `keys[ends[g - 1]..ends[g]]` (from 0 for game 0), in place of the
    /// entries it held. Its memory is kept when it has room.
    ///
    /// The partitions' lengths are counted first, so that the entries are
    /// written once, in place, into a buffer that holds exactly them (and
    /// that fits in a core's cache for a batch of a few megabytes of PGN).
    pub(crate) fn encode(&mut self, keys: &[u64], ends: &[usize]) {
        let parts = &mut *self.parts;
        parts.fill(Part::default());
        // The length of each partition, in `end` for now.
        for (key, game) in keys_by_game(keys, ends) {
            let part = &mut parts[partition(key)];
            let delta = part.step(game);
            part.entries += 1;
            part.end += if delta < 0x80 {
                8
            } else {
                varint_len(delta) + 7
            };
        }
        // Where each partition starts, in `end` until its entries are
        // written after it.
        let mut total = 0;
        for part in parts.iter_mut() {
            let len = part.end;
            part.end = total;
            part.last = 0;
            total += len;
        }
        // Room for exactly these (not doubled): the table counts the
        // memory its batches hold. Every byte is written below: only the
        // bytes beyond the last batch's are cleared first.
        self.bytes
            .reserve_exact(total.saturating_sub(self.bytes.len()));
        self.bytes.resize(total, 0);
        let bytes = &mut self.bytes[..];
        for (key, game) in keys_by_game(keys, ends) {
            let part = &mut parts[partition(key)];
            let delta = part.step(game);
            let at = part.end;
            if delta < 0x80 {
                // The byte and the key's 7 low bytes, written at once.
                let word = ((key & KEY_LOW) << 8) | u64::from(delta);
                if let Some(out) = bytes.get_mut(at..at + 8) {
                    out.copy_from_slice(&word.to_le_bytes());
                }
                part.end = at + 8;
            } else {
                let mut entry = [0u8; 12];
                let n = put_varint(&mut entry, delta);
                entry[n..n + 7].copy_from_slice(&(key & KEY_LOW).to_le_bytes()[..7]);
                if let Some(out) = bytes.get_mut(at..at + n + 7) {
                    out.copy_from_slice(&entry[..n + 7]);
                }
                part.end = at + n + 7;
            }
        }
    }

    /// Bytes of encoded entries.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// Where partition `p` starts in `bytes` (for `p == PARTITIONS`, where
    /// the last one ends): where the partition before ends.
    fn start(&self, p: usize) -> usize {
        p.checked_sub(1)
            .and_then(|before| self.parts.get(before))
            .map_or(0, |part| part.end)
    }

    /// Bytes of encoded entries of partitions `parts`.
    pub(crate) fn bytes_of(&self, parts: Range<usize>) -> usize {
        self.start(parts.end)
            .saturating_sub(self.start(parts.start))
    }

    /// Bytes of memory it holds.
    pub(crate) fn memory(&self) -> usize {
        self.bytes.capacity() + std::mem::size_of::<[Part; PARTITIONS]>()
    }

    /// Entries of partition `p`.
    pub(crate) fn entries(&self, p: usize) -> u64 {
        self.parts.get(p).map_or(0, |part| part.entries)
    }

    /// The encoded entries of partition `p`.
    pub(crate) fn encoded(&self, p: usize) -> &[u8] {
        self.bytes
            .get(self.start(p)..self.start(p + 1))
            .unwrap_or_default()
    }

    /// Empties it, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.parts.fill(Part::default());
    }

    /// Counts one entry more in partition `p` than it holds, as a corrupt
    /// count would.
    #[cfg(test)]
    pub(crate) fn miscount(&mut self, p: usize) {
        self.parts[p].entries += 1;
    }
}

/// The entries of one partition of one batch in a [`Table`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'t> {
    /// Encoded as [`BatchEntries`] keeps them.
    pub(crate) bytes: &'t [u8],
    /// The number of the batch's first game: the first difference is from
    /// it.
    pub(crate) first_game: u32,
    /// The game of the last entry, numbered within the batch.
    pub(super) last: u32,
}

/// Writes `delta` as LEB128 at the start of `out` (room for 5 bytes);
/// returns its length.
pub(super) fn put_varint(out: &mut [u8], mut delta: u32) -> usize {
    let mut n = 0;
    while delta >= 0x80 {
        out[n] = delta as u8 | 0x80;
        delta >>= 7;
        n += 1;
    }
    out[n] = delta as u8;
    n + 1
}

/// The position entries the builder holds and has not spilled: the
/// batches' [`BatchEntries`] as they came, each with the number of its
/// first game among all games. Nothing is copied into it: a batch's
/// entries are written once by the worker that replayed its games, and
/// read once when they are spilled or sorted.
///
/// A table holds a range of a batch's partitions, all of them unless the
/// table was full midway: the rest are then in the next table (a
/// partition's entries stay in game order from one spill to the next),
/// and the batch's memory is used again once both are spilled.
#[derive(Debug, Default)]
pub(crate) struct Table {
    batches: Vec<Held>,
    /// Bytes of encoded entries held.
    bytes: usize,
    /// Bytes of memory they hold.
    memory: usize,
}

/// Partitions `parts` of a batch's entries, whose first game is game
/// number `first_game`.
#[derive(Debug)]
struct Held {
    entries: Arc<BatchEntries>,
    first_game: u32,
    parts: Range<usize>,
}

impl Table {
    /// Adds partitions `parts` of the entries of the next batch, whose
    /// first game is game number `first_game`. The table that holds a
    /// batch's first partitions counts the memory the batch's entries
    /// hold; the next table, which holds the rest, their bytes.
    pub(crate) fn push(
        &mut self,
        entries: &Arc<BatchEntries>,
        first_game: u32,
        parts: Range<usize>,
    ) {
        let bytes = entries.bytes_of(parts.clone());
        self.bytes += bytes;
        self.memory += if parts.start == 0 {
            entries.memory()
        } else {
            bytes
        };
        self.batches.push(Held {
            entries: Arc::clone(entries),
            first_game,
            parts,
        });
    }

    /// Whether it holds no batch.
    pub(crate) fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }

    /// Bytes of encoded entries.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Bytes of memory the batches' entries hold.
    pub(crate) fn memory(&self) -> usize {
        self.memory
    }

    /// Entries of partition `p`.
    pub(crate) fn entries(&self, p: usize) -> u64 {
        self.batches
            .iter()
            .filter(|held| held.parts.contains(&p))
            .map(|held| held.entries.entries(p))
            .sum()
    }

    /// The encoded entries of partition `p`, batch after batch (batches
    /// without any left out).
    pub(crate) fn pieces(&self, p: usize) -> impl Iterator<Item = Piece<'_>> {
        self.batches
            .iter()
            .filter(move |held| held.parts.contains(&p))
            .map(move |held| Piece {
                bytes: held.entries.encoded(p),
                first_game: held.first_game,
                last: held.entries.parts.get(p).map_or(0, |part| part.last),
            })
            .filter(|piece| !piece.bytes.is_empty())
    }

    /// Empties it, and hands the entries of each batch it held the last
    /// partitions of, emptied, to `free` (the others are still held by
    /// the next table).
    pub(crate) fn drain_into(&mut self, free: &mut Vec<BatchEntries>) {
        for held in self.batches.drain(..) {
            if let Ok(mut entries) = Arc::try_unwrap(held.entries) {
                entries.clear();
                free.push(entries);
            }
        }
        self.bytes = 0;
        self.memory = 0;
    }
}

/// Appends the entries of partition `p` encoded in `bytes` (as
/// [`BatchEntries`] and the [`Spool`] keep them, the first difference
/// from game number `first_game`) to `entries`.
pub(crate) fn decode_partition(
    p: usize,
    bytes: &[u8],
    first_game: u32,
    entries: &mut Vec<Entry>,
) -> io::Result<()> {
    for_each_entry(p, bytes, first_game, |e| entries.push(e))
}

/// Hands each entry of partition `p` encoded in `bytes` (as
/// [`decode_partition`] reads them) to `each`, in order.
#[inline]
pub(crate) fn for_each_entry(
    p: usize,
    bytes: &[u8],
    first_game: u32,
    mut each: impl FnMut(Entry),
) -> io::Result<()> {
    let corrupt = || io::Error::other("a spilled partition is corrupt");
    let top = (p as u64) << (64 - PARTITION_BITS);
    let mut game = first_game;
    let mut at = 0;
    while at < bytes.len() {
        // Most entries: a one-byte difference and the key, 8 bytes read
        // at once.
        if let Some(eight) = bytes.get(at..at + 8)
            && eight[0] < 0x80
        {
            let mut word = [0u8; 8];
            word.copy_from_slice(eight);
            let word = u64::from_le_bytes(word);
            game = game.wrapping_add((word & 0x7f) as u32);
            each(Entry::new(top | (word >> 8), game));
            at += 8;
            continue;
        }
        let (delta, len) = bytes.get(at..).and_then(read_varint).ok_or_else(corrupt)?;
        at += len;
        game = game.wrapping_add(delta);
        let key = bytes.get(at..at + 7).ok_or_else(corrupt)?;
        at += 7;
        let mut low = [0u8; 8];
        low[..7].copy_from_slice(key);
        each(Entry::new(top | u64::from_le_bytes(low), game));
    }
    Ok(())
}
