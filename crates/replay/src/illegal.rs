//! Illegal moves that stood, and the Laws' rulings on them.
//!
//! By default an illegal move ends the replay of its line: the position
//! after it is unknown. A game is often played on, though: in rapid and
//! blitz an illegal move stands once the opponent has made a move
//! (Appendices A.4.2 and B.3), and a board-fed broadcast shows whatever
//! was played. With [`IllegalMoves::Stand`] a main-line move whose piece
//! the token names ([`MoveToken::resolve_as_played`]) is played as written,
//! reported as an `illegal-move` that stood, and the replay goes on.
//!
//! Each player's illegal moves are then ruled on as the Laws do, by the
//! pace of play ([`Pace`], from the TimeControl tag or the Event):
//!
//! - standard play (7.5.1, 7.5.5): the position before the move should
//!   have been restored and the opponent given two minutes; the second
//!   completed illegal move by the same player loses the game, unless the
//!   opponent cannot checkmate by any series of legal moves (then drawn);
//! - rapid and blitz (A.4.2, B.3): the opponent could have claimed the win
//!   before making their move (a draw if they could not checkmate); once
//!   they moved, the move stood.
//!
//! A position after a move that stood may be one no legal game reaches (a
//! king left in check): [`regular`] says whether the analyses that play
//! moves from it may look at it.
//!
//! [`MoveToken::resolve_as_played`]: pgnkit_notation::MoveToken::resolve_as_played
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{IllegalMoves, Options, replay_game};
//!
//! // Black's bishop jumps over its own pawn; the game goes on.
//! let pgn = b"[TimeControl \"180+2\"]\n\n1. e4 Bc5 2. Nf3 Nc6 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let options = Options {
//!     illegal_moves: IllegalMoves::Stand,
//!     ..Options::default()
//! };
//! let report = replay_game(pgn, &game, &options);
//! assert_eq!(report.plies, 4);
//! assert!(report.diagnostics[0].stood);
//! assert_eq!(report.rulings[0].article, "B.3"); // 180+2 is blitz
//! ```

use std::fmt;
use std::str::FromStr;

use pgnkit_notation::LanguageSet;
use serde::Serialize;
use shakmaty::{Chess, Color};

use crate::clock::checks::capitalized;
use crate::clock::{Kind, TimeControl};
use crate::dead;
use crate::diagnostic::side_name;
use crate::outcome::GameResult;
pub use crate::outcome::regular;

/// What the replay does with an illegal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IllegalMoves {
    /// The line ends at its first illegal move (the position after it is
    /// unknown).
    #[default]
    Stop,
    /// A main-line move whose piece the token names is played as written,
    /// reported as having stood, and the replay goes on.
    Stand,
}

impl IllegalMoves {
    /// `stop` or `stand`.
    pub fn as_str(self) -> &'static str {
        match self {
            IllegalMoves::Stop => "stop",
            IllegalMoves::Stand => "stand",
        }
    }
}

impl FromStr for IllegalMoves {
    type Err = String;

    fn from_str(s: &str) -> Result<IllegalMoves, String> {
        match s {
            "stop" => Ok(IllegalMoves::Stop),
            "stand" => Ok(IllegalMoves::Stand),
            other => Err(format!("`{other}` is neither `stop` nor `stand`")),
        }
    }
}

impl fmt::Display for IllegalMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The pace of play the Laws judge a game under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Known from the TimeControl tag, or named in the Event.
    Known(Kind),
    /// Neither says.
    Unknown,
}

impl Pace {
    /// The pace of a game: its time control's kind, else the one its Event
    /// names (`Blitz`, `Rapid`, `Bullet`, `Classical`), else unknown.
    ///
    /// ```
    /// use pgnkit_replay::clock::Kind;
    /// use pgnkit_replay::illegal::Pace;
    ///
    /// let tc = "600+0".parse().ok();
    /// assert_eq!(Pace::of(tc.as_ref(), None), Pace::Known(Kind::Blitz));
    /// assert_eq!(Pace::of(None, Some("World Rapid 2025")), Pace::Known(Kind::Rapid));
    /// assert_eq!(Pace::of(None, Some("Olympiad")), Pace::Unknown);
    /// ```
    pub fn of(control: Option<&TimeControl>, event: Option<&str>) -> Pace {
        if let Some(kind) = control.and_then(TimeControl::kind) {
            return Pace::Known(kind);
        }
        let event = event.unwrap_or_default().to_ascii_lowercase();
        let named = event
            .split(|c: char| !c.is_ascii_alphabetic())
            .find_map(|word| match word {
                "blitz" | "bullet" | "armageddon" => Some(Kind::Blitz),
                "rapid" | "rapidplay" => Some(Kind::Rapid),
                "classical" | "standard" => Some(Kind::Standard),
                _ => None,
            });
        named.map_or(Pace::Unknown, Pace::Known)
    }
}

