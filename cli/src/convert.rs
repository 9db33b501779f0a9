//! `pgnkit convert`: rewrite the moves of every game in another notation or
//! language. The work on each chunk is
//! [`pgnkit_work::convert::convert_chunk`]; here: the flags made a
//! [`Config`], and the printer that writes the converted games to standard
//! output or `-o FILE` (atomically: a temporary file renamed at the end, so
//! a failed run never leaves half a file in place of a good one), the
//! games chosen by number or split into files, and the games' errors to
//! standard error the way `check` reports them (`--diagnostics
//! human|json|github`); the exit status is then 1.

use std::io::{self, BufWriter, IsTerminal, Write};

use pgnkit_driver::Buffers;
use pgnkit_driver::files::{At, Sink};
use pgnkit_driver::output::Output;
use pgnkit_notation::Notation;
use pgnkit_replay::{Detail, Options};
use pgnkit_report::render;
use pgnkit_report::summary::{self, Totals};
use pgnkit_source::Chunk;
use pgnkit_work::convert::{ChunkOut, Config, OutputFormat, convert_chunk};

use crate::exit::{EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS};
use crate::flags::{ConvertArgs, ShapeArgs};

/// Prints what the workers converted, chunk after chunk: the games to the
/// output, the errors to standard error.
struct Printer<'a> {
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
    let positions = args.positions();
    let style = args.style()?;
    if style.notation == Notation::Spoken && args.format() == OutputFormat::Pgn {
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
    if args.add_opening && args.format() != OutputFormat::Pgn {
        anyhow::bail!("--add-opening writes tags: it needs `--format pgn`");
    }
    let config = Config {
        style,
        options: Options {
            language: args.input.lang.forced(),
            illegal_moves: args.input.illegal.given(),
            suggestions: true,
            // Errors are all `convert` reports: plain games take the
            // replay's fast lane (off with the environment variable
            // `PGNKIT_CONVERT_FULL_REPLAY=1`, to check that both write the same).
            // `--add-opening` needs the main line's position keys.
            detail: if std::env::var_os("PGNKIT_CONVERT_FULL_REPLAY").is_some_and(|v| v == "1") {
                Detail::Full
            } else if args.add_opening || args.shape.clocks().is_some() {
                // The clocks are rewritten after the main-line moves.
                Detail::Keys
            } else {
                Detail::Errors
            },
        },
        format: args.format(),
        skip_invalid: args.skip_invalid,
        diagnostics: args.diagnostics,
        opening: args.add_opening.then_some(args.replace_eco),
        layout: args.shape.layout(),
        split_variations: args.shape.split_variations,
        fen_comments: args.shape.fen_comments,
        clocks: args.shape.clocks(),
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
        quiet: args.input.quiet(),
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
        } else if let Some(path) = &args.output {
            eprintln!(
                "pgnkit: error: {}",
                pgnkit_driver::output::nothing_written(path)
            );
        }
    } else if let Err(e) = output.commit() {
        eprintln!("pgnkit: error: {e:#}");
        failed = true;
    }
    if !args.input.quiet() {
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
