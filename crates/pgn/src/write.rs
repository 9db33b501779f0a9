//! Writing games in the PGN export format (PGN standard §8).
//!
//! A [`Writer`] writes a game read by the [`Reader`](crate::Reader) with its
//! moves in any notation: the caller renders each move (usually while
//! replaying the game: `pgnkit-replay`'s `MoveWriter` does it in any
//! notation and language) into a [`Moves`], by token index, and the writer
//! walks the game's tokens once to write it:
//!
//! - Tags: the seven-tag roster first, in its order (Event, Site, Date,
//!   Round, White, Black, Result), then every other tag in ASCII order of
//!   its name (PGN §8.1.1; duplicates kept, in input order). Values are
//!   decoded to UTF-8 and escaped (`\\`, `\"`). No tag is invented,
//!   dropped or changed.
//! - Movetext: one space between items, lines shorter than [`LINE_WIDTH`]
//!   characters. A comment is never broken: it is kept
//!   byte for byte, so a line holding a long comment may be longer.
//! - Move numbers are regenerated from the [`Moves`]: `12.` before every
//!   White move, `12...` before a Black move that opens a line (the game, a
//!   variation) or follows a comment, a NAG or a variation (PGN §8.2.2.2).
//!   Null moves (`--`, `Z0`, `0000`) are written `--`, numbered from the
//!   moves around them ([`NullPlaces`]).
//! - Move glyphs (`!`, `?!`, attached or as words) become NAGs (`$1`, `$6`);
//!   check and mate marks are the caller's (a word `+` or `ep` is dropped);
//!   a draw offer (`(=)`, `=`) is kept as the comment `{(=)}`.
//! - Comments, NAGs, variations and the result stay where they were. `;`
//!   comments become `{}` comments unless their text holds a `}`.
//! - From the first word of a line (the game or a variation) that is not a
//!   move of the [`Moves`], the rest of that line is kept verbatim in a
//!   comment (the line's own comments stay comments of their own), so that
//!   nothing written is lost.
//!
//! The writer knows no chess rule: which word is a move, and how it is
//! written, is what the [`Moves`] say.
//!
//! # Example
//!
//! Writing a game in long algebraic notation, its moves read and written
//! with [`pgnkit_notation`] (a game with variations is best replayed by
//! `pgnkit-replay`, which gives each move its position):
//!
//! ```
//! use pgnkit_notation::{Language, Line, Notation, Style, parse_move};
//! use pgnkit_pgn::text::GameText;
//! use pgnkit_pgn::write::{Moves, Writer};
//! use pgnkit_pgn::{Game, Reader, TokenKind};
//! use shakmaty::{Chess, Color, Position};
//!
//! let pgn = b"[White \"Anna\"]\n[Event \"Club \\\"Victory\\\"\"]\n\n1.e4 e5 2.Nf3!? {develops} Nc6 1-0\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//!
//! let lan = Style::new(Notation::Lan, Language::En);
//! let mut moves = Moves::new(lan.is_ascii());
//! let mut line = Line::new(Chess::default());
//! for (index, token) in game.tokens.iter().enumerate() {
//!     let Ok(word) = std::str::from_utf8(token.text) else { continue };
//!     if token.kind != TokenKind::Word {
//!         continue;
//!     }
//!     let Some(m) = parse_move(word).ok().and_then(|t| line.resolve(&t, Language::En).ok()) else {
//!         continue;
//!     };
//!     let (number, white) = (line.position().fullmoves().get(), line.position().turn() == Color::White);
//!     moves.push_with(index, number, white, |text, _uci| line.write_and_play(m, &lan, text));
//! }
//!
//! let mut out = Vec::new();
//! let text = GameText::new(pgn, game.span.clone());
//! Writer::new().write_game(&mut out, pgn, &game, &text, &moves);
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     "[Event \"Club \\\"Victory\\\"\"]\n[White \"Anna\"]\n\n\
//!      1. e2-e4 e7-e5 2. Ng1-f3 $5 {develops} 2... Nb8-c6 1-0\n\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;

use pgnkit_notation::{Annotation, parse_annotation, parse_move};

use crate::text::{Encoding, GameText};
use crate::{Game, GameResult, Token, TokenKind};

/// The written form of a null move (`--`, `Z0`, `0000` read): `--` in
/// every notation (`0000` would read as a move number in movetext).
pub const NULL_MOVE: &str = "--";

/// The tags every exported game starts with, in this order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Lines of movetext have fewer than this many characters (PGN §8.2.1:
/// "less than 80 printing characters"), comments longer than that aside.
pub const LINE_WIDTH: usize = 80;

/// A move rendered in the target notation.
///
/// 16 bytes: a game of millions of plies keeps one per move.
#[derive(Copy, Clone, Debug)]
struct Slot {
    /// The move's token index in the game.
    token: u32,
    /// Where its written form starts in [`Moves::text`]; its UCI form
    /// follows it there.
    start: u32,
    /// The full-move number of the move times two, plus one when White
    /// played it.
    place: u32,
    /// The length of its written form (one move: never near 64 KiB).
    text_len: u16,
    /// The length of its UCI form (0 when UCI is not kept).
    uci_len: u8,
    /// The length of its note, after the UCI form (0 for none): a comment
    /// written after the move (a FEN is shorter than 256 bytes).
    note_len: u8,
}

impl Slot {
    fn number(&self) -> u32 {
        self.place >> 1
    }

    fn white(&self) -> bool {
        self.place & 1 == 1
    }
}

/// The moves of one game, rendered in the target notation, by token index:
/// what [`Writer::write_game`] writes for each move word.
///
/// Reused from game to game: [`Moves::reset`] keeps the buffers. Compact:
/// 16 bytes a move plus its text, for games of millions of plies.
#[derive(Default, Debug)]
pub struct Moves {
    /// The written forms, each followed by its UCI form when it is kept.
    text: String,
    /// Where the UCI form of the move being written goes first.
    uci: String,
    /// Where the note of the move being written goes first.
    note: String,
    /// The moves in token order (a replay meets them in that order).
    slots: Vec<Slot>,
    /// Every written form is ASCII ([`Style::is_ascii`](pgnkit_notation::Style::is_ascii)).
    ascii: bool,
    /// The place of the game's first ply (for null moves before any move).
    start: Option<Place>,
    /// Comments written otherwise: the first byte of the comment token and
    /// its new text (empty: left out), sorted by the first.
    edited: Vec<(usize, String)>,
}

/// One written move, as [`Moves::get_next`] and [`Moves::at`] give it.
#[derive(Copy, Clone, Debug)]
pub struct WrittenMove<'a> {
    /// The move in the target notation.
    pub text: &'a str,
    /// Its width in characters.
    pub width: usize,
    /// The move in UCI (empty unless asked for).
    pub uci: &'a str,
    /// Its full-move number.
    pub number: u32,
    /// Whether White played it.
    pub white: bool,
}

impl Moves {
    /// A conversion whose written forms are all ASCII when `ascii` (which
    /// makes their widths cheap).
    pub fn new(ascii: bool) -> Moves {
        Moves {
            ascii,
            ..Moves::default()
        }
    }

    /// Forgets every move.
    pub fn reset(&mut self) {
        self.text.clear();
        self.uci.clear();
        self.note.clear();
        self.slots.clear();
        self.start = None;
        self.edited.clear();
    }

    /// Writes the comment token that starts at byte `at` as `text` instead
    /// (an empty or blank `text` leaves the comment out): how `convert`
    /// drops or rewrites clock commands. Set after the game is replayed.
    pub fn edit_comment(&mut self, at: usize, text: String) {
        match self.edited.binary_search_by_key(&at, |e| e.0) {
            Ok(i) => self.edited[i].1 = text,
            Err(i) => self.edited.insert(i, (at, text)),
        }
    }

