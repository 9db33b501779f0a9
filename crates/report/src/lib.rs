//! `pgnkit-report`: printers for pgnkit's diagnostics as data, and for what
//! the other commands find.
//!
//! The replay ([`pgnkit_replay`]) gives diagnostics as values: a code, a
//! severity, a byte span, a message, suggestions. This crate is the one place
//! that turns them into text, in one of three [`Format`]s: human (rustc-style,
//! with the source line and a caret), NDJSON (one object a line), or GitHub
//! Actions annotations. The way ripgrep's `searcher` finds matches and its
//! `printer` renders them, the commands find problems and this crate prints
//! them:
//!
//! - [`locate::Locator`] turns a game's diagnostics into [`Located`] ones
//!   (line, column, byte, game name, the source line for humans);
//! - [`render::diagnostic`] and [`render::omitted`] print them;
//! - [`games`] prints the `check --games` record of a game and the error of
//!   an input that cannot be read;
//! - [`summary::Totals`] are a run's counts (added up chunk by chunk, file by
//!   file, shard by shard) and their summary lines; [`summary::Summary`] is
//!   the `summary` record of `check`, and [`summary::Merger`] adds up those
//!   of sharded runs (`merge-summaries`);
//! - [`search`] prints the games `search` found, as PGN or JSON records;
//! - [`compare`] prints what `diff` found comparing two records of a game;
//! - [`position`] finds the position where a game goes wrong and draws
//!   it ([`pgnkit_board`]); [`html`] makes the page of `pgnkit report`;
//! - [`unified_diff`] writes the diff of a text and its fixed copy
//!   (`check --fix --diff`).
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//! use pgnkit_report::{Format, locate::Locator, render};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let mut locator = Locator::new(pgn, 0, 0, Format::Json);
//! let located = locator.locate(&game, &report, 0, |_| true);
//! let mut out = Vec::new();
//! let shown = render::Suggestions::Best;
//! render::diagnostic(&mut out, Format::Json, false, shown, "a.pgn", &located[0]).unwrap();
//! let line = String::from_utf8(out).unwrap();
//! assert!(line.starts_with(r#"{"type":"diagnostic","severity":"error","code":"illegal-move""#));
//! ```
//!
//! Nothing here reads files or decides what a game means: the commands of the
//! `pgnkit` binary do the one, [`pgnkit_replay`] the other.

pub mod baseline;
pub mod compare;
pub mod fingerprint;
pub mod games;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod json;
pub mod junit;
pub mod locate;
pub mod position;
pub mod printer;
pub mod render;
pub mod rules;
pub mod sarif;
pub mod search;
pub mod summary;
pub mod unified_diff;

pub use locate::{Locator, game_name, source_line};
pub use render::Located;

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// rustc-style messages with the source line and a caret (default on a terminal).
    Human,
    /// NDJSON on standard output: one object a line (default in pipes).
    Json,
    /// GitHub Actions annotations (`::error file=…`).
    Github,
}
