//! Baselines: the problems a database is known to have, so that a CI gate
//! fails only on new ones (`check --write-baseline FILE`, then
//! `check --baseline FILE`).
//!
//! A problem is known by its file and its fingerprint
//! ([`crate::fingerprint`]: the game's identity, the code, the ply, the
//! token), never by its line or byte, so games added or removed before it
//! and lines wrapped anew leave it known. Identical problems (identical
//! games) are counted. A game's problems beyond the ones it keeps
//! ([`pgnkit_replay::diagnostic::MAX_PER_GAME`]) are known by their count.
//!
//! The file is JSON, sorted by file and game, one problem a line:
//!
//! ```json
//! {"pgnkit_baseline":1,"problems":[
//! {"file":"games.pgn","fingerprint":"e3be947ac5c357ac","code":"illegal-move","game":3,"count":1,"message":"…"}
//! ]}
//! ```
//!
//! ```
//! use pgnkit_report::baseline::{Baseline, Problem};
//!
//! let mut written = Baseline::default();
//! written.add(Problem::new("a.pgn", 0xabc, "illegal-move", 3, "no knight reaches f3"));
//! let mut text = Vec::new();
//! written.write(&mut text).unwrap();
//! let mut known = Baseline::read(&text).unwrap();
//! assert!(known.take("./a.pgn", 0xabc)); // known: not reported
//! assert!(!known.take("a.pgn", 0xabc)); // a second one is new
//! assert!(known.stale().is_empty());
//! ```

use std::collections::HashMap;
use std::io::{self, Write};

use pgnkit_replay::{Omitted, Severity};
use serde::{Deserialize, Serialize};

use crate::fingerprint::GameIdentity;
use crate::render::Located;

/// The version of the file's layout.
pub const VERSION: u32 = 1;

/// The `baseline` member of `check`'s summary record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Problems the baseline knew: not reported, not counted.
    pub known: u64,
    /// Problems of the baseline not found any more.
    pub stale: u64,
}

