//! The writer's behaviour, game in, export format out.

use pgnkit_notation::parse_annotation;

use super::*;
use crate::text::GameText;
use crate::{Game, Reader, TokenKind};

/// Writes the first game of `pgn`, the words listed in `moves` (token
/// text, full-move number, White) taken as moves and written in capitals.
fn write(pgn: &[u8], moves: &[(&str, u32, bool)]) -> String {
    let mut game = Game::default();
    assert!(Reader::new(pgn).read_game(&mut game));
    let mut written = Moves::new(true);
    let mut handed = Vec::new();
    let mut next = moves.iter();
    let mut expected = next.next();
    for (i, t) in game.tokens.iter().enumerate() {
        if let Some(&(word, number, white)) = expected
            && t.kind == TokenKind::Word
            && t.text == word.as_bytes()
        {
            written.push_with(i, number, white, |text, _| {
                text.push_str(&word.to_ascii_uppercase())
            });
            handed.push((i, number, white, word.to_ascii_uppercase()));
            expected = next.next();
        }
    }
    assert!(expected.is_none(), "a move was not found");
    let mut out = Vec::new();
    let text = GameText::new(pgn, game.span.clone());
    Writer::new().write_game(&mut out, pgn, &game, &text, &written);
    // The same moves handed to the live writer one by one, after what the
    // output holds already: the same game, or (where it gives way)
    // nothing.
    let mut live_out = b"before".to_vec();
    let mut writer = Writer::new();
    let mut live = writer.live(&mut live_out, pgn, &game, &text, true);
    for (i, number, white, word) in &handed {
        live.buffers().text.push_str(word);
        live.push(*i, *number, *white);
    }
    if live.finish() {
        assert_eq!(
            String::from_utf8_lossy(&live_out[6..]),
            String::from_utf8_lossy(&out)
        );
    } else {
        assert_eq!(live_out, b"before");
    }
    String::from_utf8(out).expect("utf-8")
}

/// Written live, a game starts again where the replay does (its moves
/// handed again), and gives way at a null move, taking back all it wrote.
#[test]
fn the_live_writer_starts_again_and_gives_way_at_a_null_move() {
    let pgn = b"[Event \"x\"]\n\n1. e4 {c} e5 2. Nf3 *\n";
    let mut game = Game::default();
    assert!(Reader::new(&pgn[..]).read_game(&mut game));
    let text = GameText::new(pgn, game.span.clone());
    let mut out = Vec::new();
    let mut writer = Writer::new();
    let mut live = writer.live(&mut out, pgn, &game, &text, true);
    live.buffers().text.push_str("wrong");
    live.push(1, 1, true);
    live.reset();
    for (token, number, white, word) in
        [(1, 1, true, "E4"), (3, 1, false, "E5"), (5, 2, true, "NF3")]
    {
        live.buffers().text.push_str(word);
        live.push(token, number, white);
    }
    assert!(live.finish());
    assert_eq!(
        String::from_utf8_lossy(&out),
        "[Event \"x\"]\n\n1. E4 {c} 1... E5 2. NF3 *\n\n"
    );

    let pgn = b"[Event \"x\"]\n\n1. e4 -- 2. d4 *\n";
    assert!(Reader::new(&pgn[..]).read_game(&mut game));
    let text = GameText::new(pgn, game.span.clone());
    let mut out = b"kept".to_vec();
    let mut live = writer.live(&mut out, pgn, &game, &text, true);
    for (token, number, white, word) in [(1, 1, true, "E4"), (4, 2, true, "D4")] {
        live.buffers().text.push_str(word);
        live.push(token, number, white);
    }
    assert!(!live.finish());
    assert_eq!(out, b"kept");
}

/// Bytes written, and the largest single write.
#[derive(Default)]
struct Pieces {
    bytes: Vec<u8>,
    largest: usize,
}

