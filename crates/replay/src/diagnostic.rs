//! Diagnostics as data: what is wrong, where, and what was probably meant.
//!
//! A [`Diagnostic`] is produced by the replay and rendered by the `pgnkit`
//! binary's printers (human, JSON, GitHub annotations). Nothing here prints.

use std::fmt;
use std::ops::Range;

use serde::Serialize;
use shakmaty::Color;

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Counts for the exit status only under `--strict`.
    Warning,
    /// The game has a real problem.
    Error,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The stable diagnostic codes of the contract. Codes are never renamed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    /// The token is no move in any supported notation.
    UnparsableMove,
    /// A move that no piece can make in this position.
    IllegalMove,
    /// Several pieces fit the move as written.
    AmbiguousMove,
    /// Evidence that a ply was left out.
    MissingMove,
    /// Moves after checkmate, stalemate or a dead position.
    MovesAfterEnd,
    /// Moves after the rules drew the game automatically (fivefold
    /// repetition, 75-move rule): the Laws end the game there, but games
    /// played before 2014 or under other rules went on.
    MovesAfterDraw,
    /// The Result tag contradicts the final position.
    ResultMismatch,
    /// An invalid FEN or SetUp tag.
    BadFen,
    /// Broken PGN structure (unterminated comment, tag or variation).
    Syntax,
    /// The Variant tag names a game pgnkit does not replay (crazyhouse,
    /// atomic, …): the game is counted, its moves are not checked.
    UnsupportedVariant,
    /// `+` or `#` missing or wrong.
    CheckMark,
    /// A move number that does not match the ply.
    MoveNumber,
    /// The input was not UTF-8 and was decoded as Windows-1252.
    Encoding,
    /// A null move (`--`, `Z0`) in the main line of a game: normal in
    /// analysis variations, no move of chess in the game itself.
    NullMove,
    /// The ECO tag names another code than the opening the moves reach
    /// (raised by `convert --add-opening`, which classifies the games).
    EcoMismatch,
    /// The TimeControl tag is no PGN time control (standard 9.6.1).
    TimeControl,
    /// A clock command (`[%clk …]`, `[%emt …]`) whose time cannot be read.
    ClockUnreadable,
    /// A move without a clock where the game's other moves have one.
    ClockMissing,
    /// A player's clock rose by more than the time control adds.
    ClockRise,
    /// A player's first clock is above the time the control starts with
    /// (plus what it adds by then).
    ClockStart,
    /// A clock below the increment after a move: the flag fell before the
    /// move was completed, and the game ended there (Laws 6.1, 6.9).
    ClockFlag,
    /// A clock at 0:00:00 under a control without increment: the flag
    /// fell, or the clock shows only whole seconds.
    ClockZero,
    /// A move completes a period of the control, and the clock does not
    /// show the next period's time (Law 6.2).
    ClockPeriod,
    /// A board-fed broadcast's move sent twice: the same word again where
    /// it cannot be played (a move taken back and played again).
    RepeatedMove,
    /// A board-fed broadcast's result signal: kings put on the centre
    /// squares at the end of a game, which no move reaches.
    ResultSignal,
    /// A board-fed broadcast's game sent again with more moves: the game
    /// before is an earlier copy of it.
    ResentGame,
}

impl Code {
    /// Every code, in the order of the contract's table.
    pub const ALL: [Code; 26] = [
        Code::UnparsableMove,
        Code::IllegalMove,
        Code::AmbiguousMove,
        Code::MissingMove,
        Code::MovesAfterEnd,
        Code::ResultMismatch,
        Code::BadFen,
        Code::Syntax,
        Code::CheckMark,
        Code::MoveNumber,
        Code::Encoding,
        Code::MovesAfterDraw,
        Code::NullMove,
        Code::UnsupportedVariant,
        Code::EcoMismatch,
        Code::TimeControl,
        Code::ClockUnreadable,
        Code::ClockMissing,
        Code::ClockRise,
        Code::ClockStart,
        Code::ClockFlag,
        Code::ClockZero,
        Code::ClockPeriod,
        Code::RepeatedMove,
        Code::ResultSignal,
        Code::ResentGame,
    ];

