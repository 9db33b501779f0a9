//! How a game ends under the FIDE Laws of Chess: status, the result the rules
//! give, and the draws a player could have claimed.
//!
//! - Article 5.1 (checkmate) and 5.2.1 (stalemate) end the game.
//! - Article 5.2.2 (dead position): insufficient material, as shakmaty's
//!   `is_insufficient_material` decides it, and every other dead position
//!   the [`crate::dead`] module proves dead (locked pawn walls, bishops of
//!   one colour behind them, …).
//! - Article 9.6.1 (fivefold repetition) and 9.6.2 (75 moves without a capture
//!   or pawn move, unless the last move mated) end the game automatically.
//! - Article 9.2 (threefold repetition) and 9.3 (50 moves) make a draw
//!   claimable; [`Claim`] records the first ply where each became claimable.
//!
//! Position identity is Law 9.2's: same player to move, same pieces on the
//! same squares, same castling rights and the same *legal* en passant
//! captures. It is tracked with 64-bit Zobrist keys.

use crate::keyed::{KeyStep, next_key};
pub use crate::keyed::{Keyed, position_key};
use std::collections::HashMap;

use serde::Serialize;
use shakmaty::{
    Chess, Color, Move, Position, Role, Square,
    zobrist::{Zobrist64, ZobristValue},
};

/// The state of a game after its last move, per the Laws.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The side to move is checkmated (5.1.1).
    Checkmate,
    /// The side to move has no legal move and is not in check (5.2.1).
    Stalemate,
    /// Neither side can checkmate by any series of legal moves (5.2.2),
    /// for lack of material.
    InsufficientMaterial,
    /// Neither side can checkmate by any series of legal moves (5.2.2),
    /// though there is material enough: a locked pawn wall, bishops of one
    /// colour behind one, and the like.
    DeadPosition,
    /// The same position occurred five times (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without a capture or pawn move (9.6.2).
    SeventyfiveMoves,
    /// A player's flag fell: a clock below the increment after a move
    /// (6.1, 6.9). The player loses, unless the opponent cannot checkmate.
    FlagFell,
    /// A player's second completed illegal move in standard play (7.5.5,
    /// with `--illegal-moves stand`): the player loses, unless the
    /// opponent cannot checkmate.
    SecondIllegalMove,
    /// The rules do not end the game.
    Ongoing,
    /// The game has an error, so the rules cannot say.
    Invalid,
    /// A variant pgnkit does not replay (crazyhouse, atomic, …).
    Unsupported,
}

impl Status {
    /// The status as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InsufficientMaterial => "insufficient-material",
            Status::DeadPosition => "dead-position",
            Status::FivefoldRepetition => "fivefold-repetition",
            Status::SeventyfiveMoves => "seventyfive-moves",
            Status::FlagFell => "flag-fell",
            Status::SecondIllegalMove => "second-illegal-move",
            Status::Ongoing => "ongoing",
            Status::Invalid => "invalid",
            Status::Unsupported => "unsupported",
        }
    }

    /// Why the rules end the game, citing the Law, for the statuses that
    /// end it: `stalemate (Law 5.2.1)`.
    ///
    /// ```
    /// use pgnkit_replay::Status;
    ///
    /// assert_eq!(Status::Stalemate.law(), Some("stalemate (Law 5.2.1)"));
    /// assert_eq!(Status::Ongoing.law(), None);
    /// ```
    pub fn law(self) -> Option<&'static str> {
        Some(match self {
            Status::Checkmate => "checkmate (Law 5.1.1)",
            Status::Stalemate => "stalemate (Law 5.2.1)",
            Status::InsufficientMaterial => "insufficient material, a dead position (Law 5.2.2)",
            Status::DeadPosition => "a dead position: neither player can checkmate (Law 5.2.2)",
            Status::FivefoldRepetition => "fivefold repetition (Law 9.6.1)",
            Status::SeventyfiveMoves => "75 moves without a capture or pawn move (Law 9.6.2)",
            Status::FlagFell => "a flag fell: the player's time ran out (Laws 6.1, 6.9)",
            Status::SecondIllegalMove => "a player's second completed illegal move (Law 7.5.5)",
            Status::Ongoing | Status::Invalid | Status::Unsupported => return None,
        })
    }

    /// Does this status end the game?
    pub fn is_end(self) -> bool {
        !matches!(
            self,
            Status::Ongoing | Status::Invalid | Status::Unsupported
        )
    }
}

/// A game result as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
}

