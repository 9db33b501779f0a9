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
//!
//! What is written of each game, in which style, and which games (the
//! flags of [`crate::shape`]) is the libraries' work: the writer's
//! [`Layout`] and [`SplitLines`], the [`Style`]'s marks, the replay's
//! [`Positions`] and [`UciPosition`]; here they are chosen, and the
//! printer picks the games by number and the file they go to
//! ([`Output`]).

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use pgnkit_notation::{Language, Notation, Style};
use pgnkit_pgn::write::{Layout, Moves, SplitLines, Writer, write_move_lines};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::positions::{PositionFormat, Positions, UciPosition};
use pgnkit_replay::{Code, Detail, GameText, MoveWriter, Options, json, replay_game_text};

use pgnkit_pgn::location::count_lines;
use pgnkit_report::summary::{self, Totals};
use pgnkit_report::{Located, Locator, render};

use crate::args::{Format, InputArgs, output_lang_help};
use crate::input::Chunk;
use crate::shape::ShapeArgs;
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use pgnkit_driver::Buffers;
use pgnkit_driver::files::{At, Sink};
use pgnkit_driver::output::Output;
use pgnkit_driver::spool::{SPOOL_LIMIT, Spool};

/// What `convert` writes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// PGN in export format.
    Pgn,
    /// One JSON object per game and line: tags, moves (written form and
    /// UCI) with their NAGs, comments and variations, result, status.
    Json,
    /// Plain text: the players, then one move a line, numbered, the moves
    /// of variations indented, and the result (for spoken moves, to read
    /// aloud).
    Text,
    /// One line per game: with `--to uci`, the UCI command that sets up
    /// the game's last position (`position startpos moves e2e4 e7e5 …`,
    /// `position fen FEN moves …`).
    Line,
}

/// `pgnkit convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// Target notation: `san` (PGN SAN), `lan` (`Ng1-f3`, `e4xd5`), `uci`
    /// (`g1f3`, `e7e8q`), `iccf` (ICCF numeric: `7163`, `27281`), `figurine`
    /// or `fan` (`♘f3`), `spoken` (`--format
    /// text` or `json` only: the words have spaces), or `ru-scoresheet` (the Russian
    /// scoresheet preset: Russian letters, `:` for captures, `0-0`, `e8Ф`;
    /// ignores `--lang`); or positions, one a line: `fen` or `epd` (each
    /// game's last position, every one with `--all-positions`).
    #[arg(long, short = 't', value_name = "NOTATION", default_value = "san", value_parser = parse_target)]
    pub to: String,
    /// Language of the piece letters written ([`output_lang_help`]).
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang,
          help = output_lang_help())]
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
    /// How errors in the games are reported on standard error (not at all
    /// with `--quiet`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Human)]
    pub diagnostics: Format,
    /// Add the `ECO`, `Opening` and `Variation` tags of the opening each
    /// game's main line reaches (the last named position of the lichess
    /// table). A game with an ECO tag keeps its tags, and is reported
    /// (`eco-mismatch`, a warning) where the tag disagrees. PGN output only.
    #[arg(long)]
    pub add_opening: bool,
    /// With `--add-opening`: replace the ECO, Opening and Variation tags of
    /// games that have them.
    #[arg(long, requires = "add_opening")]
    pub replace_eco: bool,
    /// What is written of each game, and which games.
    #[command(flatten)]
    pub shape: ShapeArgs,
}

/// `--to`'s position formats.
fn position_format(name: &str) -> Option<PositionFormat> {
    match name {
        "fen" => Some(PositionFormat::Fen),
        "epd" => Some(PositionFormat::Epd),
        _ => None,
    }
}

