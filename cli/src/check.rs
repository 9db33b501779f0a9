//! `pgnkit check`: replay every game of every input, report every problem,
//! compute each game's true result.

use std::io::{self, BufWriter, IsTerminal, Write};

use pgnkit_pgn::location::count_lines;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::fix::{Fixed, fix_game};
use pgnkit_replay::{Detail, Options, replay_game};
use pgnkit_report::games::{self, GameFacts};
use pgnkit_report::summary::{self, Summary, Totals};
use pgnkit_report::{Located, Locator, render};

use crate::args::{CheckArgs, Format};
use crate::files::{At, Sink};
use crate::fix::FixOutput;
use crate::input::Chunk;
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};

/// What a worker says about one game.
pub struct GameOut {
    /// 0-based index of the game in its chunk.
    pub index: u64,
    /// Byte offset of the game in its file.
    pub byte: usize,
    /// Located diagnostics, game and line numbers relative to the chunk.
    pub diagnostics: Vec<Located>,
    /// The `--games` record.
    pub facts: Option<GameFacts>,
    /// "White - Black (Event)".
    pub name: Option<String>,
    /// Diagnostics found beyond those kept.
    pub omitted: pgnkit_replay::Omitted,
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
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, format).max_line(16 << 10);
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
        let report = replay_game(data, &game, options);
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
            let facts = with_games.then(|| GameFacts {
                plies: report.plies,
                result_tag: report.result_tag.clone(),
                status: report.status,
                result: report.result.map(|r| r.as_str()),
                claims: report.claims.clone(),
                errors,
                warnings,
                language: report.language.code(),
            });
            out.games.push(GameOut {
                index,
                byte: chunk.base.saturating_add(game.span.start),
                diagnostics,
                facts,
                name,
                omitted: report.omitted,
            });
        }
        index += 1;
    }
    out
}

/// Prints what the workers found, chunk after chunk.
struct Printer {
    out: BufWriter<io::StdoutLock<'static>>,
    format: Format,
    color: bool,
    /// Whether suggestions are printed (`--no-suggestions`).
    suggestions: bool,
    fixed: Option<FixOutput>,
}

impl Sink<ChunkOut> for Printer {
    fn chunk(
        &mut self,
        at: &At<'_>,
        chunk: &Chunk,
        c: ChunkOut,
    ) -> anyhow::Result<(Totals, usize)> {
        if let Some(f) = self.fixed.as_mut() {
            f.write(&mut self.out, chunk, at.line(0), &c.fixed)?;
            if !f.prints_diagnostics() {
                return Ok((c.totals, c.lines));
            }
        }
        let (out, format) = (&mut self.out, self.format);
        for g in c.games {
            let number = at.game(g.index);
            for mut l in g.diagnostics {
                if !self.suggestions {
                    l.diagnostic.drop_suggestions();
                }
                l.game = number;
                l.line = at.line(l.line);
                render::diagnostic(out, format, self.color, at.name, &l)?;
            }
            render::omitted(out, format, at.name, number, g.omitted)?;
            if let Some(f) = g.facts {
                games::write_game(out, format, at.name, number, g.byte, g.name.as_deref(), &f)?;
            }
        }
        Ok((c.totals, c.lines))
    }

    fn begin(&mut self, path: &str, input: &crate::input::Input) -> anyhow::Result<()> {
        match self.fixed.as_mut() {
            Some(f) => f.begin(path, input),
            None => Ok(()),
        }
    }

    fn end(&mut self, complete: bool) -> anyhow::Result<()> {
        match self.fixed.as_mut() {
            Some(f) => f.end(complete),
            None => Ok(()),
        }
    }

    fn failure(&mut self, path: &str, _: Option<&str>, e: &anyhow::Error) -> io::Result<()> {
        let message = format!("{e:#}");
        games::failure(
            &mut self.out,
            &mut io::stderr(),
            self.format,
            path,
            &message,
        )
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

/// Runs `pgnkit check`.
pub fn run(args: &CheckArgs) -> anyhow::Result<u8> {
    let stdout = io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Human
    } else {
        Format::Json
    });
    let fixed = fix_output(args, stdout.is_terminal())?;
    let diff = fixed.as_ref().is_some_and(|f| !f.prints_diagnostics());
    let fix = fixed.is_some();
    let options = Options {
        language: args.input.input_lang.forced(),
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
    let mut printer = Printer {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        format,
        color,
        suggestions: !args.no_suggestions,
        fixed,
    };
    let work = |chunk: &Chunk| check_chunk(chunk, &options, format, args.games, fix);
    let run = crate::files::run(&args.input, work, &mut printer)?;
    let Printer { mut out, fixed, .. } = printer;
    let totals = run.totals;
    match format {
        Format::Json if !diff => {
            let mut summary = Summary::new(run.files, totals.clone(), run.bytes, run.seconds);
            summary.shard = args.input.shard.map(|s| s.to_string());
            summary.fixed = fixed.as_ref().map(FixOutput::counts);
            serde_json::to_writer(&mut out, &summary)?;
            out.write_all(b"\n")?;
        }
        _ if !args.input.quiet => {
            out.flush()?;
            eprintln!(
                "{}",
                summary::check_line(run.files, &totals, run.bytes, run.seconds)
            );
        }
        _ => {}
    }
    out.flush()?;
    if let Some(f) = fixed {
        f.finish(args.input.quiet)?;
    }
    Ok(if run.failed {
        EXIT_FAILURE
    } else if totals.errors > 0 || (args.strict && totals.warnings > 0) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}
