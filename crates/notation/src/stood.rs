//! Moves as they were played on the board, legal or not.
//!
//! Under the Laws an illegal move does not always vanish: in rapid and
//! blitz (Appendices A.4.2 and B.3) it stands once the opponent has moved,
//! and a board-fed broadcast shows whatever was played. To replay such a
//! game, a token that fits no legal move is read once more as the move of
//! one of the mover's pieces, whatever its geometry:
//!
//! - the piece is the one the token names: its letter (read in the
//!   language), its destination, and whatever origin it writes;
//! - of several such pieces, the one that attacks the destination (a king
//!   stepping into check, a pinned piece) is meant, then the one whose
//!   geometry reaches it past a blocking piece, then the only one there
//!   is (a piece moved off its geometry); two at the same level fit
//!   several, and nothing is guessed;
//! - castling is the king's and its rook's, with the squares they land on
//!   free, even out of check, through an attacked square, or after the
//!   king or rook moved;
//! - no move captures a king, lands on a piece of its own side, or leaves
//!   a pawn on its last rank unpromoted: such a token fits no move.
//!
//! ```
//! use pgnkit_notation::{Language, parse_move, stood::write_stood};
//! use pgnkit_notation::{Notation, Style};
//! use shakmaty::{Chess, Position, Square};
//!
//! let pos = Chess::default();
//! // The f1 bishop jumps over its own pawn: illegal, but it is the piece.
//! let token = parse_move("Bc4")?;
//! assert!(token.resolve(&pos, Language::En).is_err());
//! let m = token.resolve_as_played(&pos, Language::En)?;
//! assert_eq!(m.from(), Some(Square::F1));
//!
//! // Written to read back: the c1 bishop is on the board too.
//! let mut san = String::new();
//! write_stood(&pos, &m, &Style::new(Notation::San, Language::En), &mut san);
//! assert_eq!(san, "Bf1c4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square, attacks, san::San,
};

use crate::fitting::ResolveError;
use crate::language::{Language, role_bit};
use crate::read::{Query, san_coords};
use crate::token::{Body, MoveToken};
use crate::write::{Notation, Style, write_move};

impl MoveToken {
    /// The one move of the side to move that the token names, legal or
    /// not, as it was played on the board (see the [module docs](self)).
    /// Meant for a token that [`MoveToken::resolve`] found no legal move
    /// for; a legal move is found too.
    ///
    /// # Errors
    ///
    /// [`ResolveError::Illegal`] when no piece fits the token (or the move
    /// would capture a king, or land on the mover's own piece),
    /// [`ResolveError::Ambiguous`] when several fit equally,
    /// [`ResolveError::UnknownPiece`] for a letter with no meaning.
    pub fn resolve_as_played(&self, pos: &Chess, lang: Language) -> Result<Move, ResolveError> {
        let query = match self.body {
            Body::Castle(side) | Body::San(San::Castle(side), _) => {
                return castle_as_played(pos, side);
            }
            // A book's `Castles`: the king's side, as played.
            Body::Castles => return castle_as_played(pos, CastlingSide::KingSide),
            Body::San(san, _) => {
                let c = san_coords(san).ok_or(ResolveError::Illegal)?;
                self.query(lang, c)?
            }
            Body::Coords(c) => self.query(lang, c)?,
            Body::Null | Body::Descriptive(_) => return Err(ResolveError::Illegal),
        };
        if let (Some(rank), true) = (query.c.to_rank, query.roles & role_bit(Role::King) != 0)
            && let Some(m) =
                castle_by_squares(pos, &query, Square::from_coords(query.c.to_file, rank))
        {
            return Ok(m);
        }
        piece_as_played(pos, &query)
    }
}

/// Why a move that stood was illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The move leaves (or puts) the mover's own king in check.
    KingInCheck,
    /// Another piece stands in the way.
    Blocked,
    /// The piece does not move that way.
    OffGeometry,
    /// Castling was not allowed: the king or rook had moved, or the king
    /// was in check or passed through an attacked square.
    Castling,
}

