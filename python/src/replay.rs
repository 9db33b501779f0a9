//! The games of one chunk replayed as `pgnkit check --games` replays them
//! ([`pgnkit_replay::replay_game_with`], every diagnostic located by
//! [`Locator`]), with each move written in SAN and UCI as `pgnkit convert`
//! writes it ([`MoveWriter`]): what [`crate::game`] and [`crate::table`]
//! are made of.

use pgnkit_notation::Style;
use pgnkit_pgn::location::count_lines;
use pgnkit_pgn::write::{Moves, WrittenMove};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{GameReport, MoveWriter, Options, replay_game_with};
use pgnkit_report::{Format, Located, Locator};
use pgnkit_source::Chunk;
use shakmaty::Chess;

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

impl Replayed<'_, '_> {
    /// The main-line moves, written (SAN in `text`, UCI in `uci`).
    pub fn main_line(&self) -> impl Iterator<Item = WrittenMove<'_>> {
        let mut cursor = 0;
        self.report
            .moves
            .iter()
            .filter_map(move |m| self.moves.get_next(m.token as usize, &mut cursor))
    }

    /// The game's tags, names and values decoded as its text is.
    pub fn tags(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.game.tags.iter().map(|t| {
            let decode = |b: &[u8]| self.report.encoding.decode(b).into_owned();
            (decode(t.name), decode(&t.value()))
        })
    }
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
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let mut writer = MoveWriter::new(Style::SAN, true, &mut moves);
        let report = replay_game_with(data, &game, options, &mut writer);
        let located = locator.locate(&game, &report, index, |_| true);
        each(Replayed {
            game: &game,
            report,
            moves: &moves,
            located,
            index,
            byte: chunk.base.saturating_add(game.span.start),
        });
        index += 1;
    }
    Counted {
        games: index,
        lines: count_lines(chunk.bytes()),
    }
}

/// The main-line position after `ply` plies (`None`: after the last move
/// replayed; a ply beyond it gives `None`).
pub fn position_after(report: &GameReport, ply: Option<u32>) -> Option<Chess> {
    let played = u32::try_from(report.moves.len()).unwrap_or(u32::MAX);
    let ply = ply.unwrap_or(played);
    report
        .position_before(ply.checked_add(1)?)
        .map(|(position, _)| position)
}

/// The FEN of the main line's last position: the one place that says it
/// (to be read from the game record once it carries `fen`).
pub fn final_fen(report: &GameReport) -> Option<String> {
    position_after(report, None).map(|p| fen(&p))
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
