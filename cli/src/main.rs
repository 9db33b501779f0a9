//! `pgnkit`: check, convert, index and search PGN chess databases in any
//! notation and language.
//!
//! The binary is flags ([`flags`]) and one module per command that turns
//! its flags into the work of the library crates and prints what comes
//! back; no command module uses another. The rules are in
//! [`pgnkit_replay`]; input (files are memory-mapped, standard input and
//! compressed files are streamed) in [`pgnkit_source`]; the parallel,
//! ordered driver and the one file loop of the commands that read games in
//! [`pgnkit_driver`]; what each command does with a chunk of games in
//! [`pgnkit_work`]; the printers of diagnostics, game records, summaries
//! and every command's output in [`pgnkit_report`].

mod check;
mod convert;
mod dedup;
mod diff;
mod exit;
mod flags;
mod index;
mod manual;
mod merge;
mod report;
mod search;
mod show;

use std::process::ExitCode;

use clap::Parser;
use pgnkit_report::printer::CheckFormat;

use crate::exit::{EXIT_FAILURE, EXIT_OK};
use crate::flags::{Cli, Command};

fn main() -> ExitCode {
    tune_malloc();
    // Temporary files removed on SIGINT, SIGTERM and SIGHUP, a file-size
    // limit reported as a write error, a truncated input named.
    pgnkit_atomic::signals::install();
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
        // `check --format html` writes the page of `report`.
        Command::Check(a) if a.format == Some(CheckFormat::Html) => {
            a.html_report().and_then(|r| report::run(&r))
        }
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
        Command::Rules(a) => manual::rules(&a),
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

/// Tunes glibc's malloc for a long run of games.
///
/// Its mmap threshold is fixed: by default it follows the largest block
/// freed (up to 32 MiB); after that, a vector that grows to millions of
/// entries (the tokens of one game of millions of plies) is moved by
/// copying within the heap instead of by `mremap`, and for a moment holds
/// its old and its new block: a 10 MB game then peaked at 100 MB resident
/// instead of 78 MB. Fixing the threshold at its default (128 KiB)
/// disables that adjustment.
///
/// Its fast bins are turned off: small blocks freed there are never merged
/// with their neighbours until a large request comes, so the suggestion
/// search's many short-lived small blocks, freed between the records a
/// chunk keeps, left the heap at five to eight times what was live
/// (`check` of 100,000 games with one error each: 150 MB resident at
/// `-j1`, 300 MB at `-j2`, for 15 to 50 MB live; 40 and 80 MB without the
/// fast bins). The per-thread cache (tcache) still serves small blocks at
/// the same speed: no command got slower.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_malloc() {
    // SAFETY: `mallopt` only sets tuning parameters of the allocator; it
    // is called before any other thread exists.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_MXFAST, 0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_malloc() {}
