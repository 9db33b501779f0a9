//! Counts the games of files, standard input (`-`) or compressed files
//! (`.zst`, `.gz`, `.bz2`, found by their magic bytes), the way every pgnkit
//! command reads its inputs: chunk by chunk, cut at game boundaries. An input
//! that cannot be read (missing, a directory, binary data) is reported and
//! the others are still counted; the exit status is then 2.
//!
//! ```sh
//! cargo run -p pgnkit-source --example games -- testdata/check/*.pgn
//! zstd -c big.pgn | cargo run -p pgnkit-source --example games -- -
//! ```

use std::process::ExitCode;

use pgnkit_pgn::{Game, Reader};
use pgnkit_source::Input;

/// About how many bytes a chunk holds.
const CHUNK: usize = 1 << 22;

fn count(path: &str) -> Result<(u64, u64), Box<dyn std::error::Error>> {
    let input = Input::open(path)?;
    let (mut games, mut bytes) = (0u64, 0u64);
    for chunk in input.chunks(CHUNK) {
        let chunk = chunk?;
        let data = chunk.bytes();
        bytes += data.len() as u64;
        let mut reader = Reader::new(data);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            if !game.is_comment_only() {
                games += 1;
            }
        }
        chunk.release();
    }
    Ok((games, bytes))
}

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        match count(&path) {
            Ok((games, bytes)) => println!("{path}: {games} games, {bytes} bytes"),
            Err(e) => {
                eprintln!("{path}: error: {e}");
                status = ExitCode::from(2);
            }
        }
    }
    status
}