    /// The code's place in [`Code::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Code::UnparsableMove => 0,
            Code::IllegalMove => 1,
            Code::AmbiguousMove => 2,
            Code::MissingMove => 3,
            Code::MovesAfterEnd => 4,
            Code::ResultMismatch => 5,
            Code::BadFen => 6,
            Code::Syntax => 7,
            Code::CheckMark => 8,
            Code::MoveNumber => 9,
            Code::Encoding => 10,
            Code::MovesAfterDraw => 11,
            Code::NullMove => 12,
            Code::UnsupportedVariant => 13,
            Code::EcoMismatch => 14,
            Code::TimeControl => 15,
            Code::ClockUnreadable => 16,
            Code::ClockMissing => 17,
            Code::ClockRise => 18,
            Code::ClockStart => 19,
            Code::ClockFlag => 20,
            Code::ClockZero => 21,
            Code::ClockPeriod => 22,
            Code::RepeatedMove => 23,
            Code::ResultSignal => 24,
            Code::ResentGame => 25,
        }
    }

    /// The code named `name` (as [`Code::as_str`] writes it).
    ///
    /// ```
    /// use pgnkit_replay::Code;
    /// assert_eq!(Code::from_name("check-mark"), Some(Code::CheckMark));
    /// assert_eq!(Code::from_name("checkmark"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// What the code means, in one sentence (the contract's table).
    pub fn summary(self) -> &'static str {
        match self {
            Code::UnparsableMove => "The token is no move in any supported notation.",
            Code::IllegalMove => "A move that no piece can make in this position.",
            Code::AmbiguousMove => "Several pieces fit the move as written.",
            Code::MissingMove => "Evidence that a ply was left out.",
            Code::MovesAfterEnd => "Moves after checkmate, stalemate or a dead position.",
            Code::MovesAfterDraw => {
                "The game went on after the rules drew it: fivefold repetition or the 75-move rule (Law 9.6)."
            }
            Code::ResultMismatch => "The Result tag contradicts the final position.",
            Code::BadFen => "An invalid FEN or SetUp tag.",
            Code::Syntax => "Broken PGN structure: an unterminated comment, tag or variation.",
            Code::UnsupportedVariant => {
                "A variant pgnkit does not replay: the game is counted, its moves are not checked."
            }
            Code::CheckMark => "A check or mate mark (`+`, `#`) missing or wrong.",
            Code::MoveNumber => "A move number that does not match the ply.",
            Code::Encoding => "The input was not UTF-8 and was decoded as Windows-1252.",
            Code::NullMove => "A null move (`--`, `Z0`) in the main line of a game.",
            Code::EcoMismatch => "The ECO tag names another code than the opening the moves reach.",
            Code::TimeControl => "The TimeControl tag is no PGN time control.",
            Code::ClockUnreadable => {
                "A clock command (`[%clk …]`, `[%emt …]`) whose time cannot be read."
            }
            Code::ClockMissing => "A move without a clock where the game's other moves have one.",
            Code::ClockRise => "A player's clock rose by more than the time control adds.",
            Code::ClockStart => "A player's first clock is above the time the control starts with.",
            Code::ClockFlag => {
                "A clock below the increment after a move: the flag fell and the game ended there (Laws 6.1, 6.9)."
            }
            Code::ClockZero => "A clock at 0:00:00 under a control without increment.",
            Code::ClockPeriod => {
                "A move completes a period and the clock does not show the next period's time (Law 6.2)."
            }
            Code::RepeatedMove => {
                "A broadcast sent a move twice: a move taken back and played again on the board."
            }
            Code::ResultSignal => {
                "Kings put on the centre squares at the end of a board-fed game: the board's result signal, not moves."
            }
            Code::ResentGame => "A broadcast sent the game before again, with more moves.",
        }
    }

    /// The code as written in JSON and in `error[code]`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::UnparsableMove => "unparsable-move",
            Code::IllegalMove => "illegal-move",
            Code::AmbiguousMove => "ambiguous-move",
            Code::MissingMove => "missing-move",
            Code::MovesAfterEnd => "moves-after-end",
            Code::MovesAfterDraw => "moves-after-draw",
            Code::ResultMismatch => "result-mismatch",
            Code::BadFen => "bad-fen",
            Code::Syntax => "syntax",
            Code::UnsupportedVariant => "unsupported-variant",
            Code::CheckMark => "check-mark",
            Code::MoveNumber => "move-number",
            Code::Encoding => "encoding",
            Code::NullMove => "null-move",
            Code::EcoMismatch => "eco-mismatch",
            Code::TimeControl => "time-control",
            Code::ClockUnreadable => "clock-unreadable",
            Code::ClockMissing => "clock-missing",
            Code::ClockRise => "clock-rise",
            Code::ClockStart => "clock-start",
            Code::ClockFlag => "clock-flag",
            Code::ClockZero => "clock-zero",
            Code::ClockPeriod => "clock-period",
            Code::RepeatedMove => "repeated-move",
            Code::ResultSignal => "result-signal",
            Code::ResentGame => "resent-game",
        }
    }

    /// The severity this code has (a `syntax` problem that loses nothing, such as a tag given twice,
    /// is a warning: see [`Diagnostic::severity`]).
    pub fn severity(self) -> Severity {
        match self {
            Code::CheckMark
            | Code::MoveNumber
            | Code::NullMove
            | Code::Encoding
            | Code::MovesAfterDraw
            | Code::UnsupportedVariant
            | Code::EcoMismatch
            | Code::TimeControl
            | Code::ClockUnreadable
            | Code::ClockMissing
            | Code::ClockFlag
            | Code::ClockZero
            | Code::ClockPeriod
            | Code::RepeatedMove
            | Code::ResultSignal
            | Code::ResentGame => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the writer probably meant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum Suggestion {
    /// Write this move instead of the token.
    Replace {
        /// The move in SAN.
        san: String,
        /// The rest of the game replays legally with the fix.
        confirmed: bool,
        /// How many plies of the game replay after the fix (the fixed one included).
        #[serde(skip_serializing_if = "Option::is_none")]
        replays: Option<u32>,
        /// Why this is plausible, in a few words ("a look-alike file letter").
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
        /// Where the repair ranked it and how the writer writes it.
        #[serde(flatten)]
        rank: Rank,
    },
    /// A move was left out: insert it so that it becomes ply `ply`.
    Insert {
        /// The ply the inserted move gets (1-based).
        ply: u32,
        /// The move in SAN.
        san: String,
        /// The rest of the game replays legally with the fix.
        confirmed: bool,
        /// How many plies of the game replay after the fix.
        #[serde(skip_serializing_if = "Option::is_none")]
        replays: Option<u32>,
        /// Why this is plausible.
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
        /// Where the repair ranked it and how the writer writes it.
        #[serde(flatten)]
        rank: Rank,
    },
    /// Two consecutive moves of one side were written in swapped order:
    /// the token and the move `ply + 2` should trade places.
    Swap {
        /// The ply of the first of the two swapped moves.
        ply: u32,
        /// The two moves in SAN, in the order they were played.
        san: [String; 2],
        /// The rest of the game replays legally with the fix.
        confirmed: bool,
        /// How many plies of the game replay after the fix.
        #[serde(skip_serializing_if = "Option::is_none")]
        replays: Option<u32>,
        /// Where the repair ranked it and how the writer writes it.
        #[serde(flatten)]
        rank: Rank,
    },
    /// The token is no move of the game (a stray word, a move written
    /// twice): strike it out, and the next word is the move of this ply.
    Delete {
        /// The rest of the game replays legally with the fix.
        confirmed: bool,
        /// How many plies of the game replay after the fix.
        #[serde(skip_serializing_if = "Option::is_none")]
        replays: Option<u32>,
        /// Why this is plausible.
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
        /// Where the repair ranked it and how the writer writes it.
        #[serde(flatten)]
        rank: Rank,
    },
}

/// Where the repair ranked a suggestion, whether it is one of the best,
/// and how the writer writes it. In the JSON record its fields sit beside
/// the suggestion's own: `"score":450,"best":true,"written":"Сc6"`.
///
/// ```
/// use pgnkit_notation::Language;
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::{Options, replay_game};
///
/// // A German game: `Sf4` cannot be played, `Sf3` can (SAN `Nf3`).
/// let pgn = b"1. e4 e5 2. Sf4 Sc6 3. Lb5 a6 *\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let options = Options { language: Some(Language::De), ..Options::default() };
/// let report = replay_game(pgn, &game, &options);
/// let top = &report.diagnostics[0].suggestions[0];
/// assert!(top.rank().best);
/// assert_eq!(top.rank().written, ["Sf3"]);
/// let json = serde_json::to_string(top).unwrap();
/// assert!(json.contains(r#""san":"Nf3""#) && json.contains(r#""written":"Sf3""#));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rank {
    /// The ranking's score in thousandths, lower is likelier: the cost of
    /// the slip (a weighted edit distance between the written word and the
    /// move, or the price of a left-out move, a swap or a struck-out word)
    /// plus 300 for each place where the record disagrees with the repaired
    /// game (a check mark, a move number, SAN written as SAN would not be
    /// written), counted over the plies the fix replays. Scores compare the
    /// suggestions of one problem; they are no probability.
    pub score: i32,
    /// One of the best: the top suggestion, or one as good as it, as
    /// [`crate::fix::equally_good`] decides (`check --fix` applies none of
    /// several such, and human output prints them, where it prints only the
    /// top one otherwise).
    pub best: bool,
    /// The suggested moves as the writer writes them (the game's notation
    /// and language, its capture and castling marks): one move, two for a
    /// swap, none for a struck-out word.
    pub written: Vec<String>,
}

/// `score`, `best`, and `written` as the suggestion's `san` is: one string,
/// a pair for a swap, left out for a struck-out word.
impl Serialize for Rank {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("score", &self.score)?;
        map.serialize_entry("best", &self.best)?;
        match self.written.as_slice() {
            [] => {}
            [one] => map.serialize_entry("written", one)?,
            many => map.serialize_entry("written", many)?,
        }
        map.end()
    }
}

