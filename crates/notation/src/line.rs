//! Following a line of play: reading each move and writing it while the
//! position moves on.
//!
//! A converter reads a move, writes it in another notation and plays it,
//! move after move. Reading needs to know whether the side to move is in
//! check; writing the previous move needed the same thing for its `+`/`#`.
//! A [`Line`] keeps the position and that fact together, so each position
//! is looked at once.
//!
//! ```
//! use pgnkit_notation::{parse_move, Language, Line, Notation, Style};
//! use shakmaty::Chess;
//!
//! let lan = Style::new(Notation::Lan, Language::En);
//! let mut line = Line::new(Chess::default());
//! let mut out = String::new();
//! for word in ["f3", "e5", "g4", "Qh4#"] {
//!     let m = line.resolve(&parse_move(word)?, Language::En)?;
//!     line.write_and_play(m, &lan, &mut out);
//!     out.push(' ');
//! }
//! assert_eq!(out, "f2-f3 e7-e5 g2-g4 Qd8-h4# ");
//! assert!(line.in_check());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use shakmaty::{Chess, Move, Position};

use crate::descriptive::Origins;
use crate::language::Language;
use crate::read::{ResolveError, fast_san};
use crate::token::{MoveToken, plain_san};
use crate::write::{
    MoveBytes, MoveOut, Notation, Style, check_mark, has_evasion, write_and_play, write_lan,
    write_san,
};

/// A position reached along a line of play, with whether its side to move
/// is in check.
#[derive(Clone, Debug)]
pub struct Line {
    pos: Chess,
    in_check: bool,
    /// Where the pieces started, for descriptive notation's `KR`, `QN`
    /// (`None`: not followed, [`Line::without_origins`]).
    origins: Option<Origins>,
}

impl Line {
    /// A line starting at `pos`.
    pub fn new(pos: Chess) -> Line {
        let origins = Some(Origins::new(&pos));
        Line {
            in_check: pos.is_check(),
            pos,
            origins,
        }
    }

    /// A line starting at `pos` that does not follow where the pieces
    /// started, a few instructions a move less: it reads every move but a
    /// descriptive one naming a man by the side it started on (`KR-Q1`,
    /// `QNxP`), which only [`Line::new`]'s lines read ([`Line::reads`]).
    pub fn without_origins(pos: Chess) -> Line {
        Line {
            in_check: pos.is_check(),
            pos,
            origins: None,
        }
    }

