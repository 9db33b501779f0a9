//! The verdict on a replayed game: its status under the Laws, the result
//! the rules give, and where the record (the Result tag, the termination
//! marker) says otherwise; the automatic draws and dead positions reached
//! before the last move; a loss on time against a player who cannot
//! checkmate (Law 6.9).

use pgnkit_pgn::Game;
use shakmaty::{Chess, Color, Position};

use crate::dead;
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::game::GameReport;
use crate::movetext::Pass;
use crate::outcome::{self, GameResult, Ruling, Status, Tracker};

pub(crate) fn finish(
    game: &Game<'_>,
    report: &mut GameReport,
    mut pass: Pass<Tracker>,
    mut head: Diagnostics,
) {
    let pos = &pass.final_position;
    let pass_auto = pass.book.automatic_end();
    report.plies = pass.plies;
    report.claims = pass.book.claims();
    report.keys = pass.book.take_keys();
    report.moves = pass.main_moves;
    head.extend(pass.diagnostics);

    report.status = if pass.failure.is_some() {
        Status::Invalid
    } else if let Some((status, _)) = pass.book.automatic_end() {
        status
    } else {
        let last = outcome::final_status(pos);
        report.dead_undecided = last.undecided;
        last.status
    };
    report.result = match report.status {
        Status::Checkmate => Some(GameResult::win_for(!pos.turn())),
        s => outcome::rule_result(s, pos.turn()),
    };

    // A definite Result tag must agree with a game the rules ended.
    // The rules drew the game automatically before its last move: say so,
    // and do not hold the players' result against the final position.
    let mut continued = false;
    if let Some((status, ply)) = pass_auto
        && ply < report.plies
        && report.status == status
    {
        continued = true;
        let law = if status == Status::FivefoldRepetition {
            "the same position occurred for the fifth time (Law 9.6.1)"
        } else {
            "75 moves passed without a capture or pawn move (Law 9.6.2)"
        };
        let span = report
            .moves
            .get(ply as usize)
            .and_then(|m| game.tokens.get(m.token as usize))
            .map_or(game.span.start..game.span.start, |t| t.span.clone());
        let mut d = Diagnostic::new(
            Code::MovesAfterDraw,
            span,
            format!("the game went on after the rules drew it at ply {ply}: {law}"),
        );
        d.ply = Some(ply + 1);
        d.help.push(format!(
                "under the Laws the game ended there as a draw; the remaining {} plies were still checked",
                report.plies - ply
            ));
        head.push(d);
    }

    if matches!(
        report.status,
        Status::InsufficientMaterial | Status::DeadPosition
    ) && dead_before_the_end(game, report, &mut head)
    {
        continued = true;
    }

    // The result the rules decide for certain: a game they ended at its
    // last move.
    let certain = match (report.result, report.status.law(), continued) {
        (Some(result), Some(law), false) => Some(Ruling {
            result,
            reason: law.to_owned(),
        }),
        _ => None,
    };

    // Without a Result tag, the movetext's termination marker is the record.
    let recorded = report
        .result_tag
        .clone()
        .or_else(|| game.result().map(|r| r.as_str().to_owned()));
    if let (Some(rule), Some(tag), false) = (report.result, recorded.as_deref(), continued)
        && let Some(written) = GameResult::from_tag(tag)
        && written != rule
    {
        let span = match game.tag("Result") {
            Some(t) => t.span.clone(),
            None => game
                .tokens
                .iter()
                .rev()
                .find(|t| matches!(t.kind, pgnkit_pgn::TokenKind::Result(_)))
                .map_or(game.span.start..game.span.start, |t| t.span.clone()),
        };
        let what = if report.result_tag.is_some() {
            "the Result tag says"
        } else {
            "the game is recorded as"
        };
        let why = match report.status {
            Status::Checkmate => format!(
                "{} is checkmated",
                if pos.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                }
            ),
            Status::Stalemate => "the game ends in stalemate".to_owned(),
            Status::InsufficientMaterial => {
                "neither side can checkmate for lack of material (dead position, Law 5.2.2)"
                    .to_owned()
            }
            Status::DeadPosition => {
                "neither side can checkmate by any series of legal moves (dead position, Law 5.2.2)"
                    .to_owned()
            }
            Status::FivefoldRepetition => "the same position occurred five times".to_owned(),
            Status::SeventyfiveMoves => "75 moves passed without a capture or pawn move".to_owned(),
            _ => String::new(),
        };
        let mut d = Diagnostic::new(
            Code::ResultMismatch,
            span,
            format!("{what} {tag}, but {why}: the result is {}", rule.as_str()),
        );
        d.help.push(format!("write [Result \"{}\"]", rule.as_str()));
        d.ply = Some(report.plies);
        head.push(d);
        report.ruling = certain.clone();
    }
    marker_mismatch(game, report, certain, &mut head);
    time_forfeit(game, report, pos, &mut head);
    (report.diagnostics, report.omitted) = head.into_parts();
    report.diagnostics.sort_by_key(|d| d.span.start);
}