    /// The text of the comment `token` as written: as edited
    /// ([`Moves::edit_comment`]; `None` when left out), else
    /// [`comment_text`].
    pub fn comment<'t>(
        &'t self,
        token: &Token<'t>,
        source: &GameText<'t>,
    ) -> Option<std::borrow::Cow<'t, str>> {
        if !self.edited.is_empty()
            && let Ok(i) = self.edited.binary_search_by_key(&token.span.start, |e| e.0)
        {
            let text = self.edited[i].1.as_str();
            return (!text.trim().is_empty()).then_some(std::borrow::Cow::Borrowed(text));
        }
        Some(comment_text(token, source))
    }

    /// Sets where the game starts: the full-move number of its first ply
    /// and whether White plays it (null moves before any move are placed
    /// from it, see [`NullPlaces`]).
    pub fn set_start(&mut self, number: u32, white: bool) {
        self.start = Some((number, white));
    }

    /// Records the move of token `token` (an index in
    /// [`Game::tokens`]), played at full-move `number` by White when
    /// `white`: `write` appends its written form to the first buffer and,
    /// if it is wanted, its UCI form to the second.
    pub fn push_with(
        &mut self,
        token: usize,
        number: u32,
        white: bool,
        write: impl FnOnce(&mut String, &mut String),
    ) {
        self.push_noted(token, number, white, |text, uci, _| write(text, uci));
    }

    /// [`Moves::push_with`] with a note: `write` also appends to the third
    /// buffer the text of a comment the writer puts after the move (and its
    /// NAGs and comments), such as its position's FEN (`--fen-comments`); nothing for
    /// none. A note longer than 255 bytes is cut there.
    ///
    /// ```
    /// use pgnkit_pgn::text::GameText;
    /// use pgnkit_pgn::write::{Moves, Writer};
    /// use pgnkit_pgn::{Game, Reader};
    ///
    /// let pgn = b"1. e4 $1 *";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let mut moves = Moves::new(true);
    /// moves.push_noted(1, 1, true, |text, _, note| {
    ///     text.push_str("e4");
    ///     note.push_str("after e4");
    /// });
    /// let mut out = Vec::new();
    /// Writer::new().write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
    /// assert_eq!(out, b"1. e4 $1 {after e4} *\n\n");
    /// ```
    pub fn push_noted(
        &mut self,
        token: usize,
        number: u32,
        white: bool,
        write: impl FnOnce(&mut String, &mut String, &mut String),
    ) {
        let start = self.text.len();
        self.uci.clear();
        self.note.clear();
        write(&mut self.text, &mut self.uci, &mut self.note);
        let text_len = self.text.len().saturating_sub(start);
        if !self.uci.is_empty() {
            self.text.push_str(&self.uci);
        }
        let mut note_len = self.note.len().min(usize::from(u8::MAX));
        while !self.note.is_char_boundary(note_len) {
            note_len -= 1;
        }
        self.text
            .push_str(self.note.get(..note_len).unwrap_or_default());
        let slot = Slot {
            token: to_u32(token),
            start: to_u32(start),
            place: number.saturating_mul(2).saturating_add(u32::from(white)),
            text_len: u16::try_from(text_len).unwrap_or(u16::MAX),
            uci_len: u8::try_from(self.uci.len()).unwrap_or(u8::MAX),
            note_len: u8::try_from(note_len).unwrap_or(u8::MAX),
        };
        match self.slots.last() {
            Some(last) if last.token >= slot.token => {
                // Out of order (not met in a replay): kept sorted all the same.
                match self.slots.binary_search_by_key(&slot.token, |s| s.token) {
                    Ok(at) => self.slots[at] = slot,
                    Err(at) => self.slots.insert(at, slot),
                }
            }
            _ => self.slots.push(slot),
        }
    }

    /// The converted move of token `token`, if it was a replayed move, for
    /// a reader that asks for tokens in increasing order: `cursor` (0 at the
    /// start) remembers where it is.
    #[inline]
    pub fn get_next(&self, token: usize, cursor: &mut usize) -> Option<WrittenMove<'_>> {
        while self
            .slots
            .get(*cursor)
            .is_some_and(|s| (s.token as usize) < token)
        {
            *cursor += 1;
        }
        match self.slots.get(*cursor) {
            Some(slot) if slot.token as usize == token => Some(self.converted(slot)),
            _ => None,
        }
    }

    /// The slot of the move of token `token`, as [`Moves::get_next`] finds
    /// it, without making its [`WrittenMove`].
    #[inline]
    fn next_slot(&self, token: usize, cursor: &mut usize) -> Option<Slot> {
        while self
            .slots
            .get(*cursor)
            .is_some_and(|s| (s.token as usize) < token)
        {
            *cursor += 1;
        }
        self.slots
            .get(*cursor)
            .filter(|s| s.token as usize == token)
            .copied()
    }

    /// The written form of the move in `slot` as bytes, its width in
    /// characters, and, when the buffer holds 16 bytes from its start (the
    /// moves after it), those 16 bytes, for a copy of fixed size.
    #[inline]
    fn written_bytes(&self, slot: &Slot) -> (&[u8], usize, Option<&[u8; 16]>) {
        let bytes = self.text.as_bytes();
        let start = slot.start as usize;
        let len = usize::from(slot.text_len);
        let text = bytes
            .get(start..start.saturating_add(len))
            .unwrap_or_default();
        let width = if self.ascii { text.len() } else { width(text) };
        let padded = if len <= 16 {
            bytes
                .get(start..start.saturating_add(16))
                .and_then(|b| <&[u8; 16]>::try_from(b).ok())
        } else {
            None
        };
        (text, width, padded)
    }

    /// The note of the move in `slot` ([`Moves::push_noted`]).
    fn note(&self, slot: &Slot) -> &str {
        let at = (slot.start as usize)
            .saturating_add(usize::from(slot.text_len))
            .saturating_add(usize::from(slot.uci_len));
        part(&self.text, at, usize::from(slot.note_len))
    }

    /// How many moves were written for tokens in `ranges` (sorted, apart):
    /// the plies of a line of [`SplitLines`].
    pub fn count_in(&self, ranges: &[Range<usize>]) -> usize {
        ranges
            .iter()
            .map(|r| {
                self.slot_at_or_after(r.end)
                    .saturating_sub(self.slot_at_or_after(r.start))
            })
            .sum()
    }

    /// The first slot of a move at token `token` or later: a cursor for
    /// [`Moves::get_next`] that starts there.
    fn slot_at_or_after(&self, token: usize) -> usize {
        self.slots.partition_point(|s| (s.token as usize) < token)
    }

    /// The converted move in slot `slot`: the `cursor` of
    /// [`Moves::get_next`] when it found a move.
    pub fn at(&self, slot: usize) -> Option<WrittenMove<'_>> {
        self.slots.get(slot).map(|s| self.converted(s))
    }

    #[inline]
    fn converted(&self, slot: &Slot) -> WrittenMove<'_> {
        let text_len = usize::from(slot.text_len);
        let text = part(&self.text, slot.start as usize, text_len);
        WrittenMove {
            text,
            width: if self.ascii {
                text.len()
            } else {
                text.chars().count()
            },
            uci: part(
                &self.text,
                (slot.start as usize).saturating_add(text_len),
                usize::from(slot.uci_len),
            ),
            number: slot.number(),
            white: slot.white(),
        }
    }
}

/// `s[start..start + len]`, cheaply when empty.
#[inline]
fn part(s: &str, start: usize, len: usize) -> &str {
    if len == 0 {
        ""
    } else {
        s.get(start..start.saturating_add(len)).unwrap_or_default()
    }
}

/// What follows a move number: `. ` (White), `... ` (Black), or no number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dots {
    White,
    Black,
    None,
}

/// The number of decimal digits of `n`.
#[inline]
fn digit_count(n: u32) -> usize {
    match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        _ => n.ilog10() as usize + 1,
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Number of characters (not bytes) of UTF-8 text.
fn width(text: &[u8]) -> usize {
    if text.len() < 16 {
        text.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
    } else {
        bytecount::num_chars(text)
    }
}

/// A movetext writer that separates items with one space and wraps lines
/// before [`LINE_WIDTH`] columns.
pub struct Movetext<'o> {
    out: &'o mut Vec<u8>,
    column: usize,
    width: usize,
}

impl<'o> Movetext<'o> {
    /// Starts movetext at the beginning of a line of `out`.
    pub fn new(out: &'o mut Vec<u8>) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: LINE_WIDTH,
        }
    }

    /// Starts movetext whose lines are shorter than `width` characters
    /// (comments aside), or never broken when `width` is 0.
    pub fn with_width(out: &'o mut Vec<u8>, width: usize) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: if width == 0 { usize::MAX } else { width },
        }
    }

    /// Starts movetext that is never wrapped: one line (but for comments
    /// with line breaks), for a movetext shown inside other text.
    pub fn unwrapped(out: &'o mut Vec<u8>) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: usize::MAX,
        }
    }

    fn separate(&mut self, first_line_width: usize) {
        if self.column > 0 {
            if self
                .column
                .saturating_add(1)
                .saturating_add(first_line_width)
                >= self.width
            {
                self.out.push(b'\n');
                self.column = 0;
            } else {
                self.out.push(b' ');
                self.column += 1;
            }
        }
    }

    /// Writes one item (a move, a move number and its move, a NAG, a
    /// parenthesis, a result): text without line breaks.
    pub fn item(&mut self, text: &[u8]) {
        let w = width(text);
        self.separate(w);
        self.out.extend_from_slice(text);
        self.column += w;
    }

    /// Writes a move, after its number when `number` is given (`12. `,
    /// `12... `): one item of `width` characters plus the number's.
    pub fn move_item(&mut self, number: Option<(u32, &[u8])>, text: &str, width: usize) {
        let number = number.map(|(n, dots)| (itoa_buf(n), dots));
        let w = width
            + number
                .as_ref()
                .map_or(0, |(digits, dots)| digits.as_slice().len() + dots.len());
        self.separate(w);
        if let Some((digits, dots)) = &number {
            self.out.extend_from_slice(digits.as_slice());
            self.out.extend_from_slice(dots);
        }
        self.out.extend_from_slice(text.as_bytes());
        self.column += w;
    }

    /// [`Movetext::move_item`] for the writer's moves: the number `number`
    /// with its dots (`12. `, `12... `, none: [`Dots`]), then the move
    /// `text` of `width` characters, copied 16 bytes at a time from
    /// `padded` (the 16 bytes from its start) when it is given. The
    /// separator, the number and the move go out in one copy.
    #[inline]
    fn written_move(
        &mut self,
        number: u32,
        dots: Dots,
        text: &[u8],
        width: usize,
        padded: Option<&[u8; 16]>,
    ) {
        let (dots, dots_len): ([u8; 4], usize) = match dots {
            Dots::White => (*b". \0\0", 2),
            Dots::Black => (*b"... ", 4),
            Dots::None => ([0; 4], 0),
        };
        let digits = if dots_len == 0 {
            0
        } else {
            digit_count(number)
        };
        let w = width + digits + dots_len;
        // Separator (1) + digits (at most 10) + dots (4) + move (16).
        let mut buf = [0u8; 32];
        let mut len = 0;
        if self.column > 0 {
            if self.column.saturating_add(1).saturating_add(w) >= self.width {
                buf[0] = b'\n';
                self.column = 0;
            } else {
                buf[0] = b' ';
                self.column += 1;
            }
            len = 1;
        }
        let mut n = number;
        for k in (0..digits).rev() {
            if let Some(b) = buf.get_mut(len + k) {
                *b = b'0' + (n % 10) as u8;
            }
            n /= 10;
        }
        len += digits;
        if let Some(at) = buf.get_mut(len..len + 4) {
            at.copy_from_slice(&dots);
        }
        len += dots_len;
        match padded {
            Some(bytes) if text.len() <= bytes.len() && len + 16 <= buf.len() => {
                if let Some(at) = buf.get_mut(len..len + 16) {
                    at.copy_from_slice(bytes);
                }
                len += text.len();
                let end = self.out.len() + len;
                self.out.extend_from_slice(&buf);
                self.out.truncate(end);
            }
            _ => {
                self.out
                    .extend_from_slice(buf.get(..len).unwrap_or_default());
                self.out.extend_from_slice(text);
            }
        }
        self.column += w;
    }

    /// Writes `{text}` as one item, never broken; `text` must hold no `}`
    /// (see [`Movetext::comment_any`]).
    fn brace_comment(&mut self, text: &[u8]) {
        match memchr::memchr2(b'\n', b'\r', text) {
            None => {
                let w = width(text) + 2;
                self.separate(w);
                self.write_braced(text);
                self.column += w;
            }
            Some(first) => {
                self.separate(width(&text[..first]) + 2);
                self.write_braced(text);
                let last = memchr::memrchr2(b'\n', b'\r', text).unwrap_or(first);
                self.column = width(&text[last + 1..]) + 1;
            }
        }
    }

    fn write_braced(&mut self, text: &[u8]) {
        self.out.reserve(text.len() + 2);
        self.out.push(b'{');
        self.out.extend_from_slice(text);
        self.out.push(b'}');
    }

    /// Writes a comment with any text: `{text}`, or, when the text holds a
    /// `}` (possible only in a `;` comment, which has no line break), the
    /// rest-of-line comment `;text` and a line break.
    pub fn comment_any(&mut self, text: &[u8]) {
        if memchr::memchr(b'}', text).is_none() {
            self.brace_comment(text);
        } else {
            let text: Vec<u8> = text
                .iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
                .collect();
            self.separate(width(&text) + 1);
            self.out.push(b';');
            self.out.extend_from_slice(&text);
            self.out.push(b'\n');
            self.column = 0;
        }
    }

    /// Writes an escape line (`%text`) on a line of its own.
    pub fn escape(&mut self, text: &[u8]) {
        if self.column > 0 {
            self.out.push(b'\n');
        }
        self.out.push(b'%');
        self.out.extend_from_slice(text);
        self.out.push(b'\n');
        self.column = 0;
    }

    /// Ends the movetext's last line.
    pub fn finish(self) {
        if self.column > 0 {
            self.out.push(b'\n');
        }
    }
}