impl Fault {
    /// Why `m`, played in `pos` though illegal there, was illegal.
    pub fn of(pos: &Chess, m: &Move) -> Fault {
        match *m {
            Move::Normal { role, from, to, .. } => match reach(pos, role, from, to) {
                2 => Fault::KingInCheck,
                1 if matches!(role, Role::Bishop | Role::Rook | Role::Queen) => Fault::Blocked,
                _ => Fault::OffGeometry,
            },
            Move::Castle { .. } => Fault::Castling,
            Move::EnPassant { .. } | Move::Put { .. } => Fault::KingInCheck,
        }
    }

    /// The fault in a few plain words: `its own king would be in check`.
    pub fn describe(self) -> &'static str {
        match self {
            Fault::KingInCheck => "its own king would be in check",
            Fault::Blocked => "another piece stands in the way",
            Fault::OffGeometry => "the piece does not move that way",
            Fault::Castling => "castling was not allowed",
        }
    }
}

/// How surely a piece is the one meant: it attacks the destination, its
/// geometry reaches it past other pieces, or it is the only one of its kind.
fn reach(pos: &Chess, role: Role, from: Square, to: Square) -> u8 {
    let occupied = pos.board().occupied();
    let turn = pos.turn();
    let (now, empty) = match role {
        Role::Pawn => {
            let forward: i32 = if turn == Color::White { 8 } else { -8 };
            let push = from.offset(forward) == Some(to);
            let double = from.rank() == turn.relative_rank(Rank::Second)
                && from.offset(2 * forward) == Some(to);
            let capture = attacks::pawn_attacks(turn, from).contains(to);
            let free = !occupied.contains(to);
            let between = from.offset(forward).is_some_and(|s| !occupied.contains(s));
            (
                (push && free) || (double && free && between) || (capture && !free),
                push || double || capture,
            )
        }
        Role::Knight => (
            attacks::knight_attacks(from).contains(to),
            attacks::knight_attacks(from).contains(to),
        ),
        Role::King => (
            attacks::king_attacks(from).contains(to),
            attacks::king_attacks(from).contains(to),
        ),
        Role::Bishop => (
            attacks::bishop_attacks(from, occupied).contains(to),
            attacks::bishop_attacks(from, Bitboard::EMPTY).contains(to),
        ),
        Role::Rook => (
            attacks::rook_attacks(from, occupied).contains(to),
            attacks::rook_attacks(from, Bitboard::EMPTY).contains(to),
        ),
        Role::Queen => (
            attacks::queen_attacks(from, occupied).contains(to),
            attacks::queen_attacks(from, Bitboard::EMPTY).contains(to),
        ),
    };
    match (now, empty) {
        (true, _) => 2,
        (false, true) => 1,
        (false, false) => 0,
    }
}

/// The move of one of the mover's pieces that `query` names.
fn piece_as_played(pos: &Chess, query: &Query) -> Result<Move, ResolveError> {
    let c = &query.c;
    let rank = c.to_rank.ok_or(ResolveError::Illegal)?;
    let to = Square::from_coords(c.to_file, rank);
    let board = pos.board();
    let turn = pos.turn();
    if board.by_color(turn).contains(to) {
        return Err(ResolveError::Illegal);
    }
    let capture = board.role_at(to);
    if capture == Some(Role::King) {
        return Err(ResolveError::Illegal);
    }
    let last = turn.relative_rank(Rank::Eighth);
    // The best level found, and the moves found at it.
    let mut best = 0u8;
    let mut found: Vec<Move> = Vec::new();
    for role in Role::ALL {
        if query.roles & role_bit(role) == 0 {
            continue;
        }
        let promotions: &[Option<Role>] = match (role, to.rank() == last) {
            (Role::Pawn, true) => &[
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
            ],
            _ => &[None],
        };
        for from in board.by_piece(role.of(turn)) {
            if from == to || (role == Role::Pawn && !pawn_behind(turn, from, to, c)) {
                continue;
            }
            let level = reach(pos, role, from, to) + 1;
            if level < best {
                continue;
            }
            for &promotion in promotions {
                let m = Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion,
                };
                if !query.fits(&m) {
                    continue;
                }
                if level > best {
                    best = level;
                    found.clear();
                }
                found.push(m);
            }
        }
    }
    match found.as_slice() {
        [] => Err(ResolveError::Illegal),
        [m] => Ok(*m),
        _ => Err(ResolveError::Ambiguous(found)),
    }
}

