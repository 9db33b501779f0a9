//! The game reader: splits bytes into games, and each game into tags and movetext tokens.

use std::ops::Range;

use crate::boundary::{BOM, is_hard_boundary};
use crate::game::{
    Game, MAX_ERRORS, MAX_VARIATION_DEPTH, SyntaxError, SyntaxErrorKind, Tag, TokenKind,
};
use crate::movetext::{CLASS, DELIM, Lexeme, SPACE, STAR, WORD, classify, is_ellipsis};
use crate::scan::{ONES, bytes_below, bytes_equal};
use crate::tag::{TagParse, looks_like_tag, parse_tag};

/// Reads games one by one from a byte slice (a whole file, an mmap, or a chunk of one).
///
/// The reader never recurses, never allocates per game once the [`Game`] buffers have grown, and runs in
/// time linear in the input whatever the input is.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    start: usize,
    end: usize,
    /// Offsets of the `(` of the variations open in the current game: the outermost
    /// [`MAX_ERRORS`] only (the ones reported if they are never closed).
    open: Vec<usize>,
    /// How many variations are open in the current game.
    depth: u64,
}

impl<'a> Reader<'a> {
    /// A reader over the whole of `input`. A UTF-8 byte order mark at offset 0 is skipped.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_range(input, 0..input.len())
    }

    /// A reader over `input[range]` only, with spans still absolute in `input`: the way to lex one piece
    /// of a file cut with [`crate::split_at_games`] or [`crate::game_starts_near`]. The range is clamped to
    /// the input. A byte order mark is skipped only when the range starts at 0.
    pub fn with_range(input: &'a [u8], range: Range<usize>) -> Reader<'a> {
        let end = range.end.min(input.len());
        let start = range.start.min(end);
        let mut pos = start;
        if start == 0 && input[..end].starts_with(BOM) {
            pos = BOM.len();
        }
        Reader {
            input,
            pos,
            start,
            end,
            open: Vec::new(),
            depth: 0,
        }
    }

    /// Byte offset where the search for the next game starts.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The input the reader was made with (spans index into it).
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Whether `pos` is at the start of a line, blanks (spaces, tabs) allowed before it.
    fn at_line_start(&self, pos: usize) -> bool {
        let mut i = pos;
        if i >= self.start + BOM.len() && &self.input[i - BOM.len()..i] == BOM {
            i -= BOM.len();
        }
        while i > self.start {
            match self.input[i - 1] {
                b' ' | b'\t' => i -= 1,
                b'\n' | b'\r' => return true,
                _ => return false,
            }
        }
        true
    }

    /// Whether `pos` is the first byte of a line.
    fn at_column_0(&self, pos: usize) -> bool {
        pos == self.start || matches!(self.input[pos - 1], b'\n' | b'\r')
    }

    /// Lexes the next game into `game` (cleared first, buffers reused). Returns false at the end of the
    /// input (only whitespace or nothing left), with `game` empty.
    ///
    /// Every non-whitespace byte of the input ends up in exactly one game: as a tag, a token, or inside
    /// a syntax error's span.
    pub fn read_game(&mut self, game: &mut Game<'a>) -> bool {
        game.clear();
        game.tokens.reset(self.input);
        self.open.clear();
        self.depth = 0;
        // The end of the last syntax error, kept or only counted.
        let mut errors_end = 0usize;
        let input = self.input;
        let end = self.end;
        let buf = &input[..end];
        let mut pos = self.pos;
        let mut seen_movetext = false;
        // Set once the result at depth 0 is read.
        let mut ended = false;

        'game: loop {
            pos = skip_space(buf, pos);
            let Some(&b) = buf.get(pos) else {
                break;
            };
            if b == BOM[0] && buf[pos..].starts_with(BOM) {
                // A byte order mark between tokens (files concatenated with `cat`): whitespace.
                pos += BOM.len();
                continue;
            }
            if ended {
                // After the result, only comments and escape lines that follow without an empty line.
                let comment = b == b'{' || b == b';' || (b == b'%' && self.at_column_0(pos));
                if !comment || blank_line_in(&buf[last_end(game).max(errors_end)..pos]) {
                    break;
                }
            }
            if !ended && PLAIN_WORD_START[usize::from(b)] {
                // The common case: a move or a glyph, nothing to classify.
                seen_movetext = true;
                pos = self.plain_word(game, pos);
                continue;
            }
            if !ended
                && b.is_ascii_digit()
                && let Some(next) = self.plain_number(game, pos, seen_movetext)
            {
                // The move after it, at once.
                seen_movetext = true;
                pos = self.plain_word(game, next);
                continue;
            }
            if CLASS[usize::from(b)] == DELIM {
                match b {
                    b'{' => match self.brace_comment(game, pos, &mut errors_end) {
                        Ok(next) => pos = next,
                        Err(stop) => {
                            pos = stop;
                            break 'game;
                        }
                    },
                    b'[' => match self.tag(game, pos, seen_movetext, &mut errors_end) {
                        Some(next) => pos = next,
                        None => break 'game,
                    },
                    b';' => {
                        let eol = memchr::memchr2(b'\n', b'\r', &input[pos..end])
                            .map_or(end, |j| pos + j);
                        self.push_token(game, TokenKind::Comment, pos + 1..eol, pos..eol);
                        pos = eol;
                    }
                    b'(' => {
                        seen_movetext = true;
                        if input[pos + 1..end].starts_with(b"=)") {
                            self.push_token(game, TokenKind::Word, pos..pos + 3, pos..pos + 3);
                            pos += 3;
                        } else {
                            if self.open.len() < MAX_ERRORS {
                                self.open.push(pos);
                            }
                            self.depth += 1;
                            self.push_token(
                                game,
                                TokenKind::OpenVariation,
                                pos..pos + 1,
                                pos..pos + 1,
                            );
                            pos += 1;
                        }
                    }
                    b')' => {
                        seen_movetext = true;
                        if self.depth > 0 {
                            if self.depth <= MAX_ERRORS as u64 {
                                self.open.pop();
                            }
                            self.push_token(
                                game,
                                TokenKind::CloseVariation,
                                pos..pos + 1,
                                pos..pos + 1,
                            );
                            self.depth -= 1;
                        } else {
                            push_error(
                                game,
                                &mut errors_end,
                                SyntaxErrorKind::UnmatchedCloseVariation,
                                pos..pos + 1,
                            );
                        }
                        pos += 1;
                    }
                    b'$' => {
                        seen_movetext = true;
                        let mut q = pos + 1;
                        let mut n: u32 = 0;
                        while q < end && input[q].is_ascii_digit() {
                            n = (n * 10 + u32::from(input[q] - b'0')).min(1000);
                            q += 1;
                        }
                        match u8::try_from(n) {
                            Ok(nag) if q > pos + 1 => {
                                self.push_token(game, TokenKind::Nag(nag), pos..q, pos..q);
                            }
                            _ => push_error(game, &mut errors_end, SyntaxErrorKind::BadNag, pos..q),
                        }
                        pos = q;
                    }
                    // `}`, `]`, `"`: nothing starts with them.
                    _ => {
                        push_error(
                            game,
                            &mut errors_end,
                            SyntaxErrorKind::StrayCharacter,
                            pos..pos + 1,
                        );
                        pos += 1;
                    }
                }
                continue;
            }
            if b == b'%' && self.at_column_0(pos) {
                let eol = memchr::memchr2(b'\n', b'\r', &input[pos..end]).map_or(end, |j| pos + j);
                self.push_token(game, TokenKind::Escape, pos + 1..eol, pos..eol);
                pos = eol;
                continue;
            }
            match self.word(game, pos, seen_movetext, errors_end) {
                AfterWord::Next(next) => {
                    seen_movetext = true;
                    pos = next;
                }
                AfterWord::Result(next) => {
                    pos = next;
                    ended = true;
                }
                AfterWord::NewGame => break 'game,
            }
        }
        self.end_game(game, pos, errors_end)
    }

    /// Adds a token to `game`. Inside a variation nested deeper than [`MAX_VARIATION_DEPTH`], every
    /// token joins one `DeepVariation` token.
    #[inline(always)]
    fn push_token(
        &self,
        game: &mut Game<'a>,
        kind: TokenKind,
        text: Range<usize>,
        span: Range<usize>,
    ) {
        if self.depth > MAX_VARIATION_DEPTH {
            game.tokens.extend_deep(span.start, span.end);
        } else {
            game.tokens.push(kind, text, span);
        }
    }

    /// Lexes the brace comment whose `{` is at `pos`: where the lexer goes on, or `Err` with where the
    /// game ends when the comment is not closed (at the end of the input, or at a line that starts a
    /// new game: an error, the comment kept up to there).
    #[inline]
    fn brace_comment(
        &self,
        game: &mut Game<'a>,
        pos: usize,
        errors_end: &mut usize,
    ) -> Result<usize, usize> {
        let (input, end) = (self.input, self.end);
        let body = pos + 1;
        let mut q = body;
        let mut stop = end;
        let mut hard = false;
        while let Some(j) = memchr::memchr2(b'}', b'[', &input[q..end]) {
            let k = q + j;
            if input[k] == b'}' {
                stop = k;
                break;
            }
            if is_hard_boundary(input, k) {
                stop = k;
                hard = true;
                break;
            }
            q = k + 1;
        }
        if stop < end && !hard {
            self.push_token(game, TokenKind::Comment, body..stop, pos..stop + 1);
            Ok(stop + 1)
        } else {
            let mut trimmed = stop;
            while trimmed > body && input[trimmed - 1].is_ascii_whitespace() {
                trimmed -= 1;
            }
            self.push_token(game, TokenKind::Comment, body..trimmed, pos..trimmed);
            *errors_end = (*errors_end).max(trimmed);
            game.errors.push(SyntaxError {
                kind: SyntaxErrorKind::UnterminatedComment,
                span: pos..trimmed,
            });
            Err(stop)
        }
    }

    /// Lexes the `[` at `pos`: a tag of the tag section (or a bad one), or, after movetext, a stray
    /// character; where the lexer goes on, or `None` when a new game starts there.
    #[inline]
    fn tag(
        &self,
        game: &mut Game<'a>,
        pos: usize,
        seen_movetext: bool,
        errors_end: &mut usize,
    ) -> Option<usize> {
        let (input, end) = (self.input, self.end);
        if !game.is_empty() && is_hard_boundary(input, pos) {
            return None;
        }
        if seen_movetext {
            if self.at_line_start(pos) || looks_like_tag(input, pos, end) {
                return None;
            }
            push_error(
                game,
                errors_end,
                SyntaxErrorKind::StrayCharacter,
                pos..pos + 1,
            );
            return Some(pos + 1);
        }
        Some(match parse_tag(input, pos, end) {
            TagParse::Tag {
                name,
                value,
                end: e,
            } => {
                game.tags.push(Tag {
                    name: &input[name],
                    raw_value: &input[value],
                    span: pos..e,
                });
                e
            }
            TagParse::Bad { end: e } => {
                push_error(game, errors_end, SyntaxErrorKind::BadTag, pos..e);
                e
            }
            TagParse::Unterminated { end: e } => {
                push_error(game, errors_end, SyntaxErrorKind::UnterminatedTag, pos..e);
                e
            }
        })
    }

    /// Lexes the word at `pos`, which starts with a byte of
    /// [`PLAIN_WORD_START`] (a move or a glyph, nothing to classify);
    /// gives where the lexer goes on.
    #[inline(always)]
    fn plain_word(&self, game: &mut Game<'a>, pos: usize) -> usize {
        let buf = &self.input[..self.end];
        let we = descriptive_end(buf, pos, word_end(buf, pos + 1));
        self.push_token(game, TokenKind::Word, pos..we, pos..we);
        we
    }

    /// Lexes the common move number at `ws`, White's `12.` before a move:
    /// one to three digits, a dot, then a letter, after a space (`12. Nf3`)
    /// or glued to the dot (`12.Nf3`): no Black's dots to merge into it.
    /// As [`Reader::word`] would; gives where the move starts, `None` for
    /// any other word (and for a `1.` that may start a game without
    /// tags).
    #[inline(always)]
    fn plain_number(&self, game: &mut Game<'a>, ws: usize, seen_movetext: bool) -> Option<usize> {
        let bytes = self.input[..self.end].get(ws..)?.first_chunk::<6>()?;
        let mut number = 0u32;
        let mut i = 0;
        while i < 3 && bytes[i].is_ascii_digit() {
            number = number * 10 + u32::from(bytes[i] - b'0');
            i += 1;
        }
        // The move's first byte, after a space or glued to the dot.
        let next = if bytes[i + 1] == b' ' { i + 2 } else { i + 1 };
        if bytes[i] != b'.' || !bytes[next].is_ascii_alphabetic() || (number == 1 && seen_movetext)
        {
            return None;
        }
        let kind = TokenKind::MoveNumber {
            number,
            black: false,
        };
        self.push_token(game, kind, ws..ws + i + 1, ws..ws + i + 1);
        Some(ws + next)
    }

    /// Lexes the word at `ws` that is not a plain move: a move number (with Black's dots after a
    /// space: `12 ...`), a result, or another word.
    #[inline(always)]
    fn word(
        &self,
        game: &mut Game<'a>,
        ws: usize,
        seen_movetext: bool,
        errors_end: usize,
    ) -> AfterWord {
        let buf = &self.input[..self.end];
        let we = descriptive_end(buf, ws, word_end(buf, ws + 1));
        let (len, kind) = match classify(&buf[ws..we]) {
            crate::movetext::Lexeme::Whole(kind) => (we - ws, kind),
            Lexeme::Number { len, number, black } => (len, TokenKind::MoveNumber { number, black }),
        };
        let mut te = ws + len;
        let mut kind = kind;
        match kind {
            TokenKind::Result(_) if self.depth == 0 => {
                self.push_token(game, kind, ws..te, ws..te);
                game.result_token = game.tokens.len().checked_sub(1);
                return AfterWord::Result(te);
            }
            TokenKind::MoveNumber { number, black } if !black => {
                let mut black = false;
                if te == we {
                    // `12 ...` / `12. …`: merge black's spaced dots into the number.
                    let q = skip_class(buf, we, SPACE);
                    if matches!(buf.get(q), Some(b'.' | 0xE2)) {
                        let r = skip_class(buf, q + 1, WORD);
                        if is_ellipsis(&buf[q..r]) {
                            te = r;
                            black = true;
                            kind = TokenKind::MoveNumber { number, black };
                        }
                    }
                }
                if number == 1
                    && !black
                    && seen_movetext
                    && self.depth == 0
                    && blank_line_in(&buf[last_end(game).max(errors_end)..ws])
                {
                    // A new game without tags.
                    return AfterWord::NewGame;
                }
            }
            _ => {}
        }
        self.push_token(game, kind, ws..te, ws..te);
        AfterWord::Next(te)
    }

    /// Ends the game read up to `pos`: the reader goes on there; the variations never closed are
    /// reported; the game's span is set. False when the game is empty (the end of the input).
    fn end_game(&mut self, game: &mut Game<'a>, pos: usize, errors_end: usize) -> bool {
        self.pos = pos;
        if game.is_empty() {
            return false;
        }
        let first = [
            game.tokens.first().map(|t| t.span.start),
            game.tags.first().map(|t| t.span.start),
            game.errors.first().map(|e| e.span.start),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(pos);
        let last = last_end(game).max(errors_end);
        if self.depth > 0 {
            // The variations never closed: the outermost ones are reported, the others counted.
            let kept = self.open.len();
            for &open in &self.open {
                if game.errors.len() < MAX_ERRORS {
                    game.errors.push(SyntaxError {
                        kind: SyntaxErrorKind::UnterminatedVariation,
                        span: open..open + 1,
                    });
                } else {
                    game.omitted_errors += 1;
                }
            }
            game.omitted_errors += self.depth - kept as u64;
            game.errors.sort_by_key(|e| e.span.start);
        }
        game.span = first..last;
        true
    }
}

