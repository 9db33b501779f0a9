//! What one game is made of once lexed: tags, movetext tokens and syntax errors, each with its byte span.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// At most this many syntax errors are kept per game ([`Game::errors`]); the others are counted in
/// [`Game::omitted_errors`].
pub const MAX_ERRORS: usize = 100;

/// Variations nested deeper than this are read but not split into tokens: from its `(` to its matching
/// `)` (or the end of the game), a variation that would be one level deeper is one
/// [`TokenKind::DeepVariation`] token. A game of millions of unclosed `(` then costs memory for this many
/// tokens only; nothing read is lost (the token's span holds the bytes).
pub const MAX_VARIATION_DEPTH: u64 = 100_000;

/// One game as lexed from the input: its tag pairs, its movetext tokens and the broken structure found.
///
/// All slices borrow from the input given to [`crate::Reader`]; all spans are absolute byte offsets in it.
/// A `Game` is meant to be reused: [`crate::Reader::read_game`] clears it and keeps the buffers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game<'a> {
    /// Byte range of the game in the input: from the start of its first item (tag, token or error) to the
    /// end of its last one (normally the result).
    pub span: Range<usize>,
    /// Tag pairs in input order (duplicates kept).
    pub tags: Vec<Tag<'a>>,
    /// Movetext tokens in input order; variations are flattened with
    /// [`TokenKind::OpenVariation`] / [`TokenKind::CloseVariation`] tokens. Comments and escape lines found
    /// before the tag section belong to this list too.
    pub tokens: Tokens<'a>,
    /// Broken structure found while lexing this game, in input order: the first [`MAX_ERRORS`].
    pub errors: Vec<SyntaxError>,
    /// Broken structure found beyond the first [`MAX_ERRORS`], counted only (so that a game of a
    /// million stray `)` costs no memory per byte).
    pub omitted_errors: u64,
    /// Index in [`Game::tokens`] of the [`TokenKind::Result`] token at variation depth 0 that ended the
    /// game, or `None` when the game ended without one (new tag section, end of input, ...).
    /// A missing result is not a syntax error at this level.
    pub result_token: Option<usize>,
}

impl<'a> Game<'a> {
    /// Empties the game, keeping its buffers.
    pub fn clear(&mut self) {
        self.span = 0..0;
        self.tags.clear();
        self.tokens.clear();
        self.errors.clear();
        self.omitted_errors = 0;
        self.result_token = None;
    }

    /// Whether the game has no tag, no token and no error (as after [`Game::clear`]).
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.tokens.is_empty() && self.errors.is_empty()
    }

    /// The first tag named exactly `name` (case-sensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name == name.as_bytes())
    }

    /// The result that ended the game's movetext (the token at [`Game::result_token`]), if any.
    pub fn result(&self) -> Option<GameResult> {
        match self.tokens.kind(self.result_token?)? {
            TokenKind::Result(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the "game" is only comments and escape lines: no tag, no movetext, no error. Such runs
    /// happen between hard boundaries (a file preamble of `%` lines, a lone comment between games, kept
    /// so that nothing is lost); they are not games and should not be counted as games.
    pub fn is_comment_only(&self) -> bool {
        self.tags.is_empty() && self.errors.is_empty() && !self.has_movetext()
    }

    /// Whether the game has any movetext token other than comments and escape lines.
    pub fn has_movetext(&self) -> bool {
        self.tokens
            .iter()
            .any(|t| !matches!(t.kind, TokenKind::Comment | TokenKind::Escape))
    }
}

/// A move number or a word, as [`Tokens::number_or_word`] gives it.
pub(crate) enum Common<'a> {
    /// A move number.
    Number,
    /// A word, and, when it is at most eight bytes long and the input has
    /// eight from its start, those eight bytes (little-endian): its bytes
    /// and whatever follows them.
    Word(&'a [u8], Option<u64>),
}

/// A tag pair `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name, e.g. `Event`.
    pub name: &'a [u8],
    /// The bytes between the quotes, escapes (`\"`, `\\`) unresolved.
    pub raw_value: &'a [u8],
    /// From the `[` to the `]` inclusive.
    pub span: Range<usize>,
}

impl Tag<'_> {
    /// The value with the escapes `\"` and `\\` resolved (any other backslash is kept as it is).
    /// Borrows when there is nothing to resolve.
    pub fn value(&self) -> Cow<'_, [u8]> {
        let raw = self.raw_value;
        if !raw.contains(&b'\\') {
            return Cow::Borrowed(raw);
        }
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            let b = raw[i];
            if b == b'\\'
                && let Some(&next @ (b'"' | b'\\')) = raw.get(i + 1)
            {
                out.push(next);
                i += 2;
                continue;
            }
            out.push(b);
            i += 1;
        }
        Cow::Owned(out)
    }
}

