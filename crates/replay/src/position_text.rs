//! A position written as text: FEN or EPD.

use std::fmt::Write as _;

use shakmaty::fen::{Epd, Fen};
use shakmaty::{Chess, EnPassantMode};

/// How a position is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PositionFormat {
    /// FEN: six fields, with the move clocks.
    Fen,
    /// EPD: the first four fields of FEN, no clocks.
    Epd,
}

/// Appends the FEN (or EPD) of `pos` to `out`, with the en passant square
/// of every double push.
pub fn write_position(pos: &Chess, format: PositionFormat, out: &mut String) {
    let _ = match format {
        PositionFormat::Fen => write!(out, "{}", Fen::from_position(pos, EnPassantMode::Always)),
        PositionFormat::Epd => write!(out, "{}", Epd::from_position(pos, EnPassantMode::Always)),
    };
}
