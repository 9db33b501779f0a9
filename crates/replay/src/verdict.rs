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
    let end = std::mem::take(&mut pass.final_position);
    let pos = &end;
    // After a move that stood, the last position may be one no legal game
    // reaches: nothing that plays moves from it looks at it.
    let irregular = pass.book.irregular && !crate::illegal::regular(pos);
    let pass_auto = pass.book.automatic_end();
    let pass_dead = pass.book.dead_end();
    report.plies = pass.plies;
    report.claims = pass.book.claims();
    report.keys = pass.book.take_keys();
    report.moves = pass.main_moves;
    head.extend(pass.diagnostics);
    let flag = crate::clock_verdict::settle(game, report, pass.clocks, &mut head);
    let decided = rule_illegal_moves(game, report, &pass.stood);

    // A game of no moves from a set-up position is a position to judge:
    // the full analysis. The end of a played game gets the rules without a
    // search, so that a database is checked at full speed.
    let judged = report.plies == 0
        && outcome::position_key(&report.start) != outcome::position_key(&Chess::default());

    // The first of the automatic draws and the first dead position ends
    // the game (an automatic draw first when both come at one ply).
    let first_end = match (pass_auto, pass_dead) {
        (Some(auto), Some(dead)) => Some(if dead.1 < auto.1 { dead } else { auto }),
        (auto, dead) => auto.or(dead),
    };
    // The side the dead-position analysis of the final position showed
    // able to mate: Law 6.9 need not ask it again.
    let mut mater = None;
    report.status = if pass.failure.is_some() {
        Status::Invalid
    } else if let Some((status, _)) = first_end {
        status
    } else if irregular {
        Status::Ongoing
    } else {
        let budget = if judged {
            dead::Budget::FULL
        } else {
            dead::Budget::RULES
        };
        let last = outcome::final_status_within(pos, budget);
        report.dead_undecided = last.undecided;
        mater = last.mater;
        last.status
    };
    report.result = match report.status {
        Status::Checkmate => Some(GameResult::win_for(!pos.turn())),
        s => outcome::rule_result(s, pos.turn()),
    };

    // A definite Result tag must agree with a game the rules ended.
    // The rules drew the game automatically, or the position became dead,
    // before its last move: say so, and do not hold the players' result
    // against the final position.
    // A flag that fell ended the game there (Laws 6.1, 6.9), unless the
    // game ended before.
    let mut continued = crate::clock_verdict::flag_fell(game, report, flag, first_end, &mut head);
    // A second illegal move in standard play ended the game (Law 7.5.5),
    // unless the game had ended before.
    let decided = decided.filter(|d| {
        report.status != Status::FlagFell && first_end.is_none_or(|(_, ply)| ply >= d.ply)
    });
    if let Some(d) = &decided {
        report.status = Status::SecondIllegalMove;
        report.result = Some(d.result);
    }
    if let Some((status, ply)) = first_end
        && ply < report.plies
        && report.status == status
    {
        continued = true;
        head.push(moves_after_draw(game, report, status, ply));
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
        .or_else(|| game.result().map(|r| r.as_str().into()));
    if let (Some(rule), Some(tag), false) = (report.result, recorded.as_deref(), continued)
        && let Some(written) = GameResult::from_tag(tag)
        && written != rule
    {
        let span = crate::clock_verdict::record_span(game);
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
            Status::SecondIllegalMove => decided
                .as_ref()
                .map(|d| d.reason.clone())
                .unwrap_or_default(),
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
    let certain = match &decided {
        Some(d) => Some(Ruling {
            result: d.result,
            reason: d.reason.clone(),
        }),
        None => certain,
    };
    marker_mismatch(game, report, certain, &mut head);
    if !irregular {
        time_forfeit(game, report, pos, judged, mater, &mut head);
    }
    report.end = Some(end);
    (report.diagnostics, report.omitted) = head.into_parts();
    report.diagnostics.sort_by_key(|d| d.span.start);
}

/// The Laws' rulings on the moves of the game that stood (into
/// `report.rulings`), and where they end the game.
fn rule_illegal_moves(
    game: &Game<'_>,
    report: &mut GameReport,
    stood: &[crate::illegal::Stood],
) -> Option<crate::illegal::Decided> {
    if stood.is_empty() {
        return None;
    }
    let event = game
        .tag("Event")
        .map(|t| report.encoding.decode(&t.value()).into_owned());
    let pace = crate::illegal::Pace::of(report.time_control.as_ref(), event.as_deref());
    // The position before each move that stood, in one walk of the moves.
    let mut before = Vec::with_capacity(stood.len());
    let mut pos = report.start.clone();
    let mut played = 0u32;
    for s in stood {
        while played + 1 < s.ply {
            let Some(m) = report.moves.get(played as usize) else {
                break;
            };
            pos.play_unchecked(m.played);
            played += 1;
        }
        before.push(pos.clone());
    }
    let (rulings, decided) = crate::illegal::rule(stood, pace, &before);
    report.rulings = rulings;
    decided
}

/// The warning for moves played after the rules drew the game at `ply`
/// (a fivefold repetition, the 75-move rule, a dead position), `status`
/// saying which. The moves after are legal chess, played on after a draw
/// the players may not have noticed (or under rules before these Laws): a
/// warning, not a broken record.
fn moves_after_draw(game: &Game<'_>, report: &GameReport, status: Status, ply: u32) -> Diagnostic {
    let why = match status {
        Status::FivefoldRepetition => "the same position occurred for the fifth time (Law 9.6.1)",
        Status::SeventyfiveMoves => "75 moves passed without a capture or pawn move (Law 9.6.2)",
        Status::InsufficientMaterial => {
            "a dead position, neither side has the material to checkmate (Law 5.2.2)"
        }
        _ => {
            "a dead position, the pawns are locked and neither side can ever checkmate (Law 5.2.2)"
        }
    };
    let next = report.moves.get(ply as usize);
    let token = next.and_then(|m| game.tokens.get(m.token as usize));
    let span = token
        .as_ref()
        .map_or(game.span.start..game.span.start, |t| t.span.clone());
    let mut d = Diagnostic::new(
        Code::MovesAfterDraw,
        span,
        format!("the game went on after the rules drew it at ply {ply}: {why}"),
    );
    d.ply = Some(ply + 1);
    if matches!(status, Status::InsufficientMaterial | Status::DeadPosition) {
        // The position at `ply`: its side to move made the next move.
        let white_first = report.start.turn() == shakmaty::Color::White;
        let side = if ply.is_multiple_of(2) == white_first {
            Color::White
        } else {
            Color::Black
        };
        let before_white = u32::from(!white_first);
        d.move_number = Some(report.start.fullmoves().get() + (ply + before_white) / 2);
        d.side = Some(side);
        d.token = token.map(|t| {
            let word = report.encoding.decode(t.text);
            word.trim_start_matches(['.', '…']).to_owned()
        });
    }
    d.help.push(format!(
        "under the Laws the game ended there as a draw; the remaining {} plies were still checked",
        report.plies - ply
    ));
    d
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
/// `judged`: the game is a position to judge (no moves, set up), which gets
/// the full analysis; `mater`: a side already shown able to mate from
/// `pos`.
fn time_forfeit(
    game: &Game<'_>,
    report: &mut GameReport,
    pos: &Chess,
    judged: bool,
    mater: Option<Color>,
    found: &mut Diagnostics,
) {
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
    if mater == Some(winner) {
        return;
    }
    let verdict = dead::after_time_forfeit(pos, winner, judged);
    match verdict {
        dead::Verdict::Unwinnable => {}
        dead::Verdict::Winnable(_) => return,
        // The search ran out of budget: the Result tag stands, counted.
        dead::Verdict::Undecided => {
            report.dead_undecided = true;
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
