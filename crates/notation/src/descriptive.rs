//! English descriptive notation (`P-K4`, `N-KB3`, `PxP`, `R(KB1)-K1`,
//! `P-K8=Q`): read in every form found in print and written in one classic
//! style.
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

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, File, Move, Position, Rank, Role, Square, attacks,
};

use crate::read::{Fitting, ResolveError};

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

impl Place {
    fn contains(self, sq: Square, turn: Color) -> bool {
        self.files & (1 << (sq.file() as u8)) != 0
            && self
                .rank
                .is_none_or(|r| relative_rank(sq.rank(), turn) == r)
    }
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
}

fn relative_rank(rank: Rank, turn: Color) -> u8 {
    let r = rank as u8;
    match turn {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

/// `R`, `N`, `Kt`, `B` at `i`: the piece naming a wing file pair, and its length.
fn wing(s: &[u8], i: usize) -> Option<(Role, usize)> {
    match (s.get(i), s.get(i + 1)) {
        (Some(b'K'), Some(b't')) => Some((Role::Knight, 2)),
        (Some(b'N'), _) => Some((Role::Knight, 1)),
        (Some(b'B'), _) => Some((Role::Bishop, 1)),
        (Some(b'R'), _) => Some((Role::Rook, 1)),
        _ => None,
    }
}

/// `K` or `Q` naming a side at `i` (not the `K` of `Kt`).
fn side_at(s: &[u8], i: usize) -> Option<Side> {
    match (s.get(i), s.get(i + 1)) {
        (Some(b'K'), Some(b't')) => None,
        (Some(b'K'), _) => Some(Side::King),
        (Some(b'Q'), _) => Some(Side::Queen),
        _ => None,
    }
}

/// The files of a wing piece (`R`: a and h), on one side if given.
fn wing_files(role: Role, side: Option<Side>) -> Files {
    let (q, k) = match role {
        Role::Rook => (File::A, File::H),
        Role::Knight => (File::B, File::G),
        _ => (File::C, File::F),
    };
    let bit = |f: File| 1u8 << (f as u8);
    match side {
        Some(Side::King) => bit(k),
        Some(Side::Queen) => bit(q),
        None => bit(q) | bit(k),
    }
}

fn center_file(side: Side) -> Files {
    match side {
        Side::King => 1 << (File::E as u8),
        Side::Queen => 1 << (File::D as u8),
    }
}

/// A man at `i`, and the index after it.
fn read_man(s: &[u8], mut i: usize) -> Option<(Man, usize)> {
    let side = side_at(s, i).filter(|_| wing(s, i + 1).is_some() || s.get(i + 1) == Some(&b'P'));
    if side.is_some() {
        i += 1;
    }
    if let Some((role, len)) = wing(s, i) {
        i += len;
        if s.get(i) == Some(&b'P') {
            let pawn = Man {
                role: Role::Pawn,
                files: wing_files(role, side),
                side: None,
            };
            return Some((pawn, i + 1));
        }
        return Some((
            Man {
                role,
                files: ALL_FILES,
                side,
            },
            i,
        ));
    }
    let role = match (s.get(i), side) {
        (Some(b'P'), _) => {
            let files = side.map_or(ALL_FILES, center_file);
            return Some((
                Man {
                    role: Role::Pawn,
                    files,
                    side: None,
                },
                i + 1,
            ));
        }
        (Some(b'K'), None) => Role::King,
        (Some(b'Q'), None) => Role::Queen,
        _ => return None,
    };
    Some((
        Man {
            role,
            files: ALL_FILES,
            side: None,
        },
        i + 1,
    ))
}

/// A square at `i` (`K4`, `KB3`, `B3`, `QKt5`; with `rank_only`, also a
/// lone rank digit), and the index after it.
fn place(s: &[u8], mut i: usize, rank_only: bool) -> Option<(Place, usize)> {
    let side = side_at(s, i);
    if side.is_some() {
        i += 1;
    }
    let files = match (side, wing(s, i)) {
        (_, Some((role, len))) => {
            i += len;
            wing_files(role, side)
        }
        (Some(side), None) => center_file(side),
        (None, None) if rank_only => ALL_FILES,
        (None, None) => return None,
    };
    match s.get(i) {
        Some(d @ b'1'..=b'8') => Some((
            Place {
                files,
                rank: Some(d - b'1'),
            },
            i + 1,
        )),
        _ => None,
    }
}

/// A promotion piece at `i` (`Q`, `R`, `B`, `N`, `Kt`), and the index after it.
fn promotion_piece(s: &[u8], i: usize) -> Option<(Role, usize)> {
    match (s.get(i), s.get(i + 1)) {
        (Some(b'K'), Some(b't')) => Some((Role::Knight, i + 2)),
        (Some(b'Q'), _) => Some((Role::Queen, i + 1)),
        (Some(b'R'), _) => Some((Role::Rook, i + 1)),
        (Some(b'B'), _) => Some((Role::Bishop, i + 1)),
        (Some(b'N'), _) => Some((Role::Knight, i + 1)),
        _ => None,
    }
}

/// `(` square `)` at `i`: the square and the index after the `)`.
fn paren_place(s: &[u8], i: usize) -> Option<(Place, usize)> {
    if s.get(i) != Some(&b'(') {
        return None;
    }
    let (p, j) = place(s, i + 1, false)?;
    (s.get(j) == Some(&b')')).then_some((p, j + 1))
}

/// Parses the body of a descriptive move (marks already peeled off).
pub(crate) fn parse(s: &[u8]) -> Option<Descriptive> {
    let (man, mut i) = read_man(s, 0)?;
    let mut from = None;
    if let Some((p, j)) = paren_place(s, i) {
        from = Some(p);
        i = j;
    } else if let Some(d @ b'1'..=b'8') = s.get(i) {
        from = Some(Place {
            files: ALL_FILES,
            rank: Some(d - b'1'),
        });
        i += 1;
    }
    let (captured, to) = match s.get(i) {
        Some(b'-') => {
            let (p, j) = place(s, i + 1, false)?;
            i = j;
            (None, Some(p))
        }
        Some(b'x' | b':') => {
            let (c, j) = read_man(s, i + 1)?;
            i = j;
            let to = paren_place(s, i).map(|(p, j)| {
                i = j;
                p
            });
            (Some(c), to)
        }
        _ => return None,
    };
    let mut promotion = None;
    if i < s.len() {
        if matches!(s[i], b'=' | b'/') {
            i += 1;
        }
        let (role, j) = if s[i..].first() == Some(&b'(') {
            let (role, j) = promotion_piece(s, i + 1)?;
            (s.get(j) == Some(&b')')).then_some((role, j + 1))?
        } else {
            promotion_piece(s, i)?
        };
        if j != s.len() || man.role != Role::Pawn {
            return None;
        }
        promotion = Some(role);
    }
    Some(Descriptive {
        man,
        from,
        captured,
        to,
        promotion,
    })
}

/// Whether the bytes of a movetext word so far (`word`) and what follows it
/// (`rest`, starting with `(`) are one descriptive move whose parenthesis
/// belongs to it: the word looks like the start of a descriptive move
/// (its first letter a piece, then only descriptive characters), and the
/// parenthesis, attached to it, holds a descriptive square or a promotion
/// piece and closes at once (`R(KB1)-K1`, `NxP(Q5)`, `P-K8(Q)`). Gives the
/// length of the parenthesised part, `(` to `)`. Any other `(` opens a
/// variation, as in PGN.
///
/// ```
/// use pgnkit_notation::descriptive::attached_parenthesis;
///
/// assert_eq!(attached_parenthesis(b"R", b"(KB1)-K1"), Some(5));
/// assert_eq!(attached_parenthesis(b"NxP", b"(Q5) N-B3"), Some(4));
/// assert_eq!(attached_parenthesis(b"P-K8", b"(Q)"), Some(3));
/// assert_eq!(attached_parenthesis(b"Nf3", b"(Nc3)"), None);
/// assert_eq!(attached_parenthesis(b"P-K4", b"(P-Q4)"), None);
/// ```
pub fn attached_parenthesis(word: &[u8], rest: &[u8]) -> Option<usize> {
    if !matches!(word.first(), Some(b'K' | b'Q' | b'R' | b'B' | b'N' | b'P'))
        || !descriptive_characters(word)
    {
        return None;
    }
    parenthesis(rest)
}

/// Whether every byte is one a descriptive move is written with.
fn descriptive_characters(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| {
        matches!(
            b,
            b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b't' | b'1'
                ..=b'8' | b'x' | b'-' | b'=' | b'/' | b'(' | b')'
        )
    })
}

/// The length of the parenthesis `rest` starts with (`(` to `)`), when it
/// holds a descriptive square or a promotion piece and closes at once.
fn parenthesis(rest: &[u8]) -> Option<usize> {
    if rest.first() != Some(&b'(') {
        return None;
    }
    let close = |j: usize| (rest.get(j) == Some(&b')')).then_some(j + 1);
    if let Some((_, j)) = place(rest, 1, false)
        && let Some(n) = close(j)
    {
        return Some(n);
    }
    promotion_piece(rest, 1).and_then(|(_, j)| close(j))
}

/// The end of a descriptive move's word: `word_end(from)` gives where a
/// word that goes on at `from` ends in `text`; the word starts at `start`
/// and its first end is `end`. Every parenthesis attached to it that
/// [`attached_parenthesis`] takes is part of the word. Each byte is looked
/// at a bounded number of times, however many parentheses a word has.
///
/// ```
/// use pgnkit_notation::descriptive::attached_end;
///
/// let text = b"R(KB1)-K1 (N-B3)";
/// let word_end = |i: usize| text[i..].iter().position(|&b| b == b' ' || b == b'(').map_or(text.len(), |k| i + k);
/// assert_eq!(attached_end(text, 0, word_end(1), word_end), 9);
/// ```
pub fn attached_end(
    text: &[u8],
    start: usize,
    end: usize,
    word_end: impl Fn(usize) -> usize,
) -> usize {
    let (Some(word), Some(rest)) = (text.get(start..end), text.get(end..)) else {
        return end;
    };
    let Some(mut n) = attached_parenthesis(word, rest) else {
        return end;
    };
    let mut end = end;
    loop {
        let grown = word_end(end + n);
        // What the word grew by must be descriptive too, as the whole word
        // is for [`attached_parenthesis`]: only the new bytes are looked at.
        let Some(added) = text.get(end..grown) else {
            return grown;
        };
        end = grown;
        match text.get(end..) {
            Some(rest) if descriptive_characters(added) => match parenthesis(rest) {
                Some(k) => n = k,
                None => return end,
            },
            _ => return end,
        }
    }
}

/// Where each piece started, for `KR`, `QN` ...: the squares of the pieces
/// (of both sides) that stood on the king's side and on the queen's side of
/// the board when the line started. Pawns have none (they are named by
/// their file); a promoted piece has none.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Origins {
    king_side: Bitboard,
    queen_side: Bitboard,
}

