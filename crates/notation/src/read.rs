//! Resolving a parsed token against a position, under a language.
//!
//! A token resolves only if exactly one legal move fits everything written:
//!
//! - The piece letter is read under the language (its own meaning first, else
//!   the English one). No letter means a pawn, except when a full origin
//!   square is written (`g1f3`, `g1-f3`): then any piece standing there.
//! - A missing capture mark is accepted (`Bd5` for `Bxd5`); a written capture
//!   mark (`x`, `:`, `×`) on a move that captures nothing does not fit.
//! - A pawn move without an origin file is a push (`d6` never means `exd6`).
//! - Abbreviated pawn captures (`ed`, `exd`) fit every pawn capture from that
//!   file to that file; they resolve only when there is exactly one.
//! - Over-specified origins (`Ng1f3`, `Qd1d2`) must agree with the move.
//! - Promotion: a written piece must match; an omitted one fits all four
//!   promotions, which is reported as ambiguous, never guessed.
//! - Castling (`O-O`) resolves through `castling_moves`, so Chess960 works; a
//!   king move written with squares resolves to castling when it names the
//!   king and either its rook (`e1h1`) or the king's castling square at least
//!   two files away (`e1g1`).
//! - Check, mate, glyph, draw-offer and en passant marks are kept on the token
//!   but do not take part in choosing the move.

use std::fmt;

use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position, Role, Square, san::San};

use crate::language::{Language, role_bit};
use crate::token::{Body, Coords, MoveToken, PieceMark};

/// Why a parsed token does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResolveError {
    /// No legal move fits the token.
    Illegal,
    /// Several legal moves fit: the candidates, in move-generation order.
    Ambiguous(Vec<Move>),
    /// The piece letter means nothing in this language (nor in English).
    UnknownPiece,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Illegal => f.write_str("no legal move fits"),
            ResolveError::Ambiguous(moves) => {
                write!(f, "{} legal moves fit:", moves.len())?;
                for m in moves {
                    write!(f, " {}", m.to_uci(CastlingMode::Standard))?;
                }
                Ok(())
            }
            ResolveError::UnknownPiece => f.write_str("the piece letter means nothing in this language"),
        }
    }
}

impl std::error::Error for ResolveError {}

const ANY_ROLE: u8 = 0b111_1110;

fn mark_roles(mark: PieceMark, lang: Language) -> Result<Option<u8>, ResolveError> {
    match mark {
        PieceMark::None => Ok(None),
        PieceMark::Role(r) => Ok(Some(role_bit(r))),
        PieceMark::Letters(l) => match lang.roles(l.as_slice()) {
            0 => Err(ResolveError::UnknownPiece),
            mask => Ok(Some(mask)),
        },
    }
}

/// What the token asks of a move, with the language applied.
struct Query {
    roles: u8,
    /// `None`: no promotion written.
    promotion: Option<u8>,
    c: Coords,
}

impl Query {
    fn fits(&self, m: &Move) -> bool {
        let c = &self.c;
        match *m {
            Move::Castle { king, rook } => {
                if self.roles & role_bit(Role::King) == 0 || c.capture || self.promotion.is_some() {
                    return false;
                }
                let (Some(ff), Some(fr), Some(tr)) = (c.from_file, c.from_rank, c.to_rank) else {
                    return false;
                };
                if Square::from_coords(ff, fr) != king {
                    return false;
                }
                let to = Square::from_coords(c.to_file, tr);
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let dest = Square::from_coords(side.king_to_file(), king.rank());
                to == rook || (to == dest && u32::from(king.file()).abs_diff(u32::from(dest.file())) >= 2)
            }
            Move::Put { .. } => false,
            _ => {
                let role = m.role();
                let Some(from) = m.from() else { return false };
                let to = m.to();
                self.roles & role_bit(role) != 0
                    && c.from_file.is_none_or(|f| f == from.file())
                    && c.from_rank.is_none_or(|r| r == from.rank())
                    && c.to_file == to.file()
                    && match c.to_rank {
                        Some(r) => r == to.rank(),
                        None => role == Role::Pawn && m.is_capture(),
                    }
                    && (!c.capture || m.is_capture())
                    && !(role == Role::Pawn && c.from_file.is_none() && m.is_capture())
                    && match (self.promotion, m.promotion()) {
                        (Some(mask), Some(p)) => mask & role_bit(p) != 0,
                        (Some(_), None) => false,
                        (None, _) => true,
                    }
            }
        }
    }
}

