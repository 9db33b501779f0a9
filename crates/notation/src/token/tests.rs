//! Every reading of a token agrees with the others.

use shakmaty::CastlingSide;

use super::san::parse_plain_san;
use super::*;

/// Every string of up to five characters over the letters of SAN (and
/// some that are not): where the fast reader gives a token, shakmaty's
/// parser gives the same SAN, and `parse_move` the same token.
#[test]
fn plain_san_agrees_with_shakmaty_on_every_short_string() {
    const ALPHABET: &[u8] = b"NBRQKPOabeh1280x=-+#qZ@";
    let mut accepted = 0usize;
    let mut buf = Vec::with_capacity(6);
    let n = ALPHABET.len();
    for len in 1..=5u32 {
        for mut code in 0..n.pow(len) {
            buf.clear();
            for _ in 0..len {
                buf.push(ALPHABET[code % n]);
                code /= n;
            }
            if let Some(token) = parse_plain_san(&buf) {
                accepted += 1;
                let Body::San(san, false) = token.body else {
                    panic!("{buf:?}: not plain SAN");
                };
                assert_eq!(San::from_ascii(&buf).ok(), Some(san), "{buf:?}");
                let text = std::str::from_utf8(&buf).expect("ascii");
                assert_eq!(parse_general_or_shakmaty(text), Ok(token), "{text}");
            }
        }
    }
    // e4, Nf3, exd5, Nbd7, e8=Q, O-O ... with and without `+`/`#`.
    assert!(accepted > 1_900, "{accepted}");
    for six in [&b"exd8=Q"[..], b"axb1=N", b"O-O-O+", b"exd8=Q#"] {
        let token = parse_plain_san(six).expect("plain SAN");
        let text = std::str::from_utf8(six).expect("ascii");
        assert_eq!(parse_general_or_shakmaty(text), Ok(token), "{text}");
    }
}

/// `parse_move` without the fast reader.
fn parse_general_or_shakmaty(text: &str) -> Result<MoveToken, ParseError> {
    if let Ok(san) = San::from_ascii(text.as_bytes())
        && let Some(token) = token_from_san(san, text.as_bytes())
    {
        return Ok(token);
    }
    parse_other(text)
}

#[test]
fn ascii_fast_path_keeps_marks() {
    let t = parse_move("Qxf7#").unwrap();
    assert_eq!(t.suffix(), Suffix::Mate);
    assert!(t.is_capture_marked());
    let t = parse_move("e8=Q+!?").unwrap();
    assert_eq!(t.suffix(), Suffix::Check);
    assert_eq!(t.nag(), Some(5));
    assert!(matches!(t.body, Body::San(..)));
    let t = parse_move("Nf3??").unwrap();
    assert_eq!(t.nag(), Some(4));
}

#[test]
fn castling_forms() {
    for s in ["O-O", "0-0", "o-o", "0–0", "O—O", "OO"] {
        assert!(parse_move(s).unwrap().is_castling(), "{s}");
    }
    for s in ["0-0-0", "O-O-O", "o-o-o", "0–0–0"] {
        let t = parse_move(s).unwrap();
        assert!(
            matches!(
                t.body,
                Body::Castle(CastlingSide::QueenSide)
                    | Body::San(San::Castle(CastlingSide::QueenSide), _)
            ),
            "{s}"
        );
    }
    assert!(parse_move("0-0-").is_err());
    assert!(parse_move("0--0").is_err());
}

#[test]
fn junk_is_refused() {
    for s in [
        "", " ", "xx", "Nx", "e9", "i4", "e4e5e6", "=Q", "exd6 e5", "♘", "--x", "Kx:e4", "e4-",
    ] {
        assert!(parse_move(s).is_err(), "{s:?}");
    }
    let long = "e".repeat(1000);
    assert_eq!(parse_move(&long), Err(ParseError::TooLong));
    assert_eq!(parse_move(""), Err(ParseError::Empty));
    assert_eq!(parse_move("\u{FE0F}"), Err(ParseError::Empty));
}

