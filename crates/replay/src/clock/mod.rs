//! The clock of a game under the Laws (article 6): its time control (the
//! `TimeControl` tag, [`TimeControl`]), the clock commands written after
//! its moves (`[%clk …]` and `[%emt …]`, [`commands`]), read once in the
//! replay's walk of the movetext, and what they say checked against the
//! control ([`checks`]): clocks that rise more than the control credits, a
//! first clock above the starting time, clocks missing, a flag that fell
//! (Laws 6.1 and 6.9), a period whose time the clock does not show.
//!
//! A game's clocks are in its [`GameReport`](crate::GameReport)
//! ([`GameReport::clocks`](crate::GameReport::clocks), one entry per
//! main-line ply) with its parsed control
//! ([`GameReport::time_control`](crate::GameReport::time_control)).
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::clock::Time;
//! use pgnkit_replay::{Options, replay_game};
//!
//! let pgn = b"[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:58.5] } 2. Nf3 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! assert_eq!(report.clocks.clk(), [Some(Time::from_seconds(180)), Some(Time::from_millis(178_500)), None]);
//! assert_eq!(report.time_control.unwrap().to_string(), "180+2");
//! // The third ply has no clock where the others have: a warning.
//! assert_eq!(report.diagnostics[0].code.as_str(), "clock-missing");
//! assert_eq!(report.diagnostics[0].ply, Some(3));
//! ```

pub mod checks;
mod comments;
mod rewrite;
mod time_control;

use std::fmt;
use std::ops::Range;

use serde::Serialize;
use shakmaty::Color;

pub use checks::{Flag, Spent, Start, Usage, usage};
pub use comments::{
    BadTime, Command, commands, parse_time, with_clocks_replaced, with_command, without_clocks,
};
pub use rewrite::{Replayed, Rewrite, rewritten_comments};
pub use time_control::{Kind, Period, TimeControl, TimeControlError};

/// A time on a chess clock, or a time spent: milliseconds, up to 49 days.
/// Shown as clocks write it (`1:23:45`, `0:02:58.9`), serialized as a
/// number of seconds (`178.9`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(u32);

impl Time {
    /// No time.
    pub const ZERO: Time = Time(0);

    /// `millis` milliseconds.
    pub const fn from_millis(millis: u32) -> Time {
        Time(millis)
    }

    /// `seconds` whole seconds (saturating).
    pub const fn from_seconds(seconds: u32) -> Time {
        Time(seconds.saturating_mul(1000))
    }

    /// The time in milliseconds.
    pub const fn millis(self) -> u32 {
        self.0
    }

    /// The time in seconds.
    pub fn seconds(self) -> f64 {
        f64::from(self.0) / 1000.0
    }

    /// The sum, saturating.
    pub const fn saturating_add(self, other: Time) -> Time {
        Time(self.0.saturating_add(other.0))
    }

    /// The difference, or zero.
    pub const fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }

    /// Seconds as a TimeControl tag writes them: `300`, `10.931`.
    pub fn as_seconds_text(self) -> String {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        if ms == 0 {
            s.to_string()
        } else {
            format!("{s}.{ms:03}").trim_end_matches('0').to_owned()
        }
    }
}

