//! `pgnkit diff`: compare two records of the same games (both players'
//! scoresheets).
//!
//! Games are paired by their tags, else by order
//! ([`pgnkit_replay::pairing`]). For each pair, both records are
//! replayed side by side from the start: where they name the same move
//! (however written) they agree; where they differ, the difference is
//! reported with which version is legal at that point. A merged game takes
//! the legal version wherever exactly one is; a move that one record left out
//! (the other record's next move fits there) is taken from the other. Where
//! both or neither are legal, the difference is reported and the merged game
//! stops there: nothing is guessed. The remaining differences are still
//! listed, by position in the records.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::Range;

use clap::Args;
use pgnkit_notation::Language;
use pgnkit_pgn::write::{Movetext, Writer};
use pgnkit_pgn::{Game, GameResult, Reader};
use pgnkit_replay::compare::{Comparison, Difference, Words, compare};
use pgnkit_replay::pairing::{Identity, PairedBy, pair};
use pgnkit_replay::{GameText, Options, replay_game};
use serde_json::json;
use shakmaty::{Chess, Color};

use crate::args::{Format, InputLang, input_lang_help, parse_input_lang};
use crate::location::Places;
use crate::{EXIT_OK, EXIT_PROBLEMS};
use pgnkit_report::render::{escape_data, escape_property};

/// `pgnkit diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// White's record (or either player's).
    #[arg(value_name = "A")]
    pub a: String,
    /// Black's record (or the other player's).
    #[arg(value_name = "B")]
    pub b: String,
    /// Output format (default: human on a terminal, json otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Piece-letter language of both records ([`input_lang_help`]).
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang,
          help = input_lang_help())]
    pub input_lang: InputLang,
    /// Also write the merged games as PGN to FILE (replaced atomically).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// One record of one game. Only what pairing needs is kept for every game
/// (a few dozen bytes); its words and tags are read again from its bytes
/// when its pair is compared and written, so memory does not grow with the
/// length of the games.
struct Record {
    /// 1-based index of the game in its file (the 2^32nd and later games
    /// of one file are all numbered `u32::MAX`).
    number: u32,
    /// The game's bytes in its file.
    span: Range<usize>,
    language: Language,
    /// The starting position, when it is not the standard one.
    start: Option<Box<Chess>>,
    /// Round, White, Black and Date, as its tags give them, when it has
    /// any of them.
    identity: Option<Box<Identity>>,
}

impl Record {
    fn identity(&self) -> &Identity {
        static NONE: Identity = Identity {
            round: None,
            white: None,
            black: None,
            date: None,
        };
        self.identity.as_deref().unwrap_or(&NONE)
    }

    fn start(&self) -> Chess {
        self.start.as_deref().cloned().unwrap_or_default()
    }

    /// The game, lexed again from its bytes.
    fn game<'a>(&self, bytes: &'a [u8]) -> Game<'a> {
        let mut game = Game::default();
        Reader::with_range(bytes, self.span.clone()).read_game(&mut game);
        game
    }

    /// The main-line words of the game.
    fn words<'a>(&self, bytes: &'a [u8]) -> Words<'a> {
        // The encoding the replay found, found again from the same bytes.
        let encoding = GameText::new(bytes, self.span.clone()).encoding();
        Words::new(&self.game(bytes), bytes, encoding, self.language)
    }
}

/// One file's games.
struct File<'a> {
    name: &'a str,
    bytes: &'a [u8],
    records: Vec<Record>,
}

fn read_file<'a>(name: &'a str, bytes: &'a [u8], language: Option<Language>) -> File<'a> {
    let mut reader = Reader::new(bytes);
    let mut records = Vec::new();
    let options = Options {
        language,
        suggestions: false,
        ..Options::default()
    };
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(bytes, &game, &options);
        let identity = Identity::of_game(&game, &GameText::new(bytes, game.span.clone()));
        let identity = (!identity.is_empty()).then(|| Box::new(identity));
        records.push(Record {
            number: u32::try_from(records.len() + 1).unwrap_or(u32::MAX),
            span: game.span.clone(),
            language: report.language,
            start: (report.start != Chess::default()).then(|| Box::new(report.start.clone())),
            identity,
        });
    }
    File {
        name,
        bytes,
        records,
    }
}

