//! Where each piece could ever go: the semi-static analysis of CHA (the
//! Chess Unwinnability Analyzer), rebuilt as a fixpoint over bitboards.
//!
//! For every piece on the board, [`Mobility`] holds a set of squares that
//! contains every square the piece could ever stand on, by any series of
//! legal moves. The sets are *over*-approximations: a square in the set
//! may be out of reach, a square outside it is out of reach for sure.
//! They are computed together with, per colour, the squares that could
//! ever be free of that colour's pieces ([`Mobility::clear`]): a piece
//! only moves onto a square free of its own pieces, a slider only passes
//! squares that could be empty, a pawn only pushes onto a square that
//! could be empty and only captures where an enemy piece other than the
//! king could stand, and a king never steps onto a square that a piece
//! which can never move nor be captured attacks for good.
//!
//! Starting from "each piece on its square, every empty square free", each
//! rule adds facts that a real series of moves would need earlier facts
//! for; the loop stops when no rule adds anything. Every fact of a real
//! game is then in the result (by induction on the moves: the first fact
//! missing would have all its premises in the result, which no rule
//! lacks). The test of whether a piece is *permanent* (its square never
//! free of its colour) is read from the result at each round; at the end it
//! agrees with the result, which is what the induction uses.
//!
//! [`Mobility::can_mate`] then asks whether a checkmate of one king is
//! conceivable at all with these sets: some square the king could stand on
//! must be attacked by a piece that could get there, and every flight
//! square around it must be taken by a piece of the king's side or attacked
//! by a piece of the winner (the winner's king covering what no other piece
//! can).
//!
//! A side caught in a stalemate trap ([`Trap`]: nothing of it can move but
//! its king, between two squares) gets the analysis made again with the
//! other king kept out of the squares next to the trap, where that king
//! only ever steps on the game's last move.

use std::cell::OnceCell;

use shakmaty::{Bitboard, ByColor, CastlingMode, Chess, Color, Position, Role, Square, attacks};

/// The most pieces a legal position holds.
const MAX_PIECES: usize = 32;

/// Files A and H, to keep steps from wrapping around the board.
const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;
const NOT_AB: u64 = !0x0303_0303_0303_0303;
const NOT_GH: u64 = !0xc0c0_c0c0_c0c0_c0c0;

/// The squares one king step from any square of `b` (not `b` itself).
pub(crate) fn king_step(b: Bitboard) -> Bitboard {
    let b = b.0;
    let side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | side;
    Bitboard(side | (row << 8) | (row >> 8))
}

/// The squares one knight jump from any square of `b`.
fn knight_step(b: Bitboard) -> Bitboard {
    let b = b.0;
    let one = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let two = ((b << 2) & NOT_AB) | ((b >> 2) & NOT_GH);
    Bitboard((one << 16) | (one >> 16) | (two << 8) | (two >> 8))
}

/// The squares in front of `b` for pawns of `color`.
fn forward(b: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(b.0 << 8),
        Color::Black => Bitboard(b.0 >> 8),
    }
}

/// The squares pawns of `color` on `b` attack.
fn pawn_step(b: Bitboard, color: Color) -> Bitboard {
    let ahead = forward(b, color).0;
    Bitboard(((ahead << 1) & NOT_A) | ((ahead >> 1) & NOT_H))
}

/// A rank, counted from `color`'s side (0 is its first rank).
fn relative_rank(color: Color, rank: u64) -> Bitboard {
    let rank = match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    };
    Bitboard(0xff << (8 * rank))
}

/// What the analysis found: for each piece, the squares it could ever
/// stand on.
pub(crate) struct Mobility {
    /// The pieces: square now, colour, role.
    pieces: [(Square, Color, Role); MAX_PIECES],
    /// How many of `pieces` there are.
    len: usize,
    /// The squares each piece could ever stand on (all squares for a pawn
    /// that could promote).
    reach: [Bitboard; MAX_PIECES],
    /// Squares now of the pawns that could promote.
    promoters: Bitboard,
    /// By colour: squares that could at some time hold no piece of the
    /// colour.
    clear: ByColor<Bitboard>,
    /// By colour: squares where a piece of the colour other than the king
    /// could stand.
    visits: ByColor<Bitboard>,
    /// Squares that could be empty at some time (free of both colours).
    passable: Bitboard,
    /// By colour: the squares its pawns could pass with a double step (and
    /// be taken en passant on), the square of the en passant capture
    /// possible now included.
    passing: ByColor<Bitboard>,
    /// By colour: squares its king never steps onto (a [`Trap`]'s ring).
    forbidden: ByColor<Bitboard>,
    /// Squares counted as left by their piece whatever the rules find (the
    /// start of a king kept out of a [`Trap`]'s ring).
    vacated: Bitboard,
    /// The position analysed (for a [`Trap`]'s analysis).
    pos: Chess,
    /// The trap each colour is caught in, once asked ([`Mobility::trap`]),
    /// by colour index (white first).
    traps: [OnceCell<Option<Box<Trap>>>; 2],
}

