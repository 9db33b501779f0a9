//! Search filters and their one meaning, whether a game is tested from the
//! index or from a scan of the PGN file.
//!
//! All filters combine with AND:
//! - names (`white`, `black`, `player` = either side, `event`, `site`): the
//!   tag contains the text, ignoring case;
//! - `outcome`: the Result tag;
//! - `eco`: the ECO code of the opening the main line reaches
//!   ([`GameFacts::opening`], named from the moves by
//!   [`pgnkit_opening::classify`], not from the ECO tag) lies in the range;
//!   `eco_tag`: the ECO tag's code does (a game whose tag disagrees with
//!   its moves passes one and not the other); `opening`: the opening's
//!   whole name (`Sicilian Defense: Najdorf Variation`) contains the text,
//!   ignoring case. A game the moves name no opening of (not replayed,
//!   Chess960, from a `FEN` tag, no named position reached) passes
//!   neither `eco` nor `opening`;
//! - dates: a partial date (`1972.??.??`) stands for every day it can be,
//!   and matches when any of them lies in the range; a game without a year
//!   never matches a date filter;
//! - `min_elo`: both players are rated at least that much (a game with a
//!   missing rating does not match);
//! - `max_elo`: both players are rated at most that much (a game with a
//!   missing rating does not match); `elo_diff`: both are rated and the
//!   difference of their ratings lies in the range;
//! - `round`: the Round tag is that (ignoring case and surrounding spaces);
//! - `statuses`: the replay's status is one of them; `has_errors`: the
//!   replay found errors; `plies`: the main line's plies lie in the range;
//! - `position`: the position key occurs in the game's main line (the
//!   caller tests it: a binary search in the index, a replay in a scan);
//! - `probe`: what is tested on the game itself ([`Probe`]).
//!
//! A [`Query`] is groups of filters, any of which may match (`--or`), and
//! may be inverted.

use pgnkit_facts::{Date, Eco, GameFacts, TextTag};
use pgnkit_opening::Opening;
use pgnkit_pgn::GameResult;
use pgnkit_replay::{ClaimKind, Status};

