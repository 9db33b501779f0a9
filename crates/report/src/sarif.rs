//! SARIF 2.1.0 (the Static Analysis Results Interchange Format, as GitHub
//! code scanning, GitLab and editors read it), written as the run goes: the
//! document's head and every rule first, then one result per diagnostic,
//! then the run's invocation (inputs that could not be read) at the end. A
//! run of millions of diagnostics is never held in memory.

use std::io::{self, Write};

use pgnkit_replay::Code;
use serde_json::json;

use crate::fingerprint;
use crate::render::{Located, Suggestions, help_lines};

/// Where SARIF's schema is.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key of pgnkit's fingerprint in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "pgnkit/v1";

/// A SARIF document being written.
#[derive(Default)]
pub struct Sarif {
    results: u64,
    failures: Vec<(String, String)>,
    suggestions: Suggestions,
}

/// The rules: one per code, in [`Code::ALL`]'s order (a result's
/// `ruleIndex` is its code's place there).
fn rules() -> serde_json::Value {
    Code::ALL
        .iter()
        .map(|c| {
            json!({
                "id": c.as_str(),
                "shortDescription": {"text": c.summary()},
                "defaultConfiguration": {"level": c.severity().as_str()},
            })
        })
        .collect()
}

/// A file name as a URI reference: relative paths stay relative, absolute
/// ones become `file://` URIs, and what a URI may not hold is
/// percent-encoded.
pub fn uri(path: &str) -> String {
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Sarif {
    /// A document whose messages end with the help lines of `suggestions`.
    pub fn new(suggestions: Suggestions) -> Sarif {
        Sarif {
            suggestions,
            ..Sarif::default()
        }
    }

    /// Writes the document's head: the tool, its rules, the start of the
    /// results.
    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let driver = json!({
            "name": "pgnkit",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": env!("CARGO_PKG_REPOSITORY"),
            "rules": rules(),
        });
        write!(
            out,
            "{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":{driver}}},\"columnKind\":\"unicodeCodePoints\",\"results\":["
        )
    }

    /// Writes one diagnostic as a result.
    pub fn diagnostic(&mut self, out: &mut dyn Write, file: &str, l: &Located) -> io::Result<()> {
        let d = &l.diagnostic;
        let mut message = d.message.clone();
        for h in help_lines(d, self.suggestions) {
            message.push_str("\nhelp: ");
            message.push_str(&h);
        }
        let rule = Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0);
        let mut properties = json!({"game": l.game});
        if let Some(ply) = d.ply {
            properties["ply"] = json!(ply);
        }
        if d.variation {
            properties["variation"] = json!(true);
        }
        let result = json!({
            "ruleId": d.code.as_str(),
            "ruleIndex": rule,
            "level": d.severity.as_str(),
            "message": {"text": message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri(file)},
                "region": {
                    "startLine": l.line,
                    "startColumn": l.column,
                    "endLine": l.end_line,
                    "endColumn": l.end_column,
                    "byteOffset": l.byte,
                    "byteLength": d.span.len(),
                },
            }}],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint::hex(l.fingerprint)},
            "properties": properties,
        });
        if self.results > 0 {
            out.write_all(b",")?;
        }
        self.results += 1;
        serde_json::to_writer(&mut *out, &result)?;
        out.write_all(b"\n")
    }

    /// Notes an input that could not be read (reported at the end as a
    /// tool execution notification).
    pub fn failure(&mut self, path: &str, message: &str) {
        self.failures.push((path.to_owned(), message.to_owned()));
    }

    /// Closes the results and the document.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let notifications: Vec<serde_json::Value> = self
            .failures
            .iter()
            .map(|(path, message)| {
                json!({
                    "level": "error",
                    "message": {"text": message},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(path)}}}],
                })
            })
            .collect();
        let invocation = json!({
            "executionSuccessful": self.failures.is_empty(),
            "toolExecutionNotifications": notifications,
        });
        writeln!(out, "],\"invocations\":[{invocation}]}}]}}")
    }
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(uri("games/a.pgn"), "games/a.pgn");
        assert_eq!(uri("/tmp/my games.pgn"), "file:///tmp/my%20games.pgn");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(uri("é.pgn"), "%C3%A9.pgn");
    }
}