/// Whether a pawn on `from` may be the one that went to `to`, behind it:
/// on the same file, or on a neighbouring file where the word writes a
/// capture or the pawn's file (`exd5`, `ed5`); a push (`e5`) is the file's.
fn pawn_behind(turn: Color, from: Square, to: Square, c: &crate::token::Coords) -> bool {
    let files = u32::from(from.file()).abs_diff(u32::from(to.file()));
    let ahead = match turn {
        Color::White => from.rank() < to.rank(),
        Color::Black => from.rank() > to.rank(),
    };
    let across = c.capture || c.from_file.is_some();
    ahead && (files == 0 && !c.capture || files == 1 && across)
}

/// Castling on `side` as played: the king on its back rank, its rook on
/// that side of it (the one the castling rights name, else the outermost),
/// and the two squares they land on free of other pieces.
fn castle_as_played(pos: &Chess, side: CastlingSide) -> Result<Move, ResolveError> {
    if let Some(m) = pos.castling_moves(side).first() {
        return Ok(*m);
    }
    let board = pos.board();
    let turn = pos.turn();
    let back = turn.relative_rank(Rank::First);
    let king = board.king_of(turn).ok_or(ResolveError::Illegal)?;
    if king.rank() != back {
        return Err(ResolveError::Illegal);
    }
    let rooks = board.by_piece(Role::Rook.of(turn)) & Bitboard::from_rank(back);
    let named = pos
        .castles()
        .rook(turn, side)
        .filter(|r| rooks.contains(*r));
    let outermost = match side {
        CastlingSide::KingSide => rooks.into_iter().rev().find(|r| r.file() > king.file()),
        CastlingSide::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
    };
    let rook = named.or(outermost).ok_or(ResolveError::Illegal)?;
    let king_to = Square::from_coords(side.king_to_file(), back);
    let rook_to = Square::from_coords(side.rook_to_file(), back);
    let others = board.occupied().without(king).without(rook);
    if others.contains(king_to) || others.contains(rook_to) {
        return Err(ResolveError::Illegal);
    }
    Ok(Move::Castle { king, rook })
}

/// Castling written as the king's squares (`e1g1`, `Ke1-c1`): the king
/// going two files or more along its back rank toward a rook.
fn castle_by_squares(pos: &Chess, query: &Query, to: Square) -> Option<Move> {
    let c = &query.c;
    let king = pos.board().king_of(pos.turn())?;
    if c.from_file != Some(king.file())
        || c.from_rank != Some(king.rank())
        || to.rank() != king.rank()
        || u32::from(king.file()).abs_diff(u32::from(to.file())) < 2
    {
        return None;
    }
    let side = if to.file() > king.file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    castle_as_played(pos, side).ok()
}