/// What a movetext token is. This layer knows no chess rules: anything that is a move candidate is a
/// [`TokenKind::Word`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Any word that is not otherwise classified: SAN, LAN, UCI, figurines, Cyrillic, glyphs like `!?` or
    /// `ep` or `(=)` ... The replay layer decides whether it is a move, an annotation, or junk.
    Word,
    /// `12.`, `12...`, `12…`, `12. ...`, `12 …` (a spaced ellipsis is merged into the number's token), or a
    /// bare `12`. `black` is true when the number carries two or more dots or an ellipsis.
    MoveNumber {
        /// The move number as written.
        number: u32,
        /// Whether the number is followed by black's dots (`...`, `…`).
        black: bool,
    },
    /// A numeric annotation glyph `$14` (0..=255; bigger numbers are a [`SyntaxErrorKind::BadNag`]).
    Nag(u8),
    /// `{...}` (text = inside the braces, span = the whole comment) or `; ...` to the end of the line
    /// (text = after the `;`).
    Comment,
    /// `(`: a variation starts.
    OpenVariation,
    /// `)`: a variation ends.
    CloseVariation,
    /// `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*` (also `1:0`, `0:1`, `1/2:1/2`, `½:½`). At variation depth 0 it
    /// ends the game.
    Result(GameResult),
    /// An escape line (PGN §6): a line whose first byte is `%`. Text = after the `%`, span = the line
    /// without its line break.
    Escape,
    /// A variation nested deeper than [`MAX_VARIATION_DEPTH`], read but not split into tokens: text and
    /// span are the bytes from its `(` to its matching `)`, or to the end of the game when it is never
    /// closed (a variation longer than 4 GiB continues in a second such token).
    DeepVariation,
}

/// The four game termination markers of PGN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unknown, ongoing or abandoned.
    Unknown,
}