/// `h:mm:ss`, with the fraction of a second where there is one
/// (`0:02:58.9`).
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        write!(f, "{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)?;
        if ms > 0 {
            let fraction = format!("{ms:03}");
            write!(f, ".{}", fraction.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

/// A number of seconds: whole where the time is (`300`), else with its
/// fraction (`178.9`).
impl Serialize for Time {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_multiple_of(1000) {
            s.serialize_u32(self.0 / 1000)
        } else {
            s.serialize_f64(self.seconds())
        }
    }
}

/// The clock commands of a game's main line: for each ply, the first
/// readable `[%clk …]` and `[%emt …]` written after its move (in the
/// comments between it and the next main-line move), as python-chess's
/// `node.clock()` and `node.emt()` read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    clk: Vec<Option<Time>>,
    emt: Vec<Option<Time>>,
}

impl Clocks {
    /// The clock after each main-line ply (index 0 is ply 1): one entry a
    /// ply when the game has any `%clk`, none otherwise.
    pub fn clk(&self) -> &[Option<Time>] {
        &self.clk
    }

    /// The time each main-line ply took (`%emt`), as [`Clocks::clk`].
    pub fn emt(&self) -> &[Option<Time>] {
        &self.emt
    }

    /// Whether the game has no clock command.
    pub fn is_empty(&self) -> bool {
        self.clk.is_empty() && self.emt.is_empty()
    }

    /// The clock after ply `ply` (1-based).
    pub fn clk_at(&self, ply: u32) -> Option<Time> {
        at(&self.clk, ply)
    }

    /// The time ply `ply` (1-based) took.
    pub fn emt_at(&self, ply: u32) -> Option<Time> {
        at(&self.emt, ply)
    }

    /// Both players' clocks once ply `ply` is played (0: the start), White's
    /// first: each the last `%clk` written after one of their moves up to
    /// that ply; `first` is the side that made ply 1.
    pub fn both_at(&self, ply: u32, first: Color) -> [Option<Time>; 2] {
        let mut last = [None, None];
        for (p, c) in (1u32..=ply).zip(&self.clk) {
            if let Some(c) = c {
                last[usize::from(side_of(p, first) == Color::Black)] = Some(*c);
            }
        }
        last
    }

    /// Lengthens (with `None`) or shortens both lists to `plies`, where
    /// the game has any.
    fn fit(&mut self, plies: u32) {
        let n = usize::try_from(plies).unwrap_or(usize::MAX);
        for list in [&mut self.clk, &mut self.emt] {
            if !list.is_empty() {
                list.resize(n, None);
            }
        }
    }

    /// Clocks from lists of one entry a ply (tests, conversions).
    pub fn new(clk: Vec<Option<Time>>, emt: Vec<Option<Time>>) -> Clocks {
        let all_none = |l: &Vec<Option<Time>>| l.iter().all(Option::is_none);
        Clocks {
            clk: if all_none(&clk) { Vec::new() } else { clk },
            emt: if all_none(&emt) { Vec::new() } else { emt },
        }
    }
}

fn at(list: &[Option<Time>], ply: u32) -> Option<Time> {
    let i = usize::try_from(ply.checked_sub(1)?).ok()?;
    list.get(i).copied().flatten()
}

/// The side that makes ply `ply` (1-based), `first` making ply 1.
pub fn side_of(ply: u32, first: Color) -> Color {
    if ply % 2 == 1 { first } else { !first }
}

/// A clock command that could not be read, for its warning.
#[derive(Clone, Debug)]
pub(crate) struct Unreadable {
    pub command: Command,
    pub span: Range<usize>,
    pub ply: u32,
    pub why: BadTime,
    pub text: String,
}

/// What the walk of the movetext reads of the clock: the commands in the
/// comments after each main-line move. Empty, and free, for a game
/// without them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reader {
    pub clocks: Clocks,
    pub unreadable: Vec<Unreadable>,
}

/// At most this many unreadable commands are kept in a game (a game of
/// a million is read in linear time, and warned of up to the per-game
/// limit anyway).
const MAX_UNREADABLE: usize = 200;

impl Reader {
    /// Reads the comment `text` (its first byte at `at` in the input),
    /// which follows main-line ply `ply`: the servers' `{ [%clk 0:05:00] }`
    /// at once, inline; any other comment out of line ([`Reader::read`]), so
    /// that the walk of the movetext stays as small as it is without clocks.
    #[inline]
    pub fn comment(&mut self, text: &[u8], at: usize, ply: u32) {
        let Some(index) = ply.checked_sub(1).and_then(|i| usize::try_from(i).ok()) else {
            return;
        };
        let exact = match text {
            [b' ', inner @ .., b' '] => inner,
            _ => text,
        };
        if let &[
            b'[',
            b'%',
            b'c',
            b'l',
            b'k',
            b' ',
            h,
            b':',
            m1,
            m2,
            b':',
            s1,
            s2,
            b']',
        ] = exact
            && let Some(time) = comments::hms([h, m1, m2, s1, s2])
        {
            set_first(&mut self.clocks.clk, index, time);
            return;
        }
        self.read(text, at, ply, index);
    }

