//! `pgnkit check --fix -o FILE`: every game written out as it was read, with
//! each confirmed top fix applied.
//!
//! A fix is applied only where the replay confirmed it (the rest of the game
//! replays legally with it, and with the fixes of the later errors). The
//! move is written in the game's own language, in SAN, followed by a comment
//! that says what was written and what was applied:
//! `Nd6 {pgnkit: "Nf6" written, "Nd6" applied}`. Everything else, unconfirmed
//! problems included, is copied byte for byte (and still reported by
//! `check`). The output file is replaced atomically: a temporary file beside
//! it, renamed over it at the end.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::Path;

use pgnkit_notation::{Notation, Style, parse_annotation, parse_move, write_move};
use pgnkit_pgn::{Game, TokenKind};
use pgnkit_replay::{GameReport, Suggestion};
use shakmaty::{Chess, Move, Position, san::San};

use crate::output::OutputFile;

/// The fixed games of one chunk.
#[derive(Default, Debug)]
pub struct Fixed {
    /// The games, fixes applied.
    pub bytes: Vec<u8>,
    /// Games with at least one fix.
    pub games: u64,
    /// Fixes applied.
    pub fixes: u64,
}

/// One edit of a game's bytes: replace `range` (empty: insert) by `text`.
struct Edit {
    range: Range<usize>,
    text: String,
}

/// A swap waiting for its second move: (ply, move in SAN).
type PendingSwap = Option<(u32, String)>;

/// Appends `game` (read from `data`) to `out` with each confirmed top fix
/// of its main line applied.
pub fn fix_game(data: &[u8], game: &Game<'_>, report: &GameReport, out: &mut Fixed) {
    let span = game.span.clone();
    let Some(bytes) = data.get(span.clone()) else {
        return;
    };
    let edits = edits(game, report);
    let mut last = 0usize;
    for e in &edits {
        // Offsets in the game's bytes; an edit outside them is left out.
        let (Some(s), Some(t)) = (
            e.range.start.checked_sub(span.start),
            e.range.end.checked_sub(span.start),
        ) else {
            continue;
        };
        let Some(kept) = bytes.get(last..s) else {
            continue;
        };
        if t < s || t > bytes.len() {
            continue;
        }
        out.bytes.extend_from_slice(kept);
        out.bytes.extend_from_slice(e.text.as_bytes());
        last = t;
    }
    out.bytes
        .extend_from_slice(bytes.get(last..).unwrap_or_default());
    if !edits.is_empty() {
        out.games += 1;
        out.fixes += edits.len() as u64;
    }
    // Games stay separated by an empty line.
    let trailing = out
        .bytes
        .iter()
        .rev()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count();
    for _ in trailing..2 {
        out.bytes.push(b'\n');
    }
}