impl Suggestion {
    /// Whether the rest of the game replays legally with this fix.
    pub fn confirmed(&self) -> bool {
        match self {
            Suggestion::Replace { confirmed, .. }
            | Suggestion::Insert { confirmed, .. }
            | Suggestion::Swap { confirmed, .. }
            | Suggestion::Delete { confirmed, .. } => *confirmed,
        }
    }

    /// Where the repair ranked this fix.
    pub fn rank(&self) -> &Rank {
        match self {
            Suggestion::Replace { rank, .. }
            | Suggestion::Insert { rank, .. }
            | Suggestion::Swap { rank, .. }
            | Suggestion::Delete { rank, .. } => rank,
        }
    }

    /// How many plies replay after the fix, where the repair counted them.
    pub fn replays(&self) -> Option<u32> {
        match self {
            Suggestion::Replace { replays, .. }
            | Suggestion::Insert { replays, .. }
            | Suggestion::Swap { replays, .. }
            | Suggestion::Delete { replays, .. } => *replays,
        }
    }

    /// Sets where the repair ranked this fix.
    pub(crate) fn set_rank(&mut self, new: Rank) {
        match self {
            Suggestion::Replace { rank, .. }
            | Suggestion::Insert { rank, .. }
            | Suggestion::Swap { rank, .. }
            | Suggestion::Delete { rank, .. } => *rank = new,
        }
    }

