//! The `TimeControl` tag (PGN standard 9.6.1) and the kind of game it
//! makes under the Laws (Appendices A.1 and B.1: rapid and blitz).
//!
//! ```
//! use pgnkit_replay::clock::{Kind, Time, TimeControl};
//!
//! let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
//! assert_eq!(tc.kind(), Some(Kind::Standard));
//! assert_eq!(tc.base(), Some(Time::from_seconds(5400)));
//! assert_eq!(tc.increment(41), Time::from_seconds(30));
//! assert_eq!("180+2".parse::<TimeControl>().unwrap().kind(), Some(Kind::Blitz));
//! assert_eq!("*180".parse::<TimeControl>().unwrap(), TimeControl::Sandclock(Time::from_seconds(180)));
//! assert!("40/".parse::<TimeControl>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::Time;

/// A time control as the TimeControl tag gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `?`: the time control is unknown.
    Unknown,
    /// `-`: the game was played without a clock.
    Untimed,
    /// One or more periods, in the order they are played; the last is
    /// repeated as long as the game goes on (never empty).
    Periods(Vec<Period>),
    /// `*180`: a sandclock of that many seconds.
    Sandclock(Time),
}

/// One period of a time control: `40/5400+30` (40 moves in 90 minutes, 30
/// seconds added after each move), `300+2`, `1800`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// The moves each player must make in the period; `None` for the
    /// period that lasts to the end of the game (sudden death).
    pub moves: Option<u32>,
    /// The time the period gives each player.
    pub time: Time,
    /// The time added to a player's clock after each of their moves in
    /// the period (Law 6.2's "additional time").
    pub increment: Time,
}

/// The kind of game a time control makes, by the Laws' appendices (as in
/// force since 2023): a **blitz** game gives each player 10 minutes or
/// less (B.1), a **rapid** game more than 10 and less than 60 (A.1),
/// counting the time of the first period plus 60 times its increment;
/// anything longer is **standard**.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// 10 minutes a player or less (Appendix B.1).
    Blitz,
    /// More than 10 and less than 60 minutes a player (Appendix A.1).
    Rapid,
    /// 60 minutes a player or more.
    Standard,
}

impl Kind {
    /// `blitz`, `rapid` or `standard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Blitz => "blitz",
            Kind::Rapid => "rapid",
            Kind::Standard => "standard",
        }
    }

    /// The kind named `name` (as [`Kind::as_str`] writes it; `classical`
    /// is standard too).
    pub fn from_name(name: &str) -> Option<Kind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "blitz" => Some(Kind::Blitz),
            "rapid" => Some(Kind::Rapid),
            "standard" | "classical" => Some(Kind::Standard),
            _ => None,
        }
    }
}

/// Why a TimeControl tag is no PGN time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError(String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TimeControlError {}

/// The longest time a period or an increment may give: a week. Larger
/// numbers are no clock's.
const LONGEST: u32 = 7 * 24 * 3600 * 1000;

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |why: String| Err(TimeControlError(why));
        let text = text.trim();
        match text {
            "?" => return Ok(TimeControl::Unknown),
            "-" => return Ok(TimeControl::Untimed),
            "" => return bad("it is empty (`?` says the time control is unknown)".to_owned()),
            _ => {}
        }
        if let Some(sand) = text.strip_prefix('*') {
            return match seconds(sand) {
                Some(t) if t > Time::ZERO => Ok(TimeControl::Sandclock(t)),
                _ => bad(format!(
                    "`*{}` is no sandclock: `*` is followed by its seconds, as in `*180`",
                    super::shown(sand)
                )),
            };
        }
        let count = text.bytes().filter(|&b| b == b':').count() + 1;
        let mut periods = Vec::with_capacity(count);
        for (i, field) in text.split(':').enumerate() {
            let last = i + 1 == count;
            let Some(period) = period(field) else {
                return bad(format!(
                    "`{}` is no time control period: PGN writes `40/7200` (moves/seconds), `300` (seconds), `300+2` (seconds+increment), `*180` (sandclock), `?` or `-`",
                    super::shown(field)
                ));
            };
            if period.moves.is_none() && !last {
                return bad(format!(
                    "`{}` ends the game (no number of moves), but more periods follow it",
                    super::shown(field)
                ));
            }
            periods.push(period);
        }
        Ok(TimeControl::Periods(periods))
    }
}

