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

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, File, Move, Position, Rank, Role, Square, attacks,
};

use crate::language::{Language, LanguageSet};
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

/// A letter of a family of descriptive notations, packed in a byte: the
/// role it names (`Role as u8`, bits 0-2; 0: none), whether that role
/// names a pair of files (rook, knight, bishop), and the side of the
/// board it also names (the king's and the queen's letters name their
/// sides: English `K`/`Q`, Spanish `R`/`D`).
type Letter = u8;
const ROLE: Letter = 0b111;
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
    letters: [Letter; 256],
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

const ES_IT_FR: LanguageSet = LanguageSet::single(Language::Es)
    .union(LanguageSet::single(Language::It))
    .union(LanguageSet::single(Language::Fr));
const ES_IT: LanguageSet =
    LanguageSet::single(Language::Es).union(LanguageSet::single(Language::It));
const EN: LanguageSet = LanguageSet::single(Language::En);

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
    fn place<const L: bool>(&self, s: &[u8], i: usize, file_first: bool) -> Option<(Place, usize)> {
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
    fn promotion_piece(&self, s: &[u8], i: usize) -> Option<(Role, usize)> {
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
    fn languages(&self, s: &[u8]) -> LanguageSet {
        s.iter().fold(LanguageSet::ALL, |set, &b| {
            set.intersect(self.languages[usize::from(b)])
        })
    }
}

/// The readings of one descriptive word: in English, and in the Latin
/// family (Spanish, Italian, French) with the languages whose letters it
/// is written with. Under a language of the Latin family its reading
/// there comes first; every other language reads the English one (as
/// algebraic letters fall back to English).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Readings {
    english: Option<Descriptive>,
    latin: Option<Descriptive>,
    /// Empty when there is no Latin reading.
    latin_languages: LanguageSet,
}

/// Whether a word starting with `b` may be a descriptive move.
#[inline]
pub(crate) fn may_start(b: u8) -> bool {
    matches!(
        b,
        b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'D' | b'T' | b'A' | b'F' | b'C'
    )
}

impl Readings {
    /// The readings of the body of a descriptive move (marks off), if it
    /// has any.
    #[inline]
    pub(crate) fn parse(s: &[u8]) -> Option<Readings> {
        let english = ENGLISH.parse(s);
        let latin = match s.first() {
            Some(&b) if LATIN.letters[usize::from(b)] & ROLE != 0 => LATIN.parse(s),
            _ => None,
        };
        let latin_languages = match latin {
            Some(_) => LATIN.languages(s).intersect(ES_IT_FR),
            None => LanguageSet::EMPTY,
        };
        let latin = latin.filter(|_| !latin_languages.is_empty());
        (english.is_some() || latin.is_some()).then_some(Readings {
            english,
            latin,
            latin_languages,
        })
    }

    /// The reading under `lang`.
    #[inline]
    pub(crate) fn get(&self, lang: Language) -> Option<&Descriptive> {
        if self.latin_languages.contains(lang) {
            self.latin.as_ref()
        } else {
            self.english.as_ref()
        }
    }

    /// Whether some reading captures.
    pub(crate) fn is_capture(&self) -> bool {
        self.english.or(self.latin).is_some_and(|d| d.is_capture())
    }

    /// The languages under which the word is a move.
    pub(crate) fn languages(&self) -> LanguageSet {
        if self.english.is_some() {
            LanguageSet::ALL
        } else {
            self.latin_languages
        }
    }

    /// The languages whose own letters the word is written with.
    pub(crate) fn own_languages(&self) -> LanguageSet {
        let english = if self.english.is_some() {
            EN
        } else {
            LanguageSet::EMPTY
        };
        english.union(self.latin_languages)
    }

    /// The languages that read the word in the Latin family.
    pub(crate) fn latin_languages(&self) -> LanguageSet {
        self.latin_languages
    }

    /// Whether the word means something different in some language (it
    /// has a Latin reading).
    pub(crate) fn depends_on_language(&self) -> bool {
        self.latin.is_some()
    }

