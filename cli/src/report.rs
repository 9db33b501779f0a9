//! `pgnkit report`: check every game and write one self-contained HTML
//! page of what was found, with a board of each game with a problem
//! ([`pgnkit_report::html`]).

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{PoisonError, RwLock};

use clap::Args;

use pgnkit_config::{Config, Rules};
use pgnkit_pgn::location::count_lines;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Detail, Options, Selection, replay_game};
use pgnkit_report::html::{Card, DEFAULT_MAX_CARDS, Page, Tally};
use pgnkit_report::render::Suggestions;
use pgnkit_report::summary::Totals;
use pgnkit_report::{Format, Locator};

use crate::args::InputArgs;
use crate::input::Chunk;
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use pgnkit_driver::files::{At, Sink};

/// `pgnkit report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// The HTML file to write (replaced atomically; `-`: standard output).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: String,
    /// The most games given a card (the first ones with a problem); the
    /// page says how many were left out.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CARDS)]
    pub max_cards: u64,
    /// The settings file (default: the first `pgnkit.toml` in the current
    /// folder or above it), as for `check`: its rules select the problems.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Read no settings file.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
}

/// What a worker found in one chunk.
pub struct ChunkOut {
    /// The counts of its games.
    tally: Tally,
    /// As `check` counts them.
    totals: Totals,
    /// The cards of its games with a problem (0-based index in the chunk).
    cards: Vec<(u64, Card)>,
    /// Games with a problem left without a card: the page was full.
    unmade: u64,
    /// Line breaks in the chunk.
    lines: usize,
}

/// Replays the games of one chunk, making a card for each game with a
/// problem unless `full` says the page has no room left; at most
/// `max_cards` (the page keeps no more, and the first ones), so a chunk of
/// a million faulty games holds a page's worth of cards, not a million.
fn report_chunk(
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
        lines: count_lines(chunk.bytes()),
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
        index += 1;
    }
    out
}

/// Fills the page, chunk after chunk.
struct Filler<'a> {
    page: Page,
    full: &'a AtomicBool,
    config: &'a Config,
    selection: &'a RwLock<Selection>,
}

impl Sink<ChunkOut> for Filler<'_> {
    type Totals = Totals;

    fn chunk(&mut self, at: &At<'_>, _: &Chunk, c: ChunkOut) -> anyhow::Result<(Totals, usize)> {
        self.page.tally(&c.tally);
        for (index, card) in c.cards {
            self.page
                .card(at.name, at.game(index), |n| at.line(n), card);
        }
        self.page.left_out(c.unmade);
        if !self.page.has_room() {
            self.full.store(true, Ordering::Relaxed);
        }
        Ok((c.totals, c.lines))
    }

    fn begin(&mut self, path: &str, input: &crate::input::Input) -> anyhow::Result<()> {
        let selection = self
            .config
            .selection_for(Path::new(path), &Rules::default());
        *self
            .selection
            .write()
            .unwrap_or_else(PoisonError::into_inner) = selection;
        self.page.file(&input.name);
        Ok(())
    }

    fn failure(&mut self, path: &str, _: Option<&str>, e: &anyhow::Error) -> io::Result<()> {
        let message = format!("{e:#}");
        eprintln!("pgnkit: error: {message}");
        self.page.failure(path, &message);
        Ok(())
    }
}

/// Runs `pgnkit report`.
pub fn run(args: &ReportArgs) -> anyhow::Result<u8> {
    let config = crate::check::settings(args.config.as_deref(), args.no_config)?;
    let options = Options {
        language: match args.input.input_lang {
            Some(l) => l.forced(),
            None => config.input_lang.flatten(),
        },
        suggestions: true,
        // The claims are counted.
        detail: Detail::Full,
    };
    let selection = RwLock::new(Selection::default());
    let full = AtomicBool::new(args.max_cards == 0);
    let mut filler = Filler {
        page: Page::new(args.max_cards, Suggestions::Best),
        full: &full,
        config: &config,
        selection: &selection,
    };
    let work = |chunk: &Chunk| {
        let selection = *selection.read().unwrap_or_else(PoisonError::into_inner);
        report_chunk(chunk, &options, &selection, &full, args.max_cards)
    };
    let run = pgnkit_driver::files::run(&args.input.inputs(), work, &mut filler)?;
    let mut html = Vec::new();
    filler.page.write(&mut html)?;
    if args.output == "-" {
        let mut out = io::stdout().lock();
        out.write_all(&html)?;
        out.flush()?;
    } else {
        let mut file = pgnkit_driver::output::OutputFile::create(Path::new(&args.output))?;
        file.write_all(&html)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", args.output))?;
        file.commit()?;
    }
    if !args.input.quiet {
        eprintln!(
            "{}",
            pgnkit_report::summary::check_line(run.files, &run.totals, run.bytes, run.seconds)
        );
    }
    Ok(if run.failed {
        EXIT_FAILURE
    } else if run.totals.errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}
