//! `pgnkit search`: print the games that match, using the index.
//!
//! With an up-to-date `FILE.pgnkit-index`, a search reads only the index
//! and the bytes of the matching games. Without one it scans the file
//! (in parallel, like `check`) with the very same filters, and says so on
//! standard error. A stale or corrupted index is refused, never used. The
//! search is [`pgnkit_work::search::Search`]'s; the matches are printed by
//! [`pgnkit_report::search`].

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use pgnkit_driver::output::OutputFile;
use pgnkit_index::{Fingerprint, Index, IndexError, Query, index_path};
use pgnkit_report::search::{Output, Printer, summary_line};
use pgnkit_work::index::{DEFAULT_MEMORY, build, check_indexable};
use pgnkit_work::search::{self, Search};

use crate::exit::{EXIT_OK, EXIT_PROBLEMS};
use crate::flags::SearchArgs;

/// Ends the output of a search of `file` (`indexed`: by its index) begun at
/// `started`, says on standard error what was found (PGN output), and gives
/// the exit status.
fn finish(
    printer: &mut Printer<'_>,
    file: &str,
    indexed: bool,
    started: Instant,
    quiet: bool,
) -> io::Result<u8> {
    let seconds = started.elapsed().as_secs_f64();
    printer.finish(file, indexed, seconds)?;
    if !quiet && printer.output() == Output::Pgn {
        eprintln!(
            "{}",
            summary_line(printer.matched(), file, indexed, seconds)
        );
    }
    Ok(if printer.matched() > 0 {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    })
}

/// The file `--non-matching` writes to: put in place only when the search
/// succeeded ([`OutputFile`]).
fn open_rest(path: &Option<PathBuf>) -> anyhow::Result<Option<OutputFile>> {
    path.as_deref().map(OutputFile::create).transpose()
}

/// Runs `pgnkit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let query = args.query()?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut printer = Printer::new(&mut out, args.output());
    let mut rest_file = open_rest(&args.non_matching)?;
    let mut rest = rest_file
        .as_mut()
        .map(|f| Printer::new(f as &mut dyn io::Write, Output::Pgn));
    let status = search(args, &query, &mut printer, rest.as_mut(), started)?;
    if let Some(f) = rest_file {
        f.commit()?;
    }
    Ok(status)
}

/// The search of `run`, the games not selected given to `rest`.
fn search(
    args: &SearchArgs,
    query: &Query,
    printer: &mut Printer<'_>,
    mut rest: Option<&mut Printer<'_>>,
    started: Instant,
) -> anyhow::Result<u8> {
    let file = args.file.as_str();
    let search = Search {
        query,
        options: search::options(args.lang.forced(), args.illegal.given(), query),
        order: args.sort,
        offset: args.offset,
        limit: args.limit,
        jobs: args.run.jobs,
        quiet: args.run.quiet(),
    };
    if file == "-" && args.reindex {
        bail!("--reindex needs a file: standard input cannot be indexed");
    }
    if file != "-" && !args.scan {
        if args.reindex {
            build(
                file,
                &pgnkit_work::index::options(args.lang.forced(), args.illegal.given()),
                args.run.jobs,
                DEFAULT_MEMORY,
                args.run.quiet(),
            )?;
        }
        let path = Path::new(file);
        let now = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
        match Index::open(&index_path(path), path, &now) {
            Ok(index) => {
                if let Err(e) = search.with_index(&index, path, printer, rest.as_deref_mut()) {
                    match e.downcast_ref::<IndexError>() {
                        Some(e) => bail!("{e}\n{}", rebuild_hint(file)),
                        None => return Err(e),
                    }
                }
                if let Some(r) = rest.as_deref_mut() {
                    r.finish(file, true, 0.0)?;
                }
                return Ok(finish(printer, file, true, started, args.run.quiet())?);
            }
            Err(IndexError::Missing(_)) => {
                if !args.run.quiet() {
                    if check_indexable(file).is_ok() {
                        eprintln!(
                            "pgnkit: note: `{file}` has no index, so the whole file is scanned; \
                             `pgnkit index {file}` would make searches fast"
                        );
                    } else {
                        eprintln!(
                            "pgnkit: note: `{file}` has no index, so the whole file is scanned"
                        );
                    }
                }
            }
            Err(e) => bail!("{e}\n{}", rebuild_hint(file)),
        }
    }
    search.scan(file, printer, rest.as_deref_mut())?;
    if let Some(r) = rest {
        r.finish(file, false, 0.0)?;
    }
    Ok(finish(printer, file, false, started, args.run.quiet())?)
}

fn rebuild_hint(file: &str) -> String {
    format!(
        "help: `pgnkit index {file}` rebuilds it (or add `--reindex` to this search); \
         `--scan` searches without it"
    )
}
