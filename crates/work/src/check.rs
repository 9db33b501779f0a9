//! `check`'s work on one chunk: every game replayed, its diagnostics
//! selected and located, its `--games` record, and with `--fix` the fixed
//! copy of the chunk ([`pgnkit_replay::fix::fix_game`]).

use pgnkit_pgn::location::count_lines;
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
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = ChunkOut {
        games: Vec::new(),
        totals: Totals::default(),
        lines: count_lines(chunk.bytes()),
        fixed: Fixed::default(),
    };
    // A line too long to show (binary junk, a whole game on one line of
    // megabytes) is named by its line and column only.
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, format);
    let mut index = 0u64;
    let mut resent = Resent::default();
    while reader.read_game(&mut game) {
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
            out.games.push(GameOut {
                index,
                byte: chunk.base.saturating_add(game.span.start),
                diagnostics,
                facts,
                name,
                omitted: (!report.omitted.is_empty()).then(|| Box::new(report.omitted)),
                identity: GameIdentity::of(&game),
            });
        }
        index += 1;
    }
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
        && let Some(d) = resent.see(game, report)
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