/// Compares two records of one game (from the files `a` and `b`), ply by ply.
fn compare_records(a: (&[u8], &Record), b: (&[u8], &Record)) -> Comparison {
    let wa = a.1.words(a.0);
    let wb = b.1.words(b.0);
    let mut c = compare(a.1.start(), &wa, &wb);
    c.words = (wa.len(), wb.len());
    c
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Appends the merged game to `out` in PGN export format (by the one
/// writer): A's tags, the merged moves written as A writes its moves (its
/// language, long or short, its capture and castling marks), and where the
/// merge stopped a comment saying why.
fn merged_pgn(a: &Record, bytes: &[u8], c: &Comparison, writer: &mut Writer, out: &mut Vec<u8>) {
    let game = a.game(bytes);
    let source = GameText::new(bytes, game.span.clone());
    writer.write_tags(out, &game, &source);
    let mut mt = Movetext::new(out);
    c.write_merged(&a.start(), &a.words(bytes).house_style(), &mut mt);
    let result = if c.complete {
        game.tag("Result")
            .and_then(|t| GameResult::from_bytes(source.decode(&t.value()).trim().as_bytes()))
            .map_or("*", |r| r.as_str())
    } else {
        if let Some(d) = c.differences().iter().find(|d| d.merged.is_none()) {
            let why = match (d.a_legal, d.b_legal) {
                (Some(true), Some(true)) => "both are legal",
                _ => "neither is legal",
            };
            mt.comment_any(
                format!(
                    "pgnkit: the records differ here: A has \"{}\", B has \"{}\"; {why}",
                    d.a.as_deref().unwrap_or("nothing"),
                    d.b.as_deref().unwrap_or("nothing")
                )
                .as_bytes(),
            );
        }
        "*"
    };
    mt.item(result.as_bytes());
    mt.finish();
    out.push(b'\n');
}

/// Runs `pgnkit diff`.
pub fn run(args: &DiffArgs) -> anyhow::Result<u8> {
    let stdout = io::stdout();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Human
    } else {
        Format::Json
    });
    let language = args.input_lang.forced();
    let bytes_a = read_input(&args.a)?;
    let bytes_b = read_input(&args.b)?;
    for (name, bytes) in [(&args.a, &bytes_a), (&args.b, &bytes_b)] {
        if let Some(at) = crate::input::binary_at(bytes) {
            anyhow::bail!("{}", crate::input::not_pgn(name, bytes, at));
        }
    }
    let fa = read_file(&args.a, &bytes_a, language);
    let fb = read_file(&args.b, &bytes_b, language);
    let identities = |f: &File<'_>| -> Vec<Identity> {
        f.records.iter().map(|r| r.identity().clone()).collect()
    };
    let pairing = pair(&identities(&fa), &identities(&fb));
    let pairs: Vec<(&Record, &Record, PairedBy)> = pairing
        .pairs
        .iter()
        .filter_map(|p| Some((fa.records.get(p.a)?, fb.records.get(p.b)?, p.by)))
        .collect();
    let unpaired: Vec<(bool, &Record)> = (pairing.unpaired_a.iter())
        .filter_map(|&i| Some((true, fa.records.get(i)?)))
        .chain((pairing.unpaired_b.iter()).filter_map(|&j| Some((false, fb.records.get(j)?))))
        .collect();

    let mut out = BufWriter::new(stdout.lock());
    let mut merged_out = Vec::new();
    let mut writer = Writer::new();
    let (mut games_with, mut total) = (0usize, 0usize);
    let comparisons: Vec<Comparison> = pairs
        .iter()
        .map(|(ra, rb, _)| compare_records((fa.bytes, ra), (fb.bytes, rb)))
        .collect();
    // Lines and columns of every difference, each file read once forward
    // (pairs by tags may visit B's games in any order).
    let (places_a, places_b) = if format != Format::Human {
        let offsets = |side: fn(&Difference) -> Option<usize>| -> Vec<usize> {
            comparisons
                .iter()
                .flat_map(|c| c.differences().iter().filter_map(side))
                .collect()
        };
        (
            Places::new(fa.bytes, offsets(|d| d.byte_a)),
            Places::new(fb.bytes, offsets(|d| d.byte_b)),
        )
    } else {
        (Places::default(), Places::default())
    };
    for (&(ra, rb, by), c) in pairs.iter().zip(&comparisons) {
        if !c.differences().is_empty() {
            games_with += 1;
            total += c.differences().len();
        }
        write_comparison(
            &mut out,
            format,
            (&fa, &places_a),
            (&fb, &places_b),
            (ra, rb, by),
            c,
        )?;
        if args.output.is_some() {
            merged_pgn(ra, fa.bytes, c, &mut writer, &mut merged_out);
        }
    }
    for (in_a, r) in &unpaired {
        let file = if *in_a { fa.name } else { fb.name };
        match format {
            Format::Json => {
                serde_json::to_writer(
                    &mut out,
                    &json!({"type": "unpaired", "file": file, "game": r.number}),
                )?;
                writeln!(out)?;
            }
            Format::Human => {
                writeln!(
                    out,
                    "{file}: game {} has no counterpart in the other file",
                    r.number
                )?;
            }
            Format::Github => {
                writeln!(
                    out,
                    "::warning file={}::game {} has no counterpart in the other file",
                    escape_property(file),
                    r.number
                )?;
            }
        }
    }
    if format == Format::Json {
        typed(
            &mut out,
            "summary",
            &json!({"games": pairs.len(), "games_with_differences": games_with,
                    "differences": total, "unpaired": unpaired.len()}),
        )?;
    }
    out.flush()?;
    if let Some(path) = &args.output {
        write_atomic(path, &merged_out)?;
    }
    if !args.quiet && format != Format::Json {
        eprintln!(
            "compared {} {}: {} with differences, {} {}{}",
            pairs.len(),
            if pairs.len() == 1 { "game" } else { "games" },
            games_with,
            total,
            if total == 1 {
                "difference"
            } else {
                "differences"
            },
            if unpaired.is_empty() {
                String::new()
            } else {
                format!(", {} unpaired", unpaired.len())
            }
        );
    }
    Ok(if total > 0 || !unpaired.is_empty() {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// The whole of one input, read as every command reads it: a file, `-` for
/// standard input, or a compressed file (zstd, gzip, bzip2).
fn read_input(name: &str) -> anyhow::Result<Vec<u8>> {
    let input = crate::input::Input::open(name)?;
    let mut bytes = Vec::new();
    for chunk in input.chunks(1 << 22) {
        bytes.extend_from_slice(chunk?.bytes());
    }
    Ok(bytes)
}

fn write_atomic(path: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = crate::output::OutputFile::create(std::path::Path::new(path))?;
    out.write_all(bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {path}: {e}"))?;
    out.commit()
}

/// Writes `record` as one JSON line with `"type"` first.
fn typed(out: &mut dyn Write, kind: &str, record: &serde_json::Value) -> io::Result<()> {
    let body = serde_json::to_string(record)?;
    let rest = body.strip_prefix('{').unwrap_or(&body);
    if rest == "}" {
        writeln!(out, "{{\"type\":\"{kind}\"}}")
    } else {
        writeln!(out, "{{\"type\":\"{kind}\",{rest}")
    }
}

/// The `game` record of `diff --format json`, written as it is (the
/// merged moves of a long game are not copied): the fields in the order
/// every other record of `diff` has them, `type` first and then by name.
#[derive(serde::Serialize)]
struct GameRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    black: Option<&'a str>,
    differences: usize,
    file_a: &'a str,
    file_b: &'a str,
    game_a: u32,
    game_b: u32,
    merged: &'a str,
    merged_complete: bool,
    /// `tags` or `order`.
    paired_by: &'static str,
    /// Paired by order, both name their players, and the names differ.
    players_differ: bool,
    plies_a: usize,
    plies_b: usize,
    round: Option<&'a str>,
    white: Option<&'a str>,
}

fn write_comparison(
    out: &mut dyn Write,
    format: Format,
    (fa, places_a): (&File<'_>, &Places),
    (fb, places_b): (&File<'_>, &Places),
    (ra, rb, by): (&Record, &Record, PairedBy),
    c: &Comparison,
) -> io::Result<()> {
    let names = ra.identity();
    let players_differ = by
        == PairedBy::Order {
            players_differ: true,
        };
    let players = |r: &Record| {
        let id = r.identity();
        format!(
            "{} - {}",
            id.white.as_deref().unwrap_or("?"),
            id.black.as_deref().unwrap_or("?")
        )
    };
    let odd_pair = format!(
        "game {} of {} and game {} of {} are paired by their order, but their players differ: {} and {}",
        ra.number,
        fa.name,
        rb.number,
        fb.name,
        players(ra),
        players(rb)
    );
    // The merged moves, written only where they are shown.
    let merged_moves = || {
        let mut merged = Vec::new();
        let mut mt = Movetext::unwrapped(&mut merged);
        c.write_merged(&ra.start(), &ra.words(fa.bytes).house_style(), &mut mt);
        mt.finish();
        merged
    };
    match format {
        Format::Json => {
            for d in c.differences() {
                let (line_a, column_a) = places_a.line_col(d.byte_a);
                let (line_b, column_b) = places_b.line_col(d.byte_b);
                let record = json!({
                    "file_a": fa.name, "game_a": ra.number, "line_a": line_a, "column_a": column_a, "byte_a": d.byte_a,
                    "file_b": fb.name, "game_b": rb.number, "line_b": line_b, "column_b": column_b, "byte_b": d.byte_b,
                    "ply": d.ply, "move_number": d.move_number, "side": d.side.map(side_name),
                    "a": d.a, "b": d.b, "a_legal": d.a_legal, "b_legal": d.b_legal, "merged": d.merged,
                });
                typed(out, "difference", &record)?;
            }
            let merged = merged_moves();
            let merged = String::from_utf8_lossy(&merged);
            let record = GameRecord {
                kind: "game",
                black: names.black.as_deref(),
                differences: c.differences().len(),
                file_a: fa.name,
                file_b: fb.name,
                game_a: ra.number,
                game_b: rb.number,
                merged: merged.trim_end(),
                merged_complete: c.complete,
                paired_by: match by {
                    PairedBy::Tags => "tags",
                    PairedBy::Order { .. } => "order",
                },
                players_differ,
                plies_a: c.words.0,
                plies_b: c.words.1,
                round: names.round.as_deref(),
                white: names.white.as_deref(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            writeln!(out)
        }
        Format::Github => {
            if players_differ {
                let file = escape_property(fb.name);
                writeln!(out, "::warning file={file}::{}", escape_data(&odd_pair))?;
            }
            for d in c.differences() {
                // At the place in the second record, else in the first.
                let (file, (line, column)) = if d.byte_b.is_some() {
                    (fb.name, places_b.line_col(d.byte_b))
                } else {
                    (fa.name, places_a.line_col(d.byte_a))
                };
                let mut place = format!("file={}", escape_property(file));
                if let (Some(line), Some(column)) = (line, column) {
                    place.push_str(&format!(",line={line},col={column}"));
                }
                let text = format!("game {}: {}", ra.number, describe(d, fa.name, fb.name));
                writeln!(out, "::warning {place}::{}", escape_data(&text))?;
            }
            Ok(())
        }
        Format::Human => {
            if players_differ {
                writeln!(out, "warning: {odd_pair}")?;
            }
            let name = match (&names.white, &names.black) {
                (Some(w), Some(b)) => format!(" ({w} - {b})"),
                _ => String::new(),
            };
            if c.differences().is_empty() {
                return writeln!(
                    out,
                    "game {}{name}: the records agree ({} plies)",
                    ra.number,
                    c.merged().len()
                );
            }
            writeln!(
                out,
                "game {}{name}: {} {}",
                ra.number,
                c.differences().len(),
                if c.differences().len() == 1 {
                    "difference"
                } else {
                    "differences"
                }
            )?;
            for d in c.differences() {
                writeln!(out, "  {}", describe(d, fa.name, fb.name))?;
            }
            let merged = merged_moves();
            writeln!(
                out,
                "  merged{}: {}",
                if c.complete {
                    ""
                } else {
                    " (stops at the first undecided difference)"
                },
                String::from_utf8_lossy(&merged).trim_end()
            )
        }
    }
}

/// One difference in a sentence: `ply 42 21...: a.pgn: d4 (legal), b.pgn:
/// d3 (illegal) -> merged: d4`.
fn describe(d: &Difference, name_a: &str, name_b: &str) -> String {
    let at = match (d.move_number, d.side) {
        (Some(n), Some(Color::White)) => format!("{n}."),
        (Some(n), Some(Color::Black)) => format!("{n}..."),
        _ => String::new(),
    };
    let show = |w: &Option<String>, legal: Option<bool>| match (w, legal) {
        (None, _) => "(no move)".to_owned(),
        (Some(w), Some(true)) => format!("{w} (legal)"),
        (Some(w), Some(false)) => format!("{w} (illegal)"),
        (Some(w), None) => w.clone(),
    };
    let verdict = match (&d.merged, d.a_legal, d.b_legal) {
        (Some(m), _, _) => format!("merged: {m}"),
        (None, Some(true), Some(true)) => "both legal: not merged".to_owned(),
        (None, Some(false), Some(false)) => "neither legal: not merged".to_owned(),
        _ => "after the merge stopped".to_owned(),
    };
    format!(
        "ply {} {at}: {name_a}: {}, {name_b}: {} -> {verdict}",
        d.ply,
        show(&d.a, d.a_legal),
        show(&d.b, d.b_legal)
    )
}
