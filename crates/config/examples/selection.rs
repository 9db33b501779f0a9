//! Prints, for each path given, which codes `pgnkit check` would report
//! there and at which severity, as the `pgnkit.toml` found from the current
//! folder upwards says.
//!
//! ```sh
//! cargo run -p pgnkit-config --example selection -- games/a.pgn archive/b.pgn
//! ```

use std::path::Path;
use std::process::ExitCode;

use pgnkit_config::{Config, Rules};
use pgnkit_replay::Code;

fn main() -> ExitCode {
    let here = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("selection: {e}");
            return ExitCode::from(2);
        }
    };
    let config = match Config::find(&here) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("selection: {e}");
            return ExitCode::from(2);
        }
    };
    match &config.path {
        Some(p) => println!("settings: {}", p.display()),
        None => println!("settings: none (every code at its own severity)"),
    }
    for path in std::env::args().skip(1) {
        let s = config.selection_for(Path::new(&path), &Rules::default());
        let reported: Vec<String> = Code::ALL
            .into_iter()
            .filter(|&c| s.reports(c))
            .map(|c| format!("{c}:{}", s.severity(c, c.severity()).as_str()))
            .collect();
        println!("{path}: {}", reported.join(" "));
    }
    ExitCode::SUCCESS
}
