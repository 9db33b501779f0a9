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
//! - Descriptive notation (`P-K4`, `NxP(Q5)`): see [`crate::descriptive`];
//!   a piece named by the side it started on (`KR`) is told apart only
//!   along a [`Line`](crate::Line), which follows where pieces came from.
//! - Check, mate, glyph, draw-offer and en passant marks are kept on the token
//!   but do not take part in choosing the move.

use std::fmt;

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square, attacks,
    san::San,
};

use crate::descriptive::Origins;
pub use crate::fitting::ResolveError;
use crate::fitting::{Fitting, is_pinned};
use crate::language::{Language, role_bit};
use crate::token::{Body, Coords, MoveToken, PieceMark};

const ANY_ROLE: u8 = 0b111_1110;

fn mark_roles(mark: PieceMark, lang: Language) -> Result<Option<u8>, ResolveError> {
    match mark {
        PieceMark::None => Ok(None),
        PieceMark::Role(r) => Ok(Some(role_bit(r))),
        PieceMark::Letters(l) => match l.roles(lang) {
            0 => Err(ResolveError::UnknownPiece),
            mask => Ok(Some(mask)),
        },
    }
}

/// What the token asks of a move, with the language applied.
pub(crate) struct Query {
    /// The roles the piece mark may mean, as [`role_bit`]s.
    pub(crate) roles: u8,
    /// `None`: no promotion written.
    pub(crate) promotion: Option<u8>,
    /// The squares, files and ranks written.
    pub(crate) c: Coords,
}

impl Query {
    /// Whether `m` fits everything written.
    pub(crate) fn fits(&self, m: &Move) -> bool {
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
                to == rook
                    || (to == dest && u32::from(king.file()).abs_diff(u32::from(dest.file())) >= 2)
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

/// The role of the piece on `sq`, as [`Board::role_at`] gives it,
/// without a branch: whether a move takes, and what, is no branch a
/// processor predicts well. The role's number (1 to 6) is read as three
/// bits, each from the roles whose number has it; a table turns it into
/// the role.
#[inline(always)]
fn role_on(board: &Board, sq: Square) -> Option<Role> {
    const ROLES: [Option<Role>; 8] = [
        None,
        Some(Role::Pawn),
        Some(Role::Knight),
        Some(Role::Bishop),
        Some(Role::Rook),
        Some(Role::Queen),
        Some(Role::King),
        None,
    ];
    let on = |b: Bitboard| (b.0 >> u32::from(sq)) & 1;
    let (bishops, queens, kings) = (board.bishops(), board.queens(), board.kings());
    let n = on(board.pawns() | bishops | queens)
        | on(board.knights() | bishops | kings) << 1
        | on(board.rooks() | queens | kings) << 2;
    ROLES[(n & 7) as usize]
}

/// The move `san.to_move(pos)` returns, for the common cases (no en
/// passant, no castling), found without building a move list; `None`
/// when the case is not handled here or the SAN is not exactly one legal
/// move (the caller then takes the general path, which gives the same
/// answer or the precise error).
#[inline(always)]
pub(crate) fn fast_san(pos: &Chess, san: San, in_check: Option<bool>) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return match san {
            // Read here, the castle of a plain game stays on the fast
            // path, whose code is in the instruction cache, instead of
            // the general reading's, which is not by then. In check (or
            // not known to be out of it) the general reading says why.
            San::Castle(side) if in_check == Some(false) => castle(pos, side).ok(),
            _ => None,
        };
    };
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    if us.contains(to) {
        return None;
    }
    let captured = role_on(board, to);
    if capture != captured.is_some() {
        return None;
    }
    let king = board.king_of(turn)?;
    let occupied = board.occupied();
    // Out of check, any destination; in single check, a piece other than
    // the king must capture the checker or step between; in double check
    // only the king moves.
    if in_check != Some(false) && role != Role::King {
        let checkers = board.attacks_to(king, !turn, occupied);
        if !checkers.is_empty() {
            let evasion = match checkers.single_square() {
                Some(checker) => attacks::between(king, checker).with(checker),
                None => Bitboard(0),
            };
            if !evasion.contains(to) {
                return None;
            }
        }
    }
    let ours = |r: Role| board.by_piece(r.of(turn));
    let candidates = match role {
        Role::Knight => attacks::knight_attacks(to) & ours(Role::Knight),
        Role::Bishop => attacks::bishop_attacks(to, occupied) & ours(Role::Bishop),
        Role::Rook => attacks::rook_attacks(to, occupied) & ours(Role::Rook),
        Role::Queen => attacks::queen_attacks(to, occupied) & ours(Role::Queen),
        Role::King => {
            if promotion.is_some()
                || !attacks::king_attacks(to).contains(king)
                || file.is_some_and(|f| f != king.file())
                || rank.is_some_and(|r| r != king.rank())
                || !board
                    .attacks_to(to, !turn, occupied.without(king))
                    .is_empty()
            {
                return None;
            }
            return Some(Move::Normal {
                role,
                from: king,
                capture: captured,
                to,
                promotion: None,
            });
        }
        Role::Pawn => {
            let back: i32 = if turn == Color::White { -8 } else { 8 };
            let last = if turn == Color::White {
                Rank::Eighth
            } else {
                Rank::First
            };
            if (to.rank() == last) != promotion.is_some()
                || matches!(promotion, Some(Role::Pawn | Role::King))
            {
                return None;
            }
            let pawns = ours(Role::Pawn);
            if capture {
                let f = file?;
                if u32::from(f).abs_diff(u32::from(to.file())) != 1 {
                    return None;
                }
                let from = Square::from_coords(
                    f,
                    to.rank()
                        .offset(if turn == Color::White { -1 } else { 1 })?,
                );
                if !pawns.contains(from) {
                    return None;
                }
                Bitboard::from_square(from)
            } else {
                if file.is_some_and(|f| f != to.file()) {
                    return None;
                }
                let one = to.offset(back)?;
                if pawns.contains(one) {
                    Bitboard::from_square(one)
                } else {
                    let double = if turn == Color::White {
                        Rank::Fourth
                    } else {
                        Rank::Fifth
                    };
                    let two = one.offset(back)?;
                    if to.rank() != double || occupied.contains(one) || !pawns.contains(two) {
                        return None;
                    }
                    Bitboard::from_square(two)
                }
            }
        }
    };
    if role != Role::Pawn && promotion.is_some() {
        return None;
    }
    // The file and rank written (`Nbd7`, `R1e2`, `exd5`) as masks: a move
    // of one piece or another is no branch to predict.
    let candidates = candidates
        & file.map_or(Bitboard::FULL, Bitboard::from_file)
        & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
    let mut found = None;
    for from in candidates {
        if is_pinned(pos, king, from) && !attacks::aligned(from, to, king) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(from);
    }
    found.map(|from| Move::Normal {
        role,
        from,
        capture: captured,
        to,
        promotion,
    })
}

