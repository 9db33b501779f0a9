//! Every written form the issue lists, each on real examples: literal game
//! scores as printed (Morphy's Opera game in several languages, Sukhanov's
//! Russian example) and variants of real moves from testdata/notation.

mod common;

use pgnkit_notation::{
    Annotation, Language, ParseError, ResolveError, Suffix, parse_annotation, parse_move, read_move,
};
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square, fen::Fen};

/// Plays a game score (move numbers and results skipped), every token read under `lang`.
fn replay(score: &str, lang: Language) -> Vec<Move> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for word in score.split_whitespace() {
        if word.ends_with('.')
            && word
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        if parse_annotation(word).is_some() && parse_move(word).is_err() {
            continue;
        }
        let m =
            read_move(word, &pos, lang).unwrap_or_else(|e| panic!("{word:?} under {lang}: {e}"));
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

const OPERA_EN: &str = "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 \
    8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 \
    15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8#";

#[test]
fn opera_game_in_many_languages() {
    let en = replay(OPERA_EN, Language::En);
    assert_eq!(en.len(), 33);
    let versions = [
        (
            Language::De,
            "1. e4 e5 2. Sf3 d6 3. d4 Lg4 4. dxe5 Lxf3 5. Dxf3 dxe5 6. Lc4 Sf6 7. Db3 De7 8. Sc3 c6 9. Lg5 b5 10. Sxb5 cxb5 11. Lxb5+ Sbd7 12. O-O-O Td8 13. Txd7 Txd7 14. Td1 De6 15. Lxd7+ Sxd7 16. Db8+ Sxb8 17. Td8#",
        ),
        (
            Language::Fr,
            "1. e4 e5 2. Cf3 d6 3. d4 Fg4 4. dxe5 Fxf3 5. Dxf3 dxe5 6. Fc4 Cf6 7. Db3 De7 8. Cc3 c6 9. Fg5 b5 10. Cxb5 cxb5 11. Fxb5+ Cbd7 12. O-O-O Td8 13. Txd7 Txd7 14. Td1 De6 15. Fxd7+ Cxd7 16. Db8+ Cxb8 17. Td8#",
        ),
        (
            Language::Es,
            "1. e4 e5 2. Cf3 d6 3. d4 Ag4 4. dxe5 Axf3 5. Dxf3 dxe5 6. Ac4 Cf6 7. Db3 De7 8. Cc3 c6 9. Ag5 b5 10. Cxb5 cxb5 11. Axb5+ Cbd7 12. O-O-O Td8 13. Txd7 Txd7 14. Td1 De6 15. Axd7+ Cxd7 16. Db8+ Cxb8 17. Td8#",
        ),
        (
            Language::Nl,
            "1. e4 e5 2. Pf3 d6 3. d4 Lg4 4. dxe5 Lxf3 5. Dxf3 dxe5 6. Lc4 Pf6 7. Db3 De7 8. Pc3 c6 9. Lg5 b5 10. Pxb5 cxb5 11. Lxb5+ Pbd7 12. O-O-O Td8 13. Txd7 Txd7 14. Td1 De6 15. Lxd7+ Pxd7 16. Db8+ Pxb8 17. Td8#",
        ),
        (
            Language::Pl,
            "1. e4 e5 2. Sf3 d6 3. d4 Gg4 4. dxe5 Gxf3 5. Hxf3 dxe5 6. Gc4 Sf6 7. Hb3 He7 8. Sc3 c6 9. Gg5 b5 10. Sxb5 cxb5 11. Gxb5+ Sbd7 12. O-O-O Wd8 13. Wxd7 Wxd7 14. Wd1 He6 15. Gxd7+ Sxd7 16. Hb8+ Sxb8 17. Wd8#",
        ),
        (
            Language::Cs,
            "1. e4 e5 2. Jf3 d6 3. d4 Sg4 4. dxe5 Sxf3 5. Dxf3 dxe5 6. Sc4 Jf6 7. Db3 De7 8. Jc3 c6 9. Sg5 b5 10. Jxb5 cxb5 11. Sxb5+ Jbd7 12. O-O-O Vd8 13. Vxd7 Vxd7 14. Vd1 De6 15. Sxd7+ Jxd7 16. Db8+ Jxb8 17. Vd8#",
        ),
        (
            Language::Hu,
            "1. e4 e5 2. Hf3 d6 3. d4 Fg4 4. dxe5 Fxf3 5. Vxf3 dxe5 6. Fc4 Hf6 7. Vb3 Ve7 8. Hc3 c6 9. Fg5 b5 10. Hxb5 cxb5 11. Fxb5+ Hbd7 12. O-O-O Bd8 13. Bxd7 Bxd7 14. Bd1 Ve6 15. Fxd7+ Hxd7 16. Vb8+ Hxb8 17. Bd8#",
        ),
        // Russian scoresheet: ':' captures, 0-0-0, old mate mark 'х' (Cyrillic) after a complete move
        (
            Language::Ru,
            "1. e4 e5 2. Кf3 d6 3. d4 Сg4 4. d:e5 С:f3 5. Ф:f3 d:e5 6. Сc4 Кf6 7. Фb3 Фe7 8. Кc3 c6 9. Сg5 b5 10. К:b5 c:b5 11. С:b5+ Кbd7 12. 0-0-0 Лd8 13. Л:d7 Л:d7 14. Лd1 Фe6 15. С:d7+ К:d7 16. Фb8+ К:b8 17. Лd8х",
        ),
        (
            Language::Uk,
            "1. e4 e5 2. Кf3 d6 3. d4 Сg4 4. d×e5 С×f3 5. Ф×f3 d×e5 6. Сc4 Кf6 7. Фb3 Фe7 8. Кc3 c6 9. Сg5 b5 10. К×b5 c×b5 11. С×b5+ Кbd7 12. 0-0-0 Тd8 13. Т×d7 Т×d7 14. Тd1 Фe6 15. С×d7+ К×d7 16. Фb8+ К×b8 17. Тd8#",
        ),
        (
            Language::Tr,
            "1. e4 e5 2. Af3 d6 3. d4 Fg4 4. dxe5 Fxf3 5. Vxf3 dxe5 6. Fc4 Af6 7. Vb3 Ve7 8. Ac3 c6 9. Fg5 b5 10. Axb5 cxb5 11. Fxb5+ Abd7 12. O-O-O Kd8 13. Kxd7 Kxd7 14. Kd1 Ve6 15. Fxd7+ Axd7 16. Vb8+ Axb8 17. Kd8#",
        ),
        (
            Language::El,
            "1. e4 e5 2. Ιf3 d6 3. d4 Αg4 4. dxe5 Αxf3 5. Βxf3 dxe5 6. Αc4 Ιf6 7. Βb3 Βe7 8. Ιc3 c6 9. Αg5 b5 10. Ιxb5 cxb5 11. Αxb5+ Ιbd7 12. O-O-O Πd8 13. Πxd7 Πxd7 14. Πd1 Βe6 15. Αxd7+ Ιxd7 16. Βb8+ Ιxb8 17. Πd8#",
        ),
        // figurines of both colours, with and without variation selectors
        (
            Language::En,
            "1. e4 e5 2. ♘f3 d6 3. d4 ♝g4 4. dxe5 ♝xf3 5. ♕xf3 dxe5 6. ♗c4 ♞f6 7. ♕b3 ♛e7 8. ♘c3 c6 9. ♗g5 b5 10. ♘xb5 cxb5 11. ♗xb5+ ♞bd7 12. O-O-O ♜d8 13. ♖xd7 ♜xd7 14. ♖d1 ♛e6 15. ♗xd7+ ♞xd7 16. ♕b8+ ♘xb8 17. ♖\u{FE0F}d8#",
        ),
        // long algebraic with hyphens, en and em dashes; FIDE's unhyphenated long form
        (
            Language::En,
            "1. e2-e4 e7–e5 2. Ng1—f3 d7-d6 3. d2-d4 Bc8-g4 4. d4xe5 Bg4xf3 5. Qd1xf3 d6xe5 6. Bf1-c4 Ng8-f6 7. Qf3-b3 Qd8-e7 8. Nb1-c3 c7-c6 9. Bc1-g5 b7-b5 10. Nc3xb5 c6xb5 11. Bc4xb5+ Nb8-d7 12. O-O-O Ra8-d8 13. Rd1xd7 Rd8xd7 14. Rh1-d1 Qe7-e6 15. Bb5xd7+ Nf6xd7 16. Qb3-b8+ Nd7xb8 17. Rd1-d8#",
        ),
        (
            Language::En,
            "1. e2e4 e7e5 2. Ng1f3 d7d6 3. d2d4 Bc8g4 4. d4e5 Bg4f3 5. Qd1f3 d6e5 6. Bf1c4 Ng8f6 7. Qf3b3 Qd8e7 8. Nb1c3 c7c6 9. Bc1g5 b7b5 10. Nc3b5 c6b5 11. Bc4b5 Nb8d7 12. e1c1 a8d8 13. d1d7 d8d7 14. h1d1 e7e6 15. b5d7 f6d7 16. b3b8 d7b8 17. d1d8",
        ),
        // people's SAN: missing capture marks, ':' and '×', † ‡ ch, glyphs, (=)
        (
            Language::En,
            "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. de5 Bf3 5. Q:f3 de 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. N×b5 cb5 11. Bb5ch Nbd7 12. o-o-o Rd8 13. Rd7! Rd7 14. Rd1 Qe6 15. Bd7† Nd7 16. Qb8+!! Nb8 17. Rd8‡",
        ),
    ];
    for (lang, score) in versions {
        assert_eq!(replay(score, lang), en, "{lang}: {score}");
    }
}

#[test]
fn sukhanov_russian_example() {
    // "1. e4 e5 2. Сc4 Кc6 3. Фh5 Кf6?? 4. Ф:f7#" (Sukhanov's textbook)
    let moves = replay("1. e4 e5 2. Сc4 Кc6 3. Фh5 Кf6?? 4. Ф:f7#", Language::Ru);
    let en = replay("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#", Language::En);
    assert_eq!(moves, en);
    // Latin C typed for the bishop (mixed keyboard) and Latin Kp for the king
    let mixed = replay("1. e4 e5 2. Cc4 Kc6 3. Фh5 Kf6 4. Ф:f7", Language::Ru);
    assert_eq!(mixed, en);
    let king = replay("1. e4 e5 2. Крe2 Крe7 3. Kpe1 Kpe8", Language::Ru);
    assert!(king[2..].iter().all(|m| m.role() == Role::King), "{king:?}");
    let t = parse_move("Кf6??").unwrap();
    assert_eq!(t.nag(), Some(4));
    assert_eq!(parse_move("Ф:f7#").unwrap().suffix(), Suffix::Mate);
    assert_eq!(parse_move("Фf7х").unwrap().suffix(), Suffix::Mate);
    assert_eq!(parse_move("Фf7x").unwrap().suffix(), Suffix::Mate);
    assert_eq!(parse_move("Фf7++").unwrap().suffix(), Suffix::DoubleCheck);
}

fn pos_from_fen(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position")
}

#[test]
fn en_passant_marks() {
    // Alekhine's Defence, 1. e4 Nf6 2. e5 d5 3. exd6 e.p. (the FIDE Appendix C example writes "exd6e.p.")
    let mut pos = Chess::default();
    for t in ["e4", "Nf6", "e5", "d5"] {
        let m = read_move(t, &pos, Language::En).unwrap();
        pos.play_unchecked(m);
    }
    for t in [
        "exd6e.p.",
        "exd6 e.p.",
        "exd6ep",
        "exd6 ep",
        "exd6",
        "ed6",
        "ed",
        "exd",
        "e5d6",
        "e5:d6",
        "e5xd6e.p.+",
    ] {
        let m = read_move(t, &pos, Language::En).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(m.is_en_passant(), "{t}");
    }
    assert!(parse_move("exd6e.p.").unwrap().en_passant_marked());
    assert_eq!(parse_annotation("e.p."), Some(Annotation::EnPassant));
    // "d6" alone is a push, never the en passant capture
    assert_eq!(
        read_move("d6", &pos, Language::En),
        Err(pgnkit_notation::ReadError::Resolve(ResolveError::Illegal))
    );
}

#[test]
fn promotion_spellings_on_real_promotions() {
    let games = common::all_test_games();
    let mut seen = 0;
    for ply in games.iter().flat_map(|g| g.plies.iter()) {
        let Move::Normal {
            from,
            to,
            promotion: Some(role),
            capture,
            ..
        } = ply.m
        else {
            continue;
        };
        seen += 1;
        let white = ply.pos.turn().is_white();
        let sq = to.to_string();
        let head = if capture.is_some() {
            format!("{}x{sq}", from.file().char())
        } else {
            sq.clone()
        };
        let fig = |white: bool| match role {
            Role::Queen => {
                if white {
                    "♕"
                } else {
                    "♛"
                }
            }
            Role::Rook => {
                if white {
                    "♖"
                } else {
                    "♜"
                }
            }
            Role::Bishop => {
                if white {
                    "♗"
                } else {
                    "♝"
                }
            }
            _ => {
                if white {
                    "♘"
                } else {
                    "♞"
                }
            }
        };
        let en = Language::En.letter(role);
        let mut forms = vec![
            (format!("{head}={en}"), Language::En),
            (format!("{head}{en}"), Language::En),
            (format!("{head}/{en}"), Language::En),
            (format!("{head}({en})"), Language::En),
            (format!("{head}={}", fig(white)), Language::En),
            (format!("{head}{}\u{FE0F}", fig(!white)), Language::En),
            (format!("{from}{to}{}", role.char()), Language::En),
            (format!("{from}-{to}{en}"), Language::En),
        ];
        for lang in [
            Language::De,
            Language::Fr,
            Language::Id,
            Language::Ru,
            Language::Hu,
        ] {
            forms.push((format!("{head}{}", lang.letter(role)), lang));
        }
        for (text, lang) in forms {
            let got =
                read_move(&text, &ply.pos, lang).unwrap_or_else(|e| panic!("{text} ({lang}): {e}"));
            assert_eq!(got, ply.m, "{text}");
        }
        // without the piece: four promotions fit, never a guess
        match read_move(&head, &ply.pos, Language::En) {
            Err(pgnkit_notation::ReadError::Resolve(ResolveError::Ambiguous(c))) => {
                assert_eq!(c.len(), 4)
            }
            other => panic!("{head}: {other:?}"),
        }
    }
    assert!(seen > 20, "only {seen} promotions");
    // the localized letters the issue names: d8D (de), g1T (de), c8M (id)
    let pos = pos_from_fen("8/3P2k1/8/8/8/8/6p1/4K3 w - - 0 1");
    assert_eq!(
        read_move("d8D", &pos, Language::De).unwrap().promotion(),
        Some(Role::Queen)
    );
    assert_eq!(
        read_move("d8M", &pos, Language::Id).unwrap().promotion(),
        Some(Role::Queen)
    );
    let pos = pos_from_fen("8/3P2k1/8/8/8/8/6p1/4K3 b - - 0 1");
    assert_eq!(
        read_move("g1T", &pos, Language::De).unwrap().promotion(),
        Some(Role::Rook)
    );
}

#[test]
fn castling_written_every_way_on_real_castlings() {
    let games = common::all_test_games();
    let mut seen = [0; 2];
    for g in &games {
        let chess960 = g.start.castles().mode().is_chess960();
        for ply in &g.plies {
            let Move::Castle { king, rook } = ply.m else {
                continue;
            };
            let short = rook.file() > king.file();
            seen[usize::from(short)] += 1;
            let forms: &[&str] = if short {
                &["O-O", "0-0", "o-o", "0–0", "O—O", "O-O+"]
            } else {
                &["O-O-O", "0-0-0", "o-o-o", "0–0–0", "O—O—O"]
            };
            let mut texts: Vec<String> = forms.iter().map(|s| s.to_string()).collect();
            texts.push(format!("{king}{rook}")); // king takes rook (Chess960 UCI)
            texts.push(format!("K{king}-{rook}"));
            let dest = Square::from_coords(
                if short {
                    shakmaty::File::G
                } else {
                    shakmaty::File::C
                },
                king.rank(),
            );
            if u32::from(king.file()).abs_diff(u32::from(dest.file())) >= 2 {
                texts.push(format!("{king}{dest}")); // the king's two-square move
            }
            for t in texts {
                let got = read_move(&t, &ply.pos, Language::En)
                    .unwrap_or_else(|e| panic!("{t} (960: {chess960}): {e}"));
                assert_eq!(got, ply.m, "{t}");
            }
        }
    }
    assert!(seen[0] > 50 && seen[1] > 50, "{seen:?}");
}

#[test]
fn marks_on_real_moves() {
    let games = common::all_test_games();
    let mut n = 0;
    for ply in games.iter().flat_map(|g| g.plies.iter()).step_by(97) {
        n += 1;
        let bare = ply.token.trim_end_matches(['+', '#']);
        for (glyph, nag) in [
            ("!", 1),
            ("?", 2),
            ("!!", 3),
            ("??", 4),
            ("!?", 5),
            ("?!", 6),
        ] {
            let t = parse_move(&format!("{}{glyph}", ply.token)).unwrap();
            assert_eq!(t.nag(), Some(nag));
            assert_eq!(t.resolve(&ply.pos, Language::En), Ok(ply.m));
        }
        let mut drawn = vec![
            (format!("{} (=)", ply.token), true),
            (format!("{}(=)", ply.token), true),
            (ply.token.clone(), false),
        ];
        if bare.ends_with(|c: char| c.is_ascii_digit()) {
            drawn.push((format!("{bare}="), true));
        }
        for (text, draw) in drawn {
            let t = parse_move(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.draw_offer(), draw, "{text}");
            assert_eq!(t.resolve(&ply.pos, Language::En), Ok(ply.m), "{text}");
        }
        if ply.token.ends_with('+') && !ply.token.ends_with("++") {
            for mark in ["†", "ch", "+"] {
                let t = parse_move(&format!("{bare}{mark}")).unwrap();
                assert_eq!(t.suffix(), Suffix::Check, "{bare}{mark}");
            }
        }
        // capture marks: x, :, ×, or none for pieces; over-specified origin
        if let Move::Normal {
            role,
            from,
            to,
            capture: Some(_),
            ..
        } = ply.m
            && role != Role::Pawn
        {
            let l = Language::En.letter(role);
            for text in [
                format!("{l}:{to}"),
                format!("{l}×{to}"),
                format!("{l}{to}"),
                format!("{l}{from}{to}"),
                format!("{l}{from}x{to}"),
            ] {
                match read_move(&text, &ply.pos, Language::En) {
                    Ok(m) => assert_eq!(m, ply.m, "{text}"),
                    Err(pgnkit_notation::ReadError::Resolve(ResolveError::Ambiguous(c))) => {
                        assert!(c.contains(&ply.m))
                    }
                    Err(e) => panic!("{text}: {e}"),
                }
            }
        }
    }
    // mate marks
    let pos = pos_from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    for (text, suffix) in [
        ("Ra8#", Suffix::Mate),
        ("Ra8++", Suffix::DoubleCheck),
        ("Ra8‡", Suffix::Mate),
        ("Ra8x", Suffix::Mate),
    ] {
        let t = parse_move(text).unwrap();
        assert_eq!(t.suffix(), suffix, "{text}");
        assert_eq!(t.resolve(&pos, Language::En).unwrap().to(), Square::A8);
    }
    assert!(n > 1000);
}

#[test]
fn abbreviated_pawn_captures_resolve_only_when_unique() {
    let games = common::all_test_games();
    let (mut unique, mut ambiguous) = (0, 0);
    for ply in games.iter().flat_map(|g| g.plies.iter()) {
        let (from, to) = match ply.m {
            Move::Normal {
                role: Role::Pawn,
                from,
                to,
                capture: Some(_),
                promotion: None,
            } => (from, to),
            Move::EnPassant { from, to } => (from, to),
            _ => continue,
        };
        let (ff, tf) = (from.file().char(), to.file().char());
        let fits = ply
            .pos
            .legal_moves()
            .iter()
            .filter(|m| {
                m.role() == Role::Pawn
                    && m.is_capture()
                    && m.from().map(|s| s.file()) == Some(from.file())
                    && m.to().file() == to.file()
            })
            .count();
        for text in [
            format!("{ff}{tf}"),
            format!("{ff}x{tf}"),
            format!("{ff}:{tf}"),
        ] {
            let got = read_move(&text, &ply.pos, Language::En);
            if fits == 1 {
                unique += 1;
                assert_eq!(got, Ok(ply.m), "{text}");
            } else {
                ambiguous += 1;
                assert!(
                    matches!(
                        got,
                        Err(pgnkit_notation::ReadError::Resolve(
                            ResolveError::Ambiguous(_)
                        ))
                    ),
                    "{text}"
                );
            }
        }
        // with the rank: always exactly this move
        assert_eq!(
            read_move(&format!("{ff}{to}"), &ply.pos, Language::Ru),
            Ok(ply.m)
        );
    }
    assert!(unique > 1000 && ambiguous > 0, "{unique} {ambiguous}");
}

#[test]
fn uci_and_long_forms_on_real_moves() {
    let games = common::all_test_games();
    for ply in games.iter().flat_map(|g| g.plies.iter()).step_by(13) {
        let (Some(from), to) = (ply.m.from(), ply.m.to()) else {
            continue;
        };
        if ply.m.is_castle() {
            continue;
        }
        let promo = ply
            .m
            .promotion()
            .map(|r| r.char().to_string())
            .unwrap_or_default();
        let promo_up = promo.to_uppercase();
        let l = Language::En.letter(ply.m.role());
        let x = if ply.m.is_capture() { "x" } else { "-" };
        for text in [
            format!("{from}{to}{promo}"),
            format!("{l}{from}{x}{to}{promo_up}"),
            format!("{l}{from}–{to}{promo_up}")
                .replace('–', if ply.m.is_capture() { "×" } else { "–" }),
            format!("{l}{from}{to}{promo_up}"),
        ] {
            assert_eq!(
                read_move(&text, &ply.pos, Language::En),
                Ok(ply.m),
                "{text}"
            );
        }
    }
}

#[test]
fn typed_errors() {
    let pos = Chess::default();
    assert_eq!(
        read_move("Nf4", &pos, Language::En),
        Err(pgnkit_notation::ReadError::Resolve(ResolveError::Illegal))
    );
    assert_eq!(
        read_move("Lf3", &pos, Language::En),
        Err(pgnkit_notation::ReadError::Resolve(
            ResolveError::UnknownPiece
        ))
    );
    assert_eq!(
        read_move("Nxf3", &pos, Language::En),
        Err(pgnkit_notation::ReadError::Resolve(ResolveError::Illegal))
    );
    let pos = pos_from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    match read_move("Rd1", &pos, Language::En) {
        Err(pgnkit_notation::ReadError::Resolve(ResolveError::Ambiguous(c))) => {
            assert_eq!(c.len(), 2)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        read_move("Rad1", &pos, Language::En).map(|m| m.from()),
        Ok(Some(Square::A1))
    );
    assert_eq!(parse_move("Nf9"), Err(ParseError::Unparsable));
    assert_eq!(parse_move(""), Err(ParseError::Empty));
    // lowercase b is a file, never a bishop
    let pos = pos_from_fen("4k3/8/8/2p5/1P6/8/8/4K3 w - - 0 1");
    assert_eq!(
        read_move("bc5", &pos, Language::En).map(|m| m.role()),
        Ok(Role::Pawn)
    );
    assert_eq!(
        read_move("bxc5", &pos, Language::En).map(|m| m.role()),
        Ok(Role::Pawn)
    );
    // English SAN letters fall back under a forced language where they mean nothing else
    assert!(read_move("Nf3", &Chess::default(), Language::De).is_ok());
    assert!(read_move("Ktf3", &Chess::default(), Language::En).is_ok());
    assert!(read_move("Pe4", &Chess::default(), Language::En).is_ok());
}
