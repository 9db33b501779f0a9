//! Printers for diagnostics as data: human (rustc-style, with the source line
//! and a caret), NDJSON, and GitHub Actions annotations.

use std::io::Write;

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};

use pgnkit_replay::{Diagnostic, Severity, Suggestion, diagnostic::side_name};
use serde::Serialize;

use crate::Format;

/// A diagnostic with everything a printer needs to say where it is.
pub struct Located {
    /// The diagnostic.
    pub diagnostic: Diagnostic,
    /// 1-based game number in its file.
    pub game: u64,
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
    /// 0-based byte offset in the file.
    pub byte: usize,
    /// 1-based line of the token's end.
    pub end_line: usize,
    /// 1-based column just after the token (exclusive, as SARIF counts:
    /// `column` for an empty token), in characters.
    pub end_column: usize,
    /// What names the problem whatever its place in the file
    /// ([`crate::fingerprint`]).
    pub fingerprint: u64,
    /// The source line and the token's byte range in it (human output only).
    pub source: Option<(String, std::ops::Range<usize>)>,
    /// "White - Black (Event)" for humans.
    pub game_name: Option<String>,
}

impl Located {
    /// Places a diagnostic located in a chunk in its file: game number
    /// `game`, and its lines (counted from the chunk's start) mapped by
    /// `line`.
    pub fn place(&mut self, game: u64, line: impl Fn(usize) -> usize) {
        self.game = game;
        self.line = line(self.line);
        self.end_line = line(self.end_line);
    }
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    r#type: &'static str,
    severity: &'static str,
    code: &'static str,
    file: &'a str,
    game: u64,
    line: usize,
    column: usize,
    byte: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    move_number: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
    message: &'a str,
    suggestions: &'a [Suggestion],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    variation: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stood: bool,
}

/// At most this many suggestions of one problem are printed for humans
/// (and in GitHub annotations) unless all are asked for.
pub const MAX_SHOWN: usize = 3;

/// Which suggestions are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Suggestions {
    /// None, in any format (`--no-suggestions`): the JSON record's list is
    /// empty too.
    None,
    /// Human and GitHub output: the top suggestion, and those as good as it
    /// ([`pgnkit_replay::diagnostic::Rank::best`]), at most [`MAX_SHOWN`];
    /// JSON: all, each with its `best` marker.
    #[default]
    Best,
    /// All the repair found, in every format (`--all-suggestions`).
    All,
}

/// The help lines to print for `d`: those of the suggestions `shown`
/// picks, then the others.
pub fn help_lines(d: &Diagnostic, shown: Suggestions) -> Vec<std::borrow::Cow<'_, str>> {
    let (said, other) = d.help_parts();
    let mut lines: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(d.help.len());
    match shown {
        Suggestions::None => {}
        Suggestions::All => lines.extend(said.iter().map(|h| h.as_str().into())),
        Suggestions::Best => {
            // The top one always (a list ranked elsewhere may not mark it).
            let best: Vec<&String> = said
                .iter()
                .zip(&d.suggestions)
                .enumerate()
                .filter(|(i, (_, s))| *i == 0 || s.rank().best)
                .map(|(_, (h, _))| h)
                .collect();
            lines.extend(best.iter().take(MAX_SHOWN).map(|h| h.as_str().into()));
            let more = best.len().saturating_sub(MAX_SHOWN);
            if more > 0 {
                let fixes = if more == 1 { "fix fits" } else { "fixes fit" };
                lines.push(
                    format!("{more} more {fixes} as well (`--all-suggestions` prints them)").into(),
                );
            }
        }
    }
    lines.extend(other.iter().map(|h| h.as_str().into()));
    lines
}