    /// Marks the fix as one of the best, or not ([`Rank::best`]).
    pub(crate) fn set_best(&mut self, best: bool) {
        match self {
            Suggestion::Replace { rank, .. }
            | Suggestion::Insert { rank, .. }
            | Suggestion::Swap { rank, .. }
            | Suggestion::Delete { rank, .. } => rank.best = best,
        }
    }

    /// Marks the fix as confirmed and records how many plies replay with it.
    pub(crate) fn set_replay(&mut self, complete: bool, plies: Option<u32>) {
        match self {
            Suggestion::Replace {
                confirmed, replays, ..
            }
            | Suggestion::Insert {
                confirmed, replays, ..
            }
            | Suggestion::Swap {
                confirmed, replays, ..
            }
            | Suggestion::Delete {
                confirmed, replays, ..
            } => {
                *confirmed = complete;
                if plies.is_some() {
                    *replays = plies;
                }
            }
        }
    }
}

/// One problem found in a game.
///
/// Positions are byte offsets into the input the game was read from; the
/// binary turns them into file, line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning (follows from the code, but for the `syntax` warnings: a tag given twice in
    /// a tag section, a game with neither moves nor a result).
    pub severity: Severity,
    /// Byte range of the token (or tag, or structure) the diagnostic is about.
    pub span: Range<usize>,
    /// 1-based ply in its line (main line or variation).
    pub ply: Option<u32>,
    /// The move number the ply belongs to.
    pub move_number: Option<u32>,
    /// The side whose move it is.
    pub side: Option<Color>,
    /// The token as written (decoded to UTF-8).
    pub token: Option<String>,
    /// One plain sentence.
    pub message: String,
    /// Extra `help:` lines for humans (the JSON carries `suggestions`).
    pub help: Vec<String>,
    /// What was probably meant, best first. Each is said in a line of
    /// [`Diagnostic::help`], in the same order, before the other help
    /// lines.
    pub suggestions: Vec<Suggestion>,
    /// The token is inside a variation.
    pub variation: bool,
    /// An `illegal-move` that stood: the replay went on from the position
    /// it made (`--illegal-moves stand`, Laws 7.5, A.4.2, B.3).
    pub stood: bool,
    /// The token as it should be written, where the rules make that
    /// certain: for a `check-mark` diagnostic, the move word with the right
    /// `+` or `#` (or none), everything else as written. It replaces the
    /// bytes of [`Diagnostic::span`]; `check --fix` applies it.
    pub rewrite: Option<String>,
}