/// A decided result as PGN writes it (which also has `*`).
impl From<GameResult> for pgnkit_pgn::GameResult {
    fn from(r: GameResult) -> pgnkit_pgn::GameResult {
        match r {
            GameResult::WhiteWins => pgnkit_pgn::GameResult::WhiteWins,
            GameResult::BlackWins => pgnkit_pgn::GameResult::BlackWins,
            GameResult::Draw => pgnkit_pgn::GameResult::Draw,
        }
    }
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        pgnkit_pgn::GameResult::from(self).as_str()
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// Reads a Result tag value; `*` and anything else give `None`.
    pub fn from_tag(value: &str) -> Option<GameResult> {
        match value.trim() {
            "1-0" | "1:0" => Some(GameResult::WhiteWins),
            "0-1" | "0:1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1/2" | "½:½" | "=" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A result the rules decide for certain, where the game's record (its
/// Result tag or its termination marker) says otherwise: a `result-mismatch`
/// that `check --fix` may correct.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Code, GameResult, Options, replay_game};
///
/// let pgn = b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4+ 1-0\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let report = replay_game(pgn, &game, &Options::default());
///
/// let ruling = report.ruling.as_ref().expect("the rules decide");
/// assert_eq!(ruling.result, GameResult::BlackWins);
/// assert_eq!(ruling.reason, "checkmate (Law 5.1.1)");
/// // The mark of the mating move, rewritten in its own word.
/// let mark = report.diagnostics.iter().find(|d| d.code == Code::CheckMark);
/// assert_eq!(mark.and_then(|d| d.rewrite.as_deref()), Some("Qh4#"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The result the rules give.
    pub result: GameResult,
    /// Why, citing the Law: `stalemate (Law 5.2.1)`.
    pub reason: String,
}

/// The kind of draw a player could claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// Article 9.2: the same position for the third time.
    Threefold,
    /// Article 9.3: 50 moves by each side without a capture or pawn move.
    FiftyMoves,
}

/// A draw that became claimable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Claim {
    /// Which rule.
    pub kind: ClaimKind,
    /// The first ply after which the claim was possible: the position after
    /// that many plies is the one in which the player to move claims.
    pub ply: u32,
    /// The claim is made by declaring this move (written on the scoresheet,
    /// not played): it would make the position appear for the third time
    /// (Law 9.2.1.1) or complete the 50 moves (Law 9.3.1). `None` when the
    /// position had already occurred three times, or the 50 moves had
    /// already passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_move: Option<DeclaredMove>,
}

/// The move a player declares to claim a draw, in SAN and UCI.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DeclaredMove {
    /// The move in SAN, e.g. `Nf3`.
    pub san: String,
    /// The move in UCI, e.g. `g1f3`.
    pub uci: String,
}

impl DeclaredMove {
    fn new(pos: &Chess, m: Move) -> DeclaredMove {
        DeclaredMove {
            san: shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string(),
            uci: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
        }
    }
}

/// The status of a final position, and whether the search for a dead
/// position ran out of budget there.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FinalStatus {
    /// The status of the final position (mate, stalemate, dead position,
    /// 75-move rule; repetition needs the history: see the tracker).
    pub status: Status,
    /// The position might be dead, but the search ran out of budget before
    /// it could tell: the status says nothing of it.
    pub undecided: bool,
    /// The side the dead-position analysis showed able to checkmate (it
    /// found the mating line), if it searched and found one.
    pub mater: Option<Color>,
}

/// The status of the final position of a played game, with no history
/// (repetitions need the tracker): the checkmates, stalemates and the
/// 75-move rule, insufficient material, and the dead positions that the
/// static rules of [`crate::dead`] prove where every pawn is locked
/// (`static_dead_status`, [`Budget::RULES`]: no search). A game of no
/// moves is a position to judge, and gets the full analysis
/// ([`final_status_within`]).
///
/// ```
/// use pgnkit_replay::outcome::final_status;
/// use pgnkit_replay::Status;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// // Carlsen - Firouzja, 2022, after 47. h4: a locked wall.
/// let fen: Fen = "4k3/5p2/4pPp1/3pP1Pp/1p1P3P/1P4K1/8/8 b - - 0 47".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(final_status(&pos).status, Status::DeadPosition);
/// assert!(!final_status(&pos).undecided);
/// ```
///
/// [`Budget::RULES`]: crate::dead::Budget::RULES
pub fn final_status(pos: &Chess) -> FinalStatus {
    final_status_within(pos, crate::dead::Budget::RULES)
}