impl Origins {
    /// The origins of the pieces of `pos` as they stand.
    pub(crate) fn new(pos: &Chess) -> Origins {
        let pieces = pos.board().occupied() & !pos.board().pawns();
        let king_files = Bitboard::from_file(File::E)
            | Bitboard::from_file(File::F)
            | Bitboard::from_file(File::G)
            | Bitboard::from_file(File::H);
        Origins {
            king_side: pieces & king_files,
            queen_side: pieces & !king_files,
        }
    }

    fn side_of(&self, sq: Square) -> Option<Side> {
        if self.king_side.contains(sq) {
            Some(Side::King)
        } else if self.queen_side.contains(sq) {
            Some(Side::Queen)
        } else {
            None
        }
    }

    /// Follows `m` (legal in the position before it).
    pub(crate) fn play(&mut self, m: &Move) {
        // The common move, branch-free: every line of every notation is
        // followed so (a few instructions a ply).
        if let Move::Normal {
            from,
            to,
            promotion: None,
            ..
        } = *m
        {
            let (f, t) = (from.to_u32(), to.to_u32());
            let gone = !((1u64 << f) | (1u64 << t));
            let (k, q) = (self.king_side.0, self.queen_side.0);
            self.king_side = Bitboard((k & gone) | (((k >> f) & 1) << t));
            self.queen_side = Bitboard((q & gone) | (((q >> f) & 1) << t));
            return;
        }
        let (steps, captured): ([(Square, Square); 2], Option<Square>) = match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => {
                if promotion.is_some() {
                    self.clear(from);
                    self.clear(to);
                    return;
                }
                ([(from, to), (from, to)], None)
            }
            Move::EnPassant { from, to } => (
                [(from, to), (from, to)],
                Some(Square::from_coords(to.file(), from.rank())),
            ),
            Move::Castle { king, rook } => {
                let short = rook.file() > king.file();
                let (kf, rf) = if short {
                    (File::G, File::F)
                } else {
                    (File::C, File::D)
                };
                let rank = king.rank();
                (
                    [
                        (king, Square::from_coords(kf, rank)),
                        (rook, Square::from_coords(rf, rank)),
                    ],
                    None,
                )
            }
            Move::Put { .. } => return,
        };
        if let Some(sq) = captured {
            self.clear(sq);
        }
        // Both pieces leave before either lands (Chess960 castling may
        // swap squares).
        let sides = steps.map(|(from, _)| self.side_of(from));
        for (from, _) in steps {
            self.clear(from);
        }
        for ((_, to), side) in steps.into_iter().zip(sides) {
            self.clear(to);
            match side {
                Some(Side::King) => self.king_side.add(to),
                Some(Side::Queen) => self.queen_side.add(to),
                None => {}
            }
        }
    }

    fn clear(&mut self, sq: Square) {
        self.king_side.discard(sq);
        self.queen_side.discard(sq);
    }
}

