//! Positions out of a replay: a game's main-line positions in FEN or EPD
//! (the last one, or every one from the start), and the UCI command that
//! sets an engine to the game's last position.
//!
//! The en passant square is written after every double pawn push, as the
//! FEN standard has it (and as pgn-extract writes it), whether or not a
//! capture is possible.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::positions::{PositionFormat, Positions, UciPosition};
//! use pgnkit_replay::{Options, replay_game_with};
//!
//! let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//!
//! let mut out = String::new();
//! let mut last = Positions::new(PositionFormat::Epd, false, &mut out);
//! replay_game_with(pgn, &game, &Options::default(), &mut last);
//! last.finish();
//! assert_eq!(out, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -\n");
//!
//! let mut out = String::new();
//! let mut uci = UciPosition::new(&mut out);
//! replay_game_with(pgn, &game, &Options::default(), &mut uci);
//! uci.finish();
//! assert_eq!(out, "position startpos moves e2e4 e7e5 g1f3\n");
//! ```

use pgnkit_notation::{Language, Notation, Style, write_move};
use shakmaty::{Chess, Position};

pub use crate::position_text::{PositionFormat, write_position};
use pgnkit_pgn::write::MoveSink;

use crate::visitor::{MoveEvent, Visitor};

/// A [`Visitor`] that writes the positions of a game's main line, one a
/// line: every position from the start when `all`, else (at
/// [`Positions::finish`]) the last one reached. A game with an error gives
/// the positions up to it.
#[derive(Debug)]
pub struct Positions<'o> {
    format: PositionFormat,
    all: bool,
    out: &'o mut String,
    /// The length of `out` before the game (a restart goes back to it).
    mark: usize,
    last: Option<Chess>,
}

impl<'o> Positions<'o> {
    /// Writes into `out` (appended to).
    pub fn new(format: PositionFormat, all: bool, out: &'o mut String) -> Positions<'o> {
        let mark = out.len();
        Positions {
            format,
            all,
            out,
            mark,
            last: None,
        }
    }

    /// Writes the last position (unless every one was written).
    pub fn finish(self) {
        if let Some(pos) = self.last.as_ref().filter(|_| !self.all) {
            write_position(pos, self.format, self.out);
            self.out.push('\n');
        }
    }
}

impl Visitor for Positions<'_> {
    type Sink = dyn MoveSink;
    fn restart(&mut self) {
        self.out.truncate(self.mark);
        self.last = None;
    }

    fn on_start(&mut self, start: &Chess) {
        if self.all {
            write_position(start, self.format, self.out);
            self.out.push('\n');
        } else {
            self.last = Some(start.clone());
        }
    }

    fn on_move(&mut self, event: &MoveEvent<'_>) {
        if event.depth != 0 {
            return;
        }
        if self.all {
            write_position(event.after, self.format, self.out);
            self.out.push('\n');
        } else if let Some(last) = &mut self.last {
            last.clone_from(event.after);
        }
    }
}

/// A [`Visitor`] that writes the UCI command setting up a game's last
/// main-line position: `position startpos moves e2e4 e7e5 …`, or
/// `position fen <FEN> moves …` for a game that starts from a FEN tag (no
/// `moves` when there is none), then a line break at
/// [`UciPosition::finish`].
#[derive(Debug)]
pub struct UciPosition<'o> {
    out: &'o mut String,
    mark: usize,
    moves: bool,
}

impl<'o> UciPosition<'o> {
    /// Writes into `out` (appended to).
    pub fn new(out: &'o mut String) -> UciPosition<'o> {
        let mark = out.len();
        UciPosition {
            out,
            mark,
            moves: false,
        }
    }

    /// Ends the line (nothing when the game was never started).
    pub fn finish(self) {
        if self.out.len() > self.mark {
            self.out.push('\n');
        }
    }
}

impl Visitor for UciPosition<'_> {
    type Sink = dyn MoveSink;
    fn restart(&mut self) {
        self.out.truncate(self.mark);
        self.moves = false;
    }

    fn on_start(&mut self, start: &Chess) {
        self.out.push_str("position ");
        if *start == Chess::default() && start.halfmoves() == 0 && start.fullmoves().get() == 1 {
            self.out.push_str("startpos");
        } else {
            self.out.push_str("fen ");
            write_position(start, PositionFormat::Fen, self.out);
        }
    }

    fn on_move(&mut self, event: &MoveEvent<'_>) {
        if event.depth != 0 {
            return;
        }
        if !self.moves {
            self.out.push_str(" moves");
            self.moves = true;
        }
        self.out.push(' ');
        write_move(
            event.before,
            &event.played,
            &Style::new(Notation::Uci, Language::En),
            self.out,
        );
    }
}
