//! Profiling (not committed).
#[path = "../tests/common/mod.rs"]
mod common;
use pgnkit_notation::{Language, Notation, Style, parse_move, write_move};
use shakmaty::Chess;
use std::hint::black_box;

#[inline(never)]
fn read_all(plies: &[(&Chess, &str, String)], descriptive: bool) -> usize {
    let mut n = 0usize;
    for (pos, san, desc) in plies {
        let w = if descriptive { desc.as_str() } else { san };
        if let Ok(t) = parse_move(black_box(w))
            && let Ok(m) = t.resolve(pos, Language::En)
        {
            n += usize::from(m.is_capture());
        }
    }
    n
}

fn main() {
    let (_, games) = common::bench_input();
    let style = Style::new(Notation::Descriptive, Language::En);
    let plies: Vec<(&Chess, &str, String)> = games
        .iter()
        .flat_map(|g| g.plies.iter())
        .map(|p| {
            let mut w = String::new();
            write_move(&p.pos, &p.m, &style, &mut w);
            let word = w.split(' ').next().unwrap_or_default().to_owned();
            (&p.pos, p.token.as_str(), word)
        })
        .collect();
    let d = std::env::var("MODE").map_or(true, |m| m == "desc");
    println!("{}", read_all(&plies, d));
}