fn man_fits(man: Man, role: Role, sq: Square, origins: Option<&Origins>) -> bool {
    man.role == role
        && man.files & (1 << (sq.file() as u8)) != 0
        && man
            .side
            .is_none_or(|side| origins.is_none_or(|o| o.side_of(sq) == Some(side)))
}

/// The square of the man `m` captures (the passed pawn's for en passant).
fn captured_square(m: &Move) -> Option<(Role, Square)> {
    match *m {
        Move::Normal {
            capture: Some(role),
            to,
            ..
        } => Some((role, to)),
        Move::EnPassant { from, to } => {
            Some((Role::Pawn, Square::from_coords(to.file(), from.rank())))
        }
        _ => None,
    }
}

impl Descriptive {
    fn fits(&self, pos: &Chess, m: &Move, origins: Option<&Origins>) -> bool {
        let turn = pos.turn();
        let Some(from) = m.from() else { return false };
        if m.is_castle() || !man_fits(self.man, m.role(), from, origins) {
            return false;
        }
        if self.from.is_some_and(|p| !p.contains(from, turn)) {
            return false;
        }
        let place_ok = match (self.captured, captured_square(m)) {
            (None, None) => self.to.is_some_and(|p| p.contains(m.to(), turn)),
            (Some(man), Some((role, sq))) => {
                man_fits(man, role, sq, origins) && self.to.is_none_or(|p| p.contains(sq, turn))
            }
            _ => false,
        };
        place_ok
            && match (self.promotion, m.promotion()) {
                (Some(p), Some(q)) => p == q,
                (Some(_), None) => false,
                (None, _) => true,
            }
    }