fn castle(pos: &Chess, side: CastlingSide) -> Result<Move, ResolveError> {
    pos.castling_moves(side)
        .first()
        .copied()
        .ok_or(ResolveError::Illegal)
}

impl MoveToken {
    /// Resolves the token to exactly one legal move in `pos`, reading piece
    /// letters as `lang` (a letter with no meaning in `lang` is read as
    /// English). Figurines, UCI, spoken moves, pawn moves and castling are
    /// language-neutral. See the [module docs](crate::read) for the rules.
    ///
    /// # Errors
    ///
    /// [`ResolveError`] when no move, or more than one, fits.
    #[inline]
    pub fn resolve(&self, pos: &Chess, lang: Language) -> Result<Move, ResolveError> {
        match self.body {
            Body::San(san) => {
                if lang == Language::En || self.letters_mean_english(san, lang) {
                    if let Ok(m) = san.to_move(pos) {
                        return Ok(m);
                    }
                }
                match san {
                    San::Normal {
                        file,
                        rank,
                        capture,
                        to,
                        ..
                    } => self.resolve_coords(
                        pos,
                        lang,
                        Coords {
                            from_file: file,
                            from_rank: rank,
                            capture,
                            to_file: to.file(),
                            to_rank: Some(to.rank()),
                        },
                    ),
                    San::Castle(side) => castle(pos, side),
                    San::Put { .. } | San::Null => Err(ResolveError::Illegal),
                }
            }
            Body::Castle(side) => castle(pos, side),
            Body::Coords(c) => self.resolve_coords(pos, lang, c),
            Body::Null => Err(ResolveError::Illegal),
        }
    }

    fn letters_mean_english(&self, san: San, lang: Language) -> bool {
        let San::Normal { role, promotion, .. } = san else {
            return true;
        };
        let same = |mark: PieceMark, role: Role| match mark {
            PieceMark::Letters(l) => lang.roles(l.as_slice()) == role_bit(role),
            _ => true,
        };
        same(self.piece, role) && promotion.is_none_or(|p| same(self.promotion, p))
    }

    fn resolve_coords(&self, pos: &Chess, lang: Language, c: Coords) -> Result<Move, ResolveError> {
        let roles = match mark_roles(self.piece, lang)? {
            Some(mask) => mask,
            None if c.from_file.is_some() && c.from_rank.is_some() && c.to_rank.is_some() => ANY_ROLE,
            None => role_bit(Role::Pawn),
        };
        let query = Query {
            roles,
            promotion: mark_roles(self.promotion, lang)?,
            c,
        };
        let mut found: Option<Move> = None;
        let mut more: Vec<Move> = Vec::new();
        for m in pos.legal_moves() {
            if query.fits(&m) {
                if found.is_none() {
                    found = Some(m);
                } else {
                    more.push(m);
                }
            }
        }
        match found {
            None => Err(ResolveError::Illegal),
            Some(m) if more.is_empty() => Ok(m),
            Some(m) => {
                more.insert(0, m);
                Err(ResolveError::Ambiguous(more))
            }
        }
    }
}

/// Parses `text` and resolves it in one step (see [`parse_move`](crate::parse_move) and
/// [`MoveToken::resolve`]).
///
/// # Errors
///
/// [`ReadError`] naming whether the text did not parse or did not resolve.
pub fn read_move(text: &str, pos: &Chess, lang: Language) -> Result<Move, ReadError> {
    crate::token::parse_move(text)
        .map_err(ReadError::Parse)?
        .resolve(pos, lang)
        .map_err(ReadError::Resolve)
}

/// Either stage of [`read_move`] failing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReadError {
    /// The text is no move in any notation.
    Parse(crate::token::ParseError),
    /// The text is a move, but not exactly one legal move fits it.
    Resolve(ResolveError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Parse(e) => e.fmt(f),
            ReadError::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {}
