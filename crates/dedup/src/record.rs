//! What is kept of each game: its fingerprint, where it is, a small digest
//! of its tags, and how complete and annotated it is (to choose which game
//! of a cluster to keep).

use pgnkit_facts::{Date, GameFacts};
use pgnkit_pgn::{Game, GameResult};
use pgnkit_replay::GameReport;

use crate::fingerprint::LineFingerprint;

/// Where a game is: the input (its number in the run), the game's 1-based
/// number in it, and the byte offset of its first tag or token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Source {
    /// The input's number in the run (0 for the first).
    pub file: u32,
    /// The game's 1-based number in its input.
    pub game: u64,
    /// The byte offset of the game in its input (decompressed).
    pub byte: u64,
}

/// The tags compared between copies of one game, as 32-bit hashes of their
/// folded values (lower case, letters and digits only; `0`: missing or
/// `?`), the date as a partial date and the result as a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagDigest {
    names: [u32; 5],
    date: Date,
    result: Option<GameResult>,
}

/// The compared tags, in the order of the digest's hashes, then `Date` and
/// `Result`.
pub const COMPARED_TAGS: [&str; 7] = ["White", "Black", "Event", "Site", "Round", "Date", "Result"];

fn fold(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let mut any = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            any = true;
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
            }
        }
    }
    if any { h.max(1) } else { 0 }
}

/// Bytes of a [`TagDigest`] encoded.
pub(crate) const TAG_DIGEST_SIZE: usize = 25;

impl TagDigest {
    /// Writes the digest into `out` ([`TAG_DIGEST_SIZE`] bytes).
    pub(crate) fn encode(&self, out: &mut [u8]) {
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            if let Some(slot) = out.get_mut(at..at + bytes.len()) {
                slot.copy_from_slice(bytes);
            }
            at += bytes.len();
        };
        for n in self.names {
            put(&n.to_le_bytes());
        }
        put(&self.date.0.to_le_bytes());
        put(&[GameResult::code_of(self.result)]);
    }

    /// The digest [`TagDigest::encode`] wrote into `b`.
    pub(crate) fn decode(b: &[u8]) -> TagDigest {
        let mut f = Fields(b);
        TagDigest::read(&mut f)
    }

    fn read(f: &mut Fields<'_>) -> TagDigest {
        let names = [f.u32(), f.u32(), f.u32(), f.u32(), f.u32()];
        let date = Date(f.u32());
        let result = GameResult::from_code(f.u8());
        TagDigest {
            names,
            date,
            result,
        }
    }

    /// The digest of a game's facts.
    pub fn of(facts: &GameFacts<'_>) -> TagDigest {
        let t = &facts.texts;
        TagDigest {
            names: [
                fold(&t[0]),
                fold(&t[1]),
                fold(&t[2]),
                fold(&t[3]),
                fold(&t[4]),
            ],
            date: facts.date,
            result: facts.outcome,
        }
    }

    /// The compared tags that both games give and that disagree
    /// ([`COMPARED_TAGS`]); `with_result`: the Result tag is compared too.
    /// Partial dates agree when they can be the same day; a missing or
    /// `*` result agrees with any.
    pub fn differing(&self, other: &TagDigest, with_result: bool) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (i, (a, b)) in self.names.iter().zip(&other.names).enumerate() {
            if *a != 0 && *b != 0 && a != b {
                out.push(COMPARED_TAGS[i]);
            }
        }
        let (a, b) = (self.date, other.date);
        if a.is_known() && b.is_known() && (a.earliest() > b.latest() || b.earliest() > a.latest())
        {
            out.push("Date");
        }
        let decided = |r: Option<GameResult>| {
            matches!(
                r,
                Some(GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw)
            )
        };
        if with_result
            && decided(self.result)
            && decided(other.result)
            && self.result != other.result
        {
            out.push("Result");
        }
        out
    }
}

/// What is kept of one game (about 90 bytes, whatever its length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where it is.
    pub source: Source,
    /// The fingerprint of its main line from its start position.
    pub line: LineFingerprint,
    /// The Zobrist key of its position at the fuzzy depth, when it asked
    /// for one and the line reaches it.
    pub fuzzy: Option<u64>,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The replay found an error: the line is the moves before the first
    /// one.
    pub incomplete: bool,
    /// The compared tags.
    pub tags: TagDigest,
    /// Tags with a value (not empty, not `?`, not `????.??.??`).
    pub completeness: u32,
    /// Comments, NAGs and variations.
    pub annotation: u32,
    /// The game is of a database given with `--against` (known already).
    pub known: bool,
}

