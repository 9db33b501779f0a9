//! Descriptive notations that read alike, as data (their letters, the
//! order of their parts), and the reading of one word in a family.

use shakmaty::{File, Role};

use super::{ALL_FILES, Descriptive, Files, Man, Place, Side};
use crate::language::{Language, LanguageSet};

/// A letter of a family of descriptive notations, packed in a byte: the
/// role it names (`Role as u8`, bits 0-2; 0: none), whether that role
/// names a pair of files (rook, knight, bishop), and the side of the
/// board it also names (the king's and the queen's letters name their
/// sides: English `K`/`Q`, Spanish `R`/`D`).
type Letter = u8;
pub(super) const ROLE: Letter = 0b111;
const WING: Letter = 1 << 3;
const KING_SIDE: Letter = 1 << 4;
const QUEEN_SIDE: Letter = 1 << 5;
/// A byte a move of the family may be written with (letters, digits,
/// marks).
const WRITTEN: Letter = 1 << 6;
/// English `K`, which a `t` after it makes the knight's `Kt`.
const KT: Letter = 1 << 7;

/// The letters of a family by ASCII byte, from (letter, role, languages),
/// and the languages of each letter.
const fn letters(entries: &[(u8, Role, LanguageSet)]) -> ([Letter; 256], [LanguageSet; 256]) {
    let mut table = [0; 256];
    let mut languages = [LanguageSet::ALL; 256];
    let marks = b"12345678-x:=/()";
    let mut i = 0;
    while i < marks.len() {
        table[marks[i] as usize] = WRITTEN;
        i += 1;
    }
    let mut i = 0;
    while i < entries.len() {
        let (b, role, langs) = entries[i];
        let mut letter = role as u8 | WRITTEN;
        match role {
            Role::Rook | Role::Knight | Role::Bishop => letter |= WING,
            Role::King => letter |= KING_SIDE,
            Role::Queen => letter |= QUEEN_SIDE,
            Role::Pawn => {}
        }
        table[b as usize] = letter;
        languages[b as usize] = langs;
        i += 1;
    }
    (table, languages)
}

/// Descriptive notations that read alike, as data: their letters (each
/// with the languages that write it) and the order their names go in.
pub(crate) struct Family {
    pub(super) letters: [Letter; 256],
    languages: [LanguageSet; 256],
    /// The order of Spanish, French and Italian: a name puts the side
    /// after the piece (`AR` the f-file, `CD` the b-file, `PR` the e-pawn,
    /// `CR` the king's knight), a square its rank first (`3AR`; after a
    /// `-` also the file first, Italian `T-AD3`), a move needs no `-`
    /// (`P4R`), a captured man may have its square after it (`CxP5D`) and
    /// a mover's square comes before the `-` or `x` (`T1AR-1R`,
    /// `C3ARxP5R`); `X` is a capture mark too. English puts the side first
    /// (`KB`, `QN`, `KP`, `KR`), a square's file first (`KB3`), and writes
    /// `-` for a move.
    latin: bool,
}

pub(super) const ES_IT_FR: LanguageSet = LanguageSet::single(Language::Es)
    .union(LanguageSet::single(Language::It))
    .union(LanguageSet::single(Language::Fr));
pub(super) const ES_IT: LanguageSet =
    LanguageSet::single(Language::Es).union(LanguageSet::single(Language::It));
pub(super) const EN: LanguageSet = LanguageSet::single(Language::En);

const ENGLISH_LETTERS: ([Letter; 256], [LanguageSet; 256]) = letters(&[
    (b'K', Role::King, EN),
    (b'Q', Role::Queen, EN),
    (b'R', Role::Rook, EN),
    (b'B', Role::Bishop, EN),
    (b'N', Role::Knight, EN),
    (b'P', Role::Pawn, EN),
]);

/// English descriptive: `K Q R B N P` (`Kt`), the sides `K` and `Q`.
pub(crate) static ENGLISH: Family = Family {
    letters: {
        let mut t = ENGLISH_LETTERS.0;
        // The `t` of `Kt`.
        t[b't' as usize] = WRITTEN;
        t[b'K' as usize] |= KT;
        t
    },
    languages: ENGLISH_LETTERS.1,
    latin: false,
};

