//! `pgnkit convert`: rewrite the moves of every game in another notation or
//! language.
//!
//! Every game is replayed ([`pgnkit_replay::replay_game_with`]); a visitor
//! renders each move played (main line and variations) in the target
//! [`Style`] into one reused buffer, by token index; then the game's tokens
//! are walked once to write the game in PGN export format
//! ([`pgnkit_pgn::write`]) or as one JSON object a line (`--format json`).
//!
//! Games with an error are converted up to the error, the rest of the line
//! kept verbatim in a comment, and the error reported on standard error the
//! way `check` reports it (`--diagnostics human|json|github`); the exit
//! status is then 1. `--skip-invalid` leaves such games out (they are still
//! counted in the summary). Output goes to standard output or, with
//! `-o FILE`, to a temporary file in FILE's folder renamed to FILE at the
//! end, so a failed run never leaves half a file in place of a good one.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use pgnkit_notation::{Language, Notation, Style};
use pgnkit_pgn::write::{Moves, Writer};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{
    Detail, Encoding, GameReport, GameText, MoveWriter, Options, json, replay_game_with,
};

use crate::args::{Format, InputArgs};
use crate::driver::{Buffers, Driver, Progress};
use crate::input::{Chunk, Input};
use crate::location::{Cursor, count_lines};
use crate::output::OutputFile;
use crate::render::{self, Located};
use crate::spool::{SPOOL_LIMIT, Spool};
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};

/// What `convert` writes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// PGN in export format.
    Pgn,
    /// One JSON object per game and line: tags, moves (written form and
    /// UCI) with their NAGs, comments and variations, result, status.
    Json,
}

/// `pgnkit convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// Target notation: `san` (PGN SAN), `lan` (`Ng1-f3`, `e4xd5`), `uci`
    /// (`g1f3`, `e7e8q`), `figurine` or `fan` (`♘f3`), `spoken` (`--format
    /// json` only: the words have spaces), or `ru-scoresheet` (the Russian
    /// scoresheet preset: Russian letters, `:` for captures, `0-0`, `e8Ф`;
    /// ignores `--lang`).
    #[arg(long, short = 't', value_name = "NOTATION", default_value = "san", value_parser = parse_target)]
    pub to: String,
    /// Language of the piece letters written (ISO 639-1 code: en de fr es it
    /// pt ca nl da no sv fi is et pl cs sk hu ro ru uk bg sr tr el lt id af lv sl).
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang)]
    pub lang: Language,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Pgn)]
    pub format: OutputFormat,
    /// Leave games with an error out of the output (they are still counted).
    #[arg(long)]
    pub skip_invalid: bool,
    /// Write to FILE (atomically: a temporary file renamed at the end)
    /// instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// How errors in the games are reported on standard error.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Human)]
    pub diagnostics: Format,
}

fn parse_target(s: &str) -> Result<String, String> {
    match Style::from_name(s, Language::En) {
        Some(_) => Ok(s.trim().to_ascii_lowercase()),
        None => Err(format!(
            "unknown notation `{s}`; use one of {}",
            Style::NAMES.join(" ")
        )),
    }
}

fn parse_lang(s: &str) -> Result<Language, String> {
    Language::parse(s).map_err(|e| e.to_string())
}

/// Everything a worker needs to convert a chunk.
pub struct Config {
    /// The target style.
    pub style: Style,
    /// How to replay.
    pub options: Options,
    /// PGN or JSON.
    pub format: OutputFormat,
    /// Leave games with errors out.
    pub skip_invalid: bool,
    /// How diagnostics are printed (to locate them for it).
    pub diagnostics: Format,
}

/// Counts over a run.
#[derive(Default, Debug, Clone)]
pub struct Totals {
    /// Games read, readable or not.
    pub games: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Games left out by `--skip-invalid`.
    pub skipped: u64,
    /// Errors.
    pub errors: u64,
    /// Main-line plies converted.
    pub plies: u64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.games += o.games;
        self.games_with_errors += o.games_with_errors;
        self.skipped += o.skipped;
        self.errors += o.errors;
        self.plies += o.plies;
    }
}

/// What a worker gives back for one chunk.
pub struct ChunkOut {
    /// The converted games, in order (beyond [`SPOOL_LIMIT`] bytes, in a
    /// temporary file).
    pub out: Spool,
    /// JSON only: for each game written, its 0-based index in the chunk and
    /// where its record starts in `out` (the sink writes the record's head).
    pub records: Vec<(u64, u64)>,
    /// Errors of the chunk's games, game numbers relative to the chunk.
    pub diagnostics: Vec<Located>,
    /// Counts.
    pub totals: Totals,
    /// Line breaks in the chunk.
    pub lines: usize,
}

