//! A game's movetext written as its moves are played ([`LiveMovetext`]):
//! no [`Moves`](super::Moves) kept, no second walk over the tokens.

use super::moves::{MoveBuffers, MoveSink};
use super::movetext::width;
use super::words::{may_have_marks, may_have_marks_in};
use super::writer::{Found, Walk};
use crate::game::Common;

/// What a move's written form is padded with, to 16 bytes at least.
const PADDING: &str = "                ";

/// A [`MoveSink`] that writes a game in export format as its moves are
/// played: the [`Writer`](super::Writer) wrote the game's tags
/// ([`Writer::live`](super::Writer::live)); each move handed to it is
/// written at once, after the tokens before it (move numbers, comments,
/// NAGs, variations), by the same walk, token after token, as
/// [`Writer::write_game`](super::Writer::write_game); [`LiveMovetext::finish`]
/// writes the tokens after the last move. What it writes is what
/// `write_game` writes of the same moves kept in a [`Moves`](super::Moves).
///
/// What it cannot write so (a move with a UCI form or a note, a null move,
/// which is placed from the moves around it) makes it give way:
/// [`LiveMovetext::finish`] then takes back all it wrote of the game, and
/// the caller writes the game with the moves kept.
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{MoveSink, Moves, Writer};
/// use pgnkit_pgn::{Game, Reader};
///
/// let pgn = b"[White \"Tal\"]\n\n1. e4 {best} e5 2. Nf3 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let text = GameText::new(pgn, game.span.clone());
/// // Tokens: `1.` 0, `e4` 1, `{best}` 2, `e5` 3, `2.` 4, `Nf3` 5.
/// let moves = [(1, 1, true, "e2-e4"), (3, 1, false, "e7-e5"), (5, 2, true, "Ng1-f3")];
/// let mut out = Vec::new();
/// let mut writer = Writer::new();
/// let mut live = writer.live(&mut out, pgn, &game, &text, true);
/// for (token, number, white, written) in moves {
///     live.buffers().text.push_str(written);
///     live.push(token, number, white);
/// }
/// assert!(live.finish());
///
/// let mut kept = Moves::new(true);
/// for (token, number, white, written) in moves {
///     kept.push_with(token, number, white, |t, _| t.push_str(written));
/// }
/// let mut whole = Vec::new();
/// Writer::new().write_game(&mut whole, pgn, &game, &text, &kept);
/// assert_eq!(out, whole);
/// assert_eq!(String::from_utf8(out)?, "[White \"Tal\"]\n\n1. e2-e4 {best} 1... e7-e5 2. Ng1-f3 *\n\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LiveMovetext<'w, 'g> {
    /// The walk over the game's tokens, at the first token not written.
    walk: Walk<'w, 'g>,
    /// Where the game starts in the output (before its tags).
    game_start: usize,
    /// Where its movetext starts.
    movetext_start: usize,
    /// Every written form is ASCII.
    ascii: bool,
    /// The buffers of the move being written (the first lent by the
    /// [`Writer`](super::Writer), whose memory serves game after game).
    text: &'w mut String,
    uci: String,
    note: String,
    /// A move could not be written: the game is written otherwise.
    gave_way: bool,
}

impl<'w, 'g> LiveMovetext<'w, 'g> {
    /// The movetext of a game whose tags the writer wrote from byte
    /// `game_start` of the output to `movetext_start`, written by `walk`
    /// (at the first token).
    pub(super) fn new(
        walk: Walk<'w, 'g>,
        text: &'w mut String,
        game_start: usize,
        movetext_start: usize,
        ascii: bool,
    ) -> LiveMovetext<'w, 'g> {
        LiveMovetext {
            walk,
            game_start,
            movetext_start,
            ascii,
            text,
            uci: String::new(),
            note: String::new(),
            gave_way: false,
        }
    }

    /// Writes the tokens before token `end` that the walk is not past yet;
    /// none of them is a replayed move. False where one is a null move.
    #[inline(always)]
    fn write_until(&mut self, end: usize) -> bool {
        while self.walk.i < end {
            let tokens = &self.walk.game.tokens;
            // A move number is written with its move (the common token
            // between two moves, passed at once).
            if let Some(Common::Number) = tokens.number_or_word(self.walk.i) {
                self.walk.i += 1;
                continue;
            }
            let Some(t) = tokens.get(self.walk.i) else {
                break;
            };
            if self.walk.step(t, None, None, usize::MAX).is_err() {
                return false;
            }
        }
        true
    }

