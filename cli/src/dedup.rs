//! `pgnkit dedup`: duplicate games across files, whatever their notation
//! or language. [`pgnkit_dedup`] holds the rules and
//! [`pgnkit_work::dedup`] the reading; here: the flags made a
//! [`Dedup`], standard input copied to a file when the inputs are read
//! more than once (`--prefix`, `-o`, `--duplicates`), and the report.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::bail;
use pgnkit_dedup::bounded::Found;
use pgnkit_dedup::cluster::Options as Kinds;
use pgnkit_dedup::report;
use pgnkit_driver::Driver;
use pgnkit_replay::IllegalMoves;
use pgnkit_report::Format;
use pgnkit_work::dedup::Dedup;
use pgnkit_work::index;

use crate::exit::{EXIT_OK, EXIT_PROBLEMS};
use crate::flags::DedupArgs;
use pgnkit_atomic::Temporary;

/// Where the sorted runs go: beside `-o` when it is given, else in the
/// temporary directory (`TMPDIR`).
fn spill_dir(args: &DedupArgs) -> PathBuf {
    let beside = args.output.as_deref().or(args.duplicates.as_deref());
    match beside.and_then(|o| Path::new(o).parent()) {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        Some(_) => PathBuf::from("."),
        None => std::env::temp_dir(),
    }
}

/// Runs `pgnkit dedup`.
pub fn run(args: &DedupArgs) -> anyhow::Result<u8> {
    let rereads = args.prefix || args.output.is_some() || args.duplicates.is_some();
    let dir = spill_dir(args);
    let names: Vec<String> = args.against.iter().chain(&args.files).cloned().collect();
    // The inputs are read again: standard input is copied to a file.
    let stdin = if rereads && names.iter().any(|n| n == "-") {
        if names.iter().filter(|n| *n == "-").count() > 1 {
            bail!("standard input can be given once");
        }
        Some(spool_stdin(&dir)?)
    } else {
        None
    };
    let paths: Vec<String> = match &stdin {
        Some(file) => {
            let path = file.path().to_string_lossy().into_owned();
            (names.iter())
                .map(|n| if n == "-" { path.clone() } else { n.clone() })
                .collect()
        }
        None => names.clone(),
    };
    let driver = Driver::new(args.run.jobs)?;
    let dedup = Dedup {
        names: &names,
        paths: &paths,
        against: args.against.len(),
        kinds: Kinds {
            contradicting_tags: args.contradicting_tags,
            prefix: args.prefix,
            fuzzy_depth: args.fuzzy_depth,
        },
        options: index::options(args.lang.forced(), IllegalMoves::Stop),
        budget: index::budget(args.run.memory(), args.run.jobs),
        dir: &dir,
        quiet: args.run.quiet(),
    };
    let (found, games_in) = dedup.find(&driver)?;
    write_report(args, &names, &found)?;
    if args.output.is_some() || args.duplicates.is_some() {
        let (output, duplicates) = (args.output.as_deref(), args.duplicates.as_deref());
        dedup.write_games(&found, &games_in, output, duplicates)?;
    }
    if !args.run.quiet() {
        eprintln!("{}", found.counts.line());
        if found.runs > 0 {
            eprintln!(
                "{} sorted runs spilled to `{}` (--memory {})",
                found.runs,
                dir.display(),
                args.run.memory()
            );
        }
    }
    Ok(if found.counts.duplicates > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// Standard input copied to a temporary file in `dir` (removed when it is
/// dropped, on an interrupt, or by the next run after a crash: see
/// [`pgnkit_atomic::Temporary`]), to be read more than once.
fn spool_stdin(dir: &Path) -> anyhow::Result<Temporary> {
    let fail =
        |e: io::Error| anyhow::anyhow!("cannot spool standard input to `{}`: {e}", dir.display());
    let mut file = Temporary::beside(&dir.join("stdin.pgn"), true).map_err(fail)?;
    let mut out = BufWriter::with_capacity(1 << 20, file.file_mut());
    io::copy(&mut io::stdin().lock(), &mut out).map_err(fail)?;
    out.flush().map_err(fail)?;
    drop(out);
    Ok(file)
}

/// Prints the clusters `found` among the inputs `names` (and with JSON, the
/// counts).
fn write_report(args: &DedupArgs, names: &[String], found: &Found) -> anyhow::Result<()> {
    let format = args.format.get();
    let mut out = BufWriter::new(io::stdout().lock());
    report::write_clusters(&mut out, names, format == Format::Json, found)?;
    if format == Format::Json {
        found.counts.write_json(&mut out)?;
    }
    out.flush()?;
    Ok(())
}