const LATIN_LETTERS: ([Letter; 256], [LanguageSet; 256]) = letters(&[
    (b'R', Role::King, ES_IT_FR),
    (b'D', Role::Queen, ES_IT_FR),
    (b'T', Role::Rook, ES_IT_FR),
    (b'A', Role::Bishop, ES_IT),
    (b'F', Role::Bishop, LanguageSet::single(Language::Fr)),
    (b'C', Role::Knight, ES_IT_FR),
    (b'P', Role::Pawn, ES_IT_FR),
    (b'X', Role::Pawn, ES_IT_FR),
]);

/// Spanish, Italian and French descriptive: rey/re/roi `R`, dama/donna/
/// dame `D`, torre/tour `T`, alfil/alfiere `A` (French fou `F`), caballo/
/// cavallo/cavalier `C`, peón/pedone/pion `P`; the sides `R` and `D`.
pub(crate) static LATIN: Family = Family {
    letters: {
        let mut t = LATIN_LETTERS.0;
        // `X`, a capture mark, names no man.
        t[b'X' as usize] = WRITTEN;
        t
    },
    languages: LATIN_LETTERS.1,
    latin: true,
};

/// The files of the wing pieces by role (knight, bishop, rook) and side
/// (none, the king's, the queen's).
const WING_FILES: [[Files; 3]; 3] = [
    [0b0100_0010, 0b0100_0000, 0b0000_0010],
    [0b0010_0100, 0b0010_0000, 0b0000_0100],
    [0b1000_0001, 0b1000_0000, 0b0000_0001],
];

/// The files a wing piece's letter (`letter & ROLE` a knight, bishop or
/// rook) names on the side `side` (0, `KING_SIDE` or `QUEEN_SIDE`).
#[inline(always)]
fn wing_files(letter: Letter, side: Letter) -> Files {
    let role = usize::from(letter & ROLE).wrapping_sub(Role::Knight as usize);
    let side = usize::from(side >> 4);
    WING_FILES
        .get(role)
        .and_then(|r| r.get(side))
        .copied()
        .unwrap_or(0)
}

fn center_file(side: Letter) -> Files {
    if side & KING_SIDE != 0 {
        1 << (File::E as u8)
    } else {
        1 << (File::D as u8)
    }
}

fn side_of(side: Letter) -> Option<Side> {
    if side & KING_SIDE != 0 {
        Some(Side::King)
    } else if side & QUEEN_SIDE != 0 {
        Some(Side::Queen)
    } else {
        None
    }
}

fn role_of(letter: Letter) -> Option<Role> {
    Role::try_from(letter & ROLE).ok()
}

fn is_separator(b: Option<&u8>) -> bool {
    matches!(b, Some(b'-' | b'x' | b':'))
}

fn rank_at(s: &[u8], i: usize) -> Option<u8> {
    match s.get(i) {
        Some(d @ b'1'..=b'8') => Some(d - b'1'),
        _ => None,
    }
}

impl Family {
    /// The letter at `i` (0 past the end); `Kt` is a knight's letter of
    /// two bytes: gives the letter and its length.
    #[inline(always)]
    fn letter(&self, s: &[u8], i: usize) -> (Letter, usize) {
        let letter = self.letters[usize::from(s.get(i).copied().unwrap_or(0))];
        if letter & KT != 0 && s.get(i + 1) == Some(&b't') {
            (Role::Knight as u8 | WING | WRITTEN, 2)
        } else {
            (letter & !KT, 1)
        }
    }

    /// Whether every byte of `s` is one the family writes moves with.
    #[inline]
    fn writes(&self, s: &[u8]) -> bool {
        s.iter()
            .all(|&b| self.letters[usize::from(b)] & WRITTEN != 0)
    }

