//! `pgnkit check`: replay every game of every input, report every problem,
//! compute each game's true result.

use std::io::{self, BufWriter, IsTerminal, Write};

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Claim, Detail, GameReport, Options, Status, replay_game};
use serde::Serialize;

use crate::args::{CheckArgs, Format};
use crate::driver::{Driver, Progress};
use crate::input::{Chunk, Input};
use crate::location::{Cursor, count_lines};
use crate::render::{self, Located};
use crate::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};

/// Counts over a run.
#[derive(Default, Debug, Clone, Serialize)]
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
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.games += o.games;
        self.games_with_errors += o.games_with_errors;
        self.errors += o.errors;
        self.warnings += o.warnings;
        self.plies += o.plies;
        self.dead_undecided += o.dead_undecided;
    }
}

/// One game's facts for the `--games` record.
#[derive(Debug)]
pub struct GameFacts {
    /// Plies.
    pub plies: u32,
    /// Result tag as written.
    pub result_tag: Option<String>,
    /// Status per the Laws.
    pub status: Status,
    /// What the rules give.
    pub result: Option<&'static str>,
    /// Claimable draws.
    pub claims: Vec<Claim>,
    /// Errors and warnings.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Piece-letter language the moves were read in.
    pub language: &'static str,
}

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
    pub fixed: crate::fix::Fixed,
}

#[derive(Serialize)]
struct JsonGame<'a> {
    r#type: &'static str,
    file: &'a str,
    game: u64,
    byte: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    white: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<&'a str>,
    plies: u32,
    result_tag: Option<&'a str>,
    status: &'static str,
    result: Option<&'static str>,
    claims: &'a [Claim],
    language: &'static str,
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct JsonSummary {
    r#type: &'static str,
    files: u64,
    #[serde(flatten)]
    totals: Totals,
    bytes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    /// What `--fix` changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<crate::fix::FixCounts>,
}

