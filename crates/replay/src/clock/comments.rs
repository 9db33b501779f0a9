//! The clock commands of comments (the PGN supplement's embedded commands):
//! `[%clk 1:23:45]`, the time left on the player's clock after the move,
//! and `[%emt 0:00:12]`, the time the move took; `h:mm:ss` with an
//! optional fraction of a second (`0:02:58.9`).
//!
//! ```
//! use pgnkit_replay::clock::{Command, Time, commands, without_clocks};
//!
//! let mut found = Vec::new();
//! commands(b" [%eval 0.2] [%clk 0:02:58.9] ", |c, at, t| found.push((c, at, t)));
//! assert_eq!(found, [(Command::Clk, 13..29, Ok(Time::from_millis(178_900)))]);
//! assert_eq!(without_clocks(" [%clk 0:01:00] good move "), Some(" good move ".to_owned()));
//! ```

use std::fmt;
use std::ops::Range;

use super::Time;

/// A clock command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `[%clk …]`: the time left after the move.
    Clk,
    /// `[%emt …]`: the time the move took.
    Emt,
}

impl Command {
    /// `clk` or `emt`.
    pub fn as_str(self) -> &'static str {
        match self {
            Command::Clk => "clk",
            Command::Emt => "emt",
        }
    }
}

/// Why a clock command's time cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadTime {
    /// Not `h:mm:ss` with digits.
    NotATime,
    /// A negative time.
    Negative,
    /// 24 hours or more: no clock shows it.
    TooLong,
    /// Minutes or seconds of 60 or more.
    OutOfRange,
    /// More than three digits after the seconds' point.
    TooPrecise,
    /// No `]` ends the command.
    Unterminated,
}

impl fmt::Display for BadTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadTime::NotATime => "it is not a time written h:mm:ss",
            BadTime::Negative => "a time cannot be negative",
            BadTime::TooLong => "24 hours or more is no time a chess clock shows",
            BadTime::OutOfRange => "minutes and seconds go up to 59",
            BadTime::TooPrecise => "a clock shows at most thousandths of a second",
            BadTime::Unterminated => "no `]` ends the command",
        })
    }
}

/// Calls `found` with each clock command in the comment `text`: which
/// command, its bytes in `text` (from `[` to `]`), and its time or why it
/// cannot be read. Other commands (`[%eval …]`, `[%cal …]`) and words are
/// passed over; a comment without `[%` costs one search.
pub fn commands(text: &[u8], mut found: impl FnMut(Command, Range<usize>, Result<Time, BadTime>)) {
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|rest| find(b'[', rest)) {
        let start = from + i;
        let command = match text.get(start + 1..start + 5) {
            Some(b"%clk") => Command::Clk,
            Some(b"%emt") => Command::Emt,
            _ => {
                from = start + 1;
                continue;
            }
        };
        let after = start + 5;
        // `[%clkx …]` is another command.
        if !text
            .get(after)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b']')
        {
            from = after;
            continue;
        }
        let rest = text.get(after..).unwrap_or_default();
        match find(b']', rest) {
            Some(j) => {
                let end = after + j + 1;
                found(command, start..end, time(&rest[..j]));
                from = end;
            }
            None => {
                found(command, start..text.len(), Err(BadTime::Unterminated));
                return;
            }
        }
    }
}

/// The first `byte` in `hay`: a plain loop over the few bytes of the
/// usual comment (`{ [%clk 0:05:00] }`), memchr over longer ones.
#[inline]
fn find(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 32 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}

/// A time as the clock commands write it: `h:mm:ss` or `h:mm:ss.f` (up to
/// thousandths), spaces around it allowed.
///
/// ```
/// use pgnkit_replay::clock::{BadTime, Time, parse_time};
///
/// assert_eq!(parse_time(b"1:23:45"), Ok(Time::from_seconds(5025)));
/// assert_eq!(parse_time(b"0:00:07.25"), Ok(Time::from_millis(7250)));
/// assert_eq!(parse_time(b"1:xx:00"), Err(BadTime::NotATime));
/// assert_eq!(parse_time(b"25:00:00"), Err(BadTime::TooLong));
/// assert_eq!(parse_time(b"-0:00:05"), Err(BadTime::Negative));
/// ```
pub fn parse_time(text: &[u8]) -> Result<Time, BadTime> {
    time(text)
}

