//! `pgnkit dedup`: duplicate games across files, whatever their notation
//! or language ([`pgnkit_dedup`] holds the rules; this is flags and glue).
//!
//! The inputs (and the `--against` databases) are read in parallel by the
//! driver; each game is replayed once and its [`GameRecord`] handed to a
//! [`Deduper`], which sorts the records in the `--memory` budget (spilling
//! sorted runs to anonymous temporary files beyond it) and forms the
//! clusters. With `--prefix` the records are held in memory and the inputs
//! read and replayed a second time (a game's prefixes are looked up among
//! every game's whole line); with `-o` or `--duplicates` they are read once
//! more to copy the games' bytes. Standard input can be read once only: with
//! those flags it is first copied to a temporary file.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Args;
use pgnkit_dedup::GameRecord;
use pgnkit_dedup::bounded::{Deduper, Found};
use pgnkit_dedup::cluster::Options as Kinds;
use pgnkit_dedup::prefix::PrefixDeduper;
use pgnkit_dedup::report;
use pgnkit_index::{Fingerprint, Index, index_path};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

use crate::args::{Format, InputLang, input_lang_help, parse_input_lang};
use crate::index::{parse_size, replay_options, tables_budget};
use crate::input::{CHUNK_SIZE, Chunk, Input};
use crate::{EXIT_OK, EXIT_PROBLEMS};
use pgnkit_atomic::Temporary;
use pgnkit_driver::output::OutputFile;
use pgnkit_driver::{Driver, Progress};

/// `pgnkit dedup`.
#[derive(Args, Debug, Clone)]
pub struct DedupArgs {
    /// PGN files (plain or compressed: zstd, gzip, bzip2; `-`: standard input).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<String>,
    /// Games of the inputs already in this database (a PGN file, plain or
    /// compressed, or its `.pgnkit-index`; repeatable): its games are kept
    /// first and never written. A PGN file's fresh index is used when there
    /// is one (not with --fuzzy-depth or --prefix).
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
    /// Memory to aim at (as index's --memory), as bytes or with a suffix K,
    /// M, G: the games' records (about 170 bytes a game) beyond it are
    /// sorted and spilled to temporary files beside -o (else in TMPDIR),
    /// with --prefix too.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub memory: u64,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

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
        let input = Input::open(name)?;
        let progress = Progress::new(quiet, input.len);
        driver.run(input, &progress, &work, |chunk, t| each(file, chunk, t))?;
        progress.finish();
    }
    Ok(())
}

/// Where the sorted runs go: beside `-o` when it is given, else in the
/// temporary directory (`TMPDIR`).
fn spill_dir(args: &DedupArgs) -> PathBuf {
    let beside = args.output.as_deref().or(args.duplicates.as_deref());
    match beside.and_then(|o| Path::new(o).parent()) {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        Some(_) => PathBuf::from("."),
        None => std::env::temp_dir(),
    }
}

