//! The output of `pgnkit diff`: two records of one game compared
//! ([`pgnkit_diff::compare`]) and printed as human text, NDJSON records
//! or GitHub annotations, then the games left unpaired and the run's
//! counts.
//!
//! ```
//! use pgnkit_notation::Language;
//! use pgnkit_pgn::location::Places;
//! use pgnkit_pgn::text::Encoding;
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_diff::compare::{Words, compare};
//! use pgnkit_diff::pairing::{Identity, PairedBy};
//! use pgnkit_report::Format;
//! use pgnkit_report::compare::{Pair, Side, write_pair};
//! use shakmaty::Chess;
//!
//! let (a, b) = (&b"1. e4 e5 2. Nf3 Nc6 *"[..], &b"1. e4 e5 2. Nf4 Nc6 *"[..]);
//! let (mut ga, mut gb) = (Game::default(), Game::default());
//! Reader::new(a).read_game(&mut ga);
//! Reader::new(b).read_game(&mut gb);
//! let wa = Words::new(&ga, a, Encoding::Utf8, Language::En);
//! let wb = Words::new(&gb, b, Encoding::Utf8, Language::En);
//! let comparison = compare(Chess::default(), &wa, &wb);
//! let (identity, places) = (Identity::default(), Places::new(a));
//! let at = |o| places.line_col(o);
//! let side = |file| Side { file, game: 1, identity: &identity, places: &at };
//! let pair = Pair {
//!     a: side("white.pgn"),
//!     b: side("black.pgn"),
//!     by: PairedBy::Order { players_differ: false },
//!     comparison: &comparison,
//!     start: &Chess::default(),
//!     style: wa.house_style(),
//! };
//! let mut out = Vec::new();
//! write_pair(&mut out, Format::Human, &pair).unwrap();
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "game 1: 1 difference\n  ply 3 2.: white.pgn: Nf3 (legal), black.pgn: Nf4 (illegal) -> merged: Nf3\n  merged: 1. e4 e5 2. Nf3 Nc6\n"
//! );
//! ```

use std::io::{self, Write};

use pgnkit_diff::compare::{Comparison, Difference};
use pgnkit_diff::pairing::{Identity, PairedBy};
use pgnkit_notation::Style;
use pgnkit_pgn::write::Movetext;
use pgnkit_replay::diagnostic::side_name;
use serde_json::json;
use shakmaty::{Chess, Color};

use crate::Format;
use crate::render::{escape_data, escape_property};

/// One record of a compared pair.
pub struct Side<'a> {
    /// The name of its file.
    pub file: &'a str,
    /// The game's 1-based number in its file.
    pub game: u32,
    /// The game's Round, White, Black and Date tags.
    pub identity: &'a Identity,
    /// The line and column of a byte offset of the file, where the
    /// differences are (JSON and GitHub output; unused for humans): a
    /// [`Places`](pgnkit_pgn::location::Places)'s `line_col`.
    pub places: &'a dyn Fn(Option<usize>) -> (Option<usize>, Option<usize>),
}

/// Two records of one game and their comparison.
pub struct Pair<'a> {
    /// The first record (`A`).
    pub a: Side<'a>,
    /// The second record (`B`).
    pub b: Side<'a>,
    /// How the two were paired.
    pub by: PairedBy,
    /// The comparison of their moves.
    pub comparison: &'a Comparison,
    /// The position A starts from: the merged moves are played from it.
    pub start: &'a Chess,
    /// How A writes its moves: the merged moves are written so.
    pub style: Style,
}