/// A game that ends in a position dead by the static rules was dead from
/// the first position where they held (once they hold, they hold for
/// good): when that came before the last move, the game ended there and the
/// moves after it are reported. The main line is played again from its
/// moves only here, in the rare games that end dead. Returns whether moves
/// came after the end.
fn dead_before_the_end(game: &Game<'_>, report: &mut GameReport, found: &mut Diagnostics) -> bool {
    let mut pos = report.start.clone();
    let mut first = outcome::static_dead_status(&pos).map(|s| (s, 0u32));
    if first.is_none() {
        for (ply, m) in (1u32..).zip(&report.moves) {
            pos.play_unchecked(m.played);
            // Only a capture, a pawn move or a promotion can make a
            // position dead, and each of them resets the clock.
            if pos.halfmoves() == 0
                && let Some(status) = outcome::static_dead_status(&pos)
            {
                first = Some((status, ply));
                break;
            }
        }
    }
    let Some((status, ply)) = first.filter(|&(_, ply)| ply < report.plies) else {
        return false;
    };
    report.status = status;
    report.result = Some(GameResult::Draw);
    let Some(next) = report.moves.get(ply as usize) else {
        return false;
    };
    let span = game
        .tokens
        .get(next.token as usize)
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let why = if status == Status::InsufficientMaterial {
        "neither side has the material to checkmate"
    } else {
        "the pawns are locked and neither side can ever checkmate"
    };
    // The moves after are legal chess, played on after an automatic draw
    // (as after a fivefold repetition): a warning, not a broken record.
    let mut d = Diagnostic::new(
        Code::MovesAfterDraw,
        span,
        format!(
            "the game went on after the rules drew it at ply {ply}: a dead position, {why} (Law 5.2.2)"
        ),
    );
    d.ply = Some(ply + 1);
    // `pos` is the dead position: its side to move made the next move.
    d.move_number = Some(pos.fullmoves().get());
    d.side = Some(pos.turn());
    d.token = game.tokens.get(next.token as usize).map(|t| {
        let word = report.encoding.decode(t.text);
        word.trim_start_matches(['.', '…']).to_owned()
    });
    d.help.push(format!(
        "under the Laws the game ended there as a draw; the remaining {} plies were still checked",
        report.plies - ply
    ));
    found.push(d);
    true
}

/// The Result tag against the termination marker that ends the movetext:
/// the PGN standard requires them to agree, whatever the position. Where the
/// rules decide the result for `certain` and the tag gives it, the marker is
/// what is wrong: that is the game's ruling.
fn marker_mismatch(
    game: &Game<'_>,
    report: &mut GameReport,
    certain: Option<Ruling>,
    found: &mut Diagnostics,
) {
    let (Some(tag), Some(index)) = (report.result_tag.as_deref(), game.result_token) else {
        return;
    };
    let (Some(marker), Some(written)) = (
        game.result(),
        pgnkit_pgn::GameResult::from_bytes(tag.trim().as_bytes()),
    ) else {
        return;
    };
    if marker == written {
        return;
    }
    if report.ruling.is_none()
        && let Some(ruling) = certain
        && GameResult::from_tag(tag) == Some(ruling.result)
    {
        report.ruling = Some(ruling);
    }
    let span = game
        .tokens
        .get(index)
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::ResultMismatch,
        span,
        format!(
            "the Result tag says {}, but the moves end with the termination marker {}",
            written.as_str(),
            marker.as_str()
        ),
    );
    d.help.push(
        "the Result tag and the marker at the end of the moves must give the same result"
            .to_owned(),
    );
    found.push(d);
}

/// Whether a Termination tag says the game was lost on time (lichess writes
/// `Time forfeit`; other databases `time forfeit`, `lost on time`, `timeout`).
pub fn lost_on_time(termination: &str) -> bool {
    let t = termination.trim().to_ascii_lowercase();
    t.contains("time forfeit")
        || t.contains("time-forfeit")
        || t.contains("on time")
        || t.contains("timeout")
        || t.contains("time out")
        || t == "time"
        || t == "flag"
}

/// Law 6.9: a game lost on time is drawn when the opponent (the player the
/// Result tag gives the win) cannot checkmate by any series of legal moves.
/// Decided by [`dead::can_checkmate`], which is sound (it never calls a
/// side that could help-mate unable to); when its budget runs out, the
/// Result tag stands and the report counts the game as undecided.
fn time_forfeit(game: &Game<'_>, report: &mut GameReport, pos: &Chess, found: &mut Diagnostics) {
    if report.status != Status::Ongoing {
        return;
    }
    let Some(termination) = game.tag("Termination") else {
        return;
    };
    let termination = report.encoding.decode(&termination.value()).into_owned();
    if !lost_on_time(&termination) {
        return;
    }
    let Some(written) = report.result_tag.as_deref().and_then(GameResult::from_tag) else {
        return;
    };
    let winner = match written {
        GameResult::WhiteWins => Color::White,
        GameResult::BlackWins => Color::Black,
        GameResult::Draw => return,
    };
    // Insufficient material always; the search where the winner has
    // neither a queen nor a rook nor a pawn that can move.
    let verdict = if pos.has_insufficient_material(winner) {
        dead::Verdict::Unwinnable
    } else if dead::may_be_dead(pos) {
        dead::can_checkmate(pos, winner, dead::Budget::QUICK)
    } else {
        dead::Verdict::Undecided
    };
    match verdict {
        dead::Verdict::Unwinnable => {}
        dead::Verdict::Winnable(_) => return,
        // The search ran out of budget (counted), or did not run.
        dead::Verdict::Undecided => {
            report.dead_undecided = dead::may_be_dead(pos);
            return;
        }
    }
    report.result = Some(GameResult::Draw);
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    report.ruling = Some(Ruling {
        result: GameResult::Draw,
        reason: format!(
            "lost on time, but {} cannot checkmate by any series of legal moves (Law 6.9)",
            name(winner)
        ),
    });
    let span = game
        .tag("Result")
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::ResultMismatch,
        span,
        format!(
            "the game was lost on time ([Termination \"{}\"]) and the Result tag says {}, but {} cannot checkmate by any series of legal moves: under Law 6.9 the game is drawn, the result is 1/2-1/2",
            termination.trim(),
            written.as_str(),
            name(winner),
        ),
    );
    d.help.push("write [Result \"1/2-1/2\"]".to_owned());
    d.ply = Some(report.plies);
    found.push(d);
}
