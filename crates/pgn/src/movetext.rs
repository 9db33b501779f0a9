//! Classifying movetext words: move numbers, results, and everything else (moves, glyphs, junk).

use crate::game::{GameResult, TokenKind};

/// Byte classes of the movetext lexer.
pub(crate) const WORD: u8 = 0;
/// ASCII whitespace as Rust defines it (space, tab, LF, FF, CR).
pub(crate) const SPACE: u8 = 1;
/// A byte that ends a word and starts something else: `{ } ( ) [ ] ; $ "`.
pub(crate) const DELIM: u8 = 2;

/// The class of every byte.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [WORD; 256];
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = SPACE;
    t[b'\n' as usize] = SPACE;
    t[0x0c] = SPACE;
    t[b'\r' as usize] = SPACE;
    t[b'{' as usize] = DELIM;
    t[b'}' as usize] = DELIM;
    t[b'(' as usize] = DELIM;
    t[b')' as usize] = DELIM;
    t[b'[' as usize] = DELIM;
    t[b']' as usize] = DELIM;
    t[b';' as usize] = DELIM;
    t[b'$' as usize] = DELIM;
    t[b'"' as usize] = DELIM;
    t[b'*' as usize] = STAR;
    t
};

/// `*`: part of a word, except at its end (`a5*` is `a5` then the result `*`; `test_*.pgn` is a word).
pub(crate) const STAR: u8 = 3;

/// `…` HORIZONTAL ELLIPSIS in UTF-8.
pub(crate) const ELLIPSIS: &[u8] = "…".as_bytes();

/// What a word (a maximal run of [`WORD`] bytes) starts with.
pub(crate) enum Lexeme {
    /// The whole word is one token of this kind.
    Whole(TokenKind),
    /// A move number with dots (`12.`, `12...`, `12…`) that takes the first `len` bytes; the rest of the
    /// word (`e4` in `1.e4`) is another word.
    Number {
        len: usize,
        number: u32,
        black: bool,
    },
}

/// Classifies a non-empty word.
#[inline]
pub(crate) fn classify(word: &[u8]) -> Lexeme {
    let first = word[0];
    if first.is_ascii_digit() {
        return classify_digits(word);
    }
    if (first == 0xC2 || first == b'*')
        && let Some(r) = GameResult::from_bytes(word)
    {
        return Lexeme::Whole(TokenKind::Result(r));
    }
    Lexeme::Whole(TokenKind::Word)
}

#[inline]
fn classify_digits(word: &[u8]) -> Lexeme {
    // Fast path: `12.` then nothing or a move (`12.e4`), not `12..`/`12.…`.
    if let [a, rest @ ..] = word {
        let a = u32::from(a.wrapping_sub(b'0'));
        let (number, rest) = match rest {
            [b, tail @ ..] if b.is_ascii_digit() => (a * 10 + u32::from(b - b'0'), tail),
            _ => (a, rest),
        };
        if let [b'.', next, ..] = rest
            && *next != b'.'
            && *next != 0xE2
        {
            return Lexeme::Number {
                len: word.len() - rest.len() + 1,
                number,
                black: false,
            };
        }
        if rest == b"." {
            return Lexeme::Number {
                len: word.len(),
                number,
                black: false,
            };
        }
    }
    classify_digits_slow(word)
}

fn classify_digits_slow(word: &[u8]) -> Lexeme {
    let mut i = 0;
    let mut number: u64 = 0;
    while let Some(&d) = word.get(i) {
        if !d.is_ascii_digit() || i >= 10 {
            break;
        }
        number = number * 10 + u64::from(d - b'0');
        i += 1;
    }
    let Ok(number) = u32::try_from(number) else {
        return Lexeme::Whole(TokenKind::Word);
    };
    if word.get(i).is_some_and(u8::is_ascii_digit) {
        return Lexeme::Whole(TokenKind::Word);
    }
    if i == word.len() {
        // ICCF numeric moves (`5254`) are words, not move numbers.
        if pgnkit_notation::token::is_iccf(word) {
            return Lexeme::Whole(TokenKind::Word);
        }
        return Lexeme::Whole(TokenKind::MoveNumber {
            number,
            black: false,
        });
    }
    let (dots_len, dots) = dots(&word[i..]);
    if dots > 0 {
        return Lexeme::Number {
            len: i + dots_len,
            number,
            black: dots >= 2,
        };
    }
    match GameResult::from_bytes(word) {
        Some(r) => Lexeme::Whole(TokenKind::Result(r)),
        None => Lexeme::Whole(TokenKind::Word),
    }
}

