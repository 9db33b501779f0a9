//! Records about whole games and inputs: the `check --games` record of a
//! game, and the error of an input that cannot be read.

use std::borrow::Cow;
use std::io::{self, Write};

use pgnkit_replay::clock::{Clocks, Time, TimeControl, Usage};
use pgnkit_replay::{Claim, ClaimKind, LawRuling, Status};
use serde::Serialize;

use crate::Format;

/// One game's facts for the `--games` record.
#[derive(Debug)]
pub struct GameFacts {
    /// Plies.
    pub plies: u32,
    /// Result tag as written.
    pub result_tag: Option<Cow<'static, str>>,
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
    /// The opening its main line reaches ([`pgnkit_opening::classify`]).
    pub opening: Option<pgnkit_opening::Opening>,
    /// The time control its TimeControl tag gives.
    pub time_control: Option<TimeControl>,
    /// Its clock commands, one entry a main-line ply.
    pub clocks: Clocks,
    /// How each player used their time ([`pgnkit_replay::clock::usage`]).
    pub usage: Option<Usage>,
    /// The FEN of the last main-line position ([`pgnkit_replay::GameReport::fen`]).
    pub fen: Option<String>,
    /// The Laws' rulings on the illegal moves that stood.
    pub rulings: Vec<LawRuling>,
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
    eco: Option<&'static str>,
    opening: Option<&'static str>,
    variation: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_control: Option<&'a TimeControl>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clocks: Option<Vec<Option<Time>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    emt: Option<Vec<Option<Time>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_use: Option<&'a Usage>,
    fen: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rulings: &'a [LawRuling],
}

/// Writes the `--games` record of game `number` of `file` (at byte `byte`;
/// `name` is "White - Black (Event)") in `format` (none on GitHub).
pub fn write_game(
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
                eco: f.opening.map(|o| o.eco()),
                opening: f.opening.map(|o| o.opening()),
                variation: f.opening.and_then(|o| o.variation()),
                time_control: f.time_control.as_ref(),
                clocks: (!f.clocks.clk().is_empty())
                    .then(|| (1..=f.plies).map(|p| f.clocks.clk_at(p)).collect()),
                emt: (!f.clocks.emt().is_empty())
                    .then(|| (1..=f.plies).map(|p| f.clocks.emt_at(p)).collect()),
                time_use: f.usage.as_ref(),
                fen: f.fen.as_deref(),
                rulings: &f.rulings,
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
                    ClaimKind::Threefold => "threefold repetition",
                    ClaimKind::FiftyMoves => "50-move rule",
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
            if let Some(o) = f.opening {
                line.push_str(&format!(", {} {}", o.eco(), o.name()));
            }
            if let Some(tc) = &f.time_control {
                line.push_str(&format!(", time control {tc}"));
                if let Some(kind) = tc.kind() {
                    line.push_str(&format!(" ({})", kind.as_str()));
                }
            }
            if let Some(u) = &f.usage {
                for (name, side) in [("White", &u.white), ("Black", &u.black)] {
                    if let Some(used) = side.used {
                        line.push_str(&format!(", {name} used {used}"));
                    }
                }
            }
            for r in &f.rulings {
                line.push_str(&format!(
                    "\n  ruling (Law {}) at ply {}: {}",
                    r.article, r.ply, r.text
                ));
            }
            writeln!(out, "{line}")
        }
    }
}

/// Reports an input that could not be read (the run goes on): as a record
/// on `out`, or for humans as `pgnkit: error: MESSAGE` on `err` (after `out`
/// is flushed, so that the two stay in order on a terminal).
pub fn failure(
    out: &mut dyn Write,
    err: &mut dyn Write,
    format: Format,
    path: &str,
    message: &str,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let record = serde_json::json!({"type": "error", "file": path, "message": message});
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        Format::Github => writeln!(out, "::error file={path}::{}", message.replace('\n', "%0A")),
        Format::Human => {
            out.flush()?;
            writeln!(err, "pgnkit: error: {message}")?;
            err.flush()
        }
    }
}