impl Diagnostic {
    /// The help lines that say the suggestions (one each, in their order),
    /// and the other help lines.
    ///
    /// ```
    /// use pgnkit_pgn::{Game, Reader};
    /// use pgnkit_replay::{Options, replay_game};
    ///
    /// let pgn = b"1. e4 e5 2. Nf4 Nc6 3. Bb5 a6 *\n";
    /// let mut game = Game::default();
    /// assert!(Reader::new(pgn).read_game(&mut game));
    /// let report = replay_game(pgn, &game, &Options::default());
    /// let d = &report.diagnostics[0];
    /// let (said, _) = d.help_parts();
    /// assert_eq!(said.len(), d.suggestions.len());
    /// assert!(said[0].starts_with("did you mean Nf3?"));
    /// ```
    pub fn help_parts(&self) -> (&[String], &[String]) {
        self.help
            .split_at(self.suggestions.len().min(self.help.len()))
    }

    /// A diagnostic with a code, span and message; the rest empty.
    pub fn new(code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            span,
            ply: None,
            move_number: None,
            side: None,
            token: None,
            message: message.into(),
            help: Vec::new(),
            suggestions: Vec::new(),
            variation: false,
            stood: false,
            rewrite: None,
        }
    }

    /// Is this an error (not a warning)?
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A written word as a message quotes it: whole when short, else its first
/// 32 and last 8 characters around `…` (a word of megabytes, junk or a
/// descriptive word with parentheses without end, would make the message,
/// and each line that shows it, as long). [`Diagnostic::token`] keeps the
/// whole word.
///
/// ```
/// use pgnkit_replay::brief;
///
/// assert_eq!(brief("Nf3"), "Nf3");
/// let long = format!("P{}", "(Q)".repeat(1000));
/// let shown = brief(&long);
/// assert!(shown.starts_with("P(Q)(Q)") && shown.ends_with("(Q)(Q)"));
/// assert_eq!(shown.chars().count(), 32 + 1 + 8);
/// ```
pub fn brief(text: &str) -> std::borrow::Cow<'_, str> {
    const HEAD: usize = 32;
    const TAIL: usize = 8;
    let mut chars = text.char_indices();
    let Some((cut, _)) = chars.nth(HEAD) else {
        return text.into();
    };
    let Some((tail, _)) = text.char_indices().rev().nth(TAIL - 1) else {
        return text.into();
    };
    if tail <= cut {
        return text.into();
    }
    format!("{}…{}", &text[..cut], &text[tail..]).into()
}

