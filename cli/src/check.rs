//! `pgnkit check`: replay every game of every input, report every problem,
//! compute each game's true result. The work on each chunk is
//! [`pgnkit_work::check::check_part`] (a part of a chunk at a time, so
//! that the records waiting for the printer stay bounded); here: the settings, the printer
//! of each chunk's findings (less what the baseline knows), the fixed
//! games' output, and the summary.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock};

use anyhow::Context;
use clap::ValueEnum;

use pgnkit_config::{Config, Rules};
use pgnkit_driver::files::{At, Run, Sink};
use pgnkit_replay::{Detail, Options, Selection};
use pgnkit_report::baseline::{self, Knows, Problem};
use pgnkit_report::printer::{CheckFormat, DEFAULT_MAX_ANNOTATIONS, ReportFormat, Settings};
use pgnkit_report::render::Suggestions;
use pgnkit_report::summary::{self, Summary, Totals};
use pgnkit_source::{Chunk, Input};
use pgnkit_work::check::{ChunkOut, GameOut, PART_BUDGET, Work, check_part};
use pgnkit_work::fix::{Finished, FixOutput};

use crate::exit::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use crate::flags::CheckArgs;

/// Prints what the workers found, chunk after chunk.
struct Printer<'a> {
    out: BufWriter<io::StdoutLock<'static>>,
    report: pgnkit_report::printer::Printer,
    fixed: Option<FixOutput>,
    /// The counts of the input being read.
    file_totals: Totals,
    /// The settings file and the rule flags, which make each input's
    /// selection, and where the workers read it.
    config: &'a Config,
    flags: Rules,
    selection: &'a RwLock<Selection>,
    /// `--baseline`: the problems not to report.
    baseline: Option<baseline::Index>,
    /// Problems left unreported because the baseline knows them.
    known: u64,
    /// `--write-baseline`: the problems found.
    written: Option<baseline::Writer>,
}

impl Printer<'_> {
    /// Leaves out of `g` and of `totals` the problems the baseline knows.
    fn drop_known(&mut self, file: &str, g: &mut GameOut, totals: &mut Totals) {
        let Some(b) = self.baseline.as_mut() else {
            return;
        };
        let errors = |g: &GameOut| {
            g.omitted.as_ref().map_or(0, |o| o.errors)
                + g.diagnostics
                    .iter()
                    .filter(|l| l.diagnostic.is_error())
                    .count() as u64
        };
        let had_errors = errors(g) > 0;
        let mut omitted = g.omitted.as_deref().copied().unwrap_or_default();
        let known = b.drop_known(file, g.identity, &mut g.diagnostics, &mut omitted);
        g.omitted = (!omitted.is_empty()).then(|| Box::new(omitted));
        totals.errors = totals.errors.saturating_sub(known.errors);
        totals.warnings = totals.warnings.saturating_sub(known.warnings);
        if had_errors && errors(g) == 0 {
            totals.games_with_errors = totals.games_with_errors.saturating_sub(1);
        }
        self.known += known.errors + known.warnings;
    }
}

