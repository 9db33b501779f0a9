//! Applying the replay's confirmed repairs to a game's text: the edits
//! that `pgnkit check --fix` makes to the moves of a main line.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, fix, replay_game};
//!
//! // `Nf4` cannot be played; `Nf3` can, and the rest replays with it.
//! let pgn = b"1. e4 e5 2. Nf4 Nc6 3. Bb5 a6 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let edits = fix::move_edits(&game, &report);
//! assert_eq!(edits.len(), 1);
//! assert_eq!(&pgn[edits[0].range.clone()], b"Nf4");
//! assert!(edits[0].text.starts_with("Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied"));
//! ```

use std::collections::HashMap;
use std::ops::Range;

use pgnkit_notation::{HouseStyle, Style, parse_annotation, parse_move, write_move};
use pgnkit_pgn::{Game, TokenKind};
use shakmaty::{Chess, Color, Move, Position, san::San};

use crate::movetext::main_line_words;

mod game;
use crate::{GameReport, Suggestion};
pub use game::{Change, FixCounts, Fixed, fix_game};

/// One edit of a game's bytes: replace `range` (offsets in the input;
/// empty: insert) by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What replaces them.
    pub text: String,
}

/// How far ahead of every rival the top suggestion must be for `check
/// --fix` to apply it, in thousandths of the repair ranking's score
/// ([`crate::diagnostic::Rank::score`]).
///
/// A rival is another suggestion that replays as far as the top one (to
/// the end of the game, or with several errors to the next one). The top
/// fix is applied when it is ahead of every rival by at least 0.25: about
/// what one place where the record disagrees with the repaired game costs
/// (0.3), or the difference between a look-alike file letter (0.45) and a
/// neighbouring rank digit (0.4) taken twice.
/// Measured on 5,500 seeded slips in real games (`repair_accuracy`), a top
/// fix less far ahead was the move played in half of the cases (272 of
/// 546: a coin toss between rivals), one at least that far ahead, or
/// without a rival, in 99.4% (4,921 of 4,953).
pub const MARGIN: i32 = 250;

/// What `check --fix` does with one problem's suggestions.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision<'a> {
    /// The top suggestion replays the game and is the only one that does,
    /// or is ahead of every other by at least [`MARGIN`]: applied.
    Apply(&'a Suggestion),
    /// Several suggestions replay the game and none is clearly ahead: the
    /// word is left as written for a human, who is shown the ones as good
    /// as the top one ([`equally_good`], best first).
    Human(Vec<&'a Suggestion>),
    /// No suggestion replays the game: left as written.
    Unconfirmed,
}

/// Decides which of `suggestions` (best first, as the repair ranks them)
/// `check --fix` applies.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Options, fix, replay_game};
///
/// // Only `Nf3` lets the rest replay: applied.
/// let pgn = b"1. e4 e5 2. Nf4 Nc6 3. Bb5 a6 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let report = replay_game(pgn, &game, &Options::default());
/// let d = &report.diagnostics[0];
/// assert!(matches!(fix::decide(&d.suggestions), fix::Decision::Apply(_)));
/// ```
pub fn decide(suggestions: &[Suggestion]) -> Decision<'_> {
    let Some(top) = suggestions.first().filter(|s| s.confirmed()) else {
        return Decision::Unconfirmed;
    };
    let alike: Vec<&Suggestion> = suggestions
        .iter()
        .zip(equally_good(suggestions))
        .filter_map(|(s, good)| good.then_some(s))
        .collect();
    if alike.len() > 1 {
        Decision::Human(alike)
    } else {
        Decision::Apply(top)
    }
}

/// Which of `suggestions` (best first, as the repair ranks them) are as
/// good as the top one: the top one, and each rival (a suggestion that
/// replays as far as the top one) less than [`MARGIN`] behind it. Where
/// the top one is confirmed and has such a rival, `check --fix` applies
/// none of them ([`Decision::Human`]); human output prints these and
/// leaves the others out (the repair marks them: [`crate::diagnostic::Rank::best`]).
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Options, fix, replay_game};
///
/// // `Bc5`: `Bc4` (a rank off by one) and `Bb5` (a neighbouring file)
/// // both replay the game to its end, and neither is clearly likelier.
/// let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bc5 a6 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let report = replay_game(pgn, &game, &Options::default());
/// let d = &report.diagnostics[0];
/// assert_eq!(fix::equally_good(&d.suggestions)[..3], [true, true, false]);
/// assert!(matches!(fix::decide(&d.suggestions), fix::Decision::Human(alike) if alike.len() == 2));
/// ```
pub fn equally_good(suggestions: &[Suggestion]) -> Vec<bool> {
    let Some(top) = suggestions.first() else {
        return Vec::new();
    };
    let as_far = rivalry(top);
    suggestions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            i == 0 || (as_far(s) && s.rank().score.saturating_sub(top.rank().score) < MARGIN)
        })
        .collect()
}