/// [`final_status`] with the dead-position analysis given `budget`
/// ([`crate::dead::is_dead`]): every position is analysed, and one the
/// search could not settle is `undecided`. With [`Budget::RULES`] only
/// `static_dead_status` runs, and no position is undecided.
///
/// ```
/// use pgnkit_replay::dead::Budget;
/// use pgnkit_replay::outcome::final_status_within;
/// use pgnkit_replay::Status;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
///
/// // Black's only move takes the queen: dead after it.
/// let fen: Fen = "7k/6Q1/8/8/8/8/8/K7 b - - 0 60".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(final_status_within(&pos, Budget::FULL).status, Status::DeadPosition);
/// ```
///
/// [`Budget::RULES`]: crate::dead::Budget::RULES
pub fn final_status_within(pos: &Chess, budget: crate::dead::Budget) -> FinalStatus {
    let done = |status| FinalStatus {
        status,
        undecided: false,
        mater: None,
    };
    if !crate::dead::has_legal_move(pos) {
        return done(if pos.is_check() {
            Status::Checkmate
        } else {
            Status::Stalemate
        });
    }
    if let Some(status) = static_dead_status(pos) {
        return done(status);
    }
    if pos.halfmoves() >= 150 {
        return done(Status::SeventyfiveMoves);
    }
    if budget != crate::dead::Budget::RULES {
        match crate::dead::life(pos, budget) {
            (crate::dead::Life::Dead, _) => return done(Status::DeadPosition),
            (crate::dead::Life::Alive, mater) => {
                return FinalStatus {
                    mater,
                    ..done(Status::Ongoing)
                };
            }
            (crate::dead::Life::Undecided, _) => {
                return FinalStatus {
                    undecided: true,
                    ..done(Status::Ongoing)
                };
            }
        }
    }
    done(Status::Ongoing)
}

/// The dead-position status the cheap rules give `pos` (no search):
/// insufficient material, or, where [`crate::dead::may_be_dead`] lets them
/// run (a locked pawn structure), the static rules of [`crate::dead`]. A
/// few nanoseconds in nearly every position of a real game.
pub(crate) fn static_dead_status(pos: &Chess) -> Option<Status> {
    if pos.is_insufficient_material() {
        Some(Status::InsufficientMaterial)
    } else if crate::dead::may_be_dead(pos) && crate::dead::statically_dead(pos) {
        Some(Status::DeadPosition)
    } else {
        None
    }
}

/// False where [`static_dead_status`] finds nothing for certain, worked out
/// in a few instructions without a branch: insufficient material needs a
/// board without pawns, and a dead position by the static rules pawns that
/// all stand behind a pawn ([`crate::dead::may_be_dead`]), and every pawn
/// blocked ([`crate::dead::pawns_blocked`]) holds in both. A replay asks it
/// first after every move: it is false for most of a game, where whether
/// the move took or moved a pawn is a branch no processor predicts well.
#[inline(always)]
pub(crate) fn may_be_static_dead(pos: &Chess) -> bool {
    crate::dead::pawns_blocked(pos)
}

/// Whether the analyses that play moves may look at `pos`: one king a side
/// and the side that just moved not in check (a move that stood may leave
/// its own king attacked; from there a king could be taken).
pub fn regular(pos: &Chess) -> bool {
    let board = pos.board();
    let kings = |c: Color| board.king_of(c);
    match (kings(Color::White), kings(Color::Black)) {
        (Some(_), Some(_)) => {}
        _ => return false,
    }
    let Some(theirs) = kings(!pos.turn()) else {
        return false;
    };
    board
        .attacks_to(theirs, pos.turn(), board.occupied())
        .is_empty()
}

/// What the rules give for a status reached with `loser_to_move` to move.
pub(crate) fn rule_result(status: Status, side_to_move: Color) -> Option<GameResult> {
    match status {
        Status::Checkmate => Some(GameResult::win_for(!side_to_move)),
        Status::Stalemate
        | Status::InsufficientMaterial
        | Status::DeadPosition
        | Status::FivefoldRepetition
        | Status::SeventyfiveMoves => Some(GameResult::Draw),
        Status::FlagFell
        | Status::SecondIllegalMove
        | Status::Ongoing
        | Status::Invalid
        | Status::Unsupported => None,
    }
}

/// Which position keys a [`Tracker`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum History {
    /// The key of every position of the line ([`Tracker::keys`]), for an
    /// index or a search.
    #[default]
    All,
    /// Only the keys the repetition rules still look at: those since the
    /// last irreversible move, until more than a few hundred of them are
    /// counted in a map instead. A game of millions of reversible moves
    /// then holds a few keys instead of millions; [`Tracker::keys`] is of
    /// no use.
    Recent,
}