/// Where the lexer goes after a word that is not a plain move.
enum AfterWord {
    /// On, at this position.
    Next(usize),
    /// On after the game's result, at this position: only comments may follow.
    Result(usize),
    /// The word starts a new game (a `1.` after an empty line): the game ends before it.
    NewGame,
}

/// Records a syntax error: the first [`MAX_ERRORS`] of a game kept, the others counted; `errors_end`
/// is the end of the last.
#[inline(always)]
fn push_error(
    game: &mut Game<'_>,
    errors_end: &mut usize,
    kind: SyntaxErrorKind,
    span: Range<usize>,
) {
    *errors_end = (*errors_end).max(span.end);
    if game.errors.len() < MAX_ERRORS {
        game.errors.push(SyntaxError { kind, span });
    } else {
        game.omitted_errors += 1;
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Game<'a>;

    /// Reads the next game into a fresh [`Game`] (allocates; prefer [`Reader::read_game`] in loops).
    fn next(&mut self) -> Option<Game<'a>> {
        let mut game = Game::default();
        self.read_game(&mut game).then_some(game)
    }
}

/// Bytes that start a word that is certainly a [`TokenKind::Word`]: word bytes other than digits,
/// `*`, `%` (an escape line at the start of a line) and 0xC2 (`½`).
static PLAIN_WORD_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = CLASS[b] == WORD && !(b as u8).is_ascii_digit() && b != b'%' as usize && b != 0xC2;
        b += 1;
    }
    t
};

