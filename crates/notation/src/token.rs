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
use std::ops::Range;

use shakmaty::{CastlingSide, File, Rank, Role, Square, san::San};

use crate::language::{Language, LanguageSet};
use crate::spoken;

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

/// A written piece abbreviation of one or two characters (`N`, `Kt`, `Кр`), uninterpreted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Letters {
    /// UTF-16 code units of one or two letters (piece letters are all in the BMP); 0 = none.
    units: [u16; 2],
}

impl Letters {
    /// The letters, or `None` for characters outside the BMP (no piece letter is).
    fn new(a: char, b: Option<char>) -> Option<Letters> {
        let unit = |c: char| u16::try_from(u32::from(c)).ok().filter(|u| *u != 0);
        Some(Letters {
            units: [unit(a)?, b.map_or(Some(0), unit)?],
        })
    }

    /// The roles these letters mean under `lang` (English fallback included).
    pub(crate) fn roles(self, lang: Language) -> u8 {
        let (chars, n) = self.chars();
        lang.roles(&chars[..n])
    }

    /// The languages under which these letters mean some piece (English
    /// fallback included).
    pub(crate) fn languages(self) -> LanguageSet {
        let (chars, n) = self.chars();
        Language::ALL
            .iter()
            .copied()
            .filter(|lang| lang.roles(&chars[..n]) != 0)
            .collect()
    }

    /// The languages in which these letters mean some piece of their own.
    pub(crate) fn own_languages(self) -> LanguageSet {
        let (chars, n) = self.chars();
        Language::ALL
            .iter()
            .copied()
            .filter(|lang| lang.own_roles(&chars[..n]) != 0)
            .collect()
    }

    fn chars(self) -> ([char; 2], usize) {
        let c = |u: u16| char::from_u32(u32::from(u)).unwrap_or('\0');
        (
            [c(self.units[0]), c(self.units[1])],
            if self.units[1] == 0 { 1 } else { 2 },
        )
    }
}

/// How a piece (moving or promoted-to) was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PieceMark {
    /// Nothing written.
    None,
    /// Letters to be read under a language.
    Letters(Letters),
    /// A language-neutral mark: figurine, spoken name, UCI lowercase promotion letter.
    Role(Role),
}

/// Coordinates as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Coords {
    pub(crate) from_file: Option<File>,
    pub(crate) from_rank: Option<Rank>,
    pub(crate) capture: bool,
    pub(crate) to_file: File,
    /// `None` for abbreviated pawn captures (`ed`, `exd`).
    pub(crate) to_rank: Option<Rank>,
}

/// The shape of the move part of a token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Body {
    /// ASCII SAN accepted by shakmaty's parser; its letters are English
    /// uppercase (`N B R Q K`, promotion letters) and the flag says whether a
    /// `P` was written before a pawn move.
    San(San, bool),
    /// `O-O`, `0-0-0`, `kurze Rochade`, ...
    Castle(CastlingSide),
    /// Everything else with coordinates.
    Coords(Coords),
    /// A null move (`--`, `Z0`, `0000`): never legal.
    Null,
    /// Descriptive notation (`P-K4`, `NxP(Q5)`; Spanish `P4R`), read in
    /// English and in Spanish, Italian and French.
    Descriptive(crate::descriptive::Readings),
}

/// One move token as written, parsed without a position and without choosing a language.
///
/// Cheap to create (never allocates) and `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveToken {
    pub(crate) body: Body,
    pub(crate) piece: PieceMark,
    pub(crate) promotion: PieceMark,
    marks: Marks,
}

/// The marks attached to a move, packed in one byte: bits 0-1 suffix,
/// 2-4 NAG (0 = none), 5 draw offer, 6 en passant, 7 trailing capture mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
struct Marks(u8);

impl Marks {
    const DRAW: u8 = 1 << 5;
    const EP: u8 = 1 << 6;
    const CAPTURE: u8 = 1 << 7;

    fn suffix(self) -> Suffix {
        match self.0 & 3 {
            1 => Suffix::Check,
            2 => Suffix::DoubleCheck,
            3 => Suffix::Mate,
            _ => Suffix::None,
        }
    }

    fn set_suffix(&mut self, suffix: Suffix) {
        let bits = match suffix {
            Suffix::None => 0,
            Suffix::Check => 1,
            Suffix::DoubleCheck => 2,
            Suffix::Mate => 3,
        };
        self.0 = (self.0 & !3) | bits;
    }

    fn nag(self) -> Option<u8> {
        match (self.0 >> 2) & 7 {
            0 => None,
            n => Some(n),
        }
    }

    fn set_nag(&mut self, nag: Option<u8>) {
        self.0 = (self.0 & !(7 << 2)) | (nag.unwrap_or(0).min(7) << 2);
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    fn set(&mut self, bit: u8, on: bool) {
        if on {
            self.0 |= bit;
        }
    }
}

impl MoveToken {
    fn new(body: Body) -> MoveToken {
        MoveToken {
            body,
            piece: PieceMark::None,
            promotion: PieceMark::None,
            marks: Marks(0),
        }
    }

    /// The check or mate mark the writer attached.
    pub fn suffix(&self) -> Suffix {
        self.marks.suffix()
    }

    /// The move glyph attached (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub fn nag(&self) -> Option<u8> {
        self.marks.nag()
    }

    /// Whether a draw offer (`(=)` or a trailing `=`) is attached.
    pub fn draw_offer(&self) -> bool {
        self.marks.has(Marks::DRAW)
    }

    /// Whether an en passant mark (`e.p.`, `ep`) is attached.
    pub fn en_passant_marked(&self) -> bool {
        self.marks.has(Marks::EP)
    }

