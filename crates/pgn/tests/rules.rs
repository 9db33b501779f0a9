//! One test per lexing rule of the crate docs, on small inline inputs.

use pgnkit_pgn::{
    Game, GameResult, Reader, SyntaxErrorKind, TokenKind, game_starts_near, line_col,
};

fn games(input: &[u8]) -> Vec<Game<'_>> {
    Reader::new(input).collect()
}

fn one(input: &[u8]) -> Game<'_> {
    let mut g = games(input);
    assert_eq!(g.len(), 1, "{:?}", String::from_utf8_lossy(input));
    g.remove(0)
}

/// `kind:text` of every token, e.g. `N1.:1.` for white's move number 1, `B12:12...`, `W:e4`.
fn tokens(game: &Game<'_>) -> Vec<String> {
    game.tokens
        .iter()
        .map(|t| {
            let kind = match t.kind {
                TokenKind::Word => "W".to_string(),
                TokenKind::MoveNumber { number, black } => {
                    format!("{}{number}", if black { "B" } else { "N" })
                }
                TokenKind::Nag(n) => format!("${n}"),
                TokenKind::Comment => "C".to_string(),
                TokenKind::OpenVariation => "(".to_string(),
                TokenKind::CloseVariation => ")".to_string(),
                TokenKind::Result(r) => format!("R{r}"),
                TokenKind::Escape => "%".to_string(),
                TokenKind::DeepVariation => "D".to_string(),
            };
            format!("{kind}:{}", String::from_utf8_lossy(t.text))
        })
        .collect()
}

fn errors(game: &Game<'_>) -> Vec<(SyntaxErrorKind, std::ops::Range<usize>)> {
    game.errors
        .iter()
        .map(|e| (e.kind, e.span.clone()))
        .collect()
}

#[test]
fn move_numbers() {
    let g = one("12. e4 12... e5 13…Nf3 13 … Nc6 14. ... Bb5 15 a6 16.e4e5 17...Nf6".as_bytes());
    assert_eq!(
        tokens(&g),
        [
            "N12:12.",
            "W:e4",
            "B12:12...",
            "W:e5",
            "B13:13…",
            "W:Nf3",
            "B13:13 …",
            "W:Nc6",
            "B14:14. ...",
            "W:Bb5",
            "N15:15",
            "W:a6",
            "N16:16.",
            "W:e4e5",
            "B17:17...",
            "W:Nf6"
        ]
    );
    // Spans cover the merged text.
    let merged = g.tokens.get(6).unwrap();
    assert_eq!(merged.span.len(), "13 …".len());
    // A lone ellipsis not after a number is a word; a huge number is a word.
    let g = one(b"e4 ... e5 99999999999. e6");
    assert_eq!(
        tokens(&g),
        ["W:e4", "W:...", "W:e5", "W:99999999999.", "W:e6"]
    );
}

#[test]
fn move_numbers_glued_to_a_move_or_spaced() {
    // White's numbers of one to three digits before a letter, glued or
    // after a space, and their neighbours that are read otherwise.
    let pgn = b"1.e4 e5 2. Nf3 Nc6 10.Bb5 a6 100.O-O Nf6 1000.d4 exd4 101. ...d5 \
        102.\nRe1 103.. Re2 104. ... Re3 105.(Qe2) 106.$1 b6";
    let g = one(pgn);
    assert_eq!(
        tokens(&g),
        [
            "N1:1.",
            "W:e4",
            "W:e5",
            "N2:2.",
            "W:Nf3",
            "W:Nc6",
            "N10:10.",
            "W:Bb5",
            "W:a6",
            "N100:100.",
            "W:O-O",
            "W:Nf6",
            "N1000:1000.",
            "W:d4",
            "W:exd4",
            "N101:101.",
            "W:...d5",
            "N102:102.",
            "W:Re1",
            "B103:103..",
            "W:Re2",
            "B104:104. ...",
            "W:Re3",
            "N105:105.",
            "(:(",
            "W:Qe2",
            "):)",
            "N106:106.",
            "$1:$1",
            "W:b6"
        ]
    );
    let spans: Vec<_> = g.tokens.iter().map(|t| &pgn[t.span]).collect();
    assert_eq!(spans[..5], [&b"1."[..], b"e4", b"e5", b"2.", b"Nf3"]);
    // A glued `1.` after an empty line starts a game without tags, as a
    // spaced one does.
    let g = games(b"1.e4 e5\n\n1.d4 d5\n\n1. c4 *");
    assert_eq!(g.len(), 3);
    assert_eq!(tokens(&g[1]), ["N1:1.", "W:d4", "W:d5"]);
}