/// One period: `[moves/]seconds[+increment]`.
fn period(field: &str) -> Option<Period> {
    let (moves, rest) = match field.split_once('/') {
        Some((m, rest)) => {
            let m = m.trim();
            if m.is_empty() || m.len() > 4 || !m.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (Some(m.parse::<u32>().ok().filter(|&n| n > 0)?), rest)
        }
        None => (None, field),
    };
    let (time, increment) = match rest.split_once('+') {
        Some((t, i)) => (seconds(t)?, seconds(i)?),
        None => (seconds(rest)?, Time::ZERO),
    };
    (time > Time::ZERO).then_some(Period {
        moves,
        time,
        increment,
    })
}

/// Seconds as the tag writes them: digits, or digits with a fraction as
/// engine tournaments write them (`10.931`); at most a week.
fn seconds(text: &str) -> Option<Time> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || whole.len() > 7
        || fraction.len() > 3
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u32 = whole.parse().ok()?;
    let mut millis: u32 = 0;
    for (i, b) in fraction.bytes().enumerate() {
        millis += u32::from(b - b'0') * [100, 10, 1][i];
    }
    let total = whole.checked_mul(1000)?.checked_add(millis)?;
    (total <= LONGEST).then_some(Time::from_millis(total))
}

impl TimeControl {
    /// The periods (none for `?`, `-` and a sandclock).
    pub fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(p) => p,
            _ => &[],
        }
    }

    /// The time each player starts with: the first period's, or the
    /// sandclock's; `None` for `?` and `-`.
    pub fn base(&self) -> Option<Time> {
        match self {
            TimeControl::Periods(p) => p.first().map(|p| p.time),
            TimeControl::Sandclock(t) => Some(*t),
            TimeControl::Unknown | TimeControl::Untimed => None,
        }
    }

    /// The kind of game, by the Laws' appendices ([`Kind`]); `None` for
    /// `?` and `-`.
    pub fn kind(&self) -> Option<Kind> {
        let first = match self {
            TimeControl::Periods(p) => p.first().copied()?,
            TimeControl::Sandclock(t) => Period {
                moves: None,
                time: *t,
                increment: Time::ZERO,
            },
            TimeControl::Unknown | TimeControl::Untimed => return None,
        };
        let total = u64::from(first.time.millis()) + 60 * u64::from(first.increment.millis());
        Some(if total <= 10 * 60 * 1000 {
            Kind::Blitz
        } else if total < 60 * 60 * 1000 {
            Kind::Rapid
        } else {
            Kind::Standard
        })
    }

    /// The period in which a player makes their move number `number`
    /// (1-based, as the movetext numbers moves), and whether that move
    /// completes it (the move by which the period's moves had to be
    /// made). `None` without periods.
    pub fn period_of(&self, number: u32) -> Option<(usize, bool)> {
        let periods = self.periods();
        let mut start = 0u32;
        for (i, p) in periods.iter().enumerate() {
            let Some(moves) = p.moves else {
                return Some((i, false));
            };
            if i + 1 == periods.len() {
                // The last period repeats.
                let into = number.saturating_sub(start).max(1) - 1;
                return Some((i, into % moves == moves - 1));
            }
            let end = start.saturating_add(moves);
            if number <= end {
                return Some((i, number == end));
            }
            start = end;
        }
        None
    }

    /// What the control gives a player for their move number `number`:
    /// the increment, and the next period's time when the move completes a
    /// period (Law 6.2: time saved in a period is carried to the next).
    pub fn at(&self, number: u32) -> (Time, Option<Time>) {
        let Some((i, completes)) = self.period_of(number) else {
            return (Time::ZERO, None);
        };
        let periods = self.periods();
        let increment = periods.get(i).map_or(Time::ZERO, |p| p.increment);
        let next = completes
            .then(|| {
                periods
                    .get(i + 1)
                    .or_else(|| periods.last())
                    .map(|p| p.time)
            })
            .flatten();
        (increment, next)
    }

    /// The starting time and increment of a control of one period to the
    /// end of the game (`300+2`, `600`), the common case.
    pub(crate) fn sudden_death(&self) -> Option<(Time, Time)> {
        match self.periods() {
            [only] if only.moves.is_none() => Some((only.time, only.increment)),
            _ => None,
        }
    }

    /// What the control credits a player's moves `from..=to`: all of it,
    /// the increments alone, and the last of these moves that completes a
    /// period, with the next period's time.
    pub(crate) fn window(&self, from: u32, to: u32) -> (Time, Time, Option<(u32, Time)>) {
        if let [only] = self.periods()
            && only.moves.is_none()
        {
            // One period to the end of the game (`300+2`): the common case.
            let moves = (to + 1).saturating_sub(from);
            let added = Time::from_millis(only.increment.millis().saturating_mul(moves));
            return (added, added, None);
        }
        let (mut credit, mut increments, mut completed) = (Time::ZERO, Time::ZERO, None);
        for m in from..=to {
            let (increment, period) = self.at(m);
            increments = increments.saturating_add(increment);
            credit = credit.saturating_add(increment);
            if let Some(t) = period {
                credit = credit.saturating_add(t);
                completed = Some((m, t));
            }
        }
        (credit, increments, completed)
    }

    /// The increment added after a player's move number `number`
    /// (nothing without periods).
    pub fn increment(&self, number: u32) -> Time {
        self.at(number).0
    }

    /// All the time the control credits a player for their move number
    /// `number`: its increment, plus the next period's time when the move
    /// completes a period ([`TimeControl::at`]).
    pub fn credit(&self, number: u32) -> Time {
        let (increment, period) = self.at(number);
        increment.saturating_add(period.unwrap_or(Time::ZERO))
    }

    /// The time the control gives the move completing a period, if move
    /// `number` completes one: the next period's time.
    pub fn period_time_after(&self, number: u32) -> Option<Time> {
        self.at(number).1
    }
}

