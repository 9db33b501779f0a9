//! One game's replay: what to ask of it ([`Options`], [`Detail`]) and what
//! it finds ([`GameReport`]); the steps are [`crate::play`]'s.

use std::borrow::Cow;

use pgnkit_notation::Language;
use shakmaty::{Chess, Position};

use crate::diagnostic::{Diagnostic, Omitted};
use crate::illegal::{IllegalMoves, LawRuling};
use crate::movetext;
use crate::outcome::{Claim, GameResult, Ruling, Status};
use crate::text::Encoding;

/// How to replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// Read piece letters in this language only (plus English SAN); `None`
    /// chooses per game the language under which the whole game replays,
    /// or, for a game with errors, the one its piece letters speak for
    /// that leaves the fewest errors once each is repaired (so that one
    /// slip early in a game does not change its language).
    pub language: Option<Language>,
    /// Look for what the writer probably meant at each error (scoresheet
    /// repair). Costs a little time on games with errors only.
    pub suggestions: bool,
    /// What the caller needs of the report.
    pub detail: Detail,
    /// What an illegal main-line move does: end the line (the default) or
    /// stand, as the Laws let it in rapid and blitz
    /// ([`illegal`](crate::illegal)).
    pub illegal_moves: IllegalMoves,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            language: None,
            suggestions: true,
            detail: Detail::Full,
            illegal_moves: IllegalMoves::Stop,
        }
    }
}

/// What a caller needs of a [`GameReport`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Everything: every diagnostic, the claims, the Zobrist keys.
    #[default]
    Full,
    /// The errors, the status and result, the plies, and the moves shown
    /// to the [`Visitor`](crate::Visitor) (what a converter needs): a game without error
    /// may then be reported without its warnings, its
    /// [`claims`](GameReport::claims), its [`keys`](GameReport::keys) and
    /// its main-line [`moves`](GameReport::moves) (and its
    /// [`MoveEvent::key`](crate::MoveEvent::key)s are `None`). Plain games (standard
    /// start, UTF-8, English SAN, no error) are then replayed by a faster
    /// lane; everything else as with [`Detail::Full`]. With a forced
    /// [`Options::language`] other than English, the same as `Full`.
    Errors,
    /// What `check` prints without `--games`: every diagnostic (errors and
    /// warnings, kept and omitted), the plies, the status and result, the
    /// main-line moves, and whether a dead-position search ran out of
    /// budget, all as with [`Detail::Full`]; the
    /// [`claims`](GameReport::claims) and [`keys`](GameReport::keys) may be
    /// left empty (and [`MoveEvent::key`](crate::MoveEvent::key)s `None`). Plain games (as for
    /// [`Detail::Errors`]) without any diagnostic are then replayed by the
    /// faster lane. With a forced [`Options::language`] other than English,
    /// the same as `Full`.
    Diagnostics,
    /// What an index needs: the errors (counted as with [`Detail::Full`]),
    /// the plies, the status and result, the main-line moves and the
    /// [`keys`](GameReport::keys) of every main-line position, as with
    /// `Full`; a game without error may then be reported without its
    /// warnings and its [`claims`](GameReport::claims) (and its
    /// [`MoveEvent::key`](crate::MoveEvent::key)s are `None`). Plain games are replayed by the
    /// faster lane, as for [`Detail::Errors`]. With a forced
    /// [`Options::language`] other than English, the same as `Full`.
    Keys,
}

