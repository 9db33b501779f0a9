//! `check`'s work on one chunk: every game replayed, its diagnostics
//! selected and located, its `--games` record, and with `--fix` the fixed
//! copy of the chunk ([`pgnkit_replay::fix::fix_game`]).
//!
//! What a chunk's games give waits for the printer until every chunk
//! before it is printed, and a chunk of short games with a problem each,
//! or of games with a warning at every move, gives a hundred times its
//! size in records. [`check_part`] stops once its records weigh
//! [`PART_BUDGET`] and says where the rest of the chunk starts, so that
//! the driver ([`pgnkit_driver::Driver::run_parts`]) holds a bounded
//! number of bounded parts, however many problems the input has.

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::broadcast::Resent;
use pgnkit_replay::fix::{Fixed, fix_game};
use pgnkit_replay::{GameReport, IllegalMoves, Options, Selection, replay_game};
use pgnkit_report::fingerprint::GameIdentity;
use pgnkit_report::games::GameFacts;
use pgnkit_report::summary::Totals;
use pgnkit_report::{Format, Located, Locator};
use pgnkit_source::Chunk;

/// What a worker says about one game.
pub struct GameOut {
    /// 0-based index of the game in its chunk.
    pub index: u64,
    /// Byte offset of the game in its file.
    pub byte: usize,
    /// Located diagnostics, game and line numbers relative to the chunk.
    pub diagnostics: Vec<Located>,
    /// The `--games` record (boxed: a chunk of a million empty games holds
    /// a `GameOut` for each, and few runs ask for it).
    pub facts: Option<Box<GameFacts>>,
    /// "White - Black (Event)".
    pub name: Option<String>,
    /// Diagnostics found beyond those kept (boxed, and only where a game
    /// had more than its limit: the counts by code take half a kilobyte).
    pub omitted: Option<Box<pgnkit_replay::Omitted>>,
    /// What names the game wherever it stands (baselines).
    pub identity: GameIdentity,
}

/// What a worker says about one chunk.
pub struct ChunkOut {
    /// Games with something to print.
    pub games: Vec<GameOut>,
    /// Counts.
    pub totals: Totals,
    /// Line breaks in the chunk.
    pub lines: usize,
    /// The games with their confirmed fixes applied (`--fix`).
    pub fixed: Fixed,
    /// Where the rest of the chunk starts when [`check_part`] stopped
    /// early (an offset in the chunk's data, at a game start).
    pub rest: Option<usize>,
}

/// About how many bytes of records ([`ChunkOut::weight`]) a part of a
/// chunk gathers before [`check_part`] stops at the next game start.
pub const PART_BUDGET: usize = 1 << 20;

impl GameOut {
    /// About how many bytes of memory the record holds: its own size and
    /// that of what it points to (a budget's measure, not an exact one).
    pub fn weight(&self) -> usize {
        let located = |l: &Located| {
            let d = &l.diagnostic;
            size_of::<Located>()
                + d.message.len()
                + d.token.as_ref().map_or(0, String::len)
                + d.rewrite.as_ref().map_or(0, String::len)
                + d.help
                    .iter()
                    .map(|h| size_of::<String>() + h.len())
                    .sum::<usize>()
                + d.suggestions.len() * (size_of::<pgnkit_replay::Suggestion>() + 64)
                + l.source.as_ref().map_or(0, |(text, _)| text.len())
                + l.game_name.as_ref().map_or(0, String::len)
        };
        let facts = self.facts.as_ref().map_or(0, |f| {
            size_of::<GameFacts>()
                + (f.clocks.clk().len() + f.clocks.emt().len()) * 16
                + f.claims.len() * 64
        });
        size_of::<GameOut>()
            + self.diagnostics.iter().map(located).sum::<usize>()
            + facts
            + self.name.as_ref().map_or(0, String::len)
            + self
                .omitted
                .as_ref()
                .map_or(0, |_| size_of::<pgnkit_replay::Omitted>())
    }
}

impl ChunkOut {
    /// About how many bytes of memory the records hold
    /// ([`GameOut::weight`]), the fixed copy included.
    pub fn weight(&self) -> usize {
        self.games.iter().map(GameOut::weight).sum::<usize>()
            + self.fixed.bytes.len()
            + self.fixed.changes.len() * size_of::<pgnkit_replay::fix::Change>()
    }
}