    /// Whether a capture mark (`x`, `:`, `×`) was written.
    pub fn is_capture_marked(&self) -> bool {
        self.marks.has(Marks::CAPTURE)
            || match self.body {
                Body::San(San::Normal { capture, .. }, _) => capture,
                Body::Coords(c) => c.capture,
                Body::Descriptive(r) => r.is_capture(),
                _ => false,
            }
    }

    /// The token as shakmaty SAN, when it is plain ASCII SAN with English letters.
    pub fn san(&self) -> Option<San> {
        match self.body {
            Body::San(san, _) => Some(san),
            _ => None,
        }
    }

    /// Whether this is a null move (`--`, `Z0`, `0000`), which no position accepts.
    pub fn is_null(&self) -> bool {
        self.body == Body::Null
    }

    /// Whether the token is a move of descriptive notation (`P-K4`,
    /// `NxP(Q5)`, Spanish `P4R`; castling, `O-O`, is castling whatever
    /// the notation).
    pub fn is_descriptive(&self) -> bool {
        matches!(self.body, Body::Descriptive(_))
    }

    /// The readings of a descriptive word.
    pub(crate) fn descriptive(&self) -> Option<crate::descriptive::Readings> {
        match self.body {
            Body::Descriptive(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the token is castling written as such (`O-O`, `0-0-0`, `lange Rochade`).
    pub fn is_castling(&self) -> bool {
        matches!(self.body, Body::Castle(_) | Body::San(San::Castle(_), _))
    }

    /// Languages under which this token's piece letters (if any) mean some
    /// piece, counting the English fallback. [`LanguageSet::ALL`] for
    /// language-neutral tokens (pawn moves, castling, UCI, figurines, spoken).
    pub fn languages(&self) -> LanguageSet {
        if let Body::Descriptive(r) = self.body {
            return r.languages();
        }
        let mut set = LanguageSet::ALL;
        for mark in [self.piece_mark(), self.promotion_mark()] {
            if let PieceMark::Letters(l) = mark {
                set = set.intersect(l.languages());
            }
        }
        set
    }

    /// Languages in which the piece letters have a meaning of their own (no
    /// English fallback): the evidence a token gives about its language.
    pub fn own_languages(&self) -> LanguageSet {
        if let Body::Descriptive(r) = self.body {
            return r.own_languages();
        }
        let mut set = LanguageSet::ALL;
        for mark in [self.piece_mark(), self.promotion_mark()] {
            if let PieceMark::Letters(l) = mark {
                set = set.intersect(l.own_languages());
            }
        }
        set
    }

    /// Whether the token's meaning may depend on the language (it has piece letters).
    pub fn has_letters(&self) -> bool {
        if let Body::Descriptive(r) = self.body {
            return r.depends_on_language();
        }
        matches!(self.piece_mark(), PieceMark::Letters(_))
            || matches!(self.promotion_mark(), PieceMark::Letters(_))
    }

    /// How the moving piece was written.
    pub(crate) fn piece_mark(&self) -> PieceMark {
        match self.body {
            Body::San(San::Normal { role, .. }, pawn_letter)
                if role != Role::Pawn || pawn_letter =>
            {
                Letters::new(role.upper_char(), None).map_or(PieceMark::None, PieceMark::Letters)
            }
            Body::San(..) => PieceMark::None,
            _ => self.piece,
        }
    }

    /// How the promotion piece was written.
    pub(crate) fn promotion_mark(&self) -> PieceMark {
        match self.body {
            Body::San(
                San::Normal {
                    promotion: Some(role),
                    ..
                },
                _,
            ) => Letters::new(role.upper_char(), None).map_or(PieceMark::None, PieceMark::Letters),
            Body::San(..) => PieceMark::None,
            _ => self.promotion,
        }
    }
}

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

/// Parses the common shapes of plain ASCII SAN (`e4`, `Nf3`, `exd5`,
/// `Nbd7`, `R1e2`, `Qxf7#`, `e8=Q+`, `O-O`), with at most a `+` or `#`
/// after them, from bytes; `None` for anything else, including forms
/// [`parse_move`] reads in other ways (`Nf3!`, `Ng1f3`, `e2-e4`, `Кf3`).
///
/// For what it accepts it gives exactly what the rest of [`parse_move`]
/// gives (tested over every string of up to five SAN characters), faster:
/// [`parse_move`] tries it first.
#[inline(always)]
pub(crate) fn parse_plain_san(bytes: &[u8]) -> Option<MoveToken> {
    let (suffix, body) = split_check_mark(bytes);
    let mut token = MoveToken::new(Body::San(plain_san_body(body)?, false));
    token.marks.set_suffix(suffix);
    Some(token)
}

/// The SAN of a word [`parse_plain_san`] reads, without its check mark.
#[inline(always)]
pub(crate) fn plain_san(bytes: &[u8]) -> Option<San> {
    plain_san_body(split_check_mark(bytes).1)
}

/// A trailing `+` or `#`, and the word without it.
#[inline(always)]
fn split_check_mark(bytes: &[u8]) -> (Suffix, &[u8]) {
    match bytes.split_last() {
        Some((b'+', body)) => (Suffix::Check, body),
        Some((b'#', body)) => (Suffix::Mate, body),
        _ => (Suffix::None, bytes),
    }
}

/// The SAN of `body` for the shapes [`parse_plain_san`] reads, as
/// shakmaty's `San::from_ascii` would give it.
#[inline(always)]
fn plain_san_body(body: &[u8]) -> Option<San> {
    let file = |b: u8| File::from_char(char::from(b));
    let rank = |b: u8| Rank::from_char(char::from(b));
    let role = |b: u8| match b {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    };
    let square = |f: u8, r: u8| Some(Square::from_coords(file(f)?, rank(r)?));
    let normal = |role, file, rank, capture, to, promotion| San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    };
    Some(match *body {
        [f, r] => normal(Role::Pawn, None, None, false, square(f, r)?, None),
        [b'O', b'-', b'O'] => San::Castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => San::Castle(CastlingSide::QueenSide),
        [p, f, r] => normal(role(p)?, None, None, false, square(f, r)?, None),
        [f, r, b'=', q] => normal(
            Role::Pawn,
            None,
            None,
            false,
            square(f, r)?,
            Some(promotion(q)?),
        ),
        [p, b'x', f, r] => match role(p) {
            Some(role) => normal(role, None, None, true, square(f, r)?, None),
            None => normal(Role::Pawn, Some(file(p)?), None, true, square(f, r)?, None),
        },
        [p, d, f, r] => {
            let role = role(p)?;
            let to = square(f, r)?;
            match (file(d), rank(d)) {
                (Some(d), _) => normal(role, Some(d), None, false, to, None),
                (_, Some(d)) => normal(role, None, Some(d), false, to, None),
                _ => return None,
            }
        }
        [p, b'x', f, r, b'=', q] => normal(
            Role::Pawn,
            Some(file(p)?),
            None,
            true,
            square(f, r)?,
            Some(promotion(q)?),
        ),
        _ => return None,
    })
}

/// A promotion letter of plain SAN (`=Q`); shakmaty also reads lowercase
/// and `P`/`K`, which are left to it.
#[inline]
fn promotion(b: u8) -> Option<Role> {
    match b {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        _ => None,
    }
}

#[inline(never)]
fn parse_other(text: &str) -> Result<MoveToken, ParseError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(ParseError::Empty);
    }
    if bytes.len() <= MAX_TOKEN_CHARS
        && let Some(token) = parse_ascii_san(bytes)
    {
        return Ok(token);
    }
    parse_general(text)
}

