//! Reading moves in positions where the side to move is in check: for
//! every piece of the side to move and every destination, the move written
//! in SAN (with and without its origin) resolves to exactly what
//! shakmaty's `San::to_move` gives — the legal evasion, or an error for a
//! move that leaves the king in check.

mod common;

use pgnkit_notation::{Language, parse_move};
use shakmaty::san::San;
use shakmaty::{Position, Rank, Role, Square};

#[test]
fn every_move_in_check_resolves_as_shakmaty_does() {
    let games = common::all_test_games();
    let (mut positions, mut tried, mut legal) = (0usize, 0usize, 0usize);
    for ply in games.iter().flat_map(|g| &g.plies) {
        let pos = &ply.pos;
        if !pos.is_check() {
            continue;
        }
        positions += 1;
        if positions % 19 != 0 {
            continue;
        }
        let board = pos.board();
        let us = board.by_color(pos.turn());
        for from in us {
            let Some(role) = board.role_at(from) else {
                continue;
            };
            for to in Square::ALL {
                let capture = board.by_color(!pos.turn()).contains(to);
                let last = matches!(to.rank(), Rank::First | Rank::Eighth);
                let promotion = (role == Role::Pawn && last).then_some(Role::Queen);
                let pawn_file = (role == Role::Pawn && capture).then(|| from.file());
                for (file, rank) in [(Some(from.file()), Some(from.rank())), (pawn_file, None)] {
                    if role == Role::Pawn && file.is_some() && rank.is_some() {
                        continue;
                    }
                    let san = San::Normal {
                        role,
                        file,
                        rank,
                        capture,
                        to,
                        promotion,
                    };
                    let text = san.to_string();
                    let Ok(token) = parse_move(&text) else {
                        continue;
                    };
                    let ours = token.resolve(pos, Language::En).ok();
                    let theirs = san.to_move(pos).ok();
                    assert_eq!(
                        ours,
                        theirs,
                        "{text} in {}",
                        shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    tried += 1;
                    legal += usize::from(theirs.is_some());
                }
            }
        }
    }
    assert!(
        positions > 5_000 && legal > 1_000,
        "{positions} positions in check, {tried} moves tried, {legal} legal"
    );
}