/// A ruling the Laws give on a game, naming its article.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LawRuling {
    /// The article: `7.5.5`, `A.4.2`, `B.3`.
    pub article: &'static str,
    /// The ply of the move ruled on.
    pub ply: u32,
    /// The player who made it.
    #[serde(serialize_with = "serialize_side")]
    pub side: Color,
    /// The ruling in a sentence.
    pub text: String,
}

fn serialize_side<S: serde::Serializer>(side: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(side_name(*side))
}

/// A main-line move that stood though illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stood {
    /// Its ply.
    pub ply: u32,
    /// Who played it.
    pub side: Color,
    /// The other languages that read its word as a legal move there: the
    /// game may be in one of them.
    pub foreign: LanguageSet,
}

/// What the rulings decide of the game: it ended at `ply` with `result`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decided {
    pub ply: u32,
    pub result: GameResult,
    pub reason: String,
}

/// The rulings on the moves that stood, each from the position before it
/// (`before`, in the same order), under `pace`; and, where the rules end
/// the game (the second completed illegal move by one player in standard
/// play), where and how.
pub(crate) fn rule(
    stood: &[Stood],
    pace: Pace,
    before: &[Chess],
) -> (Vec<LawRuling>, Option<Decided>) {
    let mut rulings = Vec::with_capacity(stood.len());
    let mut decided = None;
    let mut count = [0u32; 2];
    // The opponent cannot checkmate the player's king: then drawn (as
    // after a flag fall, Law 6.9).
    let unwinnable = |i: usize, winner: Color| {
        before.get(i).is_some_and(|pos| {
            regular(pos)
                && matches!(
                    dead::after_time_forfeit(pos, winner, false),
                    dead::Verdict::Unwinnable
                )
        })
    };
    for (i, s) in stood.iter().enumerate() {
        let (player, opponent) = (capitalized(s.side), capitalized(!s.side));
        let n = &mut count[usize::from(s.side == Color::Black)];
        *n += 1;
        match pace {
            Pace::Known(Kind::Standard) if decided.is_some() => rulings.push(LawRuling {
                article: "7.5.5",
                ply: s.ply,
                side: s.side,
                text: format!(
                    "{player}'s illegal move after the game had ended under 7.5.5: play went on, the result stands"
                ),
            }),
            Pace::Known(Kind::Standard) if *n == 1 => rulings.push(LawRuling {
                article: "7.5.5",
                ply: s.ply,
                side: s.side,
                text: format!(
                    "{player}'s first completed illegal move: the position before it should have been restored (7.5.1) and {opponent} given two minutes more"
                ),
            }),
            Pace::Known(Kind::Standard) => {
                let drawn = unwinnable(i, !s.side);
                let result = if drawn {
                    GameResult::Draw
                } else {
                    GameResult::win_for(!s.side)
                };
                let text = if drawn {
                    format!(
                        "{player}'s second completed illegal move would lose, but {opponent} cannot checkmate by any series of legal moves: the game is drawn"
                    )
                } else {
                    format!("{player}'s second completed illegal move loses the game: {opponent} wins")
                };
                if decided.is_none() {
                    decided = Some(Decided {
                        ply: s.ply,
                        result,
                        reason: format!("{text} (Law 7.5.5)"),
                    });
                }
                rulings.push(LawRuling {
                    article: "7.5.5",
                    ply: s.ply,
                    side: s.side,
                    text,
                });
            }
            Pace::Known(kind @ (Kind::Rapid | Kind::Blitz)) => {
                let claim = if unwinnable(i, !s.side) {
                    "a draw, as they could not checkmate by any series of legal moves"
                } else {
                    "the win"
                };
                rulings.push(LawRuling {
                    article: if kind == Kind::Rapid { "A.4.2" } else { "B.3" },
                    ply: s.ply,
                    side: s.side,
                    text: format!(
                        "{opponent} could have claimed {claim} before making their move; once they moved, {player}'s illegal move stood"
                    ),
                });
            }
            Pace::Unknown => rulings.push(LawRuling {
                article: "7.5",
                ply: s.ply,
                side: s.side,
                text: format!(
                    "the pace of play is unknown (no TimeControl tag, no rapid or blitz Event): in standard play the position would have been restored (7.5.1), in rapid and blitz the move stood once {opponent} moved (A.4.2, B.3)"
                ),
            }),
        }
    }
    (rulings, decided)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    // The articles and their outcomes are the FIDE Laws' (7.5.5, A.4.2,
    // B.3), as the module docs quote them; positions are the start.

    fn stood(plies: &[(u32, Color)]) -> Vec<Stood> {
        plies
            .iter()
            .map(|&(ply, side)| Stood {
                ply,
                side,
                foreign: LanguageSet::EMPTY,
            })
            .collect()
    }

    #[test]
    fn the_second_illegal_move_by_one_player_loses_in_standard_play() {
        let moves = stood(&[(3, Color::White), (6, Color::Black), (9, Color::White)]);
        let start = vec![Chess::default(); moves.len()];
        let (rulings, decided) = rule(&moves, Pace::Known(Kind::Standard), &start);
        assert_eq!(rulings.len(), 3);
        assert!(rulings.iter().all(|r| r.article == "7.5.5"));
        let decided = decided.expect("the second by White decides");
        assert_eq!((decided.ply, decided.result), (9, GameResult::BlackWins));
    }

    #[test]
    fn a_move_after_the_game_was_lost_is_told_so_and_an_unknown_pace_gives_both_readings() {
        let moves = stood(&[(3, Color::White), (5, Color::White), (7, Color::White)]);
        let start = vec![Chess::default(); moves.len()];
        let (rulings, decided) = rule(&moves, Pace::Known(Kind::Standard), &start);
        assert_eq!(
            decided.map(|d| d.ply),
            Some(5),
            "the second decides, not the third"
        );
        assert!(
            rulings[2].text.contains("after the game had ended"),
            "{}",
            rulings[2].text
        );
        let (rulings, decided) = rule(&moves[..1], Pace::Unknown, &start);
        assert_eq!((rulings[0].article, decided), ("7.5", None));
        assert!(
            rulings[0].text.contains("A.4.2, B.3"),
            "{}",
            rulings[0].text
        );
    }

    #[test]
    fn in_rapid_and_blitz_the_move_stands() {
        let moves = stood(&[(3, Color::White), (5, Color::White)]);
        let start = vec![Chess::default(); moves.len()];
        let (rulings, decided) = rule(&moves, Pace::Known(Kind::Blitz), &start);
        assert_eq!(decided, None);
        assert_eq!(rulings[1].article, "B.3");
        let (rulings, _) = rule(&moves, Pace::Known(Kind::Rapid), &start);
        assert_eq!(rulings[0].article, "A.4.2");
    }

    #[test]
    fn a_king_left_in_check_is_no_regular_position() {
        assert!(regular(&Chess::default()));
        let mut played = Chess::default();
        for m in ["e4", "f5", "Qh5"] {
            let san: shakmaty::san::San = m.parse().expect("san");
            let mv = san.to_move(&played).expect("legal");
            played.play_unchecked(mv);
        }
        // Black walks into the queen's check: illegal, played unchecked.
        played.play_unchecked(shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::G7,
            capture: None,
            to: shakmaty::Square::G6,
            promotion: None,
        });
        assert!(regular(&played), "g6 blocks the check: legal");
        let mut into_check = Chess::default();
        for m in ["e4", "f6", "Qh5"] {
            let san: shakmaty::san::San = m.parse().expect("san");
            let mv = san.to_move(&into_check).expect("legal");
            into_check.play_unchecked(mv);
        }
        // Black's h-pawn moves and the king is still in check from h5.
        into_check.play_unchecked(shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::A7,
            capture: None,
            to: shakmaty::Square::A6,
            promotion: None,
        });
        assert!(!regular(&into_check));
    }
}
