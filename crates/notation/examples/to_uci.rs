//! Reads a game score written in any notation and language and prints its
//! moves in UCI, one line: the language is found by replaying the whole
//! score, as `pgnkit check` does.
//!
//! ```text
//! cargo run -p pgnkit-notation --example to_uci -- "1. e4 e5 2. Sf3 Sc6 3. Lb5"
//! e2e4 e7e5 g1f3 b8c6 f1b5
//! echo "1. e2-e4 e7–e5 2. ♘f3 Кc6" | cargo run -p pgnkit-notation --example to_uci
//! ```
//!
//! The score comes from the arguments, or else from standard input; move
//! numbers and a result are skipped. The language chosen goes to standard
//! error; a move that does not resolve stops the line with its reason, and
//! the exit status 1.

use std::io::Read;
use std::process::ExitCode;

use pgnkit_notation::{LanguageSet, detect_language, parse_move};
use shakmaty::{CastlingMode, Chess, Position};

/// The move words of a score: `12.`, `12...` and a leading `12.` glued to
/// a move are dropped, and so is a result.
fn move_words(score: &str) -> Vec<&str> {
    score
        .split_whitespace()
        .filter(|w| !matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*"))
        .map(|w| w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '…'))
        .filter(|w| !w.is_empty())
        .collect()
}

fn main() -> ExitCode {
    let mut score = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    if score.trim().is_empty()
        && let Err(e) = std::io::stdin().read_to_string(&mut score)
    {
        eprintln!("error: standard input: {e}");
        return ExitCode::from(2);
    }
    let words = move_words(&score);
    let start = Chess::default();
    let found = detect_language(&start, &words, LanguageSet::ALL);
    eprintln!(
        "language: {} ({}), {} of {} moves replay",
        found.language.code(),
        found.language.name(),
        found.replayed,
        words.len()
    );

    let mut pos = start;
    let mut uci = Vec::with_capacity(words.len());
    for word in &words {
        let resolved = parse_move(word)
            .map_err(|e| e.to_string())
            .and_then(|t| t.resolve(&pos, found.language).map_err(|e| e.to_string()));
        match resolved {
            Ok(m) => {
                uci.push(m.to_uci(CastlingMode::Standard).to_string());
                pos.play_unchecked(m);
            }
            Err(e) => {
                println!("{}", uci.join(" "));
                eprintln!("error: `{word}`: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("{}", uci.join(" "));
    ExitCode::SUCCESS
}