impl Sink<ChunkOut> for Printer<'_> {
    type Totals = Totals;

    fn chunk(
        &mut self,
        at: &At<'_>,
        chunk: &Chunk,
        c: ChunkOut,
    ) -> anyhow::Result<(Totals, usize)> {
        let mut totals = c.totals;
        let mut games = c.games;
        for g in &mut games {
            self.drop_known(at.name, g, &mut totals);
            if let Some(w) = self.written.as_mut() {
                w.add_game(
                    at.name,
                    at.game(g.index),
                    g.identity,
                    &g.diagnostics,
                    g.omitted.as_deref().copied().unwrap_or_default(),
                )
                .context("cannot keep the problems for --write-baseline")?;
            }
        }
        self.file_totals.add(&totals);
        if let Some(f) = self.fixed.as_mut() {
            f.write(&mut self.out, chunk, at.line(0), &c.fixed)?;
            if !f.prints_diagnostics() {
                return Ok((totals, c.lines));
            }
        }
        let (out, report) = (&mut self.out, &mut self.report);
        for g in games {
            let number = at.game(g.index);
            for mut l in g.diagnostics {
                l.place(number, |n| at.line(n));
                report.diagnostic(out, at.name, &l)?;
            }
            if let Some(omitted) = g.omitted {
                report.omitted(out, at.name, number, *omitted)?;
            }
            if let Some(f) = g.facts {
                report.game(out, at.name, number, g.byte, g.name.as_deref(), &f)?;
            }
        }
        Ok((totals, c.lines))
    }

    fn begin(&mut self, path: &str, input: &Input) -> anyhow::Result<()> {
        self.file_totals = Totals::default();
        let selection = self.config.selection_for(Path::new(path), &self.flags);
        *self
            .selection
            .write()
            .unwrap_or_else(PoisonError::into_inner) = selection;
        self.report.begin_file(&input.name);
        match self.fixed.as_mut() {
            Some(f) => f.begin(path, input),
            None => Ok(()),
        }
    }

    fn end(&mut self, complete: bool) -> anyhow::Result<()> {
        self.report.end_file(&self.file_totals)?;
        match self.fixed.as_mut() {
            Some(f) => f.end(complete),
            None => Ok(()),
        }
    }

    fn failure(&mut self, path: &str, _: Option<&str>, e: &anyhow::Error) -> io::Result<()> {
        let message = format!("{e:#}");
        self.report
            .failure(&mut self.out, &mut io::stderr(), path, &message)
    }
}

impl Printer<'_> {
    /// What is left to do once every input is read (`run`): the end of the
    /// report, the baseline written, the job summary, the summary record or
    /// line, the fixed games put in place.
    fn finish(self, args: &CheckArgs, run: &Run<Totals>, diff: bool) -> anyhow::Result<()> {
        let Printer {
            mut out,
            mut report,
            fixed,
            mut baseline,
            known,
            written,
            config,
            ..
        } = self;
        let totals = &run.totals;
        if !diff {
            report.finish(&mut out, run.seconds)?;
        }
        if let (Some(path), Some(w)) = (&args.write_baseline, written) {
            write_baseline(path, w, args.input.quiet())?;
        }
        let stale = match baseline.as_mut() {
            Some(b) => b.stale().map_err(|e| {
                let path = baseline_path(args, config).unwrap_or_default();
                anyhow::anyhow!("cannot read the baseline `{}` again: {e}", path.display())
            })?,
            None => Vec::new(),
        };
        let stale: Vec<&Problem> = stale.iter().collect();
        if let Some(md) = report.job_summary(run.files, totals) {
            write_job_summary(&md)?;
        }
        match report.format() {
            ReportFormat::Json if !diff => {
                for p in &stale {
                    baseline::write_stale(&mut out, p)?;
                }
                let mut summary = Summary::new(run.files, totals.clone(), run.bytes, run.seconds);
                summary.shard = args.input.shard.map(|s| s.to_string());
                summary.fixed = fixed.as_ref().map(FixOutput::counts);
                summary.baseline = baseline.as_ref().map(|_| baseline::Counts {
                    known,
                    stale: stale.iter().map(|p| u64::from(p.count)).sum(),
                });
                serde_json::to_writer(&mut out, &summary)?;
                out.write_all(b"\n")?;
            }
            _ if !args.input.quiet() => {
                out.flush()?;
                eprintln!(
                    "{}",
                    summary::check_line(run.files, totals, run.bytes, run.seconds)
                );
                if baseline.is_some() {
                    eprintln!("{}", baseline::note(known, &stale));
                }
            }
            _ => {}
        }
        out.flush()?;
        if let Some(f) = fixed {
            match f.finish(run.failed)? {
                Finished::Wrote(done) if !args.input.quiet() => eprintln!("{done}"),
                Finished::Wrote(_) => {}
                Finished::NothingWritten(error) => eprintln!("pgnkit: error: {error}"),
            }
        }
        Ok(())
    }
}