    /// Which reading `lang` takes: 1 English, 2 Latin, 0 none.
    pub(crate) fn key(&self, lang: Language) -> u8 {
        if self.latin_languages.contains(lang) {
            2
        } else {
            u8::from(self.english.is_some())
        }
    }
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
    if let Some((_, j)) = ENGLISH.place::<false>(rest, 1, false)
        && let Some(n) = close(j)
    {
        return Some(n);
    }
    ENGLISH.promotion_piece(rest, 1).and_then(|(_, j)| close(j))
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

/// The set of files copied to every rank.
fn file_squares(files: Files) -> Bitboard {
    Bitboard(u64::from(files).wrapping_mul(0x0101_0101_0101_0101))
}

impl Place {
    /// The squares the place names from `turn`'s side.
    fn squares(self, turn: Color) -> Bitboard {
        let files = file_squares(self.files);
        match self.rank {
            Some(r) => {
                let r = match turn {
                    Color::White => r,
                    Color::Black => 7 - r,
                };
                files & Bitboard::from_rank(Rank::new(u32::from(r)))
            }
            None => files,
        }
    }
}

impl Origins {
    /// The squares of the pieces that started on `side`.
    fn of(&self, side: Side) -> Bitboard {
        match side {
            Side::King => self.king_side,
            Side::Queen => self.queen_side,
        }
    }
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

/// What a token states about squares, as sets of squares: where the mover
/// may stand (its files, its square or rank as written, the side of the
/// board it started on) and where it goes (a move's destination) or what
/// it takes (the captured man's files, square and side). With the man's
/// kind and the promotion, a move fits the token when its squares are in
/// these sets ([`Descriptive::fits`]); the moves that fit are made from
/// them without a move list in the common cases.
struct Masks {
    from: Bitboard,
    /// A move's destination; the square of the man a capture takes.
    to: Bitboard,
}

impl Descriptive {
    fn masks(&self, turn: Color, origins: Option<&Origins>) -> Masks {
        let all = !Bitboard(0);
        let side = |side: Option<Side>| match (side, origins) {
            (Some(side), Some(o)) => o.of(side),
            _ => all,
        };
        let from = file_squares(self.man.files)
            & self.from.map_or(all, |p| p.squares(turn))
            & side(self.man.side);
        let mut to = self.to.map_or(all, |p| p.squares(turn));
        if let Some(c) = self.captured {
            to &= file_squares(c.files) & side(c.side);
        }
        Masks { from, to }
    }

    /// Whether `m` (legal) fits the token, whose squares are `masks`.
    fn fits(&self, m: &Move, masks: &Masks) -> bool {
        let Some(from) = m.from() else { return false };
        if m.is_castle() || m.role() != self.man.role || !masks.from.contains(from) {
            return false;
        }
        let square = match (self.captured, captured_square(m)) {
            (None, None) => m.to(),
            (Some(c), Some((role, sq))) if c.role == role => sq,
            _ => return false,
        };
        masks.to.contains(square)
            && match (self.promotion, m.promotion()) {
                (Some(p), Some(q)) => p == q,
                (Some(_), None) => false,
                (None, _) => true,
            }
    }