/// Converts the games of one chunk.
///
/// # Errors
/// When the output spilled beyond [`SPOOL_LIMIT`] cannot be written to its
/// temporary file.
pub fn convert_chunk(chunk: &Chunk, config: &Config, buffers: &Buffers) -> io::Result<ChunkOut> {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    // Null moves are written `--` in every notation (UCI's `0000` would
    // read as a move number in PGN movetext).
    let mut conversion = Moves::new(config.style.is_ascii());
    let mut writer = Writer::new();
    let mut out = ChunkOut {
        out: Spool::new(
            buffers.take((chunk.range.len() + chunk.range.len() / 2).min(SPOOL_LIMIT)),
            SPOOL_LIMIT,
        ),
        records: Vec::new(),
        diagnostics: Vec::new(),
        totals: Totals::default(),
        lines: count_lines(chunk.bytes()),
    };
    let mut cursor = Cursor::new(data, chunk.range.start);
    let uci = config.format == OutputFormat::Json;
    let mut index = 0u64;
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            // `%` lines or a lone comment between games: no game, kept as it is.
            if config.format == OutputFormat::Pgn {
                let buf = out.out.buffer();
                buf.extend_from_slice(data.get(game.span.clone()).unwrap_or_default());
                buf.extend_from_slice(b"\n\n");
                out.out.settle()?;
            }
            continue;
        }
        let text = GameText::new(data, game.span.clone());
        let mut recorder = MoveWriter::new(config.style, uci, &mut conversion);
        let report = replay_game_with(data, &game, &config.options, &mut recorder);
        let errors = report.errors();
        out.totals.games += 1;
        out.totals.errors += errors as u64;
        out.totals.plies += u64::from(report.plies);
        if errors > 0 {
            out.totals.games_with_errors += 1;
            locate_errors(
                chunk,
                &game,
                &report,
                index,
                config,
                &mut cursor,
                &mut out.diagnostics,
            );
        }
        if errors > 0 && config.skip_invalid {
            out.totals.skipped += 1;
        } else {
            match config.format {
                OutputFormat::Pgn => {
                    writer.write_game(out.out.buffer(), data, &game, &text, &conversion);
                    out.out.settle()?;
                }
                OutputFormat::Json => {
                    out.records.push((index, out.out.len()));
                    json::write_game(&mut out.out, data, &game, &report, &conversion)?;
                    out.out.write_all(b"\n")?;
                }
            }
        }
        index += 1;
    }
    Ok(out)
}

fn locate_errors(
    chunk: &Chunk,
    game: &Game<'_>,
    report: &GameReport,
    index: u64,
    config: &Config,
    cursor: &mut Cursor<'_>,
    into: &mut Vec<Located>,
) {
    let data: &[u8] = &chunk.data;
    let name = crate::check::game_name(game, report);
    let chars = report.encoding == Encoding::Utf8;
    let errors: Vec<&pgnkit_replay::Diagnostic> =
        report.diagnostics.iter().filter(|d| d.is_error()).collect();
    let offsets: Vec<usize> = errors.iter().map(|d| d.span.start).collect();
    let places = cursor.locate_many(&offsets, chars);
    for (d, place) in errors.into_iter().zip(places) {
        let source = (config.diagnostics == Format::Human)
            .then(|| crate::check::source_line(data, &place.line_range, &d.span, report.encoding));
        into.push(Located {
            diagnostic: d.clone(),
            game: index,
            line: place.line,
            column: place.column,
            byte: chunk.base.saturating_add(d.span.start),
            source,
            game_name: name.clone(),
        });
    }
}

/// Where the converted games go.
enum Sink {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File(OutputFile),
}

impl Sink {
    fn open(path: Option<&Path>) -> anyhow::Result<Sink> {
        match path.filter(|p| p.as_os_str() != "-") {
            None => Ok(Sink::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout().lock(),
            ))),
            Some(path) => Ok(Sink::File(OutputFile::create(path)?)),
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => w,
            Sink::File(f) => f,
        }
    }

    /// Flushes; a file is put in place.
    fn commit(self) -> anyhow::Result<()> {
        match self {
            Sink::Stdout(mut w) => Ok(w.flush()?),
            Sink::File(f) => f.commit(),
        }
    }
}

