//! A move token as written: its body (SAN, coordinates, castling,
//! descriptive, null), its piece letters still uninterpreted, and its marks.

use shakmaty::{CastlingSide, File, Rank, Role, san::San};

use super::Suffix;
use crate::language::{Language, LanguageSet};

/// A written piece abbreviation of one or two characters (`N`, `Kt`, `Кр`), uninterpreted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Letters {
    /// UTF-16 code units of one or two letters (piece letters are all in the BMP); 0 = none.
    units: [u16; 2],
}

impl Letters {
    /// The letters, or `None` for characters outside the BMP (no piece letter is).
    pub(super) fn new(a: char, b: Option<char>) -> Option<Letters> {
        let unit = |c: char| u16::try_from(u32::from(c)).ok().filter(|u| *u != 0);
        Some(Letters {
            units: [unit(a)?, b.map_or(Some(0), unit)?],
        })
    }

    /// The roles these letters mean under `lang` (English fallback included).
    pub(crate) fn roles(self, lang: Language) -> u8 {
        let (chars, n) = self.chars();
        lang.roles(&chars[..n])
    }

    /// The languages under which these letters mean some piece (English
    /// fallback included).
    pub(crate) fn languages(self) -> LanguageSet {
        let (chars, n) = self.chars();
        Language::ALL
            .iter()
            .copied()
            .filter(|lang| lang.roles(&chars[..n]) != 0)
            .collect()
    }

    /// The languages in which these letters mean some piece of their own.
    pub(crate) fn own_languages(self) -> LanguageSet {
        let (chars, n) = self.chars();
        Language::ALL
            .iter()
            .copied()
            .filter(|lang| lang.own_roles(&chars[..n]) != 0)
            .collect()
    }

    fn chars(self) -> ([char; 2], usize) {
        let c = |u: u16| char::from_u32(u32::from(u)).unwrap_or('\0');
        (
            [c(self.units[0]), c(self.units[1])],
            if self.units[1] == 0 { 1 } else { 2 },
        )
    }
}

/// How a piece (moving or promoted-to) was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PieceMark {
    /// Nothing written.
    None,
    /// Letters to be read under a language.
    Letters(Letters),
    /// A language-neutral mark: figurine, spoken name, UCI lowercase promotion letter.
    Role(Role),
}

/// Coordinates as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Coords {
    pub(crate) from_file: Option<File>,
    pub(crate) from_rank: Option<Rank>,
    pub(crate) capture: bool,
    pub(crate) to_file: File,
    /// `None` for abbreviated pawn captures (`ed`, `exd`).
    pub(crate) to_rank: Option<Rank>,
}

/// The shape of the move part of a token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Body {
    /// ASCII SAN accepted by shakmaty's parser; its letters are English
    /// uppercase (`N B R Q K`, promotion letters) and the flag says whether a
    /// `P` was written before a pawn move.
    San(San, bool),
    /// `O-O`, `0-0-0`, `kurze Rochade`, `Castles QR`...
    Castle(CastlingSide),
    /// A book's `Castles` with no side written: the king's side, or the
    /// queen's when only it is legal.
    Castles,
    /// Everything else with coordinates.
    Coords(Coords),
    /// A null move (`--`, `Z0`, `0000`): never legal.
    Null,
    /// Descriptive notation (`P-K4`, `NxP(Q5)`; Spanish `P4R`), read in
    /// English and in Spanish, Italian and French.
    Descriptive(crate::descriptive::Readings),
}

/// One move token as written, parsed without a position and without choosing a language.
///
/// Cheap to create (never allocates) and `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveToken {
    pub(crate) body: Body,
    pub(crate) piece: PieceMark,
    pub(crate) promotion: PieceMark,
    pub(super) marks: Marks,
}

/// The marks attached to a move, packed in one byte: bits 0-1 suffix,
/// 2-4 NAG (0 = none), 5 draw offer, 6 en passant, 7 trailing capture mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(super) struct Marks(u8);

impl Marks {
    pub(super) const DRAW: u8 = 1 << 5;
    pub(super) const EP: u8 = 1 << 6;
    pub(super) const CAPTURE: u8 = 1 << 7;

    fn suffix(self) -> Suffix {
        match self.0 & 3 {
            1 => Suffix::Check,
            2 => Suffix::DoubleCheck,
            3 => Suffix::Mate,
            _ => Suffix::None,
        }
    }

    pub(super) fn set_suffix(&mut self, suffix: Suffix) {
        let bits = match suffix {
            Suffix::None => 0,
            Suffix::Check => 1,
            Suffix::DoubleCheck => 2,
            Suffix::Mate => 3,
        };
        self.0 = (self.0 & !3) | bits;
    }

    fn nag(self) -> Option<u8> {
        match (self.0 >> 2) & 7 {
            0 => None,
            n => Some(n),
        }
    }

