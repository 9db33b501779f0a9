//! Writing a move in a style: SAN, long algebraic, UCI, ICCF numeric, figurine or spoken, in any language.
//!
//! Writing always renders from the [`Move`] and the position (disambiguation
//! from the legal moves, `+`/`#` from the position after the move); it never
//! substitutes letters in SAN text, so multi-letter abbreviations (`Кр`) and
//! letters that are also files come out right.
//!
//! - `San`: minimal disambiguation as in PGN export; promotion `e8=Q`
//!   (localized: `e8=D`); castling `O-O`.
//! - `Lan`: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`.
//! - `Uci`: `e2e4`, `e7e8q`; castling as the king's two-square move in
//!   standard chess, king-takes-rook in Chess960 positions.
//! - `Iccf`: ICCF numeric, `5254`, `27281` (b7-b8=Q), castling as UCI
//!   writes it, digits for letters (`5171`); no check marks.
//! - `Descriptive`: English descriptive, `P-K4`, `N-KB3`, `NxP(Q5)`,
//!   `R(KB1)-K1`, `Q-R5ch`, `P-K8=Q`; in Spanish or Italian `P4R`,
//!   `C3AR`, `AxC`, in French `C3FR` (see [`crate::descriptive`]).
//! - `Figurine`: SAN with the figurine of the moving side's colour (`♘f3`
//!   for White, `♞f6` for Black; promotion `e8=♕`).
//! - `Spoken`: see [`crate::spoken`] (words of every language; the files by the
//!   phonetic names of the FIDE Laws; English keeps the squares).
//!
//! The Russian scoresheet preset ([`Style::RU_SCORESHEET`]) writes Russian
//! letters, `:` for captures, `0-0` castling and FIDE-style promotion
//! without `=` (`e8Ф`).

use shakmaty::{
    CastlingMode, Chess, Color, File, Move, MoveList, Position, Role, Square, attacks, san::San,
};

use crate::language::Language;

/// A notation family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Standard algebraic notation (`Nf3`).
    San,
    /// Long algebraic notation (`Ng1-f3`).
    Lan,
    /// UCI coordinates (`g1f3`).
    Uci,
    /// Figurine algebraic notation (`♘f3`).
    Figurine,
    /// The spoken form (`Springer Gustav eins Felix drei`).
    Spoken,
    /// ICCF numeric notation (`5254`, `27281`): two digits a square, file
    /// then rank, a fifth digit for the promotion (1 queen, 2 rook, 3 bishop,
    /// 4 knight), castling as the king's move (`5171`).
    Iccf,
    /// Descriptive notation (`P-K4`, `N-KB3`, `NxP(Q5)`; with `es` or `it`
    /// `P4R`, `C3AR`, with `fr` `C3FR`; English in every other language),
    /// in the classic style of [`crate::descriptive`].
    Descriptive,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 7] = [
        Notation::San,
        Notation::Lan,
        Notation::Uci,
        Notation::Figurine,
        Notation::Spoken,
        Notation::Iccf,
        Notation::Descriptive,
    ];
}

/// The capture mark to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CaptureMark {
    /// `x` (PGN, FIDE).
    #[default]
    X,
    /// `:` (Russian and other Eastern European scoresheets).
    Colon,
}

/// The castling letters to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMark {
    /// `O-O` (PGN).
    #[default]
    LetterO,
    /// `0-0` (FIDE scoresheets).
    DigitZero,
    /// The king's move, `e1-g1` (`e1:g1` with [`CaptureMark::Colon`]
    /// never: castling captures nothing): long algebraic notation only;
    /// SAN and figurine write `O-O` for it.
    KingMove,
}

/// How to write a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Style {
    /// The notation family.
    pub notation: Notation,
    /// The language of piece letters (and of spoken words).
    pub language: Language,
    /// The capture mark (SAN and LAN).
    pub capture: CaptureMark,
    /// The castling letters (SAN, LAN, figurine).
    pub castling: CastlingMark,
    /// Whether `+` and `#` are written after checking and mating moves
    /// (SAN, LAN, figurine; `true` but for `--no-check-marks`).
    pub check_marks: bool,
    /// Whether pawn moves carry the letter `P` (`Pe2-e4`, in every
    /// language: the tables have no pawn letters): long algebraic notation
    /// only.
    pub pawn_letter: bool,
}

