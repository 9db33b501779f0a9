//! One printer for every output format of `pgnkit check`: the formats that
//! write a record a diagnostic ([`Format`]: human, NDJSON, GitHub
//! annotations) and the documents that wrap a run's diagnostics (SARIF,
//! JUnit, GitLab Code Quality). A command tells the [`Printer`] what it
//! found, in input order (files, their diagnostics, their ends, the run's
//! end), and the printer writes what its format wants of it.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//! use pgnkit_report::printer::{Printer, ReportFormat, Settings};
//! use pgnkit_report::{Locator, summary::Totals};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let mut printer = Printer::new(ReportFormat::Sarif, Settings::default());
//! let mut locator = Locator::new(pgn, 0, 0, printer.stream_format());
//! let mut out = Vec::new();
//! printer.begin(&mut out).unwrap();
//! printer.begin_file("a.pgn");
//! for mut l in locator.locate(&game, &report, 0, |_| true) {
//!     l.place(1, |line| line + 1);
//!     printer.diagnostic(&mut out, "a.pgn", &l).unwrap();
//! }
//! let mut totals = Totals::default();
//! totals.game(report.errors(), report.warnings(), report.plies);
//! printer.end_file(&totals).unwrap();
//! printer.finish(&mut out, 0.1).unwrap();
//! let sarif: serde_json::Value = serde_json::from_slice(&out).unwrap();
//! let result = &sarif["runs"][0]["results"][0];
//! assert_eq!(result["ruleId"], "illegal-move");
//! assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 4);
//! ```

use std::io::{self, Write};

use crate::Format;
use crate::games::{self, GameFacts};
use crate::github::Github;
use crate::gitlab::Gitlab;
use crate::junit::Junit;
use crate::render::{self, Located, Suggestions};
use crate::sarif::Sarif;
use crate::summary::Totals;

/// Every output format of `check --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ReportFormat {
    /// rustc-style messages with the source line and a caret (default on a terminal).
    Human,
    /// NDJSON on standard output: one object a line (default in pipes).
    Json,
    /// GitHub Actions annotations (`::error file=…`), at most
    /// `--max-annotations`, and a job summary in `$GITHUB_STEP_SUMMARY`.
    Github,
    /// SARIF 2.1.0: one JSON document (GitHub code scanning, editors).
    Sarif,
    /// JUnit XML: one test case per file (GitLab, Jenkins).
    Junit,
    /// GitLab Code Quality: a JSON array of issues.
    Gitlab,
}

impl ReportFormat {
    /// The format named `name` (`human`, `json`, `github`, `sarif`,
    /// `junit`, `gitlab`).
    pub fn from_name(name: &str) -> Option<ReportFormat> {
        Some(match name {
            "human" => ReportFormat::Human,
            "json" => ReportFormat::Json,
            "github" => ReportFormat::Github,
            "sarif" => ReportFormat::Sarif,
            "junit" => ReportFormat::Junit,
            "gitlab" => ReportFormat::Gitlab,
            _ => return None,
        })
    }

    /// Whether the format is one document for the whole run (standard
    /// output holds nothing else: the summary goes to standard error).
    pub fn is_document(self) -> bool {
        matches!(
            self,
            ReportFormat::Sarif | ReportFormat::Junit | ReportFormat::Gitlab
        )
    }
}

/// What `check --format` writes: a report format, or the HTML page of
/// `pgnkit report`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    /// One of the report formats (their help is theirs).
    Report(ReportFormat),
    /// One self-contained HTML page with a board for each game with a
    /// problem, on standard output (what `pgnkit report -o -` writes).
    Html,
}

impl CheckFormat {
    /// The report format, or `None` for the HTML page.
    pub fn report(self) -> Option<ReportFormat> {
        match self {
            CheckFormat::Report(f) => Some(f),
            CheckFormat::Html => None,
        }
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for CheckFormat {
    fn value_variants<'a>() -> &'a [Self] {
        use ReportFormat::{Github, Gitlab, Human, Json, Junit, Sarif};
        &[
            CheckFormat::Report(Human),
            CheckFormat::Report(Json),
            CheckFormat::Report(Github),
            CheckFormat::Report(Sarif),
            CheckFormat::Report(Junit),
            CheckFormat::Report(Gitlab),
            CheckFormat::Html,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            CheckFormat::Report(f) => f.to_possible_value(),
            CheckFormat::Html => Some(clap::builder::PossibleValue::new("html").help(
                "One self-contained HTML page with a board for each game with a problem, \
                 on standard output (what `pgnkit report -o -` writes)",
            )),
        }
    }
}

impl From<Format> for ReportFormat {
    fn from(f: Format) -> ReportFormat {
        match f {
            Format::Human => ReportFormat::Human,
            Format::Json => ReportFormat::Json,
            Format::Github => ReportFormat::Github,
        }
    }
}

/// How a [`Printer`] prints.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Colours in human output.
    pub color: bool,
    /// Warnings fail a file too (JUnit).
    pub strict: bool,
    /// The most GitHub annotations written.
    pub max_annotations: u64,
    /// Which suggestions are printed.
    pub suggestions: Suggestions,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            color: false,
            strict: false,
            max_annotations: DEFAULT_MAX_ANNOTATIONS,
            suggestions: Suggestions::Best,
        }
    }
}

/// The default of `--max-annotations`: GitHub shows 10 error and 10
/// warning annotations a step, 50 a job.
pub const DEFAULT_MAX_ANNOTATIONS: u64 = 50;

enum State {
    Stream,
    Github(Github),
    Sarif(Sarif),
    Junit(Junit),
    Gitlab(Gitlab),
}

