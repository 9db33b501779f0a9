//! `pgnkit search`: print the games that match, using the index.
//!
//! With an up-to-date `FILE.pgnkit-index`, a search reads only the index
//! and the bytes of the matching games. Without one it scans the file
//! (in parallel, like `check`) with the very same filters, and says so on
//! standard error. A stale or corrupted index is refused, never used. The
//! matches are printed by [`pgnkit_report::search`].

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use memmap2::Mmap;
use pgnkit_index::{
    Date, Eco, Filter, Fingerprint, GameFacts, Index, IndexError, Needle, Outcome, fen_key,
    index_path,
};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::replay_game;
use pgnkit_report::search::{GameRecord, Output, Printer, summary_line};

use crate::args::{InputLang, input_lang_help, parse_input_lang};
use crate::driver::{Driver, Progress};
use crate::index::replay_options;
use crate::input::{Chunk, Input};
use crate::{EXIT_OK, EXIT_PROBLEMS};

/// `pgnkit search`.
///
/// Filters combine with AND. Names match case-insensitive substrings. A
/// partial date (`1972.??.??`) matches a range when any day it can be lies
/// in it. Exit status: 0 when a game matched, 1 when none did, 2 on errors.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Filters combine with AND. With an up-to-date FILE.pgnkit-index \
(`pgnkit index FILE`) only the index and the matching games are read; without one the \
file is scanned, with the same answers. A stale or corrupted index is refused.\n\
Exit status: 0 when a game matched, 1 when none did, 2 when the search could not be done."
)]
pub struct SearchArgs {
    /// The PGN file to search (`-` or none: standard input, scanned).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: String,
    /// White's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub white: Option<String>,
    /// Black's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub black: Option<String>,
    /// White's or Black's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub player: Option<String>,
    /// The Event tag contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub event: Option<String>,
    /// The Site tag contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub site: Option<String>,
    /// The Result tag is R: 1-0, 0-1, 1/2-1/2 (or draw), *.
    #[arg(long, value_name = "R", value_parser = Outcome::parse_query)]
    pub result: Option<Outcome>,
    /// The ECO code lies in RANGE: B90, B9 (B90-B99), B (B00-B99), A00-B99.
    #[arg(long, value_name = "RANGE", value_parser = Eco::parse_range)]
    pub eco: Option<(Eco, Eco)>,
    /// The game can be on or after D (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    pub date_from: Option<Date>,
    /// The game can be on or before D (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    pub date_to: Option<Date>,
    /// Both players are rated N or more (WhiteElo, BlackElo).
    #[arg(long, value_name = "N")]
    pub min_elo: Option<u16>,
    /// The position occurs in the main line (side to move, castling rights
    /// and a legal en passant capture count; the move counters do not).
    #[arg(long, value_name = "FEN", value_parser = fen_key)]
    pub fen: Option<u64>,
    /// Print at most N games (the first N in file order).
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

fn parse_date(s: &str) -> Result<Date, String> {
    let d = Date::parse(s);
    if d.is_known() {
        Ok(d)
    } else {
        Err(format!("bad date `{s}`: use YYYY.MM.DD, YYYY.MM or YYYY"))
    }
}

/// The filter the flags describe.
pub fn filter(args: &SearchArgs) -> Filter {
    let needle = |s: &Option<String>| s.as_deref().map(Needle::new);
    Filter {
        white: needle(&args.white),
        black: needle(&args.black),
        player: needle(&args.player),
        event: needle(&args.event),
        site: needle(&args.site),
        outcome: args.result,
        eco: args.eco,
        date_from: args.date_from,
        date_to: args.date_to,
        min_elo: args.min_elo,
        position: args.fen,
    }
}

/// What the flags ask to print.
fn output(args: &SearchArgs) -> Output {
    match (args.count, args.format) {
        (true, _) => Output::Count,
        (false, SearchFormat::Pgn) => Output::Pgn,
        (false, SearchFormat::Json) => Output::Json,
    }
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

/// Runs `pgnkit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let filter = filter(args);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut printer = Printer::new(&mut out, output(args));
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
                if let Err(e) = search_index(&index, path, &filter, args.limit, &mut printer) {
                    match e.downcast_ref::<IndexError>() {
                        Some(e) => bail!("{e}\n{}", rebuild_hint(file)),
                        None => return Err(e),
                    }
                }
                return Ok(finish(&mut printer, file, true, started, args.quiet)?);
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
    search_scan(args, &filter, &mut printer)?;
    Ok(finish(&mut printer, file, false, started, args.quiet)?)
}

fn rebuild_hint(file: &str) -> String {
    format!(
        "help: `pgnkit index {file}` rebuilds it (or add `--reindex` to this search); \
         `--scan` searches without it"
    )
}

fn search_index(
    index: &Index,
    pgn: &Path,
    filter: &Filter,
    limit: Option<u64>,
    printer: &mut Printer<'_>,
) -> anyhow::Result<()> {
    let found = index.search(filter, limit)?;
    if printer.output() == Output::Count {
        printer.count(found.len() as u64);
        return Ok(());
    }
    index.verify_games()?;
    let file = pgn.to_string_lossy();
    match printer.output() {
        Output::Json => {
            index.verify_strings()?;
            for g in found {
                let facts = index.game(g).facts();
                printer.json(&GameRecord::from_facts(&file, u64::from(g) + 1, &facts))?;
            }
        }
        Output::Pgn | Output::Count => {
            if found.is_empty() {
                return Ok(());
            }
            let f = File::open(pgn).with_context(|| format!("cannot read `{file}`"))?;
            // SAFETY: a read-only private map of the PGN file, as the input
            // module maps it; only the matching games' pages are touched.
            #[allow(unsafe_code)]
            let map = unsafe { Mmap::map(&f) }.with_context(|| format!("cannot map `{file}`"))?;
            for g in found {
                let entry = index.game(g);
                let start = usize::try_from(entry.offset()).unwrap_or(usize::MAX);
                let end = start.saturating_add(entry.length() as usize);
                let Some(bytes) = map.get(start..end) else {
                    bail!(
                        "the index of `{file}` points past its end (game {}); rebuild it with `pgnkit index {file}`",
                        u64::from(g) + 1
                    );
                };
                printer.pgn(bytes)?;
            }
        }
    }
    Ok(())
}

/// A match found by a scan.
struct ScanHit {
    /// 0-based index of the game in its chunk.
    index: u64,
    /// The game's span in the chunk's data.
    span: std::ops::Range<usize>,
    /// The facts, for `--format json`.
    facts: Option<GameFacts<'static>>,
}

struct ScanOut {
    games: u64,
    hits: Vec<ScanHit>,
}

/// Tests every game of a chunk, replaying it only when needed (a position
/// filter, or JSON output with plies and status).
fn scan_chunk(
    chunk: &Chunk,
    filter: &Filter,
    options: &pgnkit_replay::Options,
    json: bool,
) -> ScanOut {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = ScanOut {
        games: 0,
        hits: Vec::new(),
    };
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue; // `%` lines or a lone comment between games: no game
        }
        let index = out.games;
        out.games += 1;
        let mut facts = GameFacts::new(data, chunk.base, &game, None);
        if !filter.matches(&mut facts) {
            continue;
        }
        if filter.position.is_some() || json {
            let report = replay_game(data, &game, options);
            if let Some(key) = filter.position
                && !report.keys.contains(&key)
            {
                continue;
            }
            facts = GameFacts::new(data, chunk.base, &game, Some(&report));
        }
        out.hits.push(ScanHit {
            index,
            span: game.span.clone(),
            facts: json.then(|| facts.into_owned()),
        });
    }
    out
}

