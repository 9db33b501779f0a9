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
/// use pgnkit_facts::mainline::{Chain, line_fingerprint};
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

/// The odd multipliers of the two lanes (the golden ratio's, and
/// SplitMix64's first).
const MUL_A: u64 = 0x9e37_79b9_7f4a_7c15;
const MUL_B: u64 = 0xbf58_476d_1ce4_e5b9;

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
    ///
    /// Each lane takes a step that, for a given key, is a bijection of the
    /// lane (a rotation, an exclusive or, a multiplication by an odd
    /// number): once two lines part, their lanes stay different wherever
    /// their keys agree, and meet only where the keys differ by exactly the
    /// lanes' difference. Zobrist keys are random, so that chance is 2^-64
    /// a lane. The rotation brings the high bits, which the multiplication
    /// mixes, back down. A step is a few cycles long (two SplitMix64
    /// finalizers a key, in format version 3, were three times as long).
    #[inline]
    pub fn push(&mut self, key: u64) -> LineFingerprint {
        self.a = (self.a.rotate_left(23) ^ key).wrapping_mul(MUL_A);
        self.b = (self.b.rotate_left(41) ^ key.rotate_left(32)).wrapping_mul(MUL_B);
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use pgnkit_replay::outcome::position_key;
    use shakmaty::san::San;
    use shakmaty::{Chess, Position};

    use super::*;

    /// The keys of the line of `moves` (SAN) from the start, the start's
    /// first.
    fn keys(moves: &str) -> Vec<u64> {
        let mut pos = Chess::default();
        let mut keys = vec![position_key(&pos)];
        for word in moves.split_whitespace() {
            let m = San::from_ascii(word.as_bytes())
                .ok()
                .and_then(|san| san.to_move(&pos).ok())
                .unwrap_or_else(|| panic!("{word} is not legal here"));
            pos.play_unchecked(m);
            keys.push(position_key(&pos));
        }
        keys
    }

    #[test]
    fn lines_that_transpose_into_one_position_have_different_fingerprints() {
        let reti = keys("Nf3 Nf6 g3 g6 Bg2 Bg7");
        let fianchetto = keys("g3 g6 Bg2 Bg7 Nf3 Nf6");
        assert_eq!(reti.last(), fianchetto.last());
        assert_ne!(line_fingerprint(&reti), line_fingerprint(&fianchetto));
        // The same moves in any notation are the same line.
        assert_eq!(
            line_fingerprint(&reti),
            line_fingerprint(&keys("Ng1f3 Ng8f6 g3 g6 Bf1g2 Bf8g7"))
        );
    }

    /// Every line of up to four plies from the start (206,603 of them, most
    /// reaching a position another line reaches too) and every prefix of
    /// one: as many fingerprints as lines.
    #[test]
    fn every_line_of_four_plies_has_a_fingerprint_of_its_own() {
        fn walk(pos: &Chess, chain: Chain, depth: u32, seen: &mut HashSet<u128>, lines: &mut u64) {
            if depth == 0 {
                return;
            }
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(m);
                let mut chain = chain;
                seen.insert(chain.push(position_key(&next)));
                *lines += 1;
                walk(&next, chain, depth - 1, seen, lines);
            }
        }
        let start = Chess::default();
        let mut chain = Chain::new();
        let mut seen = HashSet::from([chain.push(position_key(&start))]);
        let mut lines = 1;
        walk(&start, chain, 4, &mut seen, &mut lines);
        assert_eq!(lines, 1 + 20 + 400 + 8_902 + 197_281);
        assert_eq!(seen.len() as u64, lines);
    }
}
