//! Each player's clock checked against the time control (Law 6.2): what
//! the clock commands say is possible under it, where a flag fell (Laws
//! 6.1 and 6.9), and how much time each player used.
//!
//! For a player, the clock after a move may be at most the clock after
//! their previous move plus what the control credits the moves between
//! (the increment, and the next period's time at the move that completes
//! a period: [`TimeControl::credit`]); the first clock at most the
//! starting time plus the credit of the moves up to it. Clocks are taken
//! as written, to the second or its fraction: no rounding is allowed for.
//! A period's time may show at the move that completes the period or at
//! the next (recorders differ); a clock that shows it at neither is a
//! `clock-period` warning. A sandclock's clocks (`*180`) gain what the
//! other player spends, so only the flag is looked for there.

use std::ops::Range;

use serde::Serialize;
use shakmaty::Color;

use super::{Clocks, Reader, Time, TimeControl, side_of};
use crate::diagnostic::{Code, Diagnostic, side_name};

/// A flag that fell: a clock below the increment after a move, so the
/// time ran out before the move was completed (Laws 6.1, 6.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The ply of the move after which the clock shows it.
    pub ply: u32,
    /// The player whose flag fell.
    pub side: Color,
    /// The move's number.
    pub move_number: u32,
    /// The clock after the move.
    pub clock: Time,
    /// The increment the control adds after the move.
    pub increment: Time,
    /// Where the `[%clk …]` command is.
    pub span: Range<usize>,
}

/// What the clocks of a game say, judged: the control, the clocks, the
/// diagnostics, the flag.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    pub control: Option<TimeControl>,
    pub clocks: Clocks,
    pub found: Vec<Diagnostic>,
    pub flag: Option<Flag>,
}

/// Where the main line starts: the side that makes ply 1 and its move
/// number.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    /// The side to move in the start position.
    pub first: Color,
    /// The start position's move number.
    pub number: u32,
}

impl Start {
    /// The start of a main line from `pos`.
    pub fn of(pos: &shakmaty::Chess) -> Start {
        use shakmaty::Position;
        Start {
            first: pos.turn(),
            number: pos.fullmoves().get(),
        }
    }

    /// The move number of ply `ply` (1-based).
    pub fn number(self, ply: u32) -> u32 {
        let offset = u32::from(self.first == Color::Black);
        self.number
            .saturating_add(ply.saturating_sub(1).saturating_add(offset) / 2)
    }

    /// The side that makes ply `ply`.
    pub fn side(self, ply: u32) -> Color {
        side_of(ply, self.first)
    }
}

/// The time control of a game, as its tag says, and the diagnostic of a
/// tag that says none (`control` is then `None`).
pub(crate) fn control_of(
    tag: Option<(&str, Range<usize>)>,
) -> (Option<TimeControl>, Option<Diagnostic>) {
    let Some((text, span)) = tag else {
        return (None, None);
    };
    match text.parse::<TimeControl>() {
        Ok(tc) => (Some(tc), None),
        Err(why) => {
            let mut d = Diagnostic::new(
                Code::TimeControl,
                span,
                format!(
                    "[TimeControl \"{}\"] is no PGN time control: {why}",
                    super::shown(text)
                ),
            );
            d.help.push(
                "PGN writes `40/7200:3600` (periods of moves/seconds), `300+2` (seconds and increment), `*180` (sandclock), `?` (unknown) or `-` (none)"
                    .to_owned(),
            );
            (None, Some(d))
        }
    }
}