impl GameResult {
    /// The standard PGN spelling: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as written in movetext or in a `Result` tag: `1-0 0-1 1/2-1/2 * ½-½` and the
    /// colon forms `1:0 0:1 1/2:1/2 ½:½`.
    pub fn from_bytes(word: &[u8]) -> Option<GameResult> {
        match word {
            b"1-0" | b"1:0" => Some(GameResult::WhiteWins),
            b"0-1" | b"0:1" => Some(GameResult::BlackWins),
            b"1/2-1/2" | b"1/2:1/2" | b"\xC2\xBD-\xC2\xBD" | b"\xC2\xBD:\xC2\xBD" => {
                Some(GameResult::Draw)
            }
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// Reads a result as a query names it (`pgnkit search --result`): as
    /// PGN writes it ([`GameResult::from_bytes`]), or `white`, `black`,
    /// `draw`, `1/2`, `=` (in any case).
    ///
    /// # Errors
    /// The message for anything else.
    ///
    /// ```
    /// use pgnkit_pgn::GameResult;
    ///
    /// assert_eq!(GameResult::parse_query("Draw"), Ok(GameResult::Draw));
    /// assert_eq!(GameResult::parse_query(" 0-1 "), Ok(GameResult::BlackWins));
    /// assert!(GameResult::parse_query("win").is_err());
    /// ```
    pub fn parse_query(text: &str) -> Result<GameResult, String> {
        let t = text.trim().to_ascii_lowercase();
        let result = match t.as_str() {
            "white" | "1" => Some(GameResult::WhiteWins),
            "black" | "0" => Some(GameResult::BlackWins),
            "draw" | "1/2" | "=" | "½" => Some(GameResult::Draw),
            _ => GameResult::from_bytes(t.trim().as_bytes()),
        };
        result.ok_or_else(|| format!("bad result `{text}`: use 1-0, 0-1, 1/2-1/2 (or draw) or *"))
    }

    /// The result in one byte, as pgnkit's index files and `dedup`'s records
    /// store it: `1-0` 1, `0-1` 2, `1/2-1/2` 3, `*` 4 (0 stands for no
    /// result: [`GameResult::code_of`]).
    pub fn code(self) -> u8 {
        match self {
            GameResult::WhiteWins => 1,
            GameResult::BlackWins => 2,
            GameResult::Draw => 3,
            GameResult::Unknown => 4,
        }
    }

    /// The [`GameResult::code`] of a result, 0 for none.
    pub fn code_of(result: Option<GameResult>) -> u8 {
        result.map_or(0, GameResult::code)
    }

    /// The result of a [`GameResult::code`]; `None` for 0 and any other byte.
    ///
    /// ```
    /// use pgnkit_pgn::GameResult;
    ///
    /// for r in [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown] {
    ///     assert_eq!(GameResult::from_code(r.code()), Some(r));
    /// }
    /// assert_eq!(GameResult::from_code(GameResult::code_of(None)), None);
    /// assert_eq!(GameResult::from_code(5), None);
    /// ```
    pub fn from_code(code: u8) -> Option<GameResult> {
        match code {
            1 => Some(GameResult::WhiteWins),
            2 => Some(GameResult::BlackWins),
            3 => Some(GameResult::Draw),
            4 => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One movetext token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What the token is.
    pub kind: TokenKind,
    /// The token's text (for comments and escape lines, without the delimiters; see [`TokenKind`]).
    pub text: &'a [u8],
    /// Byte range of the whole token, absolute in the reader's input.
    pub span: Range<usize>,
}

/// The movetext tokens of one game ([`Game::tokens`]), read as [`Token`]s.
///
/// Tokens are stored in 16 bytes each (a [`Token`] is 40), since one game may hold millions of them: a
/// token is made on the fly by [`Tokens::get`] and by iteration.
///
/// ```
/// use pgnkit_pgn::{Game, Reader, TokenKind};
///
/// let pgn = b"1. e4 $1 {good} e5 *";
/// let mut game = Game::default();
/// Reader::new(pgn).read_game(&mut game);
/// assert_eq!(game.tokens.len(), 6);
/// assert_eq!(game.tokens.get(2).map(|t| t.kind), Some(TokenKind::Nag(1)));
/// let comment = game.tokens.get(3).unwrap();
/// assert_eq!((comment.text, &pgn[comment.span]), (&b"good"[..], &b"{good}"[..]));
/// assert_eq!(game.tokens.iter().filter(|t| t.kind == TokenKind::Word).count(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens<'a> {
    /// The input the spans are offsets in.
    input: &'a [u8],
    packed: Vec<Packed>,
    /// A [`TokenKind::OpenVariation`] is among the tokens.
    variations: bool,
}

/// One token in 16 bytes: `head` is the start offset (48 bits) above the kind code and flags (16 bits);
/// `len` the span's length; `value` the move number, NAG or result code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Packed {
    head: u64,
    len: u32,
    value: u32,
}

/// Flag bits of [`Packed::head`] (the kind code takes the low 4 bits).
const TEXT_SKIPS_FIRST: u64 = 1 << 4;
const TEXT_SKIPS_LAST: u64 = 1 << 5;
const BLACK: u64 = 1 << 6;
const FLAG_BITS: u32 = 16;

impl Packed {
    #[inline(always)]
    fn new(kind: TokenKind, span: &Range<usize>, text: &Range<usize>) -> Packed {
        let (code, value) = match kind {
            TokenKind::Word => (0, 0),
            TokenKind::MoveNumber { number, black } => (1 | if black { BLACK } else { 0 }, number),
            TokenKind::Nag(n) => (2, u32::from(n)),
            TokenKind::Comment => (3, 0),
            TokenKind::OpenVariation => (4, 0),
            TokenKind::CloseVariation => (5, 0),
            TokenKind::Result(r) => (
                6,
                match r {
                    GameResult::WhiteWins => 0,
                    GameResult::BlackWins => 1,
                    GameResult::Draw => 2,
                    GameResult::Unknown => 3,
                },
            ),
            TokenKind::Escape => (7, 0),
            TokenKind::DeepVariation => (8, 0),
        };
        let mut flags = code;
        if text.start > span.start {
            flags |= TEXT_SKIPS_FIRST;
        }
        if text.end < span.end {
            flags |= TEXT_SKIPS_LAST;
        }
        Packed {
            head: ((span.start as u64) << FLAG_BITS) | flags,
            len: (span.end - span.start) as u32,
            value,
        }
    }

    #[inline(always)]
    fn kind(self) -> TokenKind {
        match self.head & 0xF {
            0 => TokenKind::Word,
            1 => TokenKind::MoveNumber {
                number: self.value,
                black: self.head & BLACK != 0,
            },
            2 => TokenKind::Nag(self.value as u8),
            3 => TokenKind::Comment,
            4 => TokenKind::OpenVariation,
            5 => TokenKind::CloseVariation,
            6 => TokenKind::Result(match self.value {
                0 => GameResult::WhiteWins,
                1 => GameResult::BlackWins,
                2 => GameResult::Draw,
                _ => GameResult::Unknown,
            }),
            7 => TokenKind::Escape,
            _ => TokenKind::DeepVariation,
        }
    }

    #[inline(always)]
    fn span(self) -> Range<usize> {
        let start = (self.head >> FLAG_BITS) as usize;
        start..start + self.len as usize
    }

    #[inline(always)]
    fn token<'a>(self, input: &'a [u8]) -> Token<'a> {
        self.token_of_kind(input, self.kind())
    }