    /// The one legal move of `pos` that fits, with the pieces' origins if
    /// they are known (unknown: a piece named by its side fits either side);
    /// `in_check`: whether the side to move is in check, if known.
    pub(crate) fn resolve(
        &self,
        pos: &Chess,
        in_check: Option<bool>,
        origins: Option<&Origins>,
    ) -> Result<Move, ResolveError> {
        let board = pos.board();
        let turn = pos.turn();
        let occupied = board.occupied();
        let role = self.man.role;
        let masks = self.masks(turn, origins);
        let mut fitting = Fitting::default();
        // The squares a fitting move goes to: empty ones for a move, the
        // enemy men of the kind taken for a capture.
        let targets = match self.captured {
            None => masks.to & !occupied,
            Some(c) => masks.to & board.by_color(!turn) & board.by_role(c.role),
        };
        // En passant, rare: from shakmaty's candidates.
        if role == Role::Pawn
            && self.captured.is_some_and(|c| c.role == Role::Pawn)
            && let Some(ep) = pos.ep_square(EnPassantMode::PseudoLegal)
        {
            for m in pos.san_candidates(Role::Pawn, ep) {
                if self.fits(&m, &masks) {
                    fitting.push(m);
                }
            }
        }
        let Some(king) = board.king_of(turn) else {
            for to in targets {
                for m in pos.san_candidates(role, to) {
                    if self.fits(&m, &masks) {
                        fitting.push(m);
                    }
                }
            }
            return fitting.resolve();
        };
        let checkers = match in_check {
            Some(false) => Bitboard(0),
            _ => board.attacks_to(king, !turn, occupied),
        };
        if role == Role::King {
            if !masks.from.contains(king) || self.promotion.is_some() {
                return fitting.resolve();
            }
            for to in targets & attacks::king_attacks(king) {
                if board
                    .attacks_to(to, !turn, occupied.without(king))
                    .is_empty()
                {
                    fitting.push(Move::Normal {
                        role,
                        from: king,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
            return fitting.resolve();
        }
        // Out of check, any square; in single check, the checker's or one
        // between it and the king; in double check, none.
        let evasion = match checkers.single_square() {
            _ if checkers.is_empty() => !Bitboard(0),
            Some(checker) => attacks::between(king, checker).with(checker),
            None => Bitboard(0),
        };
        let ours = board.by_color(turn) & board.by_role(role) & masks.from;
        let last = match turn {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        let mut pinned = None;
        for to in targets & evasion {
            let capture = board.role_at(to);
            let from = match role {
                Role::Knight => attacks::knight_attacks(to) & ours,
                Role::Bishop => attacks::bishop_attacks(to, occupied) & ours,
                Role::Rook => attacks::rook_attacks(to, occupied) & ours,
                Role::Queen => attacks::queen_attacks(to, occupied) & ours,
                Role::Pawn if capture.is_some() => attacks::pawn_attacks(!turn, to) & ours,
                Role::Pawn => pawn_pushes_to(to, turn, ours, occupied),
                Role::King => Bitboard(0),
            };
            let promotes = role == Role::Pawn && to.rank() == last;
            if !promotes && self.promotion.is_some() {
                continue;
            }
            for from in from {
                // Only a piece on a line with its king can be pinned.
                if !attacks::ray(king, from).is_empty() {
                    let pinned =
                        *pinned.get_or_insert_with(|| crate::read::slider_blockers(pos, king));
                    if pinned.contains(from) && !attacks::aligned(from, to, king) {
                        continue;
                    }
                }
                let mut push = |promotion| {
                    fitting.push(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion,
                    });
                };
                match (promotes, self.promotion) {
                    (false, _) => push(None),
                    (true, Some(p)) => push(Some(p)),
                    (true, None) => {
                        for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            push(Some(p));
                        }
                    }
                }
            }
        }
        fitting.resolve()
    }
}

/// The square of the side to move's pawn (of `ours`) that pushes to the
/// empty square `to`, one step or two from its first rank.
fn pawn_pushes_to(to: Square, turn: Color, ours: Bitboard, occupied: Bitboard) -> Bitboard {
    let (back, double): (i32, Rank) = match turn {
        Color::White => (-8, Rank::Fourth),
        Color::Black => (8, Rank::Fifth),
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
/// docs](self), in `lang`'s letters and order (English for a language
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
            assert!(ENGLISH.parse(s.as_bytes()).is_some(), "{s}");
        }
        for s in [
            "P-K9", "P-", "PxP(Q9)", "N-K8=Q", "K4", "P-K4Q3", "e4", "Nf3", "PxK4",
        ] {
            assert!(ENGLISH.parse(s.as_bytes()).is_none(), "{s}");
        }
        // The Latin forms of the sources (crates/notation/README.md).
        for s in [
            "P4R",
            "C3AR",
            "A5CD",
            "D7T",
            "P8C=D",
            "AxT",
            "CRxP",
            "CDxP",
            "T1xP",
            "T7xP",
            "C7-5C",
            "C3-5C",
            "PRxP",
            "PCxPA",
            "PxPT",
            "PTxP",
            "PAxPC",
            "CRXP",
            "PAXPC",
            "T5FR",
            "PxC",
            "P8D=D",
            "PxC:D",
            "TD3FR",
            "FxCD",
            "T4CR-2CR",
            "CD-2D",
            "CD2D",
            "T-AD3",
            "CxP5D",
            "C3ARxP5R",
            "T1AR-1R",
            "P8R=D",
            "PTD(8TD)xPCD(8CD)=(D)",
        ] {
            assert!(LATIN.parse(s.as_bytes()).is_some(), "{s}");
        }
        for s in ["P-K4", "N-KB3", "P4", "C3", "R-K1", "P4R4", "CxP9D", "Cf3"] {
            assert!(LATIN.parse(s.as_bytes()).is_none(), "{s}");
        }
        let d = LATIN.parse(b"PCxPA").expect("parses");
        assert_eq!(d.man.files, 0b0100_0010);
        assert_eq!(d.captured.map(|c| c.files), Some(0b0010_0100));
        let d = LATIN.parse(b"CRxP").expect("parses");
        assert_eq!(d.man.side, Some(Side::King));
        let d = LATIN.parse(b"T4CR-2CR").expect("parses");
        assert_eq!(d.from.and_then(|p| p.rank), Some(3));
        let d = ENGLISH.parse(b"KR-Q1").expect("parses");
        assert_eq!(d.man.side, Some(Side::King));
        assert_eq!(d.man.role, Role::Rook);
        let d = ENGLISH.parse(b"QBPxP").expect("parses");
        assert_eq!(d.man.role, Role::Pawn);
        assert_eq!(d.man.files, 1 << 2);
        let d = ENGLISH.parse(b"PxQP").expect("parses");
        assert_eq!(d.captured.map(|c| c.files), Some(1 << 3));
    }
}
