//! Lexical reading of one move token, without a position and without choosing a language.
//!
//! [`parse_move`] takes what a person or a program wrote for one move — SAN, long
//! algebraic, UCI, ICCF numeric, figurines, national letters, the spoken form — and keeps what
//! was written: the piece abbreviation (still uninterpreted), origin and
//! destination coordinates, capture mark, promotion, and the marks attached to
//! the move (check, mate, move glyph, draw offer, en passant). Resolving it
//! against a position under a language is [`MoveToken::resolve`](crate::read).
//!
//! Plain ASCII SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`) goes through shakmaty's own
//! SAN parser and never allocates; every other form goes through a small
//! hand-written lexer over a fixed buffer (tokens longer than
//! [`MAX_TOKEN_CHARS`] characters are refused), so parsing never allocates.

use std::fmt;

use shakmaty::san::San;

mod body;
mod chars;
mod iccf;
mod marks;
mod move_token;
mod san;
mod spoken;
#[cfg(test)]
mod tests;

pub(crate) use body::spoken_token;
pub use iccf::is_iccf;
pub use marks::{annotation_glyph, parse_annotation, with_suffix};
pub use move_token::MoveToken;
pub(crate) use move_token::{Body, Coords, PieceMark};
pub(crate) use san::{parse_plain_san, plain_san};

use body::parse_plain_descriptive;
use san::{parse_other, split_check_mark, token_from_san};

/// Tokens longer than this many characters (after dropping invisible
/// characters) are refused with [`ParseError::TooLong`].
pub const MAX_TOKEN_CHARS: usize = 64;

/// The check or mate mark the writer attached to a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Suffix {
    /// No mark.
    #[default]
    None,
    /// `+`, `†`, `ch`.
    Check,
    /// `++`: double check in Russian and Czech usage, mate in FIDE's Appendix C;
    /// a checker should accept it for a mate or a check.
    DoubleCheck,
    /// `#`, `‡`, or a trailing `x`/`х` after a complete move (old Russian and Czech).
    Mate,
}

impl Suffix {
    /// The mark at the end of a word of plain SAN (`Nf3+`, `Qxf7#`), as
    /// [`parse_move`] reads it.
    pub fn of_plain_san(word: &[u8]) -> Suffix {
        split_check_mark(word).0
    }
}

/// A mark written as its own word after a move (it applies to that move).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Annotation {
    /// `e.p.`, `ep`.
    EnPassant,
    /// `+`, `†`, `ch`.
    Check,
    /// `++`.
    DoubleCheck,
    /// `#`, `‡`, `mate`, and a lone `x`/`х`/`X` (old Russian/Czech mate).
    Mate,
    /// A move glyph: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6 (PGN NAG numbers).
    Nag(u8),
    /// `(=)` or a lone `=`: the FIDE scoresheet mark of a draw offer.
    DrawOffer,
}

/// Why a token is no move in any supported notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParseError {
    /// The token is empty (or only invisible characters and marks).
    Empty,
    /// The token is longer than [`MAX_TOKEN_CHARS`] characters.
    TooLong,
    /// The token is no move in any supported notation.
    Unparsable,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseError::Empty => "the move is empty",
            ParseError::TooLong => "the token is too long to be a move",
            ParseError::Unparsable => "the token is no move in any supported notation",
        })
    }
}

impl std::error::Error for ParseError {}

/// Parses one move token. See the [module docs](self) for the forms accepted.
///
/// # Errors
///
/// [`ParseError`] when the text is empty, too long, or no move in any notation.
#[inline]
pub fn parse_move(text: &str) -> Result<MoveToken, ParseError> {
    if let Some(token) = parse_plain_san(text.as_bytes()) {
        return Ok(token);
    }
    // Descriptive notation before shakmaty's parser, which never reads it.
    if text.len() <= MAX_TOKEN_CHARS
        && let Some(token) = parse_plain_descriptive(text.as_bytes())
    {
        return Ok(token);
    }
    // Plain SAN with at most a `+`/`#` suffix: shakmaty's parser alone (it
    // accepts only ASCII, so no separate ASCII check is needed).
    if let Ok(san) = San::from_ascii(text.as_bytes())
        && let Some(token) = token_from_san(san, text.as_bytes())
    {
        return Ok(token);
    }
    parse_other(text)
}
