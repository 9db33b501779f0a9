//! The streaming input path (`pgnkit_source::Input::stream`: standard input, pipes,
//! compressed files): the fuzz bytes are read as a stream, chunked at game
//! boundaries on the reading thread, and every chunk is lexed and
//! replayed as `check` does. The first byte chooses how the stream looks
//! and the chunk size:
//! - raw bytes (decompressed if they happen to start with a magic number);
//! - the bytes behind a zstd, gzip or bzip2 magic number (a corrupt
//!   stream: the decoders' error paths);
//! - the bytes really compressed with zstd, gzip or bzip2 (a valid stream,
//!   whose chunks must give back exactly the bytes).
//!
//! Chunks must start where the last one ended, and lexing them must give
//! the games of the whole (for a stream read to its end). Any panic, or a
//! run over the time limit, is a bug.
#![no_main]

use std::io::{Cursor, Write};

use libfuzzer_sys::fuzz_target;
use pgnkit_replay::Options;
use pgnkit_report::Format;
use pgnkit_source::{Compression, Input};
use pgnkit_work::check::check_chunk;

fn compress(kind: u8, data: &[u8]) -> Option<Vec<u8>> {
    match kind {
        0 => zstd::encode_all(data, 1).ok(),
        1 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).ok()?;
            e.finish().ok()
        }
        _ => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(data).ok()?;
            e.finish().ok()
        }
    }
}

const MAGIC: [&[u8]; 3] = [&[0x28, 0xb5, 0x2f, 0xfd], &[0x1f, 0x8b], b"BZh9"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let mode = pick % 7;
    let stream = match mode {
        0 => body.to_vec(),
        1..=3 => {
            let mut s = MAGIC[usize::from(mode - 1)].to_vec();
            s.extend_from_slice(body);
            s
        }
        _ => match compress(mode - 4, body) {
            Some(s) => s,
            None => return,
        },
    };
    // Chunks of 1 byte to 8 KiB: every cut is exercised on small inputs.
    let chunk_size = 1usize << (pick >> 3).min(13);
    let expect_whole = match mode {
        0 => (Compression::sniff(body) == Compression::None).then_some(body),
        4..=6 => Some(body),
        _ => None,
    };

    let Ok(input) = Input::stream("fuzz".to_owned(), None, Cursor::new(stream)) else {
        return;
    };
    let options = Options {
        language: None,
        suggestions: true,
        ..Options::default()
    };
    let mut read = Vec::new();
    let mut games = 0u64;
    let mut failed = false;
    for chunk in input.chunks(chunk_size) {
        let Ok(chunk) = chunk else {
            failed = true;
            break;
        };
        assert_eq!(
            chunk.base,
            read.len(),
            "a chunk does not start where the last ended"
        );
        assert!(chunk.range.start <= chunk.range.end && chunk.range.end <= chunk.data.len());
        read.extend_from_slice(chunk.bytes());
        let out = check_chunk(&chunk, &options, &pgnkit_replay::Selection::default(), Format::Json, false, false);
        games += out.totals.games;
    }
    // Binary data (control bytes past the threshold of `binary_at`) is
    // refused, however well-formed the stream: that is no failure.
    let expect_whole = expect_whole.filter(|whole| pgnkit_source::binary_at(whole).is_none());
    if let Some(whole) = expect_whole {
        assert!(!failed, "reading a valid stream failed");
        assert!(
            read == whole,
            "the chunks do not give back the stream's bytes"
        );
    }
    if !failed {
        let out = check_chunk(
            &pgnkit_work::whole_chunk(read),
            &options,
            &pgnkit_replay::Selection::default(),
            Format::Json,
            false,
            false,
        );
        assert_eq!(
            out.totals.games, games,
            "chunked and whole reading count different games"
        );
    }
});
