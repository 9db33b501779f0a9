//! Fixing whole games (`pgnkit check --fix -o FILE`): every game written out as it was read, with
//! each confirmed top fix applied, and what the rules decide for certain.
//!
//! A fix is applied only where the replay confirmed it (the rest of the game
//! replays legally with it, and with the fixes of the later errors). The
//! move is written in the game's own language, in SAN, followed by a comment
//! that says what was written and what was applied:
//! `Nd6 {pgnkit: "Nf6" written, "Nd6" applied}`. Everything else, unconfirmed
//! problems included, is copied byte for byte (and still reported by
//! `check`). The output file is replaced atomically: a temporary file beside
//! it, renamed over it at the end.
//!
//! What the rules decide for certain is applied too, as the replay reports
//! it (nothing is decided here):
//!
//! - a Result tag, or a termination marker, that contradicts the result the
//!   rules give ([`GameReport::ruling`]: mate, stalemate, a dead position, an
//!   automatic draw, Law 6.9) is rewritten to it, and a comment before the
//!   marker says why: `{pgnkit: Result "1-0" written, "1/2-1/2" applied:
//!   stalemate (Law 5.2.1)}`. A tag that only disagrees with the marker, with
//!   no rule deciding, is left as it is; a missing tag is not added;
//! - a missing or wrong `+`/`#` is corrected in the move's own word, in the
//!   writer's notation and language ([`Diagnostic::rewrite`]), without a
//!   comment (a mark written as a word of its own, `Nf3 +`, is left).
//!
//! After a move repair, the repaired game is replayed again (by the one
//! replay) so that the marks and the result are judged on the moves written
//! out; so is a game with more marks to correct than the replay keeps
//! problems for (100 a game; at most 16 passes): `check --fix` on
//! its own output changes nothing more.

use pgnkit_pgn::{Game, Reader, TokenKind};

use super::{Edit, move_fixes};
use crate::{Code, Diagnostic, GameReport, GameResult, Options, replay_game};

/// The fixed games of one chunk.
#[derive(Default, Debug)]
pub struct Fixed {
    /// The games, fixes applied.
    pub bytes: Vec<u8>,
    /// What was fixed.
    pub counts: FixCounts,
    /// The games written otherwise than they were read, in input order.
    pub changes: Vec<Change>,
}

/// One game that `--fix` changed (for a diff of the changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game as read: its span in the input.
    pub before: std::ops::Range<usize>,
    /// The game as written: its range in [`Fixed::bytes`] (without the
    /// empty line after it).
    pub after: std::ops::Range<usize>,
}

/// How much `--fix` changed, by kind.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FixCounts {
    /// Games with at least one change.
    pub games: u64,
    /// Move repairs applied (moves replaced, inserted or swapped, words
    /// struck out).
    pub moves: u64,
    /// Games whose Result tag or termination marker was set to the result
    /// the rules decide.
    pub results: u64,
    /// Check and mate marks corrected.
    pub check_marks: u64,
    /// Problems left as written because several fixes replay the game
    /// alike ([`super::Decision::Human`]): a human decides.
    pub needs_human: u64,
}

impl FixCounts {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &FixCounts) {
        self.games += other.games;
        self.moves += other.moves;
        self.results += other.results;
        self.check_marks += other.check_marks;
        self.needs_human += other.needs_human;
    }
}

/// Appends `game` (read from `data`) to `out` with each confirmed top fix
/// of its main line applied, and the rules' certain rulings.
pub fn fix_game(data: &[u8], game: &Game<'_>, report: &GameReport, out: &mut Fixed) {
    let span = game.span.clone();
    let Some(bytes) = data.get(span.clone()) else {
        return;
    };
    let fixes = move_fixes(game, report);
    let repairs = fixes.edits;
    let mut counts = FixCounts {
        moves: fixes.moves,
        needs_human: fixes.needs_human,
        ..FixCounts::default()
    };
    let (mut text, mut again) = if repairs.is_empty() {
        let rulings = rulings(data, game, report, &mut counts);
        if rulings.is_empty() {
            // Most games: copied as they are (a problem left for a human
            // in an earlier run is counted again).
            out.bytes.extend_from_slice(bytes);
            separate(&mut out.bytes);
            out.counts.add(&counts);
            return;
        }
        let again = more_marks(report, &counts);
        (apply(bytes, span.start, &rulings), again)
    } else {
        // The marks and the result of the moves as repaired: the repaired
        // game, replayed again.
        (apply(bytes, span.start, &repairs), true)
    };
    // A game with more problems than the replay keeps (see
    // `pgnkit_replay::diagnostic::MAX_PER_GAME`) is replayed again after
    // its marks are corrected, a bounded number of times.
    let mut passes = 0;
    while again && passes < MAX_PASSES {
        passes += 1;
        let before = counts.check_marks;
        let Some(next) = replay_and_rule(&text, report.language, &mut counts) else {
            break;
        };
        again = next.1 && counts.check_marks > before;
        text = next.0;
    }
    let at = out.bytes.len();
    out.bytes.extend_from_slice(&text);
    if text != bytes {
        out.changes.push(Change {
            before: span,
            after: at..out.bytes.len(),
        });
    }
    if counts.moves + counts.results + counts.check_marks > 0 {
        counts.games = 1;
    }
    out.counts.add(&counts);
    separate(&mut out.bytes);
}

/// Ends `bytes` with an empty line: games stay separated by one.
fn separate(bytes: &mut Vec<u8>) {
    let trailing = bytes
        .iter()
        .rev()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count();
    for _ in trailing..2 {
        bytes.push(b'\n');
    }
}

/// How many times `--fix` replays one game again: once after a move repair,
/// and again while marks were left out of the report (100 marks a pass).
const MAX_PASSES: u32 = 16;

