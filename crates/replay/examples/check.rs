//! Checks PGN files under the FIDE Laws and prints each problem on one
//! line, `FILE:LINE:COLUMN: error[CODE]: MESSAGE`, with its `help:` lines,
//! then a count: the shape of `pgnkit check --format human` without the
//! source snippets.
//!
//! ```text
//! cargo run -p pgnkit-replay --example check -- testdata/check/illegal-ambiguous.pgn
//! testdata/check/illegal-ambiguous.pgn:12:29: error[illegal-move]: …
//! ```
//!
//! Exit status: 0 when no game has an error, 1 when one has, 2 when a file
//! cannot be read.

use std::io::Write;
use std::process::ExitCode;

use pgnkit_pgn::{Game, LineIndex, Reader};
use pgnkit_replay::{Options, replay_game};

fn main() -> ExitCode {
    // A closed pipe (`| head`) ends the run quietly.
    match check(std::io::stdout().lock()) {
        Ok(code) => code,
        Err(_) => ExitCode::FAILURE,
    }
}

fn check(mut out: impl Write) -> std::io::Result<ExitCode> {
    let options = Options::default();
    let (mut games, mut errors, mut warnings, mut unreadable) = (0u64, 0usize, 0usize, false);
    for path in std::env::args().skip(1) {
        let input = match std::fs::read(&path) {
            Ok(input) => input,
            Err(e) => {
                eprintln!("{path}: {e}");
                unreadable = true;
                continue;
            }
        };
        let lines = LineIndex::new(&input);
        let mut reader = Reader::new(&input);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            games += 1;
            let report = replay_game(&input, &game, &options);
            for d in &report.diagnostics {
                let (line, column) = lines.line_col(d.span.start);
                writeln!(
                    out,
                    "{path}:{line}:{column}: {}[{}]: {}",
                    d.severity.as_str(),
                    d.code.as_str(),
                    d.message
                )?;
                for help in &d.help {
                    writeln!(out, "  help: {help}")?;
                }
            }
            errors += report.errors();
            warnings += report.warnings();
        }
    }
    writeln!(out, "{games} games, {errors} errors, {warnings} warnings")?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
