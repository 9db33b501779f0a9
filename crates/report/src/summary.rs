//! A run's counts, the `summary` record and the lines that say them, and
//! the merging of the summaries of sharded runs (`pgnkit merge-summaries`).

use std::collections::BTreeMap;

use pgnkit_pgn::shard::Shard;
use pgnkit_replay::fix::FixCounts;
use serde::{Deserialize, Serialize, Serializer};

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

/// The counts of the file loop of `check` and `convert`.
impl pgnkit_driver::files::Tally for Totals {
    fn add(&mut self, other: &Totals) {
        Totals::add(self, other);
    }

    fn games(&self) -> u64 {
        self.games
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

/// The line of `pgnkit merge-summaries --format human`: [`check_line`]'s,
/// then how many summaries were merged, the seconds of all runs, and the
/// inputs not read, if any.
///
/// ```
/// use pgnkit_report::summary::{Merger, merged_line};
///
/// let mut merger = Merger::default();
/// merger.line(r#"{"type":"summary","files":1,"games":2,"bytes":1000000,"seconds":1.0}"#).unwrap();
/// merger.line(r#"{"type":"error","file":"b.pgn","message":"cannot read"}"#).unwrap();
/// let merged = merger.finish(false).unwrap();
/// assert!(merged_line(&merged).ends_with("(1.0 MB/s); 1 summaries merged, 1.00 s in all, 1 inputs not read"));
/// ```
pub fn merged_line(m: &Merged) -> String {
    let s = &m.summary;
    let mut line = check_line(s.files, &s.totals, s.bytes, s.seconds);
    line.push_str(&format!(
        "; {} summaries merged, {:.2} s in all",
        m.summaries, m.seconds_total
    ));
    if m.failures > 0 {
        line.push_str(&format!(", {} inputs not read", m.failures));
    }
    line
}

/// The `"type":"summary"` that opens a summary record.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct SummaryType;

impl Serialize for SummaryType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str("summary")
    }
}

/// The `summary` record that ends `pgnkit check --format json`, as it is
/// written and as `pgnkit merge-summaries` reads it back (a field it lacks
/// reads as 0; `fixed` is not read).
///
/// ```
/// use pgnkit_report::summary::{Summary, Totals};
///
/// let mut totals = Totals::default();
/// totals.game(1, 0, 40);
/// let mut summary = Summary::new(1, totals, 1200, 0.5);
/// summary.shard = Some("2/4".to_owned());
/// let line = serde_json::to_string(&summary).unwrap();
/// assert!(line.starts_with(r#"{"type":"summary","files":1,"games":1,"games_with_errors":1"#));
/// assert!(line.ends_with(r#""bytes":1200,"seconds":0.5,"shard":"2/4"}"#));
/// let read: Summary = serde_json::from_str(&line).unwrap();
/// assert_eq!(read, summary);
/// ```
#[derive(Serialize, Deserialize, Debug, Default, Clone, PartialEq)]
#[serde(default)]
pub struct Summary {
    #[serde(rename = "type", skip_deserializing)]
    kind: SummaryType,
    /// Inputs opened.
    pub files: u64,
    /// The counts.
    #[serde(flatten)]
    pub totals: Totals,
    /// Bytes read.
    pub bytes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// The `--shard K/N` of the run, if it read one shard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// What `--fix` changed.
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub fixed: Option<FixCounts>,
    /// What `--baseline` left out and found stale.
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub baseline: Option<crate::baseline::Counts>,
}

impl Summary {
    /// The summary of a run over `files` inputs (`bytes` read in `seconds`),
    /// of no shard and with nothing fixed.
    pub fn new(files: u64, totals: Totals, bytes: u64, seconds: f64) -> Summary {
        Summary {
            kind: SummaryType,
            files,
            totals,
            bytes,
            seconds,
            shard: None,
            fixed: None,
            baseline: None,
        }
    }
}

/// The summaries of several runs added up: the record `pgnkit
/// merge-summaries` prints, a `summary` record with `seconds_total`,
/// `summaries` and `failures` besides.
#[derive(Serialize, Debug, Default, Clone, PartialEq)]
pub struct Merged {
    /// The runs' summaries added up: `files` counts distinct files (a file
    /// read in N shards counts once), `seconds` is the longest run's (the
    /// wall time when runs went side by side); no `shard`, no `fixed`.
    #[serde(flatten)]
    pub summary: Summary,
    /// All runs' seconds added up.
    pub seconds_total: f64,
    /// Summary records merged.
    pub summaries: u64,
    /// `error` records: inputs some run could not read (or read only in part).
    pub failures: u64,
}

