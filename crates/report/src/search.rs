//! The output of `pgnkit search`: the matching games as they stand in the
//! file, one JSON record a game with the indexed fields ([`GameRecord`]),
//! or their count; then the run's summary.
//!
//! ```
//! use pgnkit_facts::GameFacts;
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_report::search::{GameRecord, Output, Printer};
//!
//! let pgn = b"[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let facts = GameFacts::new(pgn, 0, &game, None);
//! let mut out = Vec::new();
//! let mut printer = Printer::new(&mut out, Output::Json);
//! printer.json(&GameRecord::from_facts("london.pgn", 1, &facts)).unwrap();
//! printer.finish("london.pgn", false, 0.5).unwrap();
//! assert_eq!(printer.matched(), 1);
//! let text = String::from_utf8(out).unwrap();
//! let lines: Vec<&str> = text.lines().collect();
//! assert!(lines[0].starts_with(r#"{"type":"game","file":"london.pgn","game":1,"offset":0,"#));
//! assert!(lines[0].contains(r#""white":"Anderssen","black":"Kieseritzky""#));
//! assert_eq!(
//!     lines[1],
//!     r#"{"type":"summary","file":"london.pgn","matches":1,"indexed":false,"seconds":0.5}"#
//! );
//! ```

use std::io::{self, Write};

use pgnkit_facts::{GameFacts, TextTag};
use serde::Serialize;

/// What a search prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The matching games' bytes (`--format pgn`).
    Pgn,
    /// One [`GameRecord`] a game, then a summary record (`--format json`).
    Json,
    /// Only the number of matching games (`--count`).
    Count,
}

/// One matching game as `search --format json` prints it: the indexed
/// fields, its place in the file, and what its replay found: `eco` is the
/// ECO tag's code, `opening_eco`, `opening` and `variation` the opening the
/// moves reach (as `check --games` names it).
#[derive(Serialize)]
pub struct GameRecord<'a> {
    r#type: &'static str,
    file: &'a str,
    game: u64,
    offset: u64,
    length: u32,
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    site: Option<&'a str>,
    round: Option<&'a str>,
    date: Option<&'a str>,
    white_elo: Option<u16>,
    black_elo: Option<u16>,
    eco: Option<String>,
    opening_eco: Option<&'static str>,
    opening: Option<&'static str>,
    variation: Option<&'static str>,
    result: Option<&'static str>,
    plies: u32,
    status: Option<&'static str>,
    errors: u32,
}

/// The last line of `--format json`.
#[derive(Serialize)]
struct JsonSummary<'a> {
    r#type: &'static str,
    file: &'a str,
    matches: u64,
    indexed: bool,
    seconds: f64,
}

fn non_empty(s: &str) -> Option<&str> {
    Some(s).filter(|s| !s.is_empty())
}

impl<'a> GameRecord<'a> {
    /// The record of game `number` (1-based) of `file`, from its facts (as
    /// a scan reads them, or as its index keeps them: `pgnkit_index::GameEntry::facts`).
    pub fn from_facts(file: &'a str, number: u64, f: &'a GameFacts<'_>) -> GameRecord<'a> {
        GameRecord {
            r#type: "game",
            file,
            game: number,
            offset: f.offset,
            length: f.length,
            white: non_empty(f.text(TextTag::White)),
            black: non_empty(f.text(TextTag::Black)),
            event: non_empty(f.text(TextTag::Event)),
            site: non_empty(f.text(TextTag::Site)),
            round: non_empty(f.text(TextTag::Round)),
            date: non_empty(f.text(TextTag::Date)),
            white_elo: Some(f.white_elo).filter(|&e| e > 0),
            black_elo: Some(f.black_elo).filter(|&e| e > 0),
            eco: f.eco.map(|e| e.to_string()),
            opening_eco: f.opening.map(|o| o.eco()),
            opening: f.opening.map(|o| o.opening()),
            variation: f.opening.and_then(|o| o.variation()),
            result: f.outcome.map(|r| r.as_str()),
            plies: f.plies,
            status: f.status.map(|s| s.as_str()),
            errors: f.errors,
        }
    }
}

/// Writes the matches of a search, and counts them.
pub struct Printer<'o> {
    out: &'o mut dyn Write,
    output: Output,
    matched: u64,
}

impl<'o> Printer<'o> {
    /// A printer of `output` to `out`.
    pub fn new(out: &'o mut dyn Write, output: Output) -> Printer<'o> {
        Printer {
            out,
            output,
            matched: 0,
        }
    }

    /// What it prints.
    pub fn output(&self) -> Output {
        self.output
    }

    /// The games matched so far.
    pub fn matched(&self) -> u64 {
        self.matched
    }

    /// Counts `n` more matches, printed by none but [`Printer::finish`]
    /// (`--count`).
    pub fn count(&mut self, n: u64) {
        self.matched += n;
    }

    /// A matching game's bytes, then a blank line (in the file's line
    /// ending); only counted unless the output is [`Output::Pgn`].
    ///
    /// # Errors
    /// Those of writing.
    pub fn pgn(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.matched += 1;
        if self.output != Output::Pgn {
            return Ok(());
        }
        self.out.write_all(bytes)?;
        let crlf = memchr::memmem::find(bytes, b"\r\n").is_some();
        self.out.write_all(if crlf { b"\r\n\r\n" } else { b"\n\n" })
    }

    /// A matching game's record; only counted with [`Output::Count`].
    ///
    /// # Errors
    /// Those of writing.
    pub fn json(&mut self, record: &GameRecord<'_>) -> io::Result<()> {
        self.matched += 1;
        if self.output == Output::Count {
            return Ok(());
        }
        serde_json::to_writer(&mut *self.out, record)?;
        self.out.write_all(b"\n")
    }

    /// Ends the output: the count ([`Output::Count`]) or the summary record
    /// ([`Output::Json`]) of the search of `file` (by its index if
    /// `indexed`, in `seconds`), and flushes it.
    ///
    /// # Errors
    /// Those of writing.
    pub fn finish(&mut self, file: &str, indexed: bool, seconds: f64) -> io::Result<()> {
        match self.output {
            Output::Count => writeln!(self.out, "{}", self.matched)?,
            Output::Json => {
                let summary = JsonSummary {
                    r#type: "summary",
                    file,
                    matches: self.matched,
                    indexed,
                    seconds,
                };
                serde_json::to_writer(&mut *self.out, &summary)?;
                self.out.write_all(b"\n")?;
            }
            Output::Pgn => {}
        }
        self.out.flush()
    }
}

/// The summary line of a search for humans: `3 games matched in
/// `london.pgn` (with the index, 0.004 s)`.
///
/// ```
/// use pgnkit_report::search::summary_line;
///
/// assert_eq!(
///     summary_line(1, "london.pgn", false, 0.25),
///     "1 game matched in `london.pgn` (by a scan, 0.250 s)"
/// );
/// ```
pub fn summary_line(matched: u64, file: &str, indexed: bool, seconds: f64) -> String {
    let plural = if matched == 1 { "game" } else { "games" };
    let how = if indexed {
        "with the index"
    } else {
        "by a scan"
    };
    format!("{matched} {plural} matched in `{file}` ({how}, {seconds:.3} s)")
}
