//! `pgnkit search`: print the games that match, using the index.
//!
//! With an up-to-date `FILE.pgnkit-index`, a search reads only the index
//! and the bytes of the matching games. Without one it scans the file
//! (in parallel, like `check`) with the very same filters, and says so on
//! standard error. A stale or corrupted index is refused, never used. The
//! matches are printed by [`pgnkit_report::search`].

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use pgnkit_atomic::Mapped;
use pgnkit_driver::output::OutputFile;
use pgnkit_index::order::Order;
use pgnkit_index::{Fingerprint, Index, IndexError, Query, index_path};
use pgnkit_replay::Detail;
use pgnkit_report::search::{GameRecord, Output, Printer, summary_line};

use crate::args::{InputLang, input_lang_help, parse_input_lang};
use crate::index::replay_options;
use crate::query::{FilterArgs, query};
use crate::scan;
use crate::{EXIT_OK, EXIT_PROBLEMS};

/// `pgnkit search`.
///
/// Filters combine with AND; `--or` adds groups of filters, any of which
/// may match. Names match case-insensitive substrings. A partial date
/// (`1972.??.??`) matches a range when any day it can be lies in it. Exit
/// status: 0 when a game matched, 1 when none did, 2 on errors.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Filters combine with AND; each --or \"FLAGS\" adds a group of filters, \
and a game matches when it passes every filter of one group (--invert: of none). With an \
up-to-date FILE.pgnkit-index (`pgnkit index FILE`) the index answers what it stores (names, \
event, site, round, result, the ECO tag, the opening the moves reach, date, ratings, plies, \
status, errors, positions) and only the \
games that pass are read; --tag, --annotator, --claim, --moves, --ply, --material and \
--fen-pattern then read (and replay) those games. Without an index the file is scanned, with \
the same answers. A stale or corrupted index is refused.\n\
Exit status: 0 when a game matched, 1 when none did, 2 when the search could not be done."
)]
pub struct SearchArgs {
    /// The PGN file to search (`-` or none: standard input, scanned).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: String,
    /// The filters of the first group.
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Or the games that pass these filters: a group of filter flags in one
    /// argument, e.g. `--or "--black Carlsen --result 0-1"`. Repeat for
    /// more groups.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub or: Vec<String>,
    /// Select the games that do not match instead.
    #[arg(long)]
    pub invert: bool,
    /// Also write the games not selected to FILE (as they stand in the
    /// file), in the same pass.
    #[arg(long, value_name = "FILE")]
    pub non_matching: Option<PathBuf>,
    /// Print the matches in this order: date (earliest first), white
    /// (White's name), elo (highest mean rating first), plies (fewest
    /// first); ties and games without the field keep file order, last.
    #[arg(long, value_name = "KEY", value_parser = Order::parse)]
    pub sort: Option<Order>,
    /// Skip the first N matches (after sorting).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: u64,
    /// Print at most N games (the first N in file order, or in --sort order).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print only the number of matching games.
    #[arg(long)]
    pub count: bool,
    /// Output: the games' original bytes (`pgn`, default), or one JSON
    /// object a line with the indexed fields and byte offsets (`json`).
    #[arg(long, value_enum, default_value = "pgn")]
    pub format: SearchFormat,
    /// (Re)build the index first (`pgnkit index FILE`), then search it.
    #[arg(long, conflicts_with = "scan")]
    pub reindex: bool,
    /// Do not use the index: scan the file (same answers, slower).
    #[arg(long)]
    pub scan: bool,
    /// Piece-letter language when games are replayed (indexing or
    /// scanning): [`input_lang_help`].
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang,
          help = input_lang_help())]
    pub input_lang: InputLang,
    /// Worker threads for scanning and indexing (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar, no notes and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `search --format`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFormat {
    /// The matching games as they stand in the file.
    Pgn,
    /// One JSON object per game: the indexed fields and byte offsets.
    Json,
}

/// What the flags ask to print.
fn output(args: &SearchArgs) -> Output {
    match (args.count, args.format) {
        (true, _) => Output::Count,
        (false, SearchFormat::Pgn) => Output::Pgn,
        (false, SearchFormat::Json) => Output::Json,
    }
}

/// The replay options of a search: those of the index, with the draw
/// claims kept when a filter asks for them.
pub fn search_options(args: &SearchArgs, query: &Query) -> pgnkit_replay::Options {
    let mut options = replay_options(args.input_lang);
    if query.needs_claims() {
        options.detail = Detail::Full;
    }
    options
}

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
pub fn open_rest(path: &Option<PathBuf>) -> anyhow::Result<Option<OutputFile>> {
    path.as_deref().map(OutputFile::create).transpose()
}

