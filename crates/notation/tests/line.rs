//! `Line` reads and writes every move of real games exactly as the
//! stand-alone `MoveToken::resolve` and `write_move` do, in every kind of
//! notation, checks and mates included.

mod common;

use pgnkit_notation::{Language, Line, Notation, Style, parse_move, write_move};
use shakmaty::Position;

#[test]
fn line_agrees_with_resolve_and_write_move_on_real_games() {
    let styles = [
        Style::SAN,
        Style::new(Notation::Lan, Language::En),
        Style::new(Notation::Uci, Language::En),
        Style::new(Notation::Figurine, Language::En),
        Style::RU_SCORESHEET,
    ];
    let games = common::all_test_games();
    let (mut plies, mut checks, mut read_fast) = (0usize, 0usize, 0usize);
    let mut disambiguated = 0usize;
    let (mut expected, mut got) = (String::new(), String::new());
    for (g, game) in games.iter().enumerate() {
        let style = &styles[g % styles.len()];
        let mut line = Line::new(game.start.clone());
        for ply in &game.plies {
            assert_eq!(line.position(), &ply.pos);
            assert_eq!(line.in_check(), ply.pos.is_check(), "{}", ply.token);
            let token = parse_move(&ply.token).expect("a real SAN token");
            let m = line.resolve(&token, Language::En).expect("legal");
            assert_eq!(Ok(m), token.resolve(&ply.pos, Language::En));
            let fast = line.read_plain_san(ply.token.as_bytes());
            if let Some(fast) = fast {
                assert_eq!(fast, m, "{}", ply.token);
                read_fast += 1;
            }
            // A piece named by its file or rank (`Nbd7`, `R1e2`) is read in
            // one step too: the one step is not only for moves without a
            // choice. (With a capture, `Rbxb7`, the general reading reads
            // it.)
            let body = ply.token.trim_end_matches(['+', '#']);
            if body.starts_with(['N', 'B', 'R', 'Q']) && body.len() == 4 && !body.contains('x') {
                assert!(fast.is_some(), "{} not read in one step", ply.token);
                disambiguated += 1;
            }
            expected.clear();
            write_move(&ply.pos, &m, style, &mut expected);
            got.clear();
            line.write_and_play(m, style, &mut got);
            assert_eq!(got, expected);
            plies += 1;
            checks += usize::from(ply.pos.is_check());
        }
    }
    assert!(
        plies > 100_000 && checks > 5_000 && disambiguated > 1_000,
        "{plies} plies, {checks} checks, {disambiguated} pieces named by file or rank"
    );
    // Nearly every real SAN move is read in one step.
    assert!(
        read_fast * 100 > plies * 95,
        "{read_fast} of {plies} read in one step"
    );
}

/// Castling is read in one step where it is legal, and left to the
/// general reading (which says why) where it is not: out of check, the
/// king's path free and unattacked (Law 3.8.2). The expected moves are
/// shakmaty's `San::to_move`, and the positions are made so that the Law
/// decides each case.
#[test]
fn castling_is_read_in_one_step_where_it_is_legal() {
    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess};

    let cases = [
        // Both sides free: each castle legal.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", true),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", true),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", true),
        // In check from the rook on e8.
        ("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", false),
        // f1 attacked by the bishop on c4: the king would pass it.
        ("4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "O-O", false),
        // A knight on b1: the path is not free.
        ("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1", "O-O-O", false),
        // b1 attacked by the bishop on a2: the rook passes it, the king
        // does not (legal).
        ("4k3/8/8/8/8/8/b7/R3K2R w KQ - 0 1", "O-O-O", true),
        // d1 attacked by the bishop on f3: the king would pass it.
        ("4k3/8/8/8/8/5b2/8/R3K2R w KQ - 0 1", "O-O-O", false),
        // No right left.
        ("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O", false),
    ];
    for (fen, word, legal) in cases {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let expected = word
            .trim_end_matches('+')
            .parse::<San>()
            .expect("SAN")
            .to_move(&pos)
            .ok();
        assert_eq!(expected.is_some(), legal, "{fen} {word}: shakmaty");
        let line = Line::new(pos);
        assert_eq!(
            line.read_plain_san(word.as_bytes()),
            expected,
            "{fen} {word}"
        );
    }
}

/// The move of a real game's SAN `token` in `line`'s position, read on
/// the fast path or parsed and resolved.
fn legal_move(line: &Line, token: &str) -> shakmaty::Move {
    line.read_plain_san(token.as_bytes())
        .or_else(|| {
            let parsed = parse_move(token).ok()?;
            line.resolve(&parsed, Language::En).ok()
        })
        .expect("legal")
}