#[test]
fn results_and_castling() {
    for (text, result) in [
        ("1-0", GameResult::WhiteWins),
        ("0-1", GameResult::BlackWins),
        ("1/2-1/2", GameResult::Draw),
        ("½-½", GameResult::Draw),
        ("*", GameResult::Unknown),
        ("1:0", GameResult::WhiteWins),
        ("0:1", GameResult::BlackWins),
    ] {
        let input = format!("1. e4 0-0 0-0-0 O-O {text} 1. d4 *");
        let g = games(input.as_bytes());
        assert_eq!(g.len(), 2, "{text}");
        assert_eq!(g[0].result(), Some(result), "{text}");
        assert_eq!(
            tokens(&g[0]),
            [
                "N1:1.",
                "W:e4",
                "W:0-0",
                "W:0-0-0",
                "W:O-O",
                &format!("R{result}:{text}")
            ]
        );
        assert_eq!(g[0].result_token, Some(5));
    }
    // `*` glued to a move ends it; inside a word it does not.
    assert_eq!(tokens(&one(b"a5* ")), ["W:a5", "R*:*"]);
    assert_eq!(tokens(&one(b"see test_*.pgn")), ["W:see", "W:test_*.pgn"]);
}

#[test]
fn a_result_inside_a_variation_does_not_end_the_game() {
    let g = one(b"1. e4 (1. d4 1-0) e5 0-1");
    assert_eq!(
        tokens(&g),
        [
            "N1:1.", "W:e4", "(:(", "N1:1.", "W:d4", "R1-0:1-0", "):)", "W:e5", "R0-1:0-1"
        ]
    );
    assert_eq!(g.result(), Some(GameResult::BlackWins));
}

#[test]
fn draw_offer_is_one_word() {
    let g = one(b"20. Nf3(=) Nc6 (=) 21. a3");
    assert_eq!(
        tokens(&g),
        [
            "N20:20.", "W:Nf3", "W:(=)", "W:Nc6", "W:(=)", "N21:21.", "W:a3"
        ]
    );
}

#[test]
fn words_take_any_bytes() {
    let input = "1. Кf3 ♘f6 2. e2-e4 e8Q 3. e8=♕ 0–0 4. Nf3!? !? e4:d5".as_bytes();
    let mut bytes = input.to_vec();
    bytes.extend_from_slice(b" \xff\xfe Sf3\xe9 \x00\x01x");
    let g = one(&bytes);
    let t = tokens(&g);
    assert_eq!(
        t,
        [
            "N1:1.",
            "W:Кf3",
            "W:♘f6",
            "N2:2.",
            "W:e2-e4",
            "W:e8Q",
            "N3:3.",
            "W:e8=♕",
            "W:0–0",
            "N4:4.",
            "W:Nf3!?",
            "W:!?",
            "W:e4:d5",
            "W:\u{fffd}\u{fffd}",
            "W:Sf3\u{fffd}",
            "W:\u{0}\u{1}x"
        ]
    );
    assert!(g.errors.is_empty());
}

