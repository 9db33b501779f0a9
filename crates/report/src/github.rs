//! What GitHub Actions shows beyond the annotations themselves: a limit on
//! how many are written (GitHub shows a few per step and drops the rest)
//! and a Markdown job summary (for `$GITHUB_STEP_SUMMARY`): the counts,
//! the problems by code and the games with the most errors.

use std::collections::BTreeMap;
use std::io::{self, Write};

use pgnkit_replay::Severity;

use crate::render::{Located, escape_data};
use crate::summary::Totals;

/// Games listed in the job summary.
pub const WORST_GAMES: usize = 10;

/// One game's problems, for the job summary.
#[derive(Clone, Debug, Default)]
struct GameProblems {
    file: String,
    game: u64,
    name: Option<String>,
    errors: u64,
    warnings: u64,
    first: String,
}

/// Annotations written and what the job summary needs.
#[derive(Default)]
pub struct Github {
    limit: u64,
    written: u64,
    over: u64,
    by_code: BTreeMap<&'static str, (Severity, u64)>,
    current: Option<GameProblems>,
    worst: Vec<GameProblems>,
}

impl Github {
    /// At most `limit` annotations are written.
    pub fn new(limit: u64) -> Github {
        Github {
            limit,
            ..Github::default()
        }
    }

    /// Whether the next annotation is written (and counts it either way,
    /// for the job summary).
    pub fn admit(&mut self, file: &str, l: &Located) -> bool {
        let d = &l.diagnostic;
        let entry = self
            .by_code
            .entry(d.code.as_str())
            .or_insert((d.severity, 0));
        entry.1 += 1;
        let same = self
            .current
            .as_ref()
            .is_some_and(|g| g.game == l.game && g.file == file);
        if !same {
            self.close_game();
            self.current = Some(GameProblems {
                file: file.to_owned(),
                game: l.game,
                name: l.game_name.clone(),
                first: format!("line {}: {}", l.line, d.message),
                ..GameProblems::default()
            });
        }
        if let Some(g) = self.current.as_mut() {
            match d.severity {
                Severity::Error => g.errors += 1,
                Severity::Warning => g.warnings += 1,
            }
        }
        if self.written < self.limit {
            self.written += 1;
            true
        } else {
            self.over += 1;
            false
        }
    }

    fn close_game(&mut self) {
        let Some(g) = self.current.take() else {
            return;
        };
        self.worst.push(g);
        self.worst
            .sort_by_key(|g| std::cmp::Reverse((g.errors, g.warnings)));
        self.worst.truncate(WORST_GAMES);
    }

    /// Writes the notice that says how many annotations were left out.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.close_game();
        if self.over > 0 {
            writeln!(
                out,
                "::notice title=pgnkit::{}",
                escape_data(&format!(
                    "{} more problems not annotated (at most {} are, --max-annotations); the job summary and `pgnkit check --format human` list them all",
                    self.over, self.limit
                ))
            )?;
        }
        Ok(())
    }

    /// The job summary in Markdown: the run's counts, the problems by code
    /// and the games with the most errors.
    pub fn summary(&self, files: u64, totals: &Totals) -> String {
        let mut md = String::from("## pgnkit check\n\n");
        md.push_str(&format!(
            "{} files, {} games ({} with errors): **{} errors**, {} warnings, {} plies.\n\n",
            files,
            totals.games,
            totals.games_with_errors,
            totals.errors,
            totals.warnings,
            totals.plies
        ));
        if !self.by_code.is_empty() {
            md.push_str("| code | severity | problems |\n|---|---|---:|\n");
            for (code, (severity, n)) in &self.by_code {
                md.push_str(&format!("| `{code}` | {} | {n} |\n", severity.as_str()));
            }
            md.push('\n');
        }
        if !self.worst.is_empty() {
            md.push_str(
                "Games with the most problems:\n\n| file | game | players | errors | warnings | first problem |\n|---|---:|---|---:|---:|---|\n",
            );
            for g in &self.worst {
                md.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} |\n",
                    cell(&g.file),
                    g.game,
                    cell(g.name.as_deref().unwrap_or("")),
                    g.errors,
                    g.warnings,
                    cell(&g.first)
                ));
            }
        }
        md
    }
}

/// Text for a Markdown table cell: no line breaks, `|` escaped, markup
/// characters escaped, at most 120 characters.
fn cell(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == 120 {
            out.push('…');
            break;
        }
        match c {
            '\n' | '\r' => out.push(' '),
            '|' | '*' | '_' | '`' | '<' | '>' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn table_cells_stay_one_cell() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(cell(&"x".repeat(200)).chars().count(), 121);
    }
}