/// The UCI a conversion writes in place (`Line::write_uci_and_play`) is
/// shakmaty's own UCI of the move (`Move::to_uci`, an implementation
/// pgnkit does not share), spaces after it, and the move is played.
#[test]
fn uci_written_in_place_is_shakmatys_uci_on_real_games() {
    let games = common::all_test_games();
    let (mut plies, mut promotions, mut castles) = (0usize, 0usize, 0usize);
    for game in &games {
        let mut line = Line::new(game.start.clone());
        for (k, ply) in game.plies.iter().enumerate() {
            let m = legal_move(&line, &ply.token);
            let mode = ply.pos.castles().mode();
            let expected = m.to_uci(mode).to_string();
            let (ascii, len) = line.write_uci_and_play(m);
            assert_eq!(&ascii[..len], expected.as_bytes(), "{}", ply.token);
            assert!(ascii[len..].iter().all(|&b| b == b' '));
            if let Some(next) = game.plies.get(k + 1) {
                assert_eq!(line.position(), &next.pos);
            }
            plies += 1;
            promotions += usize::from(m.is_promotion());
            castles += usize::from(m.is_castle());
        }
    }
    assert!(
        plies > 100_000 && promotions > 100 && castles > 1_000,
        "{plies} plies, {promotions} promotions, {castles} castles"
    );
}

/// The long algebraic form of `m` built from shakmaty's own description of
/// the move and its `SanPlus` suffix (not pgnkit's writer): the piece's
/// letter, both squares, `x` or `-`, `=` and the promotion's letter.
fn shakmaty_lan(pos: &shakmaty::Chess, m: shakmaty::Move) -> String {
    use shakmaty::{CastlingSide, Move, Role, san::SanPlus};
    let suffix = SanPlus::from_move(pos.clone(), m)
        .suffix
        .map_or(String::new(), |s| s.to_string());
    let body = match m {
        Move::Castle { .. } => match m.castling_side() {
            Some(CastlingSide::KingSide) => "O-O".to_owned(),
            _ => "O-O-O".to_owned(),
        },
        _ => {
            let role = m.role();
            let piece = if role == Role::Pawn {
                String::new()
            } else {
                role.upper_char().to_string()
            };
            let from = m.from().map_or(String::new(), |sq| sq.to_string());
            let mark = if m.is_capture() { "x" } else { "-" };
            let promotion = m
                .promotion()
                .map_or(String::new(), |p| format!("={}", p.upper_char()));
            format!("{piece}{from}{mark}{}{promotion}", m.to())
        }
    };
    body + &suffix
}

#[test]
fn san_and_lan_written_in_place_are_shakmatys_on_real_games() {
    use pgnkit_notation::{CaptureMark, CastlingMark};
    use shakmaty::san::SanPlus;
    let san = Style::SAN;
    let lan = Style::new(Notation::Lan, Language::En);
    // English styles written in place: each as the `String` writer has it.
    let variants = [
        Style {
            check_marks: false,
            ..san
        },
        Style {
            castling: CastlingMark::DigitZero,
            capture: CaptureMark::Colon,
            ..san
        },
        Style {
            castling: CastlingMark::KingMove,
            pawn_letter: true,
            ..lan
        },
    ];
    // Styles not written in place: nothing written, nothing played.
    let others = [
        Style::new(Notation::San, Language::De),
        Style::new(Notation::Figurine, Language::En),
        Style::RU_SCORESHEET,
    ];
    let games = common::all_test_games();
    let (mut plies, mut marks, mut castles, mut promotions) = (0usize, 0usize, 0usize, 0usize);
    let mut expected = String::new();
    for (g, game) in games.iter().enumerate() {
        let mut line = Line::new(game.start.clone());
        for ply in &game.plies {
            let pos = ply.pos.clone();
            let m = legal_move(&line, &ply.token);
            for style in &others {
                assert_eq!(line.clone().write_in_place_and_play(m, style), None);
            }
            let variant = &variants[(g + plies) % variants.len()];
            let (bytes, len) = line
                .clone()
                .write_in_place_and_play(m, variant)
                .expect("English");
            expected.clear();
            write_move(&pos, &m, variant, &mut expected);
            assert_eq!(
                &bytes[..len],
                expected.as_bytes(),
                "{variant:?} {}",
                ply.token
            );
            // The LAN expected from shakmaty, then the SAN, played last.
            let (bytes, len) = line.clone().write_in_place_and_play(m, &lan).expect("LAN");
            let want = shakmaty_lan(&pos, m);
            assert_eq!(
                std::str::from_utf8(&bytes[..len]),
                Ok(want.as_str()),
                "{}",
                ply.token
            );
            let (bytes, len) = line.write_in_place_and_play(m, &san).expect("SAN");
            let want = SanPlus::from_move(pos, m).to_string();
            assert_eq!(
                std::str::from_utf8(&bytes[..len]),
                Ok(want.as_str()),
                "{}",
                ply.token
            );
            assert!(bytes[len..].iter().all(|&b| b == b' '));
            assert_eq!(line.in_check(), line.position().is_check());
            plies += 1;
            marks += usize::from(want.ends_with(['+', '#']));
            castles += usize::from(m.is_castle());
            promotions += usize::from(m.is_promotion());
        }
    }
    assert!(
        plies > 100_000 && marks > 5_000 && castles > 1_000 && promotions > 100,
        "{plies} plies, {marks} marks, {castles} castles, {promotions} promotions"
    );
}
