//! The [`Writer`]: a game in export format, its tags, then its movetext
//! walked once, token after token.

use std::ops::Range;

use super::moves::{Moves, Slot};
use super::movetext::Movetext;
use super::nulls::NullPlaces;
use super::numbering::{Dots, push_number, write_nag};
use super::tags::{TagSection, write_tags};
use super::verbatim::{VerbatimPiece, line_end, verbatim_pieces};
use super::words::{
    Word, attached_marks, classify_word, draw_offer_at, is_null_word, may_have_marks,
    may_have_marks_in,
};
use super::{LINE_WIDTH, NULL_MOVE};
use crate::game::Common;
use crate::text::GameText;
use crate::{Game, GameResult, TokenKind};

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
            let Some(range) = range_at(only, &mut part, i) else {
                break;
            };
            if i < range.start {
                // Past the tokens of other lines: find the move slot by
                // search, not by walking their moves.
                i = range.start;
                cursor = moves.slot_at_or_after(i);
            }
            end = range.end;
        }
        if only.is_none() && note.is_none() {
            let limit = if DRAIN { DRAIN_AT } else { usize::MAX };
            i = write_plain_run(
                &mut mt,
                game,
                i,
                &mut cursor,
                moves,
                numbers,
                &mut need_number,
                limit,
            );
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
                    let dots = Dots::before(numbers, slot.white(), need_number);
                    let (text, width, padded) = moves.written_bytes(&slot);
                    mt.written_move(slot.number(), dots, text, width, padded);
                    need_number = false;
                    if may_have_marks(t.text) {
                        need_number |= write_attached_marks(&mut mt, item, layout, t.text, source);
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
                        write_null_move(
                            &mut mt,
                            item,
                            numbers && (white || need_number),
                            number,
                            white,
                        );
                        need_number = false;
                        i += 1;
                        continue;
                    }
                    match classify_word(&text) {
                        Word::Nag(n) => need_number |= write_kept_nag(&mut mt, item, layout, n),
                        Word::DrawOffer => need_number |= write_draw_offer(&mut mt, layout),
                        Word::Mark => {}
                        Word::Dead => {
                            let end = line_end(game, i, depth).min(end);
                            write_verbatim(&mut mt, input, game, source, moves, layout, i..end);
                            need_number = true;
                            i = end;
                            continue;
                        }
                    }
                }
            }
            TokenKind::MoveNumber { .. } => {}
            TokenKind::Nag(n) => need_number |= write_kept_nag(&mut mt, item, layout, n),
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
                need_number |= write_draw_offer(&mut mt, layout);
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
                    comment_without_braces(&mut mt, &source.decode(t.text));
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
    moves: &Moves,
    layout: &Layout,
    tokens: Range<usize>,
) {
    verbatim_pieces(input, game, tokens.start, tokens.end, |p| match p {
        VerbatimPiece::Text(raw) => comment_without_braces(mt, &source.decode(raw)),
        VerbatimPiece::Comment(c) => {
            if layout.comments
                && let Some(text) = moves.comment(&c, source)
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