/// How far the top suggestion is ahead of its nearest rival (another
/// suggestion that replays as far), in thousandths of the ranking's score;
/// `None` when it has no rival.
pub fn lead(suggestions: &[Suggestion]) -> Option<i32> {
    let top = suggestions.first()?;
    rivals(suggestions)
        .map(|r| r.rank().score.saturating_sub(top.rank().score))
        .min()
}

/// The suggestions after the first that replay as far as it does: see
/// [`rivalry`].
fn rivals(suggestions: &[Suggestion]) -> impl Iterator<Item = &Suggestion> {
    let as_far = suggestions.first().map(rivalry);
    suggestions
        .iter()
        .skip(1)
        .filter(move |s| as_far.as_ref().is_some_and(|f| f(s)))
}

/// Whether a suggestion replays as far as `top` does: it is confirmed, or
/// (with several errors in the game, where only the chain of top fixes is
/// followed to the end) it replays as many plies.
fn rivalry(top: &Suggestion) -> impl Fn(&Suggestion) -> bool + use<> {
    let top = top.replays();
    move |s: &Suggestion| s.confirmed() || (top.is_some() && s.replays() >= top)
}

/// A swap waiting for its second move: (ply, move in SAN).
type PendingSwap = Option<(u32, String)>;

/// The move repairs of one game's main line ([`move_fixes`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFixes {
    /// The edits, in byte order.
    pub edits: Vec<Edit>,
    /// Moves repaired (replaced, inserted, swapped, or a word struck out).
    pub moves: u64,
    /// Problems left as written for a human ([`Decision::Human`]).
    pub needs_human: u64,
}

/// The edits that apply the top fixes [`decide`] picks in `game`'s main line
/// (from its `report`), in byte order: see [`move_fixes`].
pub fn move_edits(game: &Game<'_>, report: &GameReport) -> Vec<Edit> {
    move_fixes(game, report).edits
}