/// A side caught in a stalemate trap: none of its pieces but the king can
/// ever move, and its king can only go back and forth between two
/// squares. Then the other king can never step next to those squares
/// before the game ends: where it does, the trapped king, on one square,
/// cannot go to the other (the kings would touch) and nothing else of its
/// side moves, so it is stalemate, or mate by a discovered check; and it
/// cannot come about with the trapped side to play, whose king would have
/// stood next to the other king on its last move. (The motif is CHA's, in
/// its semi-static analysis; the proof and the code are pgnkit's.)
pub(crate) struct Trap {
    /// The two squares of the trapped king.
    squares: Bitboard,
    /// The analysis again, the other king kept out of the squares next to
    /// them: it holds for every position of the game until the other king
    /// steps there, which is the game's last move.
    mobility: Mobility,
}

impl Mobility {
    /// Analyses `pos`. `None` where Chess960 castling rights remain (its
    /// castling may cross the other piece's square, which the rules here do
    /// not model).
    pub(crate) fn new(pos: &Chess) -> Option<Mobility> {
        Mobility::with_kings_kept_out(pos, ByColor::default(), Bitboard::EMPTY)
    }

    /// [`Mobility::new`], each king kept out of its `forbidden` squares,
    /// the pieces on `vacated` counted as having left them (`None` with
    /// castling rights: a castling king passes a square it may not stop
    /// on).
    fn with_kings_kept_out(
        pos: &Chess,
        forbidden: ByColor<Bitboard>,
        vacated: Bitboard,
    ) -> Option<Mobility> {
        // Standard castling is a king's step and a rook's slide over
        // squares that must be empty: the rules below count both. Chess960
        // castling may cross the other piece's square: not modelled.
        if pos.castles().any()
            && (pos.castles().mode() != CastlingMode::Standard || forbidden != ByColor::default())
        {
            return None;
        }
        let board = pos.board();
        let mut m = Mobility {
            pieces: [(Square::A1, Color::White, Role::Pawn); MAX_PIECES],
            len: 0,
            reach: [Bitboard::EMPTY; MAX_PIECES],
            promoters: Bitboard::EMPTY,
            clear: ByColor {
                white: !board.white(),
                black: !board.black(),
            },
            visits: ByColor::default(),
            passable: Bitboard::EMPTY,
            passing: ByColor::default(),
            forbidden,
            vacated,
            pos: pos.clone(),
            traps: Default::default(),
        };
        if let Some(sq) = pos.legal_ep_square() {
            m.passing.get_mut(!pos.turn()).add(sq);
        }
        for (sq, piece) in board {
            if m.len == MAX_PIECES {
                return None;
            }
            m.pieces[m.len] = (sq, piece.color, piece.role);
            m.reach[m.len] = Bitboard::from_square(sq);
            m.len += 1;
        }
        m.saturate(board.white(), board.black());
        Some(m)
    }