    /// The squares a fitting move can go to: the destinations written, or
    /// the squares of the enemy men of the kind captured (and the en
    /// passant square for a pawn taking a pawn).
    fn targets(&self, pos: &Chess) -> Bitboard {
        let turn = pos.turn();
        // The set of files copied to every rank.
        let files = |f: Files| Bitboard(u64::from(f).wrapping_mul(0x0101_0101_0101_0101));
        match (self.captured, self.to) {
            (None, Some(p)) => {
                let rank = p.rank.unwrap_or(0);
                let rank = Rank::new(u32::from(match turn {
                    Color::White => rank,
                    Color::Black => 7 - rank,
                }));
                files(p.files) & Bitboard::from_rank(rank)
            }
            (None, None) => Bitboard(0),
            (Some(c), _) => {
                let board = pos.board();
                let mut targets = board.by_color(!turn) & board.by_role(c.role) & files(c.files);
                if let Some(p) = self.to {
                    targets &= files(p.files)
                        & p.rank.map_or(!Bitboard(0), |r| {
                            Bitboard::from_rank(Rank::new(u32::from(match turn {
                                Color::White => r,
                                Color::Black => 7 - r,
                            })))
                        });
                }
                if c.role == Role::Pawn
                    && self.man.role == Role::Pawn
                    && let Some(ep) = pos.ep_square(EnPassantMode::PseudoLegal)
                {
                    targets.add(ep);
                }
                targets
            }
        }
    }

    /// The squares the side to move's men of the mover's kind may go to,
    /// legal or not (pawns: their captures, and every square when the
    /// token is a push); a cheap filter before the legal moves are made.
    fn reach(&self, pos: &Chess) -> Bitboard {
        let board = pos.board();
        let turn = pos.turn();
        let occupied = board.occupied();
        let ours = board.by_color(turn) & board.by_role(self.man.role);
        let mut reach = Bitboard(0);
        for from in ours {
            reach |= match self.man.role {
                Role::Pawn if self.captured.is_none() => return !Bitboard(0),
                Role::Pawn => attacks::pawn_attacks(turn, from),
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                Role::Queen => attacks::queen_attacks(from, occupied),
                Role::King => attacks::king_attacks(from),
            };
        }
        reach
    }