fn time(text: &[u8]) -> Result<Time, BadTime> {
    let text = text.trim_ascii();
    // `h:mm:ss` as servers write it, at once.
    if let &[h, b':', m1, m2, b':', s1, s2] = text
        && let Some(t) = hms([h, m1, m2, s1, s2])
    {
        return Ok(t);
    }
    if text.first() == Some(&b'-') {
        return Err(BadTime::Negative);
    }
    // h, mm and ss: digits, leading zeros allowed (`00:59:01`); a number
    // of more than six significant digits is too long, however written.
    let mut fields = [0u32; 3];
    let mut too_long = false;
    let mut i = 0;
    for (k, field) in fields.iter_mut().enumerate() {
        let begin = i;
        let mut significant = 0;
        while let Some(&b) = text.get(i)
            && b.is_ascii_digit()
        {
            if significant > 0 || b != b'0' {
                significant += 1;
            }
            if significant <= 6 {
                *field = *field * 10 + u32::from(b - b'0');
            }
            i += 1;
        }
        if i == begin {
            return Err(BadTime::NotATime);
        }
        too_long |= significant > 6;
        if k < 2 {
            if text.get(i) != Some(&b':') {
                return Err(BadTime::NotATime);
            }
            i += 1;
        }
    }
    let mut millis = 0;
    let mut decimals = 0usize;
    if text.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&b) = text.get(i)
            && b.is_ascii_digit()
        {
            if decimals < 3 {
                millis += u32::from(b - b'0') * [100, 10, 1][decimals];
            }
            decimals += 1;
            i += 1;
        }
    }
    if i != text.len() {
        return Err(BadTime::NotATime);
    }
    let [h, m, sec] = fields;
    if too_long || h >= 24 {
        return Err(BadTime::TooLong);
    }
    if m >= 60 || sec >= 60 {
        return Err(BadTime::OutOfRange);
    }
    if decimals > 3 {
        return Err(BadTime::TooPrecise);
    }
    Ok(Time::from_millis(((h * 60 + m) * 60 + sec) * 1000 + millis))
}

/// The time `h:mm:ss` of the five digits `[h, m, m, s, s]`, if they are
/// digits and the minutes and seconds under 60.
#[inline(always)]
pub(crate) fn hms(digits: [u8; 5]) -> Option<Time> {
    let [h, m1, m2, s1, s2] = digits.map(|b| b.wrapping_sub(b'0'));
    if h > 9 || m1 > 5 || m2 > 9 || s1 > 5 || s2 > 9 {
        return None;
    }
    let seconds = u32::from(h) * 3600 + u32::from(m1 * 10 + m2) * 60 + u32::from(s1 * 10 + s2);
    Some(Time::from_seconds(seconds))
}

/// The comment `text` without its clock commands (`[%clk …]`, `[%emt …]`,
/// readable or not), every other byte kept, and the space next to a
/// command removed with it; `None` when it has none. An empty or blank
/// result means the comment held only clocks.
pub fn without_clocks(text: &str) -> Option<String> {
    with_clocks_replaced(text, None)
}

/// The comment `text` with its first clock command replaced by `first`
/// (`None`: removed) and the others removed, every other byte kept, and
/// the space next to a removed command removed with it; `None` when it has
/// no clock command.
pub fn with_clocks_replaced(text: &str, first: Option<&str>) -> Option<String> {
    let bytes = text.as_bytes();
    let mut cuts: Vec<Range<usize>> = Vec::new();
    commands(bytes, |_, at, _| cuts.push(at));
    if cuts.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut kept = 0;
    for (i, cut) in cuts.into_iter().enumerate() {
        let (mut start, mut end) = (cut.start, cut.end);
        let replacement = if i == 0 { first } else { None };
        if replacement.is_none() {
            // A command between spaces (or a space and an end) takes one of
            // them with it; one touching other text takes none.
            let before = start > kept && bytes.get(start - 1) == Some(&b' ');
            let after = bytes.get(end) == Some(&b' ');
            if before && (after || end == bytes.len()) {
                start -= 1;
            } else if after && (before || start == 0) {
                end += 1;
            }
        }
        out.push_str(text.get(kept..start).unwrap_or_default());
        out.push_str(replacement.unwrap_or_default());
        kept = end;
    }
    out.push_str(text.get(kept..).unwrap_or_default());
    Some(out)
}