/// The format of the report: `--format`, else the settings file's, else
/// human on a terminal (`terminal`) and JSON otherwise.
///
/// # Errors
/// `--games` with a document format, which has no place for game records.
fn report_format(
    args: &CheckArgs,
    config: &Config,
    terminal: bool,
) -> anyhow::Result<ReportFormat> {
    let format = (args.format)
        .and_then(CheckFormat::report)
        .or(config.format.and_then(ReportFormat::from_name))
        .unwrap_or(if terminal {
            ReportFormat::Human
        } else {
            ReportFormat::Json
        });
    if args.games && format.is_document() {
        anyhow::bail!(
            "--games writes game records, which --format {} has no place for: use --format json or human",
            format
                .to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_owned())
        );
    }
    Ok(format)
}

/// How the games are replayed: the language of `--input-lang` (else the
/// settings file's), suggestions unless `--no-suggestions`, and the
/// detail `--games` and `--fix` need.
fn replay_options(args: &CheckArgs, config: &Config, fix: bool) -> Options {
    Options {
        language: args.input.lang.forced_or(config),
        // `--fix` applies the suggestions: with `--no-suggestions` they are
        // still searched for it, and only left out of what is printed.
        suggestions: !args.no_suggestions || fix,
        // The claims are printed with `--games` only, and `--fix` rewrites
        // from the full report.
        detail: if args.games || args.fix {
            Detail::Full
        } else {
            Detail::Diagnostics
        },
        illegal_moves: args.input.illegal.or(config),
    }
}

/// How the report is printed: colours, `--strict`, the annotations of
/// GitHub's format, and which suggestions.
fn printer_settings(args: &CheckArgs, config: &Config, color: bool, strict: bool) -> Settings {
    Settings {
        color,
        strict,
        max_annotations: args
            .max_annotations
            .or(config.max_annotations)
            .unwrap_or(DEFAULT_MAX_ANNOTATIONS),
        suggestions: if args.no_suggestions {
            Suggestions::None
        } else if args.all_suggestions {
            Suggestions::All
        } else {
            Suggestions::Best
        },
    }
}

/// Where `--fix` writes, from the flags (`terminal`: standard output is
/// one): `-o FILE`, `--in-place`, `--diff`, or a diff on a terminal.
///
/// # Errors
/// `--in-place` on standard input or with `--shard`, `--fix` with nowhere
/// to write, and the errors of creating the `-o` file.
fn fix_output(args: &CheckArgs, terminal: bool) -> anyhow::Result<Option<FixOutput>> {
    if !args.fix {
        return Ok(None);
    }
    if let Some(path) = &args.output {
        return Ok(Some(FixOutput::create(path)?));
    }
    if args.in_place {
        if args.input.reads_stdin() {
            anyhow::bail!(
                "--in-place cannot rewrite standard input: name the files, or write the fixed games with -o FILE"
            );
        }
        if args.input.shard.is_some() {
            anyhow::bail!(
                "--in-place cannot rewrite a file from one shard of it: fix the whole file, or write with -o FILE"
            );
        }
        return Ok(Some(FixOutput::in_place(!args.no_backup)));
    }
    if args.diff || terminal {
        return Ok(Some(FixOutput::diff()));
    }
    anyhow::bail!(
        "--fix needs to know where to write: -o FILE, --in-place, or --diff (standard output is no terminal)"
    )
}

/// The baseline of the run, read: see [`baseline_path`].
///
/// # Errors
/// Those of reading it.
fn known_problems(args: &CheckArgs, config: &Config) -> anyhow::Result<Option<baseline::Index>> {
    baseline_path(args, config)
        .map(|path| read_baseline(&path))
        .transpose()
}

/// Where the baseline of the run is: `--baseline FILE`, else the settings
/// file's (not with `--write-baseline`).
fn baseline_path(args: &CheckArgs, config: &Config) -> Option<PathBuf> {
    match (&args.baseline, &config.baseline) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(path)) if args.write_baseline.is_none() => Some(config.root().join(path)),
        _ => None,
    }
}