impl std::io::Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A game whose movetext is many times [`DRAIN_AT`], with comments,
/// variations and NAGs, goes out in pieces byte for byte as it does
/// whole.
#[test]
fn a_long_game_written_in_pieces_is_the_game_written_whole() {
    let mut pgn = String::from("[Event \"long\"]\n[White \"A\"]\n\n");
    for n in 1..=40_000 {
        pgn.push_str(&format!(
            "{n}. Nf3 {{back {n}}} Nf6 $1 {n}. Ng1 (1. e4) Ng8 "
        ));
    }
    pgn.push_str("1/2-1/2\n");
    let pgn = pgn.as_bytes();
    let mut game = Game::default();
    assert!(Reader::new(pgn).read_game(&mut game));
    let text = GameText::new(pgn, game.span.clone());
    let mut upper = Moves::new(true);
    let mut number = 1;
    let mut white = true;
    for (i, t) in game.tokens.iter().enumerate() {
        if t.kind == TokenKind::Word && t.text.starts_with(b"N") {
            let word = String::from_utf8_lossy(t.text).to_ascii_uppercase();
            upper.push_with(i, number, white, |out, _| out.push_str(&word));
            number += u32::from(!white);
            white = !white;
        }
    }
    // (Without converted moves the first word would end the line and
    // the rest would be one comment, copied in one piece.)
    let moves = upper;
    let mut whole = Vec::new();
    Writer::new().write_game(&mut whole, pgn, &game, &text, &moves);
    assert!(whole.len() > 20 * DRAIN_AT);
    assert!(whole.starts_with(b"[Event \"long\"]"));
    assert!(
        String::from_utf8_lossy(&whole)
            .contains("1. NF3 {back 1} 1... NF6 $1 2. NG1 ( {e4} ) 2... NG8")
    );
    let mut pieces = Pieces::default();
    Writer::new()
        .write_game_to(&mut pieces, pgn, &game, &text, &moves)
        .expect("a vector takes every byte");
    assert!(pieces.largest < DRAIN_AT + 1024, "{}", pieces.largest);
    assert_eq!(String::from_utf8(pieces.bytes), String::from_utf8(whole));
}

/// Every word of `pgn` taken as a move (in capitals), numbered as if
/// each line alternated from 1. White; the game and its moves.
fn words_as_moves(pgn: &[u8]) -> (Game<'_>, Moves) {
    let mut game = Game::default();
    assert!(Reader::new(pgn).read_game(&mut game));
    let mut moves = Moves::new(true);
    let mut plies = vec![0u32];
    for (i, t) in game.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::OpenVariation => {
                let parent = plies.last().copied().unwrap_or(0);
                plies.push(parent.saturating_sub(1));
            }
            TokenKind::CloseVariation => {
                plies.pop();
            }
            TokenKind::Word if parse_annotation(&String::from_utf8_lossy(t.text)).is_none() => {
                let ply = plies.last_mut().expect("a line");
                let word = String::from_utf8_lossy(t.text).to_ascii_uppercase();
                moves.push_with(i, *ply / 2 + 1, *ply % 2 == 0, |out, _| out.push_str(&word));
                *ply += 1;
            }
            _ => {}
        }
    }
    (game, moves)
}

fn split(pgn: &[u8]) -> Vec<String> {
    let (game, moves) = words_as_moves(pgn);
    let lines = SplitLines::new(&game, &moves);
    let text = GameText::new(pgn, game.span.clone());
    let mut ranges = Vec::new();
    (0..lines.len())
        .map(|l| {
            lines.ranges(l, &mut ranges);
            let mut out = Vec::new();
            Writer::new().write_line(&mut out, pgn, &game, &text, &moves, Some(&ranges));
            String::from_utf8(out).expect("utf-8").trim_end().to_owned()
        })
        .collect()
}