impl Style {
    /// PGN export SAN.
    pub const SAN: Style = Style::new(Notation::San, Language::En);

    /// The Russian scoresheet preset: Russian letters, `:` captures, `0-0`.
    pub const RU_SCORESHEET: Style = Style {
        notation: Notation::San,
        language: Language::Ru,
        capture: CaptureMark::Colon,
        castling: CastlingMark::DigitZero,
        check_marks: true,
        pawn_letter: false,
    };

    /// A style with `x` captures, `O-O` castling, check marks and no pawn
    /// letter.
    pub const fn new(notation: Notation, language: Language) -> Style {
        Style {
            notation,
            language,
            capture: CaptureMark::X,
            castling: CastlingMark::LetterO,
            check_marks: true,
            pawn_letter: false,
        }
    }

    /// Whether promotions are written the FIDE way, without `=` (`e8Ф`):
    /// the Russian scoresheet preset, whatever its check marks.
    fn fide_promotion(&self) -> bool {
        self.notation == Notation::San
            && self.language == Language::Ru
            && self.capture == CaptureMark::Colon
            && self.castling == CastlingMark::DigitZero
    }

    /// Whether every move this style writes is ASCII (so that its width in
    /// characters is its length in bytes).
    ///
    /// ```
    /// use pgnkit_notation::{Language, Notation, Style};
    ///
    /// assert!(Style::new(Notation::Lan, Language::De).is_ascii());
    /// assert!(!Style::new(Notation::San, Language::Ru).is_ascii());
    /// assert!(!Style::new(Notation::Figurine, Language::En).is_ascii());
    /// ```
    pub fn is_ascii(&self) -> bool {
        match self.notation {
            Notation::Uci | Notation::Iccf | Notation::Descriptive => true,
            Notation::Figurine | Notation::Spoken => false,
            Notation::San | Notation::Lan => [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ]
            .iter()
            .all(|&r| self.language.letter(r).is_ascii()),
        }
    }

    /// Names accepted on the command line: `san`, `lan`, `uci`, `figurine`
    /// (also `fan`), `spoken`, `iccf` (ICCF numeric), `descriptive` (descriptive notation: English, or Spanish, Italian, French in those languages), and the preset `ru-scoresheet` (which ignores
    /// `language`). Case-insensitive; `None` for unknown names.
    pub fn from_name(notation: &str, language: Language) -> Option<Style> {
        let n = notation.trim().to_ascii_lowercase();
        let notation = match n.as_str() {
            "san" => Notation::San,
            "lan" => Notation::Lan,
            "uci" => Notation::Uci,
            "figurine" | "fan" => Notation::Figurine,
            "spoken" => Notation::Spoken,
            "iccf" => Notation::Iccf,
            "descriptive" => Notation::Descriptive,
            "ru-scoresheet" => return Some(Style::RU_SCORESHEET),
            _ => return None,
        };
        Some(Style::new(notation, language))
    }

    /// The names [`Style::from_name`] accepts, for help texts.
    pub const NAMES: &'static [&'static str] = &[
        "san",
        "lan",
        "uci",
        "figurine",
        "spoken",
        "iccf",
        "descriptive",
        "ru-scoresheet",
    ];
}

fn figurine(role: Role, color: Color) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// A square in ICCF numeric notation: file then rank, `1`-`8` each (`52` = e2).
#[inline]
fn push_iccf_square(sq: Square, out: &mut String) {
    out.push_ascii(b'1' + sq.file() as u8);
    out.push_ascii(b'1' + sq.rank() as u8);
}

/// The king's destination when castling, the same square in Chess960 as in
/// standard chess (g or c file, the king's rank).
fn castled_king(king: Square, rook: Square) -> Square {
    let file = if rook.file() > king.file() {
        File::G
    } else {
        File::C
    };
    Square::from_coords(file, king.rank())
}

/// The names of the 64 squares in the order of their indices (`a1`, `b1`
/// … `h8`), two letters each: a square is written in one copy.
const SQUARE_NAMES: &str = "a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8";

