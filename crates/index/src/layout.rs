//! The index file format, version 4. Every number is little-endian; every
//! section starts at a multiple of 8 bytes. The file is read through a
//! memory map: a field is read where it lies, nothing is parsed up front.
//!
//! ```text
//! header (160 bytes)
//!   0  magic            8 bytes  "PGNKITIX"
//!   8  version          u32      4
//!  12  header size      u32      160
//!  16  pgn size         u64      bytes of the PGN file when indexed
//!  24  pgn mtime secs   i64      its modification time (seconds since 1970)
//!  32  pgn mtime nanos  u32
//!  36  pgn head crc     u32      CRC-32 of its first min(size, 64 KiB) bytes
//!  40  pgn tail crc     u32      CRC-32 of its last  min(size, 64 KiB) bytes
//!  44  bucket bits      u32      b: the position table has 2^b buckets
//!  48  games            u64      G
//!  56  strings          u64      S (string 0 is the empty string)
//!  64  positions        u64      P
//!  72  file size        u64      bytes of this index file
//!  80  games at         u64      offset of the game table
//!  88  strings at       u64      offset of the string offsets
//!  96  string data at   u64      offset of the string bytes
//! 104  positions at     u64      offset of the position table
//! 112  directory at     u64      offset of the bucket directory
//! 120  games crc        u32      CRC-32 of the game table
//! 124  strings crc      u32      CRC-32 of string offsets + string bytes
//! 128  directory crc    u32      CRC-32 of the directory + bucket CRCs
//! 132  openings         u32      digest of the opening table the games were
//!                                named with (`pgnkit_opening::table_digest`)
//! 136  reserved         20 bytes zero
//! 156  header crc       u32      CRC-32 of bytes 0..156
//!
//! game table: G records of 80 bytes, in file order (game n is record n-1)
//!   0  offset     u64   byte offset of the game in the PGN file
//!   8  length     u32   its length in bytes
//!  12  plies      u32   main-line plies replayed
//!  16  white      u32   string id   20 black  u32   24 event  u32
//!  28  site       u32   string id   32 round  u32   36 date   u32 (as written)
//!  40  date       u32   YYYYMMDD, unknown parts 00, no year 0 (sortable)
//!  44  white elo  u16   0: none     46 black elo u16
//!  48  eco        u16   the ECO tag: (letter-'A')*100 + number; 0xFFFF: none
//!  50  result     u8    0 none, 1 "1-0", 2 "0-1", 3 "1/2-1/2", 4 "*"
//!  51  status     u8    0 not replayed, 1 checkmate, 2 stalemate,
//!                       3 insufficient-material, 4 fivefold-repetition,
//!                       5 seventyfive-moves, 6 ongoing, 7 invalid,
//!                       8 unsupported (a variant that is not replayed),
//!                       9 dead-position, 10 flag-fell (a flag that fell),
//!                       11 second-illegal-move (Law 7.5.5)
//!  52  errors     u16   errors the replay found (saturating)
//!  54  opening    u16   the opening the main line reaches: 1 + its id in
//!                       the opening table (`pgnkit_opening::Opening::id`),
//!                       0: none (not named, Chess960, from a FEN)
//!  56  line       u128  fingerprint of the main line replayed (the chain
//!                       of its positions' keys, as `pgnkit dedup`
//!                       computes it; 0 when not replayed)
//!  72  tagged     u32   tags with a value (not empty, `?` or `????.??.??`)
//!  76  annotation u32   comments, NAGs and variations
//!
//! strings: S+1 u64 offsets into the string bytes (string i is
//!   bytes[off[i]..off[i+1]], UTF-8), then the bytes, padded to 8. Ids
//!   are given in order of first appearance; a name is stored once while
//!   the writer's name cache holds it, so in a file of millions of
//!   distinct names some are stored more than once (readers must not
//!   assume one id per name).
//!
//! position table: P entries of 8 bytes, sorted by (key, game):
//!   0  key bits   u32   bits 63-b .. 32-b of the Zobrist key (the 32 bits
//!                       below the b bucket bits)
//!   4  game       u32   0-based game number
//!
//! directory: 2^b + 1 u64 entry indexes (bucket i is entries
//!   dir[i]..dir[i+1]), then 2^b u32 CRC-32s of each bucket's entries,
//!   padded to 8.
//! ```
//!
//! A key is the Zobrist hash of a main-line position with the identity of
//! Law 9.2 (pieces, side to move, castling rights, legal en passant), as
//! `pgnkit_replay::outcome::position_key` computes it; each (position, game)
//! pair is stored once. The top `b` bits choose the bucket, the next 32 are
//! stored: `b + 32` bits of the key are compared.
//!
//! Version 1 (before 0.1's dedup) had 56-byte game records, without
//! `line`, `tagged` and `annotation`; version 2 had no `opening` (its
//! bytes were reserved, zero) and no `openings` digest; version 3 had
//! the same layout, but its `line` fingerprints folded each key with two
//! SplitMix64 finalizers (see [`pgnkit_facts::mainline`]), so they match no
//! fingerprint computed now. All three are refused with the advice to rebuild the index, and so is an index whose
//! `openings` digest is not the compiled-in table's (its ids would name
//! other openings).
//!
//! Checks on open: magic, version, header CRC, file size (a truncated file
//! is refused), then the PGN's size, mtime, head and tail CRCs (a stale
//! index is refused). A section's CRC is checked when a search first uses
//! the section, and a bucket's CRC when a position search reads it.