fn parse_target(s: &str) -> Result<String, String> {
    let name = s.trim().to_ascii_lowercase();
    match Style::from_name(s, Language::En) {
        Some(_) => Ok(name),
        None if position_format(&name).is_some() => Ok(name),
        None => Err(format!(
            "unknown notation `{s}`; use one of {} fen epd",
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
    /// `--add-opening` (`Some`), with `--replace-eco` (`Some(true)`).
    pub opening: Option<bool>,
    /// The parts of each game written (PGN).
    pub layout: Layout,
    /// `--split-variations`.
    pub split_variations: bool,
    /// `--fen-comments`.
    pub fen_comments: bool,
    /// `--add-plycount`.
    pub plycount: bool,
    /// `--to fen|epd`: positions instead of games, every one when the
    /// flag is set (`--all-positions`).
    pub positions: Option<(PositionFormat, bool)>,
    /// Every game written is a record of [`ChunkOut::records`] (the
    /// printer chooses the games by number or splits them into files).
    pub per_game: bool,
}

/// What a worker gives back for one chunk.
pub struct ChunkOut {
    /// The converted games, in order (beyond [`SPOOL_LIMIT`] bytes, in a
    /// temporary file).
    pub out: Spool,
    /// JSON, or [`Config::per_game`]: for each game written, its 0-based
    /// index in the chunk and where it starts in `out` (the sink writes a
    /// JSON record's head).
    pub records: Vec<(u64, u64)>,
    /// Games read in the chunk.
    pub games: u64,
    /// Errors of the chunk's games, game numbers relative to the chunk.
    pub diagnostics: Vec<Located>,
    /// Counts.
    pub totals: Totals,
    /// Line breaks in the chunk.
    pub lines: usize,
}

/// Bytes of PGN beyond which a game's output is written in pieces
/// ([`Writer::write_game_to`]).
const LARGE_GAME: usize = 1 << 20;

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
    let mut writer = Writer::with_layout(config.layout.clone());
    let mut lines = String::new();
    let mut ranges = Vec::new();
    let mut out = ChunkOut {
        out: Spool::new(
            buffers.take((chunk.range.len() + chunk.range.len() / 2).min(SPOOL_LIMIT)),
            SPOOL_LIMIT,
        ),
        records: Vec::new(),
        games: 0,
        diagnostics: Vec::new(),
        totals: Totals::default(),
        lines: count_lines(chunk.bytes()),
    };
    let mut locator = Locator::new(data, chunk.range.start, chunk.base, config.diagnostics);
    let uci = config.format == OutputFormat::Json;
    let mut index = 0u64;
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            // `%` lines or a lone comment between games: no game, kept as it is.
            if config.format == OutputFormat::Pgn && !config.per_game && config.positions.is_none()
            {
                let buf = out.out.buffer();
                buf.extend_from_slice(data.get(game.span.clone()).unwrap_or_default());
                buf.extend_from_slice(b"\n\n");
                out.out.settle()?;
            }
            continue;
        }
        let text = GameText::new(data, game.span.clone());
        lines.clear();
        let mut report = if let Some((format, all)) = config.positions {
            let mut positions = Positions::new(format, all, &mut lines);
            let report = replay_game_text(data, &game, &text, &config.options, &mut positions);
            positions.finish();
            report
        } else if config.format == OutputFormat::Line {
            let mut command = UciPosition::new(&mut lines);
            let report = replay_game_text(data, &game, &text, &config.options, &mut command);
            command.finish();
            report
        } else {
            let mut recorder = MoveWriter::new(config.style, uci, &mut conversion);
            if config.fen_comments {
                recorder = recorder.with_fen_notes();
            }
            replay_game_text(data, &game, &text, &config.options, &mut recorder)
        };
        let errors = report.errors();
        let mut mismatch = false;
        let mut tags: Vec<(&str, Option<String>)> = Vec::new();
        if let Some(replace) = config.opening {
            mismatch = opening_tags(&game, &mut report, replace, &mut tags);
        }
        if config.plycount && !config.split_variations {
            tags.push(("PlyCount", Some(report.plies.to_string())));
        }
        if config.opening.is_some() || config.plycount {
            set_tags(&mut writer, &tags);
        }
        out.totals.game(errors, usize::from(mismatch), report.plies);
        if errors > 0 || mismatch {
            let located = locator.locate(&game, &report, index, |d| {
                d.is_error() || d.code == Code::EcoMismatch
            });
            out.diagnostics.extend(located);
        }
        if errors > 0 && config.skip_invalid {
            out.totals.skipped += 1;
        } else if config.positions.is_some() || config.format == OutputFormat::Line {
            // Positions, or a UCI command: text lines.
            if config.per_game {
                out.records.push((index, out.out.len()));
            }
            out.out.buffer().extend_from_slice(lines.as_bytes());
            out.out.settle()?;
        } else if config.split_variations {
            let split = SplitLines::new(&game, &conversion);
            for line in 0..split.len() {
                split.ranges(line, &mut ranges);
                if config.plycount {
                    let plies = conversion.count_in(&ranges).to_string();
                    tags.retain(|t| t.0 != "PlyCount");
                    tags.push(("PlyCount", Some(plies)));
                    set_tags(&mut writer, &tags);
                }
                if config.per_game {
                    out.records.push((index, out.out.len()));
                }
                let buf = out.out.buffer();
                writer.write_line(buf, data, &game, &text, &conversion, Some(&ranges));
                out.out.settle()?;
            }
        } else {
            if config.per_game && config.format != OutputFormat::Json {
                out.records.push((index, out.out.len()));
            }
            match config.format {
                // A game of millions of moves goes out in pieces, never
                // held whole; the others straight into the chunk's buffer.
                OutputFormat::Pgn if game.span.len() > LARGE_GAME => {
                    out.out.spill_from_here()?;
                    writer.write_game_to(&mut out.out, data, &game, &text, &conversion)?;
                }
                OutputFormat::Pgn => {
                    writer.write_game(out.out.buffer(), data, &game, &text, &conversion);
                    out.out.settle()?;
                }
                // Written above, a command a line.
                OutputFormat::Line => {}
                OutputFormat::Text => {
                    if game.span.len() > LARGE_GAME {
                        out.out.spill_from_here()?;
                    }
                    write_move_lines(&mut out.out, &game, &text, &conversion)?;
                }
                OutputFormat::Json => {
                    if game.span.len() > LARGE_GAME {
                        out.out.spill_from_here()?;
                    }
                    out.records.push((index, out.out.len()));
                    json::write_game(&mut out.out, data, &game, &report, &conversion)?;
                    out.out.write_all(b"\n")?;
                }
            }
        }
        index += 1;
    }
    out.games = index;
    Ok(out)
}