/// Where the writer puts a move's text: a `String`, or [`MoveBytes`], the
/// 16 bytes on the stack of an ASCII move written in place. One writer of
/// each notation serves both.
pub(crate) trait MoveOut {
    /// Appends an ASCII byte (a file, a rank, a mark).
    fn push_ascii(&mut self, b: u8);
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `c`.
    fn push_char(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
    /// Makes room for `additional` more bytes.
    fn reserve(&mut self, _additional: usize) {}
}

impl MoveOut for String {
    #[inline]
    fn push_ascii(&mut self, b: u8) {
        self.push(char::from(b & 0x7f));
    }

    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    #[inline]
    fn push_char(&mut self, c: char) {
        self.push(c);
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional);
    }
}

/// A move written in place: up to 16 ASCII bytes, spaces after them. A
/// byte that is not ASCII, or one byte too many, leaves it unfit
/// ([`MoveBytes::written`] is then `None`).
pub(crate) struct MoveBytes {
    bytes: [u8; 16],
    len: usize,
    fits: bool,
}

impl MoveBytes {
    #[inline(always)]
    pub(crate) fn new() -> MoveBytes {
        MoveBytes {
            bytes: [b' '; 16],
            len: 0,
            fits: true,
        }
    }

    /// Whether all written so far fits, with room for one byte more.
    #[inline(always)]
    pub(crate) fn has_room(&self) -> bool {
        self.fits && self.len < self.bytes.len()
    }

    /// The bytes and how many are the move's; `None` when it did not fit.
    #[inline(always)]
    pub(crate) fn written(self) -> Option<([u8; 16], usize)> {
        self.fits.then_some((self.bytes, self.len))
    }
}

impl MoveOut for MoveBytes {
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        match self.bytes.get_mut(self.len) {
            Some(slot) => {
                *slot = b & 0x7f;
                self.len += 1;
            }
            None => self.fits = false,
        }
    }

    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        if s.is_ascii() {
            for &b in s.as_bytes() {
                self.push_ascii(b);
            }
        } else {
            self.fits = false;
        }
    }
}

#[inline]
fn push_square<O: MoveOut>(sq: Square, out: &mut O) {
    let at = usize::from(sq) * 2;
    out.push_str(SQUARE_NAMES.get(at..at + 2).unwrap_or_default());
}

#[inline]
fn push_piece<O: MoveOut>(style: &Style, role: Role, color: Color, out: &mut O) {
    if style.notation == Notation::Figurine {
        out.push_char(figurine(role, color));
    } else {
        match style.language.letter(role).as_bytes() {
            [b] => out.push_ascii(*b),
            _ => out.push_str(style.language.letter(role)),
        }
    }
}

#[inline]
fn push_capture<O: MoveOut>(style: &Style, out: &mut O) {
    out.push_ascii(match style.capture {
        CaptureMark::X => b'x',
        CaptureMark::Colon => b':',
    });
}

fn push_castle<O: MoveOut>(style: &Style, king_side: bool, out: &mut O) {
    let c = match style.castling {
        CastlingMark::LetterO | CastlingMark::KingMove => b'O',
        CastlingMark::DigitZero => b'0',
    };
    out.push_ascii(c);
    out.push_ascii(b'-');
    out.push_ascii(c);
    if !king_side {
        out.push_ascii(b'-');
        out.push_ascii(c);
    }
}

fn push_promotion<O: MoveOut>(style: &Style, role: Role, color: Color, out: &mut O) {
    if !style.fide_promotion() {
        out.push_ascii(b'=');
    }
    push_piece(style, role, color, out);
}

/// Appends the check or mate mark of `m` played in `pos`.
pub(crate) fn push_suffix(pos: &Chess, m: &Move, out: &mut String) {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_check() {
        out.push(char::from(check_mark(&after)));
    }
}

/// Renders `m` (legal in `pos`) in `style`, appending to `out`; `+`/`#` are
/// computed from the position (UCI has none).
pub fn write_move(pos: &Chess, m: &Move, style: &Style, out: &mut String) {
    if write_body(pos, m, style, out) {
        push_suffix(pos, m, out);
    }
}