/// Why summaries cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A line is not a JSON object.
    #[error("not an NDJSON record of pgnkit")]
    NotARecord(#[source] serde_json::Error),
    /// A `summary` record whose fields have the wrong types.
    #[error("a summary record with wrong fields")]
    WrongFields(#[source] serde_json::Error),
    /// A `shard` that is not `K/N`.
    #[error("{0}")]
    Shard(String),
    /// No `summary` record at all.
    #[error("no summary record found: give the output of `pgnkit check --format json`")]
    NoSummary,
    /// Some shards of a `--shard K/N` set are missing or repeated: the
    /// totals would miss or double games.
    #[error("{}", incomplete_shards(.n, .missing, .most))]
    IncompleteShards {
        /// The N of the set.
        n: u64,
        /// The shards seen fewer times than the others (`K/N`).
        missing: Vec<String>,
        /// How often the others were seen.
        most: u64,
    },
}

/// Adds up the `summary` records of `pgnkit check --format json` runs,
/// line by line: counts are summed, `seconds` is the longest run (the wall
/// time when the runs went side by side) and `seconds_total` their sum (the
/// work done), `error` records are counted as failures, other records are
/// skipped. Shards are checked: every K of an N must be there equally often,
/// or the totals would silently miss games.
///
/// ```
/// use pgnkit_report::summary::Merger;
///
/// let mut merger = Merger::default();
/// for line in [
///     r#"{"type":"summary","files":1,"games":3,"errors":2,"bytes":100,"seconds":0.5,"shard":"1/2"}"#,
///     r#"{"type":"summary","files":1,"games":4,"errors":0,"bytes":50,"seconds":0.25,"shard":"2/2"}"#,
/// ] {
///     merger.line(line).unwrap();
/// }
/// let merged = merger.finish(false).unwrap();
/// let run = &merged.summary;
/// assert_eq!((run.files, run.totals.games, run.totals.errors), (1, 7, 2));
/// assert_eq!((run.seconds, merged.seconds_total), (0.5, 0.75));
///
/// // One shard of two is not the whole file.
/// let mut merger = Merger::default();
/// merger.line(r#"{"type":"summary","files":1,"shard":"1/2"}"#).unwrap();
/// assert!(merger.finish(false).is_err());
/// ```
#[derive(Debug, Default)]
pub struct Merger {
    merged: Merged,
    /// The `--shard K/N` of each summary that has one, and its files.
    shards: Vec<(Shard, u64)>,
}

impl Merger {
    /// Takes one line of NDJSON (a blank line is skipped).
    ///
    /// # Errors
    /// When the line is not a JSON object, or is a `summary` record with
    /// fields of the wrong types or a `shard` that is not `K/N`.
    pub fn line(&mut self, line: &str) -> Result<(), MergeError> {
        #[derive(Deserialize)]
        struct Typed {
            r#type: Option<String>,
        }
        let text = line.trim();
        if text.is_empty() {
            return Ok(());
        }
        let typed: Typed = serde_json::from_str(text).map_err(MergeError::NotARecord)?;
        match typed.r#type.as_deref() {
            Some("summary") => {
                let s: Summary = serde_json::from_str(text).map_err(MergeError::WrongFields)?;
                let merged = &mut self.merged;
                merged.summary.totals.add(&s.totals);
                merged.summary.bytes += s.bytes;
                merged.summary.seconds = merged.summary.seconds.max(s.seconds);
                merged.seconds_total += s.seconds;
                merged.summaries += 1;
                match s.shard {
                    Some(shard) => {
                        let shard: Shard = shard.parse().map_err(MergeError::Shard)?;
                        self.shards.push((shard, s.files));
                    }
                    None => merged.summary.files += s.files,
                }
            }
            Some("error") => self.merged.failures += 1,
            _ => {}
        }
        Ok(())
    }

    /// The merged record. Unless `partial`, a set of `--shard K/N` runs must
    /// be complete: every K in 1..=N seen equally often (several datasets
    /// sharded the same way may be merged). A file read in N shards counts
    /// once.
    ///
    /// # Errors
    /// [`MergeError::NoSummary`] when no line was a summary,
    /// [`MergeError::IncompleteShards`] for an incomplete shard set.
    pub fn finish(self, partial: bool) -> Result<Merged, MergeError> {
        let mut merged = self.merged;
        if merged.summaries == 0 {
            return Err(MergeError::NoSummary);
        }
        merged.summary.files += shard_files(&self.shards, partial)?;
        Ok(merged)
    }
}

/// The message of [`MergeError::IncompleteShards`]: the first ten shards
/// missing or seen too few times.
fn incomplete_shards(n: &u64, missing: &[String], most: &u64) -> String {
    let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
    format!(
        "incomplete shard set: {} of {n} shards {} {}{} (pass --partial to merge anyway)",
        missing.len(),
        if *most > 1 {
            format!("appear fewer than {most} times:")
        } else {
            "are missing:".to_owned()
        },
        shown.join(", "),
        if missing.len() > shown.len() {
            ", …"
        } else {
            ""
        },
    )
}