    /// A file's name at `i` (`KB`, `QN`, `K`, `B`; Latin `AR`, `CD`, `R`,
    /// `A`): its files, the wing letter (0: none) and the side named (0,
    /// `KING_SIDE`, `QUEEN_SIDE`), and the index after it.
    #[inline(always)]
    fn file_name<const L: bool>(
        &self,
        s: &[u8],
        i: usize,
    ) -> Option<(Files, Letter, Letter, usize)> {
        let (first, n) = self.letter(s, i);
        let (wing, side, end) = if first & WING != 0 {
            // Latin: the side after the wing piece.
            let side = if L {
                self.letter(s, i + n).0 & (KING_SIDE | QUEEN_SIDE)
            } else {
                0
            };
            (first, side, i + n + usize::from(side != 0))
        } else if first & (KING_SIDE | QUEEN_SIDE) != 0 {
            let side = first & (KING_SIDE | QUEEN_SIDE);
            // English: the wing piece after the side.
            let (next, m) = self.letter(s, i + 1);
            if !L && next & WING != 0 {
                (next, side, i + 1 + m)
            } else {
                (0, side, i + 1)
            }
        } else {
            return None;
        };
        let files = if wing != 0 {
            wing_files(wing, side)
        } else {
            center_file(side)
        };
        Some((files, wing, side, end))
    }

    /// A man at `i` (`P`, `N`, `KR`, `QBP`; Latin `P`, `C`, `CR`, `PAR`),
    /// and the index after it.
    #[inline(always)]
    fn man<const L: bool>(&self, s: &[u8], i: usize) -> Option<(Man, usize)> {
        let pawn = |files| Man {
            role: Role::Pawn,
            files,
            side: None,
        };
        let (first, _) = self.letter(s, i);
        let is_pawn = |letter: Letter| letter & ROLE == Role::Pawn as u8;
        if L && is_pawn(first) {
            return Some(match self.file_name::<L>(s, i + 1) {
                Some((files, .., j)) => (pawn(files), j),
                None => (pawn(ALL_FILES), i + 1),
            });
        }
        let Some((files, wing, side, j)) = self.file_name::<L>(s, i) else {
            return is_pawn(first).then(|| (pawn(ALL_FILES), i + 1));
        };
        if !L && is_pawn(self.letter(s, j).0) {
            return Some((pawn(files), j + 1));
        }
        let man = if wing != 0 {
            Man {
                role: role_of(wing)?,
                files: ALL_FILES,
                side: side_of(side),
            }
        } else {
            // A side alone is the king's or the queen's own letter.
            Man {
                role: role_of(first)?,
                files: ALL_FILES,
                side: None,
            }
        };
        Some((man, j))
    }

    /// A square at `i` (`K4`, `KB3`, `B3`, `QKt5`; Latin `4R`, `3AR`, `3A`,
    /// and with `file_first` also `AR3`), and the index after it.
    #[inline(always)]
    pub(super) fn place<const L: bool>(
        &self,
        s: &[u8],
        i: usize,
        file_first: bool,
    ) -> Option<(Place, usize)> {
        if L && let Some(r) = rank_at(s, i) {
            let (files, .., j) = self.file_name::<L>(s, i + 1)?;
            return Some((
                Place {
                    files,
                    rank: Some(r),
                },
                j,
            ));
        }
        if L && !file_first {
            return None;
        }
        let (files, .., j) = self.file_name::<L>(s, i)?;
        let r = rank_at(s, j)?;
        Some((
            Place {
                files,
                rank: Some(r),
            },
            j + 1,
        ))
    }

    /// A promotion piece at `i` (`Q`, `R`, `B`, `N`, `Kt`; Latin `D`, `T`,
    /// `A`/`F`, `C`), and the index after it.
    pub(super) fn promotion_piece(&self, s: &[u8], i: usize) -> Option<(Role, usize)> {
        let (letter, n) = self.letter(s, i);
        role_of(letter)
            .filter(|r| !matches!(r, Role::Pawn | Role::King))
            .map(|r| (r, i + n))
    }

    /// `(` square `)` at `i`: the square and the index after the `)`.
    #[inline(always)]
    fn paren_place<const L: bool>(&self, s: &[u8], i: usize) -> Option<(Place, usize)> {
        if s.get(i) != Some(&b'(') {
            return None;
        }
        let (p, j) = self.place::<L>(s, i + 1, true)?;
        (s.get(j) == Some(&b')')).then_some((p, j + 1))
    }

