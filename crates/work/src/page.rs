//! `report`'s work on one chunk: every game replayed and counted for the
//! HTML page ([`pgnkit_report::html`]), and a card made for each game with
//! a problem while the page has room.

use std::sync::atomic::{AtomicBool, Ordering};

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, Selection, replay_game};
use pgnkit_report::html::{Card, Tally};
use pgnkit_report::render::Suggestions;
use pgnkit_report::summary::Totals;
use pgnkit_report::{Format, Locator};
use pgnkit_source::Chunk;

/// What a worker found in one chunk.
pub struct ChunkOut {
    /// The counts of its games.
    pub tally: Tally,
    /// As `check` counts them.
    pub totals: Totals,
    /// The cards of its games with a problem (0-based index in the chunk).
    pub cards: Vec<(u64, Card)>,
    /// Games with a problem left without a card: the page was full.
    pub unmade: u64,
    /// Line breaks in the chunk.
    pub lines: usize,
}

/// Replays the games of one chunk, making a card for each game with a
/// problem unless `full` says the page has no room left; at most
/// `max_cards` (the page keeps no more, and the first ones), so a chunk of
/// a million faulty games holds a page's worth of cards, not a million.
pub fn page_chunk(
    chunk: &Chunk,
    options: &Options,
    selection: &Selection,
    full: &AtomicBool,
    max_cards: u64,
) -> ChunkOut {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, Format::Human);
    let mut out = ChunkOut {
        tally: Tally::default(),
        totals: Totals::default(),
        cards: Vec::new(),
        unmade: 0,
        lines: 0,
    };
    let mut index = 0u64;
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let mut report = replay_game(data, &game, options);
        selection.apply(&mut report.diagnostics, &mut report.omitted);
        out.totals
            .game(report.errors(), report.warnings(), report.plies);
        out.tally.game(&report);
        if !report.diagnostics.is_empty() {
            if full.load(Ordering::Relaxed) || out.cards.len() as u64 >= max_cards {
                out.unmade += 1;
            } else {
                let located = locator.locate(&game, &report, index, |_| true);
                out.cards
                    .push((index, Card::new(&game, &report, located, Suggestions::Best)));
            }
        }
        locator.pass(game.span.end);
        index += 1;
    }
    out.lines = locator.lines_to(chunk.range.end);
    out
}
