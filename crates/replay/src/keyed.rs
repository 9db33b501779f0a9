//! The Zobrist key of a position (Law 9.2's identity of positions), stepped
//! move by move, and maps keyed by it (a hasher that takes the key as it
//! is).

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Move, Position, Role, Square,
    zobrist::{Zobrist64, ZobristValue},
};

/// The Zobrist key of a position with Law 9.2's identity (legal en passant only).
pub fn position_key(pos: &Chess) -> u64 {
    let Zobrist64(key) = pos.zobrist_hash(EnPassantMode::Legal);
    key
}

/// The first half of a key update: what `before` and the move contribute.
/// Taken before the move is played in place; [`KeyStep::finish`] adds what
/// the position after contributes.
#[derive(Clone, Debug)]
pub(crate) struct KeyStep {
    partial: u64,
    /// The castling rights before the move (rook squares), and, in
    /// Chess960, which of the four rights they are (see [`rights_mask`];
    /// 0 when there are none; in standard chess the squares say it).
    rights: Bitboard,
    mask: u8,
}

/// The four castling rights of `castles` as bits: White king side, White
/// queen side, Black king side, Black queen side.
fn rights_mask(castles: &shakmaty::Castles) -> u8 {
    let mut mask = 0;
    for (bit, (color, side)) in RIGHTS.iter().enumerate() {
        if castles.has(*color, *side) {
            mask |= 1 << bit;
        }
    }
    mask
}

/// [`rights_mask`] in standard chess, where each right's rook is in its
/// corner.
fn corner_mask(rights: Bitboard) -> u8 {
    u8::from(rights.contains(Square::H1))
        | u8::from(rights.contains(Square::A1)) << 1
        | u8::from(rights.contains(Square::H8)) << 2
        | u8::from(rights.contains(Square::A8)) << 3
}

const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

impl KeyStep {
    /// Starts the update of `key` (the key of `before`) for the move `m`.
    #[inline(always)]
    pub fn new(before: &Chess, key: u64, m: Move) -> KeyStep {
        let piece = |sq: Square, role: Role, color: Color| {
            let Zobrist64(z) = Zobrist64::zobrist_for_piece(sq, role.of(color));
            z
        };
        let us = before.turn();
        let Zobrist64(turn) = Zobrist64::zobrist_for_white_turn();
        let mut k = key ^ turn;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                k ^= piece(from, role, us) ^ piece(to, promotion.unwrap_or(role), us);
                if let Some(c) = capture {
                    k ^= piece(to, c, !us);
                }
            }
            Move::EnPassant { from, to } => {
                let taken = Square::from_coords(to.file(), from.rank());
                k ^= piece(from, Role::Pawn, us)
                    ^ piece(to, Role::Pawn, us)
                    ^ piece(taken, Role::Pawn, !us);
            }
            Move::Castle { king, rook } => {
                let short = rook.file() > king.file();
                let rank = king.rank();
                let king_to = Square::from_coords(if short { File::G } else { File::C }, rank);
                let rook_to = Square::from_coords(if short { File::F } else { File::D }, rank);
                k ^= piece(king, Role::King, us) ^ piece(king_to, Role::King, us);
                k ^= piece(rook, Role::Rook, us) ^ piece(rook_to, Role::Rook, us);
            }
            Move::Put { role, to } => k ^= piece(to, role, us),
        }
        if before.maybe_ep_square().is_some()
            && let Some(sq) = before.legal_ep_square()
        {
            let Zobrist64(z) = Zobrist64::zobrist_for_en_passant_file(sq.file());
            k ^= z;
        }
        let castles = before.castles();
        let rights = castles.castling_rights();
        KeyStep {
            partial: k,
            rights,
            mask: if rights.is_empty() || castles.mode().is_standard() {
                0
            } else {
                rights_mask(castles)
            },
        }
    }

    /// The key of `after`, the position the move led to.
    #[inline(always)]
    pub fn finish(self, after: &Chess) -> u64 {
        let mut k = self.partial;
        let castles = after.castles();
        let rights = castles.castling_rights();
        if rights != self.rights {
            let changed = if castles.mode().is_standard() {
                corner_mask(rights) ^ corner_mask(self.rights)
            } else {
                rights_mask(castles) ^ self.mask
            };
            for (bit, (color, side)) in RIGHTS.iter().enumerate() {
                if changed & (1 << bit) != 0 {
                    let Zobrist64(z) = Zobrist64::zobrist_for_castling_right(*color, *side);
                    k ^= z;
                }
            }
        }
        if after.maybe_ep_square().is_some()
            && let Some(sq) = after.legal_ep_square()
        {
            let Zobrist64(z) = Zobrist64::zobrist_for_en_passant_file(sq.file());
            k ^= z;
        }
        k
    }
}

/// The key after playing `m` from `before` (whose key is `key`), updated
/// incrementally: only the squares, rights and en passant file that change.
pub(crate) fn next_key(before: &Chess, key: u64, m: Move, after: &Chess) -> u64 {
    KeyStep::new(before, key, m).finish(after)
}