/// Judges the clocks `reader` read in a main line of `plies` plies from
/// `start` under `control` (with the diagnostic of its tag, if any);
/// `move_span` gives the span of ply `ply`'s move (for a missing clock),
/// `clock_span` that of its `[%clk …]`.
pub(crate) fn judge(
    control: (Option<TimeControl>, Option<Diagnostic>),
    mut reader: Reader,
    start: Start,
    plies: u32,
    move_span: &dyn Fn(u32) -> Option<Range<usize>>,
    clock_span: &dyn Fn(u32) -> Option<Range<usize>>,
) -> Judged {
    let (control, tag_problem) = control;
    let mut found: Vec<Diagnostic> = tag_problem.into_iter().collect();
    if reader.clocks.is_empty() && reader.unreadable.is_empty() {
        return Judged {
            control,
            found,
            ..Judged::default()
        };
    }
    reader.finish(plies);
    let placed = |mut d: Diagnostic, ply: u32, token: Option<String>| {
        d.ply = Some(ply);
        d.move_number = Some(start.number(ply));
        d.side = Some(start.side(ply));
        d.token = token;
        d
    };
    for u in &reader.unreadable {
        let mut d = Diagnostic::new(
            Code::ClockUnreadable,
            u.span.clone(),
            format!(
                "`{}` cannot be read: {}",
                super::shown(u.text.trim()),
                u.why
            ),
        );
        d.help.push(format!(
            "write the time as h:mm:ss, as in [%{} 1:23:45] or [%{} 0:02:58.9]",
            u.command.as_str(),
            u.command.as_str()
        ));
        found.push(placed(d, u.ply, Some(u.text.clone())));
    }
    let clk = reader.clocks.clk();
    let clk_span =
        |ply: u32| -> Range<usize> { clock_span(ply).or_else(|| move_span(ply)).unwrap_or(0..0) };
    let token = |ply: u32| reader.clocks.clk_at(ply).map(|t| format!("[%clk {t}]"));
    // Missing clocks: plies without a readable or unreadable `%clk`.
    if !clk.is_empty() && !clk.iter().all(Option::is_some) {
        let unreadable: Vec<u32> = reader
            .unreadable
            .iter()
            .filter(|u| u.command == super::Command::Clk)
            .map(|u| u.ply)
            .collect();
        for (ply, c) in (1u32..).zip(clk) {
            if c.is_some() || unreadable.contains(&ply) {
                continue;
            }
            let Some(span) = move_span(ply) else {
                continue;
            };
            let side = start.side(ply);
            let d = Diagnostic::new(
                Code::ClockMissing,
                span,
                format!(
                    "no clock after {}'s move {}, where the game's other moves have one",
                    side_name(side),
                    start.number(ply)
                ),
            );
            found.push(placed(d, ply, None));
        }
    }
    let mut flag = None;
    let sudden_death = control.as_ref().and_then(TimeControl::sudden_death);
    for side in [Color::White, Color::Black] {
        let first_ply = if start.first == side { 1 } else { 2 };
        if let Some((base, increment)) = sudden_death
            && keeps_time(clk, first_ply, base, increment)
        {
            // Nothing to say of this player's clocks.
            continue;
        }
        let periods = control.as_ref().is_some_and(|c| !c.periods().is_empty());
        let mut track = control
            .as_ref()
            .filter(|_| periods)
            .map(|tc| Track::new(tc, start, side));
        for ply in (first_ply..=plies).step_by(2) {
            let Some(now) = reader.clocks.clk_at(ply) else {
                continue;
            };
            let number = start.number(ply);
            let increment = control.as_ref().map_or(Time::ZERO, |c| c.increment(number));
            if periods && increment > Time::ZERO && now < increment {
                if flag.as_ref().is_none_or(|f: &Flag| f.ply > ply) {
                    flag = Some(Flag {
                        ply,
                        side,
                        move_number: number,
                        clock: now,
                        increment,
                        span: clk_span(ply),
                    });
                }
            } else if now == Time::ZERO && increment == Time::ZERO {
                let d = Diagnostic::new(
                    Code::ClockZero,
                    clk_span(ply),
                    format!(
                        "{}'s clock shows 0:00:00 after move {number}: without an increment the flag fell, or the clock shows only whole seconds",
                        capitalized(side)
                    ),
                );
                found.push(placed(d, ply, token(ply)));
            }
            if let Some(track) = track.as_mut() {
                track.step(
                    ply,
                    now,
                    &mut |d, p| {
                        found.push(placed(d, p, token(p).or_else(|| token(ply))));
                    },
                    &clk_span,
                );
            }
        }
    }
    found.sort_by_key(|d| (d.span.start, d.ply));
    Judged {
        control,
        clocks: reader.clocks,
        found,
        flag,
    }
}

