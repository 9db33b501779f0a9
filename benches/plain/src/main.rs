//! `plain-validator`: the peer baseline for pgnkit's benchmarks.
//!
//! This is the validator a Rust user would write in an afternoon with
//! pgn-reader 0.29 and shakmaty 0.30: main line only, every SAN token resolved
//! with `San::to_move` and played with `play_unchecked`, unparsable tokens
//! skipped silently (pgn-reader's behaviour). With `--threads N` (N > 1) the
//! file is memory-mapped, cut at game boundaries (`\n\n[`) and the pieces are
//! validated by rayon. `--convert lan|uci` writes every game's main line in
//! long algebraic or UCI notation to standard output, one game a line.
//!
//! ```text
//! plain-validator [--threads N] [--convert lan|uci] FILE
//! ```
//!
//! Summary on standard error: `games G plies P illegal I bad_fen F`.
//! Exit status: 0 all games legal, 1 illegal moves or bad FENs, 2 usage/I/O.

mod boundary;
mod notation;
mod replay;

use std::{
    fs::File,
    io::{self, BufWriter, Write},
    process::ExitCode,
};

use notation::Notation;
use replay::Tally;

/// Parsed command line.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    threads: usize,
    convert: Option<Notation>,
    file: String,
}

const USAGE: &str = "usage: plain-validator [--threads N] [--convert lan|uci] FILE";

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut threads = 1;
    let mut convert = None;
    let mut file = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" | "-j" => {
                let value = args.next().ok_or("--threads needs a value")?;
                threads = value
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("bad thread count {value:?}"))?;
            }
            "--convert" => {
                let value = args.next().ok_or("--convert needs a value")?;
                convert = Some(
                    Notation::from_name(&value)
                        .ok_or_else(|| format!("unknown notation {value:?} (lan or uci)"))?,
                );
            }
            "-h" | "--help" => return Err(String::new()),
            _ if file.is_none() => file = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    Ok(Options {
        threads,
        convert,
        file: file.ok_or("missing FILE")?,
    })
}

fn run(options: &Options) -> io::Result<Tally> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let tally = if options.file == "-" {
        replay::stream(io::stdin().lock(), options.convert, &mut out)?
    } else {
        let file = File::open(&options.file)?;
        if options.threads > 1 {
            let data = boundary::map(&file)?;
            replay::parallel(&data, options.threads, options.convert, &mut out)?
        } else {
            replay::stream(file, options.convert, &mut out)?
        }
    };
    out.flush()?;
    Ok(tally)
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("plain-validator: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(tally) => {
            eprintln!(
                "games {} plies {} illegal {} bad_fen {}",
                tally.games, tally.plies, tally.illegal, tally.bad_fen
            );
            if tally.illegal + tally.bad_fen > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("plain-validator: {}: {err}", options.file);
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parses_threads_convert_and_file() {
        let options = parse_args(args(&["--threads", "2", "--convert", "uci", "x.pgn"]));
        assert_eq!(
            options,
            Ok(Options {
                threads: 2,
                convert: Some(Notation::Uci),
                file: "x.pgn".into()
            })
        );
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse_args(args(&["--threads", "0", "x.pgn"])).is_err());
        assert!(parse_args(args(&["--convert", "san", "x.pgn"])).is_err());
        assert!(parse_args(args(&[])).is_err());
        assert!(parse_args(args(&["a.pgn", "b.pgn"])).is_err());
    }
}