/// The edits that apply the confirmed top fixes, in byte order.
fn edits(game: &Game<'_>, report: &GameReport) -> Vec<Edit> {
    let fixes: Vec<(Range<usize>, &Suggestion, String)> = report
        .diagnostics
        .iter()
        .filter(|d| !d.variation)
        .filter_map(|d| {
            d.suggestions
                .first()
                .filter(|s| s.confirmed())
                .map(|s| (d.span.clone(), s, alternatives(&d.suggestions)))
        })
        .collect();
    let mut edits = Vec::new();
    if fixes.is_empty() {
        return edits;
    }
    let lang = report.language;
    let style = Style::new(Notation::San, lang);
    let mut pos: Chess = report.start.clone();
    let mut ply = 0u32;
    let mut depth = 0u32;
    let mut swap: PendingSwap = None;
    let mut used = vec![false; fixes.len()];
    // The fixes by what they are looked up by (in fix order): inserts and
    // swaps by ply, replacements by their token's start, so that each word
    // looks at its own candidates only (linear in the words and fixes).
    let mut inserts: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut swaps: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut replaces: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, (s, f, _)) in fixes.iter().enumerate() {
        match f {
            Suggestion::Insert { ply, .. } => inserts.entry(*ply).or_default().push(i),
            Suggestion::Swap { ply, .. } => swaps.entry(*ply).or_default().push(i),
            Suggestion::Replace { .. } => replaces.entry(s.start).or_default().push(i),
        }
    }
    // The first unused fix of `list` whose span passes `fits`.
    let first = |list: Option<&Vec<usize>>,
                 used: &[bool],
                 fits: &dyn Fn(&Range<usize>) -> bool|
     -> Option<usize> {
        list?.iter().copied().find(|&i| {
            !used.get(i).copied().unwrap_or(true) && fixes.get(i).is_some_and(|f| fits(&f.0))
        })
    };
    for token in &game.tokens {
        match token.kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                let text = report.encoding.decode(token.text);
                if parse_annotation(&text).is_some() {
                    continue;
                }
                // A move left out before this one.
                if let Some(i) = first(inserts.get(&ply.saturating_add(1)), &used, &|s| {
                    s.start >= token.span.start
                }) {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    let Some((_, Suggestion::Insert { san, .. }, also)) = fixes.get(i) else {
                        break;
                    };
                    let Some(m) = san_move(&pos, san) else { break };
                    let written = written(&pos, &m, &style);
                    edits.push(Edit {
                        range: token.span.start..token.span.start,
                        text: format!(
                            "{written} {{pgnkit: a move left out, \"{written}\" inserted{also}}} "
                        ),
                    });
                    pos.play_unchecked(m);
                    ply = ply.saturating_add(1);
                }
                let here = ply.saturating_add(1);
                let replace = first(replaces.get(&token.span.start), &used, &|s| {
                    *s == token.span
                });
                let swap_here = first(swaps.get(&here), &used, &|s| s.start >= token.span.start);
                // The first in fix order, as a scan of every fix would find.
                let fix = match (replace, swap_here) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let replacement: Option<(String, String)> =
                    match fix.and_then(|i| fixes.get(i).map(|f| (i, f))) {
                        Some((i, (_, Suggestion::Replace { san, .. }, also))) => {
                            if let Some(u) = used.get_mut(i) {
                                *u = true;
                            }
                            Some((san.clone(), also.clone()))
                        }
                        Some((i, (_, Suggestion::Swap { san, .. }, _))) => {
                            if let Some(u) = used.get_mut(i) {
                                *u = true;
                            }
                            swap = Some((here.saturating_add(2), san[1].clone()));
                            Some((
                                san[0].clone(),
                                "; two moves written in swapped order".to_owned(),
                            ))
                        }
                        _ => match &swap {
                            Some((p, san)) if *p == here => {
                                let s = san.clone();
                                swap = None;
                                Some((s, "; two moves written in swapped order".to_owned()))
                            }
                            _ => None,
                        },
                    };
                let m = match replacement {
                    Some((san, also)) => {
                        let Some(m) = san_move(&pos, &san) else { break };
                        let w = written(&pos, &m, &style);
                        edits.push(Edit {
                            range: token.span.clone(),
                            text: format!(
                                "{w} {{pgnkit: \"{text}\" written, \"{w}\" applied{also}}}"
                            ),
                        });
                        m
                    }
                    None => match parse_move(&text)
                        .ok()
                        .and_then(|t| t.resolve(&pos, lang).ok())
                    {
                        Some(m) => m,
                        // An unconfirmed problem: the rest stays as written.
                        None => break,
                    },
                };
                pos.play_unchecked(m);
                ply = ply.saturating_add(1);
            }
            _ => {}
        }
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits
}

/// The other confirmed suggestions, for the comment: "; also possible: Nh6".
fn alternatives(suggestions: &[Suggestion]) -> String {
    let others: Vec<&str> = suggestions
        .iter()
        .skip(1)
        .filter(|s| s.confirmed())
        .filter_map(|s| match s {
            Suggestion::Replace { san, .. } | Suggestion::Insert { san, .. } => Some(san.as_str()),
            Suggestion::Swap { .. } => None,
        })
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!("; also possible: {}", others.join(", "))
    }
}

fn san_move(pos: &Chess, san: &str) -> Option<Move> {
    san.parse::<San>().ok()?.to_move(pos).ok()
}

fn written(pos: &Chess, m: &Move, style: &Style) -> String {
    let mut s = String::new();
    write_move(pos, m, style, &mut s);
    s
}

/// The `-o FILE` of `--fix`, put in place when every game is written
/// ([`OutputFile`]).
pub struct FixOutput {
    file: OutputFile,
    games: u64,
    fixes: u64,
}

impl FixOutput {
    /// Starts writing `path`.
    pub fn create(path: &str) -> anyhow::Result<FixOutput> {
        Ok(FixOutput {
            file: OutputFile::create(Path::new(path))?,
            games: 0,
            fixes: 0,
        })
    }

    /// Writes the fixed games of one chunk.
    pub fn write(&mut self, fixed: &Fixed) -> anyhow::Result<()> {
        self.file.write_all(&fixed.bytes)?;
        self.games += fixed.games;
        self.fixes += fixed.fixes;
        Ok(())
    }

    /// Puts the output in place and says what was done.
    pub fn finish(self, quiet: bool) -> anyhow::Result<()> {
        let path = self.file.path().to_path_buf();
        self.file.commit()?;
        if !quiet {
            eprintln!(
                "fixed {} {} in {} {}; wrote {}",
                self.fixes,
                if self.fixes == 1 { "move" } else { "moves" },
                self.games,
                if self.games == 1 { "game" } else { "games" },
                path.display()
            );
        }
        Ok(())
    }
}
