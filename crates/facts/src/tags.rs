//! The tag values kept in sortable form: dates, ECO codes and ratings
//! (the result is a [`GameResult`](pgnkit_pgn::GameResult)). The same
//! functions read tags when a game is indexed and when a file is scanned
//! without an index, so both give the same answers.

use std::fmt;

/// A PGN date as a sortable integer `YYYYMMDD`; unknown parts are `00`
/// (`1972.??.??` is `19720000`), an unknown year is `0` (no date).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub u32);

impl Date {
    /// No date at all (`????.??.??`, missing or unreadable tag).
    pub const UNKNOWN: Date = Date(0);

    /// Reads a PGN date (`1972.07.11`, `1972.??.??`, `1972`, also with `-`
    /// or `/` between the parts). Anything without a 4-digit year is
    /// [`Date::UNKNOWN`]; a month outside 1-12 or a day outside 1-31 is
    /// unknown (`00`), and so is the day when the month is unknown.
    pub fn parse(text: &str) -> Date {
        let mut parts = text.trim().split(['.', '-', '/']);
        let number = |p: Option<&str>, digits: usize| -> Option<u32> {
            let p = p?.trim();
            if p.len() != digits {
                return None;
            }
            decimal(p)
        };
        let Some(year) = number(parts.next(), 4).filter(|&y| y > 0) else {
            return Date::UNKNOWN;
        };
        let month = number(parts.next(), 2).filter(|m| (1..=12).contains(m));
        let day = month.and(number(parts.next(), 2).filter(|d| (1..=31).contains(d)));
        Date(year * 10000 + month.unwrap_or(0) * 100 + day.unwrap_or(0))
    }

    /// Whether the year is known.
    pub fn is_known(self) -> bool {
        self.0 != 0
    }

    /// The earliest day this (partial) date can be: unknown parts `00`.
    pub fn earliest(self) -> u32 {
        self.0
    }

    /// The latest day this (partial) date can be: unknown parts `99`.
    pub fn latest(self) -> u32 {
        let (y, m, d) = (self.0 / 10000, self.0 / 100 % 100, self.0 % 100);
        let m2 = if m == 0 { 99 } else { m };
        let d2 = if m == 0 || d == 0 { 99 } else { d };
        y * 10000 + m2 * 100 + d2
    }
}

impl fmt::Display for Date {
    /// `1972.07.11`, `1972.??.??`, `????.??.??`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = (self.0 / 10000, self.0 / 100 % 100, self.0 % 100);
        let part = |v: u32, w: usize| {
            if v == 0 {
                "?".repeat(w)
            } else {
                format!("{v:0w$}")
            }
        };
        write!(f, "{}.{}.{}", part(y, 4), part(m, 2), part(d, 2))
    }
}

/// An ECO code (`A00` to `E99`) as a number: `(letter - 'A') * 100 + number`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eco(pub u16);

impl Eco {
    /// The stored value for "no ECO code".
    pub const NONE: u16 = u16::MAX;

    /// Reads the ECO code at the start of a tag value (`B90`, `b90`,
    /// `B90a`); `None` when it does not start with a letter A-E and two
    /// digits.
    pub fn parse(text: &str) -> Option<Eco> {
        let b = text.trim().as_bytes();
        let letter = b.first()?.to_ascii_uppercase();
        let (d1, d2) = (*b.get(1)?, *b.get(2)?);
        if !(b'A'..=b'E').contains(&letter) || !d1.is_ascii_digit() || !d2.is_ascii_digit() {
            return None;
        }
        if b.get(3).is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
        Some(Eco(u16::from(letter - b'A') * 100
            + u16::from(d1 - b'0') * 10
            + u16::from(d2 - b'0')))
    }