impl GameRecord {
    /// The record of `game`, read from `input` (the bytes its reader read,
    /// starting at byte `base` of its input), replayed as `report` (with
    /// [`pgnkit_replay::Detail::Keys`] or `Full`, so that it has the keys).
    /// `fuzzy_depth`: the ply whose position [`GameRecord::fuzzy`] keeps.
    pub fn new(
        input: &[u8],
        base: usize,
        game: &Game<'_>,
        report: &GameReport,
        fuzzy_depth: Option<u32>,
    ) -> GameRecord {
        let facts = GameFacts::new(input, base, game, Some(report));
        let fuzzy = fuzzy_depth
            .and_then(|d| usize::try_from(d).ok())
            .and_then(|d| report.keys.get(d).copied());
        GameRecord {
            fuzzy,
            ..GameRecord::of_facts(&facts)
        }
    }

    /// The record of a game of the facts `facts` (of a replayed game, as
    /// [`GameFacts::new`] or an index gives them), without a position at a
    /// fuzzy depth.
    pub fn of_facts(facts: &GameFacts<'_>) -> GameRecord {
        GameRecord {
            source: Source {
                file: 0,
                game: 0,
                byte: facts.offset,
            },
            line: facts.line,
            fuzzy: None,
            plies: facts.plies,
            incomplete: facts.errors > 0,
            tags: TagDigest::of(facts),
            completeness: facts.tagged,
            annotation: facts.annotation,
            known: false,
        }
    }
}

/// Bytes of a [`GameRecord`] encoded ([`GameRecord::encode`]).
pub const ENCODED_SIZE: usize = 83;

/// Reads fixed-size little-endian fields one after the other.
struct Fields<'b>(&'b [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some((head, rest)) = self.0.split_at_checked(N) {
            out.copy_from_slice(head);
            self.0 = rest;
        }
        out
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

impl GameRecord {
    /// Writes the record into `out` ([`ENCODED_SIZE`] bytes), to be
    /// spilled to disk and read back by [`GameRecord::decode`].
    pub fn encode(&self, out: &mut [u8]) {
        let mut v = [0u8; ENCODED_SIZE];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            if let Some(slot) = v.get_mut(at..at + bytes.len()) {
                slot.copy_from_slice(bytes);
            }
            at += bytes.len();
        };
        put(&self.source.file.to_le_bytes());
        put(&self.source.game.to_le_bytes());
        put(&self.source.byte.to_le_bytes());
        put(&self.line.to_le_bytes());
        put(&[u8::from(self.fuzzy.is_some())]);
        put(&self.fuzzy.unwrap_or(0).to_le_bytes());
        put(&self.plies.to_le_bytes());
        put(&[u8::from(self.incomplete) | (u8::from(self.known) << 1)]);
        let mut tags = [0u8; TAG_DIGEST_SIZE];
        self.tags.encode(&mut tags);
        put(&tags);
        put(&self.completeness.to_le_bytes());
        put(&self.annotation.to_le_bytes());
        debug_assert_eq!(at, ENCODED_SIZE);
        let n = ENCODED_SIZE.min(out.len());
        out[..n].copy_from_slice(&v[..n]);
    }

    /// The record that [`GameRecord::encode`] wrote into `b`.
    pub fn decode(b: &[u8]) -> GameRecord {
        let mut f = Fields(b);
        let source = Source {
            file: f.u32(),
            game: f.u64(),
            byte: f.u64(),
        };
        let line = u128::from_le_bytes(f.take());
        let has_fuzzy = f.u8() != 0;
        let fuzzy = f.u64();
        let plies = f.u32();
        let flags = f.u8();
        let tags = TagDigest::read(&mut f);
        GameRecord {
            source,
            line,
            fuzzy: has_fuzzy.then_some(fuzzy),
            plies,
            incomplete: flags & 1 != 0,
            known: flags & 2 != 0,
            tags,
            completeness: f.u32(),
            annotation: f.u32(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_it_was_encoded() {
        let pgn = include_bytes!("../../../testdata/index/london1851.pgn");
        let options = pgnkit_replay::Options {
            language: None,
            suggestions: false,
            detail: pgnkit_replay::Detail::Keys,
            ..pgnkit_replay::Options::default()
        };
        let mut reader = pgnkit_pgn::Reader::new(pgn);
        let mut game = Game::default();
        let mut n = 0;
        while reader.read_game(&mut game) {
            let report = pgnkit_replay::replay_game(pgn, &game, &options);
            let mut r = GameRecord::new(pgn, 0, &game, &report, Some(7));
            r.source.game = n;
            r.known = n % 3 == 0;
            let mut bytes = [0u8; ENCODED_SIZE];
            r.encode(&mut bytes);
            assert_eq!(GameRecord::decode(&bytes), r);
            n += 1;
        }
        assert!(n > 80);
    }
}
