//! The games of one chunk replayed as `pgnkit check --games` replays them
//! ([`pgnkit_replay::replay_game_with`], every diagnostic located by
//! [`Locator`]), with each move written in SAN and UCI as `pgnkit convert`
//! writes it ([`MoveWriter`]): what [`crate::game`] and [`crate::table`]
//! are made of.

use pgnkit_notation::Style;
use pgnkit_pgn::write::Moves;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::broadcast::Resent;
use pgnkit_replay::{Code, Encoding, GameReport, MoveWriter, Options, replay_game_with};
use pgnkit_report::{Format, Located, Locator};
use pgnkit_source::Chunk;
use pgnkit_work::check::see_resent;
use shakmaty::{Chess, Move, Position};

/// One game of a chunk, replayed.
pub struct Replayed<'g, 'a> {
    /// The game as read.
    pub game: &'g Game<'a>,
    /// What the replay found (its diagnostics are in `located`).
    pub report: GameReport,
    /// Every move played (main line and variations) in SAN and UCI, by token.
    pub moves: &'g Moves,
    /// The diagnostics, located: game numbers and lines relative to the
    /// chunk (see [`Located::place`]).
    pub located: Vec<Located>,
    /// 0-based index of the game in its chunk.
    pub index: u64,
    /// Byte offset of the game in its input.
    pub byte: usize,
}

/// One ply of the main line.
#[derive(Clone, Copy, Debug)]
pub enum Ply<'m> {
    /// A move, written in SAN and UCI.
    Move {
        /// SAN.
        san: &'m str,
        /// UCI.
        uci: &'m str,
        /// The move.
        played: Move,
    },
    /// A null move (`--`, `Z0`): the side to move passed (a `null-move`
    /// warning).
    Pass,
}

impl Ply<'_> {
    /// SAN (`--` for a null move, as `pgnkit convert` writes it).
    pub fn san(&self) -> &str {
        match self {
            Ply::Move { san, .. } => san,
            Ply::Pass => "--",
        }
    }

    /// UCI (`0000` for a null move).
    pub fn uci(&self) -> &str {
        match self {
            Ply::Move { uci, .. } => uci,
            Ply::Pass => "0000",
        }
    }

    /// The move, `None` for a pass.
    pub fn played(&self) -> Option<Move> {
        match self {
            Ply::Move { played, .. } => Some(*played),
            Ply::Pass => None,
        }
    }
}

impl Replayed<'_, '_> {
    /// The main line replayed, ply by ply: the moves of the report, and
    /// the null moves its `null-move` warnings place between them.
    pub fn main_line(&self) -> Vec<Ply<'_>> {
        let mut passes: Vec<u32> = self
            .located
            .iter()
            .map(|l| &l.diagnostic)
            .filter(|d| d.code == Code::NullMove && !d.variation)
            .filter_map(|d| d.ply)
            .collect();
        passes.sort_unstable();
        let mut passes = passes.into_iter().peekable();
        let mut cursor = 0;
        let mut line = Vec::with_capacity(self.report.moves.len());
        for m in &self.report.moves {
            while passes.next_if(|&p| p as usize == line.len() + 1).is_some() {
                line.push(Ply::Pass);
            }
            if let Some(w) = self.moves.get_next(m.token as usize, &mut cursor) {
                line.push(Ply::Move {
                    san: w.text,
                    uci: w.uci,
                    played: m.played,
                });
            }
        }
        while passes.next_if(|&p| p as usize == line.len() + 1).is_some() {
            line.push(Ply::Pass);
        }
        line
    }

    /// The game's tags, names and values decoded as its text is.
    pub fn tags(&self) -> impl Iterator<Item = (String, String)> + '_ {
        tags(self.game, self.report.encoding)
    }
}

/// The tags of `game`, names and values decoded from `encoding`.
pub fn tags<'g>(
    game: &'g Game<'_>,
    encoding: Encoding,
) -> impl Iterator<Item = (String, String)> + 'g {
    game.tags.iter().map(move |t| {
        let decode = |b: &[u8]| encoding.decode(b).into_owned();
        (decode(t.name), decode(&t.value()))
    })
}

/// What a chunk held besides its games: what numbers the next chunk's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counted {
    /// Games read (comment-only stretches are none).
    pub games: u64,
    /// Line breaks.
    pub lines: usize,
}

/// Replays every game of `chunk` under `options` and shows each to `each`,
/// in order.
pub fn each_game(
    chunk: &Chunk,
    options: &Options,
    mut each: impl FnMut(Replayed<'_, '_>),
) -> Counted {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut moves = Moves::new(true);
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, Format::Json);
    let mut index = 0u64;
    let mut resent = Resent::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let mut writer = MoveWriter::new(Style::SAN, true, &mut moves);
        let mut report = replay_game_with(data, &game, options, &mut writer);
        see_resent(options, &mut resent, &game, &mut report);
        let located = locator.locate(&game, &report, index, |_| true);
        each(Replayed {
            game: &game,
            report,
            moves: &moves,
            located,
            index,
            byte: chunk.base.saturating_add(game.span.start),
        });
        locator.pass(game.span.end);
        index += 1;
    }
    Counted {
        games: index,
        lines: locator.lines_to(chunk.range.end),
    }
}

/// The main-line position after the first `plies` of `line` (each a move,
/// or `None` for a pass), from `start`; `None` beyond the line, or where a
/// pass is not possible (the side to move in check).
pub fn position_after(start: &Chess, line: &[Option<Move>], plies: usize) -> Option<Chess> {
    let mut position = start.clone();
    for ply in line.get(..plies)? {
        position = match ply {
            Some(m) => {
                position.play_unchecked(*m);
                position
            }
            None => position.swap_turn().ok()?,
        };
    }
    Some(position)
}

/// The FEN of the main line's last position (as the game record says it;
/// `None` for a game that could not be set up).
pub fn final_fen(report: &GameReport) -> Option<String> {
    report.fen()
}

/// The FEN of `position`, as pgnkit writes FENs (`convert --to fen`).
pub fn fen(position: &Chess) -> String {
    let mut out = String::new();
    pgnkit_replay::positions::write_position(
        position,
        pgnkit_replay::positions::PositionFormat::Fen,
        &mut out,
    );
    out
}