/// The name of a game for humans: "White - Black (Event)".
pub fn game_name(game: &Game<'_>, report: &GameReport) -> Option<String> {
    let tag = |n: &str| {
        game.tag(n)
            .map(|t| report.encoding.decode(&t.value()).trim().to_owned())
            .filter(|v| !v.is_empty() && v != "?")
    };
    let (w, b, e) = (tag("White"), tag("Black"), tag("Event"));
    if w.is_none() && b.is_none() && e.is_none() {
        return None;
    }
    let mut s = format!(
        "{} - {}",
        w.as_deref().unwrap_or("?"),
        b.as_deref().unwrap_or("?")
    );
    if let Some(e) = e {
        s.push_str(&format!(" ({e})"));
    }
    Some(s)
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
        fixed: crate::fix::Fixed::default(),
    };
    let mut cursor = Cursor::new(data, chunk.range.start);
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
            crate::fix::fix_game(data, &game, &report, &mut out.fixed);
        }
        let errors = report.errors();
        let warnings = report.warnings();
        out.totals.games += 1;
        out.totals.errors += errors as u64;
        out.totals.warnings += warnings as u64;
        out.totals.plies += u64::from(report.plies);
        out.totals.dead_undecided += u64::from(report.dead_undecided);
        if errors > 0 {
            out.totals.games_with_errors += 1;
        }
        if !report.diagnostics.is_empty() || with_games {
            let name = game_name(&game, &report);
            let chars = report.encoding == pgnkit_replay::Encoding::Utf8;
            let offsets: Vec<usize> = report.diagnostics.iter().map(|d| d.span.start).collect();
            let places = cursor.locate_many(&offsets, chars);
            let diagnostics = report
                .diagnostics
                .iter()
                .zip(places)
                .map(|(d, place)| {
                    // A line too long to show (binary junk, a whole game on one
                    // line of megabytes) is named by its line and column only.
                    let showable = place.line_range.len() <= 16 << 10;
                    let source = (format == Format::Human && showable)
                        .then(|| source_line(data, &place.line_range, &d.span, report.encoding));
                    Located {
                        diagnostic: d.clone(),
                        game: index,
                        line: place.line,
                        column: place.column,
                        byte: chunk.base.saturating_add(d.span.start),
                        source,
                        game_name: name.clone(),
                    }
                })
                .collect();
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

/// The source line `line` of `data` decoded, and the range of the token
/// `span` in it (clamped to the line: no offset can panic or wrap).
pub fn source_line(
    data: &[u8],
    line: &std::ops::Range<usize>,
    span: &std::ops::Range<usize>,
    encoding: pgnkit_replay::Encoding,
) -> (String, std::ops::Range<usize>) {
    let text = data.get(line.clone()).unwrap_or_default();
    let token_start = span.start.saturating_sub(line.start).min(text.len());
    let token_end = span
        .end
        .min(line.end)
        .saturating_sub(line.start)
        .clamp(token_start, text.len());
    let pre = encoding
        .decode(text.get(..token_start).unwrap_or_default())
        .len();
    let tok = encoding
        .decode(text.get(token_start..token_end).unwrap_or_default())
        .len();
    let decoded = encoding.decode(text).into_owned();
    render::source_window(&decoded, pre..pre.saturating_add(tok))
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
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let options = Options {
        language: args.input.input_lang.forced(),
        suggestions: !args.no_suggestions,
        // The claims are printed with `--games` only, and `--fix` rewrites
        // from the full report.
        detail: if args.games || args.fix {
            Detail::Full
        } else {
            Detail::Diagnostics
        },
    };
    let driver = Driver::new(args.input.jobs)?;
    let mut fixed = match (&args.output, args.fix) {
        (Some(path), true) => Some(crate::fix::FixOutput::create(path)?),
        _ => None,
    };
    let fix = fixed.is_some();
    let files: Vec<String> = if args.input.files.is_empty() {
        vec!["-".to_owned()]
    } else {
        args.input.files.clone()
    };

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
                report_failure(&mut out, format, path, &e)?;
                continue;
            }
        };
        files_read += 1;
        let name = input.name.clone();
        let progress = Progress::new(args.input.quiet, input.len);
        let mut games_before = input.origin.games;
        let mut lines_before = input.origin.lines;
        let mut file_totals = Totals::default();
        let result = driver.run(
            input,
            &progress,
            |chunk| check_chunk(chunk, &options, format, args.games, fix),
            |chunk, chunk_out| {
                bytes += chunk.range.len() as u64;
                if let Some(f) = fixed.as_mut() {
                    f.write(&chunk_out.fixed)?;
                }
                for g in chunk_out.games {
                    // Bounded far below u64::MAX (see `args::MAX_GAME_OFFSET`);
                    // saturating all the same.
                    let number = games_before.saturating_add(g.index).saturating_add(1);
                    for mut l in g.diagnostics {
                        l.game = number;
                        l.line = l.line.saturating_add(lines_before).saturating_add(1);
                        render::diagnostic(&mut out, format, color, &name, &l)?;
                    }
                    render::omitted(&mut out, format, &name, number, g.omitted)?;
                    if let Some(f) = g.facts {
                        write_game(
                            &mut out,
                            format,
                            &name,
                            number,
                            g.byte,
                            g.name.as_deref(),
                            &f,
                        )?;
                    }
                }
                games_before = games_before.saturating_add(chunk_out.totals.games);
                lines_before = lines_before.saturating_add(chunk_out.lines);
                file_totals.add(&chunk_out.totals);
                progress.games(file_totals.games);
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
            report_failure(&mut out, format, path, &e)?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    match format {
        Format::Json => {
            let summary = JsonSummary {
                r#type: "summary",
                files: files_read,
                totals: totals.clone(),
                bytes,
                seconds,
                shard: args.input.shard.map(|s| s.to_string()),
                fixed: fixed.as_ref().map(crate::fix::FixOutput::counts),
            };
            serde_json::to_writer(&mut out, &summary)?;
            out.write_all(b"\n")?;
        }
        _ if !args.input.quiet => {
            out.flush()?;
            eprintln!("{}", summary_line(files_read, &totals, bytes, seconds));
        }
        _ => {}
    }
    out.flush()?;
    if let Some(f) = fixed {
        f.finish(args.input.quiet)?;
    }
    Ok(if failed {
        EXIT_FAILURE
    } else if totals.errors > 0 || (args.strict && totals.warnings > 0) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// "checked 2 files: 1548 games (3 with errors), 4 errors, 1 warning, 123456 plies in 0.41 s (160.2 MB/s)",
/// with ", 2 final positions undecided (dead position?)" before " in" when the dead-position
/// search ran out of budget.
pub fn summary_line(files: u64, t: &Totals, bytes: u64, seconds: f64) -> String {
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
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

fn write_game(
    out: &mut dyn Write,
    format: Format,
    file: &str,
    number: u64,
    byte: usize,
    name: Option<&str>,
    f: &GameFacts,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let (white, black) = match name {
                Some(n) => {
                    let (w, rest) = n.split_once(" - ").unwrap_or((n, ""));
                    let b = rest.split(" (").next().unwrap_or(rest);
                    (Some(w), Some(b))
                }
                None => (None, None),
            };
            let record = JsonGame {
                r#type: "game",
                file,
                game: number,
                byte,
                white: white.filter(|w| *w != "?"),
                black: black.filter(|b| *b != "?" && !b.is_empty()),
                plies: f.plies,
                result_tag: f.result_tag.as_deref(),
                status: f.status.as_str(),
                result: f.result,
                claims: &f.claims,
                language: f.language,
                errors: f.errors,
                warnings: f.warnings,
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        Format::Github => Ok(()),
        Format::Human => {
            let mut line = format!("{file}: game {number}");
            if let Some(n) = name {
                line.push_str(&format!(" ({n})"));
            }
            line.push_str(&format!(": {}, {} plies", f.status.as_str(), f.plies));
            if let Some(r) = f.result {
                line.push_str(&format!(", the rules give {r}"));
            }
            if let Some(t) = &f.result_tag {
                line.push_str(&format!(", Result tag {t}"));
            }
            for c in &f.claims {
                let kind = match c.kind {
                    pgnkit_replay::ClaimKind::Threefold => "threefold repetition",
                    pgnkit_replay::ClaimKind::FiftyMoves => "50-move rule",
                };
                match &c.by_move {
                    Some(m) => line.push_str(&format!(
                        ", {kind} claimable at ply {} by declaring {} ({})",
                        c.ply, m.san, m.uci
                    )),
                    None => line.push_str(&format!(", {kind} claimable from ply {}", c.ply)),
                }
            }
            if f.language != "en" {
                line.push_str(&format!(", read as {}", f.language));
            }
            writeln!(out, "{line}")
        }
    }
}

/// Reports an input that could not be read (the run goes on).
pub fn report_failure(
    out: &mut dyn Write,
    format: Format,
    path: &str,
    e: &anyhow::Error,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let record =
                serde_json::json!({"type": "error", "file": path, "message": format!("{e:#}")});
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        Format::Github => writeln!(
            out,
            "::error file={path}::{}",
            format!("{e:#}").replace('\n', "%0A")
        ),
        Format::Human => {
            out.flush()?;
            eprintln!("pgnkit: error: {e:#}");
            Ok(())
        }
    }
}
