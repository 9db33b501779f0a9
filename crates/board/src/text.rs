//! The text board.

use std::fmt::Write;

use shakmaty::{Board, Color, Piece};

use crate::{Drawing, glyph, square_at};

/// The characters a text board is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Glyphs {
    /// Unicode chess glyphs (`♔` … `♟`), `·` for an empty square.
    #[default]
    Unicode,
    /// Letters as in FEN (`K` white king, `p` black pawn), `.` for an
    /// empty square.
    Ascii,
}

const RESET: &str = "\x1b[0m";

/// Draws `board` for a terminal: eight lines of squares, top rank first,
/// the rank numbers before them and (with [`Drawing::coordinates`]) a line
/// of file letters under them; every line ends in `\n`.
///
/// With `color` the squares get ANSI (256-colour) backgrounds, three
/// columns each, the pieces drawn solid in white or black and the
/// squares of [`Drawing::last_move`] tinted; without it squares are one
/// character with a space between them, white glyphs hollow and black ones
/// solid, and nothing is tinted. Arrows are not drawn.
///
/// ```
/// use pgnkit_board::{Drawing, Glyphs, text};
/// use shakmaty::{Chess, Position};
///
/// let board = text(Chess::default().board(), &Drawing::default(), Glyphs::Unicode, false);
/// assert_eq!(board.lines().nth(1), Some("7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟"));
/// assert_eq!(board.lines().nth(4), Some("4 · · · · · · · ·"));
/// ```
pub fn text(board: &Board, drawing: &Drawing, glyphs: Glyphs, color: bool) -> String {
    let mut s = String::with_capacity(1024);
    for y in 0..8 {
        let rank = square_at(0, y, drawing.orientation).rank();
        let _ = write!(s, "{}", rank.char());
        for x in 0..8 {
            let square = square_at(x, y, drawing.orientation);
            let piece = board.piece_at(square);
            if color {
                let lit = drawing
                    .last_move
                    .is_some_and(|(a, b)| a == square || b == square);
                let background = match ((x + y) % 2 == 0, lit) {
                    (true, false) => 180,
                    (false, false) => 137,
                    (true, true) => 186,
                    (false, true) => 143,
                };
                let _ = write!(
                    s,
                    "{}\x1b[48;5;{background}m",
                    if x == 0 { " " } else { "" }
                );
                match piece {
                    Some(p) => {
                        let fg = match p.color {
                            Color::White => "1;38;5;231",
                            Color::Black => "38;5;16",
                        };
                        let c = match glyphs {
                            Glyphs::Unicode => glyph(Piece {
                                color: Color::Black,
                                role: p.role,
                            }),
                            Glyphs::Ascii => p.char(),
                        };
                        let _ = write!(s, "\x1b[{fg}m {c} {RESET}");
                    }
                    None => {
                        let _ = write!(s, "   {RESET}");
                    }
                }
            } else {
                let c = match (piece, glyphs) {
                    (Some(p), Glyphs::Unicode) => glyph(p),
                    (Some(p), Glyphs::Ascii) => p.char(),
                    (None, Glyphs::Unicode) => '·',
                    (None, Glyphs::Ascii) => '.',
                };
                s.push(' ');
                s.push(c);
            }
        }
        s.push('\n');
    }
    if drawing.coordinates {
        s.push_str(if color { "  " } else { " " });
        for x in 0..8 {
            let file = square_at(x, 0, drawing.orientation).file().char();
            if color {
                let _ = write!(s, " {file} ");
            } else {
                let _ = write!(s, " {file}");
            }
        }
        s.push('\n');
    }
    s
}