/// Runs `pgnkit convert`.
pub fn run(args: &ConvertArgs) -> anyhow::Result<u8> {
    let Some(style) = Style::from_name(&args.to, args.lang) else {
        anyhow::bail!("unknown notation `{}`", args.to);
    };
    if style.notation == Notation::Spoken && args.format == OutputFormat::Pgn {
        eprintln!(
            "pgnkit: error: spoken moves are several words and cannot be PGN movetext; use `--format json`"
        );
        return Ok(EXIT_FAILURE);
    }
    let config = Config {
        style,
        options: Options {
            language: args.input.input_lang.forced(),
            suggestions: true,
            // Errors are all `convert` reports: plain games take the
            // replay's fast lane (off with the environment variable
            // `PGNKIT_CONVERT_FULL_REPLAY=1`, to check that both write the same).
            detail: if std::env::var_os("PGNKIT_CONVERT_FULL_REPLAY").is_none_or(|v| v != "1") {
                Detail::Errors
            } else {
                Detail::Full
            },
        },
        format: args.format,
        skip_invalid: args.skip_invalid,
        diagnostics: args.diagnostics,
    };
    let driver = Driver::new(args.input.jobs)?;
    let buffers = Buffers::default();
    let files: Vec<String> = if args.input.files.is_empty() {
        vec!["-".to_owned()]
    } else {
        args.input.files.clone()
    };
    let mut sink = Sink::open(args.output.as_deref())?;
    let stderr = io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut err = BufWriter::new(stderr.lock());

    let mut totals = Totals::default();
    let mut failed = false;
    let mut bytes = 0u64;
    let mut files_read = 0u64;
    let started = std::time::Instant::now();
    for path in &files {
        let input = match Input::open_with(path, &args.input) {
            Ok(i) => i,
            Err(e) => {
                failed = true;
                err.flush()?;
                eprintln!("pgnkit: error: {e:#}");
                continue;
            }
        };
        files_read += 1;
        let name = input.name.clone();
        let progress = Progress::new(args.input.quiet, input.len);
        // With --shard / --game-offset, numbers stay those of the whole file.
        let mut games_before = input.origin.games;
        let mut lines_before = input.origin.lines;
        let mut file_totals = Totals::default();
        let mut head = Vec::new();
        let result = driver.run(
            input,
            &progress,
            |chunk| convert_chunk(chunk, &config, &buffers),
            |chunk, chunk_out| {
                let chunk_out = chunk_out?;
                bytes += chunk.range.len() as u64;
                // Bounded far below the maximum (see `args::MAX_GAME_OFFSET`);
                // saturating all the same.
                for mut l in chunk_out.diagnostics {
                    l.game = l.game.saturating_add(games_before).saturating_add(1);
                    l.line = l.line.saturating_add(lines_before).saturating_add(1);
                    render::diagnostic(&mut err, config.diagnostics, color, &name, &l)?;
                }
                let w = sink.writer();
                let end = chunk_out.out.len();
                let mut spooled = chunk_out.out.into_reader()?;
                match config.format {
                    OutputFormat::Pgn => spooled.copy_rest(w)?,
                    OutputFormat::Json => {
                        let ends = chunk_out
                            .records
                            .iter()
                            .skip(1)
                            .map(|r| r.1)
                            .chain(std::iter::once(end));
                        for (&(index, start), end) in chunk_out.records.iter().zip(ends) {
                            // `{"type":"game","file":…,"game":N,` then the record without its `{`.
                            head.clear();
                            head.extend_from_slice(b"{\"type\":\"game\",\"file\":");
                            serde_json::to_writer(&mut head, &name)?;
                            let number = games_before.saturating_add(index).saturating_add(1);
                            write!(head, ",\"game\":{number},")?;
                            w.write_all(&head)?;
                            spooled.copy(1, &mut io::sink())?;
                            spooled.copy(end.saturating_sub(start).saturating_sub(1), w)?;
                        }
                    }
                }
                games_before = games_before.saturating_add(chunk_out.totals.games);
                lines_before = lines_before.saturating_add(chunk_out.lines);
                file_totals.add(&chunk_out.totals);
                progress.games(file_totals.games);
                buffers.give(spooled.into_buffer());
                Ok(())
            },
        );
        progress.finish();
        totals.add(&file_totals);
        if let Err(e) = result {
            if crate::output::is_broken_pipe(&e) {
                return Err(e);
            }
            failed = true;
            err.flush()?;
            eprintln!("pgnkit: error: {name}: {e:#}");
        }
    }
    err.flush()?;
    let seconds = started.elapsed().as_secs_f64();
    if failed {
        // The sink is dropped: a temporary file is removed, FILE untouched.
        if let Sink::Stdout(mut w) = sink {
            w.flush()?;
        } else if args.output.is_some() {
            eprintln!("pgnkit: error: nothing written: an input could not be read");
        }
    } else if let Err(e) = sink.commit() {
        eprintln!("pgnkit: error: {e:#}");
        failed = true;
    }
    if !args.input.quiet {
        eprintln!("{}", summary_line(files_read, &totals, bytes, seconds));
    }
    Ok(if failed {
        EXIT_FAILURE
    } else if totals.errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// "converted 1 file: 1548 games (3 with errors, 3 left out), 123456 plies in 0.41 s (160.2 MB/s)"
pub fn summary_line(files: u64, t: &Totals, bytes: u64, seconds: f64) -> String {
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
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