/// Writes `m`, a move that stood in `pos` though it may be illegal there,
/// in `style`, so that it reads back as the same move: in SAN a piece move
/// names its square when another piece of its kind is on the board; the
/// check mark is the one the position after it gives.
pub fn write_stood(pos: &Chess, m: &Move, style: &Style, out: &mut String) {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = *m
    else {
        write_move(pos, m, style, out);
        return;
    };
    if !matches!(style.notation, Notation::San | Notation::Figurine) {
        write_move(pos, m, style, out);
        return;
    }
    let others = pos.board().by_piece(role.of(pos.turn())).without(from);
    let origin = !others.is_empty() && role != Role::Pawn && role != Role::King;
    let san = San::Normal {
        role,
        file: (origin || (role == Role::Pawn && capture.is_some())).then(|| from.file()),
        rank: origin.then(|| from.rank()),
        capture: capture.is_some(),
        to,
        promotion,
    };
    crate::write::write_san_form(pos, &san, style, out);
    if style.check_marks {
        crate::write::push_suffix(pos, m, out);
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Move, Square};

    use crate::{Language, Notation, Style, parse_move};

    use super::write_stood;

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("legal test position")
    }

    fn as_played(pos: &Chess, word: &str) -> Option<Move> {
        parse_move(word)
            .ok()?
            .resolve_as_played(pos, Language::En)
            .ok()
    }

    // Expected moves worked out by hand from the diagrams the FENs give.

    #[test]
    fn a_piece_blocked_on_its_way_is_the_one_meant() {
        let pos = Chess::default();
        let m = as_played(&pos, "Qh5").expect("the queen");
        assert_eq!((m.from(), m.to()), (Some(Square::D1), Square::H5));
        // A rook through its own pawn, then the other rook is no candidate.
        let m = as_played(&pos, "Ra3").expect("the a1 rook");
        assert_eq!(m.from(), Some(Square::A1));
    }

    #[test]
    fn a_piece_off_its_geometry_stands_when_it_is_the_only_one() {
        // White has one bishop (c1) and plays it to d3: off its diagonals.
        let pos = position("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        let m = as_played(&pos, "Bd3").expect("the only bishop");
        assert_eq!(m.from(), Some(Square::C1));
        // Two rooks, neither on the line: several fit.
        let pos = position("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert!(as_played(&pos, "Rb2").is_none());
        // The origin written tells them apart.
        let m = as_played(&pos, "Rab2").expect("the a1 rook");
        assert_eq!(m.from(), Some(Square::A1));
    }

    #[test]
    fn a_king_into_check_and_a_pinned_piece() {
        // Black rook on e8 pins the e2 knight and covers e-file squares.
        let pos = position("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
        let m = as_played(&pos, "Nc3").expect("the pinned knight");
        assert_eq!(m.from(), Some(Square::E2));
        let pos = position("3r2k1/8/8/8/8/8/8/4K3 w - - 0 1");
        let m = as_played(&pos, "Kd2").expect("the king into check");
        assert_eq!(m.from(), Some(Square::E1));
    }

    #[test]
    fn nothing_captures_a_king_or_its_own_piece() {
        let pos = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert!(as_played(&pos, "Rxe8").is_none(), "a king is never taken");
        assert!(
            as_played(&pos, "Re1").is_none(),
            "its own king stands there"
        );
    }

    #[test]
    fn castling_that_was_not_allowed() {
        // The king has moved (no rights) but stands on e1 again.
        let pos = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_eq!(
            as_played(&pos, "O-O"),
            Some(Move::Castle {
                king: Square::E1,
                rook: Square::H1
            })
        );
        assert_eq!(
            as_played(&pos, "e1g1"),
            Some(Move::Castle {
                king: Square::E1,
                rook: Square::H1
            })
        );
        // A piece on g1: no castling can be played.
        let pos = position("4k3/8/8/8/8/8/8/4K1NR w - - 0 1");
        assert!(as_played(&pos, "O-O").is_none());
    }

    #[test]
    fn a_pawn_move_names_its_file() {
        // e-pawn on e4 blocked by a black pawn on e5: `e5` is no capture.
        let pos = position("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1");
        assert!(as_played(&pos, "e5").is_none());
        // A pawn capturing straight ahead is off its geometry but the only
        // pawn of the file.
        let m = as_played(&pos, "exe5");
        assert!(m.is_none(), "a capture goes to a neighbouring file");
        let pos = position("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1");
        let m = as_played(&pos, "e4").expect("the e2 pawn jumps");
        assert_eq!(m.from(), Some(Square::E2));
        // `e5` is the e-pawn's: the d4 pawn does not slide across to it.
        let pos = position("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1");
        assert!(as_played(&pos, "e5").is_none());
        assert_eq!(
            as_played(&pos, "de5").and_then(|m| m.from()),
            Some(Square::D4)
        );
    }

    #[test]
    fn a_stood_move_is_written_to_read_back() {
        let pos = position("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
        let m = as_played(&pos, "Rab2").expect("the a1 rook");
        let mut out = String::new();
        write_stood(&pos, &m, &Style::new(Notation::San, Language::En), &mut out);
        assert_eq!(out, "Ra1b2");
        assert_eq!(as_played(&pos, &out), Some(m));
        out.clear();
        write_stood(&pos, &m, &Style::new(Notation::Lan, Language::En), &mut out);
        assert_eq!(out, "Ra1-b2");
    }

    #[test]
    fn each_fault_is_told() {
        use super::Fault;
        let pos = Chess::default();
        let fault = |pos: &Chess, word: &str| {
            Fault::of(pos, &as_played(pos, word).expect("a move that stands"))
        };
        assert_eq!(fault(&pos, "Bc4"), Fault::Blocked);
        let one_bishop = position("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(fault(&one_bishop, "Bd3"), Fault::OffGeometry);
        let pinned = position("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(fault(&pinned, "Nc3"), Fault::KingInCheck);
        let moved = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_eq!(fault(&moved, "O-O"), Fault::Castling);
    }
}