/// Length of the leading run of `.` and `…` in `s`, and how many dots it stands for (`…` = 3).
pub(crate) fn dots(s: &[u8]) -> (usize, usize) {
    let mut i = 0;
    let mut n = 0;
    loop {
        if s.get(i) == Some(&b'.') {
            i += 1;
            n += 1;
        } else if s[i..].starts_with(ELLIPSIS) {
            i += ELLIPSIS.len();
            n += 3;
        } else {
            return (i, n);
        }
    }
}

/// Whether a whole word is only black's dots (`..`, `...`, `…`), which merge into a preceding number.
pub(crate) fn is_ellipsis(word: &[u8]) -> bool {
    let (len, n) = dots(word);
    len == word.len() && n >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(w: &str) -> TokenKind {
        match classify(w.as_bytes()) {
            Lexeme::Whole(k) => k,
            Lexeme::Number { number, black, .. } => TokenKind::MoveNumber { number, black },
        }
    }

    #[test]
    fn words() {
        use GameResult::*;
        assert_eq!(kind("1-0"), TokenKind::Result(WhiteWins));
        assert_eq!(kind("0-1"), TokenKind::Result(BlackWins));
        assert_eq!(kind("1/2-1/2"), TokenKind::Result(Draw));
        assert_eq!(kind("½-½"), TokenKind::Result(Draw));
        assert_eq!(kind("1:0"), TokenKind::Result(WhiteWins));
        assert_eq!(kind("*"), TokenKind::Result(Unknown));
        assert_eq!(kind("0-0"), TokenKind::Word);
        assert_eq!(kind("0-0-0"), TokenKind::Word);
        assert_eq!(kind("0–0"), TokenKind::Word);
        assert_eq!(kind("1-0-0"), TokenKind::Word);
        assert_eq!(kind("**"), TokenKind::Word);
        assert_eq!(kind("½"), TokenKind::Word);
        assert_eq!(
            kind("12"),
            TokenKind::MoveNumber {
                number: 12,
                black: false
            }
        );
        assert_eq!(
            kind("12…"),
            TokenKind::MoveNumber {
                number: 12,
                black: true
            }
        );
        assert_eq!(kind("99999999999"), TokenKind::Word);
        // ICCF numeric moves are words; other bare numbers are move numbers.
        assert_eq!(kind("5254"), TokenKind::Word);
        assert_eq!(kind("27281"), TokenKind::Word);
        assert_eq!(
            kind("1990"),
            TokenKind::MoveNumber {
                number: 1990,
                black: false
            }
        );
        assert_eq!(
            kind("27291"),
            TokenKind::MoveNumber {
                number: 27291,
                black: false
            }
        );
        // A move number glued to an ICCF move keeps its length; the rest is a word.
        assert!(matches!(
            classify(b"1.5254"),
            Lexeme::Number {
                len: 2,
                number: 1,
                black: false
            }
        ));
        assert!(matches!(
            classify(b"12...5755"),
            Lexeme::Number {
                len: 5,
                number: 12,
                black: true
            }
        ));
        assert!(matches!(
            classify(b"5254."),
            Lexeme::Number {
                len: 5,
                number: 5254,
                black: false
            }
        ));
        assert!(matches!(
            classify(b"1.e4"),
            Lexeme::Number {
                len: 2,
                number: 1,
                black: false
            }
        ));
        assert!(matches!(
            classify(b"12...Nf6"),
            Lexeme::Number {
                len: 5,
                number: 12,
                black: true
            }
        ));
        assert!(is_ellipsis(b"..."));
        assert!(is_ellipsis("…".as_bytes()));
        assert!(!is_ellipsis(b"."));
        assert!(!is_ellipsis(b"...e5"));
    }
}