/// The end of the last item (token, tag, error) of `game` so far, 0 if it has none. O(1): while a game
/// is read, items of each kind are pushed in input order.
fn last_end(game: &Game<'_>) -> usize {
    let token = game.tokens.last().map_or(0, |t| t.span.end);
    let tag = game.tags.last().map_or(0, |t| t.span.end);
    let error = game.errors.last().map_or(0, |e| e.span.end);
    token.max(tag).max(error)
}

/// The first offset at or after `i` whose byte is not of `class` (or `buf.len()`).
#[inline(always)]
fn skip_class(buf: &[u8], mut i: usize, class: u8) -> usize {
    while let Some(&b) = buf.get(i) {
        if CLASS[usize::from(b)] != class {
            break;
        }
        i += 1;
    }
    i
}

/// The first offset at or after `i` whose byte is no whitespace (or
/// `buf.len()`). Tokens are most often one space or line break apart: that
/// one is passed without a branch, so that the loop's test, whether more
/// follow, is rarely true (a test that is true one time in two, for the
/// first byte, is mispredicted as often).
#[inline(always)]
fn skip_space(buf: &[u8], mut i: usize) -> usize {
    if let Some(&b) = buf.get(i) {
        i += usize::from(CLASS[usize::from(b)] == SPACE);
    }
    skip_class(buf, i, SPACE)
}

