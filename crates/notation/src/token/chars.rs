//! The characters of a move as read: invisible ones dropped, look-alikes
//! (dashes, multiplication signs, Arabic digits) in their normal form,
//! piece letters and figurines told apart.

use shakmaty::Role;

use super::{MAX_TOKEN_CHARS, ParseError};

/// Maps one input character to its normal form; `None` drops it.
pub(super) fn normalize(c: char) -> Option<char> {
    Some(match c {
        // variation selectors, zero-width characters, bidi controls (the
        // Arabic letter mark too), BOM
        '\u{061C}'
        | '\u{FE0E}'
        | '\u{FE0F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}'
        | '\u{AD}' => return None,
        // dashes and minus signs
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => '-',
        // multiplication sign, Cyrillic ha: capture (or mate when trailing)
        '×' | '\u{2715}' | 'х' | 'Х' => 'x',
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => ' ',
        // Eastern Arabic and Persian digits: ranks as Arabic print writes them
        '\u{660}'..='\u{669}' => digit(u32::from(c) - 0x660),
        '\u{6F0}'..='\u{6F9}' => digit(u32::from(c) - 0x6F0),
        // full stop variants in e.p.
        _ => c,
    })
}

/// The ASCII digit of value `d` (0-9).
fn digit(d: u32) -> char {
    char::from_digit(d, 10).unwrap_or('0')
}

/// Whether `c` is a letter of a script without case (Arabic, Hebrew, ...):
/// such a letter before a move's coordinates is its piece letter, as an
/// uppercase Latin, Cyrillic or Greek letter is.
fn is_caseless_letter(c: char) -> bool {
    !c.is_ascii() && c.is_alphabetic() && !c.is_lowercase() && !c.is_uppercase()
}

/// Whether `c` can stand as a piece letter: uppercase, or a letter without case.
pub(super) fn is_piece_letter(c: char) -> bool {
    c.is_uppercase() || is_caseless_letter(c)
}

/// A fixed buffer of normalized characters.
pub(super) struct Buf {
    chars: [char; MAX_TOKEN_CHARS],
    len: usize,
}

impl Buf {
    pub(super) fn from_str(text: &str) -> Result<Buf, ParseError> {
        let mut buf = Buf {
            chars: ['\0'; MAX_TOKEN_CHARS],
            len: 0,
        };
        for c in text.chars().filter_map(normalize) {
            if buf.len == MAX_TOKEN_CHARS {
                return Err(ParseError::TooLong);
            }
            buf.chars[buf.len] = c;
            buf.len += 1;
        }
        Ok(buf)
    }

    pub(super) fn as_slice(&self) -> &[char] {
        &self.chars[..self.len]
    }
}

pub(super) fn ends_with(s: &[char], pat: &str) -> bool {
    let n = pat.chars().count();
    s.len() >= n && s[s.len() - n..].iter().copied().eq(pat.chars())
}

pub(super) fn is_figurine(c: char) -> Option<Role> {
    Some(match c {
        '♔' | '♚' => Role::King,
        '♕' | '♛' => Role::Queen,
        '♖' | '♜' => Role::Rook,
        '♗' | '♝' => Role::Bishop,
        '♘' | '♞' => Role::Knight,
        '♙' | '♟' => Role::Pawn,
        _ => return None,
    })
}

/// Whether `c` can end a complete move (so that a mark may follow it).
pub(super) fn ends_move(c: char) -> bool {
    c.is_ascii_digit()
        || c == ')'
        || c == 'O'
        || c == 'o'
        || is_piece_letter(c)
        || is_figurine(c).is_some()
}
