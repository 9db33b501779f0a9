//! `pgnkit merge-summaries`: add up the summary records of sharded runs.
//!
//! Each `pgnkit check --format json` run ends with one `summary` record. Runs
//! over shards (`--shard K/N`) or over separate files, on one machine or
//! many, are added up here into one record of the same shape: counts are
//! summed, `seconds` is the longest run (the wall time when the runs went
//! side by side) and `seconds_total` their sum (the work done). Shards are
//! checked: every K of an N must be there equally often, or the totals would
//! silently miss games.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};

use crate::shard::Shard;
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use pgnkit_report::summary::{Totals, check_line as summary_line};

/// `pgnkit merge-summaries`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// NDJSON outputs of `check --format json` (`-` or none: standard
    /// input). Every `summary` record in them is added up; other records are
    /// skipped, except `error` records (an input a run could not read),
    /// which are counted as `failures`.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// `json`: one summary record (default); `human`: one line.
    #[arg(long, value_enum, default_value = "json")]
    pub format: MergeFormat,
    /// Merge even when some shards of a `--shard K/N` set are missing or
    /// repeated (otherwise that is an error: the totals would be wrong).
    #[arg(long)]
    pub partial: bool,
}

/// How the merged summary is printed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    /// One NDJSON `summary` record.
    Json,
    /// One line, like `check`'s summary line.
    Human,
}

/// A `summary` record as `check` writes it.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
struct SummaryIn {
    files: u64,
    #[serde(flatten)]
    totals: Totals,
    bytes: u64,
    seconds: f64,
    shard: Option<String>,
}

/// The merged record.
#[derive(Serialize, Debug, Default, Clone, PartialEq)]
pub struct Merged {
    r#type: &'static str,
    /// Distinct files: a file read in N shards counts once.
    pub files: u64,
    /// The counts, added up.
    #[serde(flatten)]
    pub totals: Totals,
    /// Bytes read.
    pub bytes: u64,
    /// The longest run's seconds (wall time when runs went side by side).
    pub seconds: f64,
    /// All runs' seconds added up.
    pub seconds_total: f64,
    /// Summary records merged.
    pub summaries: u64,
    /// `error` records: inputs some run could not read (or read only in part).
    pub failures: u64,
}

/// Adds up the summaries found in NDJSON text; `shards` collects the
/// `--shard K/N` of each summary that has one.
fn merge_lines(
    reader: impl BufRead,
    name: &str,
    merged: &mut Merged,
    shards: &mut Vec<(Shard, u64)>,
) -> anyhow::Result<()> {
    #[derive(Deserialize)]
    struct Typed {
        r#type: Option<String>,
    }
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read `{name}`"))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let at = || format!("{name}:{}", i + 1);
        let typed: Typed = serde_json::from_str(text)
            .with_context(|| format!("{}: not an NDJSON record of pgnkit", at()))?;
        match typed.r#type.as_deref() {
            Some("summary") => {
                let s: SummaryIn = serde_json::from_str(text)
                    .with_context(|| format!("{}: a summary record with wrong fields", at()))?;
                merged.totals.add(&s.totals);
                merged.bytes += s.bytes;
                merged.seconds = merged.seconds.max(s.seconds);
                merged.seconds_total += s.seconds;
                merged.summaries += 1;
                match s.shard {
                    Some(shard) => {
                        let shard: Shard = shard
                            .parse()
                            .map_err(|e: String| anyhow::anyhow!("{}: {e}", at()))?;
                        shards.push((shard, s.files));
                    }
                    None => merged.files += s.files,
                }
            }
            Some("error") => merged.failures += 1,
            _ => {}
        }
    }
    Ok(())
}

/// Counts the files of sharded runs (a file read in N shards once) and
/// checks that each set of N shards is complete: every K in 1..=N seen
/// equally often (several datasets sharded the same way may be merged).
fn shard_files(shards: &[(Shard, u64)], partial: bool) -> anyhow::Result<u64> {
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
            let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
            bail!(
                "incomplete shard set: {} of {n} shards {} {}{} (pass --partial to merge anyway)",
                missing.len(),
                if most > 1 {
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
            );
        }
        files += sum.div_ceil(*n);
    }
    Ok(files)
}

/// Merges the summaries of `inputs` (`-`: standard input).
pub fn merge(inputs: &[String], partial: bool) -> anyhow::Result<Merged> {
    let mut merged = Merged {
        r#type: "summary",
        ..Merged::default()
    };
    let mut shards = Vec::new();
    for path in inputs {
        if path == "-" {
            merge_lines(io::stdin().lock(), "<stdin>", &mut merged, &mut shards)?;
        } else {
            let file = File::open(path).with_context(|| format!("cannot read `{path}`"))?;
            merge_lines(
                BufReader::with_capacity(1 << 16, file),
                path,
                &mut merged,
                &mut shards,
            )?;
        }
    }
    if merged.summaries == 0 {
        bail!("no summary record found: give the output of `pgnkit check --format json`");
    }
    merged.files += shard_files(&shards, partial)?;
    Ok(merged)
}

/// Runs `pgnkit merge-summaries`.
pub fn run(args: &MergeArgs) -> anyhow::Result<u8> {
    let inputs = if args.files.is_empty() {
        vec!["-".to_owned()]
    } else {
        args.files.clone()
    };
    let merged = merge(&inputs, args.partial)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match args.format {
        MergeFormat::Json => {
            serde_json::to_writer(&mut out, &merged)?;
            out.write_all(b"\n")?;
        }
        MergeFormat::Human => {
            let mut line = summary_line(merged.files, &merged.totals, merged.bytes, merged.seconds);
            line.push_str(&format!(
                "; {} summaries merged, {:.2} s in all",
                merged.summaries, merged.seconds_total
            ));
            if merged.failures > 0 {
                line.push_str(&format!(", {} inputs not read", merged.failures));
            }
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    if merged.failures > 0 {
        eprintln!(
            "pgnkit: error: {} input(s) could not be read by the runs merged: the totals miss their games",
            merged.failures
        );
        return Ok(EXIT_FAILURE);
    }
    Ok(if merged.totals.errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(e.is_some_and(|e| e.contains("2/3")));
        assert_eq!(shard_files(&missing, true).ok(), Some(1));
        let repeated = [(shard(1, 2), 1), (shard(2, 2), 1), (shard(2, 2), 1)];
        let e = shard_files(&repeated, false).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("1/2")));
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
        let mut merged = Merged::default();
        let mut shards = Vec::new();
        let r = merge_lines(text.as_bytes(), "t", &mut merged, &mut shards);
        assert!(r.is_ok());
        assert_eq!(
            (
                merged.totals.games,
                merged.totals.games_with_errors,
                merged.totals.errors
            ),
            (7, 1, 2)
        );
        assert_eq!(
            (merged.totals.warnings, merged.totals.plies, merged.bytes),
            (5, 100, 150)
        );
        assert_eq!((merged.seconds, merged.seconds_total), (0.5, 0.75));
        assert_eq!((merged.summaries, merged.failures), (2, 1));
        assert_eq!(shard_files(&shards, false).ok(), Some(1));
    }

    #[test]
    fn a_line_that_is_not_json_names_its_place() {
        let mut merged = Merged::default();
        let e = merge_lines(
            "{\"type\":\"summary\"}\nnot json\n".as_bytes(),
            "out.ndjson",
            &mut merged,
            &mut Vec::new(),
        )
        .err()
        .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("out.ndjson:2")));
    }
}