/// The end of the word whose bytes continue at `i`: the first offset whose byte is not [`WORD`] (a `*`
/// ends the word only when no word byte follows it), or `buf.len()`.
#[inline(always)]
fn word_end(buf: &[u8], mut i: usize) -> usize {
    loop {
        let (p, c) = word_candidate(buf, i);
        let Some(c) = c else {
            return p;
        };
        if c == b' ' || c == b'\n' {
            return p;
        }
        match CLASS[usize::from(c)] {
            WORD => i = p + 1, // a control byte: part of the word
            STAR => {
                if buf
                    .get(p + 1)
                    .is_none_or(|&n| !matches!(CLASS[usize::from(n)], WORD | STAR))
                {
                    return p;
                }
                i = p + 1;
            }
            _ => return p,
        }
    }
}

/// The end of a book's `Castles` word `buf[ws..we]` with the side written
/// after it; `None` for any other word of seven letters. Out of line: the
/// lexer's loop stays as small as it was.
#[cold]
#[inline(never)]
fn castles_end(buf: &[u8], ws: usize, we: usize) -> Option<usize> {
    buf.get(ws..we)
        .is_some_and(pgnkit_notation::descriptive::is_castles)
        .then(|| pgnkit_notation::descriptive::castles_end(buf, we))
}

