//! The opening of a chess game: its ECO code, opening and variation.
//!
//! A game is classified by the **last named position its main line
//! reaches**: positions, not move sequences, so that a game that
//! transposes into a named position is named by it. A position is known by
//! its Zobrist key with EPD identity (pieces, side to move, castling rights,
//! and the en passant square only where a capture there is legal): the key
//! [`pgnkit_replay`] computes for every main-line position
//! ([`GameReport::keys`], [`position_key`]), so classifying a game costs a
//! few hash lookups, no second replay. Probing stops at the table's deepest
//! line ([`Table::deepest`]).
//!
//! The table is the lichess chess-openings data set (3,807 named openings,
//! CC0 1.0; `data/README.md`), compiled into the binary with
//! `include_str!`: its lines are replayed into a hash map once, at the first
//! classification (about 2 ms in a release build: a one-game `check --games`
//! took 13.4 ms against 11.1 ms without the table, medians of 15).
//! Chess960 games and games from a position (a `FEN` tag) get no opening.
//!
//! A name is split at its first `:`: `Sicilian Defense: Najdorf Variation`
//! is the opening `Sicilian Defense`, variation `Najdorf Variation`.
//!
//! # Example
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//!
//! // The Najdorf, reached by a move order of its own.
//! let pgn = b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//!
//! let opening = pgnkit_opening::classify(&game, &report).unwrap();
//! assert_eq!(opening.eco(), "B92");
//! assert_eq!(opening.opening(), "Sicilian Defense");
//! assert_eq!(opening.variation(), Some("Najdorf Variation, Opocensky Variation"));
//! ```

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use pgnkit_pgn::Game;
use pgnkit_replay::outcome::{Keyed, position_key};
use pgnkit_replay::{Code, Diagnostic, GameReport, Severity};
use shakmaty::san::San;
use shakmaty::{Chess, Position};

/// The table's files, in order (the ECO volumes A to E).
const FILES: [&str; 5] = [
    include_str!("../data/a.tsv"),
    include_str!("../data/b.tsv"),
    include_str!("../data/c.tsv"),
    include_str!("../data/d.tsv"),
    include_str!("../data/e.tsv"),
];

/// A named opening of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    id: u16,
    eco: &'static str,
    name: &'static str,
}

impl Opening {
    /// Its place in the [`Table`] ([`Table::get`]): a small number an
    /// index can store.
    pub fn id(&self) -> u16 {
        self.id
    }

    /// The ECO code, `A00` to `E99`.
    pub fn eco(&self) -> &'static str {
        self.eco
    }

    /// The whole name: `Sicilian Defense: Najdorf Variation`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The opening: the name before its first `:` (`Sicilian Defense`).
    pub fn opening(&self) -> &'static str {
        self.name
            .split_once(':')
            .map_or(self.name, |(o, _)| o)
            .trim()
    }

    /// The variation: the name after its first `:` (`Najdorf Variation`),
    /// if it has one.
    pub fn variation(&self) -> Option<&'static str> {
        let (_, v) = self.name.split_once(':')?;
        Some(v.trim()).filter(|v| !v.is_empty())
    }
}

/// The table of named positions.
#[derive(Debug)]
pub struct Table {
    /// ECO code and name, in file order.
    openings: Vec<(&'static str, &'static str)>,
    /// Position key → place in `openings`.
    by_key: HashMap<u64, u16, Keyed>,
    /// A bit per value of a key's top [`FILTER_BITS`] bits, set for the
    /// named positions' keys: most positions of a game are named by none,
    /// and this 8 KiB says so without touching the map.
    filter: Vec<u64>,
    /// Plies of the longest line.
    deepest: u32,
}

/// Bits of a key that choose its bit in [`Table`]'s filter.
const FILTER_BITS: u32 = 16;

/// The filter bit of `key`: its top [`FILTER_BITS`] bits.
fn filter_bit(key: u64) -> usize {
    (key >> (64 - FILTER_BITS)) as usize
}

/// A line of the table whose moves do not replay (none does; tested).
#[derive(Debug)]
struct BadLine;

