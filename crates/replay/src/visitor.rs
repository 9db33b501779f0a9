//! What a caller sees of the replay: a [`Visitor`] is shown every move
//! played, main line and variations; [`MoveWriter`] is the visitor that
//! writes each move in a notation as it is played.

use pgnkit_notation::{Language, Notation, Style, write_move, write_move_checked};
use pgnkit_pgn::write::{MoveBuffers, MoveSink};
use shakmaty::{Chess, Color, Move, Position};

use crate::position_text::{PositionFormat, write_position};

/// What a [`Visitor`] sees for each move played.
#[derive(Debug)]
pub struct MoveEvent<'a> {
    /// Index of the move's token in [`Game::tokens`](pgnkit_pgn::Game::tokens).
    pub token: usize,
    /// The position before the move.
    pub before: &'a Chess,
    /// The move.
    pub played: Move,
    /// The position after the move.
    pub after: &'a Chess,
    /// Whether the move gives check (the side to move in `after` is in
    /// check).
    pub check: bool,
    /// 1-based ply of the move in its line (counted from the game's start).
    pub ply: u32,
    /// 0 in the main line, 1 in a variation, 2 in a variation of a variation …
    pub depth: u32,
    /// The Zobrist key of `after` (Law 9.2 identity), main line only.
    pub key: Option<u64>,
}

/// Receives the moves of a game as they are replayed. Every method has a
/// default that does nothing.
pub trait Visitor {
    /// Where [`Visitor::move_writing`] writes the moves: a visitor that
    /// writes none says `dyn MoveSink`. A sized type lets the replay call
    /// the sink without going through a vtable for every move.
    type Sink: MoveSink + ?Sized;
    /// The replay starts again (under another piece-letter language):
    /// forget the moves seen so far for this game.
    fn restart(&mut self) {}
    /// The replay of the movetext starts from `start` (the standard
    /// position or the FEN tag's), again after each [`Visitor::restart`].
    fn on_start(&mut self, start: &Chess) {
        let _ = start;
    }
    /// Whether [`Visitor::on_move`] wants to see the moves (with the
    /// positions before and after them). A visitor that does not spares the
    /// replay a copy of the position per move.
    const WANTS_POSITIONS: bool = true;
    /// A move was played.
    fn on_move(&mut self, event: &MoveEvent<'_>) {
        let _ = event;
    }
    /// For a visitor that only writes each move into a [`MoveSink`] (as
    /// [`MoveWriter`] does): where and how. The replay may then write each
    /// move itself while it plays it, looking at each position once,
    /// instead of calling [`Visitor::on_move`]; the moves written are the
    /// same.
    fn move_writing(&mut self) -> Option<MoveWriting<'_, Self::Sink>> {
        None
    }
}

/// Where and how a [`Visitor`] writes moves ([`Visitor::move_writing`]).
pub struct MoveWriting<'a, S: MoveSink + ?Sized = dyn MoveSink> {
    /// The style of the written form.
    pub style: &'a Style,
    /// The style of the UCI form, if it is written too.
    pub uci: Option<&'a Style>,
    /// Whether each move's note is the FEN of the position after it
    /// ([`MoveWriter::with_fen_notes`]).
    pub fen: bool,
    /// Where the moves go.
    pub moves: &'a mut S,
}

impl Visitor for () {
    type Sink = dyn MoveSink;
    const WANTS_POSITIONS: bool = false;
}

/// A [`Visitor`] that writes every move played (main line and variations)
/// in a [`Style`] into a [`MoveSink`]: into a
/// [`Moves`](pgnkit_pgn::write::Moves), by token index, what the
/// [PGN writer](pgnkit_pgn::write::Writer) and the JSON record
/// (`pgnkit_report::json`) write for each move; into a
/// [`LiveMovetext`](pgnkit_pgn::write::LiveMovetext), the game's movetext
/// as the moves are played.
///
/// ```
/// use pgnkit_notation::{Language, Notation, Style};
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Moves, Writer};
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{MoveWriter, Options, replay_game_with};
///
/// let pgn = "[Event \"Moscou\"]\n\n1. e4 c5 (1... e5 2. Cf3) 2. Cf3 d6 *\n".as_bytes();
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let mut moves = Moves::new(false);
/// let figurine = Style::new(Notation::Figurine, Language::En);
/// let report = replay_game_with(pgn, &game, &Options::default(), &mut MoveWriter::new(figurine, false, &mut moves));
/// assert_eq!(report.language, Language::Fr);
///
/// let mut out = Vec::new();
/// Writer::new().write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
/// assert_eq!(
///     String::from_utf8(out)?,
///     "[Event \"Moscou\"]\n\n1. e4 c5 ( 1... e5 2. ♘f3 ) 2. ♘f3 d6 *\n\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MoveWriter<'m, S: MoveSink + ?Sized = dyn MoveSink> {
    style: Style,
    uci: Option<Style>,
    fen: bool,
    moves: &'m mut S,
}

impl<'m, S: MoveSink + ?Sized> MoveWriter<'m, S> {
    /// Writes moves in `style` into `moves` (emptied first), and in UCI too
    /// when `uci`.
    pub fn new(style: Style, uci: bool, moves: &'m mut S) -> MoveWriter<'m, S> {
        moves.reset();
        MoveWriter {
            style,
            uci: uci.then(|| Style::new(Notation::Uci, Language::En)),
            fen: false,
            moves,
        }
    }

    /// Gives each move the FEN of the position after it as its note
    /// ([`Moves::push_noted`](pgnkit_pgn::write::Moves::push_noted)): the
    /// PGN writer puts it in a comment after the move (pgn-extract's
    /// `--fencomments`).
    ///
    /// ```
    /// use pgnkit_notation::Style;
    /// use pgnkit_pgn::text::GameText;
    /// use pgnkit_pgn::write::{Moves, Writer};
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{MoveWriter, Options, replay_game_with};
    ///
    /// let pgn = b"1. e4 *";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let mut moves = Moves::new(true);
    /// replay_game_with(pgn, &game, &Options::default(), &mut MoveWriter::new(Style::SAN, false, &mut moves).with_fen_notes());
    /// let mut out = Vec::new();
    /// Writer::new().write_game(&mut out, pgn, &game, &GameText::new(pgn, game.span.clone()), &moves);
    /// assert_eq!(
    ///     String::from_utf8(out)?,
    ///     "1. e4 {rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1} *\n\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_fen_notes(mut self) -> MoveWriter<'m, S> {
        self.fen = true;
        self
    }
}

impl<S: MoveSink + ?Sized> Visitor for MoveWriter<'_, S> {
    type Sink = S;

    fn move_writing(&mut self) -> Option<MoveWriting<'_, S>> {
        Some(MoveWriting {
            style: &self.style,
            uci: self.uci.as_ref(),
            fen: self.fen,
            moves: self.moves,
        })
    }

    fn restart(&mut self) {
        self.moves.reset();
    }

    fn on_start(&mut self, start: &Chess) {
        self.moves
            .set_start(start.fullmoves().get(), start.turn() == Color::White);
    }

    fn on_move(&mut self, event: &MoveEvent<'_>) {
        let MoveBuffers { text, uci, note } = self.moves.buffers();
        if self.fen {
            write_position(event.after, PositionFormat::Fen, note);
        }
        write_move_checked(
            event.before,
            &event.played,
            event.after,
            event.check,
            &self.style,
            text,
        );
        if let Some(style) = &self.uci {
            write_move(event.before, &event.played, style, uci);
        }
        self.moves.push(
            event.token,
            event.before.fullmoves().get(),
            event.before.turn() == Color::White,
        );
    }
}