/// Appends `value` to `out` with `\` and `"` escaped.
pub fn escape_tag_value(value: &str, out: &mut Vec<u8>) {
    let mut rest = value.as_bytes();
    while let Some(i) = memchr::memchr2(b'\\', b'"', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\\');
        out.push(rest[i]);
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

/// The tags of `game` in export order: the seven-tag roster first (the
/// first tag of each name), then the others in ASCII order of their names
/// (a stable sort: duplicates keep their input order).
pub fn tag_order(game: &Game<'_>, order: &mut Vec<usize>) {
    order.clear();
    // The first tag of each roster name, by roster place.
    let mut first = [usize::MAX; SEVEN_TAG_ROSTER.len()];
    for (i, tag) in game.tags.iter().enumerate() {
        if let Some(place) = SEVEN_TAG_ROSTER
            .iter()
            .position(|n| n.as_bytes() == tag.name)
            && first[place] == usize::MAX
        {
            first[place] = i;
        }
    }
    order.extend(first.iter().copied().filter(|&i| i != usize::MAX));
    let roster = order.len();
    for i in 0..game.tags.len() {
        if !first.contains(&i) {
            order.push(i);
        }
    }
    if let Some(rest) = order.get_mut(roster..) {
        rest.sort_by(|&a, &b| {
            let name = |i: usize| game.tags.get(i).map_or(&[][..], |t| t.name);
            name(a).cmp(name(b))
        });
    }
}

/// The text of a comment token, decoded, without the `\r` of a `;`
/// comment's CRLF line end.
pub fn comment_text<'t>(token: &Token<'t>, source: &GameText<'t>) -> std::borrow::Cow<'t, str> {
    let mut text = token.text;
    if let [rest @ .., b'\r'] = text {
        text = rest;
    }
    source.decode(text)
}

/// What a movetext word that is not a replayed move stands for.
pub enum Word {
    /// A NAG (a move glyph written as a word).
    Nag(u8),
    /// A draw offer (`(=)`, `=`), kept as the comment `(=)`.
    DrawOffer,
    /// A mark the writer recomputes (check, mate, en passant): dropped.
    Mark,
    /// Not a move that was replayed: the line is not converted from here.
    Dead,
}

/// Classifies a word that is not a replayed move.
pub fn classify_word(text: &str) -> Word {
    match parse_annotation(text) {
        Some(Annotation::Nag(n)) => Word::Nag(n),
        Some(Annotation::DrawOffer) => Word::DrawOffer,
        Some(_) => Word::Mark,
        None => Word::Dead,
    }
}

/// Whether a move token may carry a glyph or a draw offer.
fn may_have_marks(raw: &[u8]) -> bool {
    raw.iter()
        .any(|&b| matches!(b, b'!' | b'?' | b'=') || b >= 0x80)
}

/// The glyph and draw offer attached to a move token (`e4!`, `Nf3!?`,
/// `Qd2(=)`), read only when the token may hold one.
pub fn attached_marks(raw: &[u8], text: &str) -> (Option<u8>, bool) {
    if !may_have_marks(raw) {
        return (None, false);
    }
    match parse_move(text) {
        Ok(t) => (t.nag(), t.draw_offer()),
        Err(_) => (None, false),
    }
}

/// Whether a word is a null move (`--`, `Z0`, `0000`).
pub fn is_null_word(text: &str) -> bool {
    parse_move(text).is_ok_and(|t| t.is_null())
}

/// The place of a ply: its full-move number and whether White plays it.
pub type Place = (u32, bool);

/// The place of the ply after a ply at `place`.
fn after(place: Place) -> Place {
    match place {
        (n, true) => (n, false),
        (n, false) => (n.saturating_add(1), true),
    }
}

/// The place of the ply before a ply at `place`.
fn before(place: Place) -> Place {
    match place {
        (n, true) => (n.saturating_sub(1), false),
        (n, false) => (n, true),
    }
}

/// A line (the game or a variation) while [`NullPlaces::new`] walks it.
struct NullLine {
    /// The place of the line's last ply (move or null move), when known.
    last: Option<Place>,
    /// The place of the line's next ply, when known.
    next: Option<Place>,
    /// Null moves met before the line's next ply was known (indices in
    /// [`NullPlaces::places`]): placed back from the next move.
    pending: Vec<usize>,
}

/// Where the null moves (`--`, `Z0`, `0000`) of a game go: the move number
/// and side of each, found in one pass over the tokens (the replay places
/// moves, not null moves).
///
/// A null move takes the place after its line's ply before it (move or null
/// move), or, first in its line, the place the line starts at: the game's
/// start position ([`Moves::set_start`]) or, for a variation, the
/// place of the parent's ply it replaces. Where neither is known, null
/// moves are placed back from the line's next move. Linear in the tokens,
/// with no recursion, however many null moves or variations there are.
#[derive(Default, Debug)]
pub struct NullPlaces {
    /// Token index and place of every null move, in token order (8 bytes
    /// each: a game may hold millions), the place packed by [`pack_place`].
    places: Vec<(u32, u32)>,
}

/// A place in a `u32`: 0 for none, else one more than its full-move
/// number times two plus one for White (a null move placed back from move
/// 1 has the number 0).
fn pack_place(place: Option<Place>) -> u32 {
    place.map_or(0, |(number, white)| {
        number
            .min(u32::MAX / 2 - 1)
            .saturating_mul(2)
            .saturating_add(u32::from(white))
            .saturating_add(1)
    })
}

/// The place [`pack_place`] packed.
fn unpack_place(packed: u32) -> Option<Place> {
    let p = packed.checked_sub(1)?;
    Some((p >> 1, p & 1 == 1))
}

impl NullPlaces {
    /// The places of the null moves of `game`, whose moves are converted
    /// in `moves`.
    pub fn new(game: &Game<'_>, source: &GameText<'_>, moves: &Moves) -> NullPlaces {
        let mut places: Vec<(u32, u32)> = Vec::new();
        let mut lines = vec![NullLine {
            last: None,
            next: moves.start,
            pending: Vec::new(),
        }];
        let mut cursor = 0usize;
        for (i, t) in game.tokens.iter().enumerate() {
            match t.kind {
                TokenKind::OpenVariation => {
                    let next = lines.last().and_then(|l| l.last);
                    lines.push(NullLine {
                        last: None,
                        next,
                        pending: Vec::new(),
                    });
                }
                TokenKind::CloseVariation if lines.len() > 1 => {
                    lines.pop();
                }
                TokenKind::Word => {
                    let Some(line) = lines.last_mut() else {
                        continue;
                    };
                    if let Some(m) = moves.get_next(i, &mut cursor) {
                        let place = (m.number, m.white);
                        // Null moves waiting for this move: the last one
                        // just before it, the others before that.
                        let mut at = place;
                        for &k in line.pending.iter().rev() {
                            at = before(at);
                            if let Some(slot) = places.get_mut(k) {
                                slot.1 = pack_place(Some(at));
                            }
                        }
                        line.pending.clear();
                        line.last = Some(place);
                        line.next = Some(after(place));
                    } else if let Ok(i) = u32::try_from(i)
                        && is_null_word(&source.decode(t.text))
                    {
                        match line.next {
                            Some(place) if line.pending.is_empty() => {
                                places.push((i, pack_place(Some(place))));
                                line.last = Some(place);
                                line.next = Some(after(place));
                            }
                            _ => {
                                line.pending.push(places.len());
                                places.push((i, 0));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        NullPlaces { places }
    }

    /// The place of the null move at token `i`, if it has one.
    pub fn get(&self, i: usize) -> Option<Place> {
        let i = u32::try_from(i).ok()?;
        let at = self.places.binary_search_by_key(&i, |p| p.0).ok()?;
        self.places.get(at).and_then(|p| unpack_place(p.1))
    }
}

/// Whether the tokens at `i` are `(`, `=`, `)`: the scoresheet draw offer
/// `(=)`, which the lexer sees as a variation.
pub fn draw_offer_at(game: &Game<'_>, i: usize) -> bool {
    let mut next = game.tokens.range(i..i.saturating_add(3));
    matches!(
        (next.next(), next.next(), next.next()),
        (Some(a), Some(b), Some(c)) if a.kind == TokenKind::OpenVariation
            && b.kind == TokenKind::Word
            && b.text == b"="
            && c.kind == TokenKind::CloseVariation
    )
}

/// Index of the token that ends the line that token `i` (at variation
/// depth `depth`, 0 for the main line) belongs to: its closing `)`, or for
/// the main line the game's result token (or the end).
pub fn line_end(game: &Game<'_>, i: usize, depth: usize) -> usize {
    let mut d = depth;
    for (j, t) in game.tokens.range(i..usize::MAX).enumerate() {
        let j = i + j;
        match t.kind {
            TokenKind::OpenVariation => d += 1,
            TokenKind::CloseVariation if d > 0 => {
                if d == depth {
                    return j;
                }
                d -= 1;
            }
            TokenKind::Result(_) if depth == 0 && game.result_token == Some(j) => return j,
            _ => {}
        }
    }
    game.tokens.len()
}

/// The pieces of the verbatim text of tokens `from..to`: runs of movetext
/// (raw, trimmed, `}` dropped) and the comments inside, in order.
pub fn verbatim_pieces<'t>(
    input: &'t [u8],
    game: &'t Game<'t>,
    from: usize,
    to: usize,
    mut piece: impl FnMut(VerbatimPiece<'t>),
) {
    let mut run_start: Option<usize> = None;
    let mut run_end = 0usize;
    let flush = |start: Option<usize>, end: usize, piece: &mut dyn FnMut(VerbatimPiece<'t>)| {
        if let Some(s) = start
            && let Some(raw) = input.get(s..end)
        {
            let raw = raw.trim_ascii();
            if !raw.is_empty() {
                piece(VerbatimPiece::Text(raw));
            }
        }
    };
    for t in game.tokens.range(from..to) {
        if t.kind == TokenKind::Comment {
            flush(run_start.take(), run_end, &mut piece);
            piece(VerbatimPiece::Comment(t));
        } else {
            if run_start.is_none() {
                run_start = Some(t.span.start);
            }
            run_end = t.span.end;
        }
    }
    flush(run_start, run_end, &mut piece);
}

/// A piece of verbatim movetext.
pub enum VerbatimPiece<'t> {
    /// Raw movetext (may hold `}` and line breaks).
    Text(&'t [u8]),
    /// A comment token.
    Comment(Token<'t>),
}

/// Which tags a [`Writer`] writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum TagSection {
    /// Every tag (the default).
    #[default]
    All,
    /// The seven-tag roster only (those of its tags the game has).
    Roster,
    /// None: movetext only.
    None,
}

/// What a [`Writer`] writes of each game, and how wide: everything, in
/// lines shorter than [`LINE_WIDTH`], by default.
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Layout, Moves, TagSection, Writer};
/// use pgnkit_pgn::{Game, Reader};
///
/// let pgn = b"[White \"Tal\"]\n[ECO \"B20\"]\n\n{start} e4 $1 (d4) c5 1-0\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let mut moves = Moves::new(true);
/// // Tokens: `{start}` 0, `e4` 1, `$1` 2, `(` 3, `d4` 4, `)` 5, `c5` 6.
/// moves.push_with(1, 1, true, |t, _| t.push_str("e4"));
/// moves.push_with(4, 1, true, |t, _| t.push_str("d4"));
/// moves.push_with(6, 1, false, |t, _| t.push_str("c5"));
/// let layout = Layout {
///     tags: TagSection::Roster,
///     comments: false,
///     nags: false,
///     variations: false,
///     move_numbers: false,
///     result: false,
///     ..Layout::default()
/// };
/// let mut out = Vec::new();
/// Writer::with_layout(layout).write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
/// assert_eq!(out, b"[White \"Tal\"]\n\ne4 c5\n\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The tags written.
    pub tags: TagSection,
    /// Comments (`{…}`, `;…`, the draw offer `{(=)}`); the text of a line
    /// that is not converted is kept all the same.
    pub comments: bool,
    /// NAGs (`$1`, and glyphs written as NAGs).
    pub nags: bool,
    /// Variations.
    pub variations: bool,
    /// Move numbers (`12.`, `12...`).
    pub move_numbers: bool,
    /// The termination marker (`1-0`, `*`).
    pub result: bool,
    /// Lines of movetext are shorter than this many characters (comments
    /// aside); 0: one line per game.
    pub width: usize,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            tags: TagSection::All,
            comments: true,
            nags: true,
            variations: true,
            move_numbers: true,
            result: true,
            width: LINE_WIDTH,
        }
    }
}

/// Writes games in the PGN export format (see the [module](self)).
///
/// Keeps a few buffers from game to game.
#[derive(Default, Debug)]
pub struct Writer {
    /// What is written of each game.
    layout: Layout,
    order: Vec<usize>,
    /// Tags written instead of the game's own ([`Writer::set_tags`]).
    tags: Vec<(String, Option<String>)>,
    item: Vec<u8>,
    /// Where [`Writer::write_game_to`] writes before it drains.
    stage: Vec<u8>,
}

/// The bytes of movetext [`Writer::write_game_to`] holds before it passes
/// them on.
pub const DRAIN_AT: usize = 1 << 16;

/// Passes on (and empties) the bytes written so far.
type Drain<'d> = &'d mut dyn FnMut(&mut Vec<u8>) -> std::io::Result<()>;

impl Writer {
    /// A writer.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// A writer that writes what `layout` keeps of each game.
    pub fn with_layout(layout: Layout) -> Writer {
        Writer {
            layout,
            ..Writer::default()
        }
    }

    /// Writes `game` (read from `input`, decoded by `source`, its moves
    /// written in `moves`) in export format to `out`, followed by an empty
    /// line.
    pub fn write_game(
        &mut self,
        out: &mut Vec<u8>,
        input: &[u8],
        game: &Game<'_>,
        source: &GameText<'_>,
        moves: &Moves,
    ) {
        self.write_line(out, input, game, source, moves, None);
    }

    /// [`Writer::write_game`] for one line of `game`: only the tokens in
    /// `only` (a line of [`SplitLines`]) when it is given.
    pub fn write_line(
        &mut self,
        out: &mut Vec<u8>,
        input: &[u8],
        game: &Game<'_>,
        source: &GameText<'_>,
        moves: &Moves,
        only: Option<&[Range<usize>]>,
    ) {
        self.write_head(out, game, source);
        // Without a drain nothing can fail.
        let _ = write_movetext::<false>(
            out,
            input,
            game,
            source,
            moves,
            &mut self.item,
            &self.layout,
            only,
            &mut |_| Ok(()),
        );
    }

    /// The escape lines before the tag section (they stay before it), then
    /// the tags in export order.
    fn write_head(&mut self, out: &mut Vec<u8>, game: &Game<'_>, source: &GameText<'_>) {
        let first_tag = game.tags.first().map_or(usize::MAX, |t| t.span.start);
        // Tokens are in file order: the escapes before the tag section are
        // its first (a line of a split game does not walk the whole game).
        for t in game.tokens.iter().take_while(|t| t.span.start < first_tag) {
            if t.kind == TokenKind::Escape {
                out.push(b'%');
                out.extend_from_slice(source.decode(t.text).as_bytes());
                out.push(b'\n');
            }
        }
        write_tags(
            out,
            game,
            source,
            &mut self.order,
            &self.tags,
            self.layout.tags,
        );
    }

    /// Tags to write in place of the game's own of the same names, in the
    /// games written from now on: `(name, Some(value))` sets a tag (added
    /// where the game has none), `(name, None)` leaves it out. An empty
    /// list writes the games' tags as they are.
    ///
    /// ```
    /// use pgnkit_pgn::text::GameText;
    /// use pgnkit_pgn::write::{Moves, Writer};
    /// use pgnkit_pgn::{Game, Reader};
    ///
    /// let pgn = b"[White \"Tal\"]\n[Variation \"old\"]\n\n1. e4 c5 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let mut writer = Writer::new();
    /// writer.set_tags(&[("ECO", Some("B20")), ("Variation", None)]);
    /// let mut out = Vec::new();
    /// writer.write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &Moves::new(true));
    /// assert!(out.starts_with(b"[White \"Tal\"]\n[ECO \"B20\"]\n\n"));
    /// ```
    pub fn set_tags(&mut self, tags: &[(&str, Option<&str>)]) {
        self.tags.clear();
        self.tags.extend(
            tags.iter()
                .map(|(n, v)| ((*n).to_owned(), v.map(str::to_owned))),
        );
        self.tags.sort_by(|a, b| a.0.cmp(&b.0));
    }

    /// [`Writer::write_game`] to any writer, in pieces of about
    /// [`DRAIN_AT`] bytes: the text of a game of millions of moves is never
    /// held whole.
    ///
    /// # Errors
    /// The first error of `out`.
    ///
    /// ```
    /// use pgnkit_pgn::text::GameText;
    /// use pgnkit_pgn::write::{Moves, Writer};
    /// use pgnkit_pgn::{Game, Reader};
    ///
    /// let pgn = b"[Event \"x\"]\n\n1. e4 {best by test} e5 *\n";
    /// let mut reader = Reader::new(pgn);
    /// let mut game = Game::default();
    /// assert!(reader.read_game(&mut game));
    /// let source = GameText::new(pgn, game.span.clone());
    /// // No moves converted: the words are copied as they are.
    /// let mut out = Vec::new();
    /// Writer::new().write_game_to(&mut out, pgn, &game, &source, &Moves::new(true)).unwrap();
    /// let mut whole = Vec::new();
    /// Writer::new().write_game(&mut whole, pgn, &game, &source, &Moves::new(true));
    /// assert_eq!(out, whole);
    /// ```
    pub fn write_game_to<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        input: &[u8],
        game: &Game<'_>,
        source: &GameText<'_>,
        moves: &Moves,
    ) -> std::io::Result<()> {
        let mut stage = std::mem::take(&mut self.stage);
        stage.clear();
        self.write_head(&mut stage, game, source);
        let mut drain = |buf: &mut Vec<u8>| -> std::io::Result<()> {
            out.write_all(buf)?;
            buf.clear();
            Ok(())
        };
        let written = write_movetext::<true>(
            &mut stage,
            input,
            game,
            source,
            moves,
            &mut self.item,
            &self.layout,
            None,
            &mut drain,
        )
        .and_then(|()| drain(&mut stage));
        // The stage is kept for the next game, unless it grew large.
        if stage.capacity() <= 2 * DRAIN_AT {
            self.stage = stage;
        }
        written
    }

    /// Writes only the tag section of `game` in export order (and the
    /// empty line after it, if it has tags): for a caller that writes the
    /// movetext itself with a [`Movetext`].
    pub fn write_tags(&mut self, out: &mut Vec<u8>, game: &Game<'_>, source: &GameText<'_>) {
        write_tags(
            out,
            game,
            source,
            &mut self.order,
            &self.tags,
            self.layout.tags,
        );
    }
}

/// Writes the tag section in export order, and the empty line after it.
#[inline(never)]
fn write_tags(
    out: &mut Vec<u8>,
    game: &Game<'_>,
    source: &GameText<'_>,
    order: &mut Vec<usize>,
    set: &[(String, Option<String>)],
    section: TagSection,
) {
    if section == TagSection::None {
        return;
    }
    tag_order(game, order);
    // The tags set are written among the others in ASCII order of their
    // names, after the roster (the game's tags of their names are not).
    let roster = SEVEN_TAG_ROSTER
        .iter()
        .filter(|n| game.tag(n).is_some())
        .count();
    let in_section = |name: &str| section == TagSection::All || SEVEN_TAG_ROSTER.contains(&name);
    if section == TagSection::Roster {
        order.truncate(roster);
    }
    let mut pending = set
        .iter()
        .filter(|(n, v)| v.is_some() && in_section(n))
        .peekable();
    let mut wrote = false;
    let write_set = |out: &mut Vec<u8>, name: &str, value: &str| {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        escape_tag_value(value, out);
        out.extend_from_slice(b"\"]\n");
    };
    for (place, &i) in order.iter().enumerate() {
        let Some(tag) = game.tags.get(i) else {
            continue;
        };
        if place >= roster {
            while let Some((name, Some(value))) =
                pending.next_if(|(name, _)| name.as_bytes() < tag.name)
            {
                write_set(out, name, value);
                wrote = true;
            }
        }
        if set.iter().any(|(name, _)| name.as_bytes() == tag.name) {
            continue;
        }
        out.push(b'[');
        out.extend_from_slice(source.decode(tag.name).as_bytes());
        out.extend_from_slice(b" \"");
        let raw = tag.raw_value;
        if source.encoding() == Encoding::Utf8 && memchr::memchr2(b'\\', b'"', raw).is_none() {
            // Nothing to resolve, nothing to escape: the value as it is
            // (the game's text is UTF-8).
            out.extend_from_slice(raw);
        } else {
            escape_tag_value(&source.decode(&tag.value()), out);
        }
        out.extend_from_slice(b"\"]\n");
        wrote = true;
    }
    for (name, value) in pending {
        if let Some(value) = value {
            write_set(out, name, value);
            wrote = true;
        }
    }
    if wrote {
        out.push(b'\n');
    }
}

/// Writes the movetext, wrapped, with the termination marker; with
/// `DRAIN`, passes `out` to `drain` whenever it holds [`DRAIN_AT`] bytes
/// (without, the test is not even compiled in). Only the tokens in `only`
/// are written when it is given (one line of [`SplitLines`]), and only
/// the parts `layout` keeps.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn write_movetext<const DRAIN: bool>(
    out: &mut Vec<u8>,
    input: &[u8],
    game: &Game<'_>,
    source: &GameText<'_>,
    moves: &Moves,
    item: &mut Vec<u8>,
    layout: &Layout,
    only: Option<&[Range<usize>]>,
    drain: Drain<'_>,
) -> std::io::Result<()> {
    let first_tag = game.tags.first().map_or(usize::MAX, |t| t.span.start);
    let mut mt = Movetext::with_width(out, layout.width);
    let mut depth = 0usize;
    let mut need_number = true;
    let mut i = 0usize;
    let mut cursor = 0usize;
    // The FEN comment (or other note) of the last move, written after its
    // NAGs and comments.
    let mut note: Option<Slot> = None;
    // Where in `only` the walk is.
    let mut part = 0usize;
    // Computed at the first null move, for the whole game.
    let mut nulls: Option<NullPlaces> = None;
    let tokens = &game.tokens;
    let numbers = layout.move_numbers;
    loop {
        // The end of the token range being written.
        let mut end = usize::MAX;
        if let Some(only) = only {
            while only.get(part).is_some_and(|r| r.end <= i) {
                part += 1;
            }
            let Some(range) = only.get(part) else { break };
            if i < range.start {
                // Past the tokens of other lines: find the move slot by
                // search, not by walking their moves.
                i = range.start;
                cursor = moves.slot_at_or_after(i);
            }
            end = range.end;
        }
        let Some(t) = tokens.get(i) else { break };
        if DRAIN && mt.out.len() >= DRAIN_AT {
            drain(mt.out)?;
        }
        // The note goes after the move's NAGs and comments.
        let keeps_note = matches!(t.kind, TokenKind::Nag(_) | TokenKind::Comment)
            || (t.kind == TokenKind::Word
                && note.is_some()
                && matches!(
                    classify_word(&source.decode(t.text)),
                    Word::Nag(_) | Word::Mark
                ));
        if !keeps_note && let Some(slot) = note.take() {
            mt.comment_any(moves.note(&slot).as_bytes());
            need_number = true;
        }
        match t.kind {
            TokenKind::Word => {
                if let Some(slot) = moves.next_slot(i, &mut cursor) {
                    let dots = if !numbers {
                        Dots::None
                    } else if slot.white() {
                        Dots::White
                    } else if need_number {
                        Dots::Black
                    } else {
                        Dots::None
                    };
                    let (text, width, padded) = moves.written_bytes(&slot);
                    mt.written_move(slot.number(), dots, text, width, padded);
                    need_number = false;
                    if may_have_marks(t.text) {
                        let (nag, draw) = attached_marks(t.text, &source.decode(t.text));
                        if let Some(n) = nag.filter(|_| layout.nags) {
                            write_nag(&mut mt, item, n);
                            need_number = true;
                        }
                        if draw && layout.comments {
                            mt.comment_any(b"(=)");
                            need_number = true;
                        }
                    }
                    if slot.note_len > 0 {
                        note = Some(slot);
                    }
                } else {
                    let text = source.decode(t.text);
                    if is_null_word(&text)
                        && let Some((number, white)) = nulls
                            .get_or_insert_with(|| NullPlaces::new(game, source, moves))
                            .get(i)
                    {
                        item.clear();
                        if !numbers {
                        } else if white {
                            push_number(item, number, b". ");
                        } else if need_number {
                            push_number(item, number, b"... ");
                        }
                        item.extend_from_slice(NULL_MOVE.as_bytes());
                        mt.item(item);
                        need_number = false;
                        i += 1;
                        continue;
                    }
                    match classify_word(&text) {
                        Word::Nag(n) => {
                            if layout.nags {
                                write_nag(&mut mt, item, n);
                                need_number = true;
                            }
                        }
                        Word::DrawOffer => {
                            if layout.comments {
                                mt.comment_any(b"(=)");
                                need_number = true;
                            }
                        }
                        Word::Mark => {}
                        Word::Dead => {
                            let end = line_end(game, i, depth).min(end);
                            verbatim_pieces(input, game, i, end, |p| match p {
                                VerbatimPiece::Text(raw) => {
                                    let decoded = source.decode(raw);
                                    let clean: String =
                                        decoded.chars().filter(|&c| c != '}').collect();
                                    mt.comment_any(clean.as_bytes());
                                }
                                VerbatimPiece::Comment(c) => {
                                    if layout.comments
                                        && let Some(text) = moves.comment(&c, source)
                                    {
                                        mt.comment_any(text.as_bytes());
                                    }
                                }
                            });
                            need_number = true;
                            i = end;
                            continue;
                        }
                    }
                }
            }
            TokenKind::MoveNumber { .. } => {}
            TokenKind::Nag(n) => {
                if layout.nags {
                    write_nag(&mut mt, item, n);
                    need_number = true;
                }
            }
            TokenKind::Comment => {
                if layout.comments
                    && let Some(text) = moves.comment(&t, source)
                {
                    mt.comment_any(text.as_bytes());
                    need_number = true;
                }
            }
            TokenKind::Escape => {
                if t.span.start > first_tag {
                    mt.escape(source.decode(t.text).as_bytes());
                }
            }
            TokenKind::OpenVariation if draw_offer_at(game, i) => {
                if layout.comments {
                    mt.comment_any(b"(=)");
                    need_number = true;
                }
                i += 3;
                continue;
            }
            TokenKind::OpenVariation if !layout.variations => {
                // The variation, and those inside it, left out.
                i = line_end(game, i + 1, depth + 1).saturating_add(1);
                continue;
            }
            TokenKind::OpenVariation => {
                depth += 1;
                mt.item(b"(");
                need_number = true;
            }
            TokenKind::CloseVariation => {
                if depth > 0 {
                    depth -= 1;
                    mt.item(b")");
                    need_number = true;
                }
            }
            TokenKind::Result(r) => {
                if game.result_token != Some(i) && layout.result {
                    mt.item(r.as_str().as_bytes());
                }
            }
            TokenKind::DeepVariation => {
                // Read, never replayed: kept in a comment as the text it was.
                if layout.variations {
                    let clean: String = source
                        .decode(t.text)
                        .chars()
                        .filter(|&c| c != '}')
                        .collect();
                    mt.comment_any(clean.as_bytes());
                    need_number = true;
                }
            }
        }
        i += 1;
    }
    if let Some(slot) = note.take() {
        mt.comment_any(moves.note(&slot).as_bytes());
    }
    for _ in 0..depth {
        mt.item(b")");
    }
    if layout.result {
        mt.item(result_marker(game, source).as_bytes());
    }
    mt.finish();
    out.push(b'\n');
    Ok(())
}

/// One line of a game while [`SplitLines::new`] reads it.
#[derive(Debug)]
struct SplitLine {
    /// The line's own tokens, its variations' left out.
    segments: Vec<Range<usize>>,
    /// The nearest line above it that has tokens to write before the cut
    /// below it (the move of that line this one replaces, or its `(` when
    /// it has none), with that cut: the lines in between add nothing that
    /// is written (move numbers at most), and [`SplitLines::ranges`] skips
    /// them (a variation nested a million
    /// deep, each replacing its parent's first move, is no walk of a
    /// million lines).
    link: Option<(usize, usize)>,
}

/// A line [`SplitLines::new`] is inside of while it reads the tokens.
#[derive(Debug)]
struct OpenLine {
    /// Index in the lines.
    line: usize,
    /// Where its current segment starts (`usize::MAX` inside a variation).
    start: usize,
    /// Its last move so far.
    last: Option<usize>,
    /// It has a token that is written (anything but a move number).
    written: bool,
    /// It had one before its last move.
    written_before_last: bool,
}

impl OpenLine {
    fn new(line: usize, start: usize) -> OpenLine {
        OpenLine {
            line,
            start,
            last: None,
            written: false,
            written_before_last: false,
        }
    }
}

/// The lines of a game as games of their own (pgn-extract's
/// `--splitvariants`): the main line, then each variation in the order it
/// opens, as the game's tokens from its start up to the move the variation
/// replaces, then the variation's own. Each line is the token ranges
/// [`Writer::write_line`] writes; in none of them is there a variation.
///
/// Reading the structure takes one pass, without recursion; the ranges of
/// one line are made when they are asked for, so that the memory held is
/// that of the game and of one line (a line nested `d` deep is made of the
/// pieces of `d` lines).
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Layout, Moves, SplitLines, Writer};
/// use pgnkit_pgn::{Game, Reader, TokenKind};
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// // The words as a replay would write them (move number, White).
/// let mut moves = Moves::new(true);
/// let places = [(1, true), (1, false), (1, false), (2, true), (2, true)];
/// let words = (0..game.tokens.len()).filter(|&i| game.tokens.kind(i) == Some(TokenKind::Word));
/// for (i, (n, white)) in words.zip(places) {
///     let text = String::from_utf8_lossy(game.tokens.get(i).unwrap().text).into_owned();
///     moves.push_with(i, n, white, |t, _| t.push_str(&text));
/// }
/// let lines = SplitLines::new(&game, &moves);
/// let source = GameText::new(pgn, game.span.clone());
/// let (mut ranges, mut out) = (Vec::new(), Vec::new());
/// for line in 0..lines.len() {
///     lines.ranges(line, &mut ranges);
///     Writer::with_layout(Layout::default()).write_line(&mut out, pgn, &game, &source, &moves, Some(&ranges));
/// }
/// assert_eq!(out, b"1. e4 e5 2. Nf3 *\n\n1. e4 c5 2. Nf3 *\n\n");
/// ```
#[derive(Debug)]
pub struct SplitLines {
    lines: Vec<SplitLine>,
}

impl SplitLines {
    /// The lines of `game`, whose replayed moves are in `moves`.
    pub fn new(game: &Game<'_>, moves: &Moves) -> SplitLines {
        let main = SplitLine {
            segments: Vec::new(),
            link: None,
        };
        let mut lines = vec![main];
        let mut open: Vec<OpenLine> = vec![OpenLine::new(0, 0)];
        let mut cursor = 0usize;
        let mut i = 0usize;
        while let Some(kind) = game.tokens.kind(i) {
            match kind {
                TokenKind::OpenVariation if draw_offer_at(game, i) => {
                    // `(=)`, written as a comment.
                    if let Some(o) = open.last_mut() {
                        o.written = true;
                    }
                    i += 3;
                    continue;
                }
                TokenKind::OpenVariation => {
                    if let Some(o) = open.last_mut()
                        && let Some(l) = lines.get_mut(o.line)
                    {
                        l.segments.push(o.start..i);
                        // Inside the variation: no segment of its own
                        // until the variation closes.
                        o.start = usize::MAX;
                        // The variation replaces the line's last move, or
                        // follows all of it when it has none.
                        let (cut, adds) = match o.last {
                            Some(last) => (last, o.written_before_last),
                            None => (i, o.written),
                        };
                        let link = if adds { Some((o.line, cut)) } else { l.link };
                        lines.push(SplitLine {
                            segments: Vec::new(),
                            link,
                        });
                        open.push(OpenLine::new(lines.len() - 1, i + 1));
                    }
                }
                TokenKind::CloseVariation if open.len() > 1 => {
                    if let Some(o) = open.pop()
                        && let Some(l) = lines.get_mut(o.line)
                    {
                        l.segments.push(o.start..i);
                    }
                    if let Some(o) = open.last_mut() {
                        o.start = i + 1;
                    }
                }
                // Move numbers are written anew, never as read.
                TokenKind::MoveNumber { .. } => {}
                kind => {
                    if let Some(o) = open.last_mut() {
                        if kind == TokenKind::Word && moves.get_next(i, &mut cursor).is_some() {
                            o.written_before_last = o.written;
                            o.last = Some(i);
                        }
                        o.written = true;
                    }
                }
            }
            i += 1;
        }
        let end = game.tokens.len();
        // Unclosed variations end with the game (their parents with them).
        while let Some(o) = open.pop() {
            if let Some(l) = lines.get_mut(o.line)
                && o.start != usize::MAX
            {
                l.segments.push(o.start..end);
            }
        }
        for l in &mut lines {
            l.segments.retain(|r| !r.is_empty());
        }
        SplitLines { lines }
    }

    /// The number of lines (1 for a game without variations).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is no line at all (never: the main line is one).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Puts into `out` the token ranges of line `line` (0 for the main
    /// line), in order.
    pub fn ranges(&self, line: usize, out: &mut Vec<Range<usize>>) {
        out.clear();
        // The line and the lines above it that add tokens, each with the
        // cut below it, from the line up; then laid out from the main line
        // down.
        let mut chain: Vec<(usize, usize)> = vec![(line, usize::MAX)];
        let mut next = self.lines.get(line).and_then(|l| l.link);
        while let Some((l, cut)) = next {
            chain.push((l, cut));
            next = self.lines.get(l).and_then(|l| l.link);
        }
        for &(l, cut) in chain.iter().rev() {
            let Some(line) = self.lines.get(l) else {
                continue;
            };
            for r in &line.segments {
                if r.start >= cut {
                    break;
                }
                out.push(r.start..r.end.min(cut));
            }
        }
    }
}

/// Writes `game` as plain text, one move a line: a line with its players
/// (`White - Black`, from its tags), each converted move numbered
/// (`1. Knight g1 to f3`, `1... Knight g8 to f6`), the moves of a variation
/// indented by two spaces a level (up to 16 levels), and the result; then
/// an empty line. For moves that are words (spoken moves) and for reading
/// aloud. Comments, NAGs and words that are no converted move are left out.
///
/// # Errors
/// The first error of `out`.
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Moves, write_move_lines};
/// use pgnkit_pgn::{Game, Reader, TokenKind};
///
/// let pgn = b"[White \"Anna\"]\n[Black \"Boris\"]\n\n1. e4 (1. d4) e5 1-0\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let mut moves = Moves::new(true);
/// let words: Vec<usize> = (0..game.tokens.len())
///     .filter(|&i| game.tokens.kind(i) == Some(TokenKind::Word))
///     .collect();
/// // e4, d4 (in the variation), e5: as a converter would write them.
/// for (&i, (text, white)) in words.iter().zip([("pawn e4", true), ("pawn d4", true), ("pawn e5", false)]) {
///     moves.push_with(i, 1, white, |out, _| out.push_str(text));
/// }
/// let mut out = Vec::new();
/// write_move_lines(&mut out, &game, &GameText::new(pgn, game.span.clone()), &moves)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "Anna - Boris\n1. pawn e4\n  1. pawn d4\n1... pawn e5\n1-0\n\n"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_move_lines<W: std::io::Write + ?Sized>(
    out: &mut W,
    game: &Game<'_>,
    source: &GameText<'_>,
    moves: &Moves,
) -> std::io::Result<()> {
    let player = |name: &str| {
        game.tag(name)
            .map(|t| source.decode(&t.value()).trim().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "?".to_owned())
    };
    // Written in pieces: a game of millions of moves is never held whole.
    let mut buf = format!("{} - {}\n", player("White"), player("Black")).into_bytes();
    let mut depth = 0usize;
    let mut cursor = 0usize;
    for (i, kind) in game.tokens.kinds().enumerate() {
        match kind {
            TokenKind::OpenVariation => depth = depth.saturating_add(1),
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word => {
                if let Some(m) = moves.get_next(i, &mut cursor) {
                    // Deeper than a reader can follow: no deeper indent.
                    let indent = depth.min(MAX_INDENT) * 2;
                    buf.resize(buf.len().saturating_add(indent), b' ');
                    buf.extend_from_slice(itoa_buf(m.number).as_slice());
                    buf.extend_from_slice(if m.white { b". " } else { b"... " });
                    buf.extend_from_slice(m.text.as_bytes());
                    buf.push(b'\n');
                    if buf.len() >= DRAIN_AT {
                        out.write_all(&buf)?;
                        buf.clear();
                    }
                }
            }
            _ => {}
        }
    }
    buf.extend_from_slice(result_marker(game, source).as_bytes());
    buf.extend_from_slice(b"\n\n");
    out.write_all(&buf)
}

