//! Chess move notation: read every way people write a move, resolve it against
//! the position, and write any move back in any notation or language.
//!
//! - [`descriptive`]: descriptive notation, English (`P-K4`, `NxP(Q5)`) and Spanish, Italian, French (`P4R`, `C3AR`), read and written.
//! - [`token`]: the lexical form of one move token ([`parse_move`]), no position, no language.
//! - [`read`]: resolving a token to exactly one legal move under a [`Language`].
//! - [`write`](mod@write): rendering a move in a [`Style`] (SAN, LAN, UCI, ICCF numeric, figurine, spoken).
//! - [`language`]: piece letters of 31 languages, as data.
//! - [`line`](mod@line): reading and writing move after move along a line of play.
//! - [`detect`]: choosing a game's language by replaying it.
//! - [`house`]: a record's house style (short or long, `x` or `:`, `O-O` or `0-0`), read from its words.
//!
//! ```
//! use pgnkit_notation::{parse_move, write_move, Language, Notation, Style};
//! use shakmaty::Chess;
//!
//! let pos = Chess::default();
//! // German letters, long algebraic with an en dash, and a move glyph
//! let token = parse_move("Sg1–f3!")?;
//! let m = token.resolve(&pos, Language::De)?;
//! assert_eq!(token.nag(), Some(1));
//!
//! let mut out = String::new();
//! write_move(&pos, &m, &Style::SAN, &mut out);
//! assert_eq!(out, "Nf3");
//!
//! out.clear();
//! write_move(&pos, &m, &Style::new(Notation::San, Language::Ru), &mut out);
//! assert_eq!(out, "Кf3");
//!
//! out.clear();
//! write_move(&pos, &m, &Style::new(Notation::Spoken, Language::De), &mut out);
//! assert_eq!(out, "Springer Gustav eins Felix drei");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod descriptive;
pub mod detect;
mod fitting;
pub mod house;
pub mod language;
pub mod line;
#[cfg(test)]
mod random_games;
pub mod read;
pub mod spoken;
pub mod stood;
pub mod token;
pub mod write;

pub use detect::{Detection, LetterEvidence, detect_language};
pub use house::HouseStyle;
pub use language::{Language, LanguageSet, UnknownLanguage};
pub use line::Line;
pub use read::{ReadError, ResolveError, read_move};
pub use token::{
    Annotation, MoveToken, ParseError, Suffix, annotation_glyph, parse_annotation, parse_move,
    with_suffix,
};
pub use write::{
    CaptureMark, CastlingMark, Notation, Style, move_to_string, write_move, write_move_after,
    write_move_checked,
};
