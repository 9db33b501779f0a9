//! `pgnkit dedup`: duplicate games across files, whatever their notation
//! or language ([`pgnkit_dedup`] holds the rules; this is flags and glue).
//!
//! The inputs (and the `--against` databases) are read in parallel by the
//! driver; each game is replayed once and kept as a [`GameRecord`] of
//! about 90 bytes. With `--prefix` the inputs are read and replayed a
//! second time (a game's prefixes are looked up among every game's whole
//! line); with `-o` or `--duplicates` they are read once more to copy the
//! games' bytes. Standard input can be read once only: `-` is refused with
//! those flags.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::bail;
use clap::Args;
use pgnkit_dedup::cluster::{self, Options as Kinds};
use pgnkit_dedup::report::{self, Counts};
use pgnkit_dedup::{GameRecord, prefix_matches};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

use crate::args::{Format, InputLang, input_lang_help, parse_input_lang};
use crate::index::{parse_size, replay_options};
use crate::input::{CHUNK_SIZE, Chunk, Input};
use crate::{EXIT_OK, EXIT_PROBLEMS};
use pgnkit_driver::output::OutputFile;
use pgnkit_driver::{Driver, Progress};

/// `pgnkit dedup`.
#[derive(Args, Debug, Clone)]
pub struct DedupArgs {
    /// PGN files (plain or compressed: zstd, gzip, bzip2; `-`: standard input).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<String>,
    /// Games of the inputs already in this database (a PGN file, plain or
    /// compressed; repeatable): its games are kept first and never written.
    #[arg(long, value_name = "KNOWN")]
    pub against: Vec<String>,
    /// Write the kept games (and the games without duplicate) to FILE, byte
    /// for byte as they were.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// Write the games not kept to FILE, byte for byte as they were.
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<String>,
    /// Also count the same moves with contradicting tags (White, Black,
    /// Event, Site, Round, Date, Result) as duplicates (kind `contradicting-tags`).
    #[arg(long)]
    pub contradicting_tags: bool,
    /// Also count a game whose main line is a proper prefix of another's,
    /// with tags that agree, as a duplicate (kind `prefix`; reads the inputs twice).
    #[arg(long)]
    pub prefix: bool,
    /// Also count games that reach the same position at ply N as duplicates
    /// (kind `fuzzy`, pgn-extract's --fuzzydepth).
    #[arg(long, value_name = "N")]
    pub fuzzy_depth: Option<u32>,
    /// Output format (default: human on a terminal, json otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Piece-letter language of the input ([`input_lang_help`]).
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang,
          help = input_lang_help())]
    pub input_lang: InputLang,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Memory for the games' records (about 100 bytes a game), as bytes or
    /// with a suffix K, M, G: a run with more games stops with an error.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub memory: u64,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Bytes a record takes in memory, its share of the tables included.
const RECORD_BYTES: u64 = 128;

/// The games of one chunk, each replayed once: (its index in the chunk, record).
fn records_of(chunk: &Chunk, options: &Options, depth: Option<u32>) -> Vec<GameRecord> {
    replayed(chunk, options, |data, game, report| {
        GameRecord::new(data, chunk.base, game, report, depth)
    })
}

/// `f` of each game of `chunk` (`%` lines and lone comments between games
/// are none), replayed, in order.
fn replayed<T>(
    chunk: &Chunk,
    options: &Options,
    mut f: impl FnMut(&[u8], &Game<'_>, &pgnkit_replay::GameReport) -> T,
) -> Vec<T> {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(data, &game, options);
        out.push(f(data, &game, &report));
    }
    out
}

