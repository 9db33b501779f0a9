//! Hostile inputs: deep nesting, huge comments and words, binary junk, random bytes. The lexer must
//! not panic, must not recurse, must stay linear, and must still account for every byte.

use std::time::{Duration, Instant};

use pgnkit_pgn::{
    Game, MAX_ERRORS, MAX_VARIATION_DEPTH, Reader, SyntaxErrorKind, TokenKind, split_at_games,
};

/// Lexes `input`, checks that every non-whitespace byte is in some item of some game and that the
/// reader always moves forward; returns the games' (tokens, errors) counts. Fails if lexing takes longer
/// than `limit` (a quadratic path on these sizes would take hours).
fn lex_checked(input: &[u8], limit: Duration) -> Vec<(usize, usize)> {
    let start = Instant::now();
    let mut covered = vec![false; input.len()];
    let mut reader = Reader::new(input);
    let mut game = Game::default();
    let mut out = Vec::new();
    let mut last_pos = reader.position();
    while reader.read_game(&mut game) {
        assert!(reader.position() > last_pos, "no progress at {last_pos}");
        last_pos = reader.position();
        let spans = game
            .tags
            .iter()
            .map(|t| t.span.clone())
            .chain(game.tokens.iter().map(|t| t.span.clone()))
            .chain(game.errors.iter().map(|e| e.span.clone()));
        for span in spans {
            assert!(span.start >= game.span.start && span.end <= game.span.end);
            covered[span].iter_mut().for_each(|c| *c = true);
        }
        assert!(game.errors.len() <= MAX_ERRORS);
        if game.omitted_errors > 0 {
            // Errors past the cap are counted, not kept: their bytes are in the game's span.
            assert_eq!(game.errors.len(), MAX_ERRORS);
            covered[game.span.clone()]
                .iter_mut()
                .for_each(|c| *c = true);
        }
        let errors = game.errors.len() + usize::try_from(game.omitted_errors).unwrap_or(usize::MAX);
        out.push((game.tokens.len(), errors));
    }
    let elapsed = start.elapsed();
    assert!(
        elapsed < limit,
        "took {elapsed:?} for {} bytes",
        input.len()
    );
    // A byte order mark is whitespace wherever it stands.
    for i in 0..input.len().saturating_sub(2) {
        if &input[i..i + 3] == b"\xEF\xBB\xBF" {
            covered[i..i + 3].iter_mut().for_each(|c| *c = true);
        }
    }
    for (i, (&b, &c)) in input.iter().zip(&covered).enumerate() {
        assert!(c || b.is_ascii_whitespace(), "byte {i} ({b:#x}) lost");
    }
    out
}

const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn hundred_thousand_nested_variations() {
    let n = 100_000;
    let mut input = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for _ in 0..n {
        input.extend_from_slice(b"(e4 ");
    }
    for _ in 0..n {
        input.extend_from_slice(b") ");
    }
    input.extend_from_slice(b"1-0");
    let games = lex_checked(&input, LIMIT);
    assert_eq!(games, [(2 + 3 * n + 1, 0)]);

    // Never closed: one error per `(`, and the game still ends at the end of input.
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', n));
    input.extend_from_slice(b" 1-0");
    let mut reader = Reader::new(&input);
    let mut game = Game::default();
    assert!(reader.read_game(&mut game));
    assert_eq!(game.errors.len(), MAX_ERRORS);
    assert_eq!(game.errors.len() as u64 + game.omitted_errors, n as u64);
    assert!(
        game.errors
            .iter()
            .all(|e| e.kind == SyntaxErrorKind::UnterminatedVariation)
    );
    // The result was inside the variations: it does not end the game.
    assert_eq!(game.result_token, None);
    assert!(!reader.read_game(&mut game));

    // Only closing: one error each.
    let input = vec![b')'; n];
    assert_eq!(lex_checked(&input, LIMIT), [(0, n)]);
}

#[test]
fn variations_nested_beyond_the_limit_are_one_token() {
    let depth = MAX_VARIATION_DEPTH as usize;
    let extra = 50_000;
    let mut input = b"1. e4 ".to_vec();
    for _ in 0..depth + extra {
        input.extend_from_slice(b"(1. d4 {c} ");
    }
    let deep_start = 6 + depth * 11;
    for _ in 0..depth + extra {
        input.extend_from_slice(b")");
    }
    input.extend_from_slice(b" e5 1-0");
    let mut game = Game::default();
    assert!(Reader::new(&input).read_game(&mut game));
    // e4, then per replayed level `(`, `1.`, `d4`, `{c}`, then one token for all that is deeper,
    // then the closing `)` of the replayed levels, `e5`, the result.
    assert_eq!(game.tokens.len(), 2 + 4 * depth + 1 + depth + 2);
    let deep = game.tokens.get(2 + 4 * depth).unwrap();
    assert_eq!(deep.kind, TokenKind::DeepVariation);
    let deep_end = input.len() - 7 - depth;
    assert_eq!(deep.span, deep_start..deep_end);
    assert_eq!(deep.text, &input[deep_start..deep_end]);
    assert!(deep.text.starts_with(b"(1. d4 {c} (") && deep.text.ends_with(b"))"));
    assert_eq!(game.result(), Some(pgnkit_pgn::GameResult::WhiteWins));
    assert!(game.errors.is_empty());

    // Never closed: the token runs to the end of the game, the open `(` are counted.
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', depth + extra));
    let mut game = Game::default();
    assert!(Reader::new(&input).read_game(&mut game));
    assert_eq!(game.tokens.len(), 2 + depth + 1);
    assert_eq!(game.tokens.last().unwrap().span, 6 + depth..input.len());
    assert_eq!(
        game.errors.len() as u64 + game.omitted_errors,
        (depth + extra) as u64
    );
}