/// The deepest level of variations [`write_move_lines`] indents.
const MAX_INDENT: usize = 16;

/// The termination marker to write: the game's own, else the Result tag's
/// value when it is a result, else `*`.
pub fn result_marker(game: &Game<'_>, source: &GameText<'_>) -> &'static str {
    if let Some(r) = game.result() {
        return r.as_str();
    }
    game.tag("Result")
        .and_then(|t| GameResult::from_bytes(source.decode(&t.value()).trim().as_bytes()))
        .map_or("*", |r| r.as_str())
}

fn push_number(item: &mut Vec<u8>, number: u32, dots: &[u8]) {
    item.extend_from_slice(itoa_buf(number).as_slice());
    item.extend_from_slice(dots);
}

fn write_nag(mt: &mut Movetext<'_>, item: &mut Vec<u8>, n: u8) {
    item.clear();
    item.push(b'$');
    item.extend_from_slice(itoa_buf(u32::from(n)).as_slice());
    mt.item(item);
}

/// A small decimal rendering without allocation.
struct Digits {
    buf: [u8; 10],
    start: usize,
}

impl Digits {
    fn as_slice(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }
}

fn itoa_buf(mut n: u32) -> Digits {
    let mut buf = [0u8; 10];
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || start == 0 {
            break;
        }
    }
    Digits { buf, start }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reader;

    /// Writes the first game of `pgn`, the words listed in `moves` (token
    /// text, full-move number, White) taken as moves and written in capitals.
    fn write(pgn: &[u8], moves: &[(&str, u32, bool)]) -> String {
        let mut game = Game::default();
        assert!(Reader::new(pgn).read_game(&mut game));
        let mut written = Moves::new(true);
        let mut next = moves.iter();
        let mut expected = next.next();
        for (i, t) in game.tokens.iter().enumerate() {
            if let Some(&(word, number, white)) = expected
                && t.kind == TokenKind::Word
                && t.text == word.as_bytes()
            {
                written.push_with(i, number, white, |text, _| {
                    text.push_str(&word.to_ascii_uppercase())
                });
                expected = next.next();
            }
        }
        assert!(expected.is_none(), "a move was not found");
        let mut out = Vec::new();
        let text = GameText::new(pgn, game.span.clone());
        Writer::new().write_game(&mut out, pgn, &game, &text, &written);
        String::from_utf8(out).expect("utf-8")
    }

    /// Bytes written, and the largest single write.
    #[derive(Default)]
    struct Pieces {
        bytes: Vec<u8>,
        largest: usize,
    }

    impl std::io::Write for Pieces {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.largest = self.largest.max(buf.len());
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A game whose movetext is many times [`DRAIN_AT`], with comments,
    /// variations and NAGs, goes out in pieces byte for byte as it does
    /// whole.
    #[test]
    fn a_long_game_written_in_pieces_is_the_game_written_whole() {
        let mut pgn = String::from("[Event \"long\"]\n[White \"A\"]\n\n");
        for n in 1..=40_000 {
            pgn.push_str(&format!(
                "{n}. Nf3 {{back {n}}} Nf6 $1 {n}. Ng1 (1. e4) Ng8 "
            ));
        }
        pgn.push_str("1/2-1/2\n");
        let pgn = pgn.as_bytes();
        let mut game = Game::default();
        assert!(Reader::new(pgn).read_game(&mut game));
        let text = GameText::new(pgn, game.span.clone());
        let mut upper = Moves::new(true);
        let mut number = 1;
        let mut white = true;
        for (i, t) in game.tokens.iter().enumerate() {
            if t.kind == TokenKind::Word && t.text.starts_with(b"N") {
                let word = String::from_utf8_lossy(t.text).to_ascii_uppercase();
                upper.push_with(i, number, white, |out, _| out.push_str(&word));
                number += u32::from(!white);
                white = !white;
            }
        }
        // (Without converted moves the first word would end the line and
        // the rest would be one comment, copied in one piece.)
        let moves = upper;
        let mut whole = Vec::new();
        Writer::new().write_game(&mut whole, pgn, &game, &text, &moves);
        assert!(whole.len() > 20 * DRAIN_AT);
        assert!(whole.starts_with(b"[Event \"long\"]"));
        assert!(
            String::from_utf8_lossy(&whole)
                .contains("1. NF3 {back 1} 1... NF6 $1 2. NG1 ( {e4} ) 2... NG8")
        );
        let mut pieces = Pieces::default();
        Writer::new()
            .write_game_to(&mut pieces, pgn, &game, &text, &moves)
            .expect("a vector takes every byte");
        assert!(pieces.largest < DRAIN_AT + 1024, "{}", pieces.largest);
        assert_eq!(String::from_utf8(pieces.bytes), String::from_utf8(whole));
    }

    /// Every word of `pgn` taken as a move (in capitals), numbered as if
    /// each line alternated from 1. White; the game and its moves.
    fn words_as_moves(pgn: &[u8]) -> (Game<'_>, Moves) {
        let mut game = Game::default();
        assert!(Reader::new(pgn).read_game(&mut game));
        let mut moves = Moves::new(true);
        let mut plies = vec![0u32];
        for (i, t) in game.tokens.iter().enumerate() {
            match t.kind {
                TokenKind::OpenVariation => {
                    let parent = plies.last().copied().unwrap_or(0);
                    plies.push(parent.saturating_sub(1));
                }
                TokenKind::CloseVariation => {
                    plies.pop();
                }
                TokenKind::Word if parse_annotation(&String::from_utf8_lossy(t.text)).is_none() => {
                    let ply = plies.last_mut().expect("a line");
                    let word = String::from_utf8_lossy(t.text).to_ascii_uppercase();
                    moves.push_with(i, *ply / 2 + 1, *ply % 2 == 0, |out, _| out.push_str(&word));
                    *ply += 1;
                }
                _ => {}
            }
        }
        (game, moves)
    }

    fn split(pgn: &[u8]) -> Vec<String> {
        let (game, moves) = words_as_moves(pgn);
        let lines = SplitLines::new(&game, &moves);
        let text = GameText::new(pgn, game.span.clone());
        let mut ranges = Vec::new();
        (0..lines.len())
            .map(|l| {
                lines.ranges(l, &mut ranges);
                let mut out = Vec::new();
                Writer::new().write_line(&mut out, pgn, &game, &text, &moves, Some(&ranges));
                String::from_utf8(out).expect("utf-8").trim_end().to_owned()
            })
            .collect()
    }

    #[test]
    fn variations_split_into_games_in_the_order_they_open() {
        assert_eq!(
            split(b"{a} e4 {b} e5 (c5 {c} (c6) Nf3) Nf3 $1 (d4 d5) Nc6 (=) *"),
            [
                "{a} 1. E4 {b} 1... E5 2. NF3 $1 2... NC6 {(=)} *",
                "{a} 1. E4 {b} 1... C5 {c} 2. NF3 *",
                "{a} 1. E4 {b} 1... C6 *",
                "{a} 1. E4 {b} 1... E5 2. D4 D5 *",
            ]
        );
        // A variation before any move of its line, unclosed variations.
        assert_eq!(
            split(b"(d4) e4 (c4 (b4"),
            ["1. E4 *", "1. D4 *", "1. C4 *", "1. B4 *"]
        );
    }

    #[test]
    fn deeply_nested_variations_split_without_recursion() {
        for levels in [3usize, 200] {
            let mut pgn = String::new();
            for _ in 0..levels {
                pgn.push_str("e4 e5 (");
            }
            pgn.push_str("d4 *");
            let (game, moves) = words_as_moves(pgn.as_bytes());
            let lines = SplitLines::new(&game, &moves);
            assert_eq!(lines.len(), levels + 1);
            let mut ranges = Vec::new();
            lines.ranges(levels, &mut ranges);
            // Each level's first move, then the last line's own.
            assert_eq!(moves.count_in(&ranges), levels + 1, "{ranges:?}");
            assert!(ranges.windows(2).all(|w| w[0].end <= w[1].start));
        }
    }

    #[test]
    fn a_line_is_made_of_the_pieces_written_not_of_one_per_level_above_it() {
        // Each variation replaces its parent's only move: the lines in
        // between add a move number at most, and no piece to the line.
        let levels = 10_000;
        let mut pgn = String::from("1. e4 d5 ");
        for _ in 0..levels {
            pgn.push_str("(1... d6 ");
        }
        pgn.push_str("2. d4 *");
        let (game, moves) = words_as_moves(pgn.as_bytes());
        let lines = SplitLines::new(&game, &moves);
        assert_eq!(lines.len(), levels + 1);
        let mut ranges = Vec::new();
        lines.ranges(levels, &mut ranges);
        assert!(ranges.len() <= 2, "{} pieces", ranges.len());
        assert_eq!(moves.count_in(&ranges), 3, "{ranges:?}");
        // A comment before a line's move is written: that line is a piece.
        let lines = split(b"e4 d5 ({x} d6 (c6 (c5)))");
        assert_eq!(
            lines.get(3).map(String::as_str),
            Some("1. E4 {x} 1... C5 *")
        );
    }

    #[test]
    fn layout_strips_every_part_and_notes_follow_nags_and_comments() {
        let pgn = b"[Event \"E\"]\n[White \"W\"]\n[Annotator \"A\"]\n\n{pre} e4 $1 {c} (d4) e5!? {(=)} Nf3+ 1-0";
        let (game, mut moves) = words_as_moves(pgn);
        let text = GameText::new(pgn, game.span.clone());
        let write = |layout: Layout, moves: &Moves| {
            let mut out = Vec::new();
            Writer::with_layout(layout.clone()).write_game(&mut out, pgn, &game, &text, moves);
            let mut pieces = Vec::new();
            Writer::with_layout(layout)
                .write_game_to(&mut pieces, pgn, &game, &text, moves)
                .expect("a vector");
            assert_eq!(out, pieces);
            String::from_utf8(out).expect("utf-8")
        };
        assert_eq!(
            write(Layout::default(), &moves),
            "[Event \"E\"]\n[White \"W\"]\n[Annotator \"A\"]\n\n{pre} 1. E4 $1 {c} ( 1. D4 ) 1... E5!? $5 {(=)} 2. NF3+ 1-0\n\n"
        );
        let bare = Layout {
            tags: TagSection::None,
            comments: false,
            nags: false,
            variations: false,
            move_numbers: false,
            result: false,
            width: 0,
        };
        assert_eq!(write(bare.clone(), &moves), "E4 E5!? NF3+\n\n");
        let roster = Layout {
            tags: TagSection::Roster,
            width: 0,
            ..Layout::default()
        };
        assert!(write(roster, &moves).starts_with("[Event \"E\"]\n[White \"W\"]\n\n{pre}"));
        // Notes: after the move's NAGs and comments, before the next move.
        let (game2, _) = words_as_moves(pgn);
        let mut noted = Moves::new(true);
        let mut cursor = 0;
        for i in 0..game2.tokens.len() {
            if let Some(m) = moves.get_next(i, &mut cursor) {
                let (text, number, white) = (m.text.to_owned(), m.number, m.white);
                noted.push_noted(i, number, white, |t, _, note| {
                    t.push_str(&text);
                    note.push_str(&format!("after {text}"));
                });
            }
        }
        moves = noted;
        assert_eq!(
            write(
                Layout {
                    comments: false,
                    ..bare
                },
                &moves
            ),
            "E4 {after E4} E5!? {after E5!?} NF3+ {after NF3+}\n\n"
        );
    }

    #[test]
    fn tags_come_in_export_order_escaped_and_none_is_invented() {
        let pgn = b"[Zeta \"z\"]\n[White \"A \\\"B\\\" C\"]\n[Annotator \"x\\\\y\"]\n[Event \"E\"]\n\n*\n";
        assert_eq!(
            write(pgn, &[]),
            "[Event \"E\"]\n[White \"A \\\"B\\\" C\"]\n[Annotator \"x\\\\y\"]\n[Zeta \"z\"]\n\n*\n\n"
        );
    }

    #[test]
    fn black_moves_are_numbered_after_comments_nags_and_variations() {
        let pgn = b"1. e4 {c} e5 2. f4 $2 exf4 (2... d5) 3. g3 *";
        let moves = [
            ("e4", 1, true),
            ("e5", 1, false),
            ("f4", 2, true),
            ("exf4", 2, false),
            ("d5", 2, false),
            ("g3", 3, true),
        ];
        assert_eq!(
            write(pgn, &moves),
            "1. E4 {c} 1... E5 2. F4 $2 2... EXF4 ( 2... D5 ) 3. G3 *\n\n"
        );
    }

    #[test]
    fn glyphs_become_nags_and_the_rest_of_a_broken_line_is_kept_in_a_comment() {
        // `Zz9` is no move: from there the line is kept as it was written.
        let pgn = b"1. e4!? e5 2. Zz9 {why} Nc6 1-0";
        let moves = [("e4!?", 1, true), ("e5", 1, false)];
        assert_eq!(
            write(pgn, &moves),
            "1. E4!? $5 1... E5 {Zz9} {why} {Nc6} 1-0\n\n"
        );
    }

    #[test]
    fn written_moves_are_the_items_move_item_writes() {
        // Numbers of 1 to 5 digits, both dots, no number, moves of 1 to 20
        // bytes (beyond the 16 of a fixed copy) and non-ASCII ones, with
        // line wraps: the writer's path and the general one agree.
        let texts = [
            "e4",
            "Ng1-f3+",
            "e7-e8=Q#",
            "♘f3",
            "Крg1",
            "N",
            "abcdefghijklmnopqrst",
        ];
        let mut fast = Vec::new();
        let mut general = Vec::new();
        let mut a = Movetext::new(&mut fast);
        let mut b = Movetext::new(&mut general);
        for (k, number) in [1u32, 9, 10, 99, 100, 999, 1000, 12345].iter().enumerate() {
            for (j, text) in texts.iter().enumerate() {
                let (dots, d): (Dots, Option<&[u8]>) = match (k + j) % 3 {
                    0 => (Dots::White, Some(b". ")),
                    1 => (Dots::Black, Some(b"... ")),
                    _ => (Dots::None, None),
                };
                let width = text.chars().count();
                let bytes = text.as_bytes();
                let mut padded = [b'#'; 16];
                let fits = bytes.len() <= 16;
                if fits {
                    padded[..bytes.len()].copy_from_slice(bytes);
                }
                a.written_move(*number, dots, bytes, width, fits.then_some(&padded));
                b.move_item(d.map(|d| (*number, d)), text, width);
            }
        }
        a.finish();
        b.finish();
        assert_eq!(String::from_utf8(fast), String::from_utf8(general.clone()));
        assert!(general.contains(&b'\n'), "the lines wrapped");
    }

    #[test]
    fn null_moves_are_numbered_from_the_moves_around_them() {
        let pgn = b"1. e4 -- 2. d4 Z0 3. c4 *";
        let moves = [("e4", 1, true), ("d4", 2, true), ("c4", 3, true)];
        assert_eq!(write(pgn, &moves), "1. E4 -- 2. D4 -- 3. C4 *\n\n");
    }

    #[test]
    fn wraps_at_80_columns_and_keeps_comments_whole() {
        let mut out = Vec::new();
        let mut mt = Movetext::new(&mut out);
        for _ in 0..30 {
            mt.item(b"1. e4");
        }
        mt.comment_any(
            "a comment that is longer than anything else on the line, kept whole, é".as_bytes(),
        );
        mt.item(b"*");
        mt.finish();
        let text = String::from_utf8(out).expect("utf-8");
        for line in text.lines() {
            assert!(
                line.chars().count() < LINE_WIDTH || line.starts_with('{'),
                "{line:?}"
            );
        }
        assert!(
            text.contains(
                "{a comment that is longer than anything else on the line, kept whole, é}"
            )
        );
        assert!(text.ends_with(" *\n"));
    }

    #[test]
    fn semicolon_comment_with_brace_stays_a_line_comment() {
        let mut out = Vec::new();
        let mut mt = Movetext::new(&mut out);
        mt.item(b"1. e4");
        mt.comment_any(b"weird } text");
        mt.item(b"*");
        mt.finish();
        assert_eq!(out, b"1. e4 ;weird } text\n*\n");
    }

    #[test]
    fn tag_values_are_escaped() {
        let mut out = Vec::new();
        escape_tag_value(r#"The "Immortal" \ game"#, &mut out);
        assert_eq!(out, br#"The \"Immortal\" \\ game"#);
    }

    #[test]
    fn numbers_render() {
        assert_eq!(itoa_buf(0).as_slice(), b"0");
        assert_eq!(itoa_buf(1234).as_slice(), b"1234");
        assert_eq!(itoa_buf(u32::MAX).as_slice(), b"4294967295");
    }
}