#[test]
fn variations_split_into_games_in_the_order_they_open() {
    assert_eq!(
        split(b"{a} e4 {b} e5 (c5 {c} (c6) Nf3) Nf3 $1 (d4 d5) Nc6 (=) *"),
        [
            "{a} 1. E4 {b} 1... E5 2. NF3 $1 2... NC6 {(=)} *",
            "{a} 1. E4 {b} 1... C5 {c} 2. NF3 *",
            "{a} 1. E4 {b} 1... C6 *",
            "{a} 1. E4 {b} 1... E5 2. D4 D5 *",
        ]
    );
    // A variation before any move of its line, unclosed variations.
    assert_eq!(
        split(b"(d4) e4 (c4 (b4"),
        ["1. E4 *", "1. D4 *", "1. C4 *", "1. B4 *"]
    );
}

#[test]
fn deeply_nested_variations_split_without_recursion() {
    for levels in [3usize, 200] {
        let mut pgn = String::new();
        for _ in 0..levels {
            pgn.push_str("e4 e5 (");
        }
        pgn.push_str("d4 *");
        let (game, moves) = words_as_moves(pgn.as_bytes());
        let lines = SplitLines::new(&game, &moves);
        assert_eq!(lines.len(), levels + 1);
        let mut ranges = Vec::new();
        lines.ranges(levels, &mut ranges);
        // Each level's first move, then the last line's own.
        assert_eq!(moves.count_in(&ranges), levels + 1, "{ranges:?}");
        assert!(ranges.windows(2).all(|w| w[0].end <= w[1].start));
    }
}

#[test]
fn a_line_is_made_of_the_pieces_written_not_of_one_per_level_above_it() {
    // Each variation replaces its parent's only move: the lines in
    // between add a move number at most, and no piece to the line.
    let levels = 10_000;
    let mut pgn = String::from("1. e4 d5 ");
    for _ in 0..levels {
        pgn.push_str("(1... d6 ");
    }
    pgn.push_str("2. d4 *");
    let (game, moves) = words_as_moves(pgn.as_bytes());
    let lines = SplitLines::new(&game, &moves);
    assert_eq!(lines.len(), levels + 1);
    let mut ranges = Vec::new();
    lines.ranges(levels, &mut ranges);
    assert!(ranges.len() <= 2, "{} pieces", ranges.len());
    assert_eq!(moves.count_in(&ranges), 3, "{ranges:?}");
    // A comment before a line's move is written: that line is a piece.
    let lines = split(b"e4 d5 ({x} d6 (c6 (c5)))");
    assert_eq!(
        lines.get(3).map(String::as_str),
        Some("1. E4 {x} 1... C5 *")
    );
}

#[test]
fn layout_strips_every_part_and_notes_follow_nags_and_comments() {
    let pgn = b"[Event \"E\"]\n[White \"W\"]\n[Annotator \"A\"]\n\n{pre} e4 $1 {c} (d4) e5!? {(=)} Nf3+ 1-0";
    let (game, mut moves) = words_as_moves(pgn);
    let text = GameText::new(pgn, game.span.clone());
    let write = |layout: Layout, moves: &Moves| {
        let mut out = Vec::new();
        Writer::with_layout(layout.clone()).write_game(&mut out, pgn, &game, &text, moves);
        let mut pieces = Vec::new();
        Writer::with_layout(layout)
            .write_game_to(&mut pieces, pgn, &game, &text, moves)
            .expect("a vector");
        assert_eq!(out, pieces);
        String::from_utf8(out).expect("utf-8")
    };
    assert_eq!(
        write(Layout::default(), &moves),
        "[Event \"E\"]\n[White \"W\"]\n[Annotator \"A\"]\n\n{pre} 1. E4 $1 {c} ( 1. D4 ) 1... E5!? $5 {(=)} 2. NF3+ 1-0\n\n"
    );
    let bare = Layout {
        tags: TagSection::None,
        comments: false,
        nags: false,
        variations: false,
        move_numbers: false,
        result: false,
        width: 0,
    };
    assert_eq!(write(bare.clone(), &moves), "E4 E5!? NF3+\n\n");
    let roster = Layout {
        tags: TagSection::Roster,
        width: 0,
        ..Layout::default()
    };
    assert!(write(roster, &moves).starts_with("[Event \"E\"]\n[White \"W\"]\n\n{pre}"));
    // Notes: after the move's NAGs and comments, before the next move.
    let (game2, _) = words_as_moves(pgn);
    let mut noted = Moves::new(true);
    let mut cursor = 0;
    for i in 0..game2.tokens.len() {
        if let Some(m) = moves.get_next(i, &mut cursor) {
            let (text, number, white) = (m.text.to_owned(), m.number, m.white);
            noted.push_noted(i, number, white, |t, _, note| {
                t.push_str(&text);
                note.push_str(&format!("after {text}"));
            });
        }
    }
    moves = noted;
    assert_eq!(
        write(
            Layout {
                comments: false,
                ..bare
            },
            &moves
        ),
        "E4 {after E4} E5!? {after E5!?} NF3+ {after NF3+}\n\n"
    );
}