/// [`write_move`] for a caller that already has `after`, the position `m`
/// leads to: the `+`/`#` mark is read from it instead of playing the move
/// again.
///
/// ```
/// use pgnkit_notation::{write_move_after, Style};
/// use shakmaty::{Chess, Position, san::San};
///
/// let mut pos = Chess::default();
/// for san in ["f3", "e5", "g4"] {
///     let m = san.parse::<San>()?.to_move(&pos)?;
///     pos.play_unchecked(m);
/// }
/// let m = "Qh4".parse::<San>()?.to_move(&pos)?;
/// let mut after = pos.clone();
/// after.play_unchecked(m);
/// let mut out = String::new();
/// write_move_after(&pos, &m, &after, &Style::SAN, &mut out);
/// assert_eq!(out, "Qh4#");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_move_after(pos: &Chess, m: &Move, after: &Chess, style: &Style, out: &mut String) {
    if write_body(pos, m, style, out) && after.is_check() {
        out.push(char::from(check_mark(after)));
    }
}

/// Whether the side to move, in check, has a legal move: quick when its
/// king can step out of check, else by generating the moves.
/// [`write_move_after`] for a caller that knows whether the move gives
/// check (`gives_check`: the side to move in `after` is in check), which
/// spares looking again.
pub fn write_move_checked(
    pos: &Chess,
    m: &Move,
    after: &Chess,
    gives_check: bool,
    style: &Style,
    out: &mut String,
) {
    if write_body(pos, m, style, out) && gives_check {
        out.push(char::from(check_mark(after)));
    }
}

/// The mark of the check the side to move in `after` is in: `#` when it
/// has no legal move (mate), else `+`.
#[inline]
pub(crate) fn check_mark(after: &Chess) -> u8 {
    if has_evasion(after) { b'+' } else { b'#' }
}

