//! A game's clocks drawn: both players' time left move by move, as an
//! inline SVG for `pgnkit report`'s cards, with the moves by which each
//! period of the control had to be made marked, and the time each player
//! used, in words.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//! use pgnkit_report::clock_chart;
//!
//! let pgn = b"[TimeControl \"2/5400:1800\"]\n\n1. e4 { [%clk 1:29:00] } e5 { [%clk 1:28:00] } 2. Nf3 { [%clk 1:50:00] } Nc6 { [%clk 1:40:00] } *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let svg = clock_chart::svg(&report).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains("class=\"white\""));
//! // Move 2 ends the first period: the clocks show its 30 minutes.
//! assert!(svg.contains("class=\"period\""));
//! assert!(clock_chart::summary(&report).unwrap().contains("White used 0:10:00"));
//! ```

use std::fmt::Write as _;

use pgnkit_replay::GameReport;
use pgnkit_replay::clock::{Start, Time, usage};
use shakmaty::Color;

const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 160.0;
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 18.0;

/// The chart of `report`'s clocks (`None` for a game without `%clk`):
/// one line a player (`class="white"`, `class="black"`), time left against
/// the move number, the end of each period of moves a dashed line.
pub fn svg(report: &GameReport) -> Option<String> {
    let clk = report.clocks.clk();
    if clk.iter().all(Option::is_none) {
        return None;
    }
    let start = Start::of(&report.start);
    let points = |side: Color| -> Vec<(u32, Time)> {
        (1..=report.plies)
            .filter(|&p| start.side(p) == side)
            .filter_map(|p| Some((start.number(p), report.clocks.clk_at(p)?)))
            .collect()
    };
    let (white, black) = (points(Color::White), points(Color::Black));
    let last_move = start.number(report.plies).max(start.number + 1);
    let first_move = start.number;
    let top = clk
        .iter()
        .flatten()
        .max()
        .copied()
        .unwrap_or(Time::ZERO)
        .max(
            report
                .time_control
                .as_ref()
                .and_then(|c| c.base())
                .unwrap_or(Time::ZERO),
        )
        .max(Time::from_seconds(1));
    let x = |number: u32| {
        LEFT + (WIDTH - LEFT - 8.0) * f64::from(number - first_move)
            / f64::from((last_move - first_move).max(1))
    };
    let y = |t: Time| 6.0 + (HEIGHT - BOTTOM - 6.0) * (1.0 - t.seconds() / top.seconds());
    let mut s = String::with_capacity(4096);
    let _ = write!(
        s,
        "<svg class=\"clocks\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\"><title>Time left on each player's clock, move by move</title>"
    );
    let axis = HEIGHT - BOTTOM;
    let _ = write!(
        s,
        "<line x1=\"{LEFT}\" y1=\"{axis}\" x2=\"{}\" y2=\"{axis}\" stroke=\"#888\"/><line x1=\"{LEFT}\" y1=\"6\" x2=\"{LEFT}\" y2=\"{axis}\" stroke=\"#888\"/>",
        WIDTH - 8.0
    );
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">{top}</text><text x=\"{}\" y=\"{axis}\" font-size=\"10\" text-anchor=\"end\">0</text>",
        LEFT - 3.0,
        12.0,
        LEFT - 3.0
    );
    let _ = write!(
        s,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"10\">move {first_move}</text><text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">move {last_move}</text>",
        HEIGHT - 4.0,
        WIDTH - 8.0,
        HEIGHT - 4.0
    );
    // The moves by which each period of moves had to be made.
    if let Some(tc) = &report.time_control {
        let mut by = 0u32;
        for period in tc.periods() {
            let Some(moves) = period.moves else {
                break;
            };
            by = by.saturating_add(moves);
            if by > last_move {
                break;
            }
            if by >= first_move {
                let px = x(by);
                let _ = write!(
                    s,
                    "<line class=\"period\" x1=\"{px:.1}\" y1=\"6\" x2=\"{px:.1}\" y2=\"{axis}\" stroke=\"#c60\" stroke-dasharray=\"4 3\"/><text x=\"{:.1}\" y=\"16\" font-size=\"10\" fill=\"#c60\">move {by}</text>",
                    px + 2.0
                );
            }
        }
    }
    for (class, colour, line) in [("white", "#3a7bd5", &white), ("black", "#222", &black)] {
        if line.is_empty() {
            continue;
        }
        let path: Vec<String> = line
            .iter()
            .map(|&(n, t)| format!("{:.1},{:.1}", x(n), y(t)))
            .collect();
        let _ = write!(
            s,
            "<polyline class=\"{class}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/>",
            path.join(" ")
        );
    }
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"28\" font-size=\"10\" fill=\"#3a7bd5\">White</text><text x=\"{}\" y=\"40\" font-size=\"10\" fill=\"#222\">Black</text></svg>",
        WIDTH - 60.0,
        WIDTH - 60.0
    );
    Some(s)
}

/// How each player used their time, in words: `White used 0:41:10, 3
/// moves in time trouble (under 0:05:00); Black used …` (`None` for a game
/// without clock commands).
pub fn summary(report: &GameReport) -> Option<String> {
    let u = usage(
        report.time_control.as_ref(),
        &report.clocks,
        Start::of(&report.start),
    )?;
    let mut parts = Vec::new();
    for (name, side) in [("White", &u.white), ("Black", &u.black)] {
        let mut part = match side.used {
            Some(t) => format!("{name} used {t}"),
            None => format!("{name}'s time used is not known"),
        };
        if !side.trouble.is_empty() {
            let _ = write!(
                part,
                ", {} moves in time trouble (under {})",
                side.trouble.len(),
                u.trouble_below
            );
        }
        parts.push(part);
    }
    let mut text = parts.join("; ");
    if let Some(tc) = &report.time_control {
        let _ = write!(text, "; control {tc}");
        if let Some(kind) = tc.kind() {
            let _ = write!(text, " ({})", kind.as_str());
        }
    }
    Some(text)
}