/// A known problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The file, as named on the command line (without a leading `./`).
    pub file: String,
    /// The fingerprint, 16 hexadecimal digits.
    pub fingerprint: String,
    /// The code (`omitted` for the problems past a game's limit).
    pub code: String,
    /// The game's number when the baseline was written (for people; not
    /// used to match).
    pub game: u64,
    /// How many identical problems.
    pub count: u32,
    /// The message when the baseline was written (for people).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Problem {
    /// One problem of `file` with `fingerprint`.
    pub fn new(file: &str, fingerprint: u64, code: &str, game: u64, message: &str) -> Problem {
        Problem {
            file: normal(file).to_owned(),
            fingerprint: crate::fingerprint::hex(fingerprint),
            code: code.to_owned(),
            game,
            count: 1,
            message: message.to_owned(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    pgnkit_baseline: u32,
    problems: Vec<Problem>,
}

/// A file name as matched: without a leading `./`.
fn normal(file: &str) -> &str {
    let mut f = file;
    while let Some(rest) = f.strip_prefix("./") {
        f = rest;
    }
    f
}

/// Problems a baseline knew in one game, by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// Errors known.
    pub errors: u64,
    /// Warnings known.
    pub warnings: u64,
}

/// Known problems, by file and fingerprint.
#[derive(Debug, Default)]
pub struct Baseline {
    problems: Vec<Problem>,
    index: HashMap<(String, String), usize>,
}

impl Baseline {
    /// Reads a baseline file's bytes.
    ///
    /// # Errors
    /// When it is not a baseline of this version: the message says why.
    pub fn read(bytes: &[u8]) -> Result<Baseline, String> {
        let file: BaselineFile =
            serde_json::from_slice(bytes).map_err(|e| format!("not a pgnkit baseline: {e}"))?;
        if file.pgnkit_baseline != VERSION {
            return Err(format!(
                "a baseline of version {}, and this pgnkit reads version {VERSION}: write it again with --write-baseline",
                file.pgnkit_baseline
            ));
        }
        let mut b = Baseline::default();
        for p in file.problems {
            b.add(p);
        }
        Ok(b)
    }

    /// Adds a problem (counted with an identical one already there).
    pub fn add(&mut self, p: Problem) {
        let key = (normal(&p.file).to_owned(), p.fingerprint.clone());
        match self.index.get(&key) {
            Some(&i) => {
                if let Some(q) = self.problems.get_mut(i) {
                    q.count = q.count.saturating_add(p.count);
                }
            }
            None => {
                self.index.insert(key, self.problems.len());
                self.problems.push(p);
            }
        }
    }

    /// Whether a problem of `file` with `fingerprint` is known; if so it
    /// is taken (a second identical problem needs a second entry).
    pub fn take(&mut self, file: &str, fingerprint: u64) -> bool {
        self.take_many(file, fingerprint, 1) == 1
    }

    /// Takes up to `n` known problems of `file` with `fingerprint` and
    /// says how many were known.
    pub fn take_many(&mut self, file: &str, fingerprint: u64, n: u32) -> u32 {
        let key = (
            normal(file).to_owned(),
            crate::fingerprint::hex(fingerprint),
        );
        let Some(&i) = self.index.get(&key) else {
            return 0;
        };
        let Some(p) = self.problems.get_mut(i) else {
            return 0;
        };
        let taken = p.count.min(n);
        p.count -= taken;
        taken
    }

    /// Leaves out of one game's problems (`diagnostics`, those it kept,
    /// and `omitted`, those it counted; `game` names it) the ones this
    /// baseline knows, and says how many of each severity.
    pub fn drop_known(
        &mut self,
        file: &str,
        game: GameIdentity,
        diagnostics: &mut Vec<Located>,
        omitted: &mut Omitted,
    ) -> Known {
        let mut known = Known::default();
        diagnostics.retain(|l| {
            if !self.take(file, l.fingerprint) {
                return true;
            }
            match l.diagnostic.severity {
                Severity::Error => known.errors += 1,
                Severity::Warning => known.warnings += 1,
            }
            false
        });
        if !omitted.is_empty() {
            let all = omitted.errors.saturating_add(omitted.warnings);
            let n = u64::from(self.take_many(
                file,
                crate::fingerprint::omitted(game),
                u32::try_from(all).unwrap_or(u32::MAX),
            ));
            let errors = n.min(omitted.errors);
            let warnings = (n - errors).min(omitted.warnings);
            omitted.errors -= errors;
            omitted.warnings -= warnings;
            known.errors += errors;
            known.warnings += warnings;
        }
        known
    }

    /// Adds the problems of game number `number` of `file` (named `game`):
    /// those it kept, and those it counted past them as one entry.
    pub fn add_game(
        &mut self,
        file: &str,
        number: u64,
        game: GameIdentity,
        diagnostics: &[Located],
        omitted: Omitted,
    ) {
        for l in diagnostics {
            let d = &l.diagnostic;
            self.add(Problem::new(
                file,
                l.fingerprint,
                d.code.as_str(),
                number,
                &d.message,
            ));
        }
        if !omitted.is_empty() {
            let mut p = Problem::new(
                file,
                crate::fingerprint::omitted(game),
                "omitted",
                number,
                "problems past the ones a game keeps",
            );
            p.count =
                u32::try_from(omitted.errors.saturating_add(omitted.warnings)).unwrap_or(u32::MAX);
            self.add(p);
        }
    }

    /// The known problems not taken: fixed since the baseline was written.
    pub fn stale(&self) -> Vec<&Problem> {
        self.problems.iter().filter(|p| p.count > 0).collect()
    }

    /// How many problems it holds (identical ones counted).
    pub fn len(&self) -> u64 {
        self.problems.iter().map(|p| u64::from(p.count)).sum()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes it as a baseline file, sorted by file, game and fingerprint.
    ///
    /// # Errors
    /// Those of writing.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut sorted: Vec<&Problem> = self.problems.iter().filter(|p| p.count > 0).collect();
        sorted.sort_by(|a, b| {
            (&a.file, a.game, &a.fingerprint).cmp(&(&b.file, b.game, &b.fingerprint))
        });
        write!(out, "{{\"pgnkit_baseline\":{VERSION},\"problems\":[")?;
        for (i, p) in sorted.iter().enumerate() {
            out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
            serde_json::to_writer(&mut *out, p)?;
        }
        writeln!(out, "\n]}}")
    }
}

/// Writes the JSON record of a baseline entry no longer found.
///
/// # Errors
/// Those of writing.
pub fn write_stale(out: &mut dyn Write, p: &Problem) -> io::Result<()> {
    #[derive(Serialize)]
    struct Stale<'a> {
        r#type: &'static str,
        #[serde(flatten)]
        problem: &'a Problem,
    }
    serde_json::to_writer(
        &mut *out,
        &Stale {
            r#type: "stale",
            problem: p,
        },
    )?;
    out.write_all(b"\n")
}