    /// The fixpoint: grows the reach of every piece and the clear squares
    /// until no rule adds anything.
    fn saturate(&mut self, white: Bitboard, black: Bitboard) {
        let occupied = ByColor { white, black };
        loop {
            self.passable = self.clear.white & self.clear.black;
            let mut all = ByColor::<Bitboard>::default();
            let mut visits = ByColor::<Bitboard>::default();
            for i in 0..self.len {
                let (_, color, role) = self.pieces[i];
                *all.get_mut(color) |= self.reach[i];
                if role != Role::King {
                    *visits.get_mut(color) |= self.reach[i];
                }
            }
            self.visits = visits;
            for i in 0..self.len {
                let (sq, color, role) = self.pieces[i];
                let over = forward(Bitboard::from_square(sq), color);
                if role == Role::Pawn
                    && relative_rank(color, 1).contains(sq)
                    && (forward(over, color) & self.reach[i]).any()
                {
                    *self.passing.get_mut(color) |= over;
                }
            }
            // A king kept out of squares may still stand there at the end:
            // lines through them are not open for good.
            let occupiable = all.white | all.black | self.forbidden.white | self.forbidden.black;
            let held = self.permanent_attacks(occupiable);
            let barred = self.file_bars();
            let mut changed = false;
            for (i, &bar) in barred.iter().enumerate().take(self.len) {
                let (_, color, role) = self.pieces[i];
                let grown = self.grow(i, color, role, *held.get(!color), bar);
                if grown != self.reach[i] {
                    self.reach[i] = grown;
                    *self.visits.get_mut(color) |= if role == Role::King {
                        Bitboard::EMPTY
                    } else {
                        grown
                    };
                    *all.get_mut(color) |= grown;
                    changed = true;
                }
            }
            // A square is free of a colour if it never held one of its
            // pieces, if its piece moves away, or if an enemy piece could
            // stand there (having taken it, or after it left).
            let mut moved = ByColor {
                white: self.vacated & white,
                black: self.vacated & black,
            };
            for i in 0..self.len {
                let (sq, color, _) = self.pieces[i];
                if self.reach[i] != Bitboard::from_square(sq) {
                    moved.get_mut(color).add(sq);
                }
            }
            for color in [Color::White, Color::Black] {
                let clear = !*occupied.get(color) | *all.get(!color) | *moved.get(color);
                if clear != *self.clear.get(color) {
                    *self.clear.get_mut(color) = clear;
                    changed = true;
                }
            }
            if !changed {
                self.passable = self.clear.white & self.clear.black;
                return;
            }
        }
    }

