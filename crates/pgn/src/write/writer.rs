//! The [`Writer`]: a game in export format, its tags, then its movetext
//! walked once, token after token.

use std::ops::Range;

use super::live::LiveMovetext;
use super::moves::{Moves, Slot};
use super::movetext::Movetext;
use super::nulls::NullPlaces;
use super::numbering::{Dots, push_number, write_nag};
use super::tags::{TagSection, write_tags};
use super::verbatim::{VerbatimPiece, line_end, verbatim_pieces};
use super::words::{
    Word, attached_marks, classify_word, comment_text, draw_offer_at, is_null_word, may_have_marks,
    may_have_marks_in,
};
use super::{LINE_WIDTH, NULL_MOVE};
use crate::game::Common;
use crate::text::GameText;
use crate::{Game, GameResult, Token, TokenKind};

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

/// Writes games in the PGN export format (see the [module](super)).
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
    /// The written form of each move given to a [`LiveMovetext`], its
    /// memory kept from game to game.
    live_text: String,
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
    /// `only` (a line of [`SplitLines`](super::SplitLines)) when it is given.
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

    /// Writes the head of `game` (read from `input`, decoded by `source`)
    /// to `out` ([`Writer::write_game`]'s), and gives the
    /// [`LiveMovetext`] that writes its movetext as its moves are played
    /// (whose written forms are all ASCII when `ascii`).
    pub fn live<'w, 'g>(
        &'w mut self,
        out: &'w mut Vec<u8>,
        input: &'g [u8],
        game: &'g Game<'g>,
        source: &GameText<'g>,
        ascii: bool,
    ) -> LiveMovetext<'w, 'g> {
        let game_start = out.len();
        self.write_head(out, game, source);
        let movetext_start = out.len();
        let walk = Walk::new(out, &mut self.item, &self.layout, input, game, *source);
        self.live_text.clear();
        LiveMovetext::new(walk, &mut self.live_text, game_start, movetext_start, ascii)
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
    let mut walk = Walk::new(out, item, layout, input, game, *source);
    let mut cursor = 0usize;
    // Where in `only` the walk is.
    let mut part = 0usize;
    let numbers = layout.move_numbers;
    loop {
        // The end of the token range being written.
        let mut end = usize::MAX;
        if let Some(only) = only {
            let Some(range) = range_at(only, &mut part, walk.i) else {
                break;
            };
            if walk.i < range.start {
                // Past the tokens of other lines: find the move slot by
                // search, not by walking their moves.
                walk.i = range.start;
                cursor = moves.slot_at_or_after(walk.i);
            }
            end = range.end;
        }
        if only.is_none() && walk.note.is_none() {
            let limit = if DRAIN { DRAIN_AT } else { usize::MAX };
            walk.i = write_plain_run(
                &mut walk.mt,
                game,
                walk.i,
                &mut cursor,
                moves,
                numbers,
                &mut walk.need_number,
                limit,
            );
        }
        let Some(t) = game.tokens.get(walk.i) else {
            break;
        };
        if DRAIN && walk.mt.out.len() >= DRAIN_AT {
            drain(walk.mt.out)?;
        }
        let found = match t.kind {
            TokenKind::Word => moves
                .next_slot(walk.i, &mut cursor)
                .map(|slot| Found::of_slot(moves, slot)),
            _ => None,
        };
        // Every word is placed: the moves are all here.
        let _ = walk.step(t, Some(moves), found, end);
    }
    walk.finish(Some(moves));
    Ok(())
}

/// A replayed move as the walk writes it.
pub(super) struct Found<'m> {
    /// Its full-move number.
    pub(super) number: u32,
    /// Whether White played it.
    pub(super) white: bool,
    /// Its written form.
    pub(super) text: &'m [u8],
    /// The width of `text` in characters.
    pub(super) width: usize,
    /// The 16 bytes from the start of `text`, when there are as many (a
    /// copy of fixed size).
    pub(super) padded: Option<&'m [u8; 16]>,
    /// Its slot in the [`Moves`], when it has a note.
    pub(super) note: Option<Slot>,
}

impl Found<'_> {
    /// The move of `slot` in `moves`.
    #[inline(always)]
    fn of_slot(moves: &Moves, slot: Slot) -> Found<'_> {
        let (text, width, padded) = moves.written_bytes(&slot);
        Found {
            number: slot.number(),
            white: slot.white(),
            text,
            width,
            padded,
            note: (slot.note_len > 0).then_some(slot),
        }
    }
}

