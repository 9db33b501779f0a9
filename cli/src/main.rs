//! `pgnkit`: check, convert, index and search PGN chess databases in any
//! notation and language.
//!
//! The binary is thin: flags ([`args`]), input ([`input`]: files are
//! memory-mapped, standard input and compressed files are streamed), a
//! parallel, ordered driver ([`driver`]), one module per command, and the
//! printers that render diagnostics ([`render`]).

mod args;
mod check;
mod convert;
mod diff;
mod driver;
mod fix;
mod index;
mod input;
mod location;
mod merge;
mod output;
mod render;
mod search;
mod shard;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

/// Exit status: nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit status: problems found in the games.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit status: the command could not do its job.
pub const EXIT_FAILURE: u8 = 2;

fn main() -> ExitCode {
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
        Command::MergeSummaries(a) => merge::run(&a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader of our output has gone (`pgnkit … | head`): stop quietly.
        Err(e) if output::is_broken_pipe(&e) => ExitCode::from(EXIT_OK),
        Err(e) => {
            eprintln!("pgnkit: error: {e:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
