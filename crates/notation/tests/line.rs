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
            if let Some(fast) = line.read_plain_san(ply.token.as_bytes()) {
                assert_eq!(fast, m, "{}", ply.token);
                read_fast += 1;
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
        plies > 100_000 && checks > 5_000,
        "{plies} plies, {checks} checks"
    );
    // Nearly every real SAN move is read in one step.
    assert!(
        read_fast * 100 > plies * 95,
        "{read_fast} of {plies} read in one step"
    );
}