    /// Reads an ECO range as `--eco` takes it: `B90` (one code), `B9`
    /// (B90-B99), `B` (B00-B99), or two of these joined by `-`
    /// (`A00-B99`, `C6-C9`).
    pub fn parse_range(text: &str) -> Result<(Eco, Eco), String> {
        let bad = || {
            format!(
                "bad ECO range `{text}`: use a code (B90), a prefix (B9, B) or a range (A00-B99)"
            )
        };
        let prefix = |p: &str| -> Option<(Eco, Eco)> {
            let b = p.trim().as_bytes();
            let letter = b.first()?.to_ascii_uppercase();
            if !(b'A'..=b'E').contains(&letter)
                || b.len() > 3
                || !b[1..].iter().all(u8::is_ascii_digit)
            {
                return None;
            }
            let base = u16::from(letter - b'A') * 100;
            let digits: Vec<u16> = b[1..].iter().map(|d| u16::from(d - b'0')).collect();
            Some(match digits.as_slice() {
                [] => (Eco(base), Eco(base + 99)),
                [t] => (Eco(base + t * 10), Eco(base + t * 10 + 9)),
                [t, u] => (Eco(base + t * 10 + u), Eco(base + t * 10 + u)),
                _ => return None,
            })
        };
        let (lo, hi) = match text.split_once('-') {
            Some((a, b)) => {
                let (lo, _) = prefix(a).ok_or_else(bad)?;
                let (_, hi) = prefix(b).ok_or_else(bad)?;
                (lo, hi)
            }
            None => prefix(text).ok_or_else(bad)?,
        };
        if lo > hi {
            return Err(format!(
                "bad ECO range `{text}`: the first code is after the second"
            ));
        }
        Ok((lo, hi))
    }
}

impl fmt::Display for Eco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'A' + (self.0 / 100).min(25) as u8);
        write!(f, "{letter}{:02}", self.0 % 100)
    }
}

/// A rating tag (`WhiteElo`, `BlackElo`) as a number; `0` when missing or
/// not a number (`-`, `?`, empty).
pub fn elo(text: &str) -> u16 {
    let t = text.trim();
    if t.is_empty() || t.len() > 5 {
        return 0;
    }
    decimal(t).map_or(0, |v| v.min(u32::from(u16::MAX)) as u16)
}

/// The number written by the ASCII digits `t` (at most 9 of them: no
/// overflow), or `None` if anything else is in it.
fn decimal(t: &str) -> Option<u32> {
    if t.len() > 9 {
        return None;
    }
    t.bytes().try_fold(0u32, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_sortable_and_partial() {
        assert_eq!(Date::parse("1972.07.11"), Date(19720711));
        assert_eq!(Date::parse("1972.??.??"), Date(19720000));
        assert_eq!(Date::parse("1972.07.??"), Date(19720700));
        assert_eq!(Date::parse("1972-07-11"), Date(19720711));
        assert_eq!(Date::parse("????.??.??"), Date::UNKNOWN);
        assert_eq!(Date::parse(""), Date::UNKNOWN);
        assert_eq!(Date::parse("1972.13.01"), Date(19720000));
        assert_eq!(Date::parse("1972.??.05"), Date(19720000));
        assert_eq!(Date::parse("+972.07.11"), Date::UNKNOWN);
        assert_eq!(Date::parse("1972.+7.11"), Date(19720000));
        assert_eq!(Date::parse("0000.07.11"), Date::UNKNOWN);
        assert_eq!(Date(19720000).latest(), 19729999);
        assert_eq!(Date(19720700).latest(), 19720799);
        assert_eq!(Date(19720711).latest(), 19720711);
        assert_eq!(Date(19720700).to_string(), "1972.07.??");
        assert_eq!(Date::UNKNOWN.to_string(), "????.??.??");
    }

    #[test]
    fn eco_codes_and_ranges() {
        assert_eq!(Eco::parse("B90"), Some(Eco(190)));
        assert_eq!(Eco::parse("e99"), Some(Eco(499)));
        assert_eq!(Eco::parse("B90a"), Some(Eco(190)));
        assert_eq!(Eco::parse("F00"), None);
        assert_eq!(Eco::parse("B9"), None);
        assert_eq!(Eco::parse("B900"), None);
        assert_eq!(Eco(190).to_string(), "B90");
        assert_eq!(Eco::parse_range("A00-B99"), Ok((Eco(0), Eco(199))));
        assert_eq!(Eco::parse_range("C6"), Ok((Eco(260), Eco(269))));
        assert_eq!(Eco::parse_range("d"), Ok((Eco(300), Eco(399))));
        assert!(Eco::parse_range("B99-A00").is_err());
        assert!(Eco::parse_range("Z1").is_err());
    }

    #[test]
    fn ratings() {
        assert_eq!(elo(" 2785 "), 2785);
        assert_eq!(elo("-"), 0);
        assert_eq!(elo("?"), 0);
        assert_eq!(elo("99999"), u16::MAX);
        assert_eq!(elo("27OO"), 0);
        assert_eq!(elo("+2700"), 0);
        assert_eq!(elo("123456"), 0);
    }
}