#[test]
fn tags_come_in_export_order_escaped_and_none_is_invented() {
    let pgn =
        b"[Zeta \"z\"]\n[White \"A \\\"B\\\" C\"]\n[Annotator \"x\\\\y\"]\n[Event \"E\"]\n\n*\n";
    assert_eq!(
        write(pgn, &[]),
        "[Event \"E\"]\n[White \"A \\\"B\\\" C\"]\n[Annotator \"x\\\\y\"]\n[Zeta \"z\"]\n\n*\n\n"
    );
}

#[test]
fn tags_are_written_in_export_form_however_they_were_spaced() {
    // PGN standard §8.1.1: export format is `[Name "value"]`, one a line,
    // the seven-tag roster first in its order (the first tag of each
    // name), then the others in ASCII order of their names, a name's
    // duplicates in input order. Tags written that way already are copied
    // whole; the others are rebuilt.
    let pgn = "[ Site \"S\" ]\n[Round  \"1\"]\n[Zeta\t\"z\"]\n[Event \"E\"] [Event \"E2\"]\n\
               [Black\"B\"]\n[Annotator \"a\"]\n[Annotator \"b\\\"c\\\"\"]\n[White \"Ré\"]\n\n*\n";
    assert_eq!(
        write(pgn.as_bytes(), &[]),
        "[Event \"E\"]\n[Site \"S\"]\n[Round \"1\"]\n[White \"Ré\"]\n[Black \"B\"]\n\
         [Annotator \"a\"]\n[Annotator \"b\\\"c\\\"\"]\n[Event \"E2\"]\n[Zeta \"z\"]\n\n*\n\n"
    );
}

#[test]
fn black_moves_are_numbered_after_comments_nags_and_variations() {
    let pgn = b"1. e4 {c} e5 2. f4 $2 exf4 (2... d5) 3. g3 *";
    let moves = [
        ("e4", 1, true),
        ("e5", 1, false),
        ("f4", 2, true),
        ("exf4", 2, false),
        ("d5", 2, false),
        ("g3", 3, true),
    ];
    assert_eq!(
        write(pgn, &moves),
        "1. E4 {c} 1... E5 2. F4 $2 2... EXF4 ( 2... D5 ) 3. G3 *\n\n"
    );
}

#[test]
fn glyphs_become_nags_and_the_rest_of_a_broken_line_is_kept_in_a_comment() {
    // `Zz9` is no move: from there the line is kept as it was written.
    let pgn = b"1. e4!? e5 2. Zz9 {why} Nc6 1-0";
    let moves = [("e4!?", 1, true), ("e5", 1, false)];
    assert_eq!(
        write(pgn, &moves),
        "1. E4!? $5 1... E5 {Zz9} {why} {Nc6} 1-0\n\n"
    );
}

#[test]
fn null_moves_are_numbered_from_the_moves_around_them() {
    let pgn = b"1. e4 -- 2. d4 Z0 3. c4 *";
    let moves = [("e4", 1, true), ("d4", 2, true), ("c4", 3, true)];
    assert_eq!(write(pgn, &moves), "1. E4 -- 2. D4 -- 3. C4 *\n\n");
}