/// The token for SAN that shakmaty parsed from `bytes` (with an optional `+`/`#`).
#[inline]
fn token_from_san(san: San, bytes: &[u8]) -> Option<MoveToken> {
    let (suffix, body) = match bytes.split_last() {
        Some((b'+', body)) => (Suffix::Check, body),
        Some((b'#', body)) => (Suffix::Mate, body),
        _ => (Suffix::None, bytes),
    };
    let mut t = MoveToken::new(match san {
        San::Normal { .. } | San::Castle(_) => Body::San(san, body.first() == Some(&b'P')),
        San::Null => Body::Null,
        San::Put { .. } => return None,
    });
    t.marks.set_suffix(suffix);
    Some(t)
}

/// The fast path: plain SAN with trailing `+ # ! ?` marks, parsed by shakmaty.
#[inline]
fn parse_ascii_san(bytes: &[u8]) -> Option<MoveToken> {
    let mut end = bytes.len();
    let mut suffix = Suffix::None;
    let mut nag_end = 0;
    let mut nag_start = 0;
    while end > 0 {
        match bytes[end - 1] {
            b'+' if suffix == Suffix::None => {
                if end >= 2 && bytes[end - 2] == b'+' {
                    suffix = Suffix::DoubleCheck;
                    end -= 1;
                } else {
                    suffix = Suffix::Check;
                }
            }
            b'#' if suffix == Suffix::None => suffix = Suffix::Mate,
            b'!' | b'?' if nag_end == 0 => {
                nag_end = end;
                if end >= 2 && matches!(bytes[end - 2], b'!' | b'?') {
                    end -= 1;
                }
                nag_start = end - 1;
            }
            _ => break,
        }
        end -= 1;
    }
    let nag = if nag_end > 0 {
        Some(glyph_nag(&bytes[nag_start..nag_end])?)
    } else {
        None
    };
    let body = &bytes[..end];
    let san = San::from_ascii(body).ok()?;
    let mut token = token_from_san(san, body)?;
    token.marks.set_suffix(suffix);
    token.marks.set_nag(nag);
    Some(token)
}

fn glyph_nag<T: Copy + Into<u32>>(glyph: &[T]) -> Option<u8> {
    let mut it = glyph.iter().map(|c| (*c).into());
    let a = it.next()?;
    let b = it.next();
    if it.next().is_some() {
        return None;
    }
    const EXCL: u32 = '!' as u32;
    const QUEST: u32 = '?' as u32;
    Some(match (a, b) {
        (EXCL, None) => 1,
        (QUEST, None) => 2,
        (EXCL, Some(EXCL)) => 3,
        (QUEST, Some(QUEST)) => 4,
        (EXCL, Some(QUEST)) => 5,
        (QUEST, Some(EXCL)) => 6,
        _ => return None,
    })
}

