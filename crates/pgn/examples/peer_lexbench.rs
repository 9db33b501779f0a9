//! The same measurement as `lexbench`, with pgn-reader 0.29 doing the reading and a visitor that only
//! counts (no replay, variations visited): the peer figure for the lexer alone.
//! `cargo run --release -p pgnkit-pgn --example peer_lexbench -- [FILE] [ROUNDS]`.

use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

#[derive(Default)]
struct Count {
    games: usize,
    tokens: usize,
}

impl Visitor for Count {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), _: SanPlus) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &mut (), _: RawComment<'_>) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        self.tokens += 1;
        ControlFlow::Continue(Skip(false))
    }
    fn outcome(&mut self, _: &mut (), _: Outcome) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) {
        self.games += 1;
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/work/shared/corpus/bench/real.pgn".to_string());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let input = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let cpu_before = cpu_seconds();
    let mut best = f64::MAX;
    let mut count = Count::default();
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        count = Count::default();
        let mut reader = Reader::new(&input[..]);
        while let Ok(Some(())) = reader.read_game(&mut count) {}
        best = best.min(start.elapsed().as_secs_f64());
    }
    let cpu = cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
    let mb = input.len() as f64 / 1e6;
    println!(
        "pgn-reader: {mb:.1} MB, {} games, {} tags+sans+comments+variations+outcomes",
        count.games, count.tokens
    );
    println!("best {:.0} MB/s", mb / best);
    if let Some(cpu) = cpu {
        println!(
            "CPU time: {:.0} MB/s over {} rounds",
            mb * rounds.max(1) as f64 / cpu,
            rounds.max(1)
        );
    }
}

/// User + system CPU time of this thread so far (Linux, 10 ms resolution), if available.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