/// Prints a run's diagnostics in one [`ReportFormat`].
pub struct Printer {
    format: ReportFormat,
    color: bool,
    suggestions: Suggestions,
    state: State,
}

impl Printer {
    /// A printer of `format`.
    pub fn new(format: ReportFormat, settings: Settings) -> Printer {
        let state = match format {
            ReportFormat::Human | ReportFormat::Json => State::Stream,
            ReportFormat::Github => State::Github(Github::new(settings.max_annotations)),
            ReportFormat::Sarif => State::Sarif(Sarif::new(settings.suggestions)),
            ReportFormat::Junit => State::Junit(Junit::new(settings.strict, settings.suggestions)),
            ReportFormat::Gitlab => State::Gitlab(Gitlab::default()),
        };
        Printer {
            format,
            color: settings.color,
            suggestions: settings.suggestions,
            state,
        }
    }

    /// The format.
    pub fn format(&self) -> ReportFormat {
        self.format
    }

    /// The record format that locating and game records follow: documents
    /// take what JSON takes (no source lines).
    pub fn stream_format(&self) -> Format {
        match self.format {
            ReportFormat::Human => Format::Human,
            ReportFormat::Github => Format::Github,
            _ => Format::Json,
        }
    }

    /// Writes the start of a document.
    ///
    /// # Errors
    /// Those of writing.
    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.state {
            State::Sarif(s) => s.begin(out),
            State::Gitlab(g) => g.begin(out),
            _ => Ok(()),
        }
    }

    /// An input named `name` is about to be read.
    pub fn begin_file(&mut self, name: &str) {
        if let State::Junit(j) = &mut self.state {
            j.begin_file(name);
        }
    }

    /// Prints one diagnostic of `file`.
    ///
    /// # Errors
    /// Those of writing.
    pub fn diagnostic(&mut self, out: &mut dyn Write, file: &str, l: &Located) -> io::Result<()> {
        match &mut self.state {
            State::Stream => render::diagnostic(
                out,
                self.stream_format(),
                self.color,
                self.suggestions,
                file,
                l,
            ),
            State::Github(g) => {
                if g.admit(file, l) {
                    render::diagnostic(out, Format::Github, false, self.suggestions, file, l)
                } else {
                    Ok(())
                }
            }
            State::Sarif(s) => s.diagnostic(out, file, l),
            State::Junit(j) => {
                j.diagnostic(l);
                Ok(())
            }
            State::Gitlab(g) => g.diagnostic(out, file, l),
        }
    }

    /// Prints the note of a game whose diagnostics were too many to keep
    /// (in the record formats; documents count them in their totals).
    ///
    /// # Errors
    /// Those of writing.
    pub fn omitted(
        &mut self,
        out: &mut dyn Write,
        file: &str,
        game: u64,
        omitted: pgnkit_replay::Omitted,
    ) -> io::Result<()> {
        match self.state {
            State::Stream => render::omitted(out, self.stream_format(), file, game, omitted),
            _ => Ok(()),
        }
    }

    /// Prints the `--games` record of a game (record formats only).
    ///
    /// # Errors
    /// Those of writing.
    pub fn game(
        &mut self,
        out: &mut dyn Write,
        file: &str,
        number: u64,
        byte: usize,
        name: Option<&str>,
        facts: &GameFacts,
    ) -> io::Result<()> {
        match self.state {
            State::Stream | State::Github(_) => {
                games::write_game(out, self.stream_format(), file, number, byte, name, facts)
            }
            _ => Ok(()),
        }
    }

    /// The input begun last is read; `totals` are its counts.
    ///
    /// # Errors
    /// Those of keeping a JUnit test case.
    pub fn end_file(&mut self, totals: &Totals) -> io::Result<()> {
        match &mut self.state {
            State::Junit(j) => j.end_file(totals),
            _ => Ok(()),
        }
    }

    /// Reports an input that could not be read: for humans on `err`, in
    /// the documents as they say it (SARIF: a tool notification, JUnit: a
    /// test case in error; GitLab: on `err`).
    ///
    /// # Errors
    /// Those of writing.
    pub fn failure(
        &mut self,
        out: &mut dyn Write,
        err: &mut dyn Write,
        path: &str,
        message: &str,
    ) -> io::Result<()> {
        match &mut self.state {
            State::Stream | State::Github(_) => {
                games::failure(out, err, self.stream_format(), path, message)
            }
            State::Sarif(s) => {
                s.failure(path, message);
                games::failure(out, err, Format::Human, path, message)
            }
            State::Junit(j) => {
                j.failure(path, message)?;
                games::failure(out, err, Format::Human, path, message)
            }
            State::Gitlab(_) => games::failure(out, err, Format::Human, path, message),
        }
    }

    /// Ends the run: closes a document, writes the GitHub notice of the
    /// annotations left out. `seconds` is the run's time.
    ///
    /// # Errors
    /// Those of writing.
    pub fn finish(&mut self, out: &mut dyn Write, seconds: f64) -> io::Result<()> {
        match &mut self.state {
            State::Stream => Ok(()),
            State::Github(g) => g.finish(out),
            State::Sarif(s) => s.finish(out),
            State::Junit(j) => j.finish(out, seconds),
            State::Gitlab(g) => g.finish(out),
        }
    }

    /// The GitHub job summary in Markdown (for `$GITHUB_STEP_SUMMARY`), in
    /// the `github` format after [`Printer::finish`].
    pub fn job_summary(&self, files: u64, totals: &Totals) -> Option<String> {
        match &self.state {
            State::Github(g) => Some(g.summary(files, totals)),
            _ => None,
        }
    }
}
