//! The SAN writer agrees with shakmaty's `SanPlus::from_move` for every
//! legal move of every position of every 6th test game: same disambiguation
//! (file, rank, both, none; pinned pieces do not count), same check and
//! mate marks.

mod common;

use pgnkit_notation::{Style, write_move};
use shakmaty::Position;
use shakmaty::san::SanPlus;

#[test]
fn san_of_every_legal_move_matches_shakmaty() {
    let games = common::all_test_games();
    let (mut moves, mut disambiguated) = (0usize, 0usize);
    let mut out = String::new();
    for (g, game) in games.iter().enumerate() {
        // Every position of every 6th game.
        if g % 6 != 0 {
            continue;
        }
        for ply in &game.plies {
            for m in ply.pos.legal_moves() {
                out.clear();
                write_move(&ply.pos, &m, &Style::SAN, &mut out);
                let expected = SanPlus::from_move(ply.pos.clone(), m).to_string();
                assert_eq!(
                    out,
                    expected,
                    "{}",
                    shakmaty::fen::Fen::from_position(&ply.pos, shakmaty::EnPassantMode::Legal)
                );
                moves += 1;
                let body = out.trim_end_matches(['+', '#']);
                disambiguated += usize::from(
                    body.len() > 3
                        && body.starts_with(['N', 'B', 'R', 'Q'])
                        && !body.contains('x')
                        && body.as_bytes()[1].is_ascii_lowercase()
                        && body.as_bytes()[2].is_ascii_lowercase(),
                );
            }
        }
    }
    assert!(
        moves > 500_000 && disambiguated > 1_000,
        "{moves} moves, {disambiguated} with a file"
    );
}