    pub(super) fn set_nag(&mut self, nag: Option<u8>) {
        self.0 = (self.0 & !(7 << 2)) | (nag.unwrap_or(0).min(7) << 2);
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    pub(super) fn set(&mut self, bit: u8, on: bool) {
        if on {
            self.0 |= bit;
        }
    }
}

impl MoveToken {
    pub(super) fn new(body: Body) -> MoveToken {
        MoveToken {
            body,
            piece: PieceMark::None,
            promotion: PieceMark::None,
            marks: Marks(0),
        }
    }

    /// The check or mate mark the writer attached.
    pub fn suffix(&self) -> Suffix {
        self.marks.suffix()
    }

    /// The move glyph attached (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub fn nag(&self) -> Option<u8> {
        self.marks.nag()
    }

    /// Whether a draw offer (`(=)` or a trailing `=`) is attached.
    pub fn draw_offer(&self) -> bool {
        self.marks.has(Marks::DRAW)
    }

    /// Whether an en passant mark (`e.p.`, `ep`) is attached.
    pub fn en_passant_marked(&self) -> bool {
        self.marks.has(Marks::EP)
    }

    /// Whether a capture mark (`x`, `:`, `×`) was written.
    pub fn is_capture_marked(&self) -> bool {
        self.marks.has(Marks::CAPTURE)
            || match self.body {
                Body::San(San::Normal { capture, .. }, _) => capture,
                Body::Coords(c) => c.capture,
                Body::Descriptive(r) => r.is_capture(),
                _ => false,
            }
    }

    /// The token as shakmaty SAN, when it is plain ASCII SAN with English letters.
    pub fn san(&self) -> Option<San> {
        match self.body {
            Body::San(san, _) => Some(san),
            _ => None,
        }
    }

    /// Whether this is a null move (`--`, `Z0`, `0000`), which no position accepts.
    pub fn is_null(&self) -> bool {
        self.body == Body::Null
    }

    /// Whether the token is a move of descriptive notation (`P-K4`,
    /// `NxP(Q5)`, Spanish `P4R`; castling, `O-O`, is castling whatever
    /// the notation).
    pub fn is_descriptive(&self) -> bool {
        matches!(self.body, Body::Descriptive(_))
    }

    /// Whether the token is descriptive and names a man by the side it
    /// started on (`KR-Q1`, `QNxP`): only a [`Line`](crate::Line) that
    /// follows where the pieces started reads it ([`Line::reads`](crate::Line::reads)).
    pub fn names_origin(&self) -> bool {
        matches!(self.body, Body::Descriptive(r) if r.names_origin())
    }

    /// The readings of a descriptive word.
    pub(crate) fn descriptive(&self) -> Option<crate::descriptive::Readings> {
        match self.body {
            Body::Descriptive(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the token is castling written as such (`O-O`, `0-0-0`, `lange Rochade`, `Castles`).
    pub fn is_castling(&self) -> bool {
        matches!(
            self.body,
            Body::Castle(_) | Body::Castles | Body::San(San::Castle(_), _)
        )
    }

    /// Languages under which this token's piece letters (if any) mean some
    /// piece, counting the English fallback. [`LanguageSet::ALL`] for
    /// language-neutral tokens (pawn moves, castling, UCI, figurines, spoken).
    pub fn languages(&self) -> LanguageSet {
        if let Body::Descriptive(r) = self.body {
            return r.languages();
        }
        let mut set = LanguageSet::ALL;
        for mark in [self.piece_mark(), self.promotion_mark()] {
            if let PieceMark::Letters(l) = mark {
                set = set.intersect(l.languages());
            }
        }
        set
    }

    /// Languages in which the piece letters have a meaning of their own (no
    /// English fallback): the evidence a token gives about its language.
    pub fn own_languages(&self) -> LanguageSet {
        if let Body::Descriptive(r) = self.body {
            return r.own_languages();
        }
        let mut set = LanguageSet::ALL;
        for mark in [self.piece_mark(), self.promotion_mark()] {
            if let PieceMark::Letters(l) = mark {
                set = set.intersect(l.own_languages());
            }
        }
        set
    }

    /// Whether the token's meaning may depend on the language (it has piece letters).
    pub fn has_letters(&self) -> bool {
        if let Body::Descriptive(r) = self.body {
            return r.depends_on_language();
        }
        matches!(self.piece_mark(), PieceMark::Letters(_))
            || matches!(self.promotion_mark(), PieceMark::Letters(_))
    }

    /// How the moving piece was written.
    pub(crate) fn piece_mark(&self) -> PieceMark {
        match self.body {
            Body::San(San::Normal { role, .. }, pawn_letter)
                if role != Role::Pawn || pawn_letter =>
            {
                Letters::new(role.upper_char(), None).map_or(PieceMark::None, PieceMark::Letters)
            }
            Body::San(..) => PieceMark::None,
            _ => self.piece,
        }
    }

    /// How the promotion piece was written.
    pub(crate) fn promotion_mark(&self) -> PieceMark {
        match self.body {
            Body::San(
                San::Normal {
                    promotion: Some(role),
                    ..
                },
                _,
            ) => Letters::new(role.upper_char(), None).map_or(PieceMark::None, PieceMark::Letters),
            Body::San(..) => PieceMark::None,
            _ => self.promotion,
        }
    }
}