    /// Brings the walk to the move of token `token` (the other tokens
    /// before it written): whether the move is to be written there. Not
    /// when the walk is past it (in a line kept verbatim after a word that
    /// is no move), nor when it gives way.
    #[inline(never)]
    fn reach(&mut self, token: usize) -> bool {
        if !self.uci.is_empty() || !self.note.is_empty() {
            // Kept only with the moves (JSON, `--fen-comments`).
            self.uci.clear();
            self.note.clear();
            self.gave_way = true;
        }
        if self.gave_way || !self.write_until(token) {
            self.gave_way = true;
            return false;
        }
        self.walk.i == token
    }

    /// Writes the tokens after the last move and ends the game (its
    /// result, an empty line): true. False when it gave way: all it wrote
    /// of the game, tags included, is taken back, for the caller to write
    /// the game otherwise.
    pub fn finish(mut self) -> bool {
        if !self.gave_way && self.write_until(usize::MAX) {
            self.walk.finish(None);
            return true;
        }
        self.walk.mt.rewind(self.game_start);
        false
    }
}

impl MoveSink for LiveMovetext<'_, '_> {
    fn reset(&mut self) {
        self.walk.restart(self.movetext_start);
        self.gave_way = false;
    }

    /// Where the game starts places null moves only: it gives way at them.
    fn set_start(&mut self, _number: u32, _white: bool) {}

    #[inline(always)]
    fn buffers(&mut self) -> MoveBuffers<'_> {
        self.text.clear();
        MoveBuffers {
            text: self.text,
            uci: &mut self.uci,
            note: &mut self.note,
        }
    }

    fn push(&mut self, token: usize, number: u32, white: bool) {
        self.write_move(token, number, white, false);
    }

    #[inline(always)]
    fn push_plain(&mut self, token: usize, number: u32, white: bool) {
        self.write_move(token, number, white, true);
    }

    /// The move goes out from `ascii` as it is: no buffer, no padding to
    /// add, no width to count.
    #[inline(always)]
    fn push_plain_ascii(
        &mut self,
        token: usize,
        number: u32,
        white: bool,
        ascii: &[u8; 16],
        len: usize,
    ) {
        if !self.at_move(token) {
            return;
        }
        let found = Found {
            number,
            white,
            text: ascii.get(..len).unwrap_or_default(),
            width: len,
            padded: Some(ascii),
            note: None,
        };
        self.walk.write_found(&[], false, found);
        self.walk.i += 1;
    }
}

impl LiveMovetext<'_, '_> {
    /// Brings the walk to the move of token `token`, as
    /// [`LiveMovetext::reach`] does, the common case first: the walk is at
    /// the move, or at its number. Whether the move is to be written.
    #[inline(always)]
    fn at_move(&mut self, token: usize) -> bool {
        let tokens = &self.walk.game.tokens;
        if self.walk.i + 1 == token
            && matches!(tokens.number_or_word(self.walk.i), Some(Common::Number))
        {
            self.walk.i = token;
        }
        let ready =
            self.walk.i == token && !self.gave_way && self.uci.is_empty() && self.note.is_empty();
        ready || self.reach(token)
    }

    /// Writes the move just written into the buffers, that of token
    /// `token`, played at full-move `number` by White when `white`, after
    /// the tokens before it; `plain`: its word is plain SAN, with no glyph
    /// or draw offer attached ([`MoveSink::push_plain`]).
    #[inline(always)]
    fn write_move(&mut self, token: usize, number: u32, white: bool, plain: bool) {
        if !self.at_move(token) {
            return;
        }
        let (raw, marks) = if plain {
            (&[][..], false)
        } else {
            match self.walk.game.tokens.number_or_word(token) {
                Some(Common::Word(raw, Some(x))) => (raw, may_have_marks_in(x, raw.len())),
                Some(Common::Word(raw, None)) => (raw, may_have_marks(raw)),
                _ => return,
            }
        };
        let len = self.text.len();
        let width = if self.ascii {
            len
        } else {
            width(self.text.as_bytes())
        };
        // Padded to 16 bytes, for a copy of fixed size.
        self.text.push_str(PADDING);
        let bytes = self.text.as_bytes();
        let found = Found {
            number,
            white,
            text: bytes.get(..len).unwrap_or_default(),
            width,
            padded: bytes.first_chunk::<16>().filter(|_| len <= 16),
            note: None,
        };
        self.walk.write_found(raw, marks, found);
        self.walk.i += 1;
    }
}