/// The tag's value as PGN writes it (an increment of 0 left out).
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Sandclock(t) => write!(f, "*{}", t.as_seconds_text()),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    if let Some(m) = p.moves {
                        write!(f, "{m}/")?;
                    }
                    f.write_str(&p.time.as_seconds_text())?;
                    if p.increment > Time::ZERO {
                        write!(f, "+{}", p.increment.as_seconds_text())?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// The parsed control as a `check --games` record gives it:
/// `{"text":"40/5400+30:1800+30","kind":"standard","base":5400,"increment":30,"sandclock":false,"periods":[{"moves":40,"seconds":5400,"increment":30,"by_move":40},{"moves":null,"seconds":1800,"increment":30,"by_move":null}]}`
/// (`by_move`: the move by which the period's moves must be made; `kind`,
/// `base` and `increment` are `null` for `?` and `-`).
impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(serde::Serialize)]
        struct Shown {
            moves: Option<u32>,
            seconds: Time,
            increment: Time,
            by_move: Option<u32>,
        }
        let mut by = 0u32;
        let periods: Vec<Shown> = self
            .periods()
            .iter()
            .map(|p| {
                let by_move = p.moves.map(|m| {
                    by = by.saturating_add(m);
                    by
                });
                Shown {
                    moves: p.moves,
                    seconds: p.time,
                    increment: p.increment,
                    by_move,
                }
            })
            .collect();
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("text", &self.to_string())?;
        map.serialize_entry("kind", &self.kind().map(Kind::as_str))?;
        map.serialize_entry("base", &self.base())?;
        map.serialize_entry(
            "increment",
            &self.periods().first().map(|p| p.increment).or(match self {
                TimeControl::Sandclock(_) => Some(Time::ZERO),
                _ => None,
            }),
        )?;
        map.serialize_entry("sandclock", &matches!(self, TimeControl::Sandclock(_)))?;
        map.serialize_entry("periods", &periods)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn every_form_of_the_standard_is_read() {
        assert_eq!(tc("?"), TimeControl::Unknown);
        assert_eq!(tc("-"), TimeControl::Untimed);
        assert_eq!(tc("*180"), TimeControl::Sandclock(Time::from_seconds(180)));
        let p = tc("40/9000");
        assert_eq!(p.periods()[0].moves, Some(40));
        assert_eq!(p.periods()[0].time, Time::from_seconds(9000));
        assert_eq!(tc("300").periods()[0].moves, None);
        assert_eq!(tc("4500+60").periods()[0].increment, Time::from_seconds(60));
        let three = tc("40/7200:20/3600:900+30");
        assert_eq!(three.periods().len(), 3);
        assert_eq!(
            tc("10.931+0.109").periods()[0].time,
            Time::from_millis(10_931)
        );
    }

    #[test]
    fn what_is_no_time_control_is_an_error() {
        for bad in [
            "",
            "40/",
            "/300",
            "abc",
            "300+",
            "+2",
            "0",
            "1800:40/7200",
            "*",
            "*x",
            "3 min",
            "99999999999",
            "300+2+1",
            "-1",
            "?:300",
            "40/0",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn kinds_follow_the_appendices() {
        // Laws of Chess (2023), A.1 and B.1: blitz is 10 minutes or less a
        // player counting 60 moves of increment, rapid more than 10 and
        // less than 60.
        assert_eq!(tc("180+2").kind(), Some(Kind::Blitz));
        assert_eq!(tc("600+0").kind(), Some(Kind::Blitz));
        assert_eq!(tc("480+2").kind(), Some(Kind::Blitz));
        assert_eq!(tc("600+1").kind(), Some(Kind::Rapid));
        assert_eq!(tc("300+8").kind(), Some(Kind::Rapid));
        assert_eq!(tc("840+1").kind(), Some(Kind::Rapid));
        assert_eq!(tc("900+0").kind(), Some(Kind::Rapid));
        assert_eq!(tc("1500+10").kind(), Some(Kind::Rapid));
        assert_eq!(tc("3000+60").kind(), Some(Kind::Standard));
        assert_eq!(tc("40/5400+30:1800+30").kind(), Some(Kind::Standard));
        assert_eq!(tc("*180").kind(), Some(Kind::Blitz));
        assert_eq!(tc("?").kind(), None);
    }

    #[test]
    fn periods_end_at_their_moves_and_the_last_repeats() {
        let t = tc("40/7200:20/3600:900+30");
        assert_eq!(t.period_of(1), Some((0, false)));
        assert_eq!(t.period_of(40), Some((0, true)));
        assert_eq!(t.period_of(41), Some((1, false)));
        assert_eq!(t.period_of(60), Some((1, true)));
        assert_eq!(t.period_of(61), Some((2, false)));
        assert_eq!(t.credit(40), Time::from_seconds(3600));
        assert_eq!(t.credit(60), Time::from_seconds(900));
        assert_eq!(t.credit(61), Time::from_seconds(30));
        let r = tc("40/9000");
        assert_eq!(r.period_of(80), Some((0, true)));
        assert_eq!(r.credit(80), Time::from_seconds(9000));
        assert_eq!(r.credit(81), Time::ZERO);
    }

    #[test]
    fn the_tag_is_written_back() {
        for s in [
            "?",
            "-",
            "*180",
            "40/7200:20/3600:900+30",
            "300+2",
            "10.931+0.109",
            "40/9000",
        ] {
            assert_eq!(tc(s).to_string(), s);
        }
    }
}
