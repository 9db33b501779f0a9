//! `pgnkit report`: check every game and write one self-contained HTML
//! page of what was found, with a board of each game with a problem
//! ([`pgnkit_report::html`]; the work on each chunk is
//! [`pgnkit_work::page::page_chunk`]).

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{PoisonError, RwLock};

use pgnkit_config::{Config, Rules};
use pgnkit_driver::files::{At, Sink};
use pgnkit_replay::{Detail, Options, Selection};
use pgnkit_report::html::Page;
use pgnkit_report::render::Suggestions;
use pgnkit_report::summary::Totals;
use pgnkit_source::{Chunk, Input};
use pgnkit_work::page::{ChunkOut, page_chunk};

use crate::exit::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use crate::flags::ReportArgs;

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

    fn begin(&mut self, path: &str, input: &Input) -> anyhow::Result<()> {
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
    let config = args.settings.read()?;
    let options = Options {
        language: args.input.lang.forced_or(&config),
        suggestions: true,
        // The claims are counted.
        detail: Detail::Full,
        illegal_moves: args.input.illegal.or(&config),
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
        page_chunk(chunk, &options, &selection, &full, args.max_cards)
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
        file.write_all(&html)?;
        file.commit()?;
    }
    if !args.input.quiet() {
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
