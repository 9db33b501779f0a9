//! The lexer on small real files from the corpus (`testdata/pgn`, sources in its README).

use pgnkit_pgn::{Game, GameResult, LineIndex, Reader, SyntaxErrorKind, TokenKind};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../../testdata/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn games(input: &[u8]) -> Vec<Game<'_>> {
    Reader::new(input).collect()
}

fn value(game: &Game<'_>, name: &str) -> Option<String> {
    game.tag(name)
        .map(|t| String::from_utf8_lossy(&t.value()).into_owned())
}

fn words<'a>(game: &Game<'a>) -> Vec<&'a str> {
    game.tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Word)
        .map(|t| std::str::from_utf8(t.text).unwrap_or("<invalid utf-8>"))
        .collect()
}

#[test]
fn pathological_headers_read_as_a_human_would() {
    let input = fixture("pathological-headers.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    let expect = [
        ("A", r#"b""#),
        ("B", r#"b""#),
        ("C", "A]]"),
        ("D", "A]]["),
        ("E", r#""A]][""#),
        ("F", r#""A]]["\"#),
        ("G", r#""]"#),
    ];
    assert_eq!(g[0].tags.len(), expect.len());
    for (name, v) in expect {
        assert_eq!(value(&g[0], name).as_deref(), Some(v), "tag {name}");
    }
    assert!(g[0].errors.is_empty());
    assert!(g[0].tokens.is_empty());
}

#[test]
fn a_backslash_before_the_closing_quote_is_literal() {
    let input = fixture("backslash_header.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(value(&g[0], "Event").as_deref(), Some(r"Tournament \"));
    assert_eq!(value(&g[0], "Site").as_deref(), Some("Madrid ESP"));
    assert_eq!(g[0].tags.len(), 10);
    assert_eq!(g[0].result(), Some(GameResult::WhiteWins));
    // `34.` at the end of a line, its move on the next.
    let w = words(&g[0]);
    assert_eq!(w.first(), Some(&"d4"));
    assert_eq!(w.last(), Some(&"Rd6+"));
    assert_eq!(w.len(), 95);
    assert!(g[0].errors.is_empty());
}

#[test]
fn unescaped_quotes_and_brackets_inside_values() {
    let input = fixture("unescaped_quote_header.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(
        value(&g[0], "Event").as_deref(),
        Some(r#"Tournament "Championship" Finals"#)
    );
    assert_eq!(value(&g[0], "Site").as_deref(), Some(r#"Club "Victory""#));
    assert_eq!(
        value(&g[0], "Black").as_deref(),
        Some(r#"Jones, "Lightning" Mike"#)
    );
    assert_eq!(g[0].result(), Some(GameResult::Unknown));

    let input = fixture("square_bracket_in_header.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(
        value(&g[0], "Event").as_deref(),
        Some("Batch 10: s20red4c4_t3 vs master[!important]")
    );
    assert_eq!(
        value(&g[0], "Variation").as_deref(),
        Some("closing ] opening")
    );
    assert_eq!(
        value(&g[0], "White").as_deref(),
        Some(r#"New-cfe8"dsadsa"ce842c"#)
    );
    assert_eq!(g[0].result(), Some(GameResult::Draw));
    assert_eq!(words(&g[0]).len(), 130);
}

#[test]
fn leading_whitespace_and_games_without_tags() {
    let input = fixture("leading-whitespace.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 4);
    for game in &g[..3] {
        assert_eq!(value(game, "Variant").as_deref(), Some("Standard"));
    }
    assert!(g[3].tags.is_empty());
    for game in &g {
        assert_eq!(words(game), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(game.result(), None);
        assert!(game.errors.is_empty());
    }
    // The 4th game starts at its `1.` (line 11, after 4 spaces).
    let lines = LineIndex::new(&input);
    assert_eq!(lines.line_col(g[3].span.start), (11, 5));
}

#[test]
fn tags_and_moves_on_one_line() {
    let input = fixture("headers-and-moves-on-the-same-line.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 3);
    for game in &g {
        assert_eq!(value(game, "Variant").as_deref(), Some("Antichess"));
        assert_eq!(words(game), ["e3", "e6", "b4", "Bxb4", "Qg4"]);
    }
}

#[test]
fn chessbase_empty_line_inside_the_tag_section() {
    let input = fixture("chessbase-empty-line.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(
        value(&g[0], "Event").as_deref(),
        Some("AlphaZero vs. Stockfish")
    );
    assert_eq!(value(&g[0], "Date").as_deref(), Some("2017.12.04"));
    assert_eq!(g[0].result(), Some(GameResult::BlackWins));
}

#[test]
fn byte_order_mark_is_skipped() {
    let input = fixture("utf8-bom.pgn");
    assert!(input.starts_with(b"\xEF\xBB\xBF"));
    let g = games(&input);
    assert_eq!(g.len(), 2);
    assert_eq!(value(&g[0], "Event").as_deref(), Some("A"));
    assert_eq!(value(&g[1], "Event").as_deref(), Some("B"));
    assert_eq!(g[0].span.start, 3);
    assert_eq!(g[0].tag("Event").map(|t| t.span.clone()), Some(3..14));
}

#[test]
fn non_ascii_tag_values() {
    let input = fixture("non_ascii.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(value(&g[0], "Black").as_deref(), Some("Владимир Петров"));
    assert_eq!(value(&g[0], "Site").as_deref(), Some("Café"));
}

#[test]
fn black_to_move_and_zero_castling() {
    let input = fixture("black2move.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 1);
    assert_eq!(
        g[0].tokens.get(0).unwrap().kind,
        TokenKind::MoveNumber {
            number: 1,
            black: true
        }
    );
    assert_eq!(words(&g[0]), ["0-0-0", "0-0", "Nc5"]);
    assert_eq!(g[0].result(), None);
}

#[test]
fn comment_then_result_without_moves() {
    let input = fixture("no_moves_but_comment_followed_by_termination_marker.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 2);
    for game in &g {
        assert_eq!(game.tokens.len(), 2);
        assert_eq!(
            game.tokens.get(0).unwrap().text,
            b"White's connection stalls"
        );
        assert_eq!(game.result(), Some(GameResult::BlackWins));
        assert_eq!(game.tags.len(), 4);
    }
}

#[test]
fn tcec_comments_after_the_result_stay_with_the_game() {
    let input = fixture("tcec-match-5-head.pgn");
    let g = games(&input);
    assert_eq!(g.len(), 2);
    let first = &g[0];
    assert_eq!(first.result(), Some(GameResult::Draw));
    let after: Vec<_> = first
        .tokens
        .range(first.result_token.unwrap_or(0) + 1..usize::MAX)
        .map(|t| t.kind)
        .collect();
    assert_eq!(after, [TokenKind::Comment, TokenKind::Comment]);
    // CRLF: the `;` comment ends before the `\r`.
    assert!(first.tokens.iter().all(|t| !t.text.ends_with(b"\r")));
    assert_eq!(words(first).len(), 127);
    assert_eq!(value(first, "PlyCount").as_deref(), Some("127"));
    // The second game is cut at the end of the file: tags only.
    assert!(g[1].tokens.is_empty());
    assert_eq!(value(&g[1], "Round").as_deref(), Some("1.2"));
}

#[test]
fn pgn4web_feature_file() {
    let input = fixture("pgn4web-test.pgn");
    let g = games(&input);
    // An escape line and a line of garbage before the first tag section, then 15 games.
    assert_eq!(g.len(), 16);
    assert_eq!(g[0].tokens.get(0).unwrap().kind, TokenKind::Escape);
    assert_eq!(
        words(&g[0]).join(" "),
        "some garbage at the start of the PGN file"
    );
    // Escape lines inside a variation.
    assert!(g[1].tokens.iter().any(|t| t.kind == TokenKind::Escape
        && t.text == b" this line should not be passed through by the PGN viewer"));
    // Two games on one line: `...a5*[Event"Testing another very odd game"]...h5*`.
    let odd: Vec<_> = g
        .iter()
        .filter(|g| value(g, "Event").is_some_and(|e| e.contains("very odd game")))
        .collect();
    assert_eq!(odd.len(), 2);
    assert_eq!(words(odd[0]), ["a4", "b4", "a6!?", "a5"]);
    assert_eq!(odd[0].result(), Some(GameResult::Unknown));
    assert_eq!(words(odd[1]), ["h4", "g4", "h6", "h5"]);
    assert!(odd[0].tokens.iter().any(|t| t.kind == TokenKind::Nag(6)));
    // `[ Event  "..."]`, an empty line, `[ Round"13"]`: one game.
    let malformed = g
        .iter()
        .find(|g| value(g, "Event").is_some_and(|e| e.starts_with("Testing malformed header")));
    assert_eq!(
        malformed.and_then(|g| value(g, "Round")).as_deref(),
        Some("13")
    );
    // Null moves `--` are words; nested variations balance.
    for game in &g {
        let opens = game
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::OpenVariation)
            .count();
        let closes = game
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::CloseVariation)
            .count();
        assert_eq!(opens, closes);
        assert!(
            game.errors
                .iter()
                .all(|e| e.kind != SyntaxErrorKind::UnterminatedVariation),
            "{:?}",
            game.errors
        );
    }
}
