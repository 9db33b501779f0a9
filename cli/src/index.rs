//! `pgnkit index`: build an index beside a PGN file for fast search.
//!
//! The index of `FILE` is `FILE.pgnkit-index`, in the same directory. It is
//! built in one parallel pass that replays every game (so that it knows
//! every main-line position), and written to a temporary file that is
//! renamed into place: a crash never leaves a broken index. Its format is
//! documented in [`pgnkit_index::layout`].
//!
//! Memory stays bounded whatever the size of the file (`--memory`, 256 MiB
//! by default): beyond the budget, position entries are spilled as they
//! are to anonymous temporary files beside the index (not in `TMPDIR`,
//! often a RAM disk) by a thread of their own, around the page cache where
//! the system allows it, and each key partition is sorted once while the
//! index is written ([`pgnkit_index::spill`]). On Ctrl-C, SIGTERM or
//! SIGHUP the half-written index is removed and the run exits with status
//! 130, 143 or 129 ([`pgnkit_atomic::signals`]); the spill files vanish
//! with the process.

use std::io::Read;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use pgnkit_index::{Batch, Builder, Fingerprint, GameFacts, Summary, index_path};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Detail, GameText, Options, replay_game_text};

use crate::EXIT_OK;
use crate::args::{InputLang, input_lang_help, parse_input_lang};
use crate::input::{Chunk, Compression, Input};
use pgnkit_driver::{Driver, Progress};

/// `pgnkit index`.
#[derive(Args, Debug, Clone)]
pub struct IndexArgs {
    /// The PGN file to index (a regular, uncompressed file). The index is
    /// written beside it as `FILE.pgnkit-index`.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Piece-letter language of the input ([`input_lang_help`]).
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang,
          help = input_lang_help())]
    pub input_lang: InputLang,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Memory to build the index in: the peak resident memory to aim for,
    /// as bytes or with a suffix K, M, G (powers of 1024), e.g. `200M`,
    /// `1G`. Tables beyond it are spilled to temporary files beside the
    /// index (on that disk they need about the index's size, given back as
    /// the index is written); more memory, fewer and larger spills.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub memory: u64,
    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The default of `--memory` (its `default_value`, 256M).
pub const DEFAULT_MEMORY: u64 = 256 << 20;