pub(crate) fn has_evasion(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    if let Some(king) = board.king_of(turn) {
        let occupied = board.occupied().without(king);
        let steps = attacks::king_attacks(king) & !board.by_color(turn);
        if steps
            .into_iter()
            .any(|to| board.attacks_to(to, !turn, occupied).is_empty())
        {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

/// Writes `m` (legal in `pos`) as [`write_move`] does, plays it on `pos`,
/// and reads the `+`/`#` mark from the new position, with no copy of the
/// position; says whether the move gave check (`None` when the notation
/// has no check mark and it was not looked at). Public as
/// [`Line::write_and_play`](crate::Line::write_and_play).
#[inline]
pub(crate) fn write_and_play(
    pos: &mut Chess,
    m: Move,
    style: &Style,
    out: &mut String,
) -> Option<bool> {
    // UCI, the common target of a conversion, without `write_body`'s
    // dispatch and its frame, sized for the other notations.
    if style.notation == Notation::Uci {
        write_uci(pos, &m, out);
        pos.play_unchecked(m);
        return None;
    }
    let marked = write_body(pos, &m, style, out);
    pos.play_unchecked(m);
    if !marked {
        return None;
    }
    let check = pos.is_check();
    if check {
        out.push(char::from(check_mark(pos)));
    }
    Some(check)
}

/// The SAN of `m` (legal in `pos`), as `San::from_move` gives it.
///
/// Only a knight, bishop, rook or queen move can need a disambiguating
/// file or rank, and only when another piece of its kind attacks the
/// destination: then the other pieces that may legally go there are
/// found without generating moves (pinned pieces left out), unless the
/// side to move is in check, where shakmaty generates the evasions.
fn san_of(pos: &Chess, m: &Move) -> San {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = *m
    else {
        return San::disambiguate(*m, &MoveList::new());
    };
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    let reach = match role {
        Role::Pawn | Role::King => return San::disambiguate(*m, &MoveList::new()),
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        Role::Queen => attacks::queen_attacks(to, occupied),
    };
    let others = (reach & board.by_piece(role.of(turn))).without(from);
    if others.is_empty() {
        return San::disambiguate(*m, &MoveList::new());
    }
    let Some(king) = board.king_of(turn) else {
        return San::from_move(pos, *m);
    };
    if !board.attacks_to(king, !turn, occupied).is_empty() {
        return San::from_move(pos, *m);
    }
    let pinned = crate::fitting::slider_blockers(pos, king);
    let (mut ambiguous, mut same_file, mut same_rank) = (false, false, false);
    for other in others {
        if pinned.contains(other) && !attacks::aligned(other, to, king) {
            continue;
        }
        ambiguous = true;
        same_file |= other.file() == from.file();
        same_rank |= other.rank() == from.rank();
    }
    San::Normal {
        role,
        file: (ambiguous && (!same_file || same_rank)).then(|| from.file()),
        rank: same_file.then(|| from.rank()),
        capture: capture.is_some(),
        to,
        promotion,
    }
}

/// Writes the move without its check mark; false when the notation has no
/// check mark (UCI) or writes its own (spoken).
fn write_body(pos: &Chess, m: &Move, style: &Style, out: &mut String) -> bool {
    match style.notation {
        Notation::Uci => {
            write_uci(pos, m, out);
            return false;
        }
        Notation::Spoken => {
            crate::spoken::write(pos, m, style.language, out);
            return false;
        }
        Notation::Descriptive => {
            crate::descriptive::write(pos, m, style.language, out);
            return false;
        }
        Notation::Iccf => {
            write_iccf(pos, m, out);
            return false;
        }
        Notation::San | Notation::Figurine => write_san(pos, m, style, out),
        Notation::Lan => write_lan(pos, m, style, out),
    }
    style.check_marks
}

/// The move in UCI: its squares (castling as the king's move in standard
/// chess, the king taking its rook in Chess960), the promotion's letter.
#[inline]
fn write_uci(pos: &Chess, m: &Move, out: &mut String) {
    let (ascii, len) = uci_ascii(pos, m);
    out.extend(ascii.iter().take(len).map(|&b| char::from(b)));
}

/// [`write_uci`] into 16 bytes: the move's 4 or 5 ASCII bytes, then
/// spaces; and how many are the move's.
#[inline]
pub(crate) fn uci_ascii(pos: &Chess, m: &Move) -> ([u8; 16], usize) {
    let mut out = [b' '; 16];
    let (from, to, promotion) = match *m {
        Move::Castle { king, rook } if pos.castles().mode() == CastlingMode::Standard => {
            (king, castled_king(king, rook), None)
        }
        Move::Castle { king, rook } => (king, rook, None),
        Move::Put { .. } => {
            out[..4].copy_from_slice(b"0000");
            return (out, 4);
        }
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
    };
    let name = |sq: Square| {
        let at = usize::from(sq) * 2;
        SQUARE_NAMES.as_bytes().get(at..at + 2).unwrap_or(b"??")
    };
    out[..2].copy_from_slice(name(from));
    out[2..4].copy_from_slice(name(to));
    match promotion {
        Some(p) => {
            out[4] = p.char() as u8;
            (out, 5)
        }
        None => (out, 4),
    }
}

/// The move in ICCF numeric notation: its squares as digits, the
/// promotion as a digit.
#[inline]
fn write_iccf(pos: &Chess, m: &Move, out: &mut String) {
    // Castling is the king's move to its square, in standard chess
    // as ICCF writes it; in Chess960 positions the king takes its
    // rook (as UCI writes it), since the king's square can be one
    // an ordinary king move also reaches.
    let (from, to, promotion) = match *m {
        Move::Castle { king, rook } if pos.castles().mode() == CastlingMode::Standard => {
            (king, castled_king(king, rook), None)
        }
        Move::Castle { king, rook } => (king, rook, None),
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Put { .. } => {
            out.push_str("--");
            return;
        }
    };
    push_iccf_square(from, out);
    push_iccf_square(to, out);
    if let Some(p) = promotion {
        out.push_ascii(match p {
            Role::Rook => b'2',
            Role::Bishop => b'3',
            Role::Knight => b'4',
            _ => b'1',
        });
    }
}

/// The move in SAN (or with figurines): the piece, what makes it unique,
/// the capture, the square, the promotion.
#[inline]
pub(crate) fn write_san<O: MoveOut>(pos: &Chess, m: &Move, style: &Style, out: &mut O) {
    write_san_form(pos, &san_of(pos, m), style, out);
}

/// Writes `san`, a move of the side to move in `pos`, in `style` (without
/// a check mark).
pub(crate) fn write_san_form<O: MoveOut>(pos: &Chess, san: &San, style: &Style, out: &mut O) {
    let color = pos.turn();
    match *san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                push_piece(style, role, color, out);
            }
            if let Some(f) = file {
                out.push_ascii(f.char() as u8);
            }
            if let Some(r) = rank {
                out.push_ascii(r.char() as u8);
            }
            if capture {
                push_capture(style, out);
            }
            push_square(to, out);
            if let Some(p) = promotion {
                push_promotion(style, p, color, out);
            }
        }
        San::Castle(side) => push_castle(style, side == shakmaty::CastlingSide::KingSide, out),
        San::Put { .. } | San::Null => out.push_str("--"),
    }
}