/// Reads the baseline at `path` (kept open: the stale problems are read
/// from it again at the end).
fn read_baseline(path: &Path) -> anyhow::Result<baseline::Index> {
    use std::io::{Read, Seek};
    let open = || -> std::io::Result<std::fs::File> {
        let mut file = std::fs::File::open(path)?;
        if !file.metadata()?.is_file() {
            // A pipe (`<(git show main:baseline.json)`, `/dev/stdin`) cannot
            // be read twice: it is copied to an anonymous temporary file.
            let mut copy = tempfile::tempfile()?;
            std::io::copy(&mut file, &mut copy)?;
            copy.rewind()?;
            file = copy;
        }
        file.read(&mut [0u8; 1]).map(|_| ())?;
        Ok(file)
    };
    let file = open().with_context(|| format!("cannot read the baseline `{}`", path.display()))?;
    baseline::Index::read(file).map_err(|e| anyhow::anyhow!("`{}`: {e}", path.display()))
}

/// Writes the baseline `w` of the problems found to `path` (`--write-baseline`)
/// and says so on standard error unless `quiet`.
fn write_baseline(path: &Path, w: baseline::Writer, quiet: bool) -> anyhow::Result<()> {
    let mut file = pgnkit_driver::output::OutputFile::create(path)?;
    let problems = w.write(&mut file)?;
    file.commit()?;
    if !quiet {
        eprintln!(
            "pgnkit: wrote {problems} problems to the baseline `{}`",
            path.display()
        );
    }
    Ok(())
}

/// Runs `pgnkit check` (not `--format html`: that is `pgnkit report`'s
/// page, [`CheckArgs::html_report`]).
pub fn run(args: &CheckArgs) -> anyhow::Result<u8> {
    let config = args.settings.read()?;
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none();
    let format = report_format(args, &config, terminal)?;
    let strict = args.strict || config.strict == Some(true);
    let baseline = known_problems(args, &config)?;
    let fixed = fix_output(args, terminal)?;
    let diff = fixed.as_ref().is_some_and(|f| !f.prints_diagnostics());
    let fix = fixed.is_some();
    let options = replay_options(args, &config, fix);
    let report = pgnkit_report::printer::Printer::new(
        format,
        printer_settings(args, &config, color, strict),
    );
    let stream = report.stream_format();
    let selection = RwLock::new(Selection::default());
    let mut printer = Printer {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        report,
        fixed,
        file_totals: Totals::default(),
        config: &config,
        flags: Rules::from_flags(&args.select, &args.ignore, &args.warn, &args.error),
        selection: &selection,
        baseline,
        known: 0,
        written: match args.write_baseline {
            Some(_) => Some(
                baseline::Writer::new(baseline::WRITER_MEMORY)
                    .context("cannot make a temporary file for --write-baseline")?,
            ),
            None => None,
        },
    };
    if !diff {
        printer.report.begin(&mut printer.out)?;
    }
    let work = |chunk: &Chunk| {
        let selection = *selection.read().unwrap_or_else(PoisonError::into_inner);
        let what = Work {
            options: &options,
            selection: &selection,
            format: stream,
            with_games: args.games,
            fix,
        };
        let out = check_part(chunk, &what, PART_BUDGET);
        let rest = out.rest;
        (out, rest)
    };
    let run = pgnkit_driver::files::run_parts(&args.input.inputs(), work, &mut printer)?;
    printer.finish(args, &run, diff)?;
    let totals = &run.totals;
    Ok(if run.failed {
        EXIT_FAILURE
    } else if totals.errors > 0 || (strict && totals.warnings > 0) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// Appends the job summary `md` (Markdown) to the file GitHub names in
/// `$GITHUB_STEP_SUMMARY`, when it is set.
///
/// # Errors
/// Those of writing the file.
fn write_job_summary(md: &str) -> anyhow::Result<()> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").map(PathBuf::from) else {
        return Ok(());
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(md.as_bytes()))
        .with_context(|| format!("cannot write the job summary to `{}`", path.display()))
}
