//! `pgnkit`: check, convert, index and search PGN chess databases in any
//! notation and language.
//!
//! The binary (`src/main.rs`) only calls [`main`]. The library is glue:
//! flags ([`args`]) and one module per
//! command that says what to do with a chunk and how to print it. The
//! rules are in [`pgnkit_replay`]; input (files are memory-mapped,
//! standard input and compressed files are streamed) in
//! [`pgnkit_source`], re-exported as [`input`]; the parallel, ordered
//! driver and the one file loop of the commands that read games in
//! [`pgnkit_driver`]; the printers of
//! diagnostics, game records, summaries and every command's output in
//! [`pgnkit_report`] (its [`render`] re-exported). It is a library so that the fuzz targets
//! (`fuzz/`) can reach the chunk-level functions of the commands
//! ([`check::check_chunk`], [`convert::convert_chunk`], [`convert_bytes`])
//! without files.

pub mod args;
pub mod check;
pub mod convert;
pub mod dedup;
pub mod diff;
pub mod fix;
pub mod index;
pub mod manual;
pub mod merge;
pub mod query;
pub mod report;
pub mod scan;
pub mod search;
pub mod shape;
pub mod show;

pub use pgnkit_pgn::{location, shard};
pub use pgnkit_report::render;
pub use pgnkit_source as input;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

use crate::args::{Cli, Command};

/// Exit status: nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit status: problems found in the games.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit status: the command could not do its job.
pub const EXIT_FAILURE: u8 = 2;

/// Runs `pgnkit` with the process's arguments: what `src/main.rs` calls.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_FAILURE
            } else {
                EXIT_OK
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Check(a) => check::run(&a),
        Command::Convert(a) => convert::run(&a),
        Command::Index(a) => index::run(&a),
        Command::Search(a) => search::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Dedup(a) => dedup::run(&a),
        Command::Show(a) => show::run(&a),
        Command::Report(a) => report::run(&a),
        Command::MergeSummaries(a) => merge::run(&a),
        Command::Completions(a) => manual::completions(&a),
        Command::Man(a) => manual::man(&a),
        Command::Rules(a) => rules(&a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader of our output has gone (`pgnkit … | head`): stop quietly.
        Err(e) if pgnkit_driver::output::is_broken_pipe(&e) => ExitCode::from(EXIT_OK),
        Err(e) => {
            eprintln!("pgnkit: error: {e:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Runs `pgnkit rules`: every code, or one explained with its example.
fn rules(args: &args::RulesArgs) -> anyhow::Result<u8> {
    use std::io::{IsTerminal, Write};
    let stdout = std::io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = stdout.lock();
    match args.code {
        Some(topic) => pgnkit_report::rules::write_topic(&mut out, topic, color)?,
        None => pgnkit_report::rules::write_list(&mut out)?,
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// The whole of `data` as one chunk (games numbered from the start of
/// `data`, spans relative to it), for callers that hold a buffer rather
/// than a file: the fuzz targets, tests.
pub fn whole_chunk(data: Vec<u8>) -> input::Chunk {
    let len = data.len();
    input::Chunk {
        data: input::Data::Owned(Arc::new(data)),
        range: 0..len,
        base: 0,
    }
}

/// Converts the games of `data` as `pgnkit convert` converts one chunk
/// ([`convert::convert_chunk`]), without files or threads: the converted
/// games (PGN or JSON lines, without the per-record head the sink adds),
/// the diagnostics and the counts.
///
/// # Errors
/// Those of the temporary file of an output beyond
/// [`pgnkit_driver::spool::SPOOL_LIMIT`] bytes.
pub fn convert_bytes(data: &[u8], config: &convert::Config) -> std::io::Result<Converted> {
    let chunk = whole_chunk(data.to_vec());
    let converted = convert::convert_chunk(&chunk, config, &pgnkit_driver::Buffers::default())?;
    let mut out = Vec::new();
    converted.out.into_reader()?.copy_rest(&mut out)?;
    Ok(Converted {
        out,
        diagnostics: converted.diagnostics,
        totals: converted.totals,
    })
}

/// What [`convert_bytes`] gives.
pub struct Converted {
    /// The converted games.
    pub out: Vec<u8>,
    /// Errors of the games, game numbers from 0.
    pub diagnostics: Vec<render::Located>,
    /// Counts.
    pub totals: pgnkit_report::summary::Totals,
}
