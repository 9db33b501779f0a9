//! `index`'s work: each chunk's games replayed into a batch for the index
//! ([`index_chunk`]), and the whole build of `FILE.pgnkit-index` beside a
//! PGN file ([`build`]).
//!
//! The index of `FILE` is `FILE.pgnkit-index`, in the same directory. It is
//! built in one parallel pass that replays every game (so that it knows
//! every main-line position), and written to a temporary file that is
//! renamed into place: a crash never leaves a broken index. Its format is
//! documented in [`pgnkit_index::layout`].
//!
//! Memory stays bounded whatever the size of the file (the `memory` of
//! [`build`]): beyond the budget, position entries are spilled as they
//! are to anonymous temporary files beside the index (not in `TMPDIR`,
//! often a RAM disk) by a thread of their own, around the page cache where
//! the system allows it, and each key partition is sorted once while the
//! index is written ([`pgnkit_index::spill`]). The half-written index is
//! removed by [`pgnkit_index::remove_temporary_files`] (the binary calls it
//! on Ctrl-C or SIGTERM); the spill files vanish with the process.

use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, bail};
use pgnkit_driver::{Driver, Progress};
use pgnkit_index::{Batch, Builder, Fingerprint, GameFacts, Summary, index_path};
use pgnkit_notation::Language;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Detail, GameText, IllegalMoves, Options, replay_game_text};
use pgnkit_source::{Chunk, Compression, Input};

/// The default memory of a build (`index --memory`'s default, 256M).
pub const DEFAULT_MEMORY: u64 = 256 << 20;

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

/// The budget of the index's tables (or of `dedup`'s records) for a
/// process that aims at `memory` with `jobs` worker threads (none: one a
/// core): [`tables_budget`].
pub fn budget(memory: u64, jobs: Option<usize>) -> u64 {
    tables_budget(memory, pgnkit_driver::threads(jobs))
}

/// Replay options for indexing (and for scans that must agree with it):
/// `language` forced, or none to detect it per game; illegal moves end
/// their line or stand as `illegal_moves` says.
pub fn options(language: Option<Language>, illegal_moves: IllegalMoves) -> Options {
    Options {
        language,
        suggestions: false,
        // The index keeps the errors, plies, status and keys only.
        detail: Detail::Keys,
        illegal_moves,
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

/// Builds the index of `file` and returns what was written: the games
/// replayed with `language` forced (none: detected per game) on `jobs`
/// worker threads, in about `memory` bytes, with a progress bar on a
/// terminal unless `quiet`.
///
/// # Errors
/// A file that cannot be indexed ([`check_indexable`]) or read, one that
/// changed while it was read, and the errors of writing the index.
pub fn build(
    file: &str,
    options: &Options,
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
    let spill_dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = Builder::bounded(budget(memory, jobs), spill_dir);
    // The game records that do not fit go straight into the index.
    builder
        .start_output(&target)
        .with_context(|| format!("cannot write `{}`", target.display()))?;
    let batches = Batches::default();
    let result = driver.run(
        input,
        &progress,
        |chunk| index_chunk(chunk, options, &batches),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_get_what_the_pipeline_leaves() {
        assert_eq!(tables_budget(256 << 20, 2), (256 - 96) << 20);
        assert_eq!(tables_budget(8 << 10, 2), 2 << 10);
    }
}
