//! `pgnkit convert` on arbitrary bytes, to every notation (SAN, LAN, UCI,
//! figurine, spoken, ru-scoresheet) in every language, as PGN, text and JSON:
//! the first byte chooses the notation, output format, language, whether
//! games with errors are left out and whether the input language is
//! forced, and (PGN output) the last byte's upper bits which parts are
//! left out, whether variations are split into games and whether each move
//! gets a FEN comment; the rest is the PGN. Checks that the fast path for plain games
//! writes exactly what the full replay writes, that JSON output is one
//! valid JSON value a line, that PGN output lexes again and that text is
//! UTF-8. Any panic, or a run over the time limit, is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit_notation::{Language, Notation, Style};
use pgnkit_pgn::write::{Layout, TagSection};
use pgnkit_replay::{Detail, Options};
use pgnkit_report::Format;
use pgnkit_work::convert::{Config, OutputFormat};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, pgn)) = data.split_first() else {
        return;
    };
    let name = Style::NAMES[usize::from(pick & 7) % Style::NAMES.len()];
    // The last byte's second bit turns PGN output into the text form.
    let last = pgn.last().copied().unwrap_or(0);
    let format = match (pick & 8 == 0, last & 2 == 0) {
        (true, true) => OutputFormat::Pgn,
        (true, false) => OutputFormat::Text,
        (false, _) => OutputFormat::Json,
    };
    let lang = Language::ALL[usize::from(pick >> 4) % Language::ALL.len()];
    let Some(style) = Style::from_name(name, lang) else {
        return;
    };
    // `convert` refuses spoken moves in PGN (they have spaces).
    let format = if style.notation == Notation::Spoken && format == OutputFormat::Pgn {
        OutputFormat::Json
    } else {
        format
    };
    // The last byte sometimes forces the input language and --skip-invalid.
    let input_lang = Language::ALL
        .get(usize::from(last.wrapping_sub(0xc0)))
        .copied();
    // The replay's fast lane (Detail::Errors, as convert asks for) against
    // the full replay: the same output.
    let config = |fast: bool| Config {
        style,
        options: Options {
            language: input_lang,
            suggestions: true,
            detail: if fast { Detail::Errors } else { Detail::Full },
            // Illegal moves stand in every other run (written as played).
            illegal_moves: if last & 4 == 4 {
                pgnkit_replay::IllegalMoves::Stand
            } else {
                pgnkit_replay::IllegalMoves::Stop
            },
        },
        format,
        skip_invalid: last & 1 == 1,
        diagnostics: Format::Json,
        opening: None,
        layout: Layout {
            tags: if last & 0x80 == 0 {
                TagSection::All
            } else {
                TagSection::Roster
            },
            comments: last & 0x40 == 0,
            nags: last & 0x40 == 0,
            variations: last & 0x20 == 0,
            move_numbers: last & 0x10 == 0,
            result: last & 0x10 == 0,
            width: if last & 0x08 == 0 { 80 } else { 0 },
        },
        split_variations: format == OutputFormat::Pgn && last & 0x04 != 0,
        fen_comments: format == OutputFormat::Pgn && last & 0x84 == 0x84,
        clocks: None,
        plycount: last & 0x0c == 0x0c,
        positions: None,
        per_game: false,
    };
    let Ok(out) = pgnkit_work::convert::convert_bytes(pgn, &config(true)) else {
        panic!("converting in memory failed");
    };
    assert!(out.totals.games_with_errors <= out.totals.games);
    assert!(out.totals.skipped <= out.totals.games_with_errors);
    for l in &out.diagnostics {
        assert!(
            l.diagnostic.span.end <= pgn.len(),
            "diagnostic beyond the input"
        );
    }
    match format {
        OutputFormat::Pgn | OutputFormat::Text => {
            let Ok(slow) = pgnkit_work::convert::convert_bytes(pgn, &config(false)) else {
                panic!("converting in memory failed");
            };
            if out.out != slow.out {
                panic!(
                    "the fast path and the full replay write different output:\n--- fast\n{}\n--- full\n{}",
                    String::from_utf8_lossy(&out.out),
                    String::from_utf8_lossy(&slow.out)
                );
            }
            if format == OutputFormat::Pgn {
                let _ = pgnkit_fuzz::lex(&out.out, 0..out.out.len());
            } else if std::str::from_utf8(&out.out).is_err() {
                panic!("the text form is not UTF-8");
            }
        }
        // Not chosen above.
        OutputFormat::Line => {}
        OutputFormat::Json => {
            for line in out.out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                if let Err(e) = serde_json::from_slice::<serde_json::Value>(line) {
                    panic!("invalid JSON line ({e}): {}", String::from_utf8_lossy(line));
                }
            }
        }
    }
});