/// Follows a main line ply by ply: repetition counts, claims, and the first
/// automatic end (fivefold repetition, 75-move rule).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    keys: Vec<u64>,
    history: History,
    /// A 256-bit filter of the keys since the last irreversible move: a
    /// position can only repeat if its bit is already set.
    seen: [u64; 4],
    threefold: Option<u32>,
    fifty: Option<u32>,
    automatic: Option<(Status, u32)>,
    /// Once more than [`SCAN_LIMIT`] plies passed since the last
    /// irreversible move: how often each key occurred since then (empty
    /// until then, and again after the next irreversible move).
    counts: HashMap<u64, u32>,
    /// Since the last irreversible move, the keys that have occurred twice,
    /// with the parity of the ply they were reached at: only such a position
    /// can a declared move bring about for the third time.
    twice: Vec<(u64, u32)>,
    /// The first claims by a declared move.
    threefold_declared: Option<Claim>,
    fifty_declared: Option<Claim>,
    /// The first position of the line the cheap dead-position rules show
    /// dead ([`static_dead_status`], looked at in the start position and
    /// after every capture or pawn move), with its ply.
    dead: Option<(Status, u32)>,
    /// Illegal main-line moves stand (`--illegal-moves stand`).
    pub(crate) stand: bool,
    /// A move stood: positions from there on may not be
    /// [`regular`], and the claims that play
    /// moves from a position look at regular ones only.
    pub(crate) irregular: bool,
}

/// Up to this many plies since the last irreversible move, a repeated
/// position is counted by looking back over the keys (cheap, no hashing);
/// beyond, by a map of counts, so that a game of a million reversible
/// moves costs linear time.
const SCAN_LIMIT: usize = 128;

impl Tracker {
    /// Starts tracking at `start` (ply 0), keeping the keys `history` says.
    pub fn with_history(start: &Chess, history: History) -> Tracker {
        let mut t = Tracker {
            history,
            ..Tracker::default()
        };
        t.reset(start);
        t
    }

    /// Forgets everything and starts again at `start`.
    pub fn reset(&mut self, start: &Chess) {
        self.irregular = false;
        self.keys.clear();
        self.counts.clear();
        self.twice.clear();
        self.threefold_declared = None;
        self.fifty_declared = None;
        self.seen = [0; 4];
        let key = position_key(start);
        self.seen[(key >> 6) as usize & 3] |= 1 << (key & 63);
        self.keys.push(key);
        self.threefold = None;
        self.automatic = None;
        self.dead = static_dead_status(start).map(|status| (status, 0));
        // A game set up from a position (FEN) may start with the 50 moves
        // complete (claimable at once, Law 9.3.2) or one quiet move short
        // (claimable by declaring that move, Law 9.3.1). The 75-move rule is
        // left to the moves played: a set-up clock is often arbitrary.
        let clock = start.halfmoves();
        self.fifty = (clock >= 100).then_some(0);
        if clock == 99 {
            self.declared_claims(start, key, 0, 0, 1);
        }
    }

    /// Makes room for `plies` more positions.
    pub fn reserve(&mut self, plies: usize) {
        self.keys.reserve(plies);
    }

    /// The key of the current position.
    pub fn key(&self) -> u64 {
        self.keys.last().copied().unwrap_or_default()
    }

    /// Records the position `after` reached at `ply` by `m` from `before`.
    /// Returns the key of `after`.
    pub fn push(&mut self, before: &Chess, m: Move, after: &Chess, ply: u32) -> u64 {
        self.push_step(KeyStep::new(before, self.key(), m), after, ply)
    }

    /// Records `after`, reached at `ply` by the move `step` was started for.
    /// Returns the key of `after`.
    pub fn push_step(&mut self, step: KeyStep, after: &Chess, ply: u32) -> u64 {
        let key = step.finish(after);
        self.push_key(key, after, ply)
    }

    /// Records `after`, whose key is `key`, reached at `ply`.
    pub fn push_key(&mut self, key: u64, after: &Chess, ply: u32) -> u64 {
        let clock = after.halfmoves();
        self.keys.push(key);
        if clock == 0 {
            // Only a capture or a pawn move (or a promotion) makes a
            // position dead in practice; every position after a dead one is
            // dead too, so the first is what counts.
            if self.dead.is_none() {
                self.dead = static_dead_status(after).map(|status| (status, ply));
            }
            self.seen = [0; 4];
            self.counts.clear();
            self.twice.clear();
            if self.history == History::Recent {
                self.forget_older();
            }
        }
        let (word, bit) = ((key >> 6) as usize & 3, 1u64 << (key & 63));
        let maybe_repeated = self.seen[word] & bit != 0;
        self.seen[word] |= bit;

        // Positions can only repeat since the last irreversible move, and
        // only with the same side to move (the key includes it).
        let n = self.keys.len() - 1;
        let window = usize::try_from(clock).unwrap_or(usize::MAX).min(n);
        let same = if !self.counts.is_empty() {
            let count = self.counts.entry(key).or_insert(0);
            *count += 1;
            let count = *count;
            if self.history == History::Recent {
                self.forget_older();
            }
            count
        } else if window > SCAN_LIMIT {
            for &k in &self.keys[n - window..] {
                *self.counts.entry(k).or_insert(0) += 1;
            }
            self.counts.get(&key).copied().unwrap_or(1)
        } else {
            // Look back two plies at a time.
            let mut same = 1;
            let mut back = 2;
            while maybe_repeated && back <= window {
                if self.keys[n - back] == key {
                    same += 1;
                }
                back += 2;
            }
            same
        };
        let look =
            !self.twice.is_empty() && self.threefold_declared.is_none() && self.threefold.is_none();
        if (same == 2 || clock == 99 || look) && (!self.irregular || regular(after)) {
            self.declared_claims(after, key, window, ply, same);
        }
        if same >= 3 && self.threefold.is_none() {
            self.threefold = Some(ply);
        }
        if clock >= 100 && self.fifty.is_none() {
            self.fifty = Some(ply);
        }
        if self.automatic.is_none() {
            if same >= 5 {
                self.automatic = Some((Status::FivefoldRepetition, ply));
            } else if clock >= 150 && !(after.is_check() && after.legal_moves().is_empty()) {
                self.automatic = Some((Status::SeventyfiveMoves, ply));
            }
        }
        key
    }