/// For humans: "baseline: 12 known problems not reported; 2 no longer found
/// (fixed?): …", with the first ten stale entries.
pub fn note(known: u64, stale: &[&Problem]) -> String {
    let mut line = format!("baseline: {known} known problems not reported");
    if stale.is_empty() {
        return line;
    }
    let n: u64 = stale.iter().map(|p| u64::from(p.count)).sum();
    line.push_str(&format!(
        "; {n} no longer found (fixed?): write it again with --write-baseline to shrink it"
    ));
    for p in stale.iter().take(10) {
        line.push_str(&format!(
            "\n  {} game {} (then): {} {}",
            p.file, p.game, p.code, p.message
        ));
    }
    if stale.len() > 10 {
        line.push_str(&format!("\n  … and {} more", stale.len() - 10));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_problems_are_counted_and_stale_ones_found() {
        let mut b = Baseline::default();
        b.add(Problem::new("a.pgn", 1, "illegal-move", 3, ""));
        b.add(Problem::new("a.pgn", 1, "illegal-move", 9, ""));
        b.add(Problem::new("b.pgn", 2, "check-mark", 1, ""));
        let mut text = Vec::new();
        b.write(&mut text).unwrap();
        let mut b = Baseline::read(&text).unwrap();
        assert_eq!(b.len(), 3);
        assert!(b.take("a.pgn", 1) && b.take("a.pgn", 1) && !b.take("a.pgn", 1));
        assert!(!b.take("a.pgn", 2), "matched by file too");
        let stale = b.stale();
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].code, "check-mark");
    }

    #[test]
    fn problems_past_a_games_limit_are_known_by_their_count() {
        use pgnkit_replay::Code;
        let game = GameIdentity::of(&pgnkit_pgn::Game::default());
        let mut omitted = Omitted::default();
        omitted.add(Code::UnparsableMove, Severity::Error, 150);
        let mut written = Baseline::default();
        written.add_game("a.pgn", 1, game, &[], omitted);
        let mut text = Vec::new();
        written.write(&mut text).unwrap();
        let mut known = Baseline::read(&text).unwrap();
        // Ten more of them now, and two warnings: those are new.
        let mut now = Omitted::default();
        now.add(Code::UnparsableMove, Severity::Error, 160);
        now.add(Code::CheckMark, Severity::Warning, 2);
        let found = known.drop_known("a.pgn", game, &mut Vec::new(), &mut now);
        assert_eq!(
            found,
            Known {
                errors: 150,
                warnings: 0
            }
        );
        assert_eq!((now.errors, now.warnings), (10, 2));
        assert!(known.stale().is_empty());
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        assert!(
            Baseline::read(b"{}")
                .unwrap_err()
                .contains("not a pgnkit baseline")
        );
        let e = Baseline::read(br#"{"pgnkit_baseline":7,"problems":[]}"#).unwrap_err();
        assert!(e.contains("version 7"));
    }
}
