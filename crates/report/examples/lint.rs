//! Checks PGN files and prints every problem the way `pgnkit check` does for
//! a human: rustc-style, with the source line, a caret under the token, a
//! plain sentence and a `help:` with the move that was probably meant.
//! `--json` prints one JSON object a line instead, `--github` GitHub Actions
//! annotations. Exit status 1 when a game has an error.
//!
//! ```sh
//! cargo run -p pgnkit-report --example lint -- testdata/repair/slips.pgn
//! ```

use std::io::Write;
use std::process::ExitCode;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, Severity, replay_game};
use pgnkit_report::render::{self, Suggestions};
use pgnkit_report::{Format, Locator};

fn lint(path: &str, format: Format, out: &mut impl Write) -> std::io::Result<bool> {
    let data = std::fs::read(path)?;
    let mut locator = Locator::new(&data, 0, 0, format);
    let mut reader = Reader::new(&data);
    let mut game = Game::default();
    let mut number = 0;
    let mut errors = false;
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        number += 1;
        let report = replay_game(&data, &game, &Options::default());
        for mut located in locator.locate(&game, &report, number, |_| true) {
            errors |= located.diagnostic.severity == Severity::Error;
            // Lines are counted from 0 in the data.
            located.line += 1;
            render::diagnostic(out, format, false, Suggestions::Best, path, &located)?;
        }
    }
    Ok(errors)
}

fn main() -> ExitCode {
    let mut format = Format::Human;
    let mut status = ExitCode::SUCCESS;
    let mut out = std::io::stdout().lock();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--json" => format = Format::Json,
            "--github" => format = Format::Github,
            path => match lint(path, format, &mut out) {
                Ok(true) => status = ExitCode::FAILURE,
                Ok(false) => {}
                Err(e) => {
                    eprintln!("{path}: error: {e}");
                    return ExitCode::from(2);
                }
            },
        }
    }
    status
}