/// A null move met where the walk has no [`Moves`] to place it from
/// ([`Walk::step`] without them): the game is written by the walk with them.
#[derive(Debug)]
pub(super) struct Unplaced;

/// A walk over a game's movetext, token after token, and what it keeps
/// between tokens (the line's depth, whether the next move needs its
/// number, the note to write): the one place where the rules of the
/// movetext are applied. [`write_movetext`] walks a game whose moves are
/// all in [`Moves`]; [`LiveMovetext`](super::LiveMovetext) walks it as
/// the moves are played, each handed to it in turn.
pub(super) struct Walk<'w, 'g> {
    /// Where the movetext goes.
    pub(super) mt: Movetext<'w>,
    /// A buffer for one item (a NAG, a null move).
    item: &'w mut Vec<u8>,
    layout: &'w Layout,
    input: &'g [u8],
    pub(super) game: &'g Game<'g>,
    source: GameText<'g>,
    /// Where the tag section starts (escapes before it are the head's).
    first_tag: usize,
    /// The variation depth of the token.
    depth: usize,
    /// The next move is numbered even when Black's.
    pub(super) need_number: bool,
    /// The next token to write.
    pub(super) i: usize,
    /// The note of the last move, written after its NAGs and comments.
    note: Option<Slot>,
    /// Computed at the first null move, for the whole game.
    nulls: Option<NullPlaces>,
}

impl<'w, 'g> Walk<'w, 'g> {
    /// A walk of `game` (read from `input`, decoded by `source`) from its
    /// first token, writing to `out` what `layout` keeps.
    pub(super) fn new(
        out: &'w mut Vec<u8>,
        item: &'w mut Vec<u8>,
        layout: &'w Layout,
        input: &'g [u8],
        game: &'g Game<'g>,
        source: GameText<'g>,
    ) -> Walk<'w, 'g> {
        Walk {
            mt: Movetext::with_width(out, layout.width),
            item,
            layout,
            input,
            game,
            source,
            first_tag: game.tags.first().map_or(usize::MAX, |t| t.span.start),
            depth: 0,
            need_number: true,
            i: 0,
            note: None,
            nulls: None,
        }
    }

    /// Starts the walk again from the first token, the movetext written
    /// so far (from byte `start` of the output, the start of a line) taken
    /// back.
    pub(super) fn restart(&mut self, start: usize) {
        self.mt.rewind(start);
        self.depth = 0;
        self.need_number = true;
        self.i = 0;
        self.note = None;
        self.nulls = None;
    }

    /// Writes `found`, the replayed move of the word `raw` (the token the
    /// walk is at, not yet passed), which may carry a glyph or a draw offer
    /// when `marks` ([`may_have_marks`]).
    #[inline(always)]
    pub(super) fn write_found(&mut self, raw: &[u8], marks: bool, found: Found<'_>) {
        let dots = Dots::before(self.layout.move_numbers, found.white, self.need_number);
        self.mt
            .written_move(found.number, dots, found.text, found.width, found.padded);
        self.need_number = false;
        if marks {
            self.need_number |=
                write_attached_marks(&mut self.mt, self.item, self.layout, raw, &self.source);
        }
        self.note = found.note;
    }