    /// [`Packed::token`] of a token whose kind is `kind`.
    #[inline(always)]
    fn token_of_kind(self, input: &[u8], kind: TokenKind) -> Token<'_> {
        let span = self.span();
        // Branch-free: the flags are 0 or 1 byte off each end.
        let skip_first = ((self.head & TEXT_SKIPS_FIRST) >> 4) as usize;
        let skip_last = ((self.head & TEXT_SKIPS_LAST) >> 5) as usize;
        let text = span.start + skip_first..span.end - skip_last;
        Token {
            kind,
            text: input.get(text).unwrap_or_default(),
            span,
        }
    }
}

impl<'a> Tokens<'a> {
    /// How many tokens.
    #[inline]
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// How many tokens fit before the buffer grows (it is kept from game to game).
    pub fn capacity(&self) -> usize {
        self.packed.capacity()
    }

    /// Whether there is no token.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// Whether a variation opens among the tokens (a
    /// [`TokenKind::OpenVariation`]): a game without any needs no
    /// variation bookkeeping.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    ///
    /// let mut game = Game::default();
    /// Reader::new(b"1. e4 (1. d4) e5 *").read_game(&mut game);
    /// assert!(game.tokens.has_variations());
    /// Reader::new(b"1. e4 {(1. d4)} e5 *").read_game(&mut game);
    /// assert!(!game.tokens.has_variations());
    /// ```
    #[inline]
    pub fn has_variations(&self) -> bool {
        self.variations
    }