use crate::needle::Needle;
use crate::probe::Probe;

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
    pub outcome: Option<GameResult>,
    /// The ECO code of the opening the main line reaches lies in this
    /// range (inclusive).
    pub eco: Option<(Eco, Eco)>,
    /// The ECO tag's code lies in this range (inclusive).
    pub eco_tag: Option<(Eco, Eco)>,
    /// The whole name of the opening the main line reaches contains this.
    pub opening: Option<Needle>,
    /// The game can be on or after this date.
    pub date_from: Option<Date>,
    /// The game can be on or before this date.
    pub date_to: Option<Date>,
    /// Both players are rated at least this.
    pub min_elo: Option<u16>,
    /// Both players are rated at most this.
    pub max_elo: Option<u16>,
    /// The difference of the ratings lies in this range (inclusive).
    pub elo_diff: Option<(u16, u16)>,
    /// The Round tag is this.
    pub round: Option<String>,
    /// The status is one of these (none: any).
    pub statuses: Vec<Status>,
    /// The replay found errors.
    pub has_errors: bool,
    /// The main line has this many plies (inclusive range).
    pub plies: Option<(u32, u32)>,
    /// The Zobrist key (Law 9.2 identity) of a main-line position.
    pub position: Option<u64>,
    /// What is tested on the game itself.
    pub probe: Probe,
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
    /// The ECO tag's code.
    fn eco(&self) -> Option<Eco>;
    /// The opening the main line reaches.
    fn opening(&self) -> Option<Opening>;
    /// Whether the opening's whole name contains `needle` (for subjects
    /// that remember answers per opening).
    fn opening_has(&mut self, needle: &Needle) -> bool {
        self.opening().is_some_and(|o| needle.is_in(o.name()))
    }
    /// White's and Black's ratings (0: none).
    fn elos(&self) -> (u16, u16);
    /// The Result tag's result (`None`: none).
    fn outcome(&self) -> Option<GameResult>;
    /// A text tag (empty when missing).
    fn text(&self, tag: TextTag) -> &str;
    /// Main-line plies replayed.
    fn plies(&self) -> u32;
    /// The status (`None`: not replayed).
    fn status(&self) -> Option<Status>;
    /// Errors the replay found.
    fn errors(&self) -> u32;
    /// The filters of group `group` of a [`Query`] are tested next (for
    /// subjects that remember answers per group and slot).
    fn enter_group(&mut self, group: usize) {
        let _ = group;
    }
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
    fn opening(&self) -> Option<Opening> {
        self.opening
    }
    fn elos(&self) -> (u16, u16) {
        (self.white_elo, self.black_elo)
    }
    fn outcome(&self) -> Option<GameResult> {
        self.outcome
    }
    fn text(&self, tag: TextTag) -> &str {
        GameFacts::text(self, tag)
    }
    fn plies(&self) -> u32 {
        self.plies
    }
    fn status(&self) -> Option<Status> {
        self.status
    }
    fn errors(&self) -> u32 {
        self.errors
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
            || self.eco_tag.is_some()
            || self.date_from.is_some()
            || self.date_to.is_some()
            || self.min_elo.is_some()
            || self.max_elo.is_some()
            || self.elo_diff.is_some()
            || self.round.is_some()
            || self.needs_stored_replay()
    }

    /// Whether a stored filter needs the replay (status, errors, plies,
    /// the opening).
    fn needs_stored_replay(&self) -> bool {
        !self.statuses.is_empty()
            || self.has_errors
            || self.plies.is_some()
            || self.eco.is_some()
            || self.opening.is_some()
    }

    /// Whether a scan must replay the game to test it.
    pub fn needs_replay(&self) -> bool {
        self.needs_stored_replay() || self.position.is_some() || self.probe.needs_replay()
    }

    /// Whether a game passes every filter but `position` (which the caller
    /// tests).
    pub fn matches<S: Subject>(&self, g: &mut S) -> bool {
        if let Some(o) = self.outcome
            && g.outcome() != Some(o)
        {
            return false;
        }
        let in_range = |(lo, hi): (Eco, Eco), e: Option<Eco>| e.is_some_and(|e| e >= lo && e <= hi);
        if let Some(range) = self.eco
            && !in_range(range, g.opening().and_then(|o| Eco::parse(o.eco())))
        {
            return false;
        }
        if let Some(range) = self.eco_tag
            && !in_range(range, g.eco())
        {
            return false;
        }
        if let Some(needle) = &self.opening
            && !g.opening_has(needle)
        {
            return false;
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
        if self.min_elo.is_some() || self.max_elo.is_some() || self.elo_diff.is_some() {
            let (w, b) = g.elos();
            if w == 0 || b == 0 {
                return false;
            }
            if self.min_elo.is_some_and(|min| w < min || b < min)
                || self.max_elo.is_some_and(|max| w > max || b > max)
                || self
                    .elo_diff
                    .is_some_and(|(lo, hi)| w.abs_diff(b) < lo || w.abs_diff(b) > hi)
            {
                return false;
            }
        }
        if !self.statuses.is_empty() && !g.status().is_some_and(|s| self.statuses.contains(&s)) {
            return false;
        }
        if self.has_errors && g.errors() == 0 {
            return false;
        }
        if let Some((lo, hi)) = self.plies
            && (g.plies() < lo || g.plies() > hi)
        {
            return false;
        }
        if let Some(round) = &self.round
            && !g
                .text(TextTag::Round)
                .trim()
                .eq_ignore_ascii_case(round.trim())
        {
            return false;
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

/// Groups of filters: a game matches when it passes every filter of one
/// group at least (`--or` between groups); `invert` turns the answer
/// around. The empty query matches every game.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The groups (none: one group that matches every game).
    pub groups: Vec<Filter>,
    /// Match the games the groups do not match.
    pub invert: bool,
}

impl Query {
    /// A query of one group.
    pub fn of(filter: Filter) -> Query {
        Query {
            groups: vec![filter],
            invert: false,
        }
    }

    /// Whether a scan must replay the games.
    pub fn needs_replay(&self) -> bool {
        self.groups.iter().any(Filter::needs_replay)
    }

    /// Whether the replay must keep the draw claims.
    pub fn needs_claims(&self) -> bool {
        self.groups.iter().any(|g| g.probe.needs_claims())
    }

    /// Whether some group tests the game itself (beyond the index).
    pub fn needs_game(&self) -> bool {
        self.groups.iter().any(|g| !g.probe.is_empty())
    }

    /// The most groups a query has (`passing` is a bit a group).
    pub const MAX_GROUPS: usize = 64;

    /// The groups whose filters but the probe a game passes, a bit each
    /// (group `i`: bit `i`): `subject` answers the stored filters,
    /// `has_position(group, key)` whether the group's position occurs.
    pub fn passing<S: Subject>(
        &self,
        subject: &mut S,
        mut has_position: impl FnMut(usize, u64) -> bool,
    ) -> u64 {
        let mut bits = 0u64;
        for (i, f) in self.groups.iter().enumerate().take(Query::MAX_GROUPS) {
            subject.enter_group(i);
            if f.matches(subject) && f.position.is_none_or(|key| has_position(i, key)) {
                bits |= bit(i);
            }
        }
        bits
    }

    /// Whether the answer for a game whose `passing` groups are these
    /// needs the game itself (its probes).
    pub fn needs_probe(&self, passing: u64) -> bool {
        let mut needs = false;
        for (i, f) in self.groups.iter().enumerate() {
            if passing & bit(i) != 0 {
                if f.probe.is_empty() {
                    return false;
                }
                needs = true;
            }
        }
        needs
    }

    /// Whether a game whose `passing` groups are these matches:
    /// `probe(group)` says whether it passes a passing group's probe.
    pub fn finish(&self, passing: u64, mut probe: impl FnMut(&Filter) -> bool) -> bool {
        let hit = self.groups.is_empty()
            || self
                .groups
                .iter()
                .enumerate()
                .any(|(i, f)| passing & bit(i) != 0 && (f.probe.is_empty() || probe(f)));
        hit != self.invert
    }

    /// Whether a game matches: [`Query::finish`] of its
    /// [`Query::passing`] groups.
    pub fn decide<S: Subject>(
        &self,
        subject: &mut S,
        has_position: impl FnMut(usize, u64) -> bool,
        probe: impl FnMut(&Filter) -> bool,
    ) -> bool {
        let passing = self.passing(subject, has_position);
        self.finish(passing, probe)
    }
}

/// The bit of group `i` (none beyond [`Query::MAX_GROUPS`]).
fn bit(i: usize) -> u64 {
    u32::try_from(i)
        .ok()
        .and_then(|i| 1u64.checked_shl(i))
        .unwrap_or(0)
}

/// Reads a range as `--plies` takes it: `MIN..MAX`, `MIN..`, `..MAX` or
/// `N` (inclusive).
///
/// ```
/// use pgnkit_index::filter::ply_range;
/// assert_eq!(ply_range("20..30"), Ok((20, 30)));
/// assert_eq!(ply_range("40.."), Ok((40, u32::MAX)));
/// assert_eq!(ply_range("..60"), Ok((0, 60)));
/// assert_eq!(ply_range("25"), Ok((25, 25)));
/// assert!(ply_range("30..20").is_err());
/// assert!(ply_range("").is_err());
/// ```
pub fn ply_range(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = range(text, u64::from(u32::MAX))?;
    Ok((lo as u32, hi as u32))
}

/// Reads a rating range as `--elo-diff` takes it (see [`ply_range`]).
pub fn elo_range(text: &str) -> Result<(u16, u16), String> {
    let (lo, hi) = range(text, u64::from(u16::MAX))?;
    Ok((lo as u16, hi as u16))
}

fn range(text: &str, max: u64) -> Result<(u64, u64), String> {
    let bad = || format!("bad range `{text}`: use MIN..MAX, MIN.., ..MAX or N (at most {max})");
    let number = |t: &str, default: u64| -> Result<u64, String> {
        match t.trim() {
            "" => Ok(default),
            t => t.parse::<u64>().ok().filter(|&n| n <= max).ok_or_else(bad),
        }
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (number(a, 0)?, number(b, max)?),
        None if text.trim().is_empty() => return Err(bad()),
        None => {
            let n = number(text, 0)?;
            (n, n)
        }
    };
    if lo > hi {
        return Err(format!("bad range `{text}`: MIN is above MAX"));
    }
    Ok((lo, hi))
}

/// Reads a status as `--status` takes it: its JSON name (`checkmate`,
/// `dead-position`, …).
pub fn parse_status(text: &str) -> Result<Status, String> {
    let t = text.trim().to_ascii_lowercase();
    crate::layout::STATUSES
        .into_iter()
        .find(|s| s.as_str() == t)
        .ok_or_else(|| {
            format!(
                "bad status `{text}`: use checkmate, stalemate, dead-position, insufficient-material, \
                 fivefold-repetition, seventyfive-moves, flag-fell, second-illegal-move, ongoing, invalid or unsupported"
            )
        })
}

/// Reads a claim as `--claim` takes it: `threefold` or `fifty-moves`.
pub fn parse_claim(text: &str) -> Result<ClaimKind, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "threefold" => Ok(ClaimKind::Threefold),
        "fifty-moves" | "fifty" => Ok(ClaimKind::FiftyMoves),
        _ => Err(format!("bad claim `{text}`: use threefold or fifty-moves")),
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
                outcome: Some(GameResult::BlackWins),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                outcome: Some(GameResult::Draw),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                eco_tag: Some((Eco(400), Eco(499))),
                ..Filter::default()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                eco_tag: Some((Eco(0), Eco(199))),
                ..Filter::default()
            },
            &mut g
        ));
        // Not replayed: the moves name no opening.
        assert!(!yes(
            Filter {
                eco: Some((Eco(0), Eco(499))),
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
    fn ratings_round_and_replay_filters() {
        let pgn = b"[Round \" 3 \"]\n[WhiteElo \"2700\"]\n[BlackElo \"2640\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let mut reader = Reader::new(pgn);
        let mut game = Game::default();
        assert!(reader.read_game(&mut game));
        let report = pgnkit_replay::replay_game(pgn, &game, &pgnkit_replay::Options::default());
        let mut g = GameFacts::new(pgn, 0, &game, Some(&report));
        let yes = |f: Filter, g: &mut GameFacts<'_>| f.matches(g);
        let f = Filter::default;
        assert!(yes(
            Filter {
                max_elo: Some(2700),
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                max_elo: Some(2699),
                ..f()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                elo_diff: Some((60, 60)),
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                elo_diff: Some((0, 59)),
                ..f()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                round: Some("3".into()),
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                round: Some("33".into()),
                ..f()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                statuses: vec![Status::Stalemate, Status::Checkmate],
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                statuses: vec![Status::Ongoing],
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                has_errors: true,
                ..f()
            },
            &mut g
        ));
        assert!(yes(
            Filter {
                plies: Some((4, 4)),
                ..f()
            },
            &mut g
        ));
        assert!(!yes(
            Filter {
                plies: Some((5, 100)),
                ..f()
            },
            &mut g
        ));
        // Not replayed: a status filter cannot pass.
        let mut unreplayed = GameFacts::new(pgn, 0, &game, None);
        assert!(!yes(
            Filter {
                statuses: vec![Status::Checkmate],
                ..f()
            },
            &mut unreplayed
        ));

        let white = |s: &str| Filter {
            white: Some(Needle::new(s)),
            ..f()
        };
        let decide = |q: &Query, g: &mut GameFacts<'_>| q.decide(g, |_, _| false, |_| true);
        let mut fischer = facts(FISCHER);
        let or = Query {
            groups: vec![white("carlsen"), white("spassky")],
            invert: false,
        };
        assert!(decide(&or, &mut fischer));
        let none = Query {
            groups: vec![white("carlsen"), white("tal")],
            invert: false,
        };
        assert!(!decide(&none, &mut fischer));
        assert!(decide(
            &Query {
                invert: true,
                ..none
            },
            &mut fischer
        ));
        assert!(decide(&Query::default(), &mut fischer));
        let position = Query::of(Filter {
            position: Some(1),
            ..f()
        });
        assert!(
            !decide(&position, &mut fischer),
            "the position is not in the game"
        );
    }

    /// `eco` and `opening` test the opening the moves reach, `eco_tag` the
    /// tag: Spassky-Fischer's tag says E56, its two moves reach A45.
    #[test]
    fn eco_and_opening_follow_the_moves_and_eco_tag_the_tag() {
        let mut reader = Reader::new(FISCHER);
        let mut game = Game::default();
        assert!(reader.read_game(&mut game));
        let report = pgnkit_replay::replay_game(FISCHER, &game, &pgnkit_replay::Options::default());
        let mut g = GameFacts::new(FISCHER, 0, &game, Some(&report));
        let opening = g.opening.expect("named");
        assert_eq!((opening.eco(), opening.name()), ("A45", "Indian Defense"));
        let range = |r: &str| Eco::parse_range(r).ok();
        let f =
            |eco: Option<(Eco, Eco)>, eco_tag: Option<(Eco, Eco)>, opening: Option<&str>| Filter {
                eco,
                eco_tag,
                opening: opening.map(Needle::new),
                ..Filter::default()
            };
        assert!(f(range("A40-A49"), None, None).matches(&mut g));
        assert!(!f(range("E"), None, None).matches(&mut g));
        assert!(f(None, range("E"), None).matches(&mut g));
        assert!(!f(None, range("A"), None).matches(&mut g));
        assert!(f(None, None, Some("INDIAN def")).matches(&mut g));
        assert!(!f(None, None, Some("Nimzo")).matches(&mut g));
        assert!(f(range("A45"), range("E56"), Some("indian")).matches(&mut g));
        // Replays that name it need the keys; every scan of `eco` or
        // `opening` replays.
        assert!(f(range("A"), None, None).needs_replay());
        assert!(f(None, None, Some("x")).needs_replay());
        assert!(!f(None, range("A"), None).needs_replay());
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
                eco_tag: Some((Eco(0), Eco(499))),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                outcome: Some(GameResult::Draw),
                ..Filter::default()
            }
            .matches(&mut g)
        );
        assert!(
            !Filter {
                outcome: Some(GameResult::Unknown),
                ..Filter::default()
            }
            .matches(&mut g)
        );
    }
}