/// The squares a SAN move names (`None` for castling, drops and null moves).
pub(crate) fn san_coords(san: San) -> Option<Coords> {
    match san {
        San::Normal {
            file,
            rank,
            capture,
            to,
            ..
        } => Some(Coords {
            from_file: file,
            from_rank: rank,
            capture,
            to_file: to.file(),
            to_rank: Some(to.rank()),
        }),
        _ => None,
    }
}

/// The castling move to `side`, as `San::Castle(side).to_move(pos)` gives it.
#[inline(never)]
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
    #[inline(always)]
    pub fn resolve(&self, pos: &Chess, lang: Language) -> Result<Move, ResolveError> {
        self.resolve_known(pos, None, lang, None)
    }

    /// [`MoveToken::resolve`] where whether the side to move is in check
    /// may already be known. No move takes a king: only a position after
    /// an illegal move that stood ([`crate::stood`]) leaves one to take.
    #[inline]
    pub(crate) fn resolve_known(
        &self,
        pos: &Chess,
        in_check: Option<bool>,
        lang: Language,
        origins: Option<&Origins>,
    ) -> Result<Move, ResolveError> {
        match self.resolve_any(pos, in_check, lang, origins) {
            Ok(m) if m.capture() == Some(Role::King) => Err(ResolveError::Illegal),
            found => found,
        }
    }

    #[inline]
    fn resolve_any(
        &self,
        pos: &Chess,
        in_check: Option<bool>,
        lang: Language,
        origins: Option<&Origins>,
    ) -> Result<Move, ResolveError> {
        if let (Body::San(san, _), Language::En) = (self.body, lang) {
            if let Some(m) = fast_san(pos, san, in_check) {
                return Ok(m);
            }
            // Check evasions, castling in check, en passant: shakmaty's own reading,
            // which is what the general path tries first for English SAN.
            if let Ok(m) = san.to_move(pos) {
                return Ok(m);
            }
        }
        if let Body::Descriptive(r) = self.body {
            return match r.get(lang) {
                Some(d) => d.resolve(pos, in_check, origins),
                None => Err(ResolveError::UnknownPiece),
            };
        }
        self.resolve_general(pos, lang)
    }

    #[inline(never)]
    fn resolve_general(&self, pos: &Chess, lang: Language) -> Result<Move, ResolveError> {
        match self.body {
            Body::San(san, _) => {
                if lang == Language::En || self.letters_mean_english(san, lang) {
                    if let Some(m) = fast_san(pos, san, None) {
                        return Ok(m);
                    }
                    if let Ok(m) = san.to_move(pos) {
                        return Ok(m);
                    }
                }
                match san {
                    San::Normal { .. } => match san_coords(san) {
                        Some(c) => self.resolve_coords(pos, lang, c),
                        None => Err(ResolveError::Illegal),
                    },
                    San::Castle(side) => castle(pos, side),
                    San::Put { .. } | San::Null => Err(ResolveError::Illegal),
                }
            }
            Body::Castle(side) => castle(pos, side),
            Body::Castles => castle(pos, CastlingSide::KingSide)
                .or_else(|_| castle(pos, CastlingSide::QueenSide)),
            Body::Coords(c) => self.resolve_coords(pos, lang, c),
            Body::Null => Err(ResolveError::Illegal),
            Body::Descriptive(r) => match r.get(lang) {
                Some(d) => d.resolve(pos, None, None),
                None => Err(ResolveError::UnknownPiece),
            },
        }
    }

    fn letters_mean_english(&self, san: San, lang: Language) -> bool {
        let San::Normal {
            role, promotion, ..
        } = san
        else {
            return true;
        };
        let same = |mark: PieceMark, role: Role| match mark {
            PieceMark::Letters(l) => l.roles(lang) == role_bit(role),
            _ => true,
        };
        same(self.piece_mark(), role) && promotion.is_none_or(|p| same(self.promotion_mark(), p))
    }

    /// Whether the token's piece letters name the same pieces in `a` and in
    /// `b` (then it resolves alike in both).
    ///
    /// ```
    /// use pgnkit_notation::{Language, parse_move};
    ///
    /// let rook = parse_move("Rf3")?;
    /// assert!(rook.reads_alike(Language::En, Language::De)); // a rook in neither
    /// assert!(!rook.reads_alike(Language::En, Language::Fr)); // a king in French
    /// assert!(parse_move("e4")?.reads_alike(Language::En, Language::Fr));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reads_alike(&self, a: Language, b: Language) -> bool {
        [self.piece_mark(), self.promotion_mark()]
            .into_iter()
            .all(|mark| mark_roles(mark, a) == mark_roles(mark, b))
    }

    /// What the token asks of a move with the squares `c`, its letters
    /// read in `lang`.
    pub(crate) fn query(&self, lang: Language, c: Coords) -> Result<Query, ResolveError> {
        let roles = match mark_roles(self.piece_mark(), lang)? {
            Some(mask) => mask,
            None if c.from_file.is_some() && c.from_rank.is_some() && c.to_rank.is_some() => {
                ANY_ROLE
            }
            None => role_bit(Role::Pawn),
        };
        Ok(Query {
            roles,
            promotion: mark_roles(self.promotion_mark(), lang)?,
            c,
        })
    }

    fn resolve_coords(&self, pos: &Chess, lang: Language, c: Coords) -> Result<Move, ResolveError> {
        let query = self.query(lang, c)?;
        // One non-king role and a destination square: only the moves of that
        // role to that square can fit (castling is a king move, so it is not lost).
        let single_role = Role::ALL
            .into_iter()
            .find(|r| role_bit(*r) == query.roles && *r != Role::King);
        let moves = match (single_role, c.to_rank) {
            (Some(role), Some(rank)) => {
                pos.san_candidates(role, Square::from_coords(c.to_file, rank))
            }
            _ => pos.legal_moves(),
        };
        let mut fitting = Fitting::default();
        for m in moves {
            if query.fits(&m) {
                fitting.push(m);
            }
        }
        fitting.resolve()
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

#[cfg(test)]
mod tests {
    use shakmaty::{Position, Square};

    use super::role_on;

    /// `role_on` gives what shakmaty's `Board::role_at` gives, on every
    /// square of every position of 200 games of moves drawn at random (a
    /// fixed seed: the same games every run), promotions and captures of
    /// every piece among them.
    #[test]
    fn the_role_on_a_square_is_shakmatys() {
        let mut squares = [0usize; 7];
        for pos in crate::random_games::positions(0x9e37_79b9_7f4a_7c15, 200, 150) {
            let board = pos.board();
            for sq in Square::ALL {
                let role = role_on(board, sq);
                assert_eq!(role, board.role_at(sq), "{sq} in {board:?}");
                squares[role.map_or(0, |r| r as usize)] += 1;
            }
        }
        assert!(squares.iter().all(|&n| n > 1000), "{squares:?}");
    }
}
