//! The position where a game goes wrong, ready to draw: the main-line
//! position before a ply, the move that led to it, arrows for the top
//! suggestions of the problem found there, and the moves written around it
//! (what `pgnkit show` prints and each card of `pgnkit report` draws).

use std::fmt::Write;

use pgnkit_board::{Arrow, Drawing, Glyphs, move_squares};
use pgnkit_pgn::Game;
use pgnkit_replay::{Diagnostic, GameReport, Suggestion};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};

use crate::render::{MAX_SHOWN, Suggestions};

/// A main-line position of a replayed game, with what to draw on it.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The ply about to be played (1-based; `plies + 1` after the last
    /// move).
    pub ply: u32,
    /// The position before it.
    pub position: Chess,
    /// The move that led to it.
    pub last: Option<Move>,
    /// Arrows for the suggested moves, best first.
    pub arrows: Vec<Arrow>,
}

impl Scene {
    /// The position before ply `ply` of `report`'s main line, where the
    /// replay reached it ([`GameReport::position_before`]).
    pub fn before(report: &GameReport, ply: u32) -> Option<Scene> {
        let (position, last) = report.position_before(ply)?;
        Some(Scene {
            ply,
            position,
            last,
            arrows: Vec::new(),
        })
    }

    /// The position a game's card shows: before the ply of its first
    /// main-line problem that has one, with arrows for that problem's
    /// suggestions (those `shown` picks); else the last position the
    /// replay reached. Gives the scene and the problem it is about.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    /// use pgnkit_report::position::Scene;
    /// use pgnkit_report::render::Suggestions;
    /// use shakmaty::Square;
    ///
    /// let pgn = b"1. e4 e5 2. Nf4 Nc6 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// let (scene, problem) = Scene::of_game(&report, Suggestions::Best);
    /// assert_eq!(scene.ply, 3);
    /// assert_eq!(problem.map(|d| d.code.as_str()), Some("illegal-move"));
    /// // did you mean Nf3?
    /// assert_eq!((scene.arrows[0].from, scene.arrows[0].to), (Square::G1, Square::F3));
    /// ```
    pub fn of_game(report: &GameReport, shown: Suggestions) -> (Scene, Option<&Diagnostic>) {
        let found = report
            .diagnostics
            .iter()
            .find_map(|d| Some((Scene::of_problem(report, d, shown)?, d)));
        match found {
            Some((scene, d)) => (scene, Some(d)),
            None => {
                let end = u32::try_from(report.moves.len())
                    .unwrap_or(u32::MAX)
                    .saturating_add(1);
                let scene = Scene::before(report, end).unwrap_or(Scene {
                    ply: 1,
                    position: report.start.clone(),
                    last: None,
                    arrows: Vec::new(),
                });
                (scene, None)
            }
        }
    }

    /// The position before the ply of `d`, a problem of `report`'s main
    /// line, with arrows for the suggestions `shown` picks (for a
    /// `result-mismatch`, the last position); `None` for a problem without
    /// a ply, in a variation, or beyond the main line replayed.
    pub fn of_problem(report: &GameReport, d: &Diagnostic, shown: Suggestions) -> Option<Scene> {
        if d.variation {
            return None;
        }
        if d.code == pgnkit_replay::Code::ResultMismatch {
            // About the result of the whole game: the last position.
            let end = u32::try_from(report.moves.len()).ok()?.checked_add(1)?;
            return Scene::before(report, end);
        }
        if d.stood {
            // A move that stood: the board it made, the move highlighted.
            return Scene::before(report, d.ply?.checked_add(1)?);
        }
        let mut scene = Scene::before(report, d.ply?)?;
        scene.arrows = arrows(&scene.position, scene.ply, d, shown);
        Some(scene)
    }

    /// The last position the replay reached, where the rules end the game
    /// ([`pgnkit_replay::Status::law`]): the board of a checkmate, a
    /// stalemate, a dead position, or of a game drawn by rule.
    pub fn ending(report: &GameReport) -> Option<Scene> {
        report.status.law()?;
        let end = u32::try_from(report.moves.len()).ok()?.checked_add(1)?;
        Scene::before(report, end)
    }