/// The key after `m` from `before` (whose key is `key`) without playing
/// the move, where the position after cannot differ in castling rights or
/// en passant from what the move alone says: no castling rights before,
/// and not a pawn's double step. `None` otherwise ([`next_key`] then).
/// A search that meets most positions again skips playing those moves.
pub(crate) fn key_unplayed(before: &Chess, key: u64, m: Move) -> Option<u64> {
    if before.castles().castling_rights().any() {
        return None;
    }
    if let Move::Normal {
        role: Role::Pawn,
        from,
        to,
        ..
    } = m
        && from.rank().distance(to.rank()) == 2
    {
        return None;
    }
    Some(KeyStep::new(before, key, m).partial)
}

/// The hasher of maps keyed by Zobrist keys (and other hashes), which are
/// random already: they hash as themselves, a lookup is a few instructions
/// where SipHash took most of its time.
///
/// ```
/// use std::collections::HashMap;
/// use pgnkit_replay::outcome::Keyed;
///
/// let mut seen: HashMap<u64, u8, Keyed> = HashMap::default();
/// *seen.entry(0x9d39_247e_3377_6d41).or_default() += 1;
/// assert_eq!(seen[&0x9d39_247e_3377_6d41], 1);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Keyed;

impl std::hash::BuildHasher for Keyed {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// The hasher of [`Keyed`].
#[derive(Debug, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of position keys: open addressing with linear probing over a
/// power-of-two table, indexed by the key's top bits (a Zobrist key is
/// already uniform), grown fourfold at half full. A few instructions a lookup, where
/// a general hash set spends tens; the dead-position searches make one or
/// two for every move they generate.
///
/// The empty slot is the key 0; a position whose key is 0 is stored as 1,
/// and so shares its slot with a position of key 1: as likely as any other
/// collision of 64-bit keys, which the searches already accept.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    slots: Vec<u64>,
    /// The table the set grows into, kept with its memory between
    /// growths and resets: a search that grew it does not map and fault in
    /// fresh pages again, which two threads would do in turn.
    spare: Vec<u64>,
    /// 64 minus the table's size in bits: the shift that gives a slot.
    shift: u32,
    len: usize,
}

impl KeySet {
    /// An empty set that holds `capacity` keys before it grows.
    #[cfg(test)]
    pub(crate) fn with_capacity(capacity: usize) -> KeySet {
        let mut set = KeySet::default();
        set.reset(capacity);
        set
    }

    /// Empties the set, with a table for `capacity` keys. The memory of a
    /// larger table is kept, but only as much of it as `capacity` needs is
    /// used: a small search is not spread over a large table.
    pub(crate) fn reset(&mut self, capacity: usize) {
        let size = (capacity.max(8) * 2).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, 0);
        self.shift = 64 - size.trailing_zeros();
        self.len = 0;
    }

    /// The memory the set keeps, in keys (its table and its spare).
    pub(crate) fn room(&self) -> usize {
        self.slots.capacity() + self.spare.capacity()
    }

    /// How many keys the set holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn slot(key: u64) -> u64 {
        key.max(1)
    }

    /// Where `key` is, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key >> self.shift) as usize;
        loop {
            let at = self.slots[i];
            if at == key || at == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Whether `key` is in the set.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        let key = KeySet::slot(key);
        !self.slots.is_empty() && self.slots[self.find(key)] == key
    }

    /// Adds `key`: `false` when it was there already.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let key = KeySet::slot(key);
        let i = self.find(key);
        if self.slots[i] == key {
            return false;
        }
        self.slots[i] = key;
        self.len += 1;
        true
    }

    #[cold]
    fn grow(&mut self) {
        // Four times the room: a large search rehashes its keys fewer times.
        let size = self.slots.len().max(8) * 4;
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        next.resize(size, 0);
        let old = std::mem::replace(&mut self.slots, next);
        self.shift = 64 - size.trailing_zeros();
        for &key in old.iter().filter(|&&k| k != 0) {
            let i = self.find(key);
            self.slots[i] = key;
        }
        self.spare = old;
    }
}

#[cfg(test)]
mod tests {
    use super::KeySet;
    use std::collections::HashSet;

    /// The set answers as std's `HashSet` (the reference) over keys with
    /// repeats, near neighbours and the edge keys 0 and 1, through many
    /// growths and a reset.
    #[test]
    fn the_key_set_answers_as_a_hash_set_would() {
        let mut rng = pgnkit_testkit::Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        let mut set = KeySet::with_capacity(4);
        let mut reference = HashSet::new();
        for round in 0..2 {
            set.reset(16);
            reference.clear();
            let mut pool: Vec<u64> = vec![2, 3, u64::MAX];
            for i in 0..50_000u64 {
                let key = match next() % 4 {
                    // a key met before
                    0 => pool[(next() % pool.len() as u64) as usize],
                    // keys that share their top bits
                    1 => (next() & 0xffff_0000_0000_0000) | (i & 0xff),
                    _ => next(),
                };
                pool.push(key);
                assert_eq!(
                    set.contains(key),
                    reference.contains(&key),
                    "round {round}, key {key:#x}"
                );
                assert_eq!(
                    set.insert(key),
                    reference.insert(key),
                    "round {round}, key {key:#x}"
                );
                assert_eq!(set.len(), reference.len());
            }
        }
        // 0 is kept as 1: the two keys are one (documented).
        let mut edge = KeySet::default();
        assert!(!edge.contains(0));
        assert!(edge.insert(0));
        assert!(edge.contains(0) && edge.contains(1));
        assert!(!edge.insert(1));
    }
}