/// The move in long algebraic notation: the piece, both squares, the
/// capture or `-`, the promotion.
#[inline]
pub(crate) fn write_lan<O: MoveOut>(pos: &Chess, m: &Move, style: &Style, out: &mut O) {
    let color = pos.turn();
    match *m {
        Move::Castle { king, rook } if style.castling == CastlingMark::KingMove => {
            // The king's two-square move (in Chess960 its square
            // beside the rook's, as in standard chess).
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            push_square(king, out);
            out.push_ascii(b'-');
            push_square(Square::from_coords(file, king.rank()), out);
        }
        Move::Castle { king, rook } => push_castle(style, rook.file() > king.file(), out),
        Move::Put { .. } => out.push_str("--"),
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            out.reserve(8);
            if role != Role::Pawn {
                push_piece(style, role, color, out);
            } else if style.pawn_letter {
                out.push_ascii(b'P');
            }
            push_square(from, out);
            if capture.is_some() {
                push_capture(style, out);
            } else {
                out.push_ascii(b'-');
            }
            push_square(to, out);
            if let Some(p) = promotion {
                push_promotion(style, p, color, out);
            }
        }
        Move::EnPassant { from, to } => {
            if style.pawn_letter {
                out.push_ascii(b'P');
            }
            push_square(from, out);
            push_capture(style, out);
            push_square(to, out);
        }
    }
}

/// Renders `m` in `style` into a new string (see [`write_move`]).
pub fn move_to_string(pos: &Chess, m: &Move, style: &Style) -> String {
    let mut out = String::new();
    write_move(pos, m, style, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// The moves `uci` played from `fen`, each written in `style`.
    fn written(fen: &str, uci: &[&str], style: &Style) -> Vec<String> {
        let mut pos: Chess = fen
            .parse::<Fen>()
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("a position");
        uci.iter()
            .map(|u| {
                let m = u
                    .parse::<shakmaty::uci::UciMove>()
                    .expect("UCI")
                    .to_move(&pos)
                    .expect("legal");
                let text = move_to_string(&pos, &m, style);
                pos.play_unchecked(m);
                text
            })
            .collect()
    }

    #[test]
    fn long_algebraic_styles() {
        // Castling both ways, a capture, en passant, a promotion with check.
        let fen = "r3k2r/P7/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
        let moves = ["e5d6", "e8c8", "e1g1", "h8h2", "a7a8q"];
        let lan = Style::new(Notation::Lan, Language::En);
        assert_eq!(
            written(fen, &moves, &lan),
            ["e5xd6", "O-O-O", "O-O", "Rh8-h2", "a7-a8=Q+"]
        );
        let styled = Style {
            capture: CaptureMark::Colon,
            castling: CastlingMark::KingMove,
            pawn_letter: true,
            check_marks: false,
            ..lan
        };
        assert_eq!(
            written(fen, &moves, &styled),
            ["Pe5:d6", "e8-c8", "e1-g1", "Rh8-h2", "Pa7-a8=Q"]
        );
        // SAN keeps its letters for castling and has no pawn letter.
        let san = Style {
            castling: CastlingMark::KingMove,
            pawn_letter: true,
            check_marks: false,
            ..Style::SAN
        };
        assert_eq!(
            written(fen, &moves, &san),
            ["exd6", "O-O-O", "O-O", "Rh2", "a8=Q"]
        );
        // The Russian preset writes FIDE promotions without its check marks too.
        let ru = Style {
            check_marks: false,
            ..Style::RU_SCORESHEET
        };
        assert_eq!(written(fen, &moves, &ru)[4], "a8Ф");
    }
}
