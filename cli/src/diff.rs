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
use pgnkit_notation::{Language, Style};
use pgnkit_pgn::write::{Movetext, Writer};
use pgnkit_pgn::{Game, GameResult, Reader};
use pgnkit_replay::compare::{Comparison, Difference, Words, compare};
use pgnkit_replay::pairing::{Identity, PairedBy, pair};
use pgnkit_replay::{Detail, GameText, Options, replay_game};
use pgnkit_report::compare::{Counts, Pair, Side, write_pair, write_unpaired};
use shakmaty::Chess;

use crate::args::{Format, InputLang, input_lang_help, parse_input_lang};
use crate::location::Places;
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
/// (32 bytes, and the tags below for a game that has them); its words and
/// tags are read again from its bytes when its pair is compared and
/// written, so memory does not grow with the length of the games.
struct Record {
    /// The game's bytes in its file.
    span: Range<usize>,
    language: Language,
    /// What few games have: a start other than the standard one, and tags
    /// that name the game.
    rare: Option<Box<Rare>>,
}

/// The starting position and the identity of a record, where it has them.
#[derive(Default)]
struct Rare {
    /// The starting position, when it is not the standard one.
    start: Option<Chess>,
    /// Round, White, Black and Date, as its tags give them.
    identity: Identity,
}

/// A game's 1-based number in its file, from its index among the file's
/// records (the 2^32nd and later games of one file are all `u32::MAX`).
fn number(index: usize) -> u32 {
    u32::try_from(index.saturating_add(1)).unwrap_or(u32::MAX)
}

impl AsRef<Identity> for Record {
    fn as_ref(&self) -> &Identity {
        self.identity()
    }
}

impl Record {
    fn identity(&self) -> &Identity {
        static NONE: Identity = Identity {
            round: None,
            white: None,
            black: None,
            date: None,
        };
        self.rare.as_deref().map_or(&NONE, |r| &r.identity)
    }

    /// The record as the printer of a pair sees it (`file`: its file's
    /// name; `index`: the record's index in it).
    fn side<'a>(&'a self, file: &'a str, index: usize, places: &'a Places) -> Side<'a> {
        Side {
            file,
            game: number(index),
            identity: self.identity(),
            places,
        }
    }

    fn start(&self) -> Chess {
        (self.rare.as_deref())
            .and_then(|r| r.start.clone())
            .unwrap_or_default()
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
    // Only the language and the start are kept: plain games take the
    // replay's faster lane.
    let options = Options {
        language,
        suggestions: false,
        detail: Detail::Errors,
    };
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(bytes, &game, &options);
        let identity = Identity::of_game(&game, &GameText::new(bytes, game.span.clone()));
        let start = (report.start != Chess::default()).then(|| report.start.clone());
        let rare =
            (start.is_some() || !identity.is_empty()).then(|| Box::new(Rare { start, identity }));
        records.push(Record {
            span: game.span.clone(),
            language: report.language,
            rare,
        });
    }
    records.shrink_to_fit();
    File {
        name,
        bytes,
        records,
    }
}

/// Compares two records of one game (from the files `a` and `b`), ply by
/// ply; and how A writes its moves, for the merged game.
fn compare_records(a: (&[u8], &Record), b: (&[u8], &Record)) -> (Comparison, Style) {
    let wa = a.1.words(a.0);
    let wb = b.1.words(b.0);
    let mut c = compare(a.1.start(), &wa, &wb);
    c.words = (wa.len(), wb.len());
    (c, wa.house_style())
}

/// Appends the merged game to `out` in PGN export format (by the one
/// writer): A's tags, the merged moves written as A writes its moves (its
/// language, long or short, its capture and castling marks), and where the
/// merge stopped a comment saying why.
fn merged_pgn(
    a: &Record,
    bytes: &[u8],
    (c, style): &(Comparison, Style),
    writer: &mut Writer,
    out: &mut Vec<u8>,
) {
    let game = a.game(bytes);
    let source = GameText::new(bytes, game.span.clone());
    writer.write_tags(out, &game, &source);
    let mut mt = Movetext::new(out);
    c.write_merged(&a.start(), style, &mut mt);
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
    let fa = read_file(&args.a, &bytes_a, language);
    let fb = read_file(&args.b, &bytes_b, language);
    let pairing = pair(&fa.records, &fb.records);
    // The pairs, as indices into the two files' records.
    let pairs: Vec<(usize, usize, PairedBy)> = (pairing.pairs.iter())
        .filter(|p| p.a < fa.records.len() && p.b < fb.records.len())
        .map(|p| (p.a, p.b, p.by))
        .collect();
    drop(pairing.pairs);
    let mut out = BufWriter::new(stdout.lock());
    let mut merged_out = Vec::new();
    let mut writer = Writer::new();
    let mut counts = Counts::default();
    let comparisons: Vec<(Comparison, Style)> = pairs
        .iter()
        .map(|&(i, j, _)| compare_records((fa.bytes, &fa.records[i]), (fb.bytes, &fb.records[j])))
        .collect();
    // Lines and columns of every difference, each file read once forward
    // (pairs by tags may visit B's games in any order).
    let (places_a, places_b) = if format != Format::Human {
        let offsets = |side: fn(&Difference) -> Option<usize>| -> Vec<usize> {
            comparisons
                .iter()
                .flat_map(|(c, _)| c.differences().iter().filter_map(side))
                .collect()
        };
        (
            Places::new(fa.bytes, offsets(|d| d.byte_a)),
            Places::new(fb.bytes, offsets(|d| d.byte_b)),
        )
    } else {
        (Places::default(), Places::default())
    };
    for (&(i, j, by), compared) in pairs.iter().zip(&comparisons) {
        let (ra, rb) = (&fa.records[i], &fb.records[j]);
        let (c, style) = compared;
        counts.add(c);
        let pair = Pair {
            a: ra.side(fa.name, i, &places_a),
            b: rb.side(fb.name, j, &places_b),
            by,
            comparison: c,
            start: &ra.start(),
            style: *style,
        };
        write_pair(&mut out, format, &pair)?;
        if args.output.is_some() {
            merged_pgn(ra, fa.bytes, compared, &mut writer, &mut merged_out);
        }
    }
    counts.unpaired = pairing.unpaired_a.len() + pairing.unpaired_b.len();
    for &i in &pairing.unpaired_a {
        write_unpaired(&mut out, format, fa.name, number(i))?;
    }
    for &j in &pairing.unpaired_b {
        write_unpaired(&mut out, format, fb.name, number(j))?;
    }
    if format == Format::Json {
        counts.write_summary(&mut out)?;
    }
    out.flush()?;
    if let Some(path) = &args.output {
        write_atomic(path, &merged_out)?;
    }
    if !args.quiet && format != Format::Json {
        eprintln!("{}", counts.line());
    }
    Ok(if counts.differences > 0 || counts.unpaired > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// The whole of one input, read as every command reads it: a file, `-` for
/// standard input, or a compressed file (zstd, gzip, bzip2); binary data
/// is refused there ([`crate::input::binary_at`]).
fn read_input(name: &str) -> anyhow::Result<Vec<u8>> {
    let input = crate::input::Input::open(name)?;
    let mut bytes = Vec::new();
    for chunk in input.chunks(1 << 22) {
        bytes.extend_from_slice(chunk?.bytes());
    }
    Ok(bytes)
}

fn write_atomic(path: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = pgnkit_driver::output::OutputFile::create(std::path::Path::new(path))?;
    out.write_all(bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {path}: {e}"))?;
    out.commit()
}