/// Whether the replay left check marks out of `report` (past its limit of
/// problems kept per game) while marks were corrected: another pass finds
/// them.
fn more_marks(report: &GameReport, counts: &FixCounts) -> bool {
    report.omitted.warnings > 0 && counts.check_marks > 0
}

/// Reads the one game in `text` again, replays it reading piece letters as
/// `lang`, and applies what the rules decide for certain. `None` if no game
/// is read; otherwise the new text, and whether marks were left out.
fn replay_and_rule(
    text: &[u8],
    lang: pgnkit_notation::Language,
    counts: &mut FixCounts,
) -> Option<(Vec<u8>, bool)> {
    let mut reader = Reader::new(text);
    let mut game = Game::default();
    if !reader.read_game(&mut game) {
        return None;
    }
    let options = Options {
        language: Some(lang),
        suggestions: false,
        ..Options::default()
    };
    let report = replay_game(text, &game, &options);
    let before = counts.check_marks;
    let rulings = rulings(text, &game, &report, counts);
    let more = report.omitted.warnings > 0 && counts.check_marks > before;
    Some((apply(text, 0, &rulings), more))
}

/// `bytes` (which start at offset `base` of the input the edits' ranges
/// refer to) with `edits` (in byte order, not overlapping) applied. An edit
/// outside `bytes`, or overlapping the one before, is left out.
fn apply(bytes: &[u8], base: usize, edits: &[Edit]) -> Vec<u8> {
    let extra: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = Vec::with_capacity(bytes.len() + extra);
    let mut last = 0usize;
    for e in edits {
        let (Some(s), Some(t)) = (
            e.range.start.checked_sub(base),
            e.range.end.checked_sub(base),
        ) else {
            continue;
        };
        let Some(kept) = bytes.get(last..s) else {
            continue;
        };
        if t < s || t > bytes.len() {
            continue;
        }
        out.extend_from_slice(kept);
        out.extend_from_slice(e.text.as_bytes());
        last = t;
    }
    out.extend_from_slice(bytes.get(last..).unwrap_or_default());
    out
}

/// The edits that apply what the rules decide for certain (read from
/// `data`, the input `game` and `report` come from): each check mark the
/// replay rewrote, and the result of its ruling. Adds them to `counts`.
fn rulings(data: &[u8], game: &Game<'_>, report: &GameReport, counts: &mut FixCounts) -> Vec<Edit> {
    let mut edits: Vec<Edit> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::CheckMark)
        .filter_map(|d: &Diagnostic| {
            Some(Edit {
                range: d.span.clone(),
                text: d.rewrite.clone()?,
            })
        })
        .collect();
    counts.check_marks += edits.len() as u64;
    if let Some(ruling) = &report.ruling {
        let result = ruling_edits(data, game, ruling.result, &ruling.reason);
        if !result.is_empty() {
            counts.results = 1;
            edits.extend(result);
        }
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits
}

/// The edits that give `game` the rules' `result`: its Result tag (if it
/// has one) and its termination marker (if it has one), with a comment
/// before the marker that says what was written and `why`.
fn ruling_edits(data: &[u8], game: &Game<'_>, result: GameResult, why: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    let new = result.as_str();
    // The Result tag's value, where it gives another result.
    let tag = game.tag("Result").and_then(|t| {
        let raw = t.raw_value;
        let written = std::str::from_utf8(raw).ok()?;
        if GameResult::from_tag(written) == Some(result) {
            return None;
        }
        let quote = data.get(t.span.clone())?.iter().position(|&b| b == b'"')?;
        let start = t.span.start + quote + 1;
        let range = start..start + raw.len();
        (data.get(range.clone()) == Some(raw)).then(|| (range, written.trim().to_owned()))
    });
    // The termination marker, where it gives another result.
    let marker = game
        .result_token
        .and_then(|i| game.tokens.get(i))
        .and_then(|t| match t.kind {
            TokenKind::Result(r) => Some((t.span.clone(), r.as_str())),
            _ => None,
        });
    let marker_wrong = marker.clone().filter(|(_, m)| *m != new);
    if tag.is_none() && marker_wrong.is_none() {
        return edits;
    }
    let written = match (&tag, &marker_wrong) {
        (Some((_, t)), Some((_, m))) if t != m => format!("Result \"{t}\", marker \"{m}\""),
        (Some((_, t)), _) => format!("Result \"{t}\""),
        (None, Some((_, m))) => format!("\"{m}\""),
        (None, None) => return edits,
    };
    let comment = format!("{{pgnkit: {written} written, \"{new}\" applied: {why}}}");
    if let Some((range, _)) = tag {
        edits.push(Edit {
            range,
            text: new.to_owned(),
        });
    }
    match (marker, marker_wrong.is_some()) {
        (Some((range, _)), true) => edits.push(Edit {
            range,
            text: format!("{comment} {new}"),
        }),
        (Some((range, _)), false) => edits.push(Edit {
            range: range.start..range.start,
            text: format!("{comment} "),
        }),
        // No marker: the comment ends the movetext.
        (None, _) => {
            let end = game.tokens.last().map_or(game.span.end, |t| t.span.end);
            edits.push(Edit {
                range: end..end,
                text: format!(" {comment}"),
            });
        }
    }
    edits
}

/// "fixed 2 moves, 1 result and 3 check marks in 4 games; 1 problem left
/// for a human"
impl std::fmt::Display for FixCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "fixed {}, {} and {} in {}; {} left for a human",
            plural(self.moves, "move", "moves"),
            plural(self.results, "result", "results"),
            plural(self.check_marks, "check mark", "check marks"),
            plural(self.games, "game", "games"),
            plural(self.needs_human, "problem", "problems"),
        )
    }
}