    /// The position in which the first draw of `report` became claimable
    /// ([`pgnkit_replay::Claim::ply`]), with an arrow for the move to
    /// declare, if any; and how the claim is made (`threefold repetition
    /// (Law 9.2), by declaring Nf3`).
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    /// use pgnkit_report::position::Scene;
    ///
    /// let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// let (scene, how) = Scene::claim(&report).unwrap();
    /// // After 4. Ng1, Black claims by declaring Ng8: the start position a third time.
    /// assert_eq!(how, "threefold repetition (Law 9.2), by declaring Ng8");
    /// assert_eq!(scene.ply, 8); // the position after 7 plies, before the 8th
    /// assert_eq!(scene.arrows.len(), 1);
    /// ```
    pub fn claim(report: &GameReport) -> Option<(Scene, String)> {
        let claim = report.claims.first()?;
        let mut scene = Scene::before(report, claim.ply.checked_add(1)?)?;
        let rule = match claim.kind {
            pgnkit_replay::ClaimKind::Threefold => "threefold repetition (Law 9.2)",
            pgnkit_replay::ClaimKind::FiftyMoves => {
                "50 moves without a capture or pawn move (Law 9.3)"
            }
        };
        let how = match &claim.by_move {
            Some(m) => {
                let played = San::from_ascii(m.san.as_bytes())
                    .ok()
                    .and_then(|san| san.to_move(&scene.position).ok());
                scene.arrows = played
                    .as_ref()
                    .and_then(move_squares)
                    .map(|(from, to)| Arrow::new(from, to))
                    .into_iter()
                    .collect();
                format!("{rule}, by declaring {}", m.san)
            }
            None => rule.to_owned(),
        };
        Some((scene, how))
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The move number of the ply about to be played.
    pub fn move_number(&self) -> u32 {
        self.position.fullmoves().get()
    }

    /// "Before 19... (ply 37), Black to move": where the scene stands.
    pub fn caption(&self) -> String {
        let dots = match self.turn() {
            Color::White => ".",
            Color::Black => "...",
        };
        let side = match self.turn() {
            Color::White => "White",
            Color::Black => "Black",
        };
        format!(
            "before {}{dots} (ply {}), {side} to move",
            self.move_number(),
            self.ply
        )
    }

    /// How to draw it: from the side to move, the last move highlighted,
    /// the arrows.
    pub fn drawing(&self) -> Drawing {
        Drawing {
            orientation: self.turn(),
            last_move: self.last.as_ref().and_then(move_squares),
            arrows: self.arrows.clone(),
            coordinates: true,
        }
    }

    /// The board as SVG ([`pgnkit_board::svg`]).
    pub fn svg(&self) -> String {
        pgnkit_board::svg(self.position.board(), &self.drawing())
    }

    /// The board as text ([`pgnkit_board::text`]).
    pub fn text(&self, glyphs: Glyphs, color: bool) -> String {
        pgnkit_board::text(self.position.board(), &self.drawing(), glyphs, color)
    }
}

/// The arrows of the suggestions of `d` that `shown` picks (the top one
/// and those as good as it, at most [`MAX_SHOWN`]) that play a move from
/// `position`, the position before ply `ply`.
fn arrows(position: &Chess, ply: u32, d: &Diagnostic, shown: Suggestions) -> Vec<Arrow> {
    let picked = d
        .suggestions
        .iter()
        .enumerate()
        .filter(|(i, s)| match shown {
            Suggestions::None => false,
            Suggestions::Best => *i == 0 || s.rank().best,
            Suggestions::All => true,
        })
        .map(|(_, s)| s)
        .take(MAX_SHOWN);
    picked
        .filter_map(|s| {
            let san = match s {
                Suggestion::Replace { san, .. } => san,
                Suggestion::Insert { ply: at, san, .. } if *at == ply => san,
                Suggestion::Swap { ply: at, san, .. } if *at == ply => &san[0],
                _ => return None,
            };
            let m = San::from_ascii(san.as_bytes())
                .ok()?
                .to_move(position)
                .ok()?;
            let (from, to) = move_squares(&m)?;
            Some(Arrow::new(from, to))
        })
        .collect()
}

/// The main-line moves as written around ply `ply`, `width` plies either
/// side, with move numbers, the one of `ply` in brackets: `17. Nf3 Nc6 18.
/// [Ke3] Bb5`. Where the main line stops before `ply` (the move at `ply`
/// could not be played), `token` (that move as written) stands for it.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Options, replay_game};
/// use pgnkit_report::position::moves_around;
///
/// let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let report = replay_game(pgn, &game, &Options::default());
/// assert_eq!(moves_around(&game, &report, 4, 2, None), "1... e5 2. Nf3 [Nc6] 3. Bb5 a6");
/// ```
pub fn moves_around(
    game: &Game<'_>,
    report: &GameReport,
    ply: u32,
    width: u32,
    token: Option<&str>,
) -> String {
    let first = ply.saturating_sub(width).max(1);
    let last = ply.saturating_add(width);
    let (start_number, black_first) = (
        report.start.fullmoves().get(),
        report.start.turn() == Color::Black,
    );
    let mut s = String::new();
    for p in first..=last {
        let index = usize::try_from(p - 1).unwrap_or(usize::MAX);
        let written = match report.moves.get(index) {
            Some(m) => game
                .tokens
                .get(usize::try_from(m.token).unwrap_or(usize::MAX))
                .map(|t| report.encoding.decode(t.text).into_owned()),
            None if p == ply => token.map(str::to_owned),
            None => None,
        };
        let Some(written) = written else {
            break;
        };
        // Plies counted from the start position's side to move.
        let offset = (p - 1).saturating_add(u32::from(black_first));
        let number = start_number.saturating_add(offset / 2);
        let white = offset % 2 == 0;
        if !s.is_empty() {
            s.push(' ');
        }
        if white {
            let _ = write!(s, "{number}. ");
        } else if p == first {
            let _ = write!(s, "{number}... ");
        }
        if p == ply {
            let _ = write!(s, "[{written}]");
        } else {
            s.push_str(&written);
        }
    }
    s
}