#[test]
fn multi_megabyte_comment() {
    let mut input = b"1. e4 {".to_vec();
    for i in 0..400_000 {
        input.extend_from_slice(if i % 7 == 0 { b"(x; [y\n" } else { b"comment " });
    }
    input.extend_from_slice(b"} e5 *");
    assert!(input.len() > 3_000_000);
    let games = lex_checked(&input, LIMIT);
    assert_eq!(games, [(5, 0)]);

    // Unterminated: one token, one error, to the end.
    input.truncate(input.len() - 6);
    let games = lex_checked(&input, LIMIT);
    assert_eq!(games, [(3, 1)]);
}

#[test]
fn binary_junk_and_nul_bytes() {
    // A few MB of bytes without whitespace or delimiters: one word.
    let junk: Vec<u8> = (0..4_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 0x80)
        .collect();
    assert_eq!(lex_checked(&junk, LIMIT), [(1, 0)]);
    // NUL bytes are word bytes, not whitespace: nothing is silently skipped.
    let nul = vec![0u8; 1_000_000];
    assert_eq!(lex_checked(&nul, LIMIT), [(1, 0)]);
    // Every byte value, many times.
    let all: Vec<u8> = (0..2_000_000u32).map(|i| (i % 251) as u8).collect();
    let games = lex_checked(&all, LIMIT);
    assert!(!games.is_empty());
}

#[test]
fn lines_of_brackets_and_quotes_stay_linear() {
    let n = 300_000;
    // Stray `[` in movetext, one line.
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(&b"[ "[..], n).flatten());
    let games = lex_checked(&input, LIMIT);
    assert_eq!(games, [(2, n)]);
    // Broken tags, all on one line.
    let input: Vec<u8> = std::iter::repeat_n(&b"[a] [b \"c [d \"e\\\" "[..], n)
        .flatten()
        .copied()
        .collect();
    lex_checked(&input, LIMIT);
    // Empty lines then `[` inside an unterminated comment, after a long line ending in `]`.
    let mut input = b"{".to_vec();
    input.extend(std::iter::repeat_n(b'x', 1_000_000));
    input.push(b']');
    input.extend(std::iter::repeat_n(&b"\n\n[x]"[..], n).flatten());
    let games = lex_checked(&input, LIMIT);
    assert!(games.len() > 1);
    // Spaced move numbers and ellipses.
    let input: Vec<u8> = std::iter::repeat_n(&b"1 2. ... 3 \xe2\x80\xa6 4 .. "[..], n)
        .flatten()
        .copied()
        .collect();
    let games = lex_checked(&input, LIMIT);
    assert_eq!(games, [(4 * n, 0)]);
    // Lots of blank lines and `1.`.
    let input: Vec<u8> = std::iter::repeat_n(&b"1. e4\n\n"[..], n)
        .flatten()
        .copied()
        .collect();
    assert_eq!(lex_checked(&input, LIMIT).len(), n);
}

/// A small deterministic generator (xorshift), so failures are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_pgn_like_bytes() {
    const PIECES: &[&[u8]] = &[
        b"[",
        b"]",
        b"{",
        b"}",
        b"(",
        b")",
        b"\"",
        b"\\",
        b";",
        b"%",
        b"$",
        b"$300",
        b"*",
        b".",
        b"...",
        "…".as_bytes(),
        b"1",
        b"12",
        b"0",
        b"-",
        b"/",
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        "½-½".as_bytes(),
        b"0-0",
        b"(=)",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b" ",
        b"\t",
        b"e4",
        b"Nf3",
        b"[Event \"x\"]",
        b"[Site \"a\\\"b\"]",
        b"\n\n[Event \"y\"]\n",
        b"\xEF\xBB\xBF",
        b"\xff",
        b"\0",
        "Кf3".as_bytes(),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..3000 {
        let len = (rng.next() % 200) as usize;
        let mut input = Vec::new();
        for _ in 0..len {
            input.extend_from_slice(PIECES[(rng.next() % PIECES.len() as u64) as usize]);
        }
        let games = lex_checked(&input, LIMIT);
        // Splitting at hard boundaries changes nothing.
        let whole: Vec<_> = Reader::new(&input).map(|g| format!("{g:?}")).collect();
        let mut parts = Vec::new();
        for piece in split_at_games(&input, 1 + round % 5) {
            parts.extend(Reader::with_range(&input, piece).map(|g| format!("{g:?}")));
        }
        assert_eq!(whole, parts, "{:?}", String::from_utf8_lossy(&input));
        assert_eq!(games.len(), whole.len());
    }
}

#[test]
fn tokens_never_straddle_the_range_end() {
    let input = b"1. e4 {comment} e5 2. Nf3 Nc6 *";
    for end in 0..=input.len() {
        for g in Reader::with_range(input, 0..end) {
            for t in &g.tokens {
                assert!(t.span.end <= end);
                if t.kind == TokenKind::Comment && t.span.end == end {
                    assert!(input[..end].ends_with(b"}") || !g.errors.is_empty());
                }
            }
        }
    }
}
