//! The SVG board.

use std::fmt::Write;

use shakmaty::{Board, Color};

use crate::{Drawing, glyph, place};

/// The side of a square, in SVG user units. The board's squares start at
/// `x` = [`MARGIN`] (room for the rank numbers; 0 without coordinates) and
/// `y` = 0; the file letters sit below them.
pub const SQUARE: u32 = 45;

/// The room left of and below the squares for the coordinates.
pub const MARGIN: u32 = 14;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HIGHLIGHT: &str = "#cdd26a";
const ARROW: &str = "#15781b";
const FONT: &str = "DejaVu Sans,Noto Sans Symbols 2,Segoe UI Symbol,Arial Unicode MS,sans-serif";

/// Draws `board` as one `<svg>` element, as `drawing` says.
///
/// The element stands alone: it sets its own `viewBox`, sizes and colours,
/// uses no ids (many boards fit in one page) and nothing from outside. Each
/// piece is a `<text>` element holding its [`glyph`](crate::glyph) centred
/// on its square (`x`, `y`: the square's centre); a white piece has a white
/// filled backdrop glyph under it (`class="under"`). The squares of
/// [`Drawing::last_move`] are tinted; each arrow is a line and a
/// triangle, the first one the strongest. The `<title>` is the board's FEN.
///
/// ```
/// use pgnkit_board::{Drawing, svg};
/// use shakmaty::{Chess, Position};
///
/// let picture = svg(Chess::default().board(), &Drawing::default());
/// assert_eq!(picture.matches("<text class=\"piece\"").count(), 32);
/// assert!(picture.contains("<title>rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR</title>"));
/// ```
pub fn svg(board: &Board, drawing: &Drawing) -> String {
    let margin = if drawing.coordinates { MARGIN } else { 0 };
    let side = 8 * SQUARE + margin;
    let mut s = String::with_capacity(8 << 10);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {side} {side}\" \
         width=\"{side}\" height=\"{side}\" role=\"img\" font-family=\"{FONT}\">\
         <title>{}</title>",
        board.board_fen()
    );
    // The light squares are the board; the dark ones one path over it.
    let _ = write!(
        s,
        "<rect x=\"{margin}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/><path fill=\"{DARK}\" d=\"",
        8 * SQUARE,
        8 * SQUARE
    );
    for y in 0..8 {
        for x in (1 - y % 2..8).step_by(2) {
            let _ = write!(
                s,
                "M{} {}h{SQUARE}v{SQUARE}h-{SQUARE}z",
                margin + x * SQUARE,
                y * SQUARE
            );
        }
    }
    s.push_str("\"/>");
    if let Some((from, to)) = drawing.last_move {
        for square in [from, to] {
            let (x, y) = place(square, drawing.orientation);
            let _ = write!(
                s,
                "<rect class=\"last\" x=\"{}\" y=\"{}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
                 fill=\"{HIGHLIGHT}\" fill-opacity=\"0.8\"/>",
                margin + x * SQUARE,
                y * SQUARE
            );
        }
    }
    if drawing.coordinates {
        coordinates(&mut s, drawing.orientation);
    }
    pieces(&mut s, board, drawing.orientation, margin);
    for (i, arrow) in drawing.arrows.iter().enumerate() {
        let center = |sq| {
            let (x, y) = place(sq, drawing.orientation);
            (
                f64::from(margin + x * SQUARE) + f64::from(SQUARE) / 2.0,
                f64::from(y * SQUARE) + f64::from(SQUARE) / 2.0,
            )
        };
        let opacity = if i == 0 { 0.8 } else { 0.45 };
        arrow_shape(&mut s, center(arrow.from), center(arrow.to), opacity);
    }
    s.push_str("</svg>");
    s
}

/// The file letters below the board and the rank numbers left of it.
fn coordinates(s: &mut String, orientation: Color) {
    let half = SQUARE / 2;
    for i in 0..8u32 {
        let (file, rank) = match orientation {
            Color::White => (i, 8 - i),
            Color::Black => (7 - i, i + 1),
        };
        let letter = char::from(b'a' + u8::try_from(file).unwrap_or(0));
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{letter}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#555\">{rank}</text>",
            MARGIN + i * SQUARE + half,
            8 * SQUARE + MARGIN - 3,
            MARGIN / 2,
            i * SQUARE + half
        );
    }
}

/// Every piece, as its glyph centred on its square.
fn pieces(s: &mut String, board: &Board, orientation: Color, margin: u32) {
    s.push_str("<g font-size=\"38\" text-anchor=\"middle\" dominant-baseline=\"central\">");
    for (square, piece) in board {
        let (x, y) = place(square, orientation);
        let cx = margin + x * SQUARE + SQUARE / 2;
        let cy = y * SQUARE + SQUARE / 2;
        if piece.color == Color::White {
            // The outline glyph's inside is see-through: fill it white.
            let solid = glyph(shakmaty::Piece {
                color: Color::Black,
                role: piece.role,
            });
            let _ = write!(
                s,
                "<text class=\"under\" x=\"{cx}\" y=\"{cy}\" fill=\"#fff\">{solid}</text>"
            );
        }
        let _ = write!(
            s,
            "<text class=\"piece\" x=\"{cx}\" y=\"{cy}\">{}</text>",
            glyph(piece)
        );
    }
    s.push_str("</g>");
}

/// An arrow from `a` to `b` (centres of squares): a line ending in a
/// triangle whose tip is short of the centre of `b`.
fn arrow_shape(s: &mut String, a: (f64, f64), b: (f64, f64), opacity: f64) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx.hypot(dy);
    if length < 1.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let sq = f64::from(SQUARE);
    let head = sq * 0.42;
    let tip = (b.0 - ux * sq * 0.18, b.1 - uy * sq * 0.18);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
    let _ = write!(
        s,
        "<g class=\"arrow\" opacity=\"{opacity}\"><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" \
         stroke=\"{ARROW}\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/>\
         <polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{ARROW}\"/></g>",
        a.0,
        a.1,
        base.0,
        base.1,
        sq * 0.2,
        tip.0,
        tip.1,
        base.0 + px,
        base.1 + py,
        base.0 - px,
        base.1 - py
    );
}
