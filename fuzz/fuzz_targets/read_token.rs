//! Token reading must never panic: arbitrary bytes (lossy UTF-8) go through
//! `parse_move` + `resolve` under every language on a few positions,
//! `parse_annotation`, and the writer for whatever resolves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit_notation::{Language, Notation, Style, parse_annotation, parse_move, write_move};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // en passant available, promotions pending, both sides can castle
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    // in check, with pinned pieces
    "7k/8/8/b7/8/8/3R4/r3K3 w - - 0 1",
    // Chess960 start position
    "nbbrnkrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRNKRQ w KQkq - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_annotation(&text);
    let Ok(token) = parse_move(&text) else { return };
    let _ = token.languages();
    for (i, fen) in FENS.iter().enumerate() {
        let mode = if i == 3 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let Ok(fen) = Fen::from_ascii(fen.as_bytes()) else { continue };
        let Ok(pos) = fen.into_position::<Chess>(mode) else { continue };
        for &lang in Language::ALL {
            if let Ok(m) = token.resolve(&pos, lang) {
                assert!(pos.is_legal(m));
                let mut out = String::new();
                write_move(&pos, &m, &Style::new(Notation::San, lang), &mut out);
            }
        }
    }
});