#[test]
fn annotations() {
    assert_eq!(parse_annotation("e.p."), Some(Annotation::EnPassant));
    assert_eq!(parse_annotation(" ep "), Some(Annotation::EnPassant));
    assert_eq!(parse_annotation("†"), Some(Annotation::Check));
    assert_eq!(parse_annotation("jaque"), Some(Annotation::Check));
    assert_eq!(parse_annotation("‡"), Some(Annotation::Mate));
    assert_eq!(parse_annotation("х"), Some(Annotation::Mate));
    assert_eq!(parse_annotation("(=)"), Some(Annotation::DrawOffer));
    assert_eq!(parse_annotation("?!"), Some(Annotation::Nag(6)));
    assert_eq!(parse_annotation("!!!"), None);
    assert_eq!(parse_annotation("Nf3"), None);
}

/// The marks of descriptive notation as books print them: a word of its
/// own after the move is no move (`ch` is no pawn capture from the c- to the
/// h-file: a pawn captures on a neighbouring file), and a mark glued to
/// the move, with or without its dots, is the move's.
#[test]
fn book_marks_are_marks() {
    for word in [
        "ch", "ch.", "dis", "dis.", "dis.ch.", "dbl", "dbl.", "dbl.ch.", "mate", "mate.", "e.p.",
    ] {
        assert!(parse_move(word).is_err(), "{word} is no move");
        assert!(parse_annotation(word).is_some(), "{word} is a mark");
    }
    // A glyph after the mark (`RxP ch!`): the mark, and the glyph apart.
    assert_eq!(parse_annotation("ch!"), Some(Annotation::Check));
    assert_eq!(parse_annotation("dbl.ch.??"), Some(Annotation::DoubleCheck));
    assert_eq!(parse_annotation("mate!!"), Some(Annotation::Mate));
    assert_eq!(annotation_glyph("ch!"), Some(1));
    assert_eq!(annotation_glyph("mate!!"), Some(3));
    assert_eq!(annotation_glyph("!!"), None);
    assert_eq!(parse_annotation("(=)!"), None);
    assert_eq!(parse_annotation("ch!!!"), None);
    for files in ["ae", "ch", "ah", "bd"] {
        assert!(parse_move(files).is_err(), "{files}");
    }
    assert!(parse_move("cd").is_ok() && parse_move("hg").is_ok());
    for (word, suffix) in [
        ("QxQch", Suffix::Check),
        ("QxPch.", Suffix::Check),
        ("P-Q4dis.ch.", Suffix::Check),
        ("N-B6dbl.ch.", Suffix::DoubleCheck),
        ("N-B6dblch", Suffix::DoubleCheck),
        ("R-Q8mate", Suffix::Mate),
    ] {
        let t = parse_move(word).unwrap_or_else(|e| panic!("{word}: {e}"));
        assert!(t.is_descriptive(), "{word}");
        assert_eq!(t.suffix(), suffix, "{word}");
    }
}

/// `Castles` as books print it: the side after it when written, else the
/// king's side, or the queen's where only it is legal.
#[test]
fn castles_as_books_print_it() {
    use shakmaty::{Chess, Move, fen::Fen};
    let both: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        .parse::<Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    let queen_only: Chess = "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1"
        .parse::<Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    let side = |m: Move| match m {
        Move::Castle { king, rook } if rook.file() > king.file() => Some(CastlingSide::KingSide),
        Move::Castle { .. } => Some(CastlingSide::QueenSide),
        _ => None,
    };
    let read = |word: &str, pos: &Chess| {
        parse_move(word)
            .ok()
            .and_then(|t| t.resolve(pos, crate::Language::En).ok())
            .and_then(side)
    };
    use CastlingSide::{KingSide, QueenSide};
    for (word, on_both, on_queen_only) in [
        ("Castles", Some(KingSide), Some(QueenSide)),
        ("castles", Some(KingSide), Some(QueenSide)),
        ("Castles(QR)", Some(QueenSide), Some(QueenSide)),
        ("Castles QR", Some(QueenSide), Some(QueenSide)),
        ("Castles (Q)", Some(QueenSide), Some(QueenSide)),
        ("Castles KR", Some(KingSide), None),
        ("CastlesQR", Some(QueenSide), Some(QueenSide)),
        ("Castles(Q)", Some(QueenSide), Some(QueenSide)),
        ("Castles(KR)", Some(KingSide), None),
        ("Castles(K)", Some(KingSide), None),
    ] {
        assert_eq!(read(word, &both), on_both, "{word}");
        assert_eq!(read(word, &queen_only), on_queen_only, "{word}");
        assert!(parse_move(word).is_ok_and(|t| t.is_castling()), "{word}");
    }
    assert!(parse_move("Castled").is_err() && parse_move("Castles(B)").is_err());
}