#[test]
fn comments() {
    let g = one(
        b"1. e4 {a (comment) with ; and [brackets]\nover two lines} e5 ; to the end\r\n2. Nf3 {}",
    );
    assert_eq!(
        tokens(&g),
        [
            "N1:1.",
            "W:e4",
            "C:a (comment) with ; and [brackets]\nover two lines",
            "W:e5",
            "C: to the end",
            "N2:2.",
            "W:Nf3",
            "C:"
        ]
    );
    assert_eq!(g.tokens.get(2).unwrap().span.start, 6);
    assert_eq!(
        g.tokens.get(2).unwrap().span.end,
        6 + "{a (comment) with ; and [brackets]\nover two lines}".len()
    );
}

#[test]
fn escape_lines_only_at_line_start() {
    let g = one(b"%header line\n1. e4 %notescape\n%escape [x] {y\n e5");
    assert_eq!(
        tokens(&g),
        [
            "%:header line",
            "N1:1.",
            "W:e4",
            "W:%notescape",
            "%:escape [x] {y",
            "W:e5"
        ]
    );
}

#[test]
fn nags() {
    let g = one(b"1. e4 $1 $14$255 $256 $ e5 $2x");
    assert_eq!(
        tokens(&g),
        [
            "N1:1.",
            "W:e4",
            "$1:$1",
            "$14:$14",
            "$255:$255",
            "W:e5",
            "$2:$2",
            "W:x"
        ]
    );
    assert_eq!(
        errors(&g),
        [
            (SyntaxErrorKind::BadNag, 17..21),
            (SyntaxErrorKind::BadNag, 22..23)
        ]
    );
    // A very long number is one error, not an overflow.
    let g = one(b"$99999999999999999999999999");
    assert_eq!(errors(&g), [(SyntaxErrorKind::BadNag, 0..27)]);
}

#[test]
fn line_ends_crlf_and_cr() {
    for eol in ["\n", "\r\n", "\r"] {
        let input = format!(
            "[Event \"a\"]{eol}[Site \"b\"]{eol}{eol}1. e4 ; c{eol}e5 1-0{eol}{eol}[Event \"c\"]{eol}{eol}1. d4 *{eol}"
        );
        let g = games(input.as_bytes());
        assert_eq!(g.len(), 2, "{eol:?}");
        assert_eq!(g[0].tags.len(), 2);
        assert_eq!(tokens(&g[0]), ["N1:1.", "W:e4", "C: c", "W:e5", "R1-0:1-0"]);
        assert_eq!(tokens(&g[1]), ["N1:1.", "W:d4", "R*:*"]);
        let (line, col) = line_col(input.as_bytes(), g[1].tokens.get(1).unwrap().span.start);
        assert_eq!((line, col), (9, 4), "{eol:?}");
    }
}

#[test]
fn tags() {
    let g = one(
        b"[Event \"x\"] [ Site  \"y\" ]\t[Event \"dup\"][White \"a \\\"b\\\" \\\\ c\"]\n1. e4 *",
    );
    assert_eq!(g.tags.len(), 4);
    assert_eq!(g.tag("Event").map(|t| t.raw_value), Some(&b"x"[..]));
    assert_eq!(g.tag("event").map(|t| t.raw_value), None);
    assert_eq!(g.tag("Site").map(|t| t.raw_value), Some(&b"y"[..]));
    let white = g.tag("White").map(|t| t.value().into_owned());
    assert_eq!(white.as_deref(), Some(&br#"a "b" \ c"#[..]));
    assert_eq!(g.tags[1].span, 12..25);
}

#[test]
fn broken_tags_are_errors_and_reading_goes_on() {
    let g = one(b"[Event \"unterminated\n[Foo bar]\n[Site \"ok\"]\n[]\n\n1. e4 *");
    assert_eq!(
        errors(&g),
        [
            (SyntaxErrorKind::UnterminatedTag, 0..20),
            (SyntaxErrorKind::BadTag, 21..30),
            (SyntaxErrorKind::BadTag, 43..45),
        ]
    );
    assert_eq!(g.tags.len(), 1);
    assert_eq!(tokens(&g), ["N1:1.", "W:e4", "R*:*"]);
}

#[test]
fn a_tag_section_after_movetext_starts_a_new_game() {
    // At the start of a line (no result: not an error here).
    let g = games(b"[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n1. d4 *");
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].result_token, None);
    assert!(g[0].errors.is_empty());
    assert_eq!(g[1].tag("Event").map(|t| t.raw_value), Some(&b"b"[..]));
    // In the middle of a line when it looks like a tag; a stray `[` otherwise.
    let g = games(b"1. e4 [Event \"b\"] 1. d4 *");
    assert_eq!(g.len(), 2);
    let g = one(b"1. e4 [!] e5 ] } \" *");
    assert_eq!(tokens(&g), ["N1:1.", "W:e4", "W:!", "W:e5", "R*:*"]);
    assert_eq!(
        errors(&g).iter().map(|e| e.1.start).collect::<Vec<_>>(),
        [6, 8, 13, 15, 17]
    );
    assert!(
        g.errors
            .iter()
            .all(|e| e.kind == SyntaxErrorKind::StrayCharacter)
    );
}