impl Table {
    /// Builds the table from the compiled-in files. A line that does not
    /// replay is left out (none is: see the tests).
    fn build() -> Table {
        let mut table = Table {
            openings: Vec::with_capacity(4096),
            by_key: HashMap::with_capacity_and_hasher(4096, Keyed),
            filter: vec![0; (1 << FILTER_BITS) / 64],
            deepest: 0,
        };
        for (eco, name, pgn) in FILES.iter().flat_map(|f| lines(f)) {
            let Ok(Some((pos, plies))) = play_line(pgn, |_| {}) else {
                continue;
            };
            let Ok(id) = u16::try_from(table.openings.len()) else {
                break;
            };
            // The first line of a position names it (no two do).
            if let std::collections::hash_map::Entry::Vacant(e) =
                table.by_key.entry(position_key(&pos))
            {
                e.insert(id);
                let bit = filter_bit(position_key(&pos));
                if let Some(word) = table.filter.get_mut(bit / 64) {
                    *word |= 1 << (bit % 64);
                }
                table.openings.push((eco, name));
                table.deepest = table.deepest.max(plies);
            }
        }
        table
    }

    /// Number of named openings.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether the table is empty (it is not).
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// Plies of the table's longest line: no position deeper in a game can
    /// be named.
    pub fn deepest(&self) -> u32 {
        self.deepest
    }

    /// The opening with this [`Opening::id`].
    pub fn get(&self, id: u16) -> Option<Opening> {
        let &(eco, name) = self.openings.get(usize::from(id))?;
        Some(Opening { id, eco, name })
    }

    /// The opening named by the position with this key ([`position_key`]).
    pub fn lookup(&self, key: u64) -> Option<Opening> {
        let bit = filter_bit(key);
        if self
            .filter
            .get(bit / 64)
            .is_none_or(|w| w & (1 << (bit % 64)) == 0)
        {
            return None;
        }
        self.get(*self.by_key.get(&key)?)
    }

    /// The opening of a line whose positions have these keys (the start
    /// first, as [`GameReport::keys`]): the last named one, looked for up
    /// to [`Table::deepest`] plies.
    pub fn classify_keys(&self, keys: &[u64]) -> Option<Opening> {
        let end = keys.len().min(self.deepest as usize + 1);
        keys.get(1..end)?.iter().rev().find_map(|&k| self.lookup(k))
    }

    /// Every opening, in table order.
    pub fn iter(&self) -> impl Iterator<Item = Opening> + '_ {
        (0..self.openings.len()).filter_map(|i| self.get(u16::try_from(i).ok()?))
    }
}

/// The lines of a table file: (eco, name, pgn), the header left out.
fn lines(file: &'static str) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    file.lines().skip(1).filter_map(|line| {
        let mut cols = line.split('\t');
        let (eco, name, pgn) = (cols.next()?, cols.next()?, cols.next()?);
        Some((eco.trim(), name.trim(), pgn.trim()))
    })
}

/// Plays a table line's moves (English SAN with move numbers) from the
/// standard position, showing each position reached to `each`: the last
/// position and the plies, or `None` for a line without moves.
fn play_line(pgn: &str, mut each: impl FnMut(&Chess)) -> Result<Option<(Chess, u32)>, BadLine> {
    let mut pos = Chess::default();
    let mut plies = 0u32;
    for word in pgn.split_ascii_whitespace() {
        if word.ends_with('.') || word.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let san = San::from_ascii(word.as_bytes()).map_err(|_| BadLine)?;
        let m = san.to_move(&pos).map_err(|_| BadLine)?;
        pos.play_unchecked(m);
        plies = plies.saturating_add(1);
        each(&pos);
    }
    Ok((plies > 0).then_some((pos, plies)))
}

/// A digest of the compiled-in table's text (FNV-1a, 32 bits, over its
/// files in order): what an index that stores [`Opening::id`]s records, so
/// that ids written with one table are never read with another.
///
/// ```
/// assert_eq!(pgnkit_opening::table_digest(), pgnkit_opening::table_digest());
/// assert_ne!(pgnkit_opening::table_digest(), 0);
/// ```
pub fn table_digest() -> u32 {
    static DIGEST: OnceLock<u32> = OnceLock::new();
    *DIGEST.get_or_init(|| {
        let mut h: u32 = 0x811c_9dc5;
        for file in FILES {
            for &b in file.as_bytes() {
                h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
            }
            // The files' boundaries count.
            h = (h ^ 0xff).wrapping_mul(0x0100_0193);
        }
        h.max(1)
    })
}

/// The table, built at its first use.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

/// Whether a game can be named: it starts from the standard position (no
/// `FEN` tag) and is not Chess960.
pub fn classifiable(game: &Game<'_>, report: &GameReport) -> bool {
    !report.chess960
        && game
            .tag("FEN")
            .is_none_or(|t| t.value().trim_ascii().is_empty())
}