    /// Claims by a declared move from `after` (reached at `ply`, its key
    /// `key`, seen `same` times): kept out of line, since most plies have
    /// none to look for.
    #[cold]
    #[inline(never)]
    fn declared_claims(&mut self, after: &Chess, key: u64, window: usize, ply: u32, same: u32) {
        if same == 2 {
            self.twice.push((key, ply % 2));
        }
        // Only before the position first stands on the board three times.
        if self.threefold_declared.is_none()
            && self.threefold.is_none()
            && self.twice.iter().any(|&(_, parity)| parity != ply % 2)
        {
            self.threefold_declared = self.declared_repetition(after, key, window, ply);
        }
        if self.fifty_declared.is_none() && after.halfmoves() == 99 {
            // Any move that is no capture and no pawn move completes the 50.
            self.fifty_declared = after
                .legal_moves()
                .iter()
                .find(|m| !m.is_capture() && m.role() != Role::Pawn)
                .map(|&m| Claim {
                    kind: ClaimKind::FiftyMoves,
                    ply,
                    by_move: Some(DeclaredMove::new(after, m)),
                });
        }
    }

    /// The first move from `pos` (reached at `ply`, its key `key`, `window`
    /// plies since the last irreversible move) that would bring about a
    /// position for the third time, as a claim by declared move.
    fn declared_repetition(&self, pos: &Chess, key: u64, window: usize, ply: u32) -> Option<Claim> {
        // Only a quiet piece move can repeat a position (a capture, a pawn
        // move or castling makes one that never occurred before), and the
        // key after it differs from this one by the turn and the piece's
        // two squares. Screen every quiet piece move that way against the
        // keys that occurred twice, and play only the ones that match.
        let Zobrist64(turn) = Zobrist64::zobrist_for_white_turn();
        let targets: Vec<u64> = self
            .twice
            .iter()
            .filter(|&&(_, parity)| parity != ply % 2)
            .map(|&(k, _)| k ^ key ^ turn)
            .collect();
        let us = pos.turn();
        let board = pos.board();
        let piece = |sq: Square, role: Role| {
            let Zobrist64(z) = Zobrist64::zobrist_for_piece(sq, role.of(us));
            z
        };
        let mut screened = Vec::new();
        for from in board.by_color(us) & !board.pawns() {
            let Some(role) = board.role_at(from) else {
                continue;
            };
            for to in board.attacks_from(from) & !board.occupied() {
                if targets.contains(&(piece(from, role) ^ piece(to, role))) {
                    screened.push(Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        let n = self.keys.len() - 1;
        for m in screened {
            if !pos.is_legal(m) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            let next = next_key(pos, key, m, &after);
            let occurred = if self.counts.is_empty() {
                self.keys[n - window..]
                    .iter()
                    .filter(|&&k| k == next)
                    .count() as u32
            } else {
                self.counts.get(&next).copied().unwrap_or(0)
            };
            if occurred >= 2 {
                return Some(Claim {
                    kind: ClaimKind::Threefold,
                    ply,
                    by_move: Some(DeclaredMove::new(pos, m)),
                });
            }
        }
        None
    }

    /// Every draw that became claimable, with its first ply: by a declared
    /// move (the first ply it could be claimed that way, and the move) and
    /// by the position on the board, for each rule.
    pub fn claims(&self) -> Vec<Claim> {
        let mut claims = Vec::new();
        if let Some(ply) = self.threefold {
            claims.push(Claim {
                kind: ClaimKind::Threefold,
                ply,
                by_move: None,
            });
        }
        if let Some(ply) = self.fifty {
            claims.push(Claim {
                kind: ClaimKind::FiftyMoves,
                ply,
                by_move: None,
            });
        }
        // A declared move can only come before the position itself.
        claims.extend(
            [&self.threefold_declared, &self.fifty_declared]
                .into_iter()
                .flatten()
                .filter(|d| {
                    let on_board = match d.kind {
                        ClaimKind::Threefold => self.threefold,
                        ClaimKind::FiftyMoves => self.fifty,
                    };
                    on_board.is_none_or(|p| d.ply < p)
                })
                .cloned(),
        );
        claims.sort_by_key(|c| (c.ply, c.by_move.is_none()));
        claims
    }

    /// The first automatic draw (fivefold repetition or 75-move rule) and its ply.
    pub fn automatic_end(&self) -> Option<(Status, u32)> {
        self.automatic
    }

    /// The first dead position of the line the cheap rules found
    /// ([`static_dead_status`]), and its ply (0: the start).
    pub fn dead_end(&self) -> Option<(Status, u32)> {
        self.dead
    }

    /// Takes the keys of every position of the main line so far, the start
    /// included (with [`History::All`]; with [`History::Recent`], some of
    /// the last),
    /// leaving none: a game of millions of plies does not copy them. Empty
    /// with [`History::Recent`].
    pub fn take_keys(&mut self) -> Vec<u64> {
        match self.history {
            History::All => std::mem::take(&mut self.keys),
            History::Recent => Vec::new(),
        }
    }

    /// Keeps only the current position's key: the ones before it are no
    /// longer looked at (an irreversible move came, or the keys since the
    /// last one are counted in the map).
    fn forget_older(&mut self) {
        let last = self.keys.len().saturating_sub(1);
        if last > 0 {
            self.keys.drain(..last);
        }
    }
}

#[cfg(test)]
mod tests {
    /// `pos`, then every position one legal move after it.
    fn with_every_move_after(pos: Chess) -> Vec<Chess> {
        let mut all = vec![pos.clone()];
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            all.push(after);
        }
        all
    }

    #[test]
    fn a_legal_move_is_found_exactly_where_shakmaty_generates_one() {
        // The reference: shakmaty's move generator, on CHA's test vectors
        // (checkmates, stalemates, kings boxed in) and every position one
        // move after each of them.
        let text = include_str!("../../../testdata/dead/cha-test-vectors.txt");
        let mut positions = 0;
        let mut without = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (_, fen) = line.split_once(' ').expect("a label and a FEN");
            let start = crate::setup::start(None, Some(fen)).expect("CHA's positions set up");
            for p in with_every_move_after(start.position) {
                let expected = !p.legal_moves().is_empty();
                assert_eq!(crate::dead::has_legal_move(&p), expected, "{fen}");
                positions += 1;
                without += usize::from(!expected);
            }
        }
        assert!(
            positions > 15_000 && without > 1_000,
            "{positions} positions, {without} without"
        );
    }

    #[test]
    fn the_quick_test_holds_wherever_a_position_is_dead_by_the_static_rules() {
        // `may_be_static_dead` only filters: it must hold wherever
        // `static_dead_status` finds something. The positions: CHA's test
        // vectors and the labelled set (locked walls, traps, bare kings,
        // real games' locked positions), each with every position one move
        // after it, where the judge of deadness is the static rules
        // (`static_dead_status`, whose own tests rest on CHA's labels).
        let cha = include_str!("../../../testdata/dead/cha-test-vectors.txt");
        let labelled = include_str!("../../../testdata/dead/labelled.tsv");
        let fens = cha
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once(' ').map(|(_, fen)| fen))
            .chain(labelled.lines().filter_map(|l| l.split('\t').next()));
        let (mut positions, mut dead, mut filtered) = (0, 0, 0);
        for fen in fens {
            let Ok(start) = crate::setup::start(None, Some(fen)) else {
                continue;
            };
            for p in with_every_move_after(start.position) {
                let quick = super::may_be_static_dead(&p);
                if super::static_dead_status(&p).is_some() {
                    assert!(quick, "{fen}: dead, but the quick test says not");
                    dead += 1;
                }
                positions += 1;
                filtered += usize::from(!quick);
            }
        }
        assert!(
            positions > 40_000 && dead > 1_000 && filtered > 1_000,
            "{positions} positions, {dead} dead, {filtered} filtered out"
        );
    }

    #[test]
    fn the_fifth_occurrence_of_a_position_ends_the_game() {
        use shakmaty::uci::UciMove;
        let mut pos = Chess::default();
        let mut tracker = Tracker::with_history(&pos, History::Recent);
        for (ply, uci) in (1..).zip(["g1f3", "g8f6", "f3g1", "f6g8"].iter().cycle().take(16)) {
            let m = uci
                .parse::<UciMove>()
                .expect("UCI")
                .to_move(&pos)
                .expect("legal");
            let before = pos.clone();
            pos.play_unchecked(m);
            tracker.push(&before, m, &pos, ply);
        }
        // The start position stood on the board for the fifth time at ply 16.
        assert_eq!(tracker.automatic_end().map(|(_, ply)| ply), Some(16));
    }

    #[test]
    fn a_king_and_knight_against_a_king_is_dead_by_the_static_rules() {
        use shakmaty::{CastlingMode, fen::Fen};
        let fen: Fen = "8/8/4k3/8/8/2K5/8/6N1 w - - 0 70".parse().expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        assert_eq!(static_dead_status(&pos), Some(Status::InsufficientMaterial));
        assert_eq!(static_dead_status(&Chess::default()), None);
    }

    use super::*;
    use shakmaty::FromSetup;
    use shakmaty::san::San;

    fn play(sans: &str) -> (Chess, Tracker) {
        let mut pos = Chess::default();
        let mut t = Tracker::with_history(&pos, History::All);
        for (i, s) in sans.split_whitespace().enumerate() {
            let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
            let before = pos.clone();
            pos.play_unchecked(m);
            t.push(&before, m, &pos, i as u32 + 1);
        }
        (pos, t)
    }

    #[test]
    fn threefold_is_claimable_at_the_third_occurrence() {
        // The start position occurs at plies 0, 4 and 8.
        let (_, t) = play("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(
            t.claims(),
            vec![
                // Black, to move after ply 7, declares Ng8: the start
                // position would stand for the third time (Law 9.2.1.1).
                Claim {
                    kind: ClaimKind::Threefold,
                    ply: 7,
                    by_move: Some(DeclaredMove {
                        san: "Ng8".to_owned(),
                        uci: "f6g8".to_owned(),
                    }),
                },
                // The position on the board, for the third time.
                Claim {
                    kind: ClaimKind::Threefold,
                    ply: 8,
                    by_move: None,
                },
            ]
        );
        assert_eq!(t.automatic_end(), None);
    }

    #[test]
    fn the_fifty_move_rule_is_claimable_by_declaring_a_quiet_move() {
        use shakmaty::fen::Fen;
        // 99 plies without a capture or pawn move: any quiet move completes 50.
        let setup: Fen = "8/8/4k3/8/8/3K4/8/7R w - - 98 80".parse().unwrap();
        let mut pos: Chess = setup
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let mut t = Tracker::with_history(&pos, History::All);
        for (i, s) in ["Rh2", "Kd6"].iter().enumerate() {
            let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
            let before = pos.clone();
            pos.play_unchecked(m);
            t.push(&before, m, &pos, i as u32 + 1);
        }
        let claims = t.claims();
        assert_eq!(claims.len(), 2, "{claims:?}");
        assert_eq!(claims[0].kind, ClaimKind::FiftyMoves);
        assert_eq!(claims[0].ply, 1);
        assert!(claims[0].by_move.is_some());
        assert_eq!((claims[1].ply, claims[1].by_move.clone()), (2, None));
    }

    #[test]
    fn fivefold_ends_the_game() {
        let (_, t) = play("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(t.automatic_end(), Some((Status::FivefoldRepetition, 16)));
    }

    #[test]
    fn en_passant_right_makes_positions_differ() {
        // After 1. e4 the e3 square is no legal en passant target, so the
        // key ignores it; the position after 1. e4 c5 2. e5 d5 has a legal
        // en passant capture and differs from one without.
        let (pos, _) = play("e4 c5 e5 d5");
        assert!(pos.legal_ep_square().is_some());
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Always);
        setup.ep_square = None;
        let without: Chess = Chess::from_setup(setup, shakmaty::CastlingMode::Standard).unwrap();
        assert_ne!(position_key(&pos), position_key(&without));
    }

    #[test]
    fn incremental_keys_match_full_hashes() {
        // Castling both ways, en passant, promotion with capture, king moves.
        for line in [
            "e4 d5 exd5 c5 dxc6 Nf6 cxb7 Bd7 bxa8=Q Qc7 Nf3 e5 Be2 Bd6 O-O O-O Kh1 Kh8",
            "d4 e6 Nc3 d5 Bf4 Nf6 Qd2 Be7 O-O-O O-O Kb1 c5 g4 c4 g5 Ne4 Nxe4 dxe4",
            "e4 a6 e5 d5 exd6 c5 Ke2 c4 d4 cxd3 Kxd3",
        ] {
            let mut pos = Chess::default();
            let mut key = position_key(&pos);
            for s in line.split_whitespace() {
                let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
                let before = pos.clone();
                pos.play_unchecked(m);
                key = next_key(&before, key, m, &pos);
                assert_eq!(key, position_key(&pos), "after {s} in {line}");
            }
        }
    }

    /// Random legal games (a fixed pseudo-random sequence) from the
    /// standard position and from Chess960 positions: the incremental key
    /// equals the full hash after every move.
    #[test]
    fn recent_history_rules_as_the_whole_history_does() {
        // Random games that mostly shuffle pieces (long runs of reversible
        // moves, past the scan limit), with a capture or pawn move now and
        // then: the same claims and automatic end, ply by ply, while the
        // recent history holds a bounded number of keys.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut longest = 0usize;
        for _game in 0..60 {
            let mut pos = Chess::default();
            let mut all = Tracker::with_history(&pos, History::All);
            let mut recent = Tracker::with_history(&pos, History::Recent);
            let mut played = 0usize;
            for ply in 1..=700u32 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let quiet: Vec<Move> = moves.iter().copied().filter(|m| !m.is_zeroing()).collect();
                let pick = if quiet.is_empty() || (seed >> 40).is_multiple_of(97) {
                    &moves[..]
                } else {
                    &quiet[..]
                };
                let m = pick[(seed >> 33) as usize % pick.len()];
                let before = pos.clone();
                pos.play_unchecked(m);
                let a = all.push(&before, m, &pos, ply);
                let r = recent.push(&before, m, &pos, ply);
                assert_eq!(a, r);
                assert_eq!(all.claims(), recent.claims(), "ply {ply}");
                assert_eq!(all.automatic_end(), recent.automatic_end(), "ply {ply}");
                assert!(recent.keys.len() <= SCAN_LIMIT + 2, "ply {ply}");
                longest = longest.max(pos.halfmoves() as usize);
                played += 1;
            }
            assert_eq!(all.keys.len(), played + 1);
            assert!(recent.take_keys().is_empty());
        }
        assert!(longest > SCAN_LIMIT, "{longest}");
    }