    /// The token at `index`, if any.
    #[inline]
    pub fn get(&self, index: usize) -> Option<Token<'a>> {
        self.packed.get(index).map(|p| p.token(self.input))
    }

    /// The token at `index`, its kind being known to be `kind` (as
    /// [`Tokens::kinds`] gave it): [`Tokens::get`] without reading the
    /// kind again.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader, TokenKind};
    ///
    /// let mut game = Game::default();
    /// Reader::new(b"1. e4 *").read_game(&mut game);
    /// let (index, kind) = game.tokens.kinds().enumerate().nth(1).unwrap();
    /// assert_eq!(game.tokens.get_known(index, kind), game.tokens.get(index));
    /// ```
    #[inline]
    pub fn get_known(&self, index: usize, kind: TokenKind) -> Option<Token<'a>> {
        self.packed
            .get(index)
            .map(|p| p.token_of_kind(self.input, kind))
    }

    /// The kind of every token, in order: cheaper than [`Tokens::iter`] for
    /// a loop that needs the text of a few of them only (taken with
    /// [`Tokens::get`]).
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader, TokenKind};
    ///
    /// let mut game = Game::default();
    /// Reader::new(b"1. e4 {best} e5 *").read_game(&mut game);
    /// let words = game.tokens.kinds().filter(|k| *k == TokenKind::Word).count();
    /// assert_eq!(words, 2);
    /// ```
    #[inline]
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = TokenKind> + '_ {
        self.packed.iter().map(|p| p.kind())
    }

    /// The kind of the token at `index` (cheaper than [`Tokens::get`]).
    #[inline]
    pub fn kind(&self, index: usize) -> Option<TokenKind> {
        self.packed.get(index).map(|p| p.kind())
    }

    /// The token at `index` if it is a move number or a word, for a loop
    /// over the common tokens that makes no [`Token`].
    #[inline(always)]
    pub(crate) fn number_or_word(&self, index: usize) -> Option<Common<'a>> {
        let p = self.packed.get(index)?;
        match p.head & 0xF {
            0 => {
                // A word's text is its span.
                let span = p.span();
                let first8 = match self.input.get(span.start..) {
                    Some(rest) if span.len() <= 8 => rest.first_chunk::<8>().copied(),
                    _ => None,
                };
                Some(Common::Word(
                    self.input.get(span).unwrap_or_default(),
                    first8.map(u64::from_le_bytes),
                ))
            }
            1 => Some(Common::Number),
            _ => None,
        }
    }

    /// The span of the token at `index`.
    #[inline]
    pub fn span(&self, index: usize) -> Option<Range<usize>> {
        self.packed.get(index).map(|p| p.span())
    }

    /// The first token.
    pub fn first(&self) -> Option<Token<'a>> {
        self.get(0)
    }

    /// The last token.
    pub fn last(&self) -> Option<Token<'a>> {
        self.packed.last().map(|p| p.token(self.input))
    }

    /// The tokens in order.
    pub fn iter(&self) -> TokenIter<'_, 'a> {
        self.range(0..self.len())
    }

    /// The tokens whose indices are in `range` (clamped to the tokens there are).
    pub fn range(&self, range: Range<usize>) -> TokenIter<'_, 'a> {
        let end = range.end.min(self.packed.len());
        let start = range.start.min(end);
        TokenIter {
            input: self.input,
            packed: self.packed[start..end].iter(),
        }
    }

    /// Empties the list, keeping its buffer, for tokens of `input`.
    pub(crate) fn reset(&mut self, input: &'a [u8]) {
        self.input = input;
        self.packed.clear();
        self.variations = false;
    }

    pub(crate) fn clear(&mut self) {
        self.packed.clear();
        self.variations = false;
    }

    /// Appends a token; `text` lies within `span`, at most one byte shorter at each end. A span longer
    /// than `u32::MAX` bytes is cut into tokens of the same kind.
    #[inline(always)]
    pub(crate) fn push(&mut self, kind: TokenKind, text: Range<usize>, span: Range<usize>) {
        self.variations |= kind == TokenKind::OpenVariation;
        if span.end - span.start <= u32::MAX as usize {
            self.packed.push(Packed::new(kind, &span, &text));
        } else {
            self.push_long(kind, text, span);
        }
    }

    #[cold]
    fn push_long(&mut self, kind: TokenKind, text: Range<usize>, span: Range<usize>) {
        const MAX: usize = u32::MAX as usize;
        let mut start = span.start;
        while start < span.end {
            let end = (start + MAX).min(span.end);
            let piece = start.max(text.start)..end.min(text.end);
            self.packed.push(Packed::new(kind, &(start..end), &piece));
            start = end;
        }
    }

    /// Extends the last token, a [`TokenKind::DeepVariation`], to `end`; starts a new one from `start`
    /// when there is none or it would grow beyond `u32::MAX` bytes.
    pub(crate) fn extend_deep(&mut self, start: usize, end: usize) {
        if let Some(last) = self.packed.last_mut()
            && last.kind() == TokenKind::DeepVariation
        {
            let span = last.span();
            if let Ok(len) = u32::try_from(end - span.start) {
                last.len = len;
                return;
            }
        }
        self.push(TokenKind::DeepVariation, start..end, start..end);
    }
}