#[test]
fn an_empty_line_then_move_one_starts_a_game_without_tags() {
    let g = games(b"1. e4 e5\n\n1. d4 d5\n1. c4\n\n1... c5\n\n(\n\n1. b3)");
    assert_eq!(g.len(), 2);
    assert_eq!(tokens(&g[1])[..2], ["N1:1.", "W:d4"]);
    // `1. c4` without an empty line, `1...` and `1.` inside a variation do not split.
    assert_eq!(g[1].tokens.len(), 11);
}

#[test]
fn variations_and_unmatched_parentheses() {
    let g = one(b"1. e4 (1. d4 (1. c4) 1... d5) ) e5 (1... c5");
    assert_eq!(
        errors(&g),
        [
            (SyntaxErrorKind::UnmatchedCloseVariation, 30..31),
            (SyntaxErrorKind::UnterminatedVariation, 35..36),
        ]
    );
}

#[test]
fn hard_boundary_inside_an_unterminated_comment_or_variation() {
    let input = b"[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 (1. c4\n\n[Event \"c\"]\n1. e4 *";
    let g = games(input);
    assert_eq!(g.len(), 3);
    assert_eq!(
        errors(&g[0]),
        [(SyntaxErrorKind::UnterminatedComment, 19..32)]
    );
    assert_eq!(
        tokens(&g[0]).last().map(String::as_str),
        Some("C:never closed")
    );
    assert_eq!(
        errors(&g[1]),
        [(SyntaxErrorKind::UnterminatedVariation, 53..54)]
    );
    assert!(g[2].errors.is_empty());
    assert_eq!(g[2].result(), Some(GameResult::Unknown));
    // The boundaries are where the games start.
    assert_eq!(game_starts_near(input, 1), Some(g[1].span.start));
    assert_eq!(
        game_starts_near(input, g[1].span.start + 1),
        Some(g[2].span.start)
    );
    // Without the empty line, `[` stays inside the comment.
    let g = one(b"1. e4 {a\n[b]\n} e5 *");
    assert_eq!(tokens(&g)[2..], ["C:a\n[b]\n", "W:e5", "R*:*"]);
    assert_eq!(g.tags.len(), 0);
    // ... and a `[` at the start of a line after movetext starts the next game.
    assert_eq!(games(b"1. e4 {a\n[b]\n} e5\n[c \"d\"]\n").len(), 2);
}

#[test]
fn comments_after_the_result() {
    // Same or next line: the finished game's; after an empty line: the next game's.
    let g = games(
        b"1. e4 1-0 {end}\n; more\n\n{about b}\n[Event \"b\"]\n*\n\n{alone}\n\n[Event \"c\"] *",
    );
    assert_eq!(g.len(), 4);
    assert_eq!(tokens(&g[0])[2..], ["R1-0:1-0", "C:end", "C: more"]);
    assert_eq!(tokens(&g[1]), ["C:about b", "R*:*"]);
    assert!(g[2].is_comment_only());
    assert!(!g[1].is_comment_only());
    assert_eq!(g[3].tags.len(), 1);
}