/// Parses a size: bytes, or a number with a suffix K, M, G or T (powers of
/// 1024; `KB`, `KiB` and lower case too).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 200M, 1G, 1048576)"))?;
    let shift = match suffix.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{s}` is not a size (e.g. 200M, 1G, 1048576)")),
    };
    let bytes = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if bytes == 0 {
        return Err("the memory must be more than 0 bytes".into());
    }
    Ok(bytes)
}

/// Memory the rest of the process takes besides the index's tables, as
/// measured: the program, its buffers, and per worker thread the chunks in
/// flight (four 2 MiB chunks of PGN and their batches of games, of
/// position keys and of the entries encoded from them), its replay state
/// and its allocator's arena. With 24 MB a thread, before batches kept
/// their keys until encoded, 8 GiB peaked at 255–266 MB with the default
/// 256M.
fn pipeline_memory(threads: usize) -> u64 {
    (32 << 20) + (threads as u64) * (32 << 20)
}

/// The budget of the index's tables for a process that aims at `memory`
/// with `threads` workers: what the pipeline leaves, and at least a quarter
/// of `memory`.
pub fn tables_budget(memory: u64, threads: usize) -> u64 {
    memory
        .saturating_sub(pipeline_memory(threads))
        .max(memory / 4)
}

/// Replay options for indexing (and for scans that must agree with it).
pub fn replay_options(lang: InputLang) -> Options {
    Options {
        language: lang.forced(),
        suggestions: false,
        // The index keeps the errors, plies, status and keys only.
        detail: Detail::Keys,
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

/// Emptied batches, kept for the next chunks (their memory is reused, not
/// touched afresh for every chunk).
#[derive(Default)]
pub struct Batches(Mutex<Vec<Batch>>);

impl Batches {
    /// An empty batch, with the memory of one given back if there is one.
    pub fn take(&self) -> Batch {
        self.0
            .lock()
            .ok()
            .and_then(|mut free| free.pop())
            .unwrap_or_default()
    }

    /// Gives an emptied batch back.
    pub fn give(&self, batch: Batch) {
        if let Ok(mut free) = self.0.lock() {
            free.push(batch);
        }
    }
}

/// The games of one chunk, replayed, as a batch for the index (in a batch
/// taken from `batches`).
pub fn index_chunk(chunk: &Chunk, options: &Options, batches: &Batches) -> Batch {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut batch = batches.take();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue; // `%` lines or a lone comment between games: no game
        }
        // The game's text is validated once, for the replay and the facts.
        let text = GameText::new(data, game.span.clone());
        let report = replay_game_text(data, &game, &text, options, &mut ());
        let facts = GameFacts::of_text(&text, chunk.base, &game, Some(&report));
        batch.push(&facts, &report.keys);
    }
    // Encoded here, on the worker's thread, not by the builder.
    batch.seal();
    batch
}

/// Builds the index of `file` and returns what was written.
pub fn build(
    file: &str,
    lang: InputLang,
    jobs: Option<usize>,
    memory: u64,
    quiet: bool,
) -> anyhow::Result<Summary> {
    check_indexable(file)?;
    let path = Path::new(file);
    let target = index_path(path);
    let before = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
    let input = Input::open(file)?;
    let progress = Progress::new(quiet, input.len);
    let driver = Driver::new(jobs)?;
    let options = replay_options(lang);
    let threads = pgnkit_driver::threads(jobs);
    let spill_dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = Builder::bounded(tables_budget(memory, threads), spill_dir);
    // The game records that do not fit go straight into the index.
    builder
        .start_output(&target)
        .with_context(|| format!("cannot write `{}`", target.display()))?;
    let batches = Batches::default();
    let result = driver.run(
        input,
        &progress,
        |chunk| index_chunk(chunk, &options, &batches),
        |_, mut batch| {
            builder.take(&mut batch)?;
            batches.give(batch);
            progress.games(builder.games());
            Ok(())
        },
    );
    progress.finish();
    drop(batches);
    // What fails here is the builder's writing (the index's early game
    // records, its spills beside it): the index names the culprit.
    result.with_context(|| format!("cannot write `{}`", target.display()))?;
    let after = Fingerprint::of(path).with_context(|| format!("cannot read `{file}`"))?;
    if let Some(change) = after.difference(&before) {
        bail!(
            "`{file}` changed while it was being indexed ({change}); run `pgnkit index {file}` again"
        );
    }
    let summary = builder
        .write(&target, &before)
        .with_context(|| format!("cannot write `{}`", target.display()))?;
    Ok(summary)
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let summary = build(
        &args.file,
        args.input_lang,
        args.jobs,
        args.memory,
        args.quiet,
    )?;
    if !args.quiet {
        let seconds = started.elapsed().as_secs_f64();
        let pgn_bytes = std::fs::metadata(&args.file).map_or(0, |m| m.len());
        eprintln!(
            "indexed `{}`: {} games, {} positions, {} names in {:.2} s ({:.1} MB/s); wrote `{}` ({:.1} MB); {} spills to temporary files",
            args.file,
            summary.games,
            summary.positions,
            summary.strings.saturating_sub(1),
            seconds,
            pgn_bytes as f64 / 1e6 / seconds.max(1e-9),
            index_path(Path::new(&args.file)).display(),
            summary.bytes as f64 / 1e6,
            summary.runs,
        );
    }
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bytes_or_powers_of_1024() {
        assert_eq!(parse_size("256M"), Ok(DEFAULT_MEMORY));
        assert_eq!(parse_size("200M"), Ok(200 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1gib"), Ok(1 << 30));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("12X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }

    #[test]
    fn the_tables_get_what_the_pipeline_leaves() {
        assert_eq!(tables_budget(256 << 20, 2), (256 - 96) << 20);
        assert_eq!(tables_budget(8 << 10, 2), 2 << 10);
    }
}