/// Maps one input character to its normal form; `None` drops it.
fn normalize(c: char) -> Option<char> {
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
fn is_piece_letter(c: char) -> bool {
    c.is_uppercase() || is_caseless_letter(c)
}

/// A fixed buffer of normalized characters.
struct Buf {
    chars: [char; MAX_TOKEN_CHARS],
    len: usize,
}

impl Buf {
    fn from_str(text: &str) -> Result<Buf, ParseError> {
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

    fn as_slice(&self) -> &[char] {
        &self.chars[..self.len]
    }
}

fn ends_with(s: &[char], pat: &str) -> bool {
    let n = pat.chars().count();
    s.len() >= n && s[s.len() - n..].iter().copied().eq(pat.chars())
}

fn is_figurine(c: char) -> Option<Role> {
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
fn ends_move(c: char) -> bool {
    c.is_ascii_digit()
        || c == ')'
        || c == 'O'
        || c == 'o'
        || is_piece_letter(c)
        || is_figurine(c).is_some()
}

/// The longest spoken move read, in bytes (a spoken move is several words
/// and longer than [`MAX_TOKEN_CHARS`]).
const MAX_SPOKEN_BYTES: usize = 512;

fn parse_general(text: &str) -> Result<MoveToken, ParseError> {
    // Spoken moves are read from the words as written: the look-alike
    // normalization below (Cyrillic х as a capture mark) is for letters.
    let words = text.trim();
    if words.len() <= MAX_SPOKEN_BYTES
        && words.contains(char::is_whitespace)
        && let Some(token) = spoken::parse(words)
    {
        return Ok(token);
    }
    let buf = Buf::from_str(text)?;
    let mut s = buf.as_slice();
    // trim whitespace at both ends
    while s.first().is_some_and(|c| c.is_whitespace()) {
        s = &s[1..];
    }
    if s.is_empty() {
        return Err(ParseError::Empty);
    }

    let marks = peel_marks(s)?;
    let Peeled {
        body,
        suffix,
        nag,
        draw_offer,
        en_passant,
        trailing_capture,
        ..
    } = marks;
    let s = &s[..body];
    if s.is_empty() {
        return Err(if text.trim().is_empty() {
            ParseError::Empty
        } else {
            ParseError::Unparsable
        });
    }
    let mut token = match parse_body(s) {
        Ok(token) => token,
        Err(e) => parse_descriptive(s).ok_or(e)?,
    };
    if suffix != Suffix::None {
        token.marks.set_suffix(suffix);
    }
    if nag.is_some() {
        token.marks.set_nag(nag);
    }
    token.marks.set(Marks::DRAW, draw_offer);
    token.marks.set(Marks::EP, en_passant);
    if trailing_capture {
        token.marks.set(Marks::CAPTURE, true);
        if let Body::Coords(c) = &mut token.body {
            c.capture = true;
        }
    }
    Ok(token)
}

/// The marks after a move's body, peeled off its end.
struct Peeled {
    /// Characters of the body (the move without its marks).
    body: usize,
    suffix: Suffix,
    /// Where the check or mate mark stands (character indices).
    suffix_at: Option<Range<usize>>,
    nag: Option<u8>,
    draw_offer: bool,
    en_passant: bool,
    trailing_capture: bool,
}

/// Peels the marks off the end of `s` (normalized characters, whitespace
/// trimmed at the start), in any order: the one reading of the marks that
/// [`parse_move`] and [`with_suffix`] share.
fn peel_marks(mut s: &[char]) -> Result<Peeled, ParseError> {
    let mut p = Peeled {
        body: 0,
        suffix: Suffix::None,
        suffix_at: None,
        nag: None,
        draw_offer: false,
        en_passant: false,
        trailing_capture: false,
    };
    loop {
        while s.last().is_some_and(|c| c.is_whitespace()) {
            s = &s[..s.len() - 1];
        }
        let n = s.len();
        let before = |k: usize| n > k && ends_move(s[n - k - 1]);
        let unmarked = p.suffix == Suffix::None;
        // A check or mate mark of `k` characters.
        let mark = |suffix: Suffix, k: usize| (suffix, n - k..n);
        let mut found = None;
        let keep = if ends_with(s, "(=)") {
            p.draw_offer = true;
            n - 3
        } else if n > 0 && matches!(s[n - 1], '!' | '?') && p.nag.is_none() {
            let k = if n >= 2 && matches!(s[n - 2], '!' | '?') {
                2
            } else {
                1
            };
            p.nag = Some(glyph_nag(&s[n - k..]).ok_or(ParseError::Unparsable)?);
            n - k
        } else if ends_with(s, "++") && unmarked {
            found = Some(mark(Suffix::DoubleCheck, 2));
            n - 2
        } else if n > 0 && matches!(s[n - 1], '+' | '†') && unmarked {
            found = Some(mark(Suffix::Check, 1));
            n - 1
        } else if n > 0 && matches!(s[n - 1], '#' | '‡') && unmarked {
            found = Some(mark(Suffix::Mate, 1));
            n - 1
        } else if ends_with(s, "ch") && before(2) && unmarked {
            found = Some(mark(Suffix::Check, 2));
            n - 2
        } else if ends_with(s, "disch") && before(5) && unmarked {
            found = Some(mark(Suffix::Check, 5));
            n - 5
        } else if ends_with(s, "dblch") && before(5) && unmarked {
            found = Some(mark(Suffix::DoubleCheck, 5));
            n - 5
        } else if ends_with(s, "mate") && before(4) && unmarked {
            found = Some(mark(Suffix::Mate, 4));
            n - 4
        } else if ends_with(s, "e.p.") && !p.en_passant {
            p.en_passant = true;
            n - 4
        } else if ends_with(s, "ep") && !p.en_passant && digit_before(&s[..n - 2]) {
            p.en_passant = true;
            n - 2
        } else if n >= 2 && matches!(s[n - 1], 'x' | 'X') && before(1) && unmarked {
            found = Some(mark(Suffix::Mate, 1));
            n - 1
        } else if n >= 2 && s[n - 1] == ':' && s[n - 2].is_ascii_digit() && !p.trailing_capture {
            p.trailing_capture = true;
            n - 1
        } else if n >= 2
            && s[n - 1] == '='
            && (s[n - 2].is_ascii_digit() || s[n - 2] == ')')
            && !p.draw_offer
        {
            p.draw_offer = true;
            n - 1
        } else {
            break;
        };
        if let Some((suffix, at)) = found {
            p.suffix = suffix;
            p.suffix_at = Some(at);
        }
        s = &s[..keep];
    }
    p.body = s.len();
    Ok(p)
}

/// Whether the last non-space character of `s` is a digit (`exd6 ep`).
fn digit_before(s: &[char]) -> bool {
    s.iter()
        .rev()
        .find(|c| !c.is_whitespace())
        .is_some_and(char::is_ascii_digit)
}

/// The move word `text` with its check or mate mark replaced by `suffix`
/// (removed for [`Suffix::None`]), everything else as written: the notation,
/// the language, the move glyph and the other marks. A missing mark goes
/// right after the move (`Nf3!?` becomes `Nf3+!?`). The writer's family of
/// marks is kept (`†` for check goes with `‡` for mate); otherwise the marks
/// are PGN's `+` and `#`.
///
/// `None` when `text` is no move, a null move, or a form whose marks cannot
/// be placed character for character (spoken moves, invisible characters).
///
/// ```
/// use pgnkit_notation::{Suffix, with_suffix};
///
/// assert_eq!(with_suffix("Qh5+!?", Suffix::Mate).as_deref(), Some("Qh5#!?"));
/// assert_eq!(with_suffix("Лd8", Suffix::Check).as_deref(), Some("Лd8+"));
/// assert_eq!(with_suffix("Лd8х", Suffix::Check).as_deref(), Some("Лd8+"));
/// assert_eq!(with_suffix("Bxc3+", Suffix::None).as_deref(), Some("Bxc3"));
/// assert_eq!(with_suffix("Nf3†", Suffix::Mate).as_deref(), Some("Nf3‡"));
/// ```
pub fn with_suffix(text: &str, suffix: Suffix) -> Option<String> {
    let token = parse_move(text).ok()?;
    if token.is_null() {
        return None;
    }
    // One normalized character per character written, so that character
    // indices are the same in both.
    let mut chars = Vec::with_capacity(text.len());
    let mut offsets = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        match normalize(c) {
            Some(n) if !n.is_whitespace() && !c.is_whitespace() => chars.push(n),
            _ => return None,
        }
        offsets.push(i);
    }
    offsets.push(text.len());
    let peeled = peel_marks(&chars).ok()?;
    if peeled.suffix != token.suffix() || peeled.body == 0 {
        return None;
    }
    let daggers = text.contains(['†', '‡']);
    let mark = match (suffix, daggers) {
        (Suffix::None, _) => "",
        (Suffix::Check, false) => "+",
        (Suffix::DoubleCheck, false) => "++",
        (Suffix::Mate, false) => "#",
        (Suffix::Check | Suffix::DoubleCheck, true) => "†",
        (Suffix::Mate, true) => "‡",
    };
    let at = match peeled.suffix_at {
        Some(r) => offsets.get(r.start).copied()?..offsets.get(r.end).copied()?,
        None => {
            let end = offsets.get(peeled.body).copied()?;
            end..end
        }
    };
    let mut out = String::with_capacity(text.len() + mark.len());
    out.push_str(text.get(..at.start)?);
    out.push_str(mark);
    out.push_str(text.get(at.end..)?);
    Some(out)
}

fn parse_castling(s: &[char]) -> Option<CastlingSide> {
    let mut count = 0;
    let mut dash_last = true;
    let mut dashes = 0;
    for &c in s {
        match c {
            'O' | 'o' | '0' => {
                count += 1;
                dash_last = false;
            }
            '-' if !dash_last => {
                dashes += 1;
                dash_last = true;
            }
            _ => return None,
        }
    }
    if dash_last || (dashes != 0 && dashes + 1 != count) {
        return None;
    }
    match count {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Elem {
    File(File),
    Rank(Rank),
}

fn file_of(c: char) -> Option<File> {
    match c {
        'a'..='h' => File::from_char(c),
        _ => None,
    }
}

fn rank_of(c: char) -> Option<Rank> {
    match c {
        '1'..='8' => Rank::from_char(c),
        _ => None,
    }
}

/// Whether `word` is a move in ICCF numeric notation: four digits `1`-`8`
/// (file then rank of the origin, then of the destination: `5254` is
/// e2-e4), or five whose move goes from the seventh rank to the eighth or
/// from the second to the first and whose last digit is a promotion (`1`
/// queen, `2` rook, `3` bishop, `4` knight: `27281` is b7-b8=Q). The PGN
/// lexer reads such a word as a move, not as a move number without its dot.
///
/// ```
/// use pgnkit_notation::token::is_iccf;
///
/// assert!(is_iccf(b"5254"));
/// assert!(is_iccf(b"27281"));
/// assert!(!is_iccf(b"1990")); // a 0 is no file or rank
/// assert!(!is_iccf(b"52541")); // no promotion from the second rank to the fourth
/// assert!(!is_iccf(b"12"));
/// ```
pub fn is_iccf(word: &[u8]) -> bool {
    let square = |d: u8| (b'1'..=b'8').contains(&d);
    match *word {
        [a, b, c, d] => square(a) && square(b) && square(c) && square(d),
        [a, b, c, d, p] => {
            square(a)
                && square(c)
                && matches!((b, d), (b'7', b'8') | (b'2', b'1'))
                && (b'1'..=b'4').contains(&p)
        }
        _ => false,
    }
}

/// ICCF numeric notation ([`is_iccf`]): coordinates of any piece (castling
/// is the king's move, `5171`), the promotion as a piece.
fn parse_iccf(s: &[char]) -> Option<MoveToken> {
    let mut bytes = [0u8; 5];
    if s.len() > bytes.len() {
        return None;
    }
    for (b, c) in bytes.iter_mut().zip(s) {
        *b = u8::try_from(*c).ok()?;
    }
    let bytes = &bytes[..s.len()];
    if !is_iccf(bytes) {
        return None;
    }
    let file = |b: u8| File::try_from(u32::from(b - b'1')).ok();
    let rank = |b: u8| Rank::try_from(u32::from(b - b'1')).ok();
    let coords = Coords {
        from_file: Some(file(bytes[0])?),
        from_rank: Some(rank(bytes[1])?),
        capture: false,
        to_file: file(bytes[2])?,
        to_rank: Some(rank(bytes[3])?),
    };
    let mut token = MoveToken::new(Body::Coords(coords));
    if let Some(&p) = bytes.get(4) {
        token.promotion = PieceMark::Role(match p {
            b'1' => Role::Queen,
            b'2' => Role::Rook,
            b'3' => Role::Bishop,
            _ => Role::Knight,
        });
    }
    Some(token)
}

fn parse_body(s: &[char]) -> Result<MoveToken, ParseError> {
    if let Some(token) = parse_iccf(s) {
        return Ok(token);
    }
    if let Some(side) = parse_castling(s) {
        return Ok(MoveToken::new(Body::Castle(side)));
    }
    if matches!(s, ['-', '-'] | ['Z', '0'] | ['0', '0', '0', '0']) {
        return Ok(MoveToken::new(Body::Null));
    }
    let mut i = 0;
    // the piece
    let piece = if let Some(role) = is_figurine(s[0]) {
        i = 1;
        if role == Role::Pawn {
            PieceMark::None
        } else {
            PieceMark::Role(role)
        }
    } else if is_piece_letter(s[0]) && s[0] != 'X' {
        i = 1;
        let second = (s.len() > 1
            && s[1].is_alphabetic()
            && s[1].is_lowercase()
            && file_of(s[1]).is_none()
            && s[1] != 'x')
            .then(|| s[1]);
        if second.is_some() {
            i = 2;
        }
        PieceMark::Letters(Letters::new(s[0], second).ok_or(ParseError::Unparsable)?)
    } else {
        PieceMark::None
    };

    // coordinates
    let mut elems = [Elem::Rank(Rank::First); 4];
    let mut n = 0;
    let mut sep: Option<(usize, bool)> = None; // (position, is_capture)
    while i < s.len() {
        let c = s[i];
        let elem = if n == 4 && c == 'b' {
            break;
        } else if let Some(f) = file_of(c) {
            Elem::File(f)
        } else if let Some(r) = rank_of(c) {
            Elem::Rank(r)
        } else if matches!(c, 'x' | 'X' | ':' | '-') {
            if sep.is_some() || (n == 0 && (piece == PieceMark::None || c == '-')) {
                return Err(ParseError::Unparsable);
            }
            sep = Some((n, c != '-'));
            i += 1;
            continue;
        } else {
            break;
        };
        if n == 4 {
            return Err(ParseError::Unparsable);
        }
        elems[n] = elem;
        n += 1;
        i += 1;
    }
    use Elem::{File as F, Rank as R};
    let sep_at = sep.map(|(p, _)| p);
    let capture = sep.is_some_and(|(_, c)| c);
    let coords = match elems[..n] {
        [F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(0) => Coords {
            from_file: None,
            from_rank: None,
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [F(ff), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(1) => Coords {
            from_file: Some(ff),
            from_rank: None,
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [R(fr), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(1) => Coords {
            from_file: None,
            from_rank: Some(fr),
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [F(ff), R(fr), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(2) => Coords {
            from_file: Some(ff),
            from_rank: Some(fr),
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [F(ff), F(tf)]
            if piece == PieceMark::None && (sep_at.is_none() || (sep_at == Some(1) && capture)) =>
        {
            Coords {
                from_file: Some(ff),
                from_rank: None,
                capture,
                to_file: tf,
                to_rank: None,
            }
        }
        _ => return Err(ParseError::Unparsable),
    };

    // promotion
    let mut rest = &s[i..];
    let mut promotion = PieceMark::None;
    if !rest.is_empty() {
        if coords.to_rank.is_none() {
            return Err(ParseError::Unparsable);
        }
        if matches!(rest[0], '=' | '/') {
            rest = &rest[1..];
        }
        let inner = match rest {
            ['(', c, ')'] => *c,
            [c] => *c,
            _ => return Err(ParseError::Unparsable),
        };
        promotion = if let Some(role) = is_figurine(inner) {
            PieceMark::Role(role)
        } else if let Some(role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) = inner
            .is_ascii_lowercase()
            .then(|| Role::from_char(inner))
            .flatten()
        {
            PieceMark::Role(role)
        } else if is_piece_letter(inner) {
            PieceMark::Letters(Letters::new(inner, None).ok_or(ParseError::Unparsable)?)
        } else {
            return Err(ParseError::Unparsable);
        };
    }
    let mut token = MoveToken::new(Body::Coords(coords));
    token.piece = piece;
    token.promotion = promotion;
    Ok(token)
}

/// The common shape of descriptive notation, `P-K4`, `NxP(Q5)`, `Q-R5ch`
/// (a plain move with at most `ch` after it), read from its bytes; `None`
/// for anything else (which the general reading then looks at).
#[inline]
fn parse_plain_descriptive(bytes: &[u8]) -> Option<MoveToken> {
    if !bytes
        .first()
        .is_some_and(|&b| crate::descriptive::may_start(b))
    {
        return None;
    }
    let (suffix, body) = match bytes {
        [body @ .., b'c', b'h'] | [body @ .., b'+'] => (Suffix::Check, body),
        _ => (Suffix::None, bytes),
    };
    let mut token = MoveToken::new(Body::Descriptive(crate::descriptive::Readings::parse(
        body,
    )?));
    token.marks.set_suffix(suffix);
    Some(token)
}

/// A move in descriptive notation ([`crate::descriptive`]).
fn parse_descriptive(s: &[char]) -> Option<MoveToken> {
    let mut bytes = [0u8; MAX_TOKEN_CHARS];
    let bytes = bytes.get_mut(..s.len())?;
    for (b, c) in bytes.iter_mut().zip(s) {
        *b = u8::try_from(*c).ok()?;
    }
    crate::descriptive::Readings::parse(bytes).map(|r| MoveToken::new(Body::Descriptive(r)))
}

/// Builds a token from the spoken reader's parts.
pub(crate) fn spoken_token(
    body: Body,
    piece: Option<Role>,
    promotion: Option<Role>,
    suffix: Suffix,
    en_passant: bool,
) -> MoveToken {
    let mut t = MoveToken::new(body);
    t.piece = match piece {
        Some(Role::Pawn) | None => PieceMark::None,
        Some(r) => PieceMark::Role(r),
    };
    t.promotion = promotion.map_or(PieceMark::None, PieceMark::Role);
    t.marks.set_suffix(suffix);
    t.marks.set(Marks::EP, en_passant);
    t
}

/// Reads a mark written as its own word after a move: `e.p.`, `+`, `#`, `!?`, `(=)`, old-Russian `х`...
pub fn parse_annotation(text: &str) -> Option<Annotation> {
    // The longest annotation word is six characters (`Schach`): a longer
    // word is none, and no buffer is filled for it.
    const MAX_CHARS: usize = 8;
    let text = text.trim();
    if text.is_ascii() && text.len() > MAX_CHARS {
        return None;
    }
    let mut buf = [0u8; MAX_CHARS * 4];
    let (mut len, mut chars) = (0, 0);
    for c in text.chars().filter_map(normalize) {
        chars += 1;
        if chars > MAX_CHARS {
            return None;
        }
        len += c.encode_utf8(buf.get_mut(len..)?).len();
    }
    let word = std::str::from_utf8(buf.get(..len)?).ok()?.trim();
    if word.is_empty() {
        return None;
    }
    Some(match word {
        "e.p." | "ep" | "e. p." | "e.p" | "i.p." => Annotation::EnPassant,
        "+" | "†" | "ch" | "ch." | "check" | "Schach" => Annotation::Check,
        // Check in the words of Spanish, French and Italian descriptive
        // notation's books.
        "jaque" | "échec" | "scacco" => Annotation::Check,
        // Descriptive notation's discovered and double check, whole or as
        // their first word (`dis ch`, `dbl ch`: the `ch` adds nothing).
        "dis ch" | "dis. ch." | "disch" | "dis" | "dis." => Annotation::Check,
        "dbl ch" | "dbl. ch." | "dblch" | "dbl" | "dbl." => Annotation::DoubleCheck,
        "++" => Annotation::DoubleCheck,
        "#" | "‡" | "x" | "X" | "mate" | "Matt" | "мат" => Annotation::Mate,
        "(=)" | "=" => Annotation::DrawOffer,
        // Evaluation symbols written out (PGN NAGs 13-19).
        "∞" => Annotation::Nag(13),
        "+=" | "+/=" | "⩲" => Annotation::Nag(14),
        "=+" | "=/+" | "⩱" => Annotation::Nag(15),
        "+/-" | "±" => Annotation::Nag(16),
        "-/+" | "∓" => Annotation::Nag(17),
        "+-" | "+−" | "+--" => Annotation::Nag(18),
        "-+" | "−+" | "--+" => Annotation::Nag(19),
        // `!` and `?` are ASCII: a glyph of other characters is no NAG.
        _ => Annotation::Nag(glyph_nag(word.as_bytes())?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of up to five characters over the letters of SAN (and
    /// some that are not): where the fast reader gives a token, shakmaty's
    /// parser gives the same SAN, and `parse_move` the same token.
    #[test]
    fn plain_san_agrees_with_shakmaty_on_every_short_string() {
        const ALPHABET: &[u8] = b"NBRQKPOabeh1280x=-+#qZ@";
        let mut accepted = 0usize;
        let mut buf = Vec::with_capacity(6);
        let n = ALPHABET.len();
        for len in 1..=5u32 {
            for mut code in 0..n.pow(len) {
                buf.clear();
                for _ in 0..len {
                    buf.push(ALPHABET[code % n]);
                    code /= n;
                }
                if let Some(token) = parse_plain_san(&buf) {
                    accepted += 1;
                    let Body::San(san, false) = token.body else {
                        panic!("{buf:?}: not plain SAN");
                    };
                    assert_eq!(San::from_ascii(&buf).ok(), Some(san), "{buf:?}");
                    let text = std::str::from_utf8(&buf).expect("ascii");
                    assert_eq!(parse_general_or_shakmaty(text), Ok(token), "{text}");
                }
            }
        }
        // e4, Nf3, exd5, Nbd7, e8=Q, O-O ... with and without `+`/`#`.
        assert!(accepted > 1_900, "{accepted}");
        for six in [&b"exd8=Q"[..], b"axb1=N", b"O-O-O+", b"exd8=Q#"] {
            let token = parse_plain_san(six).expect("plain SAN");
            let text = std::str::from_utf8(six).expect("ascii");
            assert_eq!(parse_general_or_shakmaty(text), Ok(token), "{text}");
        }
    }

    /// `parse_move` without the fast reader.
    fn parse_general_or_shakmaty(text: &str) -> Result<MoveToken, ParseError> {
        if let Ok(san) = San::from_ascii(text.as_bytes())
            && let Some(token) = token_from_san(san, text.as_bytes())
        {
            return Ok(token);
        }
        parse_other(text)
    }

    #[test]
    fn ascii_fast_path_keeps_marks() {
        let t = parse_move("Qxf7#").unwrap();
        assert_eq!(t.suffix(), Suffix::Mate);
        assert!(t.is_capture_marked());
        let t = parse_move("e8=Q+!?").unwrap();
        assert_eq!(t.suffix(), Suffix::Check);
        assert_eq!(t.nag(), Some(5));
        assert!(matches!(t.body, Body::San(..)));
        let t = parse_move("Nf3??").unwrap();
        assert_eq!(t.nag(), Some(4));
    }

    #[test]
    fn castling_forms() {
        for s in ["O-O", "0-0", "o-o", "0–0", "O—O", "OO"] {
            assert!(parse_move(s).unwrap().is_castling(), "{s}");
        }
        for s in ["0-0-0", "O-O-O", "o-o-o", "0–0–0"] {
            let t = parse_move(s).unwrap();
            assert!(
                matches!(
                    t.body,
                    Body::Castle(CastlingSide::QueenSide)
                        | Body::San(San::Castle(CastlingSide::QueenSide), _)
                ),
                "{s}"
            );
        }
        assert!(parse_move("0-0-").is_err());
        assert!(parse_move("0--0").is_err());
    }

    #[test]
    fn junk_is_refused() {
        for s in [
            "", " ", "xx", "Nx", "e9", "i4", "e4e5e6", "=Q", "exd6 e5", "♘", "--x", "Kx:e4", "e4-",
        ] {
            assert!(parse_move(s).is_err(), "{s:?}");
        }
        let long = "e".repeat(1000);
        assert_eq!(parse_move(&long), Err(ParseError::TooLong));
        assert_eq!(parse_move(""), Err(ParseError::Empty));
        assert_eq!(parse_move("\u{FE0F}"), Err(ParseError::Empty));
    }

    #[test]
    fn annotations() {
        assert_eq!(parse_annotation("e.p."), Some(Annotation::EnPassant));
        assert_eq!(parse_annotation(" ep "), Some(Annotation::EnPassant));
        assert_eq!(parse_annotation("†"), Some(Annotation::Check));
        assert_eq!(parse_annotation("jaque"), Some(Annotation::Check));
        assert_eq!(parse_annotation("‡"), Some(Annotation::Mate));
        assert_eq!(parse_annotation("х"), Some(Annotation::Mate));
        assert_eq!(parse_annotation("(=)"), Some(Annotation::DrawOffer));
        assert_eq!(parse_annotation("?!"), Some(Annotation::Nag(6)));
        assert_eq!(parse_annotation("!!!"), None);
        assert_eq!(parse_annotation("Nf3"), None);
    }
}

#[cfg(test)]
mod suffix_tests {
    use super::*;

    /// Every form a move is written in, with and without marks: the word
    /// rewritten with each mark reads back as the same move with that mark,
    /// and the rest of the word is untouched.
    #[test]
    fn with_suffix_changes_the_mark_only() {
        let words = [
            "Nf3", "Nf3+", "Nf3#", "Nf3++", "Nf3!?", "Nf3+!?", "Nf3!?+", "Nf3#?", "Nf3(=)",
            "Nf3+(=)", "exd5", "exd6e.p.", "e8=Q+", "e8Q", "O-O+", "0-0-0", "o-o#", "Ng1-f3",
            "e2-e4", "e4:d5", "Лd8х", "Лd8", "Кf3+", "Кр:e2", "С:c7!", "♘f3†", "♞f6‡", "Nf3ch",
            "Rd8x", "Qxf7#!!", "...Nf6", "Ng1f3+", "e7-e8Q#",
        ];
        for word in words {
            let (dots, rest) = word.split_at(word.len() - word.trim_start_matches('.').len());
            let Ok(before) = parse_move(rest) else {
                panic!("{word} is a move");
            };
            for suffix in [
                Suffix::None,
                Suffix::Check,
                Suffix::Mate,
                Suffix::DoubleCheck,
            ] {
                let Some(out) = with_suffix(rest, suffix) else {
                    panic!("{word}: no rewrite for {suffix:?}");
                };
                let after = parse_move(&out).unwrap_or_else(|e| panic!("{out}: {e:?}"));
                let daggers = rest.contains(['†', '‡']);
                let expected = match suffix {
                    Suffix::DoubleCheck if daggers => Suffix::Check,
                    s => s,
                };
                assert_eq!(after.suffix(), expected, "{word} -> {out}");
                let facts = |t: &MoveToken| {
                    (
                        t.nag(),
                        t.draw_offer(),
                        t.en_passant_marked(),
                        t.is_capture_marked(),
                        t.is_castling(),
                        t.languages(),
                    )
                };
                assert_eq!(facts(&after), facts(&before), "{word} -> {dots}{out}");
                // Idempotent, and only the mark changed.
                assert_eq!(with_suffix(&out, suffix).as_deref(), Some(out.as_str()));
                let strip = |s: &str| {
                    s.replace(['+', '#', '†', '‡'], "")
                        .replace("ch", "")
                        .trim_end_matches(['x', 'х'])
                        .to_owned()
                };
                assert_eq!(strip(&out), strip(rest), "{word} -> {out}");
            }
        }
        assert_eq!(with_suffix("--", Suffix::Check), None);
        assert_eq!(with_suffix("junk", Suffix::Check), None);
        assert_eq!(
            with_suffix("Nf3!?", Suffix::Check).as_deref(),
            Some("Nf3+!?")
        );
        assert_eq!(with_suffix("Лd8х", Suffix::Check).as_deref(), Some("Лd8+"));
        assert_eq!(with_suffix("Nf3ch", Suffix::Mate).as_deref(), Some("Nf3#"));
    }
}
