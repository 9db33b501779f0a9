//! A linear-time PGN lexer that gives every tag, token, comment and variation its byte span, and never
//! skips anything silently.
//!
//! This crate knows nothing about chess rules: it splits bytes into games, each game into tag pairs and
//! movetext tokens, and reports broken structure as [`SyntaxError`]s. Anything that could be a move is a
//! [`TokenKind::Word`], whatever its notation or alphabet (`Nf3`, `e2-e4`, `Кf3`, `♘f3`, `e8Q`, Latin-1
//! junk): deciding what a word means is the job of the replay layer.
//!
//! It also writes games back: [`write`](mod@write) is the PGN export format (tag order, escaping, line width,
//! move numbers, NAGs), for moves rendered by the caller; [`text`] decodes a game's bytes (UTF-8, or
//! Windows-1252 when a game is not UTF-8).
//!
//! ```
//! use pgnkit_pgn::{Game, GameResult, Reader, TokenKind};
//!
//! let pgn = b"[Event \"Casual\"]\n[White \"Anna\"]\n\n1. e4 {best by test} e5 (1... c5) 2. Nf3 1-0\n";
//! let mut reader = Reader::new(pgn);
//! let mut game = Game::default();
//! assert!(reader.read_game(&mut game));
//! assert_eq!(game.tag("White").map(|t| t.value()).as_deref(), Some(&b"Anna"[..]));
//! let words: Vec<&[u8]> = game
//!     .tokens
//!     .iter()
//!     .filter(|t| t.kind == TokenKind::Word)
//!     .map(|t| t.text)
//!     .collect();
//! assert_eq!(words, [&b"e4"[..], b"e5", b"c5", b"Nf3"]);
//! let comment = game.tokens.get(2).unwrap();
//! assert_eq!(comment.text, b"best by test");
//! assert_eq!(&pgn[comment.span], b"{best by test}");
//! assert_eq!(game.result(), Some(GameResult::WhiteWins));
//! assert!(game.errors.is_empty());
//! assert!(!reader.read_game(&mut game));
//! ```
//!
//! # How the input is read
//!
//! **Games.** A game is a run of items (tags, tokens, syntax errors). It ends
//! - after a [`TokenKind::Result`] at variation depth 0 ([`Game::result_token`] points at it), plus
//!   the comments and escape lines that follow it on the same or the next lines (no empty line between):
//!   engine logs such as TCEC's `1/2-1/2` then `; { Game Nr. 1 ... }` keep their trailer;
//! - before a `[` that starts a new tag section: any `[` at the start of a line (blanks allowed before
//!   it) once the game has movetext, or a `[` in the middle of a line that is followed by `Name "`;
//! - before a hard boundary (see [`boundary`]): a `[` after an empty line (except a tag section split by
//!   an empty line, as ChessBase writes), which ends the game even inside an unterminated comment or
//!   variation;
//! - before a move number `1` (white) that follows an empty line at variation depth 0 when the game
//!   already has movetext: a new game without tags;
//! - at the end of the input.
//!
//! A game without a result is not an error at this level (`result_token` is `None`). Comments and escape
//! lines before a tag section belong to the game of that tag section. "Movetext" means any token other
//! than a comment or an escape line. Every non-whitespace byte of the input ends up in exactly one game:
//! text outside any game (a line of prose before a tag section) is lexed as a game of junk Words, and
//! a run of only comments and escape lines between hard boundaries (pgn4web's `%` file header) is
//! returned as a game for which [`Game::is_comment_only`] is true — callers should not count those.

