//! ICCF numeric notation on real games: every move written equals ICCF's
//! numeric form computed here from the move itself (independently of the
//! writer: from shakmaty's UCI of the move, each file letter and rank
//! turned into its digit), and reads back to the move played.

mod common;

use pgnkit_notation::{Language, Notation, Style, parse_move, write_move};
use shakmaty::{CastlingMode, Move, Position, Role};

/// ICCF numeric of `m`: origin and destination as file digit then rank
/// digit, the king's destination for castling (its square beside the rook
/// in Chess960, written as the king taking its rook there, as UCI does),
/// a promotion digit 1 queen, 2 rook, 3 bishop, 4 knight.
fn expected_iccf(m: &Move, mode: CastlingMode) -> String {
    let uci = m.to_uci(mode).to_string();
    let mut out = String::new();
    for c in uci.chars().take(4) {
        let digit = match c {
            'a'..='h' => u32::from(c) - u32::from('a') + 1,
            '1'..='8' => u32::from(c) - u32::from('0'),
            _ => panic!("no square character: {c} in {uci}"),
        };
        out.push(char::from_digit(digit, 10).expect("a digit"));
    }
    if let Some(role) = m.promotion() {
        out.push(match role {
            Role::Queen => '1',
            Role::Rook => '2',
            Role::Bishop => '3',
            Role::Knight => '4',
            _ => panic!("no promotion piece"),
        });
    }
    out
}

#[test]
fn iccf_numeric_of_every_move_of_1000_real_games_reads_back() {
    let style = Style::new(Notation::Iccf, Language::En);
    let games = common::all_test_games();
    assert!(games.len() >= 1000, "only {} games", games.len());
    let (mut plies, mut castles, mut promotions, mut chess960) = (0usize, 0usize, 0usize, 0usize);
    let mut written = String::new();
    for game in games.iter().take(1000) {
        let mode = game.start.castles().mode();
        if mode == CastlingMode::Chess960 {
            chess960 += 1;
        }
        for ply in &game.plies {
            written.clear();
            write_move(&ply.pos, &ply.m, &style, &mut written);
            assert_eq!(written, expected_iccf(&ply.m, mode), "{}", ply.token);
            let token = parse_move(&written).expect("ICCF parses");
            assert_eq!(
                token.resolve(&ply.pos, Language::En),
                Ok(ply.m),
                "{written} ({})",
                ply.token
            );
            plies += 1;
            castles += usize::from(ply.m.is_castle());
            promotions += usize::from(ply.m.is_promotion());
        }
    }
    eprintln!(
        "{plies} moves, {castles} castlings, {promotions} promotions, {chess960} Chess960 games"
    );
    // The games have what the notation has to get right.
    assert!(plies > 50_000, "{plies}");
    assert!(castles > 1000 && promotions > 10, "{castles} {promotions}");
    assert!(chess960 > 0);
}

#[test]
fn iccf_examples() {
    // The examples of ICCF's rules: e2-e4, b7-b8=Q, castling as the king's move.
    let pos = shakmaty::Chess::default();
    let m = parse_move("5254")
        .expect("parses")
        .resolve(&pos, Language::En);
    assert_eq!(m.map(|m| m.to().to_string()), Ok("e4".to_string()));
    for bad in ["5250", "52541", "9254", "525", "525412", "27291"] {
        assert!(
            parse_move(bad).map_or(true, |t| t.resolve(&pos, Language::En).is_err()),
            "{bad}"
        );
    }
}
