//! Draw chess positions, for the pages and terminals of pgnkit and for
//! library users.
//!
//! A [`Drawing`] says how to look at a position: from which side
//! ([`Drawing::orientation`]), which move to highlight
//! ([`Drawing::last_move`]), which arrows to draw ([`Drawing::arrows`]) and
//! whether to letter the files and number the ranks. [`svg`] draws a
//! shakmaty [`Board`] as one self-contained `<svg>` element (squares,
//! pieces as Unicode chess glyphs, coordinates, highlight and arrows drawn
//! with plain shapes: no fonts, images, ids or styles from outside);
//! [`text`] draws it for a terminal, with Unicode pieces and ANSI colours
//! or as plain ASCII ([`Glyphs`]).
//!
//! ```
//! use pgnkit_board::{Arrow, Drawing, Glyphs, svg, text};
//! use shakmaty::{Chess, Color, Position, Square};
//!
//! let position = Chess::default();
//! let drawing = Drawing {
//!     orientation: Color::Black,
//!     arrows: vec![Arrow::new(Square::E2, Square::E4)],
//!     ..Drawing::default()
//! };
//! let picture = svg(position.board(), &drawing);
//! assert!(picture.starts_with("<svg ") && picture.ends_with("</svg>"));
//!
//! let ascii = text(position.board(), &Drawing::default(), Glyphs::Ascii, false);
//! assert_eq!(ascii.lines().next(), Some("8 r n b q k b n r"));
//! assert_eq!(ascii.lines().last(), Some("  a b c d e f g h"));
//! ```

mod svg;
mod text;

pub use shakmaty::{Board, Color, Move, Square};
pub use svg::{MARGIN, SQUARE, svg};
pub use text::{Glyphs, text};

use shakmaty::{File, Piece, Rank, Role};

/// How to draw a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// The side at the bottom of the board.
    pub orientation: Color,
    /// The squares of the move that led to the position, highlighted.
    pub last_move: Option<(Square, Square)>,
    /// Arrows, the first drawn strongest (a suggestion's rank).
    pub arrows: Vec<Arrow>,
    /// Files lettered and ranks numbered beside the board.
    pub coordinates: bool,
}

impl Default for Drawing {
    fn default() -> Drawing {
        Drawing {
            orientation: Color::White,
            last_move: None,
            arrows: Vec::new(),
            coordinates: true,
        }
    }
}

/// An arrow from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

impl Arrow {
    /// An arrow from `from` to `to`.
    pub fn new(from: Square, to: Square) -> Arrow {
        Arrow { from, to }
    }
}

/// The squares a move goes from and to as a player sees them: a castling
/// goes from the king's square to the king's destination (shakmaty names
/// the rook's square); a piece dropped (crazyhouse) comes from nowhere, so
/// gets `None`.
///
/// ```
/// use pgnkit_board::{Square, move_squares};
/// use shakmaty::Move;
///
/// let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
/// assert_eq!(move_squares(&castle), Some((Square::E1, Square::G1)));
/// ```
pub fn move_squares(m: &Move) -> Option<(Square, Square)> {
    match *m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            let color = if king.rank() <= Rank::Fourth {
                Color::White
            } else {
                Color::Black
            };
            Some((king, side.king_to(color)))
        }
        _ => Some((m.from()?, m.to())),
    }
}

/// The Unicode chess glyph of a piece: `♔♕♖♗♘♙` for White, `♚♛♜♝♞♟` for
/// Black.
///
/// ```
/// use pgnkit_board::glyph;
/// use shakmaty::{Color, Piece, Role};
///
/// assert_eq!(glyph(Piece { color: Color::Black, role: Role::Knight }), '♞');
/// ```
pub fn glyph(piece: Piece) -> char {
    let white = match piece.role {
        Role::King => '♔',
        Role::Queen => '♕',
        Role::Rook => '♖',
        Role::Bishop => '♗',
        Role::Knight => '♘',
        Role::Pawn => '♙',
    };
    match piece.color {
        Color::White => white,
        // The black glyphs are the white ones' code points plus 6.
        Color::Black => char::from_u32(u32::from(white) + 6).unwrap_or(white),
    }
}

/// The piece a glyph of [`glyph`] stands for, if it is one.
///
/// ```
/// use pgnkit_board::{glyph, piece_of_glyph};
/// use shakmaty::{Color, Piece, Role};
///
/// let queen = Piece { color: Color::White, role: Role::Queen };
/// assert_eq!(piece_of_glyph(glyph(queen)), Some(queen));
/// assert_eq!(piece_of_glyph('Q'), None);
/// ```
pub fn piece_of_glyph(c: char) -> Option<Piece> {
    let n = u32::from(c).checked_sub(0x2654)?;
    let roles = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    let role = *roles.get(usize::try_from(n % 6).ok()?)?;
    let color = match n / 6 {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    Some(Piece { color, role })
}

/// The square drawn at column `x` and row `y` (0..8 each, from the top
/// left) of a board seen from `orientation`.
///
/// ```
/// use pgnkit_board::{Color, Square, square_at};
///
/// assert_eq!(square_at(0, 0, Color::White), Square::A8);
/// assert_eq!(square_at(0, 0, Color::Black), Square::H1);
/// ```
pub fn square_at(x: u32, y: u32, orientation: Color) -> Square {
    let (file, rank) = match orientation {
        Color::White => (x, 7u32.saturating_sub(y)),
        Color::Black => (7u32.saturating_sub(x), y),
    };
    Square::from_coords(File::new(file.min(7)), Rank::new(rank.min(7)))
}

/// Column and row (0..8, from the top left) of `square` on a board seen
/// from `orientation`: the inverse of [`square_at`].
fn place(square: Square, orientation: Color) -> (u32, u32) {
    let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
    match orientation {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    }
}
