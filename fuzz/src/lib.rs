//! Helpers shared by the fuzz targets: the PGN lexer's invariants, checked
//! on any input.

use std::ops::Range;

use pgnkit_pgn::{Game, Reader, game_starts_near, split_at_games};

/// The games of `data[range]`, lexed with [`Reader::with_range`].
pub fn lex(data: &[u8], range: Range<usize>) -> Vec<Game<'_>> {
    let mut reader = Reader::with_range(data, range);
    let mut game = Game::default();
    let mut games = Vec::new();
    while reader.read_game(&mut game) {
        games.push(game.clone());
    }
    games
}

fn check_span(what: &str, span: &Range<usize>, within: &Range<usize>) {
    assert!(
        span.start <= span.end && within.start <= span.start && span.end <= within.end,
        "{what} span {span:?} not within {within:?}"
    );
}

/// Lexes `data` whole and checks what the lexer promises:
/// - every span (game, tag, token, syntax error) lies within the input and
///   within its game; games come in order and do not overlap; tokens and
///   tags come in order;
/// - every byte outside the games is whitespace (or the byte order mark);
/// - lexing the pieces cut by [`split_at_games`] (several piece counts) and
///   by [`game_starts_near`] with [`Reader::with_range`] gives the same
///   games as lexing the whole.
///
/// Returns the games of the whole input.
pub fn lex_checked(data: &[u8]) -> Vec<Game<'_>> {
    let all = 0..data.len();
    let games = lex(data, all.clone());
    let mut covered_to = 0;
    for game in &games {
        check_span("game", &game.span, &all);
        assert!(
            game.span.start >= covered_to,
            "game {:?} overlaps the game before (ends at {covered_to})",
            game.span
        );
        let gap = &data[covered_to..game.span.start];
        // A byte order mark is whitespace wherever it stands between games.
        let gap: Vec<u8> = gap
            .split(|&b| b == 0xEF)
            .enumerate()
            .flat_map(|(i, part)| {
                if i == 0 {
                    part
                } else {
                    part.strip_prefix(b"\xbb\xbf").unwrap_or(b"x")
                }
            })
            .copied()
            .collect();
        assert!(
            gap.iter().all(u8::is_ascii_whitespace),
            "non-whitespace byte outside any game in {covered_to}..{}",
            game.span.start
        );
        covered_to = game.span.end;
        let mut last = game.span.start;
        for tag in &game.tags {
            check_span("tag", &tag.span, &game.span);
            assert!(tag.span.start >= last, "tags out of order");
            last = tag.span.end;
        }
        let mut last = game.span.start;
        for token in &game.tokens {
            check_span("token", &token.span, &game.span);
            assert!(
                token.span.start >= last,
                "tokens out of order at {:?}",
                token.span
            );
            last = token.span.end;
        }
        for error in &game.errors {
            check_span("syntax error", &error.span, &game.span);
        }
        if let Some(r) = game.result_token {
            assert!(r < game.tokens.len(), "result token out of range");
        }
    }
    let tail = &data[covered_to..];
    let tail = if covered_to == 0 {
        tail.strip_prefix(b"\xef\xbb\xbf").unwrap_or(tail)
    } else {
        tail
    };
    assert!(
        tail.iter().all(u8::is_ascii_whitespace),
        "non-whitespace byte after the last game (from {covered_to})"
    );

    for pieces in [2, 3, 8] {
        let ranges = split_at_games(data, pieces);
        let mut at = 0;
        let mut chunked = Vec::new();
        for r in ranges {
            assert_eq!(r.start, at, "split_at_games: pieces not contiguous");
            assert!(
                r.end > r.start && r.end <= data.len(),
                "split_at_games: bad piece {r:?}"
            );
            at = r.end;
            chunked.extend(lex(data, r));
        }
        assert_eq!(
            at,
            data.len(),
            "split_at_games: pieces do not cover the input"
        );
        assert!(
            chunked == games,
            "split_at_games into {pieces}: chunked lexing differs"
        );
    }
    // Small steps with game_starts_near, as the streaming reader cuts.
    let mut chunked = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let end = game_starts_near(data, start + 7)
            .filter(|&e| e > start)
            .unwrap_or(data.len());
        assert!(end <= data.len());
        chunked.extend(lex(data, start..end));
        start = end;
    }
    assert!(
        chunked == games,
        "game_starts_near steps: chunked lexing differs"
    );
    games
}