//! **Tags** are described [below](#tags): `[Name "value"]`, one line at most, human-friendly
//! about spaces, brackets, quotes and backslashes inside values.
//!
//! **Movetext tokens.** Whitespace (space, tab, LF, FF, CR: [`u8::is_ascii_whitespace`]) separates
//! tokens. Words end at whitespace and at `{ } ( ) [ ] ; $ "`, and at a `*` that ends them (`a5*` is
//! `a5` then `*`, `test_*.pgn` is one word); anything else (non-ASCII, NUL and other control bytes,
//! invalid UTF-8, `!`, `?`, `%`, `.`) is part of a word. Then:
//! - `{...}`: a comment (it may span lines and contain `; ( [`); `;` to the end of the line: a comment.
//! - `%` as the first byte of a line: an escape line, to the end of the line.
//! - `$n`: a NAG (0..=255, else [`SyntaxErrorKind::BadNag`]).
//! - `(` and `)` open and close variations (any depth; a `)` with none open is
//!   [`SyntaxErrorKind::UnmatchedCloseVariation`]); `(=)` (FIDE draw offer) is one Word.
//! - A `(` attached to a word that looks like a descriptive move (`R(KB1)-K1`, `NxP(Q5)`,
//!   `N(KB3)xP(K5)`, `P-K8(Q)`), holding a descriptive square or a promotion piece and closed at
//!   once, is part of that Word (`pgnkit_notation::descriptive::attached_parenthesis`); every other
//!   `(` opens a variation, also one attached to an algebraic move (`Nf3(Nc3)`). A book's `Castles`
//!   keeps the side written after it, glued or after spaces (`Castles(QR)`, `Castles QR`,
//!   `Castles (Q)`: `pgnkit_notation::descriptive::castles_end`).
//! - A word starting with digits then dots or `…` is a move number (`12.`, `12...`, `12…`; the rest of
//!   the word is lexed again: `1.e4` is `1.` and `e4`, `1.e4e5` is `1.` and `e4e5`). A word of digits
//!   only is a bare move number. A bare or single-dot move number followed by a word made only of dots
//!   (`12 ...`, `12. …`) absorbs it: one `MoveNumber { black: true }` token.
//! - Results: `1-0 0-1 1/2-1/2 ½-½ *`, also `1:0 0:1 1/2:1/2 ½:½` (German and Russian scoresheets).
//!   `0-0`, `0-0-0`, `O-O` are Words (castling).
//! - Everything else is a [`TokenKind::Word`].
//! - `}`, `]`, `"` out of place, and a `[` in movetext that starts no tag:
//!   [`SyntaxErrorKind::StrayCharacter`] (one byte each).
//!
//! Line breaks may be LF, CRLF or CR. A UTF-8 byte order mark is whitespace wherever it stands between
//! tokens (at offset 0, or at the start of each file in a concatenation of files).
//!
//! # Tags
//!
//! - Spaces and tabs may surround the name, the value and the brackets: `[ Name  "v" ]`.
//! - A tag never spans lines; several tags (and movetext) may share one line.
//! - The value ends at the first `"` that is followed by optional blanks and `]`, with `\"` and `\\`
//!   taken as escapes: `[C "A]]"]` has the value `A]]`, `[E "\"A]][\""]` the value `"A]]["`.
//!   Unescaped quotes inside the value are kept: `[Site "Club "Victory""]` has the value
//!   `Club "Victory"`.
//! - An escaped quote `\"` followed by `]` that ends the line (or is followed by the next `[`) closes
//!   the value, the backslash being literal: `[Event "Tournament \"]` has the value `Tournament \`.
//! - No closing quote on the line: [`SyntaxErrorKind::UnterminatedTag`], spanning to the end of the line;
//!   reading goes on with the next line. No quoted value (`[Foo bar]`): [`SyntaxErrorKind::BadTag`].
//!
//! # Parallel reading
//!
//! [`game_starts_near`] and [`split_at_games`] find hard boundaries; lexing the pieces with
//! [`Reader::with_range`] gives the same games, with the same spans, as lexing the whole input.
//!
//! # Cost
//!
//! Linear time on any input; no recursion (100,000 nested variations are fine); comments are skipped
//! with `memchr`, words and tag values are scanned eight bytes at a time. No allocation per game once a
//! reused [`Game`]'s vectors have grown. `cargo run --release -p pgnkit-pgn --example lexbench` prints
//! the speed on the benchmark corpus (about 1 GB/s on one core of the reference machine).

pub mod boundary;
mod game;
pub mod location;
mod movetext;
mod reader;
mod scan;
pub mod shard;
mod tag;
pub mod text;
pub mod write;

pub use boundary::{game_starts_near, split_at_games};
pub use game::{
    Game, GameResult, MAX_ERRORS, MAX_VARIATION_DEPTH, SyntaxError, SyntaxErrorKind, Tag, Token,
    TokenIter, TokenKind, Tokens,
};
pub use location::{LineIndex, line_col};
pub use reader::Reader;