/// Calls `each` with every chunk of every input of `names` (`first`: the
/// number of the first), in order, with the work's result.
fn read_all<T: Send>(
    names: &[String],
    first: usize,
    driver: &Driver,
    quiet: bool,
    work: impl Fn(&Chunk) -> T + Sync,
    mut each: impl FnMut(u32, &Chunk, T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (i, name) in names.iter().enumerate() {
        let file = u32::try_from(first + i)?;
        let input = Input::open(name).map_err(|e| anyhow::anyhow!("cannot read `{name}`: {e}"))?;
        let progress = Progress::new(quiet, input.len);
        driver.run(input, &progress, &work, |chunk, t| each(file, chunk, t))?;
        progress.finish();
    }
    Ok(())
}

/// Runs `pgnkit dedup`.
pub fn run(args: &DedupArgs) -> anyhow::Result<u8> {
    let rereads = args.prefix || args.output.is_some() || args.duplicates.is_some();
    if rereads && args.files.iter().chain(&args.against).any(|f| f == "-") {
        bail!(
            "--prefix, -o and --duplicates read the inputs again: save standard input to a file first"
        );
    }
    let driver = Driver::new(args.jobs)?;
    let options = replay_options(args.input_lang);
    let depth = args.fuzzy_depth;
    let names: Vec<String> = args.against.iter().chain(&args.files).cloned().collect();
    let limit = args.memory / RECORD_BYTES;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut games_in: Vec<u64> = vec![0; names.len()];
    let work = |chunk: &Chunk| records_of(chunk, &options, depth);
    read_all(&names, 0, &driver, args.quiet, work, |file, _, batch| {
        for mut r in batch {
            let n = &mut games_in[file as usize];
            *n = n.saturating_add(1);
            r.source.file = file;
            r.source.game = *n;
            r.known = (file as usize) < args.against.len();
            records.push(r);
        }
        if records.len() as u64 > limit {
            bail!(
                "more than {limit} games: their records need more than --memory {} bytes; give more --memory",
                args.memory
            );
        }
        Ok(())
    })?;
    // Where each file's records start.
    let mut starts = Vec::with_capacity(names.len());
    let mut total = 0usize;
    for &n in &games_in {
        starts.push(total);
        total = total.saturating_add(usize::try_from(n)?);
    }
    let mut prefixes = Vec::new();
    if args.prefix {
        let lines = cluster::full_lines(&records);
        let (records, lines) = (&records, &lines);
        let work = |chunk: &Chunk| prefix_pass(chunk, &options, records, lines);
        let mut seen = vec![0usize; names.len()];
        read_all(&names, 0, &driver, true, work, |file, _, found| {
            let f = file as usize;
            for shorts in found {
                let long = starts[f] + seen[f];
                seen[f] += 1;
                prefixes.extend(shorts.into_iter().map(|s| (s, long)));
            }
            Ok(())
        })?;
    }
    let kinds = Kinds {
        contradicting_tags: args.contradicting_tags,
        prefix: args.prefix,
        fuzzy_depth: depth,
    };
    let clusters = cluster::clusters(&records, &prefixes, &kinds);
    let counts = Counts::of(&records, &clusters);
    write_report(args, &names, &records, &clusters, &counts)?;
    if rereads {
        write_games(args, &names, &records, &clusters, &starts)?;
    }
    if !args.quiet {
        eprintln!("{}", counts.line());
    }
    Ok(if counts.duplicates > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// The prefix pass over one chunk: per game, the records whose whole line
/// is a proper prefix of its line.
fn prefix_pass(
    chunk: &Chunk,
    options: &Options,
    records: &[GameRecord],
    lines: &std::collections::HashMap<u128, usize>,
) -> Vec<Vec<usize>> {
    replayed(chunk, options, |data, game, report| {
        let tags = GameRecord::new(data, chunk.base, game, report, None).tags;
        prefix_matches(&report.keys, &tags, lines, records)
    })
}

fn write_report(
    args: &DedupArgs,
    names: &[String],
    records: &[GameRecord],
    clusters: &[cluster::Cluster],
    counts: &Counts,
) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Human
    } else {
        Format::Json
    });
    let mut out = BufWriter::new(stdout.lock());
    for c in clusters {
        if format == Format::Json {
            report::write_json(&mut out, names, records, c)?;
        } else {
            report::write_human(&mut out, names, records, c)?;
        }
    }
    if format == Format::Json {
        counts.write_json(&mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// Copies every game of the inputs (not the known ones) to `-o` when it is
/// kept or has no duplicate, else to `--duplicates`.
fn write_games(
    args: &DedupArgs,
    names: &[String],
    records: &[GameRecord],
    clusters: &[cluster::Cluster],
    starts: &[usize],
) -> anyhow::Result<()> {
    let mut duplicate = vec![false; records.len()];
    for c in clusters {
        for m in &c.members {
            duplicate[m.index] = true;
        }
    }
    let open = |p: &Option<String>| {
        p.as_deref()
            .map(|p| OutputFile::create(Path::new(p)))
            .transpose()
    };
    let (mut unique, mut dups) = (open(&args.output)?, open(&args.duplicates)?);
    for (f, name) in names.iter().enumerate().skip(args.against.len()) {
        let input = Input::open(name).map_err(|e| anyhow::anyhow!("cannot read `{name}`: {e}"))?;
        let mut index = starts[f];
        for chunk in input.chunks(CHUNK_SIZE) {
            let chunk = chunk?;
            let data: &[u8] = &chunk.data;
            let mut reader = Reader::with_range(data, chunk.range.clone());
            let mut game = Game::default();
            while reader.read_game(&mut game) {
                if game.is_comment_only() {
                    continue;
                }
                let to = if duplicate.get(index).copied().unwrap_or(false) {
                    dups.as_mut()
                } else {
                    unique.as_mut()
                };
                index += 1;
                if let Some(out) = to {
                    out.write_all(data.get(game.span.clone()).unwrap_or_default())?;
                    out.write_all(b"\n\n")?;
                }
            }
            chunk.release();
        }
    }
    for out in [unique, dups].into_iter().flatten() {
        out.commit()?;
    }
    Ok(())
}