    /// The squares the pieces of each colour that can never leave their
    /// square nor be taken attack for good (no king of the other colour
    /// ever stands there). `occupiable` holds every square a piece could
    /// ever stand on: a line through squares outside it is always open.
    fn permanent_attacks(&self, occupiable: Bitboard) -> ByColor<Bitboard> {
        let mut held = ByColor::<Bitboard>::default();
        for i in 0..self.len {
            let (sq, color, role) = self.pieces[i];
            if self.clear.get(color).contains(sq) {
                continue;
            }
            *held.get_mut(color) |= match role {
                Role::Pawn => attacks::pawn_attacks(color, sq),
                Role::Knight => attacks::knight_attacks(sq),
                Role::King => attacks::king_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupiable),
                Role::Rook => attacks::rook_attacks(sq, occupiable),
                Role::Queen => attacks::queen_attacks(sq, occupiable),
            };
        }
        held
    }

    /// For each pawn that never leaves its file, the squares of the file
    /// it can never push to: those at and beyond an enemy pawn ahead of it
    /// on the file that never leaves the file and is never taken (two such
    /// pawns can only meet, never pass each other).
    fn file_bars(&self) -> [Bitboard; MAX_PIECES] {
        let mut barred = [Bitboard::EMPTY; MAX_PIECES];
        // The pawns bound to their file, by file, and where every other
        // piece of each colour could be.
        let mut bound = [[0u8; MAX_PIECES]; 8];
        let mut bound_len = [0usize; 8];
        let mut roaming = ByColor::<Bitboard>::default();
        for i in 0..self.len {
            let (sq, color, role) = self.pieces[i];
            let file = usize::from(sq.file());
            if role == Role::Pawn && self.reach[i].is_subset(Bitboard::from_file(sq.file())) {
                bound[file][bound_len[file]] = i as u8;
                bound_len[file] += 1;
            } else {
                *roaming.get_mut(color) |= self.reach[i];
            }
        }
        for (on_file, &len) in bound.iter().zip(&bound_len) {
            let on_file = &on_file[..len];
            for &j in on_file {
                let (sq, color, _) = self.pieces[usize::from(j)];
                // Taken: an enemy piece could stand where this pawn could
                // be. A pawn bound to another file never can; one bound to
                // this file only pushes on it.
                if (*roaming.get(!color) & self.reach[usize::from(j)]).any() {
                    continue;
                }
                let file = Bitboard::from_file(sq.file());
                for &i in on_file {
                    let (at, c, _) = self.pieces[usize::from(i)];
                    if c == color {
                        continue;
                    }
                    // The enemy pawn `i` moving toward `sq`: barred from
                    // `sq` on.
                    let (ahead, beyond) = match c {
                        Color::White => (at < sq, Bitboard(!0u64 << u32::from(sq))),
                        Color::Black => (at > sq, Bitboard(!0u64 >> (63 - u32::from(sq)))),
                    };
                    if ahead {
                        barred[usize::from(i)] |= beyond & file;
                    }
                }
            }
        }
        barred
    }

    /// The reach of piece `i` grown by its moves under the current facts;
    /// `held` are the squares the enemy attacks for good, `barred` those
    /// a pawn can never push to.
    fn grow(
        &mut self,
        i: usize,
        color: Color,
        role: Role,
        held: Bitboard,
        barred: Bitboard,
    ) -> Bitboard {
        let own_free = *self.clear.get(color);
        let mut reach = self.reach[i];
        match role {
            Role::King => {
                let allowed = own_free & !held & !*self.forbidden.get(color);
                loop {
                    let next = reach | (king_step(reach) & allowed);
                    if next == reach {
                        return reach;
                    }
                    reach = next;
                }
            }
            Role::Knight => loop {
                let next = reach | (knight_step(reach) & own_free);
                if next == reach {
                    return reach;
                }
                reach = next;
            },
            Role::Pawn => {
                let enemy = !color;
                // Where a capture could land: an enemy piece other than the
                // king could stand there, or an enemy pawn could pass it
                // with a double step (en passant).
                let targets = *self.visits.get(enemy) | *self.passing.get(enemy);
                let start = relative_rank(color, 1);
                let open = self.passable & !barred;
                loop {
                    let push = forward(reach, color) & open;
                    let double = forward(forward(reach & start, color) & open, color) & open;
                    let take = pawn_step(reach, color) & targets;
                    let next = reach | push | double | take;
                    if next == reach {
                        break;
                    }
                    reach = next;
                }
                if (reach & relative_rank(color, 7)).any() {
                    self.promoters.add(self.pieces[i].0);
                    return Bitboard::FULL;
                }
                reach
            }
            Role::Bishop | Role::Rook | Role::Queen => loop {
                let next = reach | (slides(role, reach, self.passable) & own_free);
                if next == reach {
                    return reach;
                }
                reach = next;
            },
        }
    }

    /// Whether a checkmate of `!winner` by `winner` is conceivable with the
    /// pieces where they could go, and, where either side is caught in a
    /// [`Trap`], with the other king kept out of the trap (a trapped side
    /// only ever moves its king; the game ends when the other king steps
    /// next to the trap). `false` is a proof that `winner` can never
    /// checkmate; `true` says nothing.
    pub(crate) fn can_mate(&self, winner: Color) -> bool {
        self.mate_conceivable(winner)
            && self.trap(!winner).is_none_or(|trap| {
                trap.mobility.mate_conceivable(winner) || trap.discovered_mate(winner)
            })
            && self
                .trap(winner)
                .is_none_or(|trap| trap.mobility.mate_conceivable(winner))
    }

    /// The [`Trap`] `color` is caught in, if any ([`Mobility::find_trap`]),
    /// found once and kept: both questions ask for both colours' traps.
    pub(crate) fn trap(&self, color: Color) -> Option<&Trap> {
        self.traps[usize::from(color == Color::Black)]
            .get_or_init(|| self.find_trap(color).map(Box::new))
            .as_deref()
    }

    /// The [`Trap`] `color` is caught in, if the analysis shows one: its
    /// king's two squares are guessed from the position (the squares it
    /// could go to now, but for the other king), then the analysis is made
    /// again with the other king kept out of the squares next to them, and
    /// the guess holds if it finds nothing of `color` moving but its king,
    /// between those two squares. (By induction on the moves, the facts of
    /// that analysis hold until the other king steps next to the trap,
    /// which ends the game.)
    fn find_trap(&self, color: Color) -> Option<Trap> {
        let board = self.pos.board();
        let king = board.king_of(color)?;
        let other = board.king_of(!color)?;
        let occupied = board.occupied();
        // The squares it could step to now, but for the other king.
        let free =
            |to: Square| (board.attacks_to(to, !color, occupied) & !board.kings()).is_empty();
        let squares = (attacks::king_attacks(king) & !board.by_color(color))
            .into_iter()
            .filter(|&to| free(to))
            .collect::<Bitboard>()
            .with(king);
        if squares.count() != 2 {
            return None;
        }
        let ring = king_step(squares) | squares;
        if ring.contains(other) {
            return None;
        }
        let mut forbidden = ByColor::<Bitboard>::default();
        *forbidden.get_mut(!color) = ring;
        let mobility =
            Mobility::with_kings_kept_out(&self.pos, forbidden, Bitboard::from_square(other))?;
        let caught = (0..mobility.len).all(|i| {
            let (sq, c, role) = mobility.pieces[i];
            c != color
                || mobility.reach[i]
                    == if role == Role::King {
                        squares
                    } else {
                        Bitboard::from_square(sq)
                    }
        });
        caught.then_some(Trap { squares, mobility })
    }

    /// [`Mobility::can_mate`] without the trap.
    fn mate_conceivable(&self, winner: Color) -> bool {
        let loser = !winner;
        let mut loser_king = Bitboard::EMPTY;
        let mut winner_king = Bitboard::EMPTY;
        // Every square a piece of the winner other than the king could
        // ever attack (a piece that checks k attacks k).
        let mut attackable = Bitboard::EMPTY;
        // Sliders only, for lines through the checked king.
        let mut sliders = [Bitboard::EMPTY; 3];
        // The loser's pieces other than the king, where they could stand:
        // each could take one flight square from its king.
        let mut shields = [Bitboard::EMPTY; MAX_PIECES];
        let mut n_shields = 0;
        for i in 0..self.len {
            let (sq, color, role) = self.pieces[i];
            let reach = self.reach[i];
            if color == loser {
                if role == Role::King {
                    loser_king = reach;
                } else {
                    shields[n_shields] = reach;
                    n_shields += 1;
                }
                continue;
            }
            match role {
                Role::King => winner_king = reach,
                _ if self.promoters.contains(sq) => return true,
                Role::Pawn => attackable |= pawn_step(reach, color),
                Role::Knight => attackable |= knight_step(reach),
                Role::Bishop | Role::Rook | Role::Queen => {
                    attackable |= slides(role, reach, self.passable);
                    sliders[role as usize - Role::Bishop as usize] |= reach;
                }
            }
        }
        for k in loser_king & attackable {
            // The flight squares: those the king could stand on (the
            // others are its own pieces' for good, or attacked for good).
            let flights = attacks::king_attacks(k) & loser_king;
            // Those no piece of the winner but the king could attack.
            let mut bare = flights & !attackable;
            if bare.any() && !self.passable.contains(k) {
                // Lines through k itself, which no king shields.
                let open = self.passable.with(k);
                for (r, role) in [Role::Bishop, Role::Rook, Role::Queen]
                    .into_iter()
                    .enumerate()
                {
                    bare &= !slides(role, sliders[r], open);
                }
            }
            // The winner's king (never next to k) covers some, the loser's
            // pieces stand on the others, one each.
            if matched(bare, &shields[..n_shields]) {
                return true;
            }
            let near = attacks::king_attacks(k).with(k);
            for w in winner_king & king_step(bare) & !near {
                if matched(bare & !attacks::king_attacks(w), &shields[..n_shields]) {
                    return true;
                }
            }
        }
        false
    }

    /// The squares that could at some time be free of `color`'s pieces.
    #[cfg(test)]
    pub(crate) fn clear(&self, color: Color) -> Bitboard {
        *self.clear.get(color)
    }

    /// The squares the piece now on `sq` could ever stand on.
    #[cfg(test)]
    pub(crate) fn reach_of(&self, sq: Square) -> Bitboard {
        (0..self.len)
            .find(|&i| self.pieces[i].0 == sq)
            .map_or(Bitboard::EMPTY, |i| self.reach[i])
    }
}