/// Replays the games of one chunk.
pub fn check_chunk(
    chunk: &Chunk,
    options: &Options,
    selection: &Selection,
    format: Format,
    with_games: bool,
    fix: bool,
) -> ChunkOut {
    let what = Work {
        options,
        selection,
        format,
        with_games,
        fix,
    };
    check_part(chunk, &what, usize::MAX)
}

/// What [`check_part`] does with each game.
#[derive(Clone, Copy)]
pub struct Work<'a> {
    /// How the games are replayed.
    pub options: &'a Options,
    /// The codes reported.
    pub selection: &'a Selection,
    /// How diagnostics are located (the source line for humans).
    pub format: Format,
    /// A `--games` record for every game.
    pub with_games: bool,
    /// The fixed copy (`--fix`).
    pub fix: bool,
}

/// Replays the games of one chunk until their records weigh `budget`
/// bytes ([`ChunkOut::weight`]), then up to the next game start where the
/// chunk can be cut ([`pgnkit_pgn::game_starts_near`]): the result covers
/// the chunk up to [`ChunkOut::rest`], which is where the rest starts
/// (none: the chunk's end). A chunk with no such game start after the
/// budget is reached is done whole.
pub fn check_part(chunk: &Chunk, what: &Work<'_>, budget: usize) -> ChunkOut {
    let &Work {
        options,
        selection,
        format,
        with_games,
        fix,
    } = what;
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = ChunkOut {
        games: Vec::new(),
        totals: Totals::default(),
        lines: 0,
        fixed: Fixed::default(),
        rest: None,
    };
    // The weight of the records so far, until the budget is reached. With
    // illegal moves that stand, a part is its whole chunk: a broadcast's
    // game sent again is looked for in the game before it ([`Resent`]),
    // which a cut where the records' weight reaches the budget (it depends
    // on the format) would hide.
    let mut weight =
        (budget != usize::MAX && options.illegal_moves != IllegalMoves::Stand).then_some(0usize);
    // A line too long to show (binary junk, a whole game on one line of
    // megabytes) is named by its line and column only.
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, format);
    let mut index = 0u64;
    let mut resent = Resent::default();
    while reader.read_game(&mut game) {
        if out.rest.is_some_and(|cut| game.span.start >= cut) {
            break;
        }
        if game.is_comment_only() {
            // `%` lines or a lone comment between games: no game, but kept
            // byte for byte in a fixed copy.
            if fix {
                out.fixed
                    .bytes
                    .extend_from_slice(data.get(game.span.clone()).unwrap_or_default());
                out.fixed.bytes.extend_from_slice(b"\n\n");
            }
            continue;
        }
        let mut report = replay_game(data, &game, options);
        see_resent(options, &mut resent, &game, &mut report);
        selection.apply(&mut report.diagnostics, &mut report.omitted);
        if fix {
            fix_game(data, &game, &report, &mut out.fixed);
        }
        let errors = report.errors();
        let warnings = report.warnings();
        out.totals.game(errors, warnings, report.plies);
        out.totals.dead_undecided += u64::from(report.dead_undecided);
        if !report.diagnostics.is_empty() || with_games {
            let diagnostics = locator.locate(&game, &report, index, |_| true);
            let name = diagnostics.first().map_or_else(
                || pgnkit_report::game_name(&game, &report),
                |l| l.game_name.clone(),
            );
            let facts = with_games.then(|| Box::new(game_facts(&game, &report, errors, warnings)));
            let record = GameOut {
                index,
                byte: chunk.base.saturating_add(game.span.start),
                diagnostics,
                facts,
                name,
                omitted: (!report.omitted.is_empty()).then(|| Box::new(report.omitted)),
                identity: GameIdentity::of(&game),
            };
            if let Some(w) = weight.as_mut() {
                *w += record.weight();
            }
            out.games.push(record);
        }
        index += 1;
        if weight.is_some_and(|w| w.saturating_add(out.fixed.bytes.len()) >= budget) {
            // The next game start the chunk can be cut at, if any: the
            // games before it are those of this part.
            weight = None;
            out.rest = pgnkit_pgn::game_starts_near(&data[..chunk.range.end], game.span.end)
                .filter(|&cut| cut < chunk.range.end);
        }
        locator.pass(game.span.end);
    }
    let end = out.rest.unwrap_or(chunk.range.end);
    out.lines = locator.lines_to(end);
    out
}