/// Whether the clocks of the player who makes ply `first_ply` and every
/// second ply after it in `clk` all keep a control of one period, `base`
/// and `increment`: at most the previous clock plus the increments since
/// (the first at most `base` plus them), none below the increment, none at
/// 0:00:00 without one. The quick look of the usual game; the player's
/// clocks are followed move by move only when it says no.
fn keeps_time(clk: &[Option<Time>], first_ply: u32, base: Time, increment: Time) -> bool {
    let inc = u64::from(increment.millis());
    let low = increment.max(Time::from_millis(1));
    // The limit for the next clock, and the moves since the last one.
    let mut limit = u64::from(base.millis());
    let mut moves = 0u64;
    for c in clk.iter().skip(first_ply as usize - 1).step_by(2) {
        moves += 1;
        let Some(now) = *c else {
            continue;
        };
        if now < low || u64::from(now.millis()) > limit + moves * inc {
            return false;
        }
        limit = u64::from(now.millis());
        moves = 0;
    }
    true
}

/// One player's clock, followed move by move.
struct Track<'c> {
    /// The control.
    tc: &'c TimeControl,
    /// Where the main line starts.
    start: Start,
    /// The player.
    side: Color,
    /// The last clock read: its ply, move number and time.
    last: Option<(u32, u32, Time)>,
    /// A period completed at this ply and move number whose time the
    /// clock has not shown yet (it may show at the next move).
    owed: Option<(u32, u32, Time)>,
}

impl<'c> Track<'c> {
    /// The clock of `side` under `tc`, in a main line from `start`.
    fn new(tc: &'c TimeControl, start: Start, side: Color) -> Track<'c> {
        Track {
            tc,
            start,
            side,
            last: None,
            owed: None,
        }
    }

    /// The clock `now` after the player's ply `ply`.
    fn step(
        &mut self,
        ply: u32,
        now: Time,
        report: &mut dyn FnMut(Diagnostic, u32),
        span: &dyn Fn(u32) -> Range<usize>,
    ) {
        let (tc, start, side) = (self.tc, self.start, self.side);
        let number = start.number(ply);
        let (from, before) = match self.last {
            Some((_, n, t)) => (n + 1, Some(t)),
            None => (start.number(if side == start.first { 1 } else { 2 }), None),
        };
        let (credit, increments, completed) = tc.window(from, number);
        let completed = completed.map(|(m, t)| (start_ply(start, side, m), m, t));
        // A period's time not shown at its last move may show now.
        let owed = self.owed.take();
        let allowed = credit.saturating_add(owed.map_or(Time::ZERO, |o| o.2));
        let name = capitalized(side);
        let Some(before) = before else {
            let Some(base) = tc.base() else {
                return;
            };
            let limit = base.saturating_add(credit);
            if now > limit {
                let d = Diagnostic::new(
                    Code::ClockStart,
                    span(ply),
                    format!(
                        "{name}'s first clock shows {now} after move {number}, more than the {base} the control {tc} starts with plus the {credit} it adds by then"
                    ),
                );
                report(d, ply);
            }
            self.last = Some((ply, number, now));
            return;
        };
        if now > before.saturating_add(allowed) {
            let mut d = Diagnostic::new(
                Code::ClockRise,
                span(ply),
                format!(
                    "{name}'s clock rose from {before} to {now} by move {number}, more than the {allowed} the control {tc} adds"
                ),
            );
            d.help.push(
                "time given by an arbiter (Law 7.5.5) or by the opponent also shows as a rise; a clock copied to the wrong move or the players' clocks swapped do too"
                    .to_owned(),
            );
            report(d, ply);
        }
        // A period's time shows as a rise beyond the increments: at the
        // move that completes the period, or at the next.
        let shown = now > before.saturating_add(increments);
        match (completed, owed) {
            (Some(c), _) if !shown => self.owed = Some(c),
            (None, Some((p, m, t))) if !shown => period_not_shown(report, span, name, tc, p, m, t),
            _ => {}
        }
        self.last = Some((ply, number, now));
    }
}

/// The ply of `side`'s move number `number` in a main line from `start`.
fn start_ply(start: Start, side: Color, number: u32) -> u32 {
    let first = if side == start.first { 1 } else { 2 };
    first + 2 * number.saturating_sub(start.number(first))
}

/// The `clock-period` warning: the period completed by `name`'s move
/// `number` (ply `ply`) gave `time` that neither that clock nor the next
/// shows.
fn period_not_shown(
    report: &mut dyn FnMut(Diagnostic, u32),
    span: &dyn Fn(u32) -> Range<usize>,
    name: &str,
    tc: &TimeControl,
    ply: u32,
    number: u32,
    time: Time,
) {
    let mut d = Diagnostic::new(
        Code::ClockPeriod,
        span(ply),
        format!(
            "{name}'s move {number} completes a period of the control {tc}, but neither the clock after it nor the next shows the {time} of the next period"
        ),
    );
    d.help.push(
        "under Law 6.2 the time of the next period is added when a period's moves are made; a clock without it counts down to a flag that did not fall"
            .to_owned(),
    );
    report(d, ply);
}

/// "White" or "Black".
pub(crate) fn capitalized(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// How each player used their time, by the clock commands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Usage {
    /// White's.
    pub white: Spent,
    /// Black's.
    pub black: Spent,
    /// A move is played in time trouble when the clock after it shows
    /// less than this: a tenth of the starting time, and at most five
    /// minutes (the mark of Law 8.4, below which a player need not record
    /// the moves).
    pub trouble_below: Time,
}

/// One player's use of time.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Spent {
    /// The time used in all: the sum of the `%emt` times where every move
    /// of the player has one; else, by the last `%clk`, the starting time
    /// plus what the control credited minus that clock. `None` where
    /// neither can be known.
    pub used: Option<Time>,
    /// The plies played in time trouble ([`Usage::trouble_below`]).
    pub trouble: Vec<u32>,
}

