//! The identity of a game's main line: a 128-bit fingerprint of the chain
//! of its positions.
//!
//! The replay gives the Zobrist key of every main-line position, the start
//! position included ([`pgnkit_replay::GameReport::keys`]). Two moves from
//! one position lead to two different positions, so the chain of positions
//! from the start is the sequence of moves from the start, whatever
//! notation or language the moves were written in. The fingerprint folds
//! that chain, key after key, into two independent 64-bit lanes: the
//! fingerprint of each prefix of a line comes on the way to the
//! fingerprint of the whole line ([`Chain`]), which is what finding a
//! truncated copy needs.

/// The fingerprint of a main line (or of one of its prefixes).
pub type LineFingerprint = u128;

/// The fingerprints of the prefixes of one line, ply after ply.
///
/// ```
/// use pgnkit_index::mainline::{Chain, line_fingerprint};
/// let keys = [1u64, 2, 3];
/// let mut chain = Chain::new();
/// let prefixes: Vec<u128> = keys.iter().map(|&k| chain.push(k)).collect();
/// assert_eq!(prefixes[2], line_fingerprint(&keys));
/// assert_ne!(prefixes[1], prefixes[2]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    a: u64,
    b: u64,
}

impl Default for Chain {
    fn default() -> Chain {
        Chain::new()
    }
}

/// The finalizer of SplitMix64: every bit of the input moves every bit of
/// the output.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Chain {
    /// The chain before the start position.
    pub fn new() -> Chain {
        Chain {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
        }
    }

    /// Adds the next position's Zobrist key; gives the fingerprint of the
    /// line up to it.
    pub fn push(&mut self, key: u64) -> LineFingerprint {
        self.a = mix(self.a ^ key);
        self.b = mix(self.b.rotate_left(17) ^ key.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        (u128::from(self.a) << 64) | u128::from(self.b)
    }
}

/// The fingerprint of the line whose positions have the Zobrist keys
/// `keys` (the start position first).
pub fn line_fingerprint(keys: &[u64]) -> LineFingerprint {
    let mut chain = Chain::new();
    let mut fp = 0;
    for &k in keys {
        fp = chain.push(k);
    }
    fp
}