/// Counts the files of sharded runs (a file read in N shards once) and
/// checks that each set of N shards is complete: every K in 1..=N seen
/// equally often (several datasets sharded the same way may be merged).
fn shard_files(shards: &[(Shard, u64)], partial: bool) -> Result<u64, MergeError> {
    let mut by_n: BTreeMap<u64, (BTreeMap<u64, u64>, u64)> = BTreeMap::new();
    for (shard, files) in shards {
        let (seen, sum) = by_n.entry(shard.n).or_default();
        *seen.entry(shard.k).or_default() += 1;
        *sum += files;
    }
    let mut files = 0;
    for (n, (seen, sum)) in &by_n {
        let most = seen.values().copied().max().unwrap_or(0);
        let missing: Vec<String> = (1..=*n)
            .filter(|k| seen.get(k).copied().unwrap_or(0) < most)
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() && !partial {
            return Err(MergeError::IncompleteShards {
                n: *n,
                missing,
                most,
            });
        }
        files += sum.div_ceil(*n);
    }
    Ok(files)
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

    fn shard(k: u64, n: u64) -> Shard {
        Shard { k, n }
    }

    #[test]
    fn complete_shard_sets_count_each_file_once() {
        let one = [(shard(1, 3), 2), (shard(2, 3), 2), (shard(3, 3), 2)];
        assert_eq!(shard_files(&one, false).ok(), Some(2));
        // Two datasets, each in 2 shards.
        let two = [
            (shard(1, 2), 1),
            (shard(2, 2), 1),
            (shard(2, 2), 3),
            (shard(1, 2), 3),
        ];
        assert_eq!(shard_files(&two, false).ok(), Some(4));
    }

    #[test]
    fn missing_or_repeated_shards_are_refused() {
        let missing = [(shard(1, 3), 1), (shard(3, 3), 1)];
        let e = shard_files(&missing, false).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "incomplete shard set: 1 of 3 shards are missing: 2/3 (pass --partial to merge anyway)"
            )
        );
        assert_eq!(shard_files(&missing, true).ok(), Some(1));
        let repeated = [(shard(1, 2), 1), (shard(2, 2), 1), (shard(2, 2), 1)];
        let e = shard_files(&repeated, false).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("appear fewer than 2 times: 1/2")));
        let many: Vec<(Shard, u64)> = (1..=12).map(|k| (shard(k, 24), 1)).collect();
        let e = shard_files(&many, false).err().map(|e| e.to_string());
        assert!(e.is_some_and(
            |e| e.contains("12 of 24 shards are missing: 13/24, ") && e.contains("22/24, …")
        ));
    }

    #[test]
    fn summaries_add_up_and_other_records_are_skipped() {
        let text = concat!(
            r#"{"type":"diagnostic","severity":"error","game":1}"#,
            "\n",
            r#"{"type":"summary","files":1,"games":3,"games_with_errors":1,"errors":2,"warnings":0,"plies":80,"bytes":100,"seconds":0.5,"shard":"1/2"}"#,
            "\n\n",
            r#"{"type":"summary","files":1,"games":4,"games_with_errors":0,"errors":0,"warnings":5,"plies":20,"bytes":50,"seconds":0.25,"shard":"2/2"}"#,
            "\n",
            r#"{"type":"error","file":"x.pgn","message":"cannot read"}"#,
            "\n",
        );
        let mut merger = Merger::default();
        for line in text.lines() {
            assert!(merger.line(line).is_ok(), "{line}");
        }
        let merged = merger.finish(false).expect("a complete shard set");
        let run = &merged.summary;
        assert_eq!(
            (
                run.totals.games,
                run.totals.games_with_errors,
                run.totals.errors
            ),
            (7, 1, 2)
        );
        assert_eq!(
            (run.totals.warnings, run.totals.plies, run.bytes),
            (5, 100, 150)
        );
        assert_eq!((run.seconds, merged.seconds_total), (0.5, 0.75));
        assert_eq!((merged.summaries, merged.failures), (2, 1));
        assert_eq!(run.files, 1);
        let line = serde_json::to_string(&merged).expect("serialize");
        assert!(
            line.starts_with(r#"{"type":"summary","files":1,"games":7,"#),
            "{line}"
        );
        assert!(
            line.ends_with(r#""seconds_total":0.75,"summaries":2,"failures":1}"#),
            "{line}"
        );
    }

    #[test]
    fn lines_that_cannot_be_merged_say_why() {
        let mut merger = Merger::default();
        let e = merger.line("not json").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("not an NDJSON record of pgnkit"));
        let e = merger.line(r#"{"type":"summary","games":"x"}"#).err();
        assert!(matches!(e, Some(MergeError::WrongFields(_))), "{e:?}");
        let e = merger.line(r#"{"type":"summary","shard":"3/2"}"#).err();
        assert!(matches!(e, Some(MergeError::Shard(_))), "{e:?}");
        assert!(matches!(
            Merger::default().finish(false),
            Err(MergeError::NoSummary)
        ));
    }

    #[test]
    fn a_summary_reads_back_as_written_but_for_fixed() {
        let mut summary = Summary::new(2, Totals::default(), 10, 1.5);
        summary.fixed = Some(FixCounts::default());
        let line = serde_json::to_string(&summary).expect("serialize");
        assert!(line.ends_with(r#""seconds":1.5,"fixed":{"games":0,"moves":0,"results":0,"check_marks":0,"needs_human":0}}"#), "{line}");
        let read: Summary = serde_json::from_str(&line).expect("deserialize");
        assert_eq!(read, Summary::new(2, Totals::default(), 10, 1.5));
    }
}