    /// Writes the token `t` the walk is at and passes it (and those it
    /// stands for: a draw offer's, a line left verbatim up to `end` at
    /// most, a variation left out), `found` being its move when it is a
    /// replayed word; `moves`, when given, holds every move of the game.
    /// Without them, a null move cannot be placed: [`Unplaced`], and the
    /// walk stays at it.
    pub(super) fn step(
        &mut self,
        t: Token<'_>,
        moves: Option<&Moves>,
        found: Option<Found<'_>>,
        end: usize,
    ) -> Result<(), Unplaced> {
        let i = self.i;
        let (game, source, layout) = (self.game, self.source, self.layout);
        let mt = &mut self.mt;
        // The note goes after the move's NAGs and comments.
        let keeps_note = matches!(t.kind, TokenKind::Nag(_) | TokenKind::Comment)
            || (t.kind == TokenKind::Word
                && self.note.is_some()
                && matches!(
                    classify_word(&source.decode(t.text)),
                    Word::Nag(_) | Word::Mark
                ));
        if !keeps_note && let Some(slot) = self.note.take() {
            if let Some(moves) = moves {
                mt.comment_any(moves.note(&slot).as_bytes());
            }
            self.need_number = true;
        }
        let item = &mut *self.item;
        match t.kind {
            TokenKind::Word => {
                if let Some(found) = found {
                    self.write_found(t.text, may_have_marks(t.text), found);
                } else {
                    let text = source.decode(t.text);
                    if is_null_word(&text) {
                        if self.nulls.is_none() {
                            let moves = moves.ok_or(Unplaced)?;
                            self.nulls = Some(NullPlaces::new(game, &source, moves));
                        }
                        if let Some((number, white)) = self.nulls.as_ref().and_then(|n| n.get(i)) {
                            write_null_move(
                                mt,
                                item,
                                layout.move_numbers && (white || self.need_number),
                                number,
                                white,
                            );
                            self.need_number = false;
                            self.i = i + 1;
                            return Ok(());
                        }
                    }
                    match classify_word(&text) {
                        Word::Nag(n) => self.need_number |= write_kept_nag(mt, item, layout, n),
                        Word::DrawOffer => self.need_number |= write_draw_offer(mt, layout),
                        Word::Mark => {}
                        Word::Dead => {
                            let end = line_end(game, i, self.depth).min(end);
                            write_verbatim(mt, self.input, game, &source, moves, layout, i..end);
                            self.need_number = true;
                            self.i = end;
                            return Ok(());
                        }
                    }
                }
            }
            TokenKind::MoveNumber { .. } => {}
            TokenKind::Nag(n) => self.need_number |= write_kept_nag(mt, item, layout, n),
            TokenKind::Comment => {
                if layout.comments
                    && let Some(text) = comment(moves, &t, &source)
                {
                    mt.comment_any(text.as_bytes());
                    self.need_number = true;
                }
            }
            TokenKind::Escape => {
                if t.span.start > self.first_tag {
                    mt.escape(source.decode(t.text).as_bytes());
                }
            }
            TokenKind::OpenVariation if draw_offer_at(game, i) => {
                self.need_number |= write_draw_offer(mt, layout);
                self.i = i + 3;
                return Ok(());
            }
            TokenKind::OpenVariation if !layout.variations => {
                // The variation, and those inside it, left out.
                self.i = line_end(game, i + 1, self.depth + 1).saturating_add(1);
                return Ok(());
            }
            TokenKind::OpenVariation => {
                self.depth += 1;
                mt.item(b"(");
                self.need_number = true;
            }
            TokenKind::CloseVariation => {
                if self.depth > 0 {
                    self.depth -= 1;
                    mt.item(b")");
                    self.need_number = true;
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
                    comment_without_braces(mt, &source.decode(t.text));
                    self.need_number = true;
                }
            }
        }
        self.i = i + 1;
        Ok(())
    }

    /// Ends the movetext after its last token: the last note, the
    /// variations left open closed, the termination marker, an empty line.
    pub(super) fn finish(mut self, moves: Option<&Moves>) {
        if let (Some(slot), Some(moves)) = (self.note.take(), moves) {
            self.mt.comment_any(moves.note(&slot).as_bytes());
        }
        for _ in 0..self.depth {
            self.mt.item(b")");
        }
        if self.layout.result {
            self.mt
                .item(result_marker(self.game, &self.source).as_bytes());
        }
        let out = self.mt.finish();
        out.push(b'\n');
    }
}

/// The text of the comment `t` as written: as `moves` edited it, else as
/// read.
fn comment<'t>(
    moves: Option<&'t Moves>,
    t: &Token<'t>,
    source: &GameText<'t>,
) -> Option<std::borrow::Cow<'t, str>> {
    match moves {
        Some(moves) => moves.comment(t, source),
        None => Some(comment_text(t, source)),
    }
}

