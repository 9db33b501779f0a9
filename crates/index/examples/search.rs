//! Indexes a PGN file (beside it, as `FILE.pgnkit-index`; built again when
//! missing or when the PGN file changed) and lists the games where a player
//! took part, or where a position (FEN) occurred.
//!
//! ```text
//! cargo run -p pgnkit-index --example search -- testdata/index/chess960rwch.pgn --player Nakamura
//! cargo run -p pgnkit-index --example search -- games.pgn --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
//! ```
//!
//! Each match is printed as `GAME: WHITE - BLACK, EVENT (PLIES plies, byte
//! OFFSET)`; then the number of matches.

use std::path::Path;
use std::process::ExitCode;

use pgnkit_index::{
    Batch, Builder, Filter, Fingerprint, GameFacts, Index, Needle, TextTag, fen_key, index_path,
};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

/// Replays every game of `pgn` and writes its index.
fn build(pgn: &Path, fingerprint: &Fingerprint) -> Result<(), String> {
    let input = std::fs::read(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
    let options = Options {
        language: None,
        suggestions: false,
        ..Options::default()
    };
    let mut batch = Batch::new();
    let mut reader = Reader::new(&input);
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        let report = replay_game(&input, &game, &options);
        batch.push(
            &GameFacts::new(&input, 0, &game, Some(&report)),
            &report.keys,
        );
    }
    let mut builder = Builder::new();
    builder.add(batch).map_err(|e| e.to_string())?;
    builder
        .write(&index_path(pgn), fingerprint)
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn run(args: &[String]) -> Result<usize, String> {
    let [pgn, query, value] = args else {
        return Err("usage: search FILE.pgn (--player NAME | --fen FEN)".to_owned());
    };
    let pgn = Path::new(pgn);
    let fingerprint = Fingerprint::of(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
    // An index that is missing, damaged or stale is built again.
    let index = match Index::open(&index_path(pgn), pgn, &fingerprint) {
        Ok(index) => index,
        Err(why) => {
            eprintln!("indexing {} ({why})", pgn.display());
            build(pgn, &fingerprint)?;
            Index::open(&index_path(pgn), pgn, &fingerprint).map_err(|e| e.to_string())?
        }
    };
    let found = match query.as_str() {
        "--player" => {
            let filter = Filter {
                player: Some(Needle::new(value)),
                ..Filter::default()
            };
            index.search(&filter, None)
        }
        "--fen" => {
            let key = fen_key(value).map_err(|e| format!("{value}: {e}"))?;
            index.games_with_position(key)
        }
        other => return Err(format!("unknown query {other}: --player or --fen")),
    }
    .map_err(|e| e.to_string())?;
    for &n in &found {
        let g = index.game(n);
        println!(
            "{}: {} - {}, {} ({} plies, byte {})",
            n + 1,
            g.text(TextTag::White),
            g.text(TextTag::Black),
            g.text(TextTag::Event),
            g.plies(),
            g.offset()
        );
    }
    Ok(found.len())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(n) => {
            println!("{n} games");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
