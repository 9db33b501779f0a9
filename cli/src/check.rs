//! `pgnkit check`: replay every game of every input, report every problem,
//! compute each game's true result.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::sync::{PoisonError, RwLock};

use anyhow::Context;
use clap::ValueEnum;

use pgnkit_config::{Config, Rules};
use pgnkit_pgn::location::count_lines;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::fix::{Fixed, fix_game};
use pgnkit_replay::{Detail, Options, Selection, replay_game};
use pgnkit_report::baseline::{self, Baseline, Problem};
use pgnkit_report::fingerprint::GameIdentity;
use pgnkit_report::games::GameFacts;
use pgnkit_report::printer::Settings;
use pgnkit_report::render::Suggestions;
use pgnkit_report::summary::{self, Summary, Totals};
use pgnkit_report::{Located, Locator};

use crate::args::{CheckArgs, CheckFormat, DEFAULT_MAX_ANNOTATIONS, Format, ReportFormat};
use crate::fix::FixOutput;
use crate::input::Chunk;
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use pgnkit_driver::files::{At, Sink};

/// What a worker says about one game.
pub struct GameOut {
    /// 0-based index of the game in its chunk.
    pub index: u64,
    /// Byte offset of the game in its file.
    pub byte: usize,
    /// Located diagnostics, game and line numbers relative to the chunk.
    pub diagnostics: Vec<Located>,
    /// The `--games` record (boxed: a chunk of a million empty games holds
    /// a `GameOut` for each, and few runs ask for it).
    pub facts: Option<Box<GameFacts>>,
    /// "White - Black (Event)".
    pub name: Option<String>,
    /// Diagnostics found beyond those kept (boxed, and only where a game
    /// had more than its limit: the counts by code take half a kilobyte).
    pub omitted: Option<Box<pgnkit_replay::Omitted>>,
    /// What names the game wherever it stands (baselines).
    pub identity: GameIdentity,
}

/// What a worker says about one chunk.
pub struct ChunkOut {
    /// Games with something to print.
    pub games: Vec<GameOut>,
    /// Counts.
    pub totals: Totals,
    /// Line breaks in the chunk.
    pub lines: usize,
    /// The games with their confirmed fixes applied (`--fix`).
    pub fixed: Fixed,
}

