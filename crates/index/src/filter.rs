//! Search filters and their one meaning, whether a game is tested from the
//! index or from a scan of the PGN file.
//!
//! All filters combine with AND:
//! - names (`white`, `black`, `player` = either side, `event`, `site`): the
//!   tag contains the text, ignoring case;
//! - `outcome`: the Result tag;
//! - `eco`: the ECO tag lies in the range;
//! - dates: a partial date (`1972.??.??`) stands for every day it can be,
//!   and matches when any of them lies in the range; a game without a year
//!   never matches a date filter;
//! - `min_elo`: both players are rated at least that much (a game with a
//!   missing rating does not match);
//! - `position`: the position key occurs in the game's main line (the
//!   caller tests it: a binary search in the index, a replay in a scan).

use crate::record::{GameFacts, TextTag};
use crate::tags::{Date, Eco, Needle, Outcome};

/// What to search for. `Default` matches every game.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// White contains this.
    pub white: Option<Needle>,
    /// Black contains this.
    pub black: Option<Needle>,
    /// White or Black contains this.
    pub player: Option<Needle>,
    /// Event contains this.
    pub event: Option<Needle>,
    /// Site contains this.
    pub site: Option<Needle>,
    /// The Result tag is this.
    pub outcome: Option<Outcome>,
    /// The ECO code lies in this range (inclusive).
    pub eco: Option<(Eco, Eco)>,
    /// The game can be on or after this date.
    pub date_from: Option<Date>,
    /// The game can be on or before this date.
    pub date_to: Option<Date>,
    /// Both players are rated at least this.
    pub min_elo: Option<u16>,
    /// The Zobrist key (Law 9.2 identity) of a main-line position.
    pub position: Option<u64>,
}

/// A name filter's slot, for callers that remember answers per string.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `white`.
    White = 0,
    /// `black`.
    Black = 1,
    /// `player`.
    Player = 2,
    /// `event`.
    Event = 3,
    /// `site`.
    Site = 4,
}

/// A game as a filter sees it.
pub trait Subject {
    /// Whether the text tag `tag` contains `needle` (the needle of `slot`).
    fn text_has(&mut self, tag: TextTag, slot: Slot, needle: &Needle) -> bool;
    /// The date.
    fn date(&self) -> Date;
    /// The ECO code.
    fn eco(&self) -> Option<Eco>;
    /// White's and Black's ratings (0: none).
    fn elos(&self) -> (u16, u16);
    /// The Result tag.
    fn outcome(&self) -> Outcome;
}

impl Subject for GameFacts<'_> {
    fn text_has(&mut self, tag: TextTag, _slot: Slot, needle: &Needle) -> bool {
        needle.is_in(self.text(tag))
    }
    fn date(&self) -> Date {
        self.date
    }
    fn eco(&self) -> Option<Eco> {
        self.eco
    }
    fn elos(&self) -> (u16, u16) {
        (self.white_elo, self.black_elo)
    }
    fn outcome(&self) -> Outcome {
        self.outcome
    }
}

impl Filter {
    /// Whether the filter tests anything besides the position.
    pub fn has_tag_filters(&self) -> bool {
        self.white.is_some()
            || self.black.is_some()
            || self.player.is_some()
            || self.event.is_some()
            || self.site.is_some()
            || self.outcome.is_some()
            || self.eco.is_some()
            || self.date_from.is_some()
            || self.date_to.is_some()
            || self.min_elo.is_some()
    }

    /// Whether a game passes every filter but `position` (which the caller
    /// tests).
    pub fn matches<S: Subject>(&self, g: &mut S) -> bool {
        if let Some(o) = self.outcome
            && g.outcome() != o
        {
            return false;
        }
        if let Some((lo, hi)) = self.eco {
            match g.eco() {
                Some(e) if e >= lo && e <= hi => {}
                _ => return false,
            }
        }
        if self.date_from.is_some() || self.date_to.is_some() {
            let d = g.date();
            if !d.is_known() {
                return false;
            }
            if let Some(from) = self.date_from
                && d.latest() < from.earliest()
            {
                return false;
            }
            if let Some(to) = self.date_to
                && d.earliest() > to.latest()
            {
                return false;
            }
        }
        if let Some(min) = self.min_elo {
            let (w, b) = g.elos();
            if w < min || b < min || w == 0 || b == 0 {
                return false;
            }
        }
        let mut text = |tag: TextTag, slot: Slot, needle: &Option<Needle>| {
            needle.as_ref().is_none_or(|n| g.text_has(tag, slot, n))
        };
        if !text(TextTag::White, Slot::White, &self.white)
            || !text(TextTag::Black, Slot::Black, &self.black)
            || !text(TextTag::Event, Slot::Event, &self.event)
            || !text(TextTag::Site, Slot::Site, &self.site)
        {
            return false;
        }
        if let Some(n) = &self.player
            && !g.text_has(TextTag::White, Slot::Player, n)
            && !g.text_has(TextTag::Black, Slot::Player, n)
        {
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_pgn::{Game, Reader};

    fn facts(pgn: &[u8]) -> GameFacts<'_> {
        let mut reader = Reader::new(pgn);
        let mut game = Game::default();
        assert!(reader.read_game(&mut game));
        GameFacts::new(pgn, 0, &game, None)
    }

    const FISCHER: &[u8] = b"[Event \"World Championship 28th\"]\n[Site \"Reykjavik ISL\"]\n\
[Date \"1972.??.??\"]\n[White \"Spassky, Boris V\"]\n[Black \"Fischer, Robert James\"]\n\
[Result \"0-1\"]\n[WhiteElo \"2660\"]\n[BlackElo \"2785\"]\n[ECO \"E56\"]\n\n1. d4 Nf6 0-1\n";

    #[test]
    fn every_filter_on_one_game() {
        let mut g = facts(FISCHER);
        let yes = |f: Filter, g: &mut GameFacts<'_>| f.matches(g);
        assert!(yes(Filter::default(), &mut g));
        assert!(yes(
            Filter {
                player: Some(Needle::new("fischer")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                white: Some(Needle::new("fischer")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                black: Some(Needle::new("FISCHER")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                event: Some(Needle::new("championship")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                site: Some(Needle::new("reykjavik")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                outcome: Some(Outcome::BlackWins),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                outcome: Some(Outcome::Draw),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                eco: Some((Eco(400), Eco(499))),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                eco: Some((Eco(0), Eco(199))),
                ..Filter::default()
            },
            &mut g
        ));
        // 1972.??.?? can be 1972.07.11 .. 1972.12.31: matches from 1972.07.01 and to 1972.07.01.
        assert!(yes(
            Filter {
                date_from: Some(Date::parse("1972.07.01")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                date_to: Some(Date::parse("1972.07.01")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                date_from: Some(Date::parse("1973")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                date_to: Some(Date::parse("1971.12.31")),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                min_elo: Some(2660),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                min_elo: Some(2700),
                ..Filter::default()
            },
            &mut g
        ));
    }

    #[test]
    fn missing_tags_never_match_their_filters() {
        let mut g = facts(b"[White \"A\"]\n\n1. e4 *\n");
        assert!(
            !Filter {
                min_elo: Some(1),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                date_to: Some(Date::parse("2100")),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                eco: Some((Eco(0), Eco(499))),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                outcome: Some(Outcome::Draw),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                outcome: Some(Outcome::Unknown),
                ..Filter::default()
            }
            .matches(&mut g)
        );
    }
}