/// The scan stopped because `--limit` was reached.
#[derive(Debug)]
struct LimitReached;

impl std::fmt::Display for LimitReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("limit reached")
    }
}

impl std::error::Error for LimitReached {}

fn search_scan(
    args: &SearchArgs,
    filter: &Filter,
    printer: &mut Printer<'_>,
) -> anyhow::Result<()> {
    let limit = args.limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(());
    }
    let input = Input::open(&args.file)?;
    let name = input.name.clone();
    let progress = Progress::new(args.quiet, input.len);
    let driver = Driver::new(args.jobs)?;
    let options = replay_options(args.input_lang);
    let json = printer.output() == Output::Json;
    let mut games_before = 0u64;
    let result = driver.run(
        input,
        &progress,
        |chunk| scan_chunk(chunk, filter, &options, json),
        |chunk, found| {
            for hit in found.hits {
                let number = games_before + hit.index + 1;
                match &hit.facts {
                    Some(f) => printer.json(&GameRecord::from_facts(&name, number, f))?,
                    None => printer.pgn(chunk.data.get(hit.span).unwrap_or_default())?,
                }
                if printer.matched() >= limit {
                    return Err(LimitReached.into());
                }
            }
            games_before += found.games;
            progress.games(games_before);
            Ok(())
        },
    );
    progress.finish();
    match result {
        Err(e) if e.is::<LimitReached>() => Ok(()),
        other => other,
    }
}