    /// Whether [`Line::resolve`] reads `token` here as [`Line::new`]'s
    /// line would: always, but on a line [`Line::without_origins`], a
    /// token naming a man by the side it started on.
    pub fn reads(&self, token: &MoveToken) -> bool {
        self.origins.is_some() || !token.names_origin()
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The current position, taken out of the line.
    pub fn into_position(self) -> Chess {
        self.pos
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Whether the side to move is checkmated (quick when its king can
    /// step out of check).
    pub fn is_checkmate(&self) -> bool {
        self.in_check && !has_evasion(&self.pos)
    }

    /// Resolves `token` in the current position, as
    /// [`MoveToken::resolve`] does; a descriptive piece named by the side
    /// it started on (`KR-Q1`, `QN-Q2`) is the one that started there when
    /// the line did.
    ///
    /// # Errors
    /// As [`MoveToken::resolve`].
    #[inline]
    pub fn resolve(&self, token: &MoveToken, lang: Language) -> Result<Move, ResolveError> {
        token.resolve_known(&self.pos, Some(self.in_check), lang, self.origins.as_ref())
    }

    /// Reads a word of plain English SAN (`e4`, `Nf3`, `exd5`, `Nbd7`,
    /// `R1e2`, `Qxf7#`, `e8=Q+`, `O-O`, with at most a `+` or `#`) and
    /// resolves it here in one step, for the common case: `None` when the word is not
    /// plain SAN or needs the general reading (then [`parse_move`](crate::parse_move)
    /// and [`Line::resolve`] say what it is). A move it gives is the one they give.
    #[inline]
    pub fn read_plain_san(&self, word: &[u8]) -> Option<Move> {
        fast_san(&self.pos, plain_san(word)?, Some(self.in_check))
            .filter(|m| m.capture() != Some(shakmaty::Role::King))
    }

    /// Writes `m` (legal here) in `style` to `out`, as
    /// [`write_move`](crate::write_move) does, and plays it.
    #[inline]
    pub fn write_and_play(&mut self, m: Move, style: &Style, out: &mut String) {
        if let Some(origins) = self.origins.as_mut() {
            origins.play(&m);
        }
        self.in_check = match write_and_play(&mut self.pos, m, style, out) {
            Some(check) => check,
            None => self.pos.is_check(),
        };
    }

    /// Writes `m` (legal here) in UCI, as [`Line::write_and_play`] does
    /// with [`Notation::Uci`], into 16 bytes (the
    /// move's, then spaces), and plays it: the written form of a
    /// conversion to UCI without a buffer to grow. Gives the bytes and how
    /// many are the move's.
    #[inline]
    pub fn write_uci_and_play(&mut self, m: Move) -> ([u8; 16], usize) {
        let written = crate::write::uci_ascii(&self.pos, &m);
        self.play(m);
        written
    }

    /// Writes `m` (legal here) as [`Line::write_and_play`] does, into 16
    /// bytes (the move's, check mark included, then spaces), and plays it,
    /// when `style` is UCI, or English SAN or LAN: the written form of a
    /// conversion without a buffer to grow. Gives the bytes and how many
    /// are the move's; `None`, with nothing played, for any other style
    /// (the caller then writes the move with [`Line::write_and_play`]).
    ///
    /// ```
    /// use pgnkit_notation::{Language, Line, Notation, Style};
    /// use shakmaty::{Chess, Square, Move, Role};
    ///
    /// let mut line = Line::new(Chess::default());
    /// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
    /// let lan = Style::new(Notation::Lan, Language::En);
    /// let (bytes, len) = line.write_in_place_and_play(e4, &lan).unwrap();
    /// assert_eq!(&bytes[..len], b"e2-e4");
    /// let nf6 = Move::Normal { role: Role::Knight, from: Square::G8, capture: None, to: Square::F6, promotion: None };
    /// assert_eq!(line.write_in_place_and_play(nf6, &Style::new(Notation::San, Language::De)), None);
    /// ```
    #[inline]
    pub fn write_in_place_and_play(&mut self, m: Move, style: &Style) -> Option<([u8; 16], usize)> {
        // UCI, the commonest target of a conversion, asked for first.
        if style.notation == Notation::Uci {
            return Some(self.write_uci_and_play(m));
        }
        let mut out = MoveBytes::new();
        match (style.notation, style.language) {
            (Notation::San, Language::En) => write_san(&self.pos, &m, style, &mut out),
            (Notation::Lan, Language::En) => write_lan(&self.pos, &m, style, &mut out),
            _ => return None,
        }
        // Room for the check mark, before the move is played.
        if !out.has_room() {
            return None;
        }
        self.play(m);
        if style.check_marks && self.in_check {
            out.push_ascii(check_mark(&self.pos));
        }
        out.written()
    }

    /// Writes `m`, a move that stood here though it may be illegal, as
    /// [`write_stood`](crate::stood::write_stood) does, and plays it.
    pub fn write_stood_and_play(&mut self, m: Move, style: &Style, out: &mut String) {
        crate::stood::write_stood(&self.pos, &m, style, out);
        self.play(m);
    }

    /// Plays `m` (legal here, or one that stood: see [`crate::stood`]).
    #[inline(always)]
    pub fn play(&mut self, m: Move) {
        if let Some(origins) = self.origins.as_mut() {
            origins.play(&m);
        }
        self.pos.play_unchecked(m);
        self.in_check = self.pos.is_check();
    }
}