/// The end of the word `buf[ws..we]` with the parentheses attached to it
/// that belong to a descriptive move (`R(KB1)-K1`, `N(KB3)xP(K5)`,
/// `P-K8(Q)`: [`pgnkit_notation::descriptive::attached_parenthesis`]), and
/// a book's `Castles` with the side written after it (`Castles QR`:
/// [`pgnkit_notation::descriptive::castles_end`]); `we` for every other
/// word, whose `(` opens a variation.
#[inline(always)]
fn descriptive_end(buf: &[u8], ws: usize, we: usize) -> usize {
    if we - ws == 7
        && let Some(end) = castles_end(buf, ws, we)
    {
        return end;
    }
    if buf.get(we) != Some(&b'(') {
        return we;
    }
    pgnkit_notation::descriptive::attached_end(buf, ws, we, |i| word_end(buf, i))
}

/// The first offset at or after `i` that may end a word: whitespace, a delimiter, `*`, or a control byte
/// (or `buf.len()`), with its byte. Looks at 8 bytes at a time: words end at unpredictable places, a
/// branch per byte would be mispredicted at every word.
///
/// Three tests find a few bytes more than those, which the caller takes as part of the word: every
/// byte below `+` (whitespace, control bytes, `"`, `$`, `(`, `)`, `*`, and `!`, `#`, `%`, `&`, `'`);
/// every byte that is `0x7F` once bits `0x26` are set (`[`, `]`, `{`, `}`, and `Y`, `_`, `y`, DEL);
/// `;`. A SAN move holds none of the extra ones but a mate's `#` or a glyph's `!`.
#[inline(always)]
fn word_candidate(buf: &[u8], mut i: usize) -> (usize, Option<u8>) {
    while let Some(chunk) = buf.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        let candidates =
            bytes_below(x, b'+') | bytes_equal(x | (ONES * 0x26), 0x7F) | bytes_equal(x, b';');
        if candidates != 0 {
            let bit = candidates.trailing_zeros();
            // The byte is taken from the register, not loaded again.
            return (i + (bit / 8) as usize, Some((x >> (bit & !7)) as u8));
        }
        i += 8;
    }
    while let Some(&b) = buf.get(i) {
        if CLASS[usize::from(b)] != WORD || b < 0x21 {
            return (i, Some(b));
        }
        i += 1;
    }
    (i, None)
}