    /// [`Reader::comment`] of any comment: every command in it.
    #[inline(never)]
    fn read(&mut self, text: &[u8], at: usize, ply: u32, index: usize) {
        commands(text, |command, span, time| {
            let span = at + span.start..at + span.end;
            match time {
                Ok(time) => {
                    let list = match command {
                        Command::Clk => &mut self.clocks.clk,
                        Command::Emt => &mut self.clocks.emt,
                    };
                    set_first(list, index, time);
                }
                Err(why) if self.unreadable.len() < MAX_UNREADABLE => {
                    let end = (span.start + 200).min(span.end).min(at + text.len());
                    let raw = text.get(span.start - at..end - at).unwrap_or_default();
                    self.unreadable.push(Unreadable {
                        command,
                        span,
                        ply,
                        why,
                        text: String::from_utf8_lossy(raw).into_owned(),
                    });
                }
                Err(_) => {}
            }
        });
    }

    /// The readings of a main line of `plies` plies.
    pub fn finish(&mut self, plies: u32) {
        self.clocks.fit(plies);
    }
}

/// Sets `list[index]` (one entry a ply, `None` where nothing was read)
/// to `value` unless it is set already.
#[inline(always)]
fn set_first(list: &mut Vec<Option<Time>>, index: usize, value: Time) {
    if list.len() == index {
        if list.capacity() == index {
            // Room for a long game at once.
            list.reserve(index.max(160));
        }
        list.push(Some(value));
    } else if list.len() < index {
        list.resize(index, None);
        list.push(Some(value));
    } else if let Some(slot @ None) = list.get_mut(index) {
        *slot = Some(value);
    }
}

/// A text as a message quotes it (short).
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    crate::diagnostic::brief(text)
}

/// Where the first readable `[%clk …]` after the main-line move of token
/// `token` is (among the comments before the token `next`, the next
/// main-line move, outside variations): found again for a diagnostic, so
/// that the walk keeps no place for each clock.
pub(crate) fn clk_span(
    game: &pgnkit_pgn::Game<'_>,
    token: usize,
    next: Option<usize>,
) -> Option<Range<usize>> {
    let end = next.unwrap_or(game.tokens.len());
    let mut depth = 0u32;
    for t in game.tokens.range(token + 1..end) {
        match t.kind {
            pgnkit_pgn::TokenKind::OpenVariation => depth += 1,
            pgnkit_pgn::TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            pgnkit_pgn::TokenKind::Comment if depth == 0 => {
                let mut found = None;
                commands(t.text, |c, at, time| {
                    if found.is_none() && c == Command::Clk && time.is_ok() {
                        found = Some(at);
                    }
                });
                if let Some(at) = found {
                    let base = t.span.start + 1;
                    return Some(base + at.start..base + at.end);
                }
            }
            _ => {}
        }
    }
    None
}

/// The plain lane's look at the clocks: the game's time control and
/// clocks when there is nothing to say of them (no error, and no warning
/// where `warnings` count) and no flag fell; `None` when the full replay
/// must say it.
pub(crate) fn plain(
    game: &pgnkit_pgn::Game<'_>,
    reader: Reader,
    plies: u32,
    warnings: bool,
) -> Option<(Option<TimeControl>, Clocks)> {
    let tag = game.tag("TimeControl");
    if tag.is_none() && reader.clocks.is_empty() && reader.unreadable.is_empty() {
        return Some((None, Clocks::default()));
    }
    let value = tag.map(|t| t.value());
    let text = value.as_ref().map(|v| String::from_utf8_lossy(v));
    let control = checks::control_of(tag.zip(text.as_deref()).map(|(t, v)| (v, t.span.clone())));
    let start = checks::Start {
        first: Color::White,
        number: 1,
    };
    let judged = checks::judge(control, reader, start, plies, &|_| Some(0..0), &|_| None);
    let quiet = judged.flag.is_none() && judged.found.iter().all(|d| !d.is_error() && !warnings);
    quiet.then_some((judged.control, judged.clocks))
}
