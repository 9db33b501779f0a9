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
use pgnkit_notation::{Language, Notation, Style, parse_annotation, parse_move, write_move};
use pgnkit_pgn::{Game, Reader, TokenKind};
use pgnkit_replay::{Encoding, Options, replay_game};
use serde_json::json;
use shakmaty::{Chess, Color, Move, Position};

use crate::args::Format;
use crate::location::Cursor;
use crate::{EXIT_OK, EXIT_PROBLEMS};

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
    /// Piece-letter language of both records (default: detected per game).
    #[arg(long, value_name = "LANG")]
    pub input_lang: Option<String>,
    /// Also write the merged games as PGN to FILE (replaced atomically).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// One record of one game: its main-line words.
struct Record<'a> {
    /// 1-based index of the game in its file.
    number: usize,
    game: Game<'a>,
    words: Vec<(String, Range<usize>)>,
    language: Language,
    start: Chess,
}

/// One file's games.
struct File<'a> {
    name: &'a str,
    bytes: &'a [u8],
    records: Vec<Record<'a>>,
}

/// A place where the records differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based ply.
    pub ply: u32,
    /// The word in A (`None`: A has no move here).
    pub a: Option<String>,
    /// The word in B.
    pub b: Option<String>,
    /// Byte offsets of the words.
    pub byte_a: Option<usize>,
    /// Byte offset in B.
    pub byte_b: Option<usize>,
    /// Whether A's word is a legal move here (`None`: not known, the merged
    /// game stopped before).
    pub a_legal: Option<bool>,
    /// Whether B's word is a legal move here.
    pub b_legal: Option<bool>,
    /// What the merged game took (SAN), if anything.
    pub merged: Option<String>,
    /// The side to move, when known.
    pub side: Option<Color>,
    /// The move number, when known.
    pub move_number: Option<u32>,
}

/// The comparison of one pair of records.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// Every difference, in order.
    pub differences: Vec<Difference>,
    /// The merged main line (SAN moves).
    pub merged: Vec<String>,
    /// The merged game reached the end of both records.
    pub complete: bool,
}

fn read_file<'a>(name: &'a str, bytes: &'a [u8], language: Option<Language>) -> File<'a> {
    let mut reader = Reader::new(bytes);
    let mut records = Vec::new();
    let options = Options {
        language,
        suggestions: false,
    };
    loop {
        let mut game = Game::default();
        if !reader.read_game(&mut game) {
            break;
        }
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(bytes, &game, &options);
        let words = main_words(&game, report.encoding);
        records.push(Record {
            number: records.len() + 1,
            words,
            language: report.language,
            start: report.start.clone(),
            game,
        });
    }
    File {
        name,
        bytes,
        records,
    }
}

