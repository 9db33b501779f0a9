//! The filters that look at the game itself: any tag, draw claims, the
//! opening moves, a position at one ply, material and board patterns. The
//! index does not store what they test, so a search with an index reads
//! (and replays, where needed) the games that pass the stored filters, as
//! a scan does: both test them with [`Probe::matches`].
//!
//! ```
//! use pgnkit_index::probe::{Probe, TagTest};
//! use pgnkit_pgn::{Game, Reader};
//!
//! let pgn = b"[Annotator \"Kasparov\"]\n[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let probe = Probe {
//!     tags: vec![TagTest::parse("Annotator~kasp").unwrap(), TagTest::parse("PlyCount>=3").unwrap()],
//!     ..Probe::default()
//! };
//! assert!(probe.matches(pgn, &game, None, None));
//! let probe = Probe { tags: vec![TagTest::parse("PlyCount<=2").unwrap()], ..Probe::default() };
//! assert!(!probe.matches(pgn, &game, None, None));
//! ```

use pgnkit_facts::Date;
use pgnkit_pgn::Game;
use pgnkit_replay::{ClaimKind, Encoding, GameReport};
use shakmaty::{Board, Position};

use crate::line::MoveLine;
use crate::material::Material;
use crate::needle::Needle;
use crate::pattern::BoardPattern;

/// How a [`TagTest`] compares.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TagOp {
    /// `NAME=VALUE`: the value is VALUE (ignoring case and surrounding
    /// spaces).
    Equals(String),
    /// `NAME~VALUE`: the value contains VALUE (ignoring case).
    Contains(Needle),
    /// `NAME>=N`, `NAME<=N`: a number.
    Number { at_least: bool, n: i64 },
    /// `NAME>=D`, `NAME<=D`: a date (a partial date matches when any day
    /// it can be passes).
    Date { at_least: bool, d: Date },
}

/// A test of one tag: `NAME=VALUE`, `NAME~VALUE`, `NAME>=VALUE` or
/// `NAME<=VALUE` (numbers and dates). A game without the tag never passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagTest {
    name: String,
    op: TagOp,
}

impl TagTest {
    /// Reads `NAME=VALUE`, `NAME~VALUE`, `NAME>=VALUE` or `NAME<=VALUE`.
    pub fn parse(text: &str) -> Result<TagTest, String> {
        let bad = |why: &str| format!("bad tag test `{text}`: {why}");
        let at = text
            .find(['=', '~', '>', '<'])
            .ok_or_else(|| bad("use NAME=VALUE, NAME~VALUE, NAME>=VALUE or NAME<=VALUE"))?;
        let name = text[..at].trim();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(bad("the tag name is letters, digits and `_`"));
        }
        let rest = &text[at..];
        let op = if let Some(v) = rest.strip_prefix(">=").or_else(|| rest.strip_prefix("<=")) {
            let at_least = rest.starts_with('>');
            let v = v.trim();
            if let Ok(n) = v.parse::<i64>() {
                TagOp::Number { at_least, n }
            } else if Date::parse(v).is_known() {
                TagOp::Date {
                    at_least,
                    d: Date::parse(v),
                }
            } else {
                return Err(bad(">= and <= compare a number or a date (YYYY.MM.DD)"));
            }
        } else if let Some(v) = rest.strip_prefix('=') {
            TagOp::Equals(v.trim().to_lowercase())
        } else if let Some(v) = rest.strip_prefix('~') {
            TagOp::Contains(Needle::new(v))
        } else {
            return Err(bad(
                "use NAME=VALUE, NAME~VALUE, NAME>=VALUE or NAME<=VALUE",
            ));
        };
        Ok(TagTest {
            name: name.to_owned(),
            op,
        })
    }

    /// A substring test of one tag (`NAME~VALUE`).
    pub fn contains(name: &str, value: &str) -> TagTest {
        TagTest {
            name: name.to_owned(),
            op: TagOp::Contains(Needle::new(value)),
        }
    }

    /// Whether the tag's value (`None`: no such tag) passes.
    pub fn passes(&self, value: Option<&str>) -> bool {
        let Some(v) = value else {
            return false;
        };
        match &self.op {
            TagOp::Equals(want) => v.trim().to_lowercase() == *want,
            TagOp::Contains(needle) => needle.is_in(v),
            TagOp::Number { at_least, n } => match v.trim().parse::<i64>() {
                Ok(x) if *at_least => x >= *n,
                Ok(x) => x <= *n,
                Err(_) => false,
            },
            TagOp::Date { at_least, d } => {
                let g = Date::parse(v);
                g.is_known()
                    && if *at_least {
                        g.latest() >= d.earliest()
                    } else {
                        g.earliest() <= d.latest()
                    }
            }
        }
    }
}

