//! An index of a PGN file, for instant search.
//!
//! `pgnkit-index` writes and reads `FILE.pgnkit-index`, a versioned binary
//! file ([`layout`]) beside a PGN file: a table of games (byte offset and
//! length in the PGN, tag string ids, ply count, status, ratings, date as a
//! sortable number, the ECO tag as a number, the opening the main line
//! reaches as its id in [`pgnkit_opening::table`]), a name table that stores each string
//! once, and a sorted table of (position key, game) pairs, so that a
//! position query is a binary search. The file is read through a memory map
//! without parsing, checked by CRC-32s, and refused when the PGN file changed
//! since it was indexed ([`Fingerprint`]).
//!
//! Filters ([`Filter`]) have one meaning whether a game is tested from the
//! index or from the PGN itself ([`GameFacts`]): a scan without index gives
//! the same answers.
//!
//! # Example
//!
//! ```
//! use pgnkit_index::{Batch, Builder, Filter, Fingerprint, GameFacts, Index, Needle, index_path};
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let pgn_path = dir.path().join("games.pgn");
//! let pgn = b"[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
//! std::fs::write(&pgn_path, pgn).unwrap();
//!
//! let mut batch = Batch::new();
//! let mut reader = Reader::new(pgn);
//! let mut game = Game::default();
//! let mut facts = Vec::new();
//! while reader.read_game(&mut game) {
//!     let report = replay_game(pgn, &game, &Options { language: None, suggestions: false, ..Options::default() });
//!     facts.push(GameFacts::new(pgn, 0, &game, Some(&report)).into_owned());
//!     batch.push(&facts[facts.len() - 1], &report.keys);
//! }
//! let mut builder = Builder::new();
//! builder.add(batch).unwrap();
//! let fingerprint = Fingerprint::of(&pgn_path).unwrap();
//! builder.write(&index_path(&pgn_path), &fingerprint).unwrap();
//!
//! let index = Index::open(&index_path(&pgn_path), &pgn_path, &fingerprint).unwrap();
//! let filter = Filter { player: Some(Needle::new("kieser")), ..Filter::default() };
//! assert_eq!(index.search(&filter, None).unwrap(), vec![0]);
//! assert_eq!(index.game(0).facts(), facts[0]);
//! let after_e4 = pgnkit_index::fen_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
//! assert_eq!(index.games_with_position(after_e4).unwrap(), vec![0]);
//! ```

mod direct;
pub mod filter;
pub mod fingerprint;
pub mod layout;
pub mod line;
pub mod material;
pub mod needle;
pub mod order;
pub mod pattern;
pub mod position;
pub mod probe;
pub mod reader;
pub mod scan;
pub mod spill;
pub mod writer;

pub use filter::{Filter, Query, Slot, Subject};
pub use fingerprint::Fingerprint;
pub use needle::Needle;
/// What the index keeps of each game ([`GameFacts`]), its tags in
/// sortable form, and the fingerprint of its main line: `pgnkit-facts`.
pub use pgnkit_facts::{Date, Eco, GameFacts, TextTag, mainline};
/// The Result tag's result, as the filters name it ([`Filter::outcome`]).
pub use pgnkit_pgn::GameResult as Outcome;
pub use position::fen_key;
pub use probe::{Probe, TagTest};
pub use reader::{GameEntry, Index, IndexError, index_path};
pub use writer::{Batch, BuildError, Builder, Summary, remove_temporary_files, write_atomically};