impl Trap {
    /// Whether the game could end with the other king stepping next to the
    /// trap and uncovering a check (a mate, the trapped king's other square
    /// being next to the king that stepped): a slider of `winner` that
    /// could stand behind a square the king could step from, on a line to
    /// one of the trapped king's squares, the line otherwise passable.
    fn discovered_mate(&self, winner: Color) -> bool {
        let m = &self.mobility;
        let ring = king_step(self.squares) | self.squares;
        let Some(king) =
            (0..m.len).find(|&i| m.pieces[i].1 == winner && m.pieces[i].2 == Role::King)
        else {
            return true;
        };
        for checked in self.squares {
            let flight = self.squares.without(checked);
            let landings = attacks::king_attacks(flight.first().unwrap_or(checked))
                & !attacks::king_attacks(checked)
                & !self.squares;
            for from in king_step(landings) & m.reach[king] & !ring {
                for i in 0..m.len {
                    let (sq, color, role) = m.pieces[i];
                    let role = if m.promoters.contains(sq) {
                        Role::Queen
                    } else {
                        role
                    };
                    let lines = match role {
                        Role::Bishop => attacks::bishop_attacks(checked, Bitboard::EMPTY),
                        Role::Rook => attacks::rook_attacks(checked, Bitboard::EMPTY),
                        Role::Queen => attacks::queen_attacks(checked, Bitboard::EMPTY),
                        _ => continue,
                    };
                    if color != winner || !lines.contains(from) {
                        continue;
                    }
                    for behind in attacks::ray(checked, from) & m.reach[i] {
                        let line = attacks::between(checked, behind);
                        if line.contains(from) && line.without(from).is_subset(m.passable) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}

/// Whether every square of `squares` can get a piece of its own among
/// `pieces` (a piece's bitboard: the squares it could stand on): a
/// matching, found by augmenting paths (at most eight squares).
fn matched(squares: Bitboard, pieces: &[Bitboard]) -> bool {
    if squares.count() > pieces.len() {
        return false;
    }
    // The square each piece was given, if any.
    let mut given: [Option<Square>; MAX_PIECES] = [None; MAX_PIECES];
    squares.into_iter().all(|sq| {
        let mut seen = [false; MAX_PIECES];
        augment(sq, pieces, &mut given, &mut seen)
    })
}

/// Gives `sq` a piece, moving other pieces to other squares if need be.
fn augment(
    sq: Square,
    pieces: &[Bitboard],
    given: &mut [Option<Square>; MAX_PIECES],
    seen: &mut [bool; MAX_PIECES],
) -> bool {
    for (p, reach) in pieces.iter().enumerate() {
        if !reach.contains(sq) || seen[p] {
            continue;
        }
        seen[p] = true;
        let free = match given[p] {
            None => true,
            Some(other) => augment(other, pieces, given, seen),
        };
        if free {
            given[p] = Some(sq);
            return true;
        }
    }
    false
}

/// One slide in each direction from every square of `from`, through the
/// squares of `open`: every square a slider of `role` standing on `from`
/// attacks (the first square not in `open` included), by Kogge-Stone fills.
fn slides(role: Role, from: Bitboard, open: Bitboard) -> Bitboard {
    const ROOK: [(i32, u64); 4] = [(8, !0), (-8, !0), (1, NOT_A), (-1, NOT_H)];
    const BISHOP: [(i32, u64); 4] = [(9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H)];
    let mut all = 0;
    let mut slide = |dirs: &[(i32, u64); 4]| {
        for &(shift, mask) in dirs {
            all |= fill(from.0, open.0, shift, mask);
        }
    };
    match role {
        Role::Bishop => slide(&BISHOP),
        Role::Rook => slide(&ROOK),
        _ => {
            slide(&BISHOP);
            slide(&ROOK);
        }
    }
    Bitboard(all)
}

/// `b` shifted by `by` squares (up for positive, down for negative).
fn shifted(b: u64, by: i32) -> u64 {
    if by >= 0 { b << by } else { b >> -by }
}

/// The squares attacked along one direction (`shift`, `mask` the squares a
/// step may land on) from `from`, sliding through `open`.
fn fill(mut from: u64, open: u64, shift: i32, mask: u64) -> u64 {
    let mut open = open & mask;
    from |= open & shifted(from, shift);
    open &= shifted(open, shift);
    from |= open & shifted(from, 2 * shift);
    open &= shifted(open, 2 * shift);
    from |= open & shifted(from, 4 * shift);
    shifted(from, shift) & mask
}