use pgnkit_replay::Status;

/// The magic bytes.
pub const MAGIC: [u8; 8] = *b"PGNKITIX";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 4;
/// Size of the header.
pub const HEADER_SIZE: usize = 160;
/// Size of a game record.
pub const GAME_SIZE: usize = 80;
/// Size of a position entry.
pub const POSITION_SIZE: usize = 8;
/// Bytes hashed at each end of the PGN file.
pub const PGN_SAMPLE: u64 = 64 << 10;
/// The most bucket bits.
pub const MAX_BUCKET_BITS: u32 = 24;
/// About how many entries a bucket holds.
pub const BUCKET_TARGET: u64 = 256;

/// Header field offsets.
pub mod header {
    /// `version`.
    pub const VERSION: usize = 8;
    /// `header size`.
    pub const HEADER_SIZE: usize = 12;
    /// `pgn size`.
    pub const PGN_SIZE: usize = 16;
    /// `pgn mtime secs`.
    pub const PGN_MTIME_SECS: usize = 24;
    /// `pgn mtime nanos`.
    pub const PGN_MTIME_NANOS: usize = 32;
    /// `pgn head crc`.
    pub const PGN_HEAD_CRC: usize = 36;
    /// `pgn tail crc`.
    pub const PGN_TAIL_CRC: usize = 40;
    /// `bucket bits`.
    pub const BUCKET_BITS: usize = 44;
    /// `games`.
    pub const GAMES: usize = 48;
    /// `strings`.
    pub const STRINGS: usize = 56;
    /// `positions`.
    pub const POSITIONS: usize = 64;
    /// `file size`.
    pub const FILE_SIZE: usize = 72;
    /// `games at`.
    pub const GAMES_AT: usize = 80;
    /// `strings at`.
    pub const STRINGS_AT: usize = 88;
    /// `string data at`.
    pub const STRING_DATA_AT: usize = 96;
    /// `positions at`.
    pub const POSITIONS_AT: usize = 104;
    /// `directory at`.
    pub const DIRECTORY_AT: usize = 112;
    /// `games crc`.
    pub const GAMES_CRC: usize = 120;
    /// `strings crc`.
    pub const STRINGS_CRC: usize = 124;
    /// `directory crc`.
    pub const DIRECTORY_CRC: usize = 128;
    /// `openings`.
    pub const OPENINGS: usize = 132;
    /// `header crc`.
    pub const HEADER_CRC: usize = 156;
}

/// Game record field offsets.
pub mod game {
    /// `offset`.
    pub const OFFSET: usize = 0;
    /// `length`.
    pub const LENGTH: usize = 8;
    /// `plies`.
    pub const PLIES: usize = 12;
    /// The six string ids (White, Black, Event, Site, Round, Date).
    pub const TEXTS: usize = 16;
    /// `date`.
    pub const DATE: usize = 40;
    /// `white elo`.
    pub const WHITE_ELO: usize = 44;
    /// `black elo`.
    pub const BLACK_ELO: usize = 46;
    /// `eco`.
    pub const ECO: usize = 48;
    /// `result`.
    pub const RESULT: usize = 50;
    /// `status`.
    pub const STATUS: usize = 51;
    /// `errors`.
    pub const ERRORS: usize = 52;
    /// `opening`.
    pub const OPENING: usize = 54;
    /// `line`.
    pub const LINE: usize = 56;
    /// `tagged`.
    pub const TAGGED: usize = 72;
    /// `annotation`.
    pub const ANNOTATION: usize = 76;
}

