//! JUnit XML, as GitLab, Jenkins and most CI systems read test reports: one
//! test suite for the run, one test case per input file, failed when the
//! file has errors (or, under `--strict`, warnings), in error when it could
//! not be read. A failure lists the file's problems, at most
//! [`LISTED_PER_FILE`] of them, and says how many more there were.
//!
//! The suite's counts open the document, so the test cases are kept until
//! the run ends: in memory up to [`IN_MEMORY`] bytes, beyond that in an
//! anonymous temporary file. Memory stays bounded whatever the number of
//! files.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

use pgnkit_replay::Severity;

use crate::render::{Located, Suggestions, help_lines};
use crate::summary::Totals;

/// Problems listed in one file's test case; the rest are counted.
pub const LISTED_PER_FILE: usize = 100;

/// Test cases kept in memory before they go to a temporary file.
pub const IN_MEMORY: usize = 8 << 20;

/// A JUnit document being gathered.
#[derive(Default)]
pub struct Junit {
    strict: bool,
    suggestions: Suggestions,
    /// The test cases written so far.
    cases: Vec<u8>,
    spilled: Option<File>,
    tests: u64,
    failures: u64,
    errors: u64,
    /// The file whose test case is being gathered.
    file: Option<FileCase>,
}

#[derive(Default)]
struct FileCase {
    name: String,
    /// Problem lines of errors (and, under `--strict`, warnings).
    failing: String,
    /// Problem lines of warnings that do not fail the file.
    other: String,
    listed: usize,
    errors: u64,
    warnings: u64,
}

/// `text` escaped for XML: markup characters as entities, and the
/// characters XML 1.0 does not allow (control characters other than tab
/// and line breaks, which a PGN file may hold) as U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

impl Junit {
    /// A document where warnings fail a file too when `strict`, and
    /// problems are listed with the help lines of `suggestions`.
    pub fn new(strict: bool, suggestions: Suggestions) -> Junit {
        Junit {
            strict,
            suggestions,
            ..Junit::default()
        }
    }

    /// A file's test case begins.
    pub fn begin_file(&mut self, name: &str) {
        self.file = Some(FileCase {
            name: name.to_owned(),
            ..FileCase::default()
        });
    }

    /// Adds one diagnostic to the current file's test case.
    pub fn diagnostic(&mut self, l: &Located) {
        let strict = self.strict;
        let Some(f) = self.file.as_mut() else {
            return;
        };
        let d = &l.diagnostic;
        match d.severity {
            Severity::Error => f.errors += 1,
            Severity::Warning => f.warnings += 1,
        }
        if f.listed >= LISTED_PER_FILE {
            return;
        }
        f.listed += 1;
        let mut line = format!(
            "game {}, line {}, column {}: {}[{}] {}",
            l.game,
            l.line,
            l.column,
            d.severity.as_str(),
            d.code.as_str(),
            d.message
        );
        for h in help_lines(d, self.suggestions) {
            line.push_str("\n    help: ");
            line.push_str(&h);
        }
        line.push('\n');
        if d.severity == Severity::Error || strict {
            f.failing.push_str(&line);
        } else {
            f.other.push_str(&line);
        }
    }

    /// Ends the current file's test case; `totals` are its counts (they
    /// include problems beyond those a game keeps).
    pub fn end_file(&mut self, totals: &Totals) -> io::Result<()> {
        let Some(f) = self.file.take() else {
            return Ok(());
        };
        let (errors, warnings) = (totals.errors.max(f.errors), totals.warnings.max(f.warnings));
        let failing = errors + if self.strict { warnings } else { 0 };
        let listed = f.listed as u64;
        let mut case = format!(
            "    <testcase classname=\"pgnkit.check\" name=\"{}\">\n",
            escape(&f.name)
        );
        if failing > 0 {
            self.failures += 1;
            let mut message = format!(
                "{} in {} of {}",
                plural(errors, "error"),
                totals.games_with_errors,
                plural(totals.games, "game")
            );
            if self.strict && warnings > 0 {
                message.push_str(&format!(", {} (--strict)", plural(warnings, "warning")));
            }
            let mut body = f.failing;
            if errors + warnings > listed {
                body.push_str(&format!(
                    "… and {} more not listed (at most {LISTED_PER_FILE} a file)\n",
                    errors + warnings - listed
                ));
            }
            case.push_str(&format!(
                "      <failure type=\"pgnkit.check\" message=\"{}\">{}</failure>\n",
                escape(&message),
                escape(&body)
            ));
        }
        if !f.other.is_empty() {
            case.push_str(&format!(
                "      <system-out>{}</system-out>\n",
                escape(&f.other)
            ));
        }
        case.push_str("    </testcase>\n");
        self.tests += 1;
        self.push(case.as_bytes())
    }

    /// A file that could not be read: a test case in error.
    pub fn failure(&mut self, path: &str, message: &str) -> io::Result<()> {
        self.file = None;
        self.tests += 1;
        self.errors += 1;
        let case = format!(
            "    <testcase classname=\"pgnkit.check\" name=\"{}\">\n      <error type=\"pgnkit.unreadable\" message=\"{}\"/>\n    </testcase>\n",
            escape(path),
            escape(message)
        );
        self.push(case.as_bytes())
    }

    fn push(&mut self, case: &[u8]) -> io::Result<()> {
        self.cases.extend_from_slice(case);
        if self.cases.len() >= IN_MEMORY {
            let file = match &mut self.spilled {
                Some(f) => f,
                None => self.spilled.insert(tempfile::tempfile()?),
            };
            file.write_all(&self.cases)?;
            self.cases.clear();
        }
        Ok(())
    }

    /// Writes the whole document; `seconds` is the run's time.
    pub fn finish(&mut self, out: &mut dyn Write, seconds: f64) -> io::Result<()> {
        let counts = format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{seconds:.3}\"",
            self.tests, self.failures, self.errors
        );
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pgnkit check\" {counts}>\n  <testsuite name=\"pgnkit check\" {counts}>\n"
        )?;
        if let Some(mut f) = self.spilled.take() {
            f.seek(SeekFrom::Start(0))?;
            io::copy(&mut f, out)?;
        }
        out.write_all(&self.cases)?;
        self.cases.clear();
        out.write_all(b"  </testsuite>\n</testsuites>\n")
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(escape("nul\0here\ttab"), "nul\u{fffd}here\ttab");
    }
}