/// Sets the tags `writer` writes in place of the game's (`--add-opening`,
/// `--add-plycount`).
fn set_tags(writer: &mut Writer, tags: &[(&str, Option<String>)]) {
    let tags: Vec<(&str, Option<&str>)> = tags.iter().map(|(n, v)| (*n, v.as_deref())).collect();
    writer.set_tags(&tags);
}

/// Adds to `tags` those to write for the opening of `game`
/// (`--add-opening`; `replace`: `--replace-eco`), and to `report` an
/// `eco-mismatch` where its ECO tag disagrees. Returns whether it did.
fn opening_tags(
    game: &Game<'_>,
    report: &mut pgnkit_replay::GameReport,
    replace: bool,
    tags: &mut Vec<(&str, Option<String>)>,
) -> bool {
    let Some(opening) = pgnkit_opening::classify(game, report) else {
        return false;
    };
    let mismatch = pgnkit_opening::eco_mismatch(game, &opening);
    if replace || pgnkit_opening::eco_tag(game).is_none() {
        tags.extend([
            ("ECO", Some(opening.eco().to_owned())),
            ("Opening", Some(opening.opening().to_owned())),
            ("Variation", opening.variation().map(str::to_owned)),
        ]);
    }
    let Some(d) = mismatch else {
        return false;
    };
    let at = report
        .diagnostics
        .partition_point(|e| e.span.start <= d.span.start);
    report.diagnostics.insert(at, d);
    true
}

/// Prints what the workers converted, chunk after chunk: the games to the
/// output, the errors to standard error.
pub struct Printer<'a> {
    output: Output,
    err: BufWriter<io::StderrLock<'static>>,
    color: bool,
    config: &'a Config,
    buffers: &'a Buffers,
    head: Vec<u8>,
    /// `--quiet`: the errors of the games are not printed (they still count).
    quiet: bool,
    /// Which games are written.
    shape: &'a ShapeArgs,
    /// Games read before the chunk, over all inputs.
    games_before: u64,
}

impl Sink<io::Result<ChunkOut>> for Printer<'_> {
    type Totals = Totals;

    fn chunk(
        &mut self,
        at: &At<'_>,
        _: &Chunk,
        chunk_out: io::Result<ChunkOut>,
    ) -> anyhow::Result<(Totals, usize)> {
        let chunk_out = chunk_out?;
        let format = self.config.diagnostics;
        let quiet = self.quiet;
        for mut l in chunk_out.diagnostics.into_iter().filter(|_| !quiet) {
            l.place(at.game(l.game), |n| at.line(n));
            render::diagnostic(
                &mut self.err,
                format,
                self.color,
                render::Suggestions::Best,
                at.name,
                &l,
            )?;
        }
        let end = chunk_out.out.len();
        let mut spooled = chunk_out.out.into_reader()?;
        let json = self.config.format == OutputFormat::Json;
        if json || self.config.per_game {
            let ends = chunk_out
                .records
                .iter()
                .skip(1)
                .map(|r| r.1)
                .chain(std::iter::once(end));
            for (&(index, start), end) in chunk_out.records.iter().zip(ends) {
                let len = end.saturating_sub(start);
                // Numbered over all inputs (`--select-games`).
                if !self
                    .shape
                    .wants(self.games_before.saturating_add(index).saturating_add(1))
                {
                    spooled.copy(len, &mut io::sink())?;
                    continue;
                }
                let w = self.output.writer()?;
                if json {
                    // `{"type":"game","file":…,"game":N,` then the record without its `{`.
                    let head = &mut self.head;
                    head.clear();
                    head.extend_from_slice(b"{\"type\":\"game\",\"file\":");
                    serde_json::to_writer(&mut *head, at.name)?;
                    write!(head, ",\"game\":{},", at.game(index))?;
                    w.write_all(head)?;
                    spooled.copy(1, &mut io::sink())?;
                    spooled.copy(len.saturating_sub(1), w)?;
                } else {
                    spooled.copy(len, w)?;
                }
            }
        } else {
            spooled.copy_rest(self.output.writer()?)?;
        }
        self.games_before = self.games_before.saturating_add(chunk_out.games);
        self.buffers.give(spooled.into_buffer());
        Ok((chunk_out.totals, chunk_out.lines))
    }

    fn stdin_hint(&self) -> &'static str {
        "reading PGN from standard input (Ctrl-D to end; give a file to convert)"
    }

    fn failure(&mut self, _: &str, name: Option<&str>, e: &anyhow::Error) -> io::Result<()> {
        self.err.flush()?;
        match name {
            Some(name) => eprintln!("pgnkit: error: {name}: {e:#}"),
            None => eprintln!("pgnkit: error: {e:#}"),
        }
        Ok(())
    }
}

