//! The position table as it is written: sorted entries encoded bucket
//! after bucket ([`Encoded`]), and the bucket directory with a checksum
//! of each bucket ([`Directory`]).

use crate::layout::{self, POSITION_SIZE};
use crate::spill::Entry;

/// Entries sorted, without repeats, encoded as position table entries.
#[derive(Default)]
pub(super) struct Encoded {
    /// The partition they are of.
    pub(super) partition: usize,
    /// Not encoded: the partition is too large to be sorted in memory, and
    /// is sorted through runs as it is written.
    pub(super) large: bool,
    pub(super) bytes: Vec<u8>,
    /// (bucket, end of its entries in `bytes`) for each bucket with entries.
    pub(super) segments: Vec<(usize, usize)>,
    /// The bucket of the last entry, while its segment is open.
    current: Option<usize>,
}

impl Encoded {
    /// Empties it, keeping its memory.
    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.segments.clear();
        self.current = None;
    }

    /// Appends `e`, which comes after every entry appended before.
    pub(super) fn push(&mut self, e: &Entry, bits: u32) {
        let b = layout::bucket(e.key(), bits);
        if self.current != Some(b) {
            self.close();
            self.current = Some(b);
        }
        // The key bits then the game, little-endian: one 8-byte copy.
        let entry = u64::from(layout::key_bits(e.key(), bits)) | (u64::from(e.game) << 32);
        self.bytes.extend_from_slice(&entry.to_le_bytes());
    }

    /// Ends the last segment.
    pub(super) fn close(&mut self) {
        if let Some(c) = self.current.take() {
            self.segments.push((c, self.bytes.len()));
        }
    }
}

/// Encodes `sorted` (a partition's entries, sorted) into `out` as position
/// table entries of `bits` bucket bits, without repeats.
pub(super) fn encode_sorted(sorted: &[Entry], bits: u32, out: &mut Encoded) {
    out.clear();
    out.bytes.reserve(sorted.len() * POSITION_SIZE);
    let mut previous = None;
    for e in sorted {
        if previous == Some(e) {
            continue;
        }
        previous = Some(e);
        out.push(e, bits);
    }
    out.close();
}

/// The bucket directory and bucket checksums, computed as the position
/// table is written in order.
pub(super) struct Directory {
    /// Entry index where each bucket starts (and the end of the last).
    pub(super) starts: Vec<u64>,
    pub(super) crcs: Vec<u32>,
    hasher: crc32fast::Hasher,
    current: usize,
    /// Entries written so far.
    pub(super) entries: u64,
}

impl Directory {
    pub(super) fn new(bits: u32) -> Directory {
        let buckets = 1usize << bits;
        Directory {
            starts: vec![0; buckets + 1],
            crcs: vec![0; buckets],
            hasher: crc32fast::Hasher::new(),
            current: 0,
            entries: 0,
        }
    }

    /// Accounts for `e`, the next entries of the table.
    pub(super) fn add(&mut self, e: &Encoded) {
        let mut from = 0usize;
        for &(b, end) in &e.segments {
            if b != self.current {
                self.crcs[self.current] = std::mem::take(&mut self.hasher).finalize();
                for d in &mut self.starts[self.current + 1..=b] {
                    *d = self.entries;
                }
                self.current = b;
            }
            self.hasher.update(&e.bytes[from..end]);
            self.entries += ((end - from) / POSITION_SIZE) as u64;
            from = end;
        }
    }

    /// Ends the table.
    pub(super) fn finish(&mut self) {
        self.crcs[self.current] = std::mem::take(&mut self.hasher).finalize();
        for d in &mut self.starts[self.current + 1..] {
            *d = self.entries;
        }
    }
}
