//! `pgnkit index`: build an index beside a PGN file for fast search
//! ([`pgnkit_work::index::build`]), and say what was written.

use std::path::Path;
use std::time::Instant;

use pgnkit_index::index_path;
use pgnkit_work::index::build;

use crate::exit::EXIT_OK;
use crate::flags::IndexArgs;

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let summary = build(
        &args.file,
        &pgnkit_work::index::options(args.lang.forced(), args.illegal.given()),
        args.run.jobs,
        args.run.memory(),
        args.run.quiet(),
    )?;
    if !args.run.quiet() {
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