/// Runs `pgnkit dedup`.
pub fn run(args: &DedupArgs) -> anyhow::Result<u8> {
    let rereads = args.prefix || args.output.is_some() || args.duplicates.is_some();
    let dir = spill_dir(args);
    let names: Vec<String> = args.against.iter().chain(&args.files).cloned().collect();
    // The inputs are read again: standard input is copied to a file.
    let stdin = if rereads && names.iter().any(|n| n == "-") {
        if names.iter().filter(|n| *n == "-").count() > 1 {
            bail!("standard input can be given once");
        }
        Some(spool_stdin(&dir)?)
    } else {
        None
    };
    let paths: Vec<String> = match &stdin {
        Some(file) => {
            let path = file.path().to_string_lossy().into_owned();
            (names.iter())
                .map(|n| if n == "-" { path.clone() } else { n.clone() })
                .collect()
        }
        None => names.clone(),
    };
    let driver = Driver::new(args.jobs)?;
    let options = replay_options(args.input_lang);
    let depth = args.fuzzy_depth;
    let threads = pgnkit_driver::threads(args.jobs);
    let budget = tables_budget(args.memory, threads);
    let kinds = Kinds {
        contradicting_tags: args.contradicting_tags,
        prefix: args.prefix,
        fuzzy_depth: depth,
    };
    let mut games_in: Vec<u64> = vec![0; names.len()];
    let found = if args.prefix {
        for name in &args.against {
            known_index(name, false)?;
        }
        let budget = (budget, dir.as_path());
        with_prefixes(
            args,
            &paths,
            &driver,
            &options,
            &kinds,
            &mut games_in,
            budget,
        )?
    } else {
        let mut deduper = Deduper::new(&kinds, budget, &dir);
        let work = |chunk: &Chunk| records_of(chunk, &options, depth);
        for (i, name) in names.iter().enumerate() {
            let file = u32::try_from(i)?;
            if i < args.against.len()
                && let Some(index) = known_index(name, depth.is_none())?
            {
                // Both tables the records come from, as `search` checks them.
                index
                    .verify_games()
                    .and_then(|()| index.verify_strings())
                    .map_err(|e| anyhow::anyhow!("{e}: rebuild it with `pgnkit index`"))?;
                for n in 0..u32::try_from(index.games())? {
                    let mut r = GameRecord::of_facts(&index.game(n).facts());
                    number(&mut r, file, &mut games_in, args.against.len());
                    deduper.push(r)?;
                }
                continue;
            }
            let one = std::slice::from_ref(&paths[i]);
            read_all(one, i, &driver, args.quiet, work, |file, _, batch| {
                for mut r in batch {
                    number(&mut r, file, &mut games_in, args.against.len());
                    deduper.push(r)?;
                }
                Ok(())
            })?;
        }
        deduper.finish()?
    };
    write_report(args, &names, &found)?;
    if args.output.is_some() || args.duplicates.is_some() {
        write_games(args, &paths, &found, &games_in)?;
    }
    if !args.quiet {
        eprintln!("{}", found.counts.line());
        if found.runs > 0 {
            eprintln!(
                "{} sorted runs spilled to `{}` (--memory {})",
                found.runs,
                dir.display(),
                args.memory
            );
        }
    }
    Ok(if found.counts.duplicates > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// The index to read the known games of `name` from: `name` itself when
/// it is a `.pgnkit-index` (refused when it cannot be used, or when
/// `usable` is false: `--fuzzy-depth` and `--prefix` need the games'
/// positions), else the index beside the PGN file `name` when there is a
/// fresh one and `usable`.
fn known_index(name: &str, usable: bool) -> anyhow::Result<Option<Index>> {
    let Some(pgn) = name.strip_suffix(".pgnkit-index") else {
        if !usable || name == "-" {
            return Ok(None);
        }
        let pgn = Path::new(name);
        let Ok(now) = Fingerprint::of(pgn) else {
            return Ok(None);
        };
        return Ok(Index::open(&index_path(pgn), pgn, &now).ok());
    };
    if !usable {
        bail!(
            "--against `{name}`: --fuzzy-depth and --prefix need the positions of the known games: give its PGN file"
        );
    }
    let pgn = Path::new(pgn);
    let now = Fingerprint::of(pgn).map_err(|e| {
        anyhow::anyhow!(
            "cannot read `{}`, the PGN file of the index `{name}`: {e}",
            pgn.display()
        )
    })?;
    match Index::open(Path::new(name), pgn, &now) {
        Ok(index) => Ok(Some(index)),
        Err(e) => bail!("{e}\nrebuild it with `pgnkit index {}`", pgn.display()),
    }
}

/// Standard input copied to a temporary file in `dir` (removed when it is
/// dropped, on an interrupt, or by the next run after a crash: see
/// [`pgnkit_atomic::Temporary`]), to be read more than once.
fn spool_stdin(dir: &Path) -> anyhow::Result<Temporary> {
    let fail =
        |e: io::Error| anyhow::anyhow!("cannot spool standard input to `{}`: {e}", dir.display());
    let mut file = Temporary::beside(&dir.join("stdin.pgn"), true).map_err(fail)?;
    let mut out = BufWriter::with_capacity(1 << 20, file.file_mut());
    io::copy(&mut io::stdin().lock(), &mut out).map_err(fail)?;
    out.flush().map_err(fail)?;
    drop(out);
    Ok(file)
}

/// Numbers the record of the next game of input `file` (its games counted
/// in `games_in`; the first `against` inputs are the known databases).
fn number(r: &mut GameRecord, file: u32, games_in: &mut [u64], against: usize) {
    if let Some(n) = games_in.get_mut(file as usize) {
        *n = n.saturating_add(1);
        r.source.game = *n;
    }
    r.source.file = file;
    r.known = (file as usize) < against;
}

/// The clusters with `--prefix`, in the `--memory` budget
/// ([`PrefixDeduper`]): the inputs are read and replayed twice, the second
/// time for the prefixes of each game's line that may be a kept game's.
fn with_prefixes(
    args: &DedupArgs,
    names: &[String],
    driver: &Driver,
    options: &Options,
    kinds: &Kinds,
    games_in: &mut [u64],
    (budget, dir): (u64, &Path),
) -> anyhow::Result<Found> {
    let depth = args.fuzzy_depth;
    let mut deduper = PrefixDeduper::new(kinds, budget, dir);
    let work = |chunk: &Chunk| records_of(chunk, options, depth);
    read_all(names, 0, driver, args.quiet, work, |file, _, batch| {
        for mut r in batch {
            number(&mut r, file, games_in, args.against.len());
            deduper.push(r)?;
        }
        Ok(())
    })?;
    let (mut grouped, lines) = deduper.group()?;
    let lines = &lines;
    let work = |chunk: &Chunk| {
        replayed(chunk, options, |data, game, report| {
            let r = GameRecord::new(data, chunk.base, game, report, None);
            (lines.prefixes(&report.keys), r.plies, r.tags)
        })
    };
    read_all(names, 0, driver, true, work, |_, _, found| {
        for (prefixes, plies, tags) in found {
            grouped.push(&prefixes, plies, &tags)?;
        }
        Ok(())
    })?;
    Ok(grouped.finish()?)
}

fn write_report(args: &DedupArgs, names: &[String], found: &Found) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Human
    } else {
        Format::Json
    });
    let mut out = BufWriter::new(stdout.lock());
    report::write_clusters(&mut out, names, format == Format::Json, found)?;
    if format == Format::Json {
        found.counts.write_json(&mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// Copies every game of the inputs (not the known ones) to `-o` when it is
/// kept or has no duplicate, else to `--duplicates`: the games are
/// numbered as they were read, and the duplicates' numbers come sorted.
fn write_games(
    args: &DedupArgs,
    names: &[String],
    found: &Found,
    games_in: &[u64],
) -> anyhow::Result<()> {
    let mut duplicates = found.duplicates.reader()?;
    let mut next_duplicate = duplicates.next()?.map(|d| d.0);
    let open = |p: &Option<String>| {
        p.as_deref()
            .map(|p| OutputFile::create(Path::new(p)))
            .transpose()
    };
    let (mut unique, mut dups) = (open(&args.output)?, open(&args.duplicates)?);
    let mut index: u64 = games_in.iter().take(args.against.len()).sum();
    for name in names.iter().skip(args.against.len()) {
        let input = Input::open(name)?;
        for chunk in input.chunks(CHUNK_SIZE) {
            let chunk = chunk?;
            let data: &[u8] = &chunk.data;
            let mut reader = Reader::with_range(data, chunk.range.clone());
            let mut game = Game::default();
            while reader.read_game(&mut game) {
                if game.is_comment_only() {
                    continue;
                }
                while next_duplicate.is_some_and(|d| d < index) {
                    next_duplicate = duplicates.next()?.map(|d| d.0);
                }
                let to = if next_duplicate == Some(index) {
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