/// `"white"` or `"black"`.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// At most this many errors, and as many warnings, are kept for one game;
/// the others are only counted ([`Omitted`]), so that a game of a million
/// broken tokens costs no more memory than a game of a hundred.
pub const MAX_PER_GAME: usize = 100;

/// Diagnostics found in a game but not kept, past [`MAX_PER_GAME`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Omitted {
    /// Errors found and not kept.
    pub errors: u64,
    /// Warnings found and not kept.
    pub warnings: u64,
    /// The same by code and severity (warning, error), in
    /// [`Code::ALL`]'s order: what a [`Selection`] needs to count them
    /// again.
    #[serde(skip)]
    pub by_code: [[u64; 2]; Code::ALL.len()],
}

impl Omitted {
    /// Whether nothing was left out.
    pub fn is_empty(&self) -> bool {
        self.errors == 0 && self.warnings == 0
    }

    /// Counts `n` more of `code` at `severity`.
    pub fn add(&mut self, code: Code, severity: Severity, n: u64) {
        match severity {
            Severity::Error => self.errors = self.errors.saturating_add(n),
            Severity::Warning => self.warnings = self.warnings.saturating_add(n),
        }
        let slot = &mut self.by_code[code.index()][usize::from(severity == Severity::Error)];
        *slot = slot.saturating_add(n);
    }

    /// Adds the counts of `other`.
    pub fn add_all(&mut self, other: &Omitted) {
        for (i, code) in Code::ALL.into_iter().enumerate() {
            self.add(code, Severity::Warning, other.by_code[i][0]);
            self.add(code, Severity::Error, other.by_code[i][1]);
        }
    }
}

/// Which codes a run reports, and at which severity: `check --select`,
/// `--ignore`, `--warn` and `--error` (and their keys in `pgnkit.toml`).
/// Applied to a game's report after the replay ([`Selection::apply`]), so
/// that it changes what is reported and counted, never how a game is read.
///
/// ```
/// use pgnkit_replay::{Code, Selection, Severity};
///
/// let mut s = Selection::default();
/// s.ignore(Code::CheckMark);
/// s.set_severity(Code::MoveNumber, Severity::Error);
/// assert!(!s.reports(Code::CheckMark));
/// assert_eq!(s.severity(Code::MoveNumber, Severity::Warning), Severity::Error);
/// assert_eq!(s.severity(Code::IllegalMove, Severity::Error), Severity::Error);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    rules: [Rule; Code::ALL.len()],
}

/// What a [`Selection`] does with one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Not reported.
    Off,
    /// Reported at the severity the replay gives it.
    AsFound,
    /// Reported at this severity.
    As(Severity),
}