    /// The one legal move of `pos` that fits, with the pieces' origins if
    /// they are known (unknown: a piece named by its side fits either side).
    pub(crate) fn resolve(
        &self,
        pos: &Chess,
        origins: Option<&Origins>,
    ) -> Result<Move, ResolveError> {
        let mut fitting = Fitting::default();
        // Only moves to the squares the token can mean are generated: its
        // destinations, or the squares of the men it may capture.
        let mut candidates = Candidates::new(pos);
        let mut targets = self.targets(pos);
        if candidates.king.is_none() {
            // In check every square costs a move list: only those reached.
            targets &= self.reach(pos);
        }
        for to in targets {
            candidates.each(self.man.role, to, |m| {
                if self.fits(pos, &m, origins) {
                    fitting.push(m);
                }
            });
        }
        fitting.resolve()
    }
}

/// The legal moves of one kind of man to one square, made without a move
/// list in the common cases (out of check, no en passant): the men that
/// reach the square, less those pinned off its line; the rest from
/// shakmaty's `san_candidates`.
struct Candidates<'p> {
    pos: &'p Chess,
    /// The king of the side to move, when it is not in check.
    king: Option<Square>,
    pinned: Option<Bitboard>,
}

impl<'p> Candidates<'p> {
    fn new(pos: &'p Chess) -> Candidates<'p> {
        let board = pos.board();
        let turn = pos.turn();
        let king = board
            .king_of(turn)
            .filter(|k| board.attacks_to(*k, !turn, board.occupied()).is_empty());
        Candidates {
            pos,
            king,
            pinned: None,
        }
    }

    fn each(&mut self, role: Role, to: Square, mut f: impl FnMut(Move)) {
        let pos = self.pos;
        let board = pos.board();
        let turn = pos.turn();
        let occupied = board.occupied();
        let ep = role == Role::Pawn && pos.ep_square(EnPassantMode::Always) == Some(to);
        let Some(king) = self.king.filter(|_| !ep) else {
            pos.san_candidates(role, to).into_iter().for_each(f);
            return;
        };
        if board.by_color(turn).contains(to) {
            return;
        }
        let capture = board.role_at(to);
        let ours = board.by_color(turn) & board.by_role(role);
        let last = (turn == Color::White && to.rank() == Rank::Eighth)
            || (turn == Color::Black && to.rank() == Rank::First);
        let from = match role {
            Role::King => {
                if attacks::king_attacks(king).contains(to)
                    && board
                        .attacks_to(to, !turn, occupied.without(king))
                        .is_empty()
                {
                    f(Move::Normal {
                        role,
                        from: king,
                        capture,
                        to,
                        promotion: None,
                    });
                }
                return;
            }
            Role::Knight => attacks::knight_attacks(to) & ours,
            Role::Bishop => attacks::bishop_attacks(to, occupied) & ours,
            Role::Rook => attacks::rook_attacks(to, occupied) & ours,
            Role::Queen => attacks::queen_attacks(to, occupied) & ours,
            Role::Pawn if capture.is_some() => attacks::pawn_attacks(!turn, to) & ours,
            Role::Pawn => {
                let back: i32 = if turn == Color::White { -8 } else { 8 };
                let double = if turn == Color::White {
                    Rank::Fourth
                } else {
                    Rank::Fifth
                };
                match to.offset(back) {
                    Some(one) if ours.contains(one) => Bitboard::from_square(one),
                    Some(one) if !occupied.contains(one) && to.rank() == double => one
                        .offset(back)
                        .filter(|two| ours.contains(*two))
                        .map_or(Bitboard(0), Bitboard::from_square),
                    _ => Bitboard(0),
                }
            }
        };
        for from in from {
            if !attacks::ray(king, from).is_empty() {
                let pinned = *self
                    .pinned
                    .get_or_insert_with(|| crate::read::slider_blockers(pos, king));
                if pinned.contains(from) && !attacks::aligned(from, to, king) {
                    continue;
                }
            }
            if role == Role::Pawn && last {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    f(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion: Some(promotion),
                    });
                }
            } else {
                f(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }
}

fn piece_letter(role: Role) -> char {
    match role {
        Role::Pawn => 'P',
        Role::Knight => 'N',
        Role::Bishop => 'B',
        Role::Rook => 'R',
        Role::Queen => 'Q',
        Role::King => 'K',
    }
}

/// Writes the full name of `sq` from `turn`'s side (`KB3`, `QR1`, `K4`).
fn push_square(sq: Square, turn: Color, out: &mut String) {
    out.push_str(match sq.file() {
        File::A => "QR",
        File::B => "QN",
        File::C => "QB",
        File::D => "Q",
        File::E => "K",
        File::F => "KB",
        File::G => "KN",
        File::H => "KR",
    });
    out.push(char::from(b'1' + relative_rank(sq.rank(), turn)));
}

/// Writes `m` (legal in `pos`) in the classic style of the [module
/// docs](self), with its check mark.
pub(crate) fn write(pos: &Chess, m: &Move, out: &mut String) {
    let turn = pos.turn();
    let en_passant = matches!(m, Move::EnPassant { .. });
    match *m {
        Move::Castle { king, rook } => {
            out.push_str(if rook.file() > king.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        Move::Put { .. } => out.push_str("--"),
        Move::Normal { .. } | Move::EnPassant { .. } => {
            let role = m.role();
            let Some(from) = m.from() else { return };
            let moves = pos.legal_moves();
            // The other moves of the same kind of man (with the same
            // promotion): a token has to tell the move from them.
            let mut rivals = moves
                .iter()
                .filter(|o| *o != m && o.role() == role && o.promotion() == m.promotion());
            out.push(piece_letter(role));
            match captured_square(m) {
                None => {
                    let to = m.to();
                    if rivals.any(|o| !o.is_capture() && o.to() == to) {
                        out.push('(');
                        push_square(from, turn, out);
                        out.push(')');
                    }
                    out.push('-');
                    push_square(to, turn, out);
                }
                Some((captured, sq)) => {
                    // Rivals capturing the same kind of man; then those
                    // capturing it on the same square.
                    let mut same_man = false;
                    let mut same_square = false;
                    for o in rivals {
                        if let Some((c, s)) = captured_square(o)
                            && c == captured
                        {
                            same_man = true;
                            same_square |= s == sq;
                        }
                    }
                    if same_square {
                        out.push('(');
                        push_square(from, turn, out);
                        out.push(')');
                    }
                    out.push('x');
                    out.push(piece_letter(captured));
                    if same_man {
                        out.push('(');
                        push_square(sq, turn, out);
                        out.push(')');
                    }
                }
            }
            if let Some(p) = m.promotion() {
                out.push('=');
                out.push(piece_letter(p));
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    let mate = after.is_checkmate();
    if after.is_check() && !mate {
        out.push_str("ch");
    }
    if en_passant {
        out.push_str(" e.p.");
    }
    if mate {
        out.push_str(" mate");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_parse() {
        for s in [
            "P-K4",
            "N-KB3",
            "N-B3",
            "Kt-B3",
            "PxP",
            "NxP",
            "KPxP",
            "PxQP",
            "BxN",
            "NxP(Q5)",
            "N(KB3)xP(K5)",
            "R(KB1)-K1",
            "QR-K1",
            "KR-Q1",
            "R1-Q1",
            "P-K8=Q",
            "P-K8(Q)",
            "P-Q8Q",
            "QKt-B3",
            "KKtP-KKt3",
            "K-Q2",
            "Q-KR5",
            "QxQ",
            "PxR=Q",
            "P-QN8(Kt)",
        ] {
            assert!(parse(s.as_bytes()).is_some(), "{s}");
        }
        for s in [
            "P-K9", "P-", "PxP(Q9)", "N-K8=Q", "K4", "P-K4Q3", "e4", "Nf3", "PxK4",
        ] {
            assert!(parse(s.as_bytes()).is_none(), "{s}");
        }
        let d = parse(b"KR-Q1").expect("parses");
        assert_eq!(d.man.side, Some(Side::King));
        assert_eq!(d.man.role, Role::Rook);
        let d = parse(b"QBPxP").expect("parses");
        assert_eq!(d.man.role, Role::Pawn);
        assert_eq!(d.man.files, 1 << 2);
        let d = parse(b"PxQP").expect("parses");
        assert_eq!(d.captured.map(|c| c.files), Some(1 << 3));
    }
}
