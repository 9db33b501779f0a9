//! Descriptive notation (`P-K4`, `N-KB3`, `PxP`, `R(KB1)-K1`, `P-K8=Q`;
//! Spanish `P4R`, `C3AR`): read in every form found in print and written
//! in one classic style.
//!
//! Squares are named from the mover's side: the file by the piece that
//! starts on it (`QR QN QB Q K KB KN KR` for the a- to h-files), the rank
//! counted from the mover's first rank, so White's `K4` is e4 and Black's
//! is e5. A short square (`B3`) names both files of its piece (`QB3` or
//! `KB3`).
//!
//! Reading states constraints and resolves them with the rule every
//! notation of this crate follows: a token is read when exactly one legal
//! move fits all it states. It states the moving piece (`P N B R Q K`, `Kt`
//! for the knight; `KR`/`QN`... a piece by the side of the board it started
//! on, tracked along the line by [`Line`](crate::Line); `KP`/`QBP`/`BP`... a
//! pawn by the file it stands on), its square (`R(KB1)-K1`, `R1-Q1`), the
//! destination (`-K4`) or what it captures (`xP`, `xQP`, `xN(Q5)`: the
//! captured piece, its file, its square), and the promotion (`P-K8=Q`,
//! `P-K8(Q)`, `P-Q8Q`). A `-` move captures nothing; `x` always captures.
//!
//! Writing ([`Notation::Descriptive`](crate::Notation::Descriptive)) uses
//! full square names (`N-KB3`, `P-QB4`), captures by the pieces (`PxP`,
//! `NxB`) made unique first by the captured piece's square (`NxP(Q5)`),
//! then also by the mover's (`N(KB3)xP(K5)`), other moves by the mover's
//! square (`R(KB1)-K1`); `ch` after a check, ` mate` after a mate,
//! ` e.p.` after an en passant capture, promotions `P-K8=Q`, castling
//! `O-O`/`O-O-O`.
//!
//! Spanish, Italian and French descriptive notation (the Latin family,
//! a table of letters as English has: `R D T A C P`, French `F` for the bishop; files
//! `TD CD AD D R AR CR TR`) name the same things in another order: the
//! rank first (`P4R` is P-K4, `C3AR` N-KB3, `A5CD` B-QN5), the side after
//! the piece (`CR` the king's knight, `PR` the king's pawn, `PCxPA`), a
//! move without `-`. Under `es`, `it` or `fr` a word is read that way
//! (`RxP`: the king takes), under any other language in English; with
//! those languages the writer uses the same style in the Latin order
//! (`C3AR`, `AxC`, `CxP5D`, `T1AR-1R`, `P8R=D`, `+` for check).
//!
//! ```
//! use pgnkit_notation::{Language, Notation, ResolveError, Style, parse_move, write_move};
//! use shakmaty::{Chess, Position};
//!
//! let mut pos = Chess::default();
//! // Both knights go to a B3.
//! let short = parse_move("N-B3")?.resolve(&pos, Language::En);
//! assert!(matches!(short, Err(ResolveError::Ambiguous(moves)) if moves.len() == 2));
//!
//! let mut out = Vec::new();
//! let style = Style::new(Notation::Descriptive, Language::En);
//! for word in ["P-K4", "P-K4", "Kt-KB3", "N-QB3", "B-B4", "N-B3"] {
//!     let m = parse_move(word)?.resolve(&pos, Language::En)?;
//!     let mut s = String::new();
//!     write_move(&pos, &m, &style, &mut s);
//!     out.push(s);
//!     pos.play_unchecked(m);
//! }
//! assert_eq!(out, ["P-K4", "P-K4", "N-KB3", "N-QB3", "B-QB4", "N-KB3"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod attached;
mod family;
mod origins;
mod readings;
mod resolve;
#[cfg(test)]
mod tests;
mod write;

pub use attached::{attached_end, attached_parenthesis, castles_end, is_castles};
pub(crate) use origins::Origins;
pub(crate) use readings::{Readings, may_start};
pub(crate) use write::write;

use shakmaty::{Color, Rank, Role};

/// A set of files, bit 0 the a-file.
type Files = u8;

const ALL_FILES: Files = 0xFF;

/// The side of the board a piece started on or a file belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    /// The king's side (the e- to h-files).
    King,
    /// The queen's side (the a- to d-files).
    Queen,
}

/// A man as written: `P`, `N`, `KR`, `QBP`...
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Man {
    role: Role,
    /// The files a pawn may stand on (every file for a piece).
    files: Files,
    /// The side a piece started on (`KR`, `QN`), if written.
    side: Option<Side>,
}

/// A square as written, from the mover's side: files and a rank (`None`:
/// any rank, as in `R1`'s origin the rank only is written).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Place {
    files: Files,
    /// The rank counted from the mover's first rank, 0-7.
    rank: Option<u8>,
}

/// One descriptive move (castling is read as castling elsewhere).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Descriptive {
    man: Man,
    /// The mover's square, if written.
    from: Option<Place>,
    /// What is captured (`None`: a move to `to`).
    captured: Option<Man>,
    /// The destination of a move; the captured man's square of a capture.
    to: Option<Place>,
    promotion: Option<Role>,
}

impl Descriptive {
    /// Whether the token captures.
    pub(crate) fn is_capture(&self) -> bool {
        self.captured.is_some()
    }

    /// Whether the token names a man by the side it started on (`KR`,
    /// `QNxP`, `RxKB`): its reading needs the line's [`Origins`].
    pub(crate) fn names_origin(&self) -> bool {
        self.man.side.is_some() || self.captured.is_some_and(|c| c.side.is_some())
    }
}

fn relative_rank(rank: Rank, turn: Color) -> u8 {
    let r = rank as u8;
    match turn {
        Color::White => r,
        Color::Black => 7 - r,
    }
}
