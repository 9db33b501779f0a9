//! The moves of a game rendered in the target notation ([`Moves`]), by
//! token index: what the caller's replay wrote for each move word.

use std::ops::Range;

use super::movetext::width;
use super::nulls::Place;

/// A move rendered in the target notation.
///
/// 16 bytes: a game of millions of plies keeps one per move.
#[derive(Copy, Clone, Debug)]
pub(super) struct Slot {
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
    pub(super) note_len: u8,
}

impl Slot {
    pub(super) fn number(&self) -> u32 {
        self.place >> 1
    }

    pub(super) fn white(&self) -> bool {
        self.place & 1 == 1
    }
}

/// The moves of one game, rendered in the target notation, by token index:
/// what [`Writer::write_game`](super::Writer::write_game) writes for each move word.
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
    pub(super) start: Option<Place>,
    /// Comments written otherwise: the first byte of the comment token and
    /// its new text (empty: left out), sorted by the first.
    edited: Vec<(usize, String)>,
    /// Where the written form of the move being written starts in
    /// [`Moves::text`] ([`MoveSink::buffers`]).
    pending: usize,
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
    /// [`comment_text`](super::comment_text).
    pub fn comment<'t>(
        &'t self,
        token: &crate::Token<'t>,
        source: &crate::text::GameText<'t>,
    ) -> Option<std::borrow::Cow<'t, str>> {
        if !self.edited.is_empty()
            && let Ok(i) = self.edited.binary_search_by_key(&token.span.start, |e| e.0)
        {
            let text = self.edited[i].1.as_str();
            return (!text.trim().is_empty()).then_some(std::borrow::Cow::Borrowed(text));
        }
        Some(super::comment_text(token, source))
    }

    /// Sets where the game starts: the full-move number of its first ply
    /// and whether White plays it (null moves before any move are placed
    /// from it, see [`NullPlaces`](super::NullPlaces)).
    pub fn set_start(&mut self, number: u32, white: bool) {
        self.start = Some((number, white));
    }

    /// Records the move of token `token` (an index in
    /// [`Game::tokens`](crate::Game::tokens)), played at full-move `number` by White when
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
        let MoveBuffers { text, uci, note } = MoveSink::buffers(self);
        write(text, uci, note);
        MoveSink::push(self, token, number, white);
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
    pub(super) fn next_slot(&self, token: usize, cursor: &mut usize) -> Option<Slot> {
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
    pub(super) fn written_bytes(&self, slot: &Slot) -> (&[u8], usize, Option<&[u8; 16]>) {
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
    pub(super) fn note(&self, slot: &Slot) -> &str {
        let at = (slot.start as usize)
            .saturating_add(usize::from(slot.text_len))
            .saturating_add(usize::from(slot.uci_len));
        part(&self.text, at, usize::from(slot.note_len))
    }

    /// How many moves were written for tokens in `ranges` (sorted, apart):
    /// the plies of a line of [`SplitLines`](super::SplitLines).
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
    pub(super) fn slot_at_or_after(&self, token: usize) -> usize {
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

/// The buffers a move is written into ([`MoveSink::buffers`]).
pub struct MoveBuffers<'a> {
    /// Its written form, appended.
    pub text: &'a mut String,
    /// Its UCI form, appended when it is wanted.
    pub uci: &'a mut String,
    /// Its note (a comment the writer puts after the move, its NAGs and
    /// comments, such as its position's FEN), appended; nothing for none.
    pub note: &'a mut String,
}

/// What a replay writes the moves it plays into, one after the other in
/// token order: [`Moves`] keeps them by token for the [`Writer`](super::Writer),
/// [`LiveMovetext`](super::LiveMovetext) writes the game's movetext as
/// they come. Each move is written into [`MoveSink::buffers`], then
/// placed by [`MoveSink::push`].
pub trait MoveSink {
    /// Forgets every move (the replay starts again).
    fn reset(&mut self);
    /// Sets where the game starts: the full-move number of its first ply
    /// and whether White plays it ([`Moves::set_start`]).
    fn set_start(&mut self, number: u32, white: bool);
    /// The buffers the next move is written into.
    fn buffers(&mut self) -> MoveBuffers<'_>;
    /// The move just written into the [`MoveSink::buffers`] is that of
    /// token `token` (an index in [`Game::tokens`](crate::Game::tokens)),
    /// played at full-move `number` by White when `white`.
    fn push(&mut self, token: usize, number: u32, white: bool);
    /// [`MoveSink::push`] for a move whose word is plain SAN, as
    /// `pgnkit_notation::Line::read_plain_san` reads it (`e4`, `Nf3`,
    /// `exd5`, `e8=Q+`, `O-O`): a word with no glyph or draw offer attached.
    fn push_plain(&mut self, token: usize, number: u32, white: bool) {
        self.push(token, number, white);
    }
    /// [`MoveSink::push_plain`] for a move written `ascii[..len]`, ASCII
    /// of at most 16 bytes with spaces after it in `ascii` (a UCI move, or
    /// English SAN or LAN: `Line::write_in_place_and_play`),
    /// written by the replay there instead of into the
    /// [`MoveSink::buffers`] (whose UCI form and note stay empty).
    fn push_plain_ascii(
        &mut self,
        token: usize,
        number: u32,
        white: bool,
        ascii: &[u8; 16],
        len: usize,
    ) {
        let text = ascii.get(..len).unwrap_or_default();
        self.buffers()
            .text
            .extend(text.iter().map(|&b| char::from(b & 0x7f)));
        self.push_plain(token, number, white);
    }
}

impl MoveSink for Moves {
    fn reset(&mut self) {
        Moves::reset(self);
    }

    fn set_start(&mut self, number: u32, white: bool) {
        Moves::set_start(self, number, white);
    }

    #[inline]
    fn buffers(&mut self) -> MoveBuffers<'_> {
        self.pending = self.text.len();
        MoveBuffers {
            text: &mut self.text,
            uci: &mut self.uci,
            note: &mut self.note,
        }
    }

    /// Keeps the move: its written form, then its UCI form and its note
    /// (a note longer than 255 bytes is cut there).
    fn push(&mut self, token: usize, number: u32, white: bool) {
        let start = self.pending;
        let text_len = self.text.len().saturating_sub(start);
        let uci_len = self.uci.len();
        if uci_len > 0 {
            self.text.push_str(&self.uci);
            self.uci.clear();
        }
        let mut note_len = 0;
        if !self.note.is_empty() {
            note_len = self.note.len().min(usize::from(u8::MAX));
            while !self.note.is_char_boundary(note_len) {
                note_len -= 1;
            }
            self.text
                .push_str(self.note.get(..note_len).unwrap_or_default());
            self.note.clear();
        }
        let slot = Slot {
            token: to_u32(token),
            start: to_u32(start),
            place: number.saturating_mul(2).saturating_add(u32::from(white)),
            text_len: u16::try_from(text_len).unwrap_or(u16::MAX),
            uci_len: u8::try_from(uci_len).unwrap_or(u8::MAX),
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

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
