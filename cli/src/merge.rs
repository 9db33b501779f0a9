//! `pgnkit merge-summaries`: add up the summary records of sharded runs.
//!
//! Each `pgnkit check --format json` run ends with one `summary` record. Runs
//! over shards (`--shard K/N`) or over separate files, on one machine or
//! many, are added up into one record of the same shape by
//! [`pgnkit_report::summary::Merger`]; this command reads the files and
//! prints the result.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};

use anyhow::Context;
use pgnkit_report::summary::{Merged, Merger, merged_line};

use crate::exit::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use crate::flags::{MergeArgs, MergeFormat};

/// Adds up the summaries found in NDJSON text.
fn merge_lines(reader: impl BufRead, name: &str, merger: &mut Merger) -> anyhow::Result<()> {
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read `{name}`"))?;
        merger
            .line(&line)
            .with_context(|| format!("{name}:{}", i + 1))?;
    }
    Ok(())
}

/// Merges the summaries of `inputs` (`-`: standard input).
fn merge(inputs: &[String], partial: bool) -> anyhow::Result<Merged> {
    let mut merger = Merger::default();
    for path in inputs {
        if path == "-" {
            merge_lines(io::stdin().lock(), "<stdin>", &mut merger)?;
        } else {
            let file = File::open(path).with_context(|| format!("cannot read `{path}`"))?;
            merge_lines(BufReader::with_capacity(1 << 16, file), path, &mut merger)?;
        }
    }
    Ok(merger.finish(partial)?)
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
        MergeFormat::Human => writeln!(out, "{}", merged_line(&merged))?,
    }
    out.flush()?;
    if merged.failures > 0 {
        eprintln!(
            "pgnkit: error: {} input(s) could not be read by the runs merged: the totals miss their games",
            merged.failures
        );
        return Ok(EXIT_FAILURE);
    }
    Ok(if merged.summary.totals.errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}