    #[test]
    fn incremental_keys_match_full_hashes_in_random_games() {
        use shakmaty::fen::Fen;
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/QNRBKRBN w FCfc - 0 1",
            "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w CAca - 0 1",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0usize;
        let mut unplayed_checked = 0usize;
        for fen in starts {
            let setup: Fen = fen.parse().unwrap();
            let start: Chess = setup
                .into_position(shakmaty::CastlingMode::Chess960)
                .unwrap();
            for _game in 0..40 {
                let mut pos = start.clone();
                let mut key = position_key(&pos);
                for _ply in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    // The key of every move's position, where it can be
                    // had without playing the move.
                    for &m in &moves {
                        if let Some(unplayed) = crate::keyed::key_unplayed(&pos, key, m) {
                            let mut after = pos.clone();
                            after.play_unchecked(m);
                            assert_eq!(unplayed, position_key(&after), "{m:?} from {fen}");
                            unplayed_checked += 1;
                        }
                    }
                    let m = moves[(seed >> 33) as usize % moves.len()];
                    let before = pos.clone();
                    pos.play_unchecked(m);
                    key = next_key(&before, key, m, &pos);
                    assert_eq!(key, position_key(&pos), "{m:?} from {fen}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(unplayed_checked > 100_000, "{unplayed_checked}");
    }

    /// Law 6.9 asks one side again only when the analysis did not show it
    /// able to mate: the queen's side mates (the line is found), a dead
    /// position shows no one.
    #[test]
    fn the_analysis_says_which_side_it_showed_able_to_mate() {
        use shakmaty::fen::Fen;
        let position = |fen: &str| -> Chess {
            let setup: Fen = fen.parse().unwrap();
            setup
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap()
        };
        for (fen, mater) in [
            ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 50", Some(Color::White)),
            ("7K/8/6k1/8/8/8/8/1q6 b - - 0 50", Some(Color::Black)),
            ("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 40", None),
        ] {
            let last = final_status_within(&position(fen), crate::dead::Budget::FULL);
            assert_eq!(last.mater, mater, "{fen}");
            assert_eq!(
                last.status == Status::DeadPosition,
                mater.is_none(),
                "{fen}"
            );
        }
    }

    #[test]
    fn statuses_of_final_positions() {
        let (mate, _) = play("f3 e5 g4 Qh4");
        assert_eq!(final_status(&mate).status, Status::Checkmate);
        assert_eq!(
            rule_result(Status::Checkmate, mate.turn()),
            Some(GameResult::BlackWins)
        );
        assert_eq!(final_status(&Chess::default()).status, Status::Ongoing);
    }
}