/// `text` with `command`'s time written in it: the first such command's
/// time replaced, or the command added at the end; as
/// [`Time`]'s `Display` writes times.
pub fn with_command(text: &str, command: Command, value: Time) -> String {
    let written = format!("[%{} {value}]", command.as_str());
    let mut first = None;
    commands(text.as_bytes(), |c, at, _| {
        if c == command && first.is_none() {
            first = Some(at);
        }
    });
    match first {
        Some(at) => format!(
            "{}{written}{}",
            text.get(..at.start).unwrap_or_default(),
            text.get(at.end..).unwrap_or_default()
        ),
        None if text.trim().is_empty() => written,
        None => format!("{} {written}", text.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8]) -> Vec<(Command, Result<Time, BadTime>)> {
        let mut v = Vec::new();
        commands(text, |c, _, t| v.push((c, t)));
        v
    }

    #[test]
    fn clocks_are_read_among_other_commands_and_words() {
        assert_eq!(
            all(b"[%clk 0:00:07][%eval -6.05] White is toast [%emt 0:00:03]"),
            [
                (Command::Clk, Ok(Time::from_seconds(7))),
                (Command::Emt, Ok(Time::from_seconds(3)))
            ]
        );
        assert_eq!(
            all(b"[%clk\n1:57:03]"),
            [(Command::Clk, Ok(Time::from_seconds(7023)))]
        );
        assert_eq!(all(b"[%clkx 1:00:00] [%eval 1] [%"), []);
    }

    #[test]
    fn garbage_is_an_error_never_a_panic() {
        let million = format!("[%clk {}:00:00]", "9".repeat(1_000_000));
        for (text, why) in [
            (&b"[%clk 1:xx]"[..], BadTime::NotATime),
            (b"[%clk -0:00:05]", BadTime::Negative),
            (b"[%clk 25:00:00]", BadTime::TooLong),
            (million.as_bytes(), BadTime::TooLong),
            (b"[%clk 0:61:00]", BadTime::OutOfRange),
            (b"[%clk 59:01]", BadTime::NotATime),
            (b"[%clk 1.55:05]", BadTime::NotATime),
            (b"[%clk 0:00:01.2345]", BadTime::TooPrecise),
            (b"[%clk ]", BadTime::NotATime),
            (b"[%clk]", BadTime::NotATime),
            (b"[%emt 0:00:01", BadTime::Unterminated),
        ] {
            assert_eq!(all(text).first().map(|f| f.1.clone()), Some(Err(why)));
        }
        let zeros = format!("[%clk {}1:00:00]", "0".repeat(100_000));
        assert_eq!(all(zeros.as_bytes())[0].1, Ok(Time::from_seconds(3600)));
    }

    #[test]
    fn clocks_are_taken_out_and_the_rest_kept() {
        assert_eq!(without_clocks("[%clk 0:05:00]"), Some(String::new()));
        assert_eq!(
            without_clocks("[%clk 0:00:07][%eval -6.05] White is toast"),
            Some("[%eval -6.05] White is toast".to_owned())
        );
        assert_eq!(
            without_clocks(" Fine. [%emt 0:00:03] [%clk 0:01:00] Really "),
            Some(" Fine. Really ".to_owned())
        );
        assert_eq!(without_clocks("no clock"), None);
    }

    #[test]
    fn a_command_is_written_or_replaced() {
        let t = Time::from_millis(61_500);
        assert_eq!(with_command("", Command::Emt, t), "[%emt 0:01:01.5]");
        assert_eq!(with_command("ok", Command::Clk, t), "ok [%clk 0:01:01.5]");
        assert_eq!(
            with_command("[%clk 0:00:01] ok", Command::Clk, t),
            "[%clk 0:01:01.5] ok"
        );
    }
}