impl Default for Selection {
    /// Every code, at its own severity.
    fn default() -> Selection {
        Selection {
            rules: [Rule::AsFound; Code::ALL.len()],
        }
    }
}

impl Selection {
    /// Reports only `codes` (`--select`): the others are turned off.
    pub fn select_only(&mut self, codes: &[Code]) {
        for (i, code) in Code::ALL.into_iter().enumerate() {
            if !codes.contains(&code) {
                self.rules[i] = Rule::Off;
            } else if self.rules[i] == Rule::Off {
                self.rules[i] = Rule::AsFound;
            }
        }
    }

    /// Turns `code` off (`--ignore`).
    pub fn ignore(&mut self, code: Code) {
        self.rules[code.index()] = Rule::Off;
    }

    /// Reports `code` at `severity` (`--warn`, `--error`), turning it on.
    pub fn set_severity(&mut self, code: Code, severity: Severity) {
        self.rules[code.index()] = Rule::As(severity);
    }

    /// Whether `code` is reported.
    pub fn reports(&self, code: Code) -> bool {
        self.rules[code.index()] != Rule::Off
    }

    /// The severity a diagnostic of `code` found at `found` is reported at.
    pub fn severity(&self, code: Code, found: Severity) -> Severity {
        match self.rules[code.index()] {
            Rule::As(s) => s,
            Rule::Off | Rule::AsFound => found,
        }
    }

    /// Whether this is the default (every code as found).
    pub fn is_default(&self) -> bool {
        *self == Selection::default()
    }

    /// Drops the diagnostics of codes turned off and sets the severity of
    /// the others, kept and counted alike.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>, omitted: &mut Omitted) {
        if self.is_default() {
            return;
        }
        diagnostics.retain(|d| self.reports(d.code));
        for d in diagnostics.iter_mut() {
            d.severity = self.severity(d.code, d.severity);
        }
        let before = *omitted;
        *omitted = Omitted::default();
        for (i, code) in Code::ALL.into_iter().enumerate() {
            if !self.reports(code) {
                continue;
            }
            for (found, n) in [
                (Severity::Warning, before.by_code[i][0]),
                (Severity::Error, before.by_code[i][1]),
            ] {
                omitted.add(code, self.severity(code, found), n);
            }
        }
    }
}

/// The diagnostics of one game as they are found: the first
/// [`MAX_PER_GAME`] errors and as many warnings are kept, the others are
/// counted.
///
/// ```
/// use pgnkit_replay::diagnostic::{Code, Diagnostic, Diagnostics, MAX_PER_GAME};
///
/// let mut found = Diagnostics::default();
/// for i in 0..MAX_PER_GAME + 5 {
///     found.push(Diagnostic::new(Code::IllegalMove, i..i + 1, "no"));
/// }
/// assert_eq!(found.len(), MAX_PER_GAME);
/// assert_eq!(found.omitted().errors, 5);
/// assert!(!found.has_room(Code::IllegalMove));
/// assert!(found.has_room(Code::CheckMark));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    errors: usize,
    warnings: usize,
    omitted: Omitted,
}

impl Diagnostics {
    /// Whether a diagnostic with `code` would be kept. Callers that build
    /// costly messages may call [`Diagnostics::count`] instead when not.
    pub fn has_room(&self, code: Code) -> bool {
        self.has_room_for(code.severity())
    }

    /// Whether a diagnostic of `severity` would be kept.
    pub fn has_room_for(&self, severity: Severity) -> bool {
        match severity {
            Severity::Error => self.errors < MAX_PER_GAME,
            Severity::Warning => self.warnings < MAX_PER_GAME,
        }
    }

    /// Counts a diagnostic with `code` that is not kept.
    pub fn count(&mut self, code: Code) {
        self.count_many(code, 1);
    }