/// The opening of a replayed game: the last named position its main line
/// reaches, `None` for a game that reaches none, a Chess960 game or a game
/// from a position ([`classifiable`]).
///
/// `report` must have the main line's keys: a replay with
/// [`Detail::Full`](pgnkit_replay::Detail::Full) or
/// [`Detail::Keys`](pgnkit_replay::Detail::Keys). A main line with an
/// error is classified up to the error.
pub fn classify(game: &Game<'_>, report: &GameReport) -> Option<Opening> {
    if !classifiable(game, report) {
        return None;
    }
    table().classify_keys(&report.keys)
}

/// The game's ECO tag, if it gives a code (an empty value or `?` gives
/// none): its value, trimmed, and the tag's span.
pub fn eco_tag(game: &Game<'_>) -> Option<(String, Range<usize>)> {
    let tag = game.tag("ECO")?;
    let value = String::from_utf8_lossy(&tag.value()).trim().to_owned();
    (!value.is_empty() && value != "?").then(|| (value, tag.span.clone()))
}

/// An `eco-mismatch` warning when the game's ECO tag names another code
/// than its `opening` (codes compared ignoring case).
pub fn eco_mismatch(game: &Game<'_>, opening: &Opening) -> Option<Diagnostic> {
    let (written, span) = eco_tag(game)?;
    if written.eq_ignore_ascii_case(opening.eco()) {
        return None;
    }
    let mut d = Diagnostic::new(
        Code::EcoMismatch,
        span,
        format!(
            "the ECO tag says {written}, but the moves reach {} ({})",
            opening.eco(),
            opening.name()
        ),
    );
    d.severity = Severity::Warning;
    d.help.push(format!(
        "write [ECO \"{}\"] (`convert --add-opening --replace-eco` does)",
        opening.eco()
    ));
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    use shakmaty::EnPassantMode;
    use shakmaty::fen::Epd;

    #[test]
    fn every_line_replays_and_names_its_own_position() {
        let t = table();
        let mut count = 0;
        for (eco, name, pgn) in FILES.iter().flat_map(|f| lines(f)) {
            let (pos, plies) = play_line(pgn, |_| {}).unwrap().unwrap();
            let found = t.lookup(position_key(&pos)).unwrap();
            assert_eq!((found.eco(), found.name()), (eco, name), "{pgn}");
            assert!(plies <= t.deepest());
            count += 1;
        }
        assert_eq!(count, 3807);
        assert_eq!(t.len(), 3807);
        assert_eq!(t.deepest(), 36);
    }

    #[test]
    fn no_two_positions_of_the_table_share_a_key() {
        // Every position of every line (the named ones and those on the
        // way): distinct EPDs have distinct keys, and the same EPD the same.
        let mut by_epd: HashMap<String, u64> = HashMap::new();
        for (_, _, pgn) in FILES.iter().flat_map(|f| lines(f)) {
            play_line(pgn, |pos| {
                let epd = Epd::from_position(pos, EnPassantMode::Legal).to_string();
                let key = position_key(pos);
                assert_eq!(*by_epd.entry(epd).or_insert(key), key);
            })
            .unwrap();
        }
        let keys: HashSet<u64> = by_epd.values().copied().collect();
        assert!(by_epd.len() > 3807, "{}", by_epd.len());
        assert_eq!(keys.len(), by_epd.len());
    }

    #[test]
    fn names_split_at_the_first_colon() {
        let t = table();
        let najdorf = t
            .iter()
            .find(|o| o.name() == "Sicilian Defense: Najdorf Variation")
            .unwrap();
        assert_eq!(najdorf.eco(), "B90");
        assert_eq!(najdorf.opening(), "Sicilian Defense");
        assert_eq!(najdorf.variation(), Some("Najdorf Variation"));
        let plain = t.iter().find(|o| o.name() == "Amar Opening").unwrap();
        assert_eq!(plain.variation(), None);
        assert_eq!(t.get(najdorf.id()), Some(najdorf));
        for o in t.iter() {
            assert!(!o.opening().is_empty() && !o.opening().contains(':'));
            assert!(o.eco().len() == 3 && matches!(o.eco().as_bytes()[0], b'A'..=b'E'));
        }
    }

    #[test]
    fn the_last_named_position_within_reach_names_the_line() {
        let t = table();
        let mut keys = vec![position_key(&Chess::default())];
        play_line("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6", |p| {
            keys.push(position_key(p))
        })
        .unwrap();
        assert_eq!(t.classify_keys(&keys).map(|o| o.eco()), Some("B90"));
        // Only the start: nothing named.
        assert_eq!(t.classify_keys(&keys[..1]), None);
        assert_eq!(t.classify_keys(&[]), None);
        // After 1. e4 only.
        assert_eq!(
            t.classify_keys(&keys[..2]).map(|o| o.name()),
            Some("King's Pawn Game")
        );
    }
}
