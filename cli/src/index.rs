//! `pgnkit index`: build an index beside a PGN file for fast search.
//!
//! The index of `FILE` is `FILE.pgnkit-index`, in the same directory. It is
//! built in one parallel pass that replays every game (so that it knows
//! every main-line position), and written to a temporary file that is
//! renamed into place: a crash never leaves a broken index. Its format is
//! documented in [`pgnkit_index::layout`].

use std::io::Read;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use pgnkit_index::{Batch, Builder, Fingerprint, GameFacts, Summary, index_path};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game_with};

use crate::EXIT_OK;
use crate::args::{InputLang, parse_input_lang};
use crate::driver::{Driver, Progress};
use crate::input::{Chunk, Compression, Input};

/// `pgnkit index`.
#[derive(Args, Debug, Clone)]
pub struct IndexArgs {
    /// The PGN file to index (a regular, uncompressed file). The index is
    /// written beside it as `FILE.pgnkit-index`.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Piece-letter language of the input: `auto` (default) detects it per
    /// game; a code (en de fr ru …) reads only that language plus English SAN.
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang)]
    pub input_lang: InputLang,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Replay options for indexing (and for scans that must agree with it).
pub fn replay_options(lang: InputLang) -> Options {
    Options {
        language: lang.forced(),
        suggestions: false,
    }
}

/// Refuses what cannot be indexed: standard input, non-regular and
/// compressed files (the index points at byte offsets in the file).
pub fn check_indexable(file: &str) -> anyhow::Result<()> {
    if file == "-" {
        bail!(
            "cannot index standard input: the index points into a file; save the games to a file first"
        );
    }
    let meta = std::fs::metadata(file).with_context(|| format!("cannot read `{file}`"))?;
    if !meta.is_file() {
        bail!("cannot index `{file}`: it is not a regular file");
    }
    let mut head = [0u8; 8];
    let n = std::fs::File::open(file)
        .and_then(|mut f| f.read(&mut head))
        .with_context(|| format!("cannot read `{file}`"))?;
    if Compression::sniff(&head[..n]) != Compression::None {
        bail!(
            "cannot index `{file}`: it is compressed, and the index points at byte offsets \
             in the PGN text; decompress it first (and index the decompressed file)"
        );
    }
    Ok(())
}

/// The games of one chunk, replayed, as a batch for the index.
pub fn index_chunk(chunk: &Chunk, options: &Options) -> Batch {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut batch = Batch::new();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue; // `%` lines or a lone comment between games: no game
        }
        let report = replay_game_with(data, &game, options, &mut ());
        let facts = GameFacts::new(data, chunk.base, &game, Some(&report));
        batch.push(&facts, &report.keys);
    }
    batch
}

/// Builds the index of `file` and returns what was written.
pub fn build(
    file: &str,
    lang: InputLang,
    jobs: Option<usize>,
    quiet: bool,
) -> anyhow::Result<Summary> {
    check_indexable(file)?;
    let path = Path::new(file);
    let before = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
    let input = Input::open(file)?;
    let progress = Progress::new(quiet, input.len);
    let driver = Driver::new(jobs)?;
    let options = replay_options(lang);
    let mut builder = Builder::new();
    // About one main-line position per 16 bytes of PGN (fewer with long
    // comments): reserved, not touched, so an overestimate costs nothing.
    builder.reserve_positions(before.size / 12);
    let result = driver.run(
        input,
        &progress,
        |chunk| index_chunk(chunk, &options),
        |_, batch| {
            builder.add(batch)?;
            progress.games(builder.games());
            Ok(())
        },
    );
    progress.finish();
    result?;
    let after = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
    if let Some(change) = after.difference(&before) {
        bail!(
            "`{file}` changed while it was being indexed ({change}); run `pgnkit index {file}` again"
        );
    }
    let target = index_path(path);
    let summary = builder
        .write(&target, &before)
        .with_context(|| format!("cannot write `{}`", target.display()))?;
    Ok(summary)
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let summary = build(&args.file, args.input_lang, args.jobs, args.quiet)?;
    if !args.quiet {
        let seconds = started.elapsed().as_secs_f64();
        let pgn_bytes = std::fs::metadata(&args.file).map_or(0, |m| m.len());
        eprintln!(
            "indexed `{}`: {} games, {} positions, {} names in {:.2} s ({:.1} MB/s); wrote `{}` ({:.1} MB)",
            args.file,
            summary.games,
            summary.positions,
            summary.strings.saturating_sub(1),
            seconds,
            pgn_bytes as f64 / 1e6 / seconds.max(1e-9),
            index_path(Path::new(&args.file)).display(),
            summary.bytes as f64 / 1e6,
        );
    }
    Ok(EXIT_OK)
}