/// Whether whitespace `gap` contains an empty line (two line breaks, `\r\n` counting as one).
fn blank_line_in(gap: &[u8]) -> bool {
    let mut breaks = 0;
    let mut i = 0;
    while i < gap.len() {
        match gap[i] {
            b'\n' => breaks += 1,
            b'\r' => {
                breaks += 1;
                if gap.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            _ => {}
        }
        if breaks >= 2 {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word's end as the lexer's classes define it, a byte at a time:
    /// the reference for [`word_end`]'s eight-bytes-at-a-time search.
    fn word_end_bytewise(buf: &[u8], mut i: usize) -> usize {
        while let Some(&c) = buf.get(i) {
            match CLASS[usize::from(c)] {
                WORD => i += 1,
                STAR if buf
                    .get(i + 1)
                    .is_some_and(|&n| matches!(CLASS[usize::from(n)], WORD | STAR)) =>
                {
                    i += 1
                }
                _ => return i,
            }
        }
        buf.len()
    }

    #[test]
    fn word_end_agrees_with_the_classes_for_every_byte_at_every_place() {
        let mut tried = 0;
        for b in 0..=255u8 {
            for after in [b'a', b' ', b'*', b'{', 0x80] {
                for len in 0..20 {
                    // A word of `len` letters, the byte, another byte, then
                    // text long enough for whole chunks, or none.
                    for tail in [&b""[..], b"4 e5 {ok} 2. Nf3 *"] {
                        let mut buf = b"N".to_vec();
                        buf.extend(std::iter::repeat_n(b'f', len));
                        buf.push(b);
                        buf.push(after);
                        buf.extend_from_slice(tail);
                        assert_eq!(
                            word_end(&buf, 1),
                            word_end_bytewise(&buf, 1),
                            "{:?}",
                            String::from_utf8_lossy(&buf)
                        );
                        tried += 1;
                    }
                }
            }
        }
        assert_eq!(tried, 256 * 5 * 20 * 2);
    }
}
