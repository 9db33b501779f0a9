//! A run's counts and the summary lines that say them.

use serde::{Deserialize, Serialize};

/// Counts over a run: of a chunk, a file, all files, or merged shards.
#[derive(Default, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Totals {
    /// Games read, readable or not.
    pub games: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Errors.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Games whose final position the dead-position search (Laws 5.2.2 and
    /// 6.9) could not settle within its budget: nothing is reported for
    /// them.
    pub dead_undecided: u64,
    /// Games left out of the output (`convert --skip-invalid`); not part of
    /// `check`'s JSON summary.
    #[serde(skip)]
    pub skipped: u64,
}

impl Totals {
    /// Adds `o` to these counts (saturating: counts never wrap): a chunk's
    /// to its file's, a file's to the run's, a shard's summary to the
    /// merged one (`pgnkit merge-summaries`).
    pub fn add(&mut self, o: &Totals) {
        self.games = self.games.saturating_add(o.games);
        self.games_with_errors = self.games_with_errors.saturating_add(o.games_with_errors);
        self.errors = self.errors.saturating_add(o.errors);
        self.warnings = self.warnings.saturating_add(o.warnings);
        self.plies = self.plies.saturating_add(o.plies);
        self.dead_undecided = self.dead_undecided.saturating_add(o.dead_undecided);
        self.skipped = self.skipped.saturating_add(o.skipped);
    }

    /// Counts one game replayed into `report`'s figures: `errors` and
    /// `warnings` found, `plies` on its main line.
    pub fn game(&mut self, errors: usize, warnings: usize, plies: u32) {
        self.games = self.games.saturating_add(1);
        self.errors = self.errors.saturating_add(errors as u64);
        self.warnings = self.warnings.saturating_add(warnings as u64);
        self.plies = self.plies.saturating_add(u64::from(plies));
        if errors > 0 {
            self.games_with_errors = self.games_with_errors.saturating_add(1);
        }
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "checked 2 files: 1548 games (3 with errors), 4 errors, 1 warning, 123456 plies in 0.41 s (160.2 MB/s)",
/// with ", 2 final positions undecided (dead position?)" before " in" when the dead-position
/// search ran out of budget.
pub fn check_line(files: u64, t: &Totals, bytes: u64, seconds: f64) -> String {
    let undecided = if t.dead_undecided > 0 {
        format!(
            ", {} undecided (dead position?)",
            plural(t.dead_undecided, "final position", "final positions")
        )
    } else {
        String::new()
    };
    format!(
        "checked {}: {} ({} with errors), {}, {}, {}{undecided} in {:.2} s ({:.1} MB/s)",
        plural(files, "file", "files"),
        plural(t.games, "game", "games"),
        t.games_with_errors,
        plural(t.errors, "error", "errors"),
        plural(t.warnings, "warning", "warnings"),
        plural(t.plies, "ply", "plies"),
        seconds,
        bytes as f64 / 1e6 / seconds.max(1e-9)
    )
}

/// "converted 1 file: 1548 games (3 with errors, 3 left out), 123456 plies in 0.41 s (160.2 MB/s)"
pub fn convert_line(files: u64, t: &Totals, bytes: u64, seconds: f64) -> String {
    let mut errors = format!("{} with errors", t.games_with_errors);
    if t.skipped > 0 {
        errors.push_str(&format!(", {} left out", t.skipped));
    }
    format!(
        "converted {}: {} ({errors}), {} in {:.2} s ({:.1} MB/s)",
        plural(files, "file", "files"),
        plural(t.games, "game", "games"),
        plural(t.plies, "ply", "plies"),
        seconds,
        bytes as f64 / 1e6 / seconds.max(1e-9)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up_and_say_themselves() {
        let mut a = Totals::default();
        a.game(2, 1, 40);
        a.game(0, 0, 10);
        let mut b = Totals::default();
        b.game(0, 3, 7);
        b.skipped = 1;
        a.add(&b);
        assert_eq!(
            (
                a.games,
                a.games_with_errors,
                a.errors,
                a.warnings,
                a.plies,
                a.skipped
            ),
            (3, 1, 2, 4, 57, 1)
        );
        let line = check_line(1, &a, 2_000_000, 1.0);
        assert_eq!(
            line,
            "checked 1 file: 3 games (1 with errors), 2 errors, 4 warnings, 57 plies in 1.00 s (2.0 MB/s)"
        );
        let line = convert_line(2, &a, 0, 1.0);
        assert!(
            line.starts_with("converted 2 files: 3 games (1 with errors, 1 left out), 57 plies")
        );
    }
}