/// Runs `pgnkit convert`.
pub fn run(args: &ConvertArgs) -> anyhow::Result<u8> {
    let positions = position_format(&args.to).map(|f| (f, args.shape.all_positions));
    let Some(style) = Style::from_name(&args.to, args.lang)
        .or(positions.map(|_| Style::SAN))
        .map(|s| args.shape.style(s))
    else {
        anyhow::bail!("unknown notation `{}`", args.to);
    };
    crate::shape::check(args, &style, positions.is_some())?;
    if style.notation == Notation::Spoken && args.format == OutputFormat::Pgn {
        eprintln!(
            "pgnkit: error: spoken moves are several words and cannot be PGN movetext; use `--format text` or `--format json`"
        );
        return Ok(EXIT_FAILURE);
    }
    if style.notation == Notation::Spoken && !pgnkit_notation::spoken::has_words(style.language) {
        eprintln!(
            "pgnkit: error: there are no spoken words for {} (no source gives them): choose another --lang for --to spoken",
            style.language.name()
        );
        return Ok(EXIT_FAILURE);
    }
    if args.add_opening && args.format != OutputFormat::Pgn {
        anyhow::bail!("--add-opening writes tags: it needs `--format pgn`");
    }
    let config = Config {
        style,
        options: Options {
            language: args.input.input_lang().forced(),
            suggestions: true,
            // Errors are all `convert` reports: plain games take the
            // replay's fast lane (off with the environment variable
            // `PGNKIT_CONVERT_FULL_REPLAY=1`, to check that both write the same).
            // `--add-opening` needs the main line's position keys.
            detail: if std::env::var_os("PGNKIT_CONVERT_FULL_REPLAY").is_some_and(|v| v == "1") {
                Detail::Full
            } else if args.add_opening {
                Detail::Keys
            } else {
                Detail::Errors
            },
        },
        format: args.format,
        skip_invalid: args.skip_invalid,
        diagnostics: args.diagnostics,
        opening: args.add_opening.then_some(args.replace_eco),
        layout: args.shape.layout(),
        split_variations: args.shape.split_variations,
        fen_comments: args.shape.fen_comments,
        plycount: args.shape.add_plycount,
        positions,
        per_game: args.shape.per_game(),
    };
    let buffers = Buffers::default();
    let stderr = io::stderr();
    let mut printer = Printer {
        output: Output::open(args.output.as_deref(), args.shape.split)?,
        color: stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        err: BufWriter::new(stderr.lock()),
        config: &config,
        buffers: &buffers,
        head: Vec::new(),
        quiet: args.input.quiet,
        shape: &args.shape,
        games_before: 0,
    };
    let work = |chunk: &Chunk| convert_chunk(chunk, &config, &buffers);
    let run = pgnkit_driver::files::run(&args.input.inputs(), work, &mut printer)?;
    let Printer {
        output, mut err, ..
    } = printer;
    err.flush()?;
    let mut failed = run.failed;
    if failed {
        // The output is dropped: a temporary file is removed, FILE untouched.
        if let Output::Stdout(mut w) = output {
            w.flush()?;
        } else if args.output.is_some() {
            eprintln!("pgnkit: error: nothing written: an input could not be read");
        }
    } else if let Err(e) = output.commit() {
        eprintln!("pgnkit: error: {e:#}");
        failed = true;
    }
    if !args.input.quiet {
        let line = summary::convert_line(run.files, &run.totals, run.bytes, run.seconds);
        eprintln!("{line}");
    }
    Ok(if failed {
        EXIT_FAILURE
    } else if run.totals.errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}