/// Writes what the comparison of a pair found: in JSON a `difference`
/// record for each difference, then the pair's `game` record; on GitHub a
/// warning for each difference (at its place in B, else in A) and for a pair
/// of games whose players differ; for humans, the pair's differences and
/// merged moves, or that the records agree.
///
/// # Errors
/// Those of writing to `out`.
pub fn write_pair(out: &mut dyn Write, format: Format, pair: &Pair<'_>) -> io::Result<()> {
    let (a, b, c) = (&pair.a, &pair.b, pair.comparison);
    let names = a.identity;
    let players_differ = pair.by
        == PairedBy::Order {
            players_differ: true,
        };
    let players = |id: &Identity| {
        format!(
            "{} - {}",
            id.white.as_deref().unwrap_or("?"),
            id.black.as_deref().unwrap_or("?")
        )
    };
    let odd_pair = format!(
        "game {} of {} and game {} of {} are paired by their order, but their players differ: {} and {}",
        a.game,
        a.file,
        b.game,
        b.file,
        players(a.identity),
        players(b.identity)
    );
    // The merged moves, written only where they are shown.
    let merged_moves = || {
        let mut merged = Vec::new();
        let mut mt = Movetext::unwrapped(&mut merged);
        c.write_merged(pair.start, &pair.style, &mut mt);
        mt.finish();
        merged
    };
    match format {
        Format::Json => {
            for d in c.differences() {
                let (line_a, column_a) = (a.places)(d.byte_a);
                let (line_b, column_b) = (b.places)(d.byte_b);
                let record = json!({
                    "file_a": a.file, "game_a": a.game, "line_a": line_a, "column_a": column_a, "byte_a": d.byte_a,
                    "file_b": b.file, "game_b": b.game, "line_b": line_b, "column_b": column_b, "byte_b": d.byte_b,
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
                file_a: a.file,
                file_b: b.file,
                game_a: a.game,
                game_b: b.game,
                merged: merged.trim_end(),
                merged_complete: c.complete,
                paired_by: match pair.by {
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
                let file = escape_property(b.file);
                writeln!(out, "::warning file={file}::{}", escape_data(&odd_pair))?;
            }
            for d in c.differences() {
                // At the place in the second record, else in the first.
                let (file, (line, column)) = if d.byte_b.is_some() {
                    (b.file, (b.places)(d.byte_b))
                } else {
                    (a.file, (a.places)(d.byte_a))
                };
                let mut place = format!("file={}", escape_property(file));
                if let (Some(line), Some(column)) = (line, column) {
                    place.push_str(&format!(",line={line},col={column}"));
                }
                let text = format!("game {}: {}", a.game, describe(d, a.file, b.file));
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
                    a.game,
                    c.merged().len()
                );
            }
            writeln!(
                out,
                "game {}{name}: {} {}",
                a.game,
                c.differences().len(),
                if c.differences().len() == 1 {
                    "difference"
                } else {
                    "differences"
                }
            )?;
            for d in c.differences() {
                writeln!(out, "  {}", describe(d, a.file, b.file))?;
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

/// Writes that game `game` of `file` has no counterpart in the other file.
///
/// # Errors
/// Those of writing to `out`.
pub fn write_unpaired(
    out: &mut dyn Write,
    format: Format,
    file: &str,
    game: u32,
) -> io::Result<()> {
    match format {
        Format::Json => typed(out, "unpaired", &json!({"file": file, "game": game})),
        Format::Human => writeln!(
            out,
            "{file}: game {game} has no counterpart in the other file"
        ),
        Format::Github => writeln!(
            out,
            "::warning file={}::game {game} has no counterpart in the other file",
            escape_property(file)
        ),
    }
}

/// The counts of a `pgnkit diff` run.
///
/// ```
/// use pgnkit_report::compare::Counts;
///
/// let counts = Counts { games: 2, games_with_differences: 1, differences: 3, unpaired: 1 };
/// let mut out = Vec::new();
/// counts.write_summary(&mut out).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "{\"type\":\"summary\",\"differences\":3,\"games\":2,\"games_with_differences\":1,\"unpaired\":1}\n"
/// );
/// assert_eq!(counts.line(), "compared 2 games: 1 with differences, 3 differences, 1 unpaired");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Pairs compared.
    pub games: usize,
    /// Pairs whose records differ.
    pub games_with_differences: usize,
    /// Differences in all.
    pub differences: usize,
    /// Games of either file without a counterpart.
    pub unpaired: usize,
}

impl Counts {
    /// Counts one pair compared.
    pub fn add(&mut self, c: &Comparison) {
        self.games += 1;
        if !c.differences().is_empty() {
            self.games_with_differences += 1;
            self.differences += c.differences().len();
        }
    }

    /// Writes the `summary` record that ends the JSON output.
    ///
    /// # Errors
    /// Those of writing to `out`.
    pub fn write_summary(&self, out: &mut dyn Write) -> io::Result<()> {
        typed(
            out,
            "summary",
            &json!({"games": self.games, "games_with_differences": self.games_with_differences,
                    "differences": self.differences, "unpaired": self.unpaired}),
        )
    }

    /// The summary line for humans: `compared 2 games: 1 with differences,
    /// 3 differences`, and `, 1 unpaired` when some game is.
    pub fn line(&self) -> String {
        format!(
            "compared {} {}: {} with differences, {} {}{}",
            self.games,
            if self.games == 1 { "game" } else { "games" },
            self.games_with_differences,
            self.differences,
            if self.differences == 1 {
                "difference"
            } else {
                "differences"
            },
            if self.unpaired == 0 {
                String::new()
            } else {
                format!(", {} unpaired", self.unpaired)
            }
        )
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unpaired_game_is_a_record_with_its_type_first() {
        let mut out = Vec::new();
        write_unpaired(&mut out, Format::Json, "black.pgn", 3).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"type\":\"unpaired\",\"file\":\"black.pgn\",\"game\":3}\n"
        );
    }
}
