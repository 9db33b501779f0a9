//! Game boundaries: where a PGN file may be cut so that every piece holds
//! whole games, and the memory map the pieces are cut from.

use std::{fs::File, io};

use memchr::memmem;
use memmap2::Mmap;

/// Maps `file` into memory read-only.
///
/// This is the one `unsafe` call of the peer, exactly as a user of memmap2
/// writes it; pgnkit's own crates stay free of `unsafe`.
#[allow(unsafe_code)]
pub fn map(file: &File) -> io::Result<Mmap> {
    // SAFETY: the benchmark input is not modified while it is mapped; a
    // concurrent writer could only change the bytes we read, not memory safety
    // of anything but the slice contents, which we treat as untrusted input.
    unsafe { Mmap::map(file) }
}

/// Finds the first game start at or after `from`: a `[` at the start of a
/// line that follows an empty line (`\n\n[` or `\n\r\n[`). Returns the offset
/// of the `[`, or `None` if there is none.
pub fn next_game_start(data: &[u8], from: usize) -> Option<usize> {
    let finder = memmem::Finder::new(b"\n[");
    let mut pos = from;
    while pos < data.len() {
        let hit = pos + finder.find(data.get(pos..)?)?;
        let before = &data[..hit];
        if before.ends_with(b"\n") || before.ends_with(b"\n\r") {
            return Some(hit + 1);
        }
        pos = hit + 1;
    }
    None
}

/// Cuts `data` into consecutive pieces of about `target` bytes, each ending
/// just before a game start (or at the end of the data). The pieces cover
/// `data` exactly, in order.
pub fn split(data: &[u8], target: usize) -> Vec<&[u8]> {
    let target = target.max(1);
    let mut pieces = Vec::with_capacity(data.len() / target + 1);
    let mut start = 0;
    while start < data.len() {
        let end = match next_game_start(data, start.saturating_add(target)) {
            Some(end) => end,
            None => data.len(),
        };
        pieces.push(&data[start..end]);
        start = end;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &[u8] = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n";

    #[test]
    fn finds_game_start_after_blank_line_only() {
        // The `[` of the tag section of game b; the tag line right after the
        // first tag line is no game start because no blank line precedes it.
        let text = b"[Event \"a\"]\n[Site \"x\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n";
        let start = next_game_start(text, 1);
        assert_eq!(
            start.map(|s| &text[s..s + 12]),
            Some(&b"[Event \"b\"]\n"[..])
        );
    }

    #[test]
    fn finds_crlf_game_start() {
        let text = b"[Event \"a\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"b\"]\r\n";
        let start = next_game_start(text, 1);
        assert_eq!(start.map(|s| &text[s..s + 11]), Some(&b"[Event \"b\"]"[..]));
    }

    #[test]
    fn split_covers_input_and_cuts_at_games() {
        let pieces = split(TWO_GAMES, 5);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces.concat(), TWO_GAMES);
        assert!(pieces[1].starts_with(b"[Event \"b\"]"));
        // A target beyond the data gives one piece.
        assert_eq!(split(TWO_GAMES, 1 << 20), vec![TWO_GAMES]);
        assert!(split(b"", 10).is_empty());
    }
}