fn main_words(game: &Game<'_>, encoding: Encoding) -> Vec<(String, Range<usize>)> {
    let mut depth = 0u32;
    let mut out = Vec::new();
    for t in &game.tokens {
        match t.kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                let text = encoding.decode(t.text).into_owned();
                if parse_annotation(&text).is_none() {
                    out.push((text, t.span.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

fn resolve(text: &str, pos: &Chess, lang: Language) -> Option<Move> {
    parse_move(text).ok()?.resolve(pos, lang).ok()
}

fn san(pos: &Chess, m: &Move) -> String {
    let mut s = String::new();
    write_move(pos, m, &Style::new(Notation::San, Language::En), &mut s);
    s
}

/// Compares two records of one game, ply by ply.
fn compare(a: &Record<'_>, b: &Record<'_>) -> Comparison {
    let mut c = Comparison::default();
    let mut pos = a.start.clone();
    let (mut i, mut j) = (0usize, 0usize);
    let mut ply = 0u32;
    let word = |r: &Record<'_>, k: usize| r.words.get(k).map(|(t, s)| (t.clone(), s.start));
    loop {
        let (wa, wb) = (word(a, i), word(b, j));
        if wa.is_none() && wb.is_none() {
            c.complete = true;
            return c;
        }
        ply = ply.saturating_add(1);
        let ma = wa.as_ref().and_then(|(t, _)| resolve(t, &pos, a.language));
        let mb = wb.as_ref().and_then(|(t, _)| resolve(t, &pos, b.language));
        if ma.is_some() && ma == mb {
            if let Some(m) = ma {
                c.merged.push(san(&pos, &m));
                pos.play_unchecked(m);
            }
            i += 1;
            j += 1;
            continue;
        }
        let mut d = Difference {
            ply,
            a: wa.as_ref().map(|w| w.0.clone()),
            b: wb.as_ref().map(|w| w.0.clone()),
            byte_a: wa.as_ref().map(|w| w.1),
            byte_b: wb.as_ref().map(|w| w.1),
            a_legal: Some(ma.is_some()),
            b_legal: Some(mb.is_some()),
            merged: None,
            side: Some(pos.turn()),
            move_number: Some(pos.fullmoves().get()),
        };
        // A move left out by one record: after the other record's move, its
        // next word and this record's word name the same move.
        let left_out = |m: Move, x: &Record<'_>, xi: usize, y: &Record<'_>, yj: usize| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let mx = x
                .words
                .get(xi)
                .and_then(|(t, _)| resolve(t, &after, x.language));
            let my = y
                .words
                .get(yj)
                .and_then(|(t, _)| resolve(t, &after, y.language));
            mx.is_some() && mx == my
        };
        let choice = match (ma, mb) {
            (Some(m), None) if wb.is_some() && left_out(m, a, i + 1, b, j) => {
                d.b = None;
                d.byte_b = None;
                d.b_legal = None;
                Some((m, 1, 0))
            }
            (None, Some(m)) if wa.is_some() && left_out(m, b, j + 1, a, i) => {
                d.a = None;
                d.byte_a = None;
                d.a_legal = None;
                Some((m, 0, 1))
            }
            (Some(m), None) | (None, Some(m)) => Some((m, 1, 1)),
            _ => None,
        };
        match choice {
            Some((m, di, dj)) => {
                let s = san(&pos, &m);
                d.merged = Some(s.clone());
                c.merged.push(s);
                pos.play_unchecked(m);
                c.differences.push(d);
                i += di;
                j += dj;
            }
            None => {
                // Both or neither legal: reported, not guessed. The rest is
                // compared word by word only.
                c.differences.push(d);
                i += 1;
                j += 1;
                ply_by_word(a, b, i, j, ply, &mut c);
                return c;
            }
        }
    }
}

/// After the merged game stopped: the words that differ, by position.
fn ply_by_word(a: &Record<'_>, b: &Record<'_>, i: usize, j: usize, ply: u32, c: &mut Comparison) {
    let n = (a.words.len() - i.min(a.words.len())).max(b.words.len() - j.min(b.words.len()));
    for k in 0..n {
        let wa = a.words.get(i + k);
        let wb = b.words.get(j + k);
        let same = match (wa, wb) {
            (Some((x, _)), Some((y, _))) => {
                x.trim_end_matches(['+', '#', '!', '?']) == y.trim_end_matches(['+', '#', '!', '?'])
            }
            _ => false,
        };
        if !same {
            c.differences.push(Difference {
                ply: ply
                    .saturating_add(1)
                    .saturating_add(u32::try_from(k).unwrap_or(u32::MAX)),
                a: wa.map(|w| w.0.clone()),
                b: wb.map(|w| w.0.clone()),
                byte_a: wa.map(|w| w.1.start),
                byte_b: wb.map(|w| w.1.start),
                a_legal: None,
                b_legal: None,
                merged: None,
                side: None,
                move_number: None,
            });
        }
    }
}

/// Pairs of records, and the records left without a counterpart (`true`:
/// from A).
type Pairing<'r, 'a> = (
    Vec<(&'r Record<'a>, &'r Record<'a>)>,
    Vec<(bool, &'r Record<'a>)>,
);

/// The pairs of records to compare: by Round, White and Black when every
/// game has them, else by order. Unpaired records are returned apart.
fn pair<'r, 'a>(a: &'r [Record<'a>], b: &'r [Record<'a>]) -> Pairing<'r, 'a> {
    let key = |r: &Record<'_>| -> Option<(String, String, String)> {
        let tag = |n: &str| {
            r.game
                .tag(n)
                .map(|t| String::from_utf8_lossy(&t.value()).trim().to_owned())
                .filter(|v| !v.is_empty() && v != "?" && v != "-")
        };
        Some((tag("Round")?, tag("White")?, tag("Black")?))
    };
    let keyed = a.iter().chain(b.iter()).all(|r| key(r).is_some());
    let mut pairs = Vec::new();
    let mut unpaired = Vec::new();
    if keyed {
        // Queues: taking the first of many games with one key stays O(1).
        let mut index: HashMap<(String, String, String), VecDeque<&Record<'a>>> = HashMap::new();
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
        let mut rest: Vec<&Record<'a>> = index.into_values().flatten().collect();
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

/// The merged game as PGN: A's tags, the merged moves, and where the merge
/// stopped a comment saying why.
fn merged_pgn(a: &Record<'_>, bytes: &[u8], c: &Comparison) -> String {
    let mut s = String::new();
    for t in &a.game.tags {
        if let Some(raw) = bytes.get(t.span.clone()) {
            s.push_str(&String::from_utf8_lossy(raw));
            s.push('\n');
        }
    }
    s.push('\n');
    s.push_str(&movetext(&a.start, &c.merged));
    if !c.complete {
        if let Some(d) = c.differences.iter().find(|d| d.merged.is_none()) {
            let why = match (d.a_legal, d.b_legal) {
                (Some(true), Some(true)) => "both are legal",
                _ => "neither is legal",
            };
            s.push_str(&format!(
                " {{pgnkit: the records differ here: A has \"{}\", B has \"{}\"; {why}}}",
                d.a.as_deref().unwrap_or("nothing"),
                d.b.as_deref().unwrap_or("nothing")
            ));
        }
        s.push_str(" *\n\n");
    } else {
        let result = a
            .game
            .tag("Result")
            .map(|t| String::from_utf8_lossy(&t.value()).into_owned())
            .unwrap_or_else(|| "*".to_owned());
        s.push_str(&format!(" {result}\n\n"));
    }
    s
}

fn movetext(start: &Chess, sans: &[String]) -> String {
    let mut s = String::new();
    let mut number = start.fullmoves().get();
    let mut white = start.turn() == Color::White;
    for (k, m) in sans.iter().enumerate() {
        if white {
            s.push_str(&format!("{number}. "));
        } else if k == 0 {
            s.push_str(&format!("{number}... "));
        }
        s.push_str(m);
        s.push(' ');
        if !white {
            // A FEN may start at move 4294967295.
            number = number.saturating_add(1);
        }
        white = !white;
    }
    s.trim_end().to_owned()
}

/// Runs `pgnkit diff`.
pub fn run(args: &DiffArgs) -> anyhow::Result<u8> {
    let stdout = io::stdout();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Human
    } else {
        Format::Json
    });
    let language = match args.input_lang.as_deref() {
        None | Some("auto") => None,
        Some(code) => Some(
            Language::from_code(code)
                .ok_or_else(|| anyhow::anyhow!("unknown language `{code}`"))?,
        ),
    };
    let bytes_a =
        std::fs::read(&args.a).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.a))?;
    let bytes_b =
        std::fs::read(&args.b).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.b))?;
    for (name, bytes) in [(&args.a, &bytes_a), (&args.b, &bytes_b)] {
        if let Some(at) = crate::input::binary_at(bytes) {
            anyhow::bail!("{}", crate::input::not_pgn(name, bytes, at));
        }
    }
    let fa = read_file(&args.a, &bytes_a, language);
    let fb = read_file(&args.b, &bytes_b, language);
    let (pairs, unpaired) = pair(&fa.records, &fb.records);

    let mut out = BufWriter::new(stdout.lock());
    let mut merged_out = String::new();
    let (mut games_with, mut total) = (0usize, 0usize);
    let comparisons: Vec<Comparison> = pairs.iter().map(|(ra, rb)| compare(ra, rb)).collect();
    // Lines and columns of every difference, each file read once forward
    // (pairs by tags may visit B's games in any order).
    let (places_a, places_b) = if format == Format::Json {
        let offsets = |side: fn(&Difference) -> Option<usize>| -> Vec<usize> {
            comparisons
                .iter()
                .flat_map(|c| c.differences.iter().filter_map(side))
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
        if !c.differences.is_empty() {
            games_with += 1;
            total += c.differences.len();
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
        merged_out.push_str(&merged_pgn(ra, fa.bytes, c));
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
            Format::Human | Format::Github => {
                writeln!(
                    out,
                    "{file}: game {} has no counterpart in the other file",
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
        write_atomic(path, merged_out.as_bytes())?;
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

/// Lines (0-based, as [`Cursor`] counts) and columns of byte offsets of
/// one file, all found in one forward pass.
#[derive(Default)]
struct Places {
    /// Offset, line and column, sorted by offset.
    found: Vec<(usize, usize, usize)>,
}

impl Places {
    fn new(bytes: &[u8], mut offsets: Vec<usize>) -> Places {
        offsets.sort_unstable();
        offsets.dedup();
        let places = Cursor::new(bytes, 0).locate_many(&offsets, true);
        Places {
            found: offsets
                .into_iter()
                .zip(places)
                .map(|(o, p)| (o, p.line, p.column))
                .collect(),
        }
    }

    /// The line and column of `offset`, if it is known.
    fn line_col(&self, offset: Option<usize>) -> (Option<usize>, Option<usize>) {
        let Some(o) = offset else {
            return (None, None);
        };
        match self.found.binary_search_by_key(&o, |p| p.0) {
            Ok(k) => self
                .found
                .get(k)
                .map_or((None, None), |p| (Some(p.1), Some(p.2))),
            Err(_) => (None, None),
        }
    }
}

fn write_comparison(
    out: &mut dyn Write,
    format: Format,
    (fa, places_a): (&File<'_>, &Places),
    (fb, places_b): (&File<'_>, &Places),
    ra: &Record<'_>,
    rb: &Record<'_>,
    c: &Comparison,
) -> io::Result<()> {
    let tag = |r: &Record<'_>, n: &str| {
        r.game
            .tag(n)
            .map(|t| String::from_utf8_lossy(&t.value()).trim().to_owned())
    };
    let merged = movetext(&ra.start, &c.merged);
    match format {
        Format::Json => {
            for d in &c.differences {
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
            let record = json!({
                "file_a": fa.name, "game_a": ra.number, "file_b": fb.name, "game_b": rb.number,
                "white": tag(ra, "White"), "black": tag(ra, "Black"), "round": tag(ra, "Round"),
                "plies_a": ra.words.len(), "plies_b": rb.words.len(),
                "differences": c.differences.len(), "merged_complete": c.complete, "merged": merged,
            });
            typed(out, "game", &record)
        }
        Format::Human | Format::Github => {
            let name = match (tag(ra, "White"), tag(ra, "Black")) {
                (Some(w), Some(b)) => format!(" ({w} - {b})"),
                _ => String::new(),
            };
            if c.differences.is_empty() {
                return writeln!(
                    out,
                    "game {}{name}: the records agree ({} plies)",
                    ra.number,
                    c.merged.len()
                );
            }
            writeln!(
                out,
                "game {}{name}: {} {}",
                ra.number,
                c.differences.len(),
                if c.differences.len() == 1 {
                    "difference"
                } else {
                    "differences"
                }
            )?;
            for d in &c.differences {
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
                writeln!(
                    out,
                    "  ply {} {at}: {}: {}, {}: {} -> {verdict}",
                    d.ply,
                    fa.name,
                    show(&d.a, d.a_legal),
                    fb.name,
                    show(&d.b, d.b_legal)
                )?;
            }
            writeln!(
                out,
                "  merged{}: {merged}",
                if c.complete {
                    ""
                } else {
                    " (stops at the first undecided difference)"
                }
            )
        }
    }
}
