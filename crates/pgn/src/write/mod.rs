//! Writing games in the PGN export format (PGN standard §8).
//!
//! A [`Writer`] writes a game read by the [`Reader`](crate::Reader) with its
//! moves in any notation: the caller renders each move (usually while
//! replaying the game: `pgnkit-replay`'s `MoveWriter` does it in any
//! notation and language) into a [`Moves`], by token index, and the writer
//! walks the game's tokens once to write it; or, where nothing needs the
//! moves kept, hands each move as it is played to the writer's
//! [`LiveMovetext`] ([`Writer::live`]), which writes the game as it goes,
//! by the same walk over its tokens. Either way (both are a [`MoveSink`]):
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

mod live;
mod move_lines;
mod moves;
mod movetext;
mod nulls;
mod numbering;
mod split;
mod tags;
#[cfg(test)]
mod tests;
mod verbatim;
mod words;
mod writer;

pub use live::LiveMovetext;
pub use move_lines::write_move_lines;
pub use moves::{MoveBuffers, MoveSink, Moves, WrittenMove};
pub use movetext::{LINE_WIDTH, Movetext};
pub use nulls::{NullPlaces, Place};
pub use split::SplitLines;
pub use tags::{SEVEN_TAG_ROSTER, TagSection, escape_tag_value, tag_order};
pub use verbatim::{VerbatimPiece, line_end, verbatim_pieces};
pub use words::{Word, attached_marks, classify_word, comment_text, draw_offer_at, is_null_word};
pub use writer::{DRAIN_AT, Layout, Writer, result_marker};

/// The written form of a null move (`--`, `Z0`, `0000` read): `--` in
/// every notation (`0000` would read as a move number in movetext).
pub const NULL_MOVE: &str = "--";