/// The edits that apply the top fixes [`decide`] picks in `game`'s main
/// line (from its `report`), and how many problems are left for a human.
///
/// Each repaired move is written in SAN in the game's language, followed by
/// a comment that says what was written and what was applied (`Nf3
/// {pgnkit: "Nf4" written, "Nf3" applied}`), an inserted move likewise
/// (before the move number of the move after it, with a number of its own
/// if it is White's). After a move is inserted or a word struck out, the
/// main line's moves are numbered from there on as the PGN export format
/// numbers them: `N.` before each White move, `N...` before Black's only
/// after a comment or variation, other numbers taken out. A word whose fixes replay the
/// game alike ([`Decision::Human`]) is left as written, followed by a comment
/// that lists those as good as the top one ([`equally_good`]) in the
/// writer's notation and language (`Nf4 {pgnkit: "Nf4" left as written for
/// a human: Nf3, Nh3 replay the game alike}`; not written twice); a fix
/// applied names the other confirmed ones in its comment the same way
/// (`; also possible: Sh3`). The main line is replayed with the fixes; from the first
/// word that neither replays nor has a fix applied, the rest stays as
/// written.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Options, fix, replay_game};
///
/// // White's 2.exd5 left out, the numbers counted on: inserted, renumbered.
/// let pgn = b"1. e4 d5 2. Qxd5 Nc3 3. Qa5 d4 4. Nf6 Nf3 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let report = replay_game(pgn, &game, &Options::default());
/// let fixes = fix::move_fixes(&game, &report);
/// assert_eq!((fixes.moves, fixes.needs_human), (1, 0));
/// let texts: Vec<&str> = fixes.edits.iter().map(|e| e.text.as_str()).collect();
/// assert_eq!(
///     texts,
///     [
///         "2. exd5 {pgnkit: a move left out, \"exd5\" inserted} ",
///         "2...", // 2... Qxd5
///         "3. ",  // 3. Nc3
///         "",     // Qa5, no number
///         "4. ",  // 4. d4
///         "",     // Nf6
///         "5. ",  // 5. Nf3
///     ]
/// );
/// ```
pub fn move_fixes(game: &Game<'_>, report: &GameReport) -> MoveFixes {
    let mut out = MoveFixes::default();
    // The problems whose top fix is applied, and those left for a human.
    let mut fixes: Vec<(Range<usize>, &Suggestion, String)> = Vec::new();
    let mut human: HashMap<usize, Vec<&Suggestion>> = HashMap::new();
    for d in report.diagnostics.iter().filter(|d| !d.variation) {
        match decide(&d.suggestions) {
            Decision::Apply(top) => fixes.push((d.span.clone(), top, alternatives(&d.suggestions))),
            Decision::Human(alike) => {
                human.insert(d.span.start, alike);
            }
            Decision::Unconfirmed => {}
        }
    }
    if fixes.is_empty() && human.is_empty() {
        return out;
    }
    // Striking out every word of the movetext would leave a game of tags
    // and comments, which the next game's tags would join when the fixed
    // file is read again (found by fuzzing): such a game keeps its words.
    let strikes = fixes
        .iter()
        .filter(|f| matches!(f.1, Suggestion::Delete { .. }))
        .count();
    if strikes > 0 && strikes >= main_line_words(game, report.encoding).count() {
        fixes.retain(|f| !matches!(f.1, Suggestion::Delete { .. }));
    }
    let lang = report.language;
    // Fixes are written as the writer writes moves: the game's language
    // and house style (long or short, its capture and castling marks).
    let words: Vec<String> = main_line_words(game, report.encoding)
        .map(|t| report.encoding.decode(t.text).into_owned())
        .filter(|w| parse_move(w).is_ok())
        .collect();
    let style = HouseStyle::of_words(words.iter().map(String::as_str)).style(lang);
    let mut pos: Chess = report.start.clone();
    let mut ply = 0u32;
    let mut depth = 0u32;
    let mut swap: PendingSwap = None;
    let mut used = vec![false; fixes.len()];
    // A move was inserted or a word struck out: the move numbers after it
    // are written to fit their moves.
    let mut renumber = false;
    // The main-line move number written since the last move: (its span,
    // number, written with dots, token index).
    let mut number: Option<(Range<usize>, u32, bool, usize)> = None;
    // The last main-line token was a move (no comment or variation since).
    let mut after_move = false;
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
            Suggestion::Replace { .. } | Suggestion::Delete { .. } => {
                replaces.entry(s.start).or_default().push(i)
            }
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
    let edits = &mut out.edits;
    for (index, token) in game.tokens.iter().enumerate() {
        match token.kind {
            TokenKind::OpenVariation => {
                depth += 1;
                after_move = false;
            }
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::MoveNumber { number: n, black } if depth == 0 && number.is_none() => {
                number = Some((token.span.clone(), n, black, index));
            }
            TokenKind::Comment | TokenKind::Nag(_) if depth == 0 => after_move = false,
            TokenKind::Word if depth == 0 => {
                let text = report.encoding.decode(token.text);
                if parse_annotation(&text).is_some() {
                    continue;
                }
                // A move left out before this one: inserted before the
                // move number written for this one.
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
                    let at = number.as_ref().map_or(token.span.start, |n| n.0.start);
                    // It ends in a comment: a number for Black's move after it.
                    after_move = false;
                    let own_number = if pos.turn() == Color::White {
                        format!("{}. ", pos.fullmoves())
                    } else {
                        String::new()
                    };
                    edits.push(Edit {
                        range: at..at,
                        text: format!(
                            "{own_number}{written} {{pgnkit: a move left out, \"{written}\" inserted{also}}} "
                        ),
                    });
                    out.moves += 1;
                    renumber = true;
                    pos.play_unchecked(m);
                    ply = ply.saturating_add(1);
                }
                if let Some(alike) = human.get(&token.span.start) {
                    // Fixes that replay alike: a human decides.
                    out.needs_human += 1;
                    let commented = game
                        .tokens
                        .get(index + 1)
                        .is_some_and(|t| t.kind == TokenKind::Comment && is_human_comment(t.text));
                    if !commented {
                        edits.push(Edit {
                            range: token.span.end..token.span.end,
                            text: format!(
                                " {{pgnkit: \"{}\" left as written for a human: {} replay the game alike}}",
                                shown(&text),
                                described(alike)
                            ),
                        });
                    }
                    break;
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
                if let Some(i) = fix
                    && let Some((_, Suggestion::Delete { reason, .. }, _)) = fixes.get(i)
                {
                    // A word that is no move: kept in a comment, not played;
                    // the move number before it stays the next move's.
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    edits.push(Edit {
                        range: token.span.clone(),
                        text: format!("{{pgnkit: \"{}\" struck out: {reason}}}", shown(&text)),
                    });
                    out.moves += 1;
                    renumber = true;
                    after_move = false;
                    continue;
                }
                if renumber {
                    // The moves numbered as PGN numbers them: a number before
                    // each White move, before Black's only after a comment.
                    let white = pos.turn() == Color::White;
                    let full = pos.fullmoves().get();
                    match number.take() {
                        Some((span, _, _, i)) if !white && after_move && i + 1 == index => {
                            edits.push(Edit {
                                range: span.start..token.span.start,
                                text: String::new(),
                            });
                        }
                        Some((span, n, black, _)) if n != full || black == white => {
                            let dots = if white { "." } else { "..." };
                            edits.push(Edit {
                                range: span,
                                text: format!("{full}{dots}"),
                            });
                        }
                        Some(_) => {}
                        None if white => edits.push(Edit {
                            range: token.span.start..token.span.start,
                            text: format!("{full}. "),
                        }),
                        None => {}
                    }
                }
                number = None;
                after_move = true;
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
                                "{w} {{pgnkit: \"{}\" written, \"{w}\" applied{also}}}",
                                shown(&text)
                            ),
                        });
                        out.moves += 1;
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
    out.edits.sort_by_key(|e| (e.range.start, e.range.end));
    out
}

