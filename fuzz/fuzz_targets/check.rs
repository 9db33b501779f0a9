//! `pgnkit check` on arbitrary bytes: the lexer's invariants
//! ([`pgnkit_fuzz::lex_checked`]: spans, order, chunked = whole lexing),
//! then the check command's chunk function with suggestions (scoresheet
//! repair) and `--fix` on, and every diagnostic rendered in every output
//! format. Any panic, or a run over the time limit, is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit_notation::Language;
use pgnkit_replay::{IllegalMoves, Options};
use pgnkit_report::{Format, render};
use pgnkit_work::check::check_chunk;

fuzz_target!(|data: &[u8]| {
    let games = pgnkit_fuzz::lex_checked(data);
    drop(games);

    // The last byte sometimes forces a move language (`--input-lang`).
    let language = data
        .last()
        .and_then(|&b| Language::ALL.get(usize::from(b.wrapping_sub(0xc0))))
        .copied();
    // The first byte's low bit: illegal moves stand (`--illegal-moves
    // stand`), whose positions may hold a king left in check.
    let illegal_moves = if data.first().is_some_and(|b| b & 1 == 1) {
        IllegalMoves::Stand
    } else {
        IllegalMoves::Stop
    };
    let options = Options {
        language,
        suggestions: true,
        illegal_moves,
        ..Options::default()
    };
    let chunk = pgnkit_work::whole_chunk(data.to_vec());
    // Human format: the diagnostics carry their source lines too; each is
    // then rendered in every format.
    let out = check_chunk(&chunk, &options, &pgnkit_replay::Selection::default(), Format::Human, true, true);
    assert!(out.totals.games_with_errors <= out.totals.games);
    let mut sink = Vec::new();
    for game in &out.games {
        for l in &game.diagnostics {
            assert!(l.byte <= data.len(), "diagnostic beyond the input");
            assert!(l.diagnostic.span.start <= l.diagnostic.span.end);
            assert!(l.diagnostic.span.end <= data.len());
            for (format, color) in [
                (Format::Human, false),
                (Format::Human, true),
                (Format::Json, false),
                (Format::Github, false),
            ] {
                for shown in [
                    render::Suggestions::None,
                    render::Suggestions::Best,
                    render::Suggestions::All,
                ] {
                    sink.clear();
                    let _ = render::diagnostic(&mut sink, format, color, shown, "fuzz.pgn", l);
                }
            }
        }
    }
    // The fixed copy (`--fix`) is PGN the lexer must read again.
    let _ = pgnkit_fuzz::lex(&out.fixed.bytes, 0..out.fixed.bytes.len());
});
