//! The verdict of a game's clock: the clocks judged into the game's
//! report, a flag that fell ending the game (Laws 6.1 and 6.9), and the
//! one test of Law 6.9 (whether the player who wins on time can
//! checkmate), which a loss on time told by the Termination tag takes too.

use pgnkit_pgn::Game;

use crate::dead;

/// The full replay's judgement of the clocks `reader` read: the game's
/// time control and clocks into `report`, their diagnostics into `found`;
/// the flag that fell, if any.
pub(crate) fn settle(
    game: &pgnkit_pgn::Game<'_>,
    report: &mut crate::GameReport,
    reader: crate::clock::Reader,
    found: &mut crate::Diagnostics,
) -> Option<crate::clock::Flag> {
    let tag = game.tag("TimeControl").map(|t| {
        (
            report.encoding.decode(&t.value()).into_owned(),
            t.span.clone(),
        )
    });
    let control =
        crate::clock::checks::control_of(tag.as_ref().map(|(v, s)| (v.as_str(), s.clone())));
    let move_token = |ply: u32| -> Option<usize> {
        let i = usize::try_from(ply.checked_sub(1)?).ok()?;
        usize::try_from(report.moves.get(i)?.token).ok()
    };
    let judged = crate::clock::checks::judge(
        control,
        reader,
        crate::clock::checks::Start::of(&report.start),
        report.plies,
        &|ply| game.tokens.span(move_token(ply)?),
        &|ply| crate::clock::clk_span(game, move_token(ply)?, move_token(ply + 1)),
    );
    report.time_control = judged.control;
    report.clocks = judged.clocks;
    for d in judged.found {
        found.push(d);
    }
    judged.flag
}

/// A flag that fell ends the game at its ply (Laws 6.1, 6.9), unless the
/// game ended before (an automatic draw `auto`, a dead position): the
/// player loses, or draws when the opponent cannot checkmate by any series
/// of legal moves from the position where the flag fell. Sets the status
/// and the result, says so (`clock-flag`, a warning), and where the record
/// gives another result, that is a `result-mismatch` error. Returns whether
/// the flag decided the game.
pub(crate) fn flag_fell(
    game: &pgnkit_pgn::Game<'_>,
    report: &mut crate::GameReport,
    flag: Option<crate::clock::Flag>,
    auto: Option<(crate::Status, u32)>,
    found: &mut crate::Diagnostics,
) -> bool {
    use crate::outcome::{GameResult, Ruling, Status};
    use crate::{Code, Diagnostic};
    let Some(flag) = flag else {
        return false;
    };
    if report.status == Status::Invalid || auto.is_some_and(|(_, ply)| ply < flag.ply) {
        return false;
    }
    // The flag fell before the move was completed: in the position before it.
    let Some((pos, _)) = report.position_before(flag.ply) else {
        return false;
    };
    if !crate::illegal::regular(&pos) {
        return false;
    }
    if crate::outcome::static_dead_status(&pos).is_some() {
        return false;
    }
    let winner = !flag.side;
    let (result, why) = match dead::after_time_forfeit(&pos, winner, false) {
        dead::Verdict::Unwinnable => (
            GameResult::Draw,
            format!(
                "drawn, since {} cannot checkmate by any series of legal moves (Law 6.9)",
                crate::diagnostic::side_name(winner)
            ),
        ),
        verdict => {
            if verdict == dead::Verdict::Undecided {
                report.dead_undecided = true;
            }
            (
                GameResult::win_for(winner),
                format!(
                    "{} wins on time (Law 6.9)",
                    crate::diagnostic::side_name(winner)
                ),
            )
        }
    };
    report.status = Status::FlagFell;
    report.result = Some(result);
    let side = flag.side;
    let mut d = Diagnostic::new(
        Code::ClockFlag,
        flag.span.clone(),
        format!(
            "{}'s clock shows {} after move {}, less than the {} increment: the flag fell before the move was completed (Law 6.1)",
            crate::clock::checks::capitalized(side),
            flag.clock,
            flag.move_number,
            flag.increment
        ),
    );
    d.help.push(format!(
        "under the Laws the game ended there: {why}, {}",
        result.as_str()
    ));
    if flag.ply < report.plies {
        d.help.push(format!(
            "the {} plies after it were still checked",
            report.plies - flag.ply
        ));
    }
    d.ply = Some(flag.ply);
    d.move_number = Some(flag.move_number);
    d.side = Some(side);
    d.token = Some(format!("[%clk {}]", flag.clock));
    found.push(d);
    let recorded = report
        .result_tag
        .clone()
        .or_else(|| game.result().map(|r| r.as_str().into()));
    if let Some(tag) = recorded.as_deref()
        && let Some(written) = GameResult::from_tag(tag)
        && written != result
    {
        report.ruling = Some(Ruling {
            result,
            reason: format!(
                "{}'s flag fell at move {} (Laws 6.1, 6.9): {why}",
                crate::clock::checks::capitalized(side),
                flag.move_number
            ),
        });
        let mut d = Diagnostic::new(
            Code::ResultMismatch,
            record_span(game),
            format!(
                "the game is recorded as {}, but {}'s flag fell at move {}: {why}; the result is {}",
                tag.trim(),
                crate::clock::checks::capitalized(side),
                flag.move_number,
                result.as_str()
            ),
        );
        d.help
            .push(format!("write [Result \"{}\"]", result.as_str()));
        d.ply = Some(flag.ply);
        found.push(d);
    }
    true
}

/// Where the record gives the result: the Result tag, or else the
/// termination marker.
pub(crate) fn record_span(game: &Game<'_>) -> std::ops::Range<usize> {
    match game.tag("Result") {
        Some(t) => t.span.clone(),
        None => game
            .tokens
            .iter()
            .rev()
            .find(|t| matches!(t.kind, pgnkit_pgn::TokenKind::Result(_)))
            .map_or(game.span.start..game.span.start, |t| t.span.clone()),
    }
}