    /// Counts `n` diagnostics with `code` that are not kept.
    pub fn count_many(&mut self, code: Code, n: u64) {
        self.count_as(code, code.severity(), n);
    }

    /// Counts `n` diagnostics with `code` at `severity` that are not kept.
    pub fn count_as(&mut self, code: Code, severity: Severity, n: u64) {
        self.omitted.add(code, severity, n);
    }

    /// Keeps `d` if there is room for its severity and returns its index;
    /// otherwise counts it and returns `None`.
    pub fn push(&mut self, d: Diagnostic) -> Option<usize> {
        let full = match d.severity {
            Severity::Error => self.errors >= MAX_PER_GAME,
            Severity::Warning => self.warnings >= MAX_PER_GAME,
        };
        if full {
            self.omitted.add(d.code, d.severity, 1);
            return None;
        }
        match d.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        self.list.push(d);
        Some(self.list.len() - 1)
    }

    /// Keeps the kept diagnostics for which `keep` is true; the others are
    /// dropped and no longer counted (a diagnostic that another explains).
    /// Returns how many of those before `index` were dropped, so that an
    /// index [`Diagnostics::push`] returned can be moved down.
    pub fn retain(&mut self, index: usize, mut keep: impl FnMut(&Diagnostic) -> bool) -> usize {
        let (mut errors, mut warnings, mut before) = (0, 0, 0);
        let mut i = 0;
        self.list.retain(|d| {
            let k = keep(d);
            if k {
                match d.severity {
                    Severity::Error => errors += 1,
                    Severity::Warning => warnings += 1,
                }
            } else if i < index {
                before += 1;
            }
            i += 1;
            k
        });
        self.errors = errors;
        self.warnings = warnings;
        before
    }

    /// The kept diagnostic at `index`.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut Diagnostic> {
        self.list.get_mut(index)
    }

    /// The kept diagnostics, in the order they were found.
    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.list
    }

    /// How many are kept.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether none is kept (and none was left out).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted.is_empty()
    }

    /// What was found and not kept.
    pub fn omitted(&self) -> Omitted {
        self.omitted
    }

    /// Adds the diagnostics of `other` (kept ones while there is room).
    pub fn extend(&mut self, other: Diagnostics) {
        for d in other.list {
            self.push(d);
        }
        self.omitted.add_all(&other.omitted);
    }

    /// The kept diagnostics and the count of the others.
    pub fn into_parts(self) -> (Vec<Diagnostic>, Omitted) {
        (self.list, self.omitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_place_and_a_name_of_its_own() {
        for (i, code) in Code::ALL.into_iter().enumerate() {
            assert_eq!(code.index(), i);
            assert_eq!(Code::from_name(code.as_str()), Some(code));
            assert!(code.summary().ends_with('.'));
        }
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
    }

    #[test]
    fn a_selection_counts_the_omitted_diagnostics_again() {
        let mut found = Diagnostics::default();
        for i in 0..MAX_PER_GAME + 7 {
            found.push(Diagnostic::new(Code::CheckMark, i..i + 1, "mark"));
        }
        for i in 0..5 {
            found.push(Diagnostic::new(Code::MoveNumber, i..i + 1, "number"));
        }
        found.count_many(Code::IllegalMove, 3);
        let (mut list, mut omitted) = found.into_parts();
        assert_eq!((omitted.errors, omitted.warnings), (3, 12));
        let mut s = Selection::default();
        s.ignore(Code::CheckMark);
        s.set_severity(Code::MoveNumber, Severity::Error);
        s.apply(&mut list, &mut omitted);
        assert!(list.is_empty(), "the kept ones were all check marks");
        // The 5 move numbers were past the cap of warnings: now errors.
        assert_eq!((omitted.errors, omitted.warnings), (8, 0));
        let mut only = Selection::default();
        only.select_only(&[Code::IllegalMove]);
        assert!(only.reports(Code::IllegalMove) && !only.reports(Code::Syntax));
    }
}