    /// The mover's square or rank as books also print it: after a slash
    /// (`N/1-B3`, `R/Q1-Q2`, `N/KB3xP`) or a rank in parentheses
    /// (`N(5)-B3`); the square and the index after it.
    #[inline(always)]
    fn book_origin<const L: bool>(&self, s: &[u8], i: usize) -> Option<(Place, usize)> {
        let any_file = |r| Place {
            files: ALL_FILES,
            rank: Some(r),
        };
        match s.get(i)? {
            b'/' => match rank_at(s, i + 1) {
                Some(r) => Some((any_file(r), i + 2)),
                None => self.place::<L>(s, i + 1, true),
            },
            b'(' => {
                let r = rank_at(s, i + 1)?;
                (s.get(i + 2) == Some(&b')')).then_some((any_file(r), i + 3))
            }
            _ => None,
        }
    }

    /// Parses the body of a descriptive move (marks already peeled off).
    #[inline]
    pub(crate) fn parse(&self, s: &[u8]) -> Option<Descriptive> {
        if self.latin {
            self.parse_in::<true>(s)
        } else {
            self.parse_in::<false>(s)
        }
    }

    /// [`Family::parse`], for the family's order (`L`: Latin).
    #[inline(always)]
    fn parse_in<const L: bool>(&self, s: &[u8]) -> Option<Descriptive> {
        // A word with a byte the family does not write is none of its
        // moves: told at once (the English parse sees it anyway).
        if L && !self.writes(s) {
            return None;
        }
        let (man, mut i) = self.man::<L>(s, 0)?;
        let rank_origin = |i: usize| {
            rank_at(s, i).map(|r| Place {
                files: ALL_FILES,
                rank: Some(r),
            })
        };
        let mut from = None;
        if let Some((p, j)) = self.paren_place::<L>(s, i) {
            from = Some(p);
            i = j;
        } else if !L && let Some((p, j)) = self.book_origin::<L>(s, i) {
            from = Some(p);
            i = j;
        } else if L {
            // The mover's square or rank, before the `-` or `x`.
            if let Some((p, j)) = self.place::<L>(s, i, false)
                && (is_separator(s.get(j)) || s.get(j) == Some(&b'X'))
            {
                from = Some(p);
                i = j;
            } else if let Some(p) = rank_origin(i)
                && (is_separator(s.get(i + 1)) || s.get(i + 1) == Some(&b'X'))
            {
                from = Some(p);
                i += 1;
            }
        } else if let Some(p) = rank_origin(i) {
            from = Some(p);
            i += 1;
        }
        let (captured, to) = match s.get(i) {
            Some(b'-') => {
                let (p, j) = self.place::<L>(s, i + 1, true)?;
                i = j;
                (None, Some(p))
            }
            Some(b'x' | b':') | Some(b'X') if L || s[i] != b'X' => {
                let (c, j) = self.man::<L>(s, i + 1)?;
                i = j;
                let to = match self.paren_place::<L>(s, i) {
                    Some(found) => Some(found),
                    None if !L && s.get(i) == Some(&b'/') => self.place::<L>(s, i + 1, true),
                    None if L => self.place::<L>(s, i, false),
                    None => None,
                }
                .map(|(p, j)| {
                    i = j;
                    p
                });
                (Some(c), to)
            }
            _ if L => {
                let (p, j) = self.place::<L>(s, i, false)?;
                i = j;
                (None, Some(p))
            }
            _ => return None,
        };
        let mut promotion = None;
        if i < s.len() {
            if matches!(s[i], b'=' | b'/') || (L && s[i] == b':') {
                i += 1;
            }
            let (role, j) = if s.get(i) == Some(&b'(') {
                let (role, j) = self.promotion_piece(s, i + 1)?;
                (s.get(j) == Some(&b')')).then_some((role, j + 1))?
            } else {
                self.promotion_piece(s, i)?
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

    /// The languages whose letters `s` (parsed in this family) is written
    /// with.
    pub(super) fn languages(&self, s: &[u8]) -> LanguageSet {
        s.iter().fold(LanguageSet::ALL, |set, &b| {
            set.intersect(self.languages[usize::from(b)])
        })
    }
}
