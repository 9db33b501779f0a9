//! No input panics: junk bytes, empty tokens, very long tokens, invalid UTF-8,
//! and random strings over the characters move tokens are made of.

use pgnkit_notation::{
    Language, Notation, ParseError, Style, parse_annotation, parse_move, write_move,
};
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

fn positions() -> Vec<Chess> {
    [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
            CastlingMode::Standard,
        ),
        ("7k/8/8/b7/8/8/3R4/r3K3 w - - 0 1", CastlingMode::Standard),
        (
            "nbbrnkrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRNKRQ w KQkq - 0 1",
            CastlingMode::Chess960,
        ),
    ]
    .iter()
    .map(|(fen, mode)| {
        Fen::from_ascii(fen.as_bytes())
            .expect("valid FEN")
            .into_position(*mode)
            .expect("legal position")
    })
    .collect()
}

/// Reads `text` every way; whatever resolves must be legal and writable.
fn exercise(text: &str, positions: &[Chess]) {
    let _ = parse_annotation(text);
    let Ok(token) = parse_move(text) else { return };
    let _ = (
        token.languages(),
        token.suffix(),
        token.nag(),
        token.draw_offer(),
        token.is_capture_marked(),
    );
    for pos in positions {
        for &lang in Language::ALL {
            if let Ok(m) = token.resolve(pos, lang) {
                assert!(pos.is_legal(m), "{text:?} gave an illegal move");
                let mut out = String::new();
                write_move(pos, &m, &Style::new(Notation::San, lang), &mut out);
                assert!(!out.is_empty());
            }
        }
    }
}

#[test]
fn empty_and_blank_tokens() {
    assert_eq!(parse_move(""), Err(ParseError::Empty));
    assert_eq!(parse_move("   "), Err(ParseError::Empty));
    assert_eq!(parse_move("\u{FE0F}\u{200E}"), Err(ParseError::Empty));
    assert_eq!(parse_annotation(""), None);
}

#[test]
fn very_long_tokens() {
    let positions = positions();
    for unit in ["e", "Nf3", "♘", "Кр", "x", "+", "!", "(=)", "e.p.", " "] {
        let long = unit.repeat(5_000);
        exercise(&long, &positions);
        assert!(parse_move(&long).is_err(), "{unit}");
    }
    assert_eq!(parse_move(&"Nf3".repeat(100)), Err(ParseError::TooLong));
}

#[test]
fn invalid_utf8_and_junk_bytes() {
    let positions = positions();
    let samples: &[&[u8]] = &[
        b"\xff\xfe",
        b"N\xfff3",
        b"e\x00",
        b"\xc3",
        b"\xe2\x99",
        b"\xe2\x99\x98",
        b"\x80\x80\x80",
        b"\x1b[31mNf3",
        b"e4\r\n",
        b"\t",
        b"O-O\x00",
        b"\xef\xbb\xbfe4",
        b"\xd0\x9a\xd1\x80",
    ];
    for bytes in samples {
        exercise(&String::from_utf8_lossy(bytes), &positions);
    }
    // every single byte and every pair of printable ASCII characters
    for b in 0..=255u8 {
        exercise(&String::from_utf8_lossy(&[b]), &positions[..1]);
    }
    for a in b' '..=b'~' {
        for b in b' '..=b'~' {
            exercise(std::str::from_utf8(&[a, b]).unwrap(), &positions[..1]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,24}") {
        exercise(&s, &positions());
    }

    #[test]
    fn move_like_strings_never_panic(s in "[a-hKQRBNPOo0-9xX:×=+#!?()./ †‡♔♕♖♗♘♙♚♛♜♝♞♟КрФЛСТЦДОх\u{FE0F}–-]{0,12}") {
        exercise(&s, &positions());
    }
}