/// Runs `pgnkit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let query = query(&args.filters, &args.or, args.invert)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut printer = Printer::new(&mut out, output(args));
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
    if file == "-" && args.reindex {
        bail!("--reindex needs a file: standard input cannot be indexed");
    }
    if file != "-" && !args.scan {
        if args.reindex {
            crate::index::build(
                file,
                args.input_lang,
                args.jobs,
                crate::index::DEFAULT_MEMORY,
                args.quiet,
            )?;
        }
        let path = Path::new(file);
        let now = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
        match Index::open(&index_path(path), path, &now) {
            Ok(index) => {
                if let Err(e) =
                    search_index(&index, path, query, args, printer, rest.as_deref_mut())
                {
                    match e.downcast_ref::<IndexError>() {
                        Some(e) => bail!("{e}\n{}", rebuild_hint(file)),
                        None => return Err(e),
                    }
                }
                if let Some(r) = rest.as_deref_mut() {
                    r.finish(file, true, 0.0)?;
                }
                return Ok(finish(printer, file, true, started, args.quiet)?);
            }
            Err(IndexError::Missing(_)) => {
                if !args.quiet {
                    if crate::index::check_indexable(file).is_ok() {
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
    scan::search_scan(args, query, printer, rest.as_deref_mut())?;
    if let Some(r) = rest {
        r.finish(file, false, 0.0)?;
    }
    Ok(finish(printer, file, false, started, args.quiet)?)
}

fn rebuild_hint(file: &str) -> String {
    format!(
        "help: `pgnkit index {file}` rebuilds it (or add `--reindex` to this search); \
         `--scan` searches without it"
    )
}

/// The bytes of game `g` of `index` in the mapped PGN file.
fn game_bytes<'m>(index: &Index, map: &'m [u8], file: &str, g: u32) -> anyhow::Result<&'m [u8]> {
    let entry = index.game(g);
    let start = usize::try_from(entry.offset()).unwrap_or(usize::MAX);
    let end = start.saturating_add(entry.length() as usize);
    match map.get(start..end) {
        Some(bytes) => Ok(bytes),
        None => bail!(
            "the index of `{file}` points past its end (game {}); rebuild it with `pgnkit index {file}`",
            u64::from(g) + 1
        ),
    }
}

fn search_index(
    index: &Index,
    pgn: &Path,
    query: &Query,
    args: &SearchArgs,
    printer: &mut Printer<'_>,
    rest: Option<&mut Printer<'_>>,
) -> anyhow::Result<()> {
    let file = pgn.to_string_lossy();
    let output = printer.output();
    let needs_map = output == Output::Pgn || rest.is_some() || query.needs_game();
    let map = if needs_map && index.games() > 0 {
        let f = File::open(pgn).with_context(|| format!("cannot read `{file}`"))?;
        // Only the pages of the games read are touched; a truncation by
        // another program meanwhile is reported by name (see `Mapped`).
        let map = Mapped::new(&f, &file).with_context(|| format!("cannot map `{file}`"))?;
        Some(map)
    } else {
        None
    };
    let map: &[u8] = map.as_deref().unwrap_or_default();
    let early = args.sort.is_none() && rest.is_none();
    let limit = args
        .limit
        .filter(|_| early)
        .map(|l| l.saturating_add(args.offset));
    let options = search_options(args, query);
    let mut found = index.search_query(query, Some(map), &options, limit)?;
    if let Some(r) = rest {
        index.verify_games()?;
        let mut next = found.iter().copied().peekable();
        for g in 0..index.games() as u32 {
            if next.peek() == Some(&g) {
                next.next();
            } else {
                r.pgn(game_bytes(index, map, &file, g)?)?;
            }
        }
    }
    if let Some(order) = args.sort {
        index.verify_games()?;
        index.verify_strings()?;
        found.sort_by_cached_key(|&g| (order.key(&index.game(g).facts()), g));
    }
    let selected = found
        .into_iter()
        .skip(usize::try_from(args.offset).unwrap_or(usize::MAX))
        .take(usize::try_from(args.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX));
    match output {
        Output::Count => printer.count(selected.count() as u64),
        Output::Json => {
            index.verify_games()?;
            index.verify_strings()?;
            for g in selected {
                let facts = index.game(g).facts();
                printer.json(&GameRecord::from_facts(&file, u64::from(g) + 1, &facts))?;
            }
        }
        Output::Pgn => {
            index.verify_games()?;
            for g in selected {
                printer.pgn(game_bytes(index, map, &file, g)?)?;
            }
        }
    }
    Ok(())
}
