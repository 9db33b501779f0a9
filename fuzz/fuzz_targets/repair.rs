//! Scoresheet repair on broken games: a valid game (one of a few, chosen by
//! the first byte) is broken by the fuzzer's bytes, read as edits of its
//! movetext words (drop a word, swap two, duplicate one, change a
//! character to a piece letter of some language or to any byte, strip
//! capture and check marks, cut the game short), then replayed with
//! suggestions on (every move language, or one forced) and checked with
//! `--fix`; the fixed copy is checked again. Any panic, or a run over the
//! time limit, is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit_notation::Language;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};
use pgnkit_report::Format;
use pgnkit_work::check::check_chunk;

const GAMES: &[&str] = &[
    // Capablanca's scoresheets (testdata/repair/white.pgn).
    include_str!("../../testdata/repair/white.pgn"),
    // The Opera game, with a variation and comments.
    "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n[Result \"1-0\"]\n\n\
     1. e4 e5 2. Nf3 d6 3. d4 Bg4 {a weak move} 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
     7. Qb3 Qe7 8. Nc3 (8. Qxb7 Qb4+) 8... c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 \
     12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n",
    // German piece letters, promotion and en passant.
    "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
     1. e4 d5 2. e5 f5 3. exf6 e.p. Sc6 4. fxg7 Lf5 5. gxh8=D Dd7 6. Lb5 O-O-O 7. Sf3 e5 \
     8. O-O Ld6 9. Te1 Sge7 10. d4 e4 1-0\n",
    // Russian scoresheet: Cyrillic letters, `:` captures, `0-0`.
    "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n\
     1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. С:c6 d:c6 5. 0-0 f6 6. d4 e:d4 7. К:d4 c5 \
     8. Кb3 Ф:d1 9. Л:d1 Сg4 1/2-1/2\n",
];

/// Characters a slip may bring in: piece letters of several languages,
/// files, ranks, marks.
const ALPHABET: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'S', 'D', 'T', 'L', 'C', 'P', 'F', 'J', 'V', 'H', 'a', 'b', 'c', 'd',
    'e', 'f', 'g', 'h', '1', '2', '3', '4', '5', '6', '7', '8', 'x', ':', '-', '+', '#', '=', '!',
    '?', 'O', '0', 'К', 'Ф', 'Л', 'С', 'Д', 'Т', '♘', '♕', ' ', '.', '(', ')', '{',
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let base = GAMES[usize::from(pick) % GAMES.len()];
    let language = Language::ALL.get(usize::from(pick >> 2)).copied();
    // Edit the movetext of the first game only; keep the tags.
    let (head, movetext) = base.split_once("\n\n").unwrap_or(("", base));
    let mut words: Vec<String> = movetext.split_whitespace().map(str::to_owned).collect();
    for edit in edits.chunks_exact(3).take(16) {
        if words.is_empty() {
            break;
        }
        let (op, i, b) = (edit[0], usize::from(edit[1]) % words.len(), edit[2]);
        match op % 8 {
            0 => {
                words.remove(i);
            }
            1 => {
                let j = (i + 1 + usize::from(b) % 4).min(words.len() - 1);
                words.swap(i, j);
            }
            2 => {
                let w = words[i].clone();
                words.insert((i + usize::from(b) % 5).min(words.len()), w);
            }
            3 | 4 => {
                let mut chars: Vec<char> = words[i].chars().collect();
                let at = usize::from(b >> 4) % (chars.len() + 1);
                let c = ALPHABET[usize::from(b) % ALPHABET.len()];
                if op % 8 == 3 && at < chars.len() {
                    chars[at] = c;
                } else {
                    chars.insert(at, c);
                }
                words[i] = chars.into_iter().collect();
            }
            5 => {
                words[i].retain(|c| !matches!(c, 'x' | ':' | '+' | '#' | '!' | '?'));
                if words[i].is_empty() {
                    words.remove(i);
                }
            }
            6 => {
                let mut bytes = words[i].clone().into_bytes();
                let at = usize::from(b) % (bytes.len() + 1);
                bytes.insert(at, edit[1]);
                words[i] = String::from_utf8_lossy(&bytes).into_owned();
            }
            _ => words.truncate(i.max(1)),
        }
    }
    let mut pgn = String::with_capacity(base.len() + 64);
    pgn.push_str(head);
    pgn.push_str("\n\n");
    pgn.push_str(&words.join(" "));
    pgn.push('\n');
    let pgn = pgn.into_bytes();

    let mut reader = Reader::new(&pgn);
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        for language in [None, language] {
            let report = replay_game(
                &pgn,
                &game,
                &Options {
                    language,
                    suggestions: true,
                    ..Options::default()
                },
            );
            assert!(report.keys.len() == report.plies as usize + 1 || report.keys.is_empty());
            for d in &report.diagnostics {
                assert!(d.span.start <= d.span.end && d.span.end <= pgn.len());
            }
        }
    }

    let options = Options {
        language: None,
        suggestions: true,
        ..Options::default()
    };
    let out = check_chunk(
        &pgnkit_work::whole_chunk(pgn),
        &options,
        &pgnkit_replay::Selection::default(),
        Format::Json,
        true,
        true,
    );
    let again = check_chunk(
        &pgnkit_work::whole_chunk(out.fixed.bytes),
        &options,
        &pgnkit_replay::Selection::default(),
        Format::Json,
        false,
        false,
    );
    assert!(
        again.totals.games == out.totals.games,
        "--fix changed the number of games"
    );
});