/// The bucket bits for `positions` entries.
pub fn bucket_bits(positions: u64) -> u32 {
    let per = (positions / BUCKET_TARGET).max(1);
    (63 - per.leading_zeros()).min(MAX_BUCKET_BITS)
}

/// The bucket of a key.
pub fn bucket(key: u64, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        (key >> (64 - bits)) as usize
    }
}

/// The 32 key bits stored in an entry.
pub fn key_bits(key: u64, bits: u32) -> u32 {
    ((key << bits) >> 32) as u32
}

/// Reads a little-endian `u64` at `at` (0 when out of bounds).
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    at.checked_add(8)
        .and_then(|end| b.get(at..end))
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// Reads a little-endian `u32` at `at` (0 when out of bounds).
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    at.checked_add(4)
        .and_then(|end| b.get(at..end))
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// Reads a little-endian `u16` at `at` (0 when out of bounds).
pub fn u16_at(b: &[u8], at: usize) -> u16 {
    at.checked_add(2)
        .and_then(|end| b.get(at..end))
        .and_then(|s| s.try_into().ok())
        .map_or(0, u16::from_le_bytes)
}

/// Status codes as stored: code `i + 1` is `STATUSES[i]` (0: not replayed).
pub const STATUSES: [Status; 11] = [
    Status::Checkmate,
    Status::Stalemate,
    Status::InsufficientMaterial,
    Status::FivefoldRepetition,
    Status::SeventyfiveMoves,
    Status::Ongoing,
    Status::Invalid,
    Status::Unsupported,
    Status::DeadPosition,
    Status::FlagFell,
    Status::SecondIllegalMove,
];

/// The stored code of a status. The match is exhaustive, so that a new
/// status cannot be added without a code.
pub fn status_code(status: Option<Status>) -> u8 {
    match status {
        None => 0,
        Some(Status::Checkmate) => 1,
        Some(Status::Stalemate) => 2,
        Some(Status::InsufficientMaterial) => 3,
        Some(Status::FivefoldRepetition) => 4,
        Some(Status::SeventyfiveMoves) => 5,
        Some(Status::Ongoing) => 6,
        Some(Status::Invalid) => 7,
        Some(Status::Unsupported) => 8,
        Some(Status::DeadPosition) => 9,
        Some(Status::FlagFell) => 10,
        Some(Status::SecondIllegalMove) => 11,
    }
}

/// The status of a stored code.
pub fn status_of(code: u8) -> Option<Status> {
    STATUSES.get(usize::from(code).checked_sub(1)?).copied()
}

/// CRC-32 (IEEE) of `bytes`.
pub fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_out_of_bounds_are_zero_even_near_usize_max() {
        let b = [1u8; 16];
        assert_eq!(u64_at(&b, 8), 0x0101_0101_0101_0101);
        assert_eq!(u64_at(&b, 9), 0);
        for at in [usize::MAX, usize::MAX - 1, usize::MAX - 7] {
            assert_eq!(u64_at(&b, at), 0);
            assert_eq!(u32_at(&b, at), 0);
            assert_eq!(u16_at(&b, at), 0);
        }
    }

    #[test]
    fn buckets_split_keys_by_their_top_bits() {
        assert_eq!(bucket_bits(0), 0);
        assert_eq!(bucket_bits(511), 0);
        assert_eq!(bucket_bits(512), 1);
        assert_eq!(bucket_bits(70_000_000), 18);
        assert_eq!(bucket_bits(u64::MAX), MAX_BUCKET_BITS);
        let key = 0xABCD_EF01_2345_6789u64;
        assert_eq!(bucket(key, 0), 0);
        assert_eq!(bucket(key, 8), 0xAB);
        assert_eq!(key_bits(key, 8), 0xCDEF_0123);
        assert_eq!(key_bits(key, 0), 0xABCD_EF01);
    }

    #[test]
    fn every_status_has_its_own_code() {
        assert_eq!(status_of(status_code(None)), None);
        for s in STATUSES {
            assert_eq!(status_of(status_code(Some(s))), Some(s));
        }
        assert_eq!(status_of(200), None);
    }
}
