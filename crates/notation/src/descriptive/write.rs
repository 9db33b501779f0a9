//! Writing a move in descriptive notation, in the classic style of each
//! language that writes it.

use shakmaty::{Chess, Color, File, Move, Position, Role, Square};

use super::family::{EN, ES_IT};
use super::relative_rank;
use super::resolve::captured_square;
use crate::language::{Language, LanguageSet};

/// How a language writes descriptive notation, as data: its letters and
/// its family's order.
struct Writing {
    languages: LanguageSet,
    /// The letters of the pawn, knight, bishop, rook, queen and king.
    pieces: [char; 6],
    /// The letters of the king's side and the queen's side.
    sides: [char; 2],
    /// The Latin order ([`Family`]): squares rank first (`3AR`), a move
    /// without `-` (`C3AR`), the mover's square before the `-` or `x`
    /// (`T1AR-1R`, `C3ARxP5R`; a pawn by its file, `PDxA`), the captured
    /// man's square after it (`CxP5D`); English: `N-KB3`, `R(KB1)-K1`,
    /// `NxP(Q5)`, `N(KB3)xP(K5)`.
    latin: bool,
    /// The check mark after the move.
    check: &'static str,
}

/// The languages that write descriptive notation their own way; every
/// other one writes English.
static WRITINGS: [Writing; 3] = [
    Writing {
        languages: EN,
        pieces: ['P', 'N', 'B', 'R', 'Q', 'K'],
        sides: ['K', 'Q'],
        latin: false,
        check: "ch",
    },
    Writing {
        languages: ES_IT,
        pieces: ['P', 'C', 'A', 'T', 'D', 'R'],
        sides: ['R', 'D'],
        latin: true,
        check: "+",
    },
    Writing {
        languages: LanguageSet::single(Language::Fr),
        pieces: ['P', 'C', 'F', 'T', 'D', 'R'],
        sides: ['R', 'D'],
        latin: true,
        check: "+",
    },
];

impl Writing {
    fn of(lang: Language) -> &'static Writing {
        WRITINGS
            .iter()
            .find(|w| w.languages.contains(lang))
            .unwrap_or(&WRITINGS[0])
    }

    fn piece(&self, role: Role) -> char {
        self.pieces[usize::from(role as u8 - 1)]
    }

    /// Writes the full name of `file` (`KB`, `QR`, `K`; Latin `AR`, `TD`,
    /// `R`).
    fn file_name(&self, file: File, out: &mut String) {
        let (wing, side) = match file {
            File::A => (Some(Role::Rook), 1),
            File::B => (Some(Role::Knight), 1),
            File::C => (Some(Role::Bishop), 1),
            File::D => (None, 1),
            File::E => (None, 0),
            File::F => (Some(Role::Bishop), 0),
            File::G => (Some(Role::Knight), 0),
            File::H => (Some(Role::Rook), 0),
        };
        if !self.latin {
            out.push(self.sides[side]);
        }
        if let Some(wing) = wing {
            out.push(self.piece(wing));
        }
        if self.latin {
            out.push(self.sides[side]);
        }
    }

    /// Writes the full name of `sq` from `turn`'s side (`KB3`, `QR1`,
    /// `K4`; Latin `3AR`, `1TD`, `4R`).
    fn square(&self, sq: Square, turn: Color, out: &mut String) {
        let rank = char::from(b'1' + relative_rank(sq.rank(), turn));
        if self.latin {
            out.push(rank);
        }
        self.file_name(sq.file(), out);
        if !self.latin {
            out.push(rank);
        }
    }

    /// The mover's square as written when it must be: `(KB1)` in
    /// English, `1AR` in the Latin order (where a `-` or `x` follows).
    fn origin(&self, sq: Square, turn: Color, out: &mut String) {
        if self.latin {
            self.square(sq, turn, out);
        } else {
            out.push('(');
            self.square(sq, turn, out);
            out.push(')');
        }
    }
}

/// Writes `m` (legal in `pos`) in the classic style of the [module
/// docs](super), in `lang`'s letters and order (English for a language
/// without descriptive notation of its own), with its check mark.
pub(crate) fn write(pos: &Chess, m: &Move, lang: Language, out: &mut String) {
    let w = Writing::of(lang);
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
            out.push(w.piece(role));
            match captured_square(m) {
                None => {
                    let to = m.to();
                    let origin = rivals.any(|o| !o.is_capture() && o.to() == to);
                    if origin {
                        w.origin(from, turn, out);
                    }
                    if origin || !w.latin {
                        out.push('-');
                    }
                    w.square(to, turn, out);
                }
                Some((captured, sq)) => {
                    // Rivals capturing the same kind of man; then those
                    // capturing it on the same square.
                    let mut same_man = false;
                    let mut same_square = false;
                    // The same from a pawn on the mover's file.
                    let (mut same_man_file, mut same_square_file) = (false, false);
                    for o in rivals {
                        if let Some((c, s)) = captured_square(o)
                            && c == captured
                        {
                            same_man = true;
                            same_square |= s == sq;
                            if o.from().map(Square::file) == Some(from.file()) {
                                same_man_file = true;
                                same_square_file |= s == sq;
                            }
                        }
                    }
                    if same_square && w.latin && role == Role::Pawn && !same_square_file {
                        // A pawn by its file, as Spanish books print
                        // it (`PDxA`), where no other pawn on the file
                        // takes the man (en passant may: `P4DxP5AD`);
                        // then the man's square only if a pawn of the
                        // file may take another one.
                        w.file_name(from.file(), out);
                        same_man = same_man_file;
                    } else if same_square {
                        w.origin(from, turn, out);
                    }
                    out.push('x');
                    out.push(w.piece(captured));
                    if same_man {
                        if w.latin {
                            w.square(sq, turn, out);
                        } else {
                            out.push('(');
                            w.square(sq, turn, out);
                            out.push(')');
                        }
                    }
                }
            }
            if let Some(p) = m.promotion() {
                out.push('=');
                out.push(w.piece(p));
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    let mate = after.is_checkmate();
    if after.is_check() && !mate {
        out.push_str(w.check);
    }
    if en_passant {
        out.push_str(" e.p.");
    }
    if mate {
        out.push_str(" mate");
    }
}
