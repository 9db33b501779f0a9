//! Replay PGN games under the FIDE Laws of Chess.
//!
//! `pgnkit-replay` turns the games that [`pgnkit_pgn`] lexes into replayed
//! games and a stream of [`Diagnostic`]s: every movetext token is accounted
//! for, moves are read in any notation and language
//! ([`pgnkit_notation`]), variations are replayed from the position before
//! the move they replace, and each game gets its true status under the Laws
//! ([`Status`]), the result the rules give, and the draws that became
//! claimable ([`Claim`]).
//!
//! Nothing here prints: diagnostics are data, rendered by the `pgnkit`
//! binary.
//!
//! # Example
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, Status, replay_game};
//!
//! let pgn = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
//! let mut reader = Reader::new(pgn);
//! let mut game = Game::default();
//! assert!(reader.read_game(&mut game));
//!
//! let report = replay_game(pgn, &game, &Options::default());
//! assert_eq!(report.status, Status::Checkmate);
//! assert_eq!(report.result.map(|r| r.as_str()), Some("0-1"));
//! assert_eq!(report.plies, 4);
//! assert!(report.diagnostics.is_empty());
//! ```

pub mod broadcast;
pub mod clock;
mod clock_verdict;
pub mod dead;
pub mod diagnostic;
pub mod exchange;
pub mod fix;
mod game;
pub mod illegal;
mod keyed;
mod language;
mod marks;
mod movetext;
pub mod outcome;
mod plain;
mod play;
mod position_text;
pub mod positions;
mod repair;
pub mod setup;
mod structure;
mod verdict;
pub mod visitor;

pub use diagnostic::{
    Code, Diagnostic, Diagnostics, Omitted, Selection, Severity, Suggestion, brief,
};
pub use game::{Detail, GameReport, Options};
pub use illegal::{IllegalMoves, LawRuling};
pub use movetext::{MainMove, main_line_words};
pub use outcome::{Claim, ClaimKind, DeclaredMove, GameResult, Ruling, Status};
pub use pgnkit_pgn::text;
pub use pgnkit_pgn::text::{Encoding, GameText};
pub use play::{replay_game, replay_game_text, replay_game_with};
pub use verdict::lost_on_time;
pub use visitor::{MoveEvent, MoveWriter, MoveWriting, Visitor};