/// Replays the games of one chunk.
pub fn check_chunk(
    chunk: &Chunk,
    options: &Options,
    selection: &Selection,
    format: Format,
    with_games: bool,
    fix: bool,
) -> ChunkOut {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = ChunkOut {
        games: Vec::new(),
        totals: Totals::default(),
        lines: count_lines(chunk.bytes()),
        fixed: Fixed::default(),
    };
    // A line too long to show (binary junk, a whole game on one line of
    // megabytes) is named by its line and column only.
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, format);
    let mut index = 0u64;
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            // `%` lines or a lone comment between games: no game, but kept
            // byte for byte in a fixed copy.
            if fix {
                out.fixed
                    .bytes
                    .extend_from_slice(data.get(game.span.clone()).unwrap_or_default());
                out.fixed.bytes.extend_from_slice(b"\n\n");
            }
            continue;
        }
        let mut report = replay_game(data, &game, options);
        selection.apply(&mut report.diagnostics, &mut report.omitted);
        if fix {
            fix_game(data, &game, &report, &mut out.fixed);
        }
        let errors = report.errors();
        let warnings = report.warnings();
        out.totals.game(errors, warnings, report.plies);
        out.totals.dead_undecided += u64::from(report.dead_undecided);
        if !report.diagnostics.is_empty() || with_games {
            let diagnostics = locator.locate(&game, &report, index, |_| true);
            let name = diagnostics.first().map_or_else(
                || pgnkit_report::game_name(&game, &report),
                |l| l.game_name.clone(),
            );
            let facts = with_games.then(|| {
                Box::new(GameFacts {
                    plies: report.plies,
                    result_tag: report.result_tag.clone(),
                    status: report.status,
                    result: report.result.map(|r| r.as_str()),
                    claims: report.claims.clone(),
                    errors,
                    warnings,
                    language: report.language.code(),
                    opening: pgnkit_opening::classify(&game, &report),
                })
            });
            out.games.push(GameOut {
                index,
                byte: chunk.base.saturating_add(game.span.start),
                diagnostics,
                facts,
                name,
                omitted: (!report.omitted.is_empty()).then(|| Box::new(report.omitted)),
                identity: GameIdentity::of(&game),
            });
        }
        index += 1;
    }
    out
}

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
    baseline: Option<Baseline>,
    /// Problems left unreported because the baseline knows them.
    known: u64,
    /// `--write-baseline`: the problems found.
    written: Option<Baseline>,
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
                );
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

    fn begin(&mut self, path: &str, input: &crate::input::Input) -> anyhow::Result<()> {
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
        if args.input.files.is_empty() || args.input.files.iter().any(|f| f == "-") {
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

/// The settings file of a run: `--config FILE` (`path`), none with
/// `--no-config`, else the first `pgnkit.toml` from the current folder
/// upwards (`check` and `report`).
///
/// # Errors
/// Those of reading the file.
pub fn settings(path: Option<&Path>, no_config: bool) -> anyhow::Result<Config> {
    if no_config {
        return Ok(Config::default());
    }
    Ok(match path {
        Some(path) => Config::read(path)?,
        None => Config::find(&std::env::current_dir()?)?,
    })
}

/// Reads the baseline at `path`.
fn read_baseline(path: &Path) -> anyhow::Result<Baseline> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read the baseline `{}`", path.display()))?;
    Baseline::read(&bytes).map_err(|e| anyhow::anyhow!("`{}`: {e}", path.display()))
}

/// Runs `pgnkit check`.
pub fn run(args: &CheckArgs) -> anyhow::Result<u8> {
    if args.format == Some(CheckFormat::Html) {
        return html_page(args);
    }
    let config = settings(args.config.as_deref(), args.no_config)?;
    let stdout = io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let format = (args.format)
        .and_then(CheckFormat::report)
        .or(config.format.and_then(ReportFormat::from_name))
        .unwrap_or(if stdout.is_terminal() {
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
    let strict = args.strict || config.strict == Some(true);
    let language = match args.input.input_lang {
        Some(l) => l.forced(),
        None => config.input_lang.flatten(),
    };
    let baseline = match (&args.baseline, &config.baseline) {
        (Some(path), _) => Some(read_baseline(path)?),
        (None, Some(path)) if args.write_baseline.is_none() => {
            Some(read_baseline(&config.root().join(path))?)
        }
        _ => None,
    };
    let fixed = fix_output(args, stdout.is_terminal())?;
    let diff = fixed.as_ref().is_some_and(|f| !f.prints_diagnostics());
    let fix = fixed.is_some();
    let options = Options {
        language,
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
    };
    let report = pgnkit_report::printer::Printer::new(
        format,
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
        },
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
        written: args.write_baseline.as_ref().map(|_| Baseline::default()),
    };
    if !diff {
        printer.report.begin(&mut printer.out)?;
    }
    let work = |chunk: &Chunk| {
        let selection = *selection.read().unwrap_or_else(PoisonError::into_inner);
        check_chunk(chunk, &options, &selection, stream, args.games, fix)
    };
    let run = pgnkit_driver::files::run(&args.input.inputs(), work, &mut printer)?;
    let Printer {
        mut out,
        mut report,
        fixed,
        baseline,
        known,
        written,
        ..
    } = printer;
    let totals = run.totals;
    if !diff {
        report.finish(&mut out, run.seconds)?;
    }
    if let (Some(path), Some(w)) = (&args.write_baseline, &written) {
        let mut bytes = Vec::new();
        w.write(&mut bytes)?;
        let mut file = pgnkit_driver::output::OutputFile::create(path)?;
        file.write_all(&bytes)
            .with_context(|| format!("cannot write the baseline `{}`", path.display()))?;
        file.commit()?;
        if !args.input.quiet {
            eprintln!(
                "pgnkit: wrote {} problems to the baseline `{}`",
                w.len(),
                path.display()
            );
        }
    }
    let stale: Vec<&Problem> = baseline.as_ref().map(Baseline::stale).unwrap_or_default();
    if let Some(md) = report.job_summary(run.files, &totals)
        && let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").map(std::path::PathBuf::from)
    {
        append(&path, md.as_bytes())
            .with_context(|| format!("cannot write the job summary to `{}`", path.display()))?;
    }
    match format {
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
        _ if !args.input.quiet => {
            out.flush()?;
            eprintln!(
                "{}",
                summary::check_line(run.files, &totals, run.bytes, run.seconds)
            );
            if baseline.is_some() {
                eprintln!("{}", baseline::note(known, &stale));
            }
        }
        _ => {}
    }
    out.flush()?;
    if let Some(f) = fixed {
        f.finish(args.input.quiet)?;
    }
    Ok(if run.failed {
        EXIT_FAILURE
    } else if totals.errors > 0 || (strict && totals.warnings > 0) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// `check --format html`: the page of `pgnkit report` on standard output,
/// for the same files and settings file. The flags that shape the other
/// formats' output have no place on the page and are refused.
fn html_page(args: &CheckArgs) -> anyhow::Result<u8> {
    let shaping = [
        (args.games, "--games"),
        (args.fix, "--fix"),
        (args.strict, "--strict"),
        (args.baseline.is_some(), "--baseline"),
        (args.write_baseline.is_some(), "--write-baseline"),
        (args.max_annotations.is_some(), "--max-annotations"),
        (args.no_suggestions, "--no-suggestions"),
        (args.all_suggestions, "--all-suggestions"),
        (
            !(args.select.is_empty()
                && args.ignore.is_empty()
                && args.warn.is_empty()
                && args.error.is_empty()),
            "--select/--ignore/--warn/--error",
        ),
    ];
    if let Some((_, flag)) = shaping.iter().find(|(set, _)| *set) {
        anyhow::bail!(
            "{flag} is not for --format html: the page shows every problem the settings file selects, with the best suggestion (see `pgnkit report`)"
        );
    }
    crate::report::run(&crate::report::ReportArgs {
        input: args.input.clone(),
        output: "-".to_owned(),
        max_cards: pgnkit_report::html::DEFAULT_MAX_CARDS,
        config: args.config.clone(),
        no_config: args.no_config,
    })
}

/// Appends `bytes` to the file at `path` (created if need be).
fn append(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?
        .write_all(bytes)
}