/// Whether a comment's text is one that [`move_fixes`] writes after a word
/// left for a human (so that `--fix` on its own output writes it once).
fn is_human_comment(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.trim_start().starts_with("pgnkit:") && text.contains("left as written for a human")
}

/// The fixes that replay alike, as the writer writes moves: "Nf3, Nh3 and
/// Sd2 inserted before it".
fn described(alike: &[&Suggestion]) -> String {
    let each: Vec<String> = alike
        .iter()
        .map(|s| {
            let written = &s.rank().written;
            let at =
                |i: usize, san: &str| written.get(i).cloned().unwrap_or_else(|| san.to_owned());
            match s {
                Suggestion::Replace { san, .. } => at(0, san),
                Suggestion::Insert { san, .. } => format!("{} inserted before it", at(0, san)),
                Suggestion::Swap { san, .. } => {
                    format!("{} and {} in swapped order", at(0, &san[0]), at(1, &san[1]))
                }
                Suggestion::Delete { .. } => "the word struck out".to_owned(),
            }
        })
        .collect();
    match each.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The other confirmed suggestions, for the comment, as the writer writes
/// moves: "; also possible: Cg4+, Ch5+".
fn alternatives(suggestions: &[Suggestion]) -> String {
    let others: Vec<&str> = suggestions
        .iter()
        .skip(1)
        .filter(|s| s.confirmed())
        .filter_map(|s| match s {
            Suggestion::Replace { san, .. } | Suggestion::Insert { san, .. } => Some(
                s.rank()
                    .written
                    .first()
                    .map_or(san.as_str(), String::as_str),
            ),
            Suggestion::Swap { .. } | Suggestion::Delete { .. } => None,
        })
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!("; also possible: {}", others.join(", "))
    }
}

/// A written word for a comment: control characters (a NUL byte) and `}`
/// written as `\x00`, so that nothing ends the comment early.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            // Control characters are U+0000 to U+009F: two hex digits.
            if c.is_control() || c == '}' {
                format!("\\x{:02X}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn san_move(pos: &Chess, san: &str) -> Option<Move> {
    san.parse::<San>().ok()?.to_move(pos).ok()
}

fn written(pos: &Chess, m: &Move, style: &Style) -> String {
    let mut s = String::new();
    write_move(pos, m, style, &mut s);
    s
}
