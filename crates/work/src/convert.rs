//! `convert`'s work on one chunk: every game replayed
//! ([`pgnkit_replay::replay_game_text`]); a visitor renders each move
//! played (main line and variations) in the target [`Style`] into one
//! reused buffer, by token index; then the game's tokens are walked once to
//! write the game in PGN export format ([`pgnkit_pgn::write`]), as text, as
//! one JSON object a line, or as positions or UCI commands.
//!
//! Games with an error are converted up to the error, the rest of the line
//! kept verbatim in a comment, and the error located for the printer;
//! [`Config::skip_invalid`] leaves such games out (they are still counted).
//! What is written of each game, in which style, and which games is the
//! libraries' work: the writer's [`Layout`] and [`SplitLines`], the
//! [`Style`]'s marks, the replay's [`Positions`] and [`UciPosition`]; here
//! they are applied.

use std::io::{self, Write};

use pgnkit_driver::Buffers;
use pgnkit_driver::spool::{SPOOL_LIMIT, Spool};
use pgnkit_notation::Style;
use pgnkit_pgn::write::{Layout, Moves, SplitLines, Writer, write_move_lines};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::positions::{PositionFormat, Positions, UciPosition};
use pgnkit_replay::{Code, GameText, MoveWriter, Options, replay_game_text};
use pgnkit_report::json;
use pgnkit_report::summary::Totals;
use pgnkit_report::{Format, Located, Locator};
use pgnkit_source::Chunk;

use crate::whole_chunk;

/// What `convert` writes.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// `--no-clocks`, `--clocks clk|emt`: what to write of the clock
    /// commands (`None`: as written).
    pub clocks: Option<pgnkit_replay::clock::Rewrite>,
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
        lines: 0,
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
        // Where the game written live starts: in the output buffer, and
        // in the whole output.
        let mut live_from = None;
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
        } else if live_pgn(config, &game) {
            // Written as the moves are played, straight into the output;
            // where the live writer gives way, kept and written below.
            let at = out.out.len();
            let buf = out.out.buffer();
            live_from = Some((buf.len(), at));
            let mut live = writer.live(buf, data, &game, &text, config.style.is_ascii());
            let report = replay_game_text(
                data,
                &game,
                &text,
                &config.options,
                &mut MoveWriter::new(config.style, false, &mut live),
            );
            if live.finish() {
                report
            } else {
                live_from = None;
                let mut recorder = MoveWriter::new(config.style, false, &mut conversion);
                replay_game_text(data, &game, &text, &config.options, &mut recorder)
            }
        } else {
            let mut recorder = MoveWriter::new(config.style, uci, &mut conversion);
            if config.fen_comments {
                recorder = recorder.with_fen_notes();
            }
            replay_game_text(data, &game, &text, &config.options, &mut recorder)
        };
        if let Some(rewrite) = config.clocks {
            match pgnkit_replay::clock::rewritten_comments(&game, &text, &report.clocked(), rewrite)
            {
                Ok(edits) => {
                    for (at, comment) in edits {
                        conversion.edit_comment(at, comment);
                    }
                }
                Err(why) => {
                    // Said as a warning; the game's comments stay as written.
                    let at = game.span.start..game.span.start;
                    report.diagnostics.push(pgnkit_replay::Diagnostic::new(
                        Code::TimeControl,
                        at,
                        format!("the clocks of this game are written as they are: {why}"),
                    ));
                    out.diagnostics.extend(
                        locator.locate(&game, &report, index, |d| d.code == Code::TimeControl),
                    );
                }
            }
        }
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
            if let Some((from, _)) = live_from {
                out.out.buffer().truncate(from);
            }
        } else if let Some((_, at)) = live_from {
            if config.per_game {
                out.records.push((index, at));
            }
            out.out.settle()?;
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
        locator.pass(game.span.end);
        index += 1;
    }
    out.games = index;
    out.lines = locator.lines_to(chunk.range.end);
    Ok(out)
}