/// Writes one diagnostic in `format`, with the suggestions `shown` picks.
pub fn diagnostic(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    shown: Suggestions,
    file: &str,
    l: &Located,
) -> std::io::Result<()> {
    let d = &l.diagnostic;
    match format {
        Format::Json => {
            let record = JsonDiagnostic {
                r#type: "diagnostic",
                severity: d.severity.as_str(),
                code: d.code.as_str(),
                file,
                game: l.game,
                line: l.line,
                column: l.column,
                byte: l.byte,
                ply: d.ply,
                move_number: d.move_number,
                side: d.side.map(side_name),
                token: d.token.as_deref(),
                message: &d.message,
                suggestions: if shown == Suggestions::None {
                    &[]
                } else {
                    &d.suggestions
                },
                variation: d.variation,
                stood: d.stood,
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        Format::Github => {
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut message = format!("game {}", l.game);
            if let Some(ply) = d.ply {
                message.push_str(&format!(", ply {ply}"));
            }
            message.push_str(": ");
            message.push_str(&d.message);
            for h in help_lines(d, shown) {
                message.push_str("\nhelp: ");
                message.push_str(&h);
            }
            writeln!(
                out,
                "::{level} file={},line={},endLine={},col={},endColumn={},title={}::{}",
                escape_property(file),
                l.line,
                l.end_line,
                l.column,
                l.end_column,
                escape_property(d.code.as_str()),
                escape_data(&message)
            )
        }
        Format::Human => {
            let level = match d.severity {
                Severity::Error => Level::ERROR,
                Severity::Warning => Level::WARNING,
            };
            let origin = Origin::path(file).line(l.line).char_column(l.column);
            let mut label = String::new();
            if let (Some(ply), Some(n), Some(side)) = (d.ply, d.move_number, d.side) {
                label = format!(
                    "ply {ply}, move {n}{} {}",
                    if side == shakmaty::Color::White {
                        "."
                    } else {
                        "..."
                    },
                    side_name(side)
                );
                if d.variation {
                    label.push_str(", in a variation");
                }
            }
            let mut notes = Vec::new();
            let mut game_note = format!("game {}", l.game);
            if let Some(name) = &l.game_name {
                game_note.push_str(": ");
                game_note.push_str(name);
            }
            notes.push(Level::NOTE.message(game_note));
            let help = help_lines(d, shown);
            for h in &help {
                notes.push(Level::HELP.message(h.as_ref()));
            }
            let group = match &l.source {
                Some((text, span)) => level
                    .primary_title(d.message.as_str())
                    .id(d.code.as_str())
                    .element(
                        Snippet::source(text.as_str())
                            .line_start(l.line)
                            .path(file)
                            .annotation(
                                AnnotationKind::Primary
                                    .span(span.clone())
                                    .label(label.as_str()),
                            ),
                    )
                    .elements(notes),
                None => level
                    .primary_title(d.message.as_str())
                    .id(d.code.as_str())
                    .element(origin)
                    .elements(notes),
            };
            let renderer = if color {
                Renderer::styled()
            } else {
                Renderer::plain()
            };
            writeln!(out, "{}\n", renderer.render(&[group]))
        }
    }
}

/// A GitHub Actions message: `%`, CR and LF escaped.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A GitHub Actions property value (`file=…`): also `:` and `,` escaped.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The source line around a token, cut to a window on very long lines, and
/// the token's range in it.
pub fn source_window(
    line: &str,
    token: std::ops::Range<usize>,
) -> (String, std::ops::Range<usize>) {
    const WIDTH: usize = 2048;
    // On character boundaries, whatever the caller computed (a token
    // decoded apart from its line may not line up with it): the range
    // starts at or before `token.start` and ends at or after `token.end`.
    let mut start = token.start.min(line.len());
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = token.end.clamp(start, line.len());
    while !line.is_char_boundary(end) {
        end += 1;
    }
    let token = start..end;
    if line.len() <= 2 * WIDTH {
        let end = if token.end == token.start {
            // An empty span is shown as the character after it (if any).
            line[token.start..]
                .chars()
                .next()
                .map_or(token.start, |c| token.start + c.len_utf8())
        } else {
            token.end
        };
        return (line.to_owned(), token.start..end);
    }
    let mut from = token.start.saturating_sub(WIDTH / 2);
    while !line.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (token.end + WIDTH / 2).min(line.len());
    while !line.is_char_boundary(to) {
        to += 1;
    }
    let mut text = String::new();
    let mut shift = 0usize;
    if from > 0 {
        text.push('…');
        shift = '…'.len_utf8();
    }
    text.push_str(&line[from..to]);
    if to < line.len() {
        text.push('…');
    }
    let start = token.start - from + shift;
    let mut end = (token.end - from + shift).max(start + 1).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (text, start..end)
}

/// Writes the note that ends a game whose diagnostics were too many to keep
/// (see [`pgnkit_replay::diagnostic::MAX_PER_GAME`]): how many more were found.
pub fn omitted(
    out: &mut dyn Write,
    format: Format,
    file: &str,
    game: u64,
    omitted: pgnkit_replay::Omitted,
) -> std::io::Result<()> {
    if omitted.is_empty() {
        return Ok(());
    }
    let plural = |n: u64, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
    let mut what = Vec::new();
    if omitted.errors > 0 {
        what.push(plural(omitted.errors, "error"));
    }
    if omitted.warnings > 0 {
        what.push(plural(omitted.warnings, "warning"));
    }
    let sentence = format!(
        "game {game}: {} found in this game and not shown (at most {} errors and {} warnings are shown per game; the summary counts them all)",
        what.join(" and "),
        pgnkit_replay::diagnostic::MAX_PER_GAME,
        pgnkit_replay::diagnostic::MAX_PER_GAME,
    );
    match format {
        Format::Json => {
            let record = serde_json::json!({
                "type": "omitted",
                "file": file,
                "game": game,
                "errors": omitted.errors,
                "warnings": omitted.warnings,
            });
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        Format::Github => writeln!(
            out,
            "::notice file={}::{}",
            escape_property(file),
            escape_data(&sentence)
        ),
        Format::Human => writeln!(out, "note: {file}: {sentence}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::source_window;

    fn ok(line: &str, token: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let (text, r) = source_window(line, token);
        assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        assert!(r.start <= r.end && r.end <= text.len());
        r
    }

    #[test]
    fn ranges_inside_a_character_are_widened_to_it() {
        // A Latin-1 byte decoded apart from its line (found by fuzz/check).
        assert_eq!(ok("\u{fffd}", 0..2), 0..3);
        assert_eq!(ok("a\u{fffd}b", 2..2), 1..4);
        // An empty span before a multi-byte character shows that character.
        assert_eq!(ok("aé", 1..1), 1..3);
        assert_eq!(ok("aé", 9..9), 3..3);
        let long = "é".repeat(3000);
        ok(&long, 2001..2001);
        ok(&long, 3001..3004);
    }
}