impl<'s, 'a> IntoIterator for &'s Tokens<'a> {
    type Item = Token<'a>;
    type IntoIter = TokenIter<'s, 'a>;

    fn into_iter(self) -> TokenIter<'s, 'a> {
        self.iter()
    }
}

/// An iterator over [`Tokens`], made by [`Tokens::iter`] and [`Tokens::range`].
#[derive(Clone, Debug)]
pub struct TokenIter<'s, 'a> {
    input: &'a [u8],
    packed: std::slice::Iter<'s, Packed>,
}

impl<'a> Iterator for TokenIter<'_, 'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        self.packed.next().map(|p| p.token(self.input))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.packed.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<Token<'a>> {
        self.packed.nth(n).map(|p| p.token(self.input))
    }
}

impl DoubleEndedIterator for TokenIter<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.packed.next_back().map(|p| p.token(self.input))
    }
}

impl ExactSizeIterator for TokenIter<'_, '_> {}

/// Broken PGN structure, with the bytes it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is broken.
    pub kind: SyntaxErrorKind,
    /// The bytes concerned (absolute in the reader's input).
    pub span: Range<usize>,
}

/// The kinds of broken structure the lexer reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxErrorKind {
    /// A `{` comment never closed before the game ended (end of input or a hard game boundary).
    /// Span: from the `{` to the end of the comment's text (trailing whitespace excluded).
    UnterminatedComment,
    /// A tag whose value has no closing quote (and `]`) on its line. Span: `[` to the end of the line.
    UnterminatedTag,
    /// A `(` never closed before the game ended. Span: the `(`.
    UnterminatedVariation,
    /// A `)` with no open variation. Span: the `)`.
    UnmatchedCloseVariation,
    /// A tag that is not `[Name "value"]`, e.g. `[Foo bar]`. Span: `[` to the `]` (or the end of the line).
    BadTag,
    /// A `$` without digits, or with a number above 255. Span: the `$` and its digits.
    BadNag,
    /// A byte that cannot start any token here: `}` `]` `"`, or a `[` in movetext that starts no tag.
    StrayCharacter,
}

impl SyntaxErrorKind {
    /// A short English description, e.g. "unterminated comment".
    pub fn description(self) -> &'static str {
        match self {
            SyntaxErrorKind::UnterminatedComment => "unterminated comment",
            SyntaxErrorKind::UnterminatedTag => "unterminated tag",
            SyntaxErrorKind::UnterminatedVariation => "unterminated variation",
            SyntaxErrorKind::UnmatchedCloseVariation => "unmatched `)`",
            SyntaxErrorKind::BadTag => "malformed tag",
            SyntaxErrorKind::BadNag => "malformed NAG",
            SyntaxErrorKind::StrayCharacter => "stray character",
        }
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}
