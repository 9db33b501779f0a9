use pgnkit_replay::dead::{self, Budget};
use pgnkit_replay::{Status, outcome};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
fn main() {
    let text = std::fs::read_to_string("testdata/dead/positions.tsv").unwrap();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[1] != "dead" {
            continue;
        }
        let pos: Chess = f[0]
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let st = outcome::final_status(&pos);
        if matches!(
            st.status,
            Status::DeadPosition | Status::InsufficientMaterial
        ) {
            continue;
        }
        println!(
            "{} ws={} quick={:?} thorough={:?} {}",
            f[0],
            dead::worth_searching(&pos),
            dead::is_dead(&pos, Budget::QUICK),
            dead::is_dead(&pos, Budget::nodes(200_000)),
            f[2]
        );
    }
}
