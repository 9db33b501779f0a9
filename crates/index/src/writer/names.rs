//! The names of a batch (players, events, sites, rounds, dates), each
//! numbered by its first appearance, found by an FxHash.

use std::collections::HashMap;

/// FxHash (rustc's hasher): strings from a PGN file need no protection
/// against flooding, and interning them is on the hot path.
#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher(u64);

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

pub(super) type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// The distinct names of a batch, each numbered by its first appearance:
/// their bytes one after the other, and a table of their numbers by hash.
/// Nothing is allocated per name, and the memory is kept from one batch to
/// the next.
#[derive(Debug, Default)]
pub(super) struct Names {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
    /// The names' numbers, found by their text.
    table: hashbrown::HashTable<u32>,
}

/// Name `i` of a [`Names`]'s `text` and `ends`.
fn name_at<'t>(text: &'t str, ends: &[usize], i: u32) -> &'t str {
    let i = i as usize;
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text[start..ends[i]]
}

/// The hash of a name.
fn name_hash(s: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

impl Names {
    /// The names, in the order of their numbers.
    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.ends.len()).map(|i| name_at(&self.text, &self.ends, i as u32))
    }

    /// The number of `s`, a new one if it is new; `None` past `u32::MAX`
    /// names.
    pub(super) fn intern(&mut self, s: &str) -> Option<u32> {
        let Names { text, ends, table } = self;
        let hash = name_hash(s);
        if let Some(&id) = table.find(hash, |&id| name_at(text, ends, id) == s) {
            return Some(id);
        }
        let id = u32::try_from(ends.len()).ok()?;
        text.push_str(s);
        ends.push(text.len());
        table.insert_unique(hash, id, |&id| name_hash(name_at(text, ends, id)));
        Some(id)
    }

    /// Forgets every name, keeping the memory.
    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are numbered by first appearance, found again whatever the
    /// table's growth, and forgotten by `clear`, in one batch after another.
    #[test]
    fn a_batch_numbers_its_names_by_first_appearance() {
        let mut names = Names::default();
        for round in 0..3 {
            let words: Vec<String> = (0..5_000)
                .map(|i| format!("{round} Player {}", i % 1_700))
                .collect();
            let mut expected: Vec<&str> = Vec::new();
            for w in &words {
                let id = names.intern(w).unwrap() as usize;
                match expected.iter().position(|e| e == w) {
                    Some(at) => assert_eq!(id, at, "{w}"),
                    None => {
                        assert_eq!(id, expected.len(), "{w}");
                        expected.push(w);
                    }
                }
            }
            assert_eq!(names.iter().collect::<Vec<_>>(), expected);
            assert_eq!(names.intern("é…").unwrap() as usize, expected.len());
            names.clear();
            assert_eq!(names.iter().count(), 0);
        }
    }
}