/// How each player used their time in a game of `plies` plies from
/// `start` whose clocks are `clocks`, under `control`; `None` when the
/// game has no clock command.
///
/// ```
/// use pgnkit_replay::clock::{Clocks, Start, Time, usage};
/// use shakmaty::Color;
///
/// let s = Time::from_seconds;
/// let clocks = Clocks::new(vec![Some(s(180)), Some(s(178)), Some(s(150)), Some(s(15))], vec![]);
/// let start = Start { first: Color::White, number: 1 };
/// let u = usage(Some(&"180+2".parse().unwrap()), &clocks, start).unwrap();
/// assert_eq!(u.white.used, Some(s(34))); // 180 + 2 + 2 - 150
/// assert_eq!(u.black.used, Some(s(169))); // 180 + 2 + 2 - 15
/// assert_eq!(u.trouble_below, s(18));
/// assert_eq!(u.black.trouble, [4]);
/// ```
pub fn usage(control: Option<&TimeControl>, clocks: &Clocks, start: Start) -> Option<Usage> {
    if clocks.is_empty() {
        return None;
    }
    let plies = u32::try_from(clocks.clk().len().max(clocks.emt().len())).unwrap_or(u32::MAX);
    // The starting time: the control's, or the larger first clock.
    let base = control
        .and_then(TimeControl::base)
        .or_else(|| clocks.clk().iter().take(2).flatten().max().copied());
    let trouble_below = base.map_or(Time::from_seconds(300), |b| {
        Time::from_millis(b.millis() / 10).min(Time::from_seconds(300))
    });
    let spent = |side: Color| {
        let first = if start.first == side { 1 } else { 2 };
        let plies_of = || (first..=plies).step_by(2);
        let emt: Option<Vec<Time>> = (!clocks.emt().is_empty())
            .then(|| plies_of().map(|p| clocks.emt_at(p)).collect())
            .flatten();
        let by_clock = || {
            let (last, t) = plies_of()
                .filter_map(|p| clocks.clk_at(p).map(|t| (p, t)))
                .last()?;
            let tc = control.filter(|c| !c.periods().is_empty())?;
            let credited = (start.number(first)..=start.number(last))
                .fold(tc.base()?, |sum, m| sum.saturating_add(tc.credit(m)));
            Some(credited.saturating_sub(t))
        };
        let used = match emt {
            Some(times) if !times.is_empty() => {
                Some(times.iter().fold(Time::ZERO, |a, t| a.saturating_add(*t)))
            }
            _ => by_clock(),
        };
        Spent {
            used,
            trouble: plies_of()
                .filter(|&p| clocks.clk_at(p).is_some_and(|t| t < trouble_below))
                .collect(),
        }
    };
    Some(Usage {
        white: spent(Color::White),
        black: spent(Color::Black),
        trouble_below,
    })
}
