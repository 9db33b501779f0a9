//! Writes one file of each hostile input class (see `testdata/hostile/`) for the gate benchmark:
//!
//! ```sh
//! cargo run --release -p pgnkit --example hostile -- OUT_DIR [SIZE_BYTES] [SAMPLE.pgn] [CLASS]
//! ```
//!
//! With CLASS (`unique-names`, …) only that class is written.

#[allow(dead_code)]
#[path = "../../testdata/hostile/hostile.rs"]
mod hostile;

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "hostile".to_owned()));
    let size: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10 << 20);
    let sample = match args.next() {
        Some(p) => std::fs::read(p)?,
        None => std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/check/claims.pgn"
        ))?,
    };
    let only = args.next();
    std::fs::create_dir_all(&dir)?;
    for class in hostile::Class::ALL {
        if only.as_deref().is_some_and(|o| o != class.name()) {
            continue;
        }
        let path = dir.join(format!("{}.pgn", class.name()));
        let (bytes, games) = class.make(size, &sample);
        std::fs::write(&path, bytes)?;
        println!("{}\t{games}", path.display());
    }
    Ok(())
}