/// Everything the replay found out about one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Problems, in the order of the tokens they are about: the first
    /// [`diagnostic::MAX_PER_GAME`](crate::diagnostic::MAX_PER_GAME) errors and as many warnings found.
    pub diagnostics: Vec<Diagnostic>,
    /// The problems found beyond those, counted only.
    pub omitted: Omitted,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The game's status per the Laws.
    pub status: Status,
    /// What the rules give (`None` where they give nothing).
    pub result: Option<GameResult>,
    /// The Result tag as written (borrowed for the four results PGN
    /// writes, `1-0`, `0-1`, `1/2-1/2` and `*`: no allocation a game).
    pub result_tag: Option<Cow<'static, str>>,
    /// The result the rules decide for certain, where a `result-mismatch`
    /// says the record (Result tag or termination marker) disagrees with
    /// it; `None` where the rules decide nothing, or the record agrees.
    pub ruling: Option<Ruling>,
    /// Every draw a player could have claimed, first ply first.
    pub claims: Vec<Claim>,
    /// The piece-letter language the moves were read in.
    pub language: Language,
    /// The game was played under Chess960 castling rules.
    pub chess960: bool,
    /// The start position (standard or from the FEN tag).
    pub start: Chess,
    /// The main-line moves, in order, with the index of their tokens.
    pub moves: Vec<movetext::MainMove>,
    /// The Zobrist key (Law 9.2 identity) of every main-line position, the
    /// start included.
    pub keys: Vec<u64>,
    /// The encoding the game was read in.
    pub encoding: Encoding,
    /// A search for a dead position (Law 5.2.2) or for whether the winner
    /// of a loss on time can checkmate (Law 6.9) ran out of budget: the
    /// report says nothing of it. Counted in the `check` summary.
    pub dead_undecided: bool,
    /// The time control the TimeControl tag gives (`None` without the tag,
    /// or with one that is no time control).
    pub time_control: Option<crate::clock::TimeControl>,
    /// The clock commands after the main-line moves, one entry a ply.
    pub clocks: crate::clock::Clocks,
    /// The last main-line position reached: after the last move, or
    /// before the first error that ended the main line; `None` for a game
    /// whose start could not be set up (a bad FEN, a variant not played).
    pub end: Option<Chess>,
    /// The Laws' rulings on the illegal moves that stood, in ply order
    /// (`--illegal-moves stand`).
    pub rulings: Vec<LawRuling>,
}

impl GameReport {
    /// The main-line position before ply `ply` (1-based, as in
    /// [`Diagnostic::ply`]: ply 1 is played from the start position) and the
    /// move that led to it (`None` at the start); `None` where the main line
    /// was not replayed that far (it stops at its first error, so the
    /// position before the faulty move is always there). Linear in `ply`.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    /// use shakmaty::{Position, Square};
    ///
    /// let pgn = b"1. e4 e5 2. Ke3 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// let ply = report.diagnostics[0].ply.unwrap();
    /// let (position, last) = report.position_before(ply).unwrap();
    /// assert_eq!(position.board().piece_at(Square::E5).map(|p| p.char()), Some('p'));
    /// assert_eq!(last.map(|m| m.to()), Some(Square::E5));
    /// assert!(report.position_before(ply + 1).is_none());
    /// ```
    pub fn position_before(&self, ply: u32) -> Option<(Chess, Option<shakmaty::Move>)> {
        let played = usize::try_from(ply.checked_sub(1)?).ok()?;
        let moves = self.moves.get(..played)?;
        let mut position = self.start.clone();
        for m in moves {
            position.play_unchecked(m.played);
        }
        Some((position, moves.last().map(|m| m.played)))
    }

    /// What [`clock::rewritten_comments`](crate::clock::rewritten_comments)
    /// needs of the game: its clocks, time control, start and main-line
    /// moves.
    pub fn clocked(&self) -> crate::clock::Replayed<'_> {
        crate::clock::Replayed {
            clocks: &self.clocks,
            control: self.time_control.as_ref(),
            start: crate::clock::Start::of(&self.start),
            plies: self.plies,
            moves: self
                .moves
                .iter()
                .map(|m| usize::try_from(m.token).unwrap_or(usize::MAX))
                .collect(),
        }
    }

    /// The FEN of [`GameReport::end`], the last main-line position (`None`
    /// where the game could not be set up).
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    ///
    /// let pgn = b"1. e4 e5 2. Nf3 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// assert_eq!(
    ///     report.fen().as_deref(),
    ///     Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    /// );
    /// ```
    pub fn fen(&self) -> Option<String> {
        let end = self.end.as_ref()?;
        let mut fen = String::with_capacity(90);
        crate::position_text::write_position(
            end,
            crate::position_text::PositionFormat::Fen,
            &mut fen,
        );
        Some(fen)
    }

    /// Number of errors, kept or omitted.
    pub fn errors(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| d.is_error()).count();
        kept.saturating_add(usize::try_from(self.omitted.errors).unwrap_or(usize::MAX))
    }

    /// Number of warnings, kept or omitted.
    pub fn warnings(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| !d.is_error()).count();
        kept.saturating_add(usize::try_from(self.omitted.warnings).unwrap_or(usize::MAX))
    }
}