/// Writes the tokens from `i` on while they are move numbers and moves
/// written as they are (no glyph or draw offer attached, no note after
/// them), as [`write_movetext`]'s loop would, without its work per token:
/// most tokens of most games. Stops at any other token, or once `out`
/// holds `limit` bytes; returns the index of the first token not written.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn write_plain_run(
    mt: &mut Movetext<'_>,
    game: &Game<'_>,
    mut i: usize,
    cursor: &mut usize,
    moves: &Moves,
    numbers: bool,
    need_number: &mut bool,
    limit: usize,
) -> usize {
    while mt.out.len() < limit {
        match game.tokens.number_or_word(i) {
            // A move number is written with its move, as the move needs it.
            Some(Common::Number) => {}
            Some(Common::Word(word, first8)) => {
                let marks = match first8 {
                    Some(x) => may_have_marks_in(x, word.len()),
                    None => may_have_marks(word),
                };
                if marks {
                    break;
                }
                let Some(slot) = moves.next_slot(i, cursor) else {
                    break;
                };
                if slot.note_len > 0 {
                    break;
                }
                let dots = Dots::before(numbers, slot.white(), *need_number);
                let (text, width, padded) = moves.written_bytes(&slot);
                mt.written_move(slot.number(), dots, text, width, padded);
                *need_number = false;
                // The slot is written: the next move's is after it.
                *cursor += 1;
            }
            None => break,
        }
        i += 1;
    }
    i
}

/// The range of `only` (sorted, apart) that token `i` is in or comes
/// before, from the `part`-th on (moved on to it); `None` past the last.
#[inline]
fn range_at<'r>(only: &'r [Range<usize>], part: &mut usize, i: usize) -> Option<&'r Range<usize>> {
    while only.get(*part).is_some_and(|r| r.end <= i) {
        *part += 1;
    }
    only.get(*part)
}

/// Writes the glyph and the draw offer attached to a move token (`e4!?`,
/// `Qd2(=)`, `raw` as read) as the NAG and the comment `{(=)}`, those
/// `layout` keeps; whether one was written (a Black move after it is
/// numbered).
fn write_attached_marks(
    mt: &mut Movetext<'_>,
    item: &mut Vec<u8>,
    layout: &Layout,
    raw: &[u8],
    source: &GameText<'_>,
) -> bool {
    let (nag, draw) = attached_marks(raw, &source.decode(raw));
    let mut wrote = false;
    if let Some(n) = nag {
        wrote |= write_kept_nag(mt, item, layout, n);
    }
    if draw {
        wrote |= write_draw_offer(mt, layout);
    }
    wrote
}

/// Writes the NAG `n` when `layout` keeps NAGs; whether it did.
#[inline]
fn write_kept_nag(mt: &mut Movetext<'_>, item: &mut Vec<u8>, layout: &Layout, n: u8) -> bool {
    if layout.nags {
        write_nag(mt, item, n);
    }
    layout.nags
}

/// Writes a draw offer, the comment `{(=)}`, when `layout` keeps comments;
/// whether it did.
#[inline]
fn write_draw_offer(mt: &mut Movetext<'_>, layout: &Layout) -> bool {
    if layout.comments {
        mt.comment_any(b"(=)");
    }
    layout.comments
}

/// Writes a null move, `--`, at its place (`number`, White's when `white`),
/// after its move number when `numbered`.
fn write_null_move(
    mt: &mut Movetext<'_>,
    item: &mut Vec<u8>,
    numbered: bool,
    number: u32,
    white: bool,
) {
    item.clear();
    if !numbered {
    } else if white {
        push_number(item, number, b". ");
    } else {
        push_number(item, number, b"... ");
    }
    item.extend_from_slice(NULL_MOVE.as_bytes());
    mt.item(item);
}

/// Writes the tokens `tokens` of a line that is not converted verbatim,
/// in comments: its text, and its own comments (those `layout` keeps).
fn write_verbatim(
    mt: &mut Movetext<'_>,
    input: &[u8],
    game: &Game<'_>,
    source: &GameText<'_>,
    moves: Option<&Moves>,
    layout: &Layout,
    tokens: Range<usize>,
) {
    verbatim_pieces(input, game, tokens.start, tokens.end, |p| match p {
        VerbatimPiece::Text(raw) => comment_without_braces(mt, &source.decode(raw)),
        VerbatimPiece::Comment(c) => {
            if layout.comments
                && let Some(text) = comment(moves, &c, source)
            {
                mt.comment_any(text.as_bytes());
            }
        }
    });
}

/// Writes `text` as a comment, its `}` dropped.
fn comment_without_braces(mt: &mut Movetext<'_>, text: &str) {
    let clean: String = text.chars().filter(|&c| c != '}').collect();
    mt.comment_any(clean.as_bytes());
}

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