/// With illegal moves that stand, a broadcast's game sent again (the game
/// before in the chunk, [`Resent`]): its diagnostic first in `report`.
/// `resent` sees the games of a chunk in order.
pub fn see_resent(
    options: &Options,
    resent: &mut Resent,
    game: &Game<'_>,
    report: &mut GameReport,
) {
    if options.illegal_moves == IllegalMoves::Stand
        && let Some(d) = resent.see(game, report.moves.iter().map(|m| m.played))
    {
        report.diagnostics.insert(0, d);
    }
}

/// The `--games` record of a replayed game (`errors` and `warnings` counted
/// after the selection): what `check --games` prints and what the Python
/// package's `Game.record()` gives.
pub fn game_facts(
    game: &Game<'_>,
    report: &GameReport,
    errors: usize,
    warnings: usize,
) -> GameFacts {
    GameFacts {
        plies: report.plies,
        result_tag: report.result_tag.clone(),
        status: report.status,
        result: report.result.map(|r| r.as_str()),
        claims: report.claims.clone(),
        errors,
        warnings,
        language: report.language.code(),
        opening: pgnkit_opening::classify(game, report),
        usage: pgnkit_replay::clock::usage(
            report.time_control.as_ref(),
            &report.clocks,
            pgnkit_replay::clock::Start::of(&report.start),
        ),
        time_control: report.time_control.clone(),
        clocks: report.clocks.clone(),
        fen: report.fen(),
        // Only games with illegal moves that stood have rulings.
        rulings: report.rulings.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::whole_chunk;

    /// Where each diagnostic of `out` is in its file, for a part whose
    /// games and lines start after `games` and `lines`.
    fn placed(out: &ChunkOut, games: u64, lines: usize) -> Vec<(u64, usize, usize, &'static str)> {
        out.games
            .iter()
            .flat_map(|g| {
                g.diagnostics.iter().map(move |l| {
                    (
                        games + g.index,
                        lines + l.line,
                        l.column,
                        l.diagnostic.code.as_str(),
                    )
                })
            })
            .collect()
    }

    #[test]
    fn a_part_holds_a_budget_of_records_however_many_problems_the_chunk_has() {
        // Short games with one error each: records weigh more than the text.
        let game = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n";
        let chunk = whole_chunk(game.repeat(2_000).into_bytes());
        let (options, selection) = (Options::default(), Selection::default());
        let what = Work {
            options: &options,
            selection: &selection,
            format: Format::Human,
            with_games: true,
            fix: true,
        };
        let whole = check_part(&chunk, &what, usize::MAX);
        assert_eq!(whole.rest, None);
        assert_eq!(whole.totals.errors, 2_000);
        let heaviest = whole.games.iter().map(GameOut::weight).max().unwrap_or(0);
        let budget = 16 << 10;
        assert!(whole.weight() > 50 * budget, "{}", whole.weight());
        // Part after part: each under the budget and one game, together
        // the whole chunk's diagnostics, lines and counts.
        let mut part = Chunk {
            data: chunk.data.clone(),
            range: chunk.range.clone(),
            base: 0,
        };
        let (mut games, mut lines, mut parts, mut found, mut fixed) =
            (0, 0, 0, Vec::new(), Vec::new());
        loop {
            let out = check_part(&part, &what, budget);
            assert!(
                out.weight() <= budget + heaviest + game.len(),
                "a part of {} bytes of records",
                out.weight()
            );
            found.extend(placed(&out, games, lines));
            fixed.extend_from_slice(&out.fixed.bytes);
            games += out.totals.games;
            lines += out.lines;
            parts += 1;
            match out.rest {
                Some(rest) => part.range.start = rest,
                None => break,
            }
        }
        assert!(parts > 50, "{parts} parts");
        assert_eq!(found, placed(&whole, 0, 0));
        assert_eq!((games, lines), (whole.totals.games, whole.lines));
        assert_eq!(fixed, whole.fixed.bytes);
    }
}
