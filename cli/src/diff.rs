//! `pgnkit diff`: compare two records of the same games (both players'
//! scoresheets).
//!
//! Games are paired by Round, White and Black when every game of both files
//! has those tags, otherwise by their order. For each pair, both records are
//! replayed side by side from the start: where they name the same move
//! (however written) they agree; where they differ, the difference is
//! reported with which version is legal at that point. A merged game takes
//! the legal version wherever exactly one is; a move that one record left out
//! (the other record's next move fits there) is taken from the other. Where
//! both or neither are legal, the difference is reported and the merged game
//! stops there: nothing is guessed. The remaining differences are still
//! listed, by position in the records.

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::Range;

use clap::Args;
use pgnkit_notation::Language;
use pgnkit_pgn::write::{Movetext, Writer};
use pgnkit_pgn::{Game, GameResult, Reader};
use pgnkit_replay::compare::{Comparison, Difference, Words, compare};
use pgnkit_replay::{GameText, Options, replay_game};
use serde_json::json;
use shakmaty::{Chess, Color};

use crate::args::{Format, InputLang, parse_input_lang};
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
    /// Piece-letter language of both records: `auto` (default) detects it
    /// per game; a code (en de fr ru …) reads only that language plus English SAN.
    #[arg(long, value_name = "LANG", default_value = "auto", value_parser = parse_input_lang)]
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
    /// Round, White and Black, as its tags give them (trimmed), when it
    /// has any of them.
    names: Option<Box<Names>>,
}

/// Round, White and Black of a game (the values of its tags, trimmed).
#[derive(Default)]
struct Names {
    round: Option<String>,
    white: Option<String>,
    black: Option<String>,
}

/// Round, White and Black of a game that has all three (none empty, `?`
/// nor `-`): what pairs it with the other file's record of the game.
type PairKey<'r> = (&'r str, &'r str, &'r str);

impl Record {
    fn names(&self) -> &Names {
        static NONE: Names = Names {
            round: None,
            white: None,
            black: None,
        };
        self.names.as_deref().unwrap_or(&NONE)
    }

    fn key(&self) -> Option<PairKey<'_>> {
        fn known(v: &Option<String>) -> Option<&str> {
            v.as_deref()
                .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
        }
        let n = self.names.as_deref()?;
        Some((known(&n.round)?, known(&n.white)?, known(&n.black)?))
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
        let tag = |n: &str| {
            game.tag(n)
                .map(|t| String::from_utf8_lossy(&t.value()).trim().to_owned())
        };
        let names = Names {
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
        };
        let names = (names.round.is_some() || names.white.is_some() || names.black.is_some())
            .then(|| Box::new(names));
        records.push(Record {
            number: u32::try_from(records.len() + 1).unwrap_or(u32::MAX),
            span: game.span.clone(),
            language: report.language,
            start: (report.start != Chess::default()).then(|| Box::new(report.start.clone())),
            names,
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

/// Pairs of records, and the records left without a counterpart (`true`:
/// from A).
type Pairing<'r> = (Vec<(&'r Record, &'r Record)>, Vec<(bool, &'r Record)>);

/// The pairs of records to compare: by Round, White and Black when every
/// game has them, else by order. Unpaired records are returned apart.
fn pair<'r>(a: &'r [Record], b: &'r [Record]) -> Pairing<'r> {
    let key = |r: &'r Record| r.key();
    let keyed = a.iter().chain(b.iter()).all(|r| key(r).is_some());
    let mut pairs = Vec::new();
    let mut unpaired = Vec::new();
    if keyed {
        // Queues: taking the first of many games with one key stays O(1).
        let mut index: HashMap<PairKey<'r>, VecDeque<&Record>> = HashMap::new();
        for r in b {
            if let Some(k) = key(r) {
                index.entry(k).or_default().push_back(r);
            }
        }
        for r in a {
            let found = key(r)
                .and_then(|k| index.get_mut(&k))
                .and_then(VecDeque::pop_front);
            match found {
                Some(other) => pairs.push((r, other)),
                None => unpaired.push((true, r)),
            }
        }
        let mut rest: Vec<&Record> = index.into_values().flatten().collect();
        rest.sort_by_key(|r| r.number);
        unpaired.extend(rest.into_iter().map(|r| (false, r)));
    } else {
        for (x, y) in a.iter().zip(b.iter()) {
            pairs.push((x, y));
        }
        unpaired.extend(a.iter().skip(b.len()).map(|r| (true, r)));
        unpaired.extend(b.iter().skip(a.len()).map(|r| (false, r)));
    }
    (pairs, unpaired)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Appends the merged game to `out` in PGN export format (by the one
/// writer): A's tags, the merged moves, and where the merge stopped a
/// comment saying why.
fn merged_pgn(a: &Record, bytes: &[u8], c: &Comparison, writer: &mut Writer, out: &mut Vec<u8>) {
    let game = a.game(bytes);
    let source = GameText::new(bytes, game.span.clone());
    writer.write_tags(out, &game, &source);
    let mut mt = Movetext::new(out);
    c.write_merged(&a.start(), &mut mt);
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
    let (pairs, unpaired) = pair(&fa.records, &fb.records);

    let mut out = BufWriter::new(stdout.lock());
    let mut merged_out = Vec::new();
    let mut writer = Writer::new();
    let (mut games_with, mut total) = (0usize, 0usize);
    let comparisons: Vec<Comparison> = pairs
        .iter()
        .map(|(ra, rb)| compare_records((fa.bytes, ra), (fb.bytes, rb)))
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
    for ((ra, rb), c) in pairs.iter().zip(&comparisons) {
        if !c.differences().is_empty() {
            games_with += 1;
            total += c.differences().len();
        }
        write_comparison(
            &mut out,
            format,
            (&fa, &places_a),
            (&fb, &places_b),
            ra,
            rb,
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
    ra: &Record,
    rb: &Record,
    c: &Comparison,
) -> io::Result<()> {
    let names = ra.names();
    // The merged moves, written only where they are shown.
    let merged_moves = || {
        let mut merged = Vec::new();
        let mut mt = Movetext::unwrapped(&mut merged);
        c.write_merged(&ra.start(), &mut mt);
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
                plies_a: c.words.0,
                plies_b: c.words.1,
                round: names.round.as_deref(),
                white: names.white.as_deref(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            writeln!(out)
        }
        Format::Github => {
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
