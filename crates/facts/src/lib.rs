//! What pgnkit knows about one game, in a few numbers and strings: where
//! its bytes are, its tags in sortable form ([`Date`], [`Eco`], ratings,
//! the result), what its replay found (plies, status, errors), the opening
//! its moves reach, and the fingerprint of its main line ([`mainline`]).
//!
//! [`GameFacts`] is built the same way from a PGN file and kept the same
//! way in an index (`pgnkit-index`), so that a search gives the same answers
//! with or without an index; `pgnkit search` prints them
//! (`pgnkit-report`) and `pgnkit dedup` compares games by them.
//!
//! # Example
//!
//! ```
//! use pgnkit_facts::{Date, GameFacts, TextTag};
//! use pgnkit_pgn::{Game, GameResult, Reader};
//!
//! let pgn = b"[White \"Anderssen\"]\n[Date \"1851.06.21\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let facts = GameFacts::new(pgn, 0, &game, None);
//! assert_eq!(facts.text(TextTag::White), "Anderssen");
//! assert_eq!(facts.date, Date(18510621));
//! assert_eq!(facts.outcome, Some(GameResult::WhiteWins));
//! assert_eq!(facts.plies, 0); // not replayed
//! ```

pub mod facts;
pub mod mainline;
pub mod tags;

pub use facts::{GameFacts, TEXT_TAGS, TextTag};
pub use mainline::{Chain, LineFingerprint, line_fingerprint};
pub use tags::{Date, Eco, elo};