/// What is tested on the game itself. `Default` tests nothing.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// Tag tests, all of which must pass.
    pub tags: Vec<TagTest>,
    /// A draw of this kind became claimable.
    pub claim: Option<ClaimKind>,
    /// The main line starts with these moves.
    pub moves: Option<MoveLine>,
    /// The filter's position is the one after exactly this many plies
    /// (with [`Filter::position`](crate::Filter::position)).
    pub ply: Option<u32>,
    /// This material balance occurs (and lasts).
    pub material: Option<Material>,
    /// A main-line position fits one of these board patterns.
    pub boards: Vec<BoardPattern>,
}

impl Probe {
    /// Whether the probe tests nothing.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && !self.needs_replay()
    }

    /// Whether the probe needs the game replayed.
    pub fn needs_replay(&self) -> bool {
        self.claim.is_some()
            || self.moves.is_some()
            || self.ply.is_some()
            || self.material.is_some()
            || !self.boards.is_empty()
    }

    /// Whether the probe needs the claims of the replay (a replay with
    /// [`Detail::Full`](pgnkit_replay::Detail::Full)).
    pub fn needs_claims(&self) -> bool {
        self.claim.is_some()
    }

    /// Whether `game`, read from `input`, passes; `report` is its replay
    /// (`None`: not replayed, and then every test that needs it fails),
    /// `position` the key the filter's position has.
    pub fn matches(
        &self,
        input: &[u8],
        game: &Game<'_>,
        report: Option<&GameReport>,
        position: Option<u64>,
    ) -> bool {
        if !self.tags.is_empty() {
            let encoding = match report {
                Some(r) => r.encoding,
                None => Encoding::detect(input.get(game.span.clone()).unwrap_or_default()),
            };
            for test in &self.tags {
                let value = game
                    .tags
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(test.name.as_bytes()))
                    .map(|t| encoding.decode(&t.value()).into_owned());
                if !test.passes(value.as_deref()) {
                    return false;
                }
            }
        }
        if !self.needs_replay() {
            return true;
        }
        let Some(report) = report else {
            return false;
        };
        if let Some(kind) = self.claim
            && !report.claims.iter().any(|c| c.kind == kind)
        {
            return false;
        }
        if let (Some(ply), Some(key)) = (self.ply, position)
            && report.keys.get(ply as usize) != Some(&key)
        {
            return false;
        }
        let played: Vec<shakmaty::Move> = report.moves.iter().map(|m| m.played).collect();
        if let Some(line) = &self.moves
            && !line.starts(&report.start, &played, report.language)
        {
            return false;
        }
        if self.material.is_some() || !self.boards.is_empty() {
            let mut pos = report.start.clone();
            let mut boards: Vec<Board> = Vec::with_capacity(played.len() + 1);
            boards.push(pos.board().clone());
            for m in &played {
                pos.play_unchecked(*m);
                boards.push(pos.board().clone());
            }
            if let Some(material) = &self.material
                && !material.found(&boards)
            {
                return false;
            }
            if !self.boards.is_empty()
                && !boards
                    .iter()
                    .any(|b| self.boards.iter().any(|p| p.matches(b)))
            {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_tests_compare_numbers_dates_and_text() {
        let t = |s: &str| TagTest::parse(s).unwrap();
        assert!(t("Round=3").passes(Some(" 3 ")));
        assert!(!t("Round=3").passes(Some("3.1")));
        assert!(t("Round~3").passes(Some("13.1")));
        assert!(t("WhiteElo>=2700").passes(Some("2785")));
        assert!(!t("WhiteElo>=2700").passes(Some("?")));
        assert!(t("Date<=1972.07.01").passes(Some("1972.??.??")));
        assert!(!t("Date>=1973").passes(Some("1972.12.31")));
        assert!(!t("Opening~x").passes(None));
        for bad in ["Round", "=3", "Elo>=high", "Bad name=1"] {
            assert!(TagTest::parse(bad).is_err(), "{bad}");
        }
    }
}
