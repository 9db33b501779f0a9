//! Games of moves drawn at random, for the tests that compare pgnkit's
//! reading of a position with shakmaty's over many positions.

use shakmaty::{Chess, Position};

/// Every position of `games` games of at most `plies` moves each, drawn
/// at random from `seed` (the same games every run), the start included;
/// a game ends early where no move is left.
pub(crate) fn positions(seed: u64, games: usize, plies: usize) -> Vec<Chess> {
    let mut rng = pgnkit_testkit::Xorshift::new(seed);
    let mut all = Vec::new();
    for _ in 0..games {
        let mut pos = Chess::default();
        all.push(pos.clone());
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&m) = moves.get((rng.next_u64() % moves.len().max(1) as u64) as usize) else {
                break;
            };
            pos.play_unchecked(m);
            all.push(pos.clone());
        }
    }
    all
}