#[test]
fn empty_and_blank_inputs() {
    for input in [
        &b""[..],
        b"   \n\r\n\t ",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBF \n",
    ] {
        let mut reader = Reader::new(input);
        let mut game = Game::default();
        assert!(!reader.read_game(&mut game));
        assert!(!reader.read_game(&mut game));
        assert_eq!(reader.position(), input.len());
    }
}

#[test]
fn ranges_keep_absolute_spans() {
    let input = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    let start = game_starts_near(input, 1).unwrap_or(0);
    let mut reader = Reader::with_range(input, start..input.len());
    let mut game = Game::default();
    assert!(reader.read_game(&mut game));
    assert_eq!(game.tags[0].span.start, start);
    assert_eq!(&input[game.tokens.get(1).unwrap().span.clone()], b"d4");
    assert!(!reader.read_game(&mut game));
    // A range past the end is clamped.
    let mut reader = Reader::with_range(input, 1000..2000);
    assert!(!reader.read_game(&mut game));
}

#[test]
fn buffers_are_reused() {
    let input = b"[Event \"a\"]\n1. e4 e5 2. Nf3 *\n[Event \"b\"]\n1. d4 d5 2. c4 *\n".repeat(3);
    let mut reader = Reader::new(&input);
    let mut game = Game::default();
    assert!(reader.read_game(&mut game));
    let (tags, toks) = (game.tags.capacity(), game.tokens.capacity());
    let tags_ptr = game.tags.as_ptr();
    let mut n = 1;
    while reader.read_game(&mut game) {
        n += 1;
        assert_eq!((game.tags.capacity(), game.tokens.capacity()), (tags, toks));
        assert_eq!(game.tags.as_ptr(), tags_ptr);
    }
    assert_eq!(n, 6);
}

#[test]
fn a_books_castles_keeps_the_side_written_after_it() {
    let g = one(
        b"12. Castles(QR) R-Q1 13. Castles QR Castles (Q) 14. Castles KR-Q1 \
                  Castles (P-K4) castles K *",
    );
    assert_eq!(
        tokens(&g),
        [
            "N12:12.",
            "W:Castles(QR)",
            "W:R-Q1",
            "N13:13.",
            "W:Castles QR",
            "W:Castles (Q)",
            "N14:14.",
            "W:Castles",
            "W:KR-Q1",
            "W:Castles",
            "(:(",
            "W:P-K4",
            "):)",
            "W:castles K",
            "R*:*",
        ]
    );
    assert!(errors(&g).is_empty());
}

#[test]
fn a_descriptive_move_keeps_its_parentheses_and_variations_stay_variations() {
    let g = one(
        b"1. P-K4 P-K4 2. R(KB1)-K1 NxP(Q5) 3. N(KB3)xP(K5)(3. PxP) P-K8(Q)ch \
                  4. P-QB4 (4. P-Q4) PxP e.p. 5. Nf3(Nc3) O-O(O-O-O) P-K4(P-Q4) *",
    );
    assert_eq!(
        tokens(&g),
        [
            "N1:1.",
            "W:P-K4",
            "W:P-K4",
            "N2:2.",
            "W:R(KB1)-K1",
            "W:NxP(Q5)",
            "N3:3.",
            "W:N(KB3)xP(K5)",
            "(:(",
            "N3:3.",
            "W:PxP",
            "):)",
            "W:P-K8(Q)ch",
            "N4:4.",
            "W:P-QB4",
            "(:(",
            "N4:4.",
            "W:P-Q4",
            "):)",
            "W:PxP",
            "W:e.p.",
            "N5:5.",
            "W:Nf3",
            "(:(",
            "W:Nc3",
            "):)",
            "W:O-O",
            "(:(",
            "W:O-O-O",
            "):)",
            "W:P-K4",
            "(:(",
            "W:P-Q4",
            "):)",
            "R*:*",
        ]
    );
    assert!(errors(&g).is_empty());
}