/// Whether `game` is written in PGN as its moves are played
/// ([`pgnkit_pgn::write::LiveMovetext`]): all of it, with nothing that
/// needs its moves kept (another format, positions, a split into lines,
/// notes, clocks rewritten, tags from the replay, a game written in
/// pieces).
fn live_pgn(config: &Config, game: &Game<'_>) -> bool {
    config.format == OutputFormat::Pgn
        && config.positions.is_none()
        && !config.split_variations
        && !config.fen_comments
        && config.clocks.is_none()
        && config.opening.is_none()
        && !config.plycount
        && game.span.len() <= LARGE_GAME
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

/// Converts the games of `data` as `pgnkit convert` converts one chunk
/// ([`convert_chunk`]), without files or threads: the converted games (PGN
/// or JSON lines, without the per-record head the printer adds), the
/// diagnostics and the counts.
///
/// # Errors
/// Those of the temporary file of an output beyond [`SPOOL_LIMIT`] bytes.
pub fn convert_bytes(data: &[u8], config: &Config) -> io::Result<Converted> {
    let chunk = whole_chunk(data.to_vec());
    let converted = convert_chunk(&chunk, config, &Buffers::default())?;
    let mut out = Vec::new();
    converted.out.into_reader()?.copy_rest(&mut out)?;
    Ok(Converted {
        out,
        diagnostics: converted.diagnostics,
        totals: converted.totals,
    })
}

/// What [`convert_bytes`] gives.
pub struct Converted {
    /// The converted games.
    pub out: Vec<u8>,
    /// Errors of the games, game numbers from 0.
    pub diagnostics: Vec<Located>,
    /// Counts.
    pub totals: Totals,
}

#[cfg(test)]
mod tests {
    use pgnkit_notation::{Language, Notation};
    use pgnkit_pgn::text::GameText;
    use pgnkit_pgn::write::TagSection;
    use pgnkit_replay::Detail;

    use super::*;

    /// Games that take every turn of the writer's walk: comments, NAGs and
    /// glyphs, variations (nested, after a comment, a draw offer), long
    /// lines, a FEN start with Black to move, escapes, null moves, errors
    /// in the main line and in a variation, a word that is no move, marks
    /// as words, German piece letters (the replay starts again: in
    /// English, the variation is replayed past the first German move,
    /// which is then no move), a game the plain lane gives up after many
    /// moves.
    const GAMES: &str = r#"% an escape before the game
[Event "comments"]
[White "A"]
[Black "B"]
[Result "1-0"]

{start} 1. e4 {[%clk 0:03:00]} e5 $1 2. Nf3!? Nc6 ; rest of line
3. Bb5 a6 {a long comment that runs past the end of the line to see that it is kept whole, never broken} 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0

[Event "variations"]
[Result "*"]

1. d4 (1. e4 e5 (1... c5 2. Nf3 {Sicilian} d6) 2. Nf3) 1... d5 2. c4 e6 (2... c6 3. Nf3 (3. Nc3 dxc4) 3... Nf6) 3. Nc3 (=) Nf6 4. Bg5 *

[Event "black first"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]
[Result "*"]

1... c5 2. Nf3 d6 {then} 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *

[Event "nulls"]
[Result "*"]

1. e4 -- 2. d4 Z0 3. c4 e5 (3... -- 4. Nc3) 4. Nf3 *

[Event "error mid-game"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe8 Nf6 5. O-O Be7 (5... b5 6. Bb3) 0-1

[Event "error in a variation"]
[Result "*"]

1. e4 e5 (1... c5 2. Ke3 Nc6) 2. Nf3 Nc6 3. Bb5 *

[Event "junk word"]
[Result "*"]

1. e4 e5 2. Nf3 hello 3. Nc3 Nf6 *

[Event "marks as words"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 # 1-0

[Event "german"]
[Result "*"]

1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. O-O Le7 *

[Event "german with a variation"]
[Result "*"]

1. e4 e5 2. Sf3 (2. d4 exd4 3. Dxd4) 2... Sc6 3. Lb5 *

[Event "long plain game then a wrong result"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O
9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6
16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 1/2-1/2

{a comment between games}

[Event "promotion and glyph on promotion"]
[FEN "8/P7/8/8/8/8/k6K/8 w - - 0 60"]
[SetUp "1"]
[Result "*"]

60. a8=Q+! Kb2 61. Qb8+ Kc2 *
"#;

    fn config(style: Style, layout: Layout) -> Config {
        Config {
            style,
            options: Options {
                language: None,
                illegal_moves: pgnkit_replay::IllegalMoves::default(),
                suggestions: true,
                detail: Detail::Errors,
            },
            format: OutputFormat::Pgn,
            skip_invalid: false,
            diagnostics: Format::Json,
            opening: None,
            layout,
            split_variations: false,
            fen_comments: false,
            clocks: None,
            plycount: false,
            positions: None,
            per_game: false,
        }
    }

    /// The games as the writer writes them from the moves kept.
    fn kept(data: &[u8], config: &Config) -> Vec<u8> {
        let mut reader = Reader::new(data);
        let mut game = Game::default();
        let mut moves = Moves::new(config.style.is_ascii());
        let mut writer = Writer::with_layout(config.layout.clone());
        let mut out = Vec::new();
        while reader.read_game(&mut game) {
            if game.is_comment_only() {
                out.extend_from_slice(data.get(game.span.clone()).unwrap_or_default());
                out.extend_from_slice(b"\n\n");
                continue;
            }
            let text = GameText::new(data, game.span.clone());
            let mut recorder = MoveWriter::new(config.style, false, &mut moves);
            replay_game_text(data, &game, &text, &config.options, &mut recorder);
            writer.write_game(&mut out, data, &game, &text, &moves);
        }
        out
    }

    #[test]
    fn games_written_live_are_those_written_from_the_moves_kept() {
        let layouts = [
            Layout::default(),
            Layout {
                width: 0,
                ..Layout::default()
            },
            Layout {
                width: 20,
                ..Layout::default()
            },
            Layout {
                tags: TagSection::Roster,
                comments: false,
                nags: false,
                variations: false,
                move_numbers: false,
                result: false,
                width: 40,
            },
        ];
        let styles = [
            Style::SAN,
            Style::new(Notation::Lan, Language::En),
            Style::new(Notation::Uci, Language::En),
            Style::new(Notation::Figurine, Language::En),
            Style::new(Notation::San, Language::Ru),
        ];
        let data = GAMES.as_bytes();
        for layout in &layouts {
            for style in styles {
                let config = config(style, layout.clone());
                let live = convert_bytes(data, &config)
                    .map(|c| c.out)
                    .unwrap_or_default();
                let kept = kept(data, &config);
                assert_eq!(
                    String::from_utf8_lossy(&live),
                    String::from_utf8_lossy(&kept),
                    "{style:?} {layout:?}"
                );
            }
        }
    }

    /// Real games and hostile files of the repository's test data (TWIC,
    /// lichess broadcasts with clocks, Chess960 events, other tools' test
    /// files, scoresheets in several languages and notations): each file,
    /// in several notations and at two widths, is written live as it is
    /// from the moves kept.
    #[test]
    fn real_games_written_live_are_those_written_from_the_moves_kept() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = 0;
        for dir in ["convert", "check", "clocks", "illegal"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                panic!("testdata/{dir} is missing");
            };
            let mut paths: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect();
            paths.sort();
            for path in paths {
                let data = std::fs::read(&path).unwrap_or_default();
                files += 1;
                for style in [
                    Style::SAN,
                    Style::new(Notation::Lan, Language::En),
                    Style::new(Notation::Uci, Language::En),
                    Style::new(Notation::San, Language::De),
                ] {
                    for width in [Layout::default().width, 30] {
                        let layout = Layout {
                            width,
                            ..Layout::default()
                        };
                        let config = config(style, layout);
                        let live = convert_bytes(&data, &config)
                            .map(|c| c.out)
                            .unwrap_or_default();
                        assert_eq!(
                            String::from_utf8_lossy(&live),
                            String::from_utf8_lossy(&kept(&data, &config)),
                            "{} {style:?} width {width}",
                            path.display()
                        );
                    }
                }
            }
        }
        assert!(files > 50, "{files} files of test data");
    }

    #[test]
    fn games_with_errors_are_left_out_when_asked_and_the_others_written() {
        let mut config = config(Style::SAN, Layout::default());
        config.skip_invalid = true;
        let converted = convert_bytes(GAMES.as_bytes(), &config).map(|c| c.out);
        let text = String::from_utf8(converted.unwrap_or_default()).unwrap_or_default();
        assert!(!text.contains("error mid-game"), "{text}");
        assert!(!text.contains("junk word"), "{text}");
        assert!(text.contains("[Event \"comments\"]"), "{text}");
        assert!(text.contains("[Event \"german\"]"), "{text}");
    }
}
