//! What `convert` writes of a game's clock commands: none of them
//! (`--no-clocks`), or one kind made from the other under the time control
//! (`--clocks clk`, `--clocks emt`).
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_pgn::text::GameText;
//! use pgnkit_replay::clock::{Rewrite, rewritten_comments};
//! use pgnkit_replay::{Options, replay_game};
//!
//! let pgn = b"[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:02:59] } e5 { ok [%clk 0:02:50] } 2. Nf3 { [%clk 0:02:40] } *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let source = GameText::new(pgn, game.span.clone());
//! let emt = rewritten_comments(&game, &source, &report.clocked(), Rewrite::Emt).unwrap();
//! let texts: Vec<&str> = emt.iter().map(|(_, t)| t.as_str()).collect();
//! assert_eq!(texts, [" [%emt 0:00:03] ", " ok [%emt 0:00:12] ", " [%emt 0:00:21] "]);
//! let none = rewritten_comments(&game, &source, &report.clocked(), Rewrite::Drop).unwrap();
//! assert_eq!(none[1].1, " ok ");
//! ```

use pgnkit_pgn::text::GameText;
use pgnkit_pgn::write::comment_text;
use pgnkit_pgn::{Game, TokenKind};

use super::checks::Start;
use super::{Command, Time, TimeControl, with_clocks_replaced, without_clocks};

/// What a rewrite needs of a replayed game
/// ([`GameReport::clocked`](crate::GameReport::clocked)).
#[derive(Clone, Debug)]
pub struct Replayed<'r> {
    /// The clock commands read.
    pub clocks: &'r super::Clocks,
    /// The time control.
    pub control: Option<&'r TimeControl>,
    /// Where the main line starts.
    pub start: Start,
    /// The main-line plies replayed.
    pub plies: u32,
    /// The token of each main-line move, in order.
    pub moves: Vec<usize>,
}

/// What to write of the clock commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// No `[%clk …]` nor `[%emt …]`: every other word of each comment
    /// kept; a comment left empty is left out.
    Drop,
    /// `[%clk …]` after each main-line move, from the `%emt` times where
    /// the clock is not written.
    Clk,
    /// `[%emt …]` after each main-line move, from the clocks where the
    /// time taken is not written.
    Emt,
}

/// The comments of `game` (its text `source`, replayed as `report` says) that
/// `rewrite` changes: the first byte of each comment token and its new
/// text, in order (an empty or blank text: the comment is left out). Under
/// [`Rewrite::Clk`] and [`Rewrite::Emt`] the comment after a main-line move
/// that holds its clock command gets the command asked for in its place;
/// the time it takes needs the game's time control where it is not written
/// (`Err` says so).
pub fn rewritten_comments(
    game: &Game<'_>,
    source: &GameText<'_>,
    report: &Replayed<'_>,
    rewrite: Rewrite,
) -> Result<Vec<(usize, String)>, String> {
    let mut out = Vec::new();
    if rewrite == Rewrite::Drop {
        for t in game.tokens.iter().filter(|t| t.kind == TokenKind::Comment) {
            let text = comment_text(&t, source);
            if let Some(kept) = without_clocks(&text) {
                out.push((t.span.start, kept));
            }
        }
        return Ok(out);
    }
    if report.clocks.is_empty() {
        return Ok(out);
    }
    let command = if rewrite == Rewrite::Emt {
        Command::Emt
    } else {
        Command::Clk
    };
    let values = times(report, command)?;
    // The comments after each main-line move, up to the next.
    let mut depth = 0u32;
    let mut ply = 0usize;
    let mut next_move = report.moves.first().copied();
    // One command a ply, in the first of its comments that had one.
    let mut written = 0usize;
    for (i, t) in game.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            _ => {}
        }
        if Some(i) == next_move {
            ply += 1;
            next_move = report.moves.get(ply).copied();
            continue;
        }
        if depth > 0 || t.kind != TokenKind::Comment || ply == 0 {
            continue;
        }
        let text = comment_text(&t, source);
        let value = (written < ply)
            .then(|| values.get(ply - 1).copied().flatten())
            .flatten();
        if value.is_some() {
            written = ply;
        }
        let command_text = value.map(|v| format!("[%{} {v}]", command.as_str()));
        let Some(kept) = with_clocks_replaced(&text, command_text.as_deref()) else {
            continue;
        };
        out.push((t.span.start, kept));
    }
    Ok(out)
}

/// The time control a conversion needs: one of periods.
fn control<'r>(report: &Replayed<'r>) -> Result<&'r TimeControl, String> {
    report
        .control
        .filter(|c| !c.periods().is_empty())
        .ok_or_else(|| {
            "the clocks cannot be converted without a TimeControl tag of periods (`300+2`, `40/7200:3600`)"
                .to_owned()
        })
}

/// The `command` times of each main-line ply: as written, else made from
/// the other command under the control: the player's previous clock (or
/// the starting time) plus what the control credits the move is the clock
/// after it plus the time it took.
fn times(report: &Replayed<'_>, command: Command) -> Result<Vec<Option<Time>>, String> {
    let clocks = report.clocks;
    let plies = report.plies as usize;
    let mut tc = None;
    // The clock after each ply, written or made.
    let mut clk: Vec<Option<Time>> = Vec::with_capacity(plies);
    let mut out = Vec::with_capacity(plies);
    for ply in 1..=report.plies {
        let (c, e) = match (clocks.clk_at(ply), clocks.emt_at(ply)) {
            (c, e) if c.is_some() == e.is_some() => (c, e),
            (c, e) => {
                let tc = match tc {
                    Some(tc) => tc,
                    None => *tc.insert(control(report)?),
                };
                let before = if ply > 2 {
                    clk.get(ply as usize - 3).copied().flatten()
                } else {
                    tc.base()
                };
                let credited =
                    before.map(|b| b.saturating_add(tc.credit(report.start.number(ply))));
                match (c, e) {
                    (Some(c), _) => (Some(c), credited.map(|x| x.saturating_sub(c))),
                    (None, e) => (credited.zip(e).map(|(x, e)| x.saturating_sub(e)), e),
                }
            }
        };
        clk.push(c);
        out.push(if command == Command::Clk { c } else { e });
    }
    Ok(out)
}
