//! GitLab Code Quality reports: a JSON array of issues, each with a
//! description, a `check_name` (the code), a `fingerprint`, a `severity`
//! (`major` for errors, `minor` for warnings) and a location with the
//! begin and end of the token. Written as the run goes.
//!
//! GitLab compares reports by fingerprint (which issues a merge request
//! adds or fixes), and wants them unique: pgnkit's fingerprint
//! ([`crate::fingerprint`]) with the file's path and how many times it
//! came before in that file (identical games have identical problems).
//! Those counts are kept per file for at most [`COUNTED`] fingerprints;
//! beyond that a repeat may share its fingerprint.

use std::collections::HashMap;
use std::io::{self, Write};

use pgnkit_replay::Severity;
use serde_json::json;

use crate::fingerprint;
use crate::render::Located;

/// Distinct fingerprints whose repeats are counted in one file.
pub const COUNTED: usize = 1 << 20;

/// A Code Quality report being written.
#[derive(Default)]
pub struct Gitlab {
    issues: u64,
    file: String,
    /// The hash of `file`'s path, in every fingerprint of its issues.
    file_hash: String,
    seen: HashMap<u64, u32>,
}

impl Gitlab {
    /// Opens the array.
    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"[")
    }

    /// Writes one diagnostic as an issue.
    pub fn diagnostic(&mut self, out: &mut dyn Write, file: &str, l: &Located) -> io::Result<()> {
        if self.file != file || self.file_hash.is_empty() {
            self.file = file.to_owned();
            self.file_hash = fingerprint::hex(fingerprint::of_bytes(file.as_bytes()));
            self.seen.clear();
        }
        let before = match self.seen.get_mut(&l.fingerprint) {
            Some(n) => {
                *n = n.saturating_add(1);
                *n - 1
            }
            None => {
                if self.seen.len() < COUNTED {
                    self.seen.insert(l.fingerprint, 1);
                }
                0
            }
        };
        let mut unique = fingerprint::hex(l.fingerprint);
        unique.push('-');
        unique.push_str(&self.file_hash);
        if before > 0 {
            unique.push_str(&format!("-{before}"));
        }
        let d = &l.diagnostic;
        let issue = json!({
            "type": "issue",
            "description": format!("game {}: {}", l.game, d.message),
            "check_name": d.code.as_str(),
            "fingerprint": unique,
            "severity": match d.severity {
                Severity::Error => "major",
                Severity::Warning => "minor",
            },
            "location": {
                "path": file,
                "positions": {
                    "begin": {"line": l.line, "column": l.column},
                    "end": {"line": l.end_line, "column": l.end_column},
                },
            },
        });
        if self.issues > 0 {
            out.write_all(b",")?;
        }
        self.issues += 1;
        serde_json::to_writer(&mut *out, &issue)?;
        out.write_all(b"\n")
    }

    /// Closes the array.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"]\n")
    }
}
