//! The SVG board read back: for 1,000 positions of real games (a TWIC
//! issue and a Chess960 championship, replayed by the one replay), the
//! SVG drawn is parsed as XML and the piece on every square read back from
//! the glyphs and their places, in both orientations.

#![allow(clippy::unwrap_used)] // test helpers: a failure is a test failure

use std::collections::HashMap;

use pgnkit_board::{Drawing, MARGIN, SQUARE, move_squares, piece_of_glyph, square_at, svg};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};
use quick_xml::events::Event;
use shakmaty::{Board, Chess, Color, Move, Piece, Position, Square};

const FILES: [&str; 2] = [
    "../../testdata/convert/twic944-games700-999.pgn",
    "../../testdata/convert/chess960wch06.pgn",
];

/// Every 5th main-line position of the games of `FILES` (with the move
/// that led to it), until `n`.
fn positions(n: usize) -> Vec<(Chess, Option<Move>)> {
    let mut out = Vec::new();
    for path in FILES {
        let data = std::fs::read(path).unwrap();
        let mut reader = Reader::new(&data);
        let mut game = Game::default();
        while reader.read_game(&mut game) && out.len() < n {
            let report = replay_game(&data, &game, &Options::default());
            let mut position = report.start.clone();
            for (ply, m) in report.moves.iter().enumerate() {
                position.play_unchecked(m.played);
                if ply % 5 == 4 && out.len() < n {
                    out.push((position.clone(), Some(m.played)));
                }
            }
        }
    }
    out
}

/// The pieces an SVG board shows, by square: each `<text class="piece">`
/// read as the glyph it holds at the square its `x`, `y` centre falls in.
fn read_back(picture: &str, orientation: Color, coordinates: bool) -> HashMap<Square, Piece> {
    let margin = if coordinates { MARGIN } else { 0 };
    let mut reader = quick_xml::Reader::from_str(picture);
    let mut pieces = HashMap::new();
    let mut at: Option<Square> = None;
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) if e.name().as_ref() == b"text" => {
                let attr = |name: &[u8]| {
                    e.attributes()
                        .map(|a| a.unwrap())
                        .find(|a| a.key.as_ref() == name)
                        .map(|a| String::from_utf8(a.value.into_owned()).unwrap())
                };
                at = (attr(b"class").as_deref() == Some("piece")).then(|| {
                    let x: u32 = attr(b"x").unwrap().parse().unwrap();
                    let y: u32 = attr(b"y").unwrap().parse().unwrap();
                    square_at((x - margin) / SQUARE, y / SQUARE, orientation)
                });
            }
            Event::Text(t) => {
                if let Some(square) = at.take() {
                    let text = t.decode().unwrap();
                    let mut chars = text.chars();
                    let piece = piece_of_glyph(chars.next().unwrap()).unwrap();
                    assert_eq!(chars.next(), None, "one glyph a piece");
                    assert!(
                        pieces.insert(square, piece).is_none(),
                        "two pieces on {square}"
                    );
                }
            }
            Event::End(_) => at = None,
            Event::Eof => break,
            _ => {}
        }
    }
    pieces
}

fn on_board(board: &Board) -> HashMap<Square, Piece> {
    board.into_iter().collect()
}

#[test]
fn svg_boards_read_back_square_by_square() {
    let positions = positions(1000);
    assert_eq!(positions.len(), 1000);
    let mut castles = 0;
    for (i, (position, last)) in positions.iter().enumerate() {
        let orientation = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let coordinates = i % 3 != 0;
        let drawing = Drawing {
            orientation,
            last_move: last.as_ref().and_then(move_squares),
            coordinates,
            ..Drawing::default()
        };
        castles += usize::from(last.as_ref().is_some_and(|m| m.is_castle()));
        let picture = svg(position.board(), &drawing);
        assert_eq!(
            read_back(&picture, orientation, coordinates),
            on_board(position.board()),
            "position {i}: {}",
            position.board()
        );
        assert_eq!(
            picture.matches("class=\"last\"").count(),
            2,
            "the last move's two squares are tinted"
        );
    }
    assert!(castles > 0, "some positions follow a castling");
}

#[test]
fn arrows_point_from_square_to_square() {
    let position = Chess::default();
    for orientation in [Color::White, Color::Black] {
        let drawing = Drawing {
            orientation,
            arrows: vec![pgnkit_board::Arrow::new(Square::G1, Square::F3)],
            ..Drawing::default()
        };
        let picture = svg(position.board(), &drawing);
        let mut reader = quick_xml::Reader::from_str(&picture);
        let (mut tail, mut tip) = (None, None);
        loop {
            match reader.read_event().unwrap() {
                Event::Empty(e) => {
                    let get = |name: &[u8]| {
                        let mut a = e.attributes().map(|a| a.unwrap());
                        let v = a.find(|a| a.key.as_ref() == name).unwrap();
                        String::from_utf8(v.value.into_owned()).unwrap()
                    };
                    let number = |s: &str| -> f64 { s.parse().unwrap() };
                    match e.name().as_ref() {
                        b"line" => tail = Some((number(&get(b"x1")), number(&get(b"y1")))),
                        b"polygon" => {
                            let points = get(b"points");
                            let first = points.split(' ').next().unwrap().to_owned();
                            let (x, y) = first.split_once(',').unwrap();
                            tip = Some((number(x), number(y)));
                        }
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        let square = |(x, y): (f64, f64)| {
            let column = ((x - f64::from(MARGIN)) / f64::from(SQUARE)) as u32;
            square_at(column, (y / f64::from(SQUARE)) as u32, orientation)
        };
        assert_eq!(square(tail.unwrap()), Square::G1);
        assert_eq!(square(tip.unwrap()), Square::F3);
    }
}
