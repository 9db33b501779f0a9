//! Hard game boundaries: places where a game certainly starts, whatever came before.
//!
//! A *hard boundary* is a `[` right after a UTF-8 byte order mark at the start of a line (the start of
//! a file, in files concatenated with `cat`), or a `[` that
//! 1. follows an empty line: it is preceded by `\n\n`, `\n\r\n` or `\r\r`, and
//! 2. is not the continuation of a tag section split by an empty line (ChessBase writes
//!    `[Event "..."]`, an empty line, then the other tags): when the last non-blank line before it is a
//!    tag-looking line (`[` ... `]` after trimming), the `[` is a hard boundary only if it opens an
//!    `Event` tag (`[Event "`, blanks allowed), or the tag section before it is complete (two tag lines
//!    or more: results exports write games of tags only, one after the other), or it repeats the name
//!    of the one tag before it.
//!
//! The predicate only looks at the `[`, the blank lines before it and the two lines before them,
//! so it gives the same answer whether the input is lexed whole or cut into pieces at hard boundaries. The
//! [`crate::Reader`] always ends the current game at a hard boundary (even inside an unterminated comment
//! or variation), so lexing the pieces separately gives exactly the games of the whole.

use std::ops::Range;

/// The UTF-8 byte order mark. Files saved on Windows start with one, so a concatenation of such files
/// has one at the start of each; it is whitespace wherever it stands between tokens.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether `input[pos]` is a `[` at a hard game boundary (see the module docs). Offset 0 is not reported
/// here (see [`game_starts_near`]).
#[inline]
pub fn is_hard_boundary(input: &[u8], pos: usize) -> bool {
    // Most `[` follow a line break and a tag, no empty line and no byte
    // order mark: the bytes before it settle it.
    let Some(&[b2, b1, b'[']) = pos.checked_sub(2).and_then(|p| input.get(p..=pos)) else {
        return false;
    };
    let maybe = match (b2, b1) {
        (_, 0xBF) | (b'\n', b'\n') | (b'\r', b'\r') => true,
        (b'\r', b'\n') => pos >= 3 && input[pos - 3] == b'\n',
        _ => false,
    };
    maybe && hard_boundary_after_break(input, pos)
}

/// [`is_hard_boundary`] of a `[` after two line breaks or a byte order mark.
#[inline(never)]
fn hard_boundary_after_break(input: &[u8], pos: usize) -> bool {
    if input.get(pos) != Some(&b'[') {
        return false;
    }
    // A byte order mark at the start of a line right before the `[`: the start of a file, in files
    // concatenated with `cat`. (At the start of a line, so that nothing lexed on one line, a tag or a
    // `;` comment, reaches over it.)
    if pos >= 3
        && &input[pos - 3..pos] == BOM
        && (pos == 3 || matches!(input[pos - 4], b'\n' | b'\r'))
    {
        return true;
    }
    let at = pos;
    if at < 2 {
        return false;
    }
    let b1 = input[at - 1];
    let b2 = input[at - 2];
    let blank_before = match (b2, b1) {
        (b'\n', b'\n') | (b'\r', b'\r') => true,
        (b'\r', b'\n') => at >= 3 && input[at - 3] == b'\n',
        _ => false,
    };
    if !blank_before {
        return false;
    }
    if opens_event_tag(&input[pos..]) {
        return true;
    }
    let Some(previous) = previous_tag_line(input, at) else {
        return true;
    };
    // The previous tag section is complete (two tag lines or more), or the new one repeats its one tag:
    // a new game. A single tag line followed by an empty line and more tags is ChessBase's split section.
    line_before_is_tag(input, previous.start)
        || tag_name(&input[pos..]) == tag_name(&input[previous])
}

/// Whether `s` starts with `[`, optional blanks, `Event`, optional blanks and `"`.
fn opens_event_tag(s: &[u8]) -> bool {
    tag_name(s) == Some(b"Event") && {
        let rest = &s[1..];
        let rest = &rest[blanks(rest)..];
        let rest = &rest[5..];
        rest[blanks(rest)..].starts_with(b"\"")
    }
}

fn blanks(s: &[u8]) -> usize {
    s.iter().take_while(|&&b| b == b' ' || b == b'\t').count()
}

/// The name of the tag that `s` starts with (`[`, blanks, the name up to a blank or `"`), if any.
fn tag_name(s: &[u8]) -> Option<&[u8]> {
    let rest = s.strip_prefix(b"[")?;
    let rest = &rest[blanks(rest)..];
    let len = rest
        .iter()
        .take(256)
        .take_while(|&&b| !(b.is_ascii_whitespace() || b == b'"' || b == b']' || b == b'['))
        .count();
    (len > 0).then(|| &rest[..len])
}

/// The last non-blank line before `pos` when it looks like a tag line (after trimming blanks and a byte
/// order mark it starts with `[` and ends with `]`): its range, trimmed.
fn previous_tag_line(input: &[u8], pos: usize) -> Option<std::ops::Range<usize>> {
    let mut end = pos;
    while end > 0 && input[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    if end == 0 || input[end - 1] != b']' {
        return None;
    }
    let line_start = memchr::memrchr2(b'\n', b'\r', &input[..end]).map_or(0, |i| i + 1);
    let mut start = line_start;
    if input[start..end].starts_with(BOM) {
        start += BOM.len();
    }
    start += blanks(&input[start..end]);
    (input.get(start) == Some(&b'[')).then_some(start..end)
}

/// Whether the line just before the line that contains `pos` (no blank line between) is a tag line.
fn line_before_is_tag(input: &[u8], pos: usize) -> bool {
    let Some(eol) = memchr::memrchr2(b'\n', b'\r', &input[..pos]) else {
        return false;
    };
    // Step over the line break (`\r\n` counts as one) and stop at an empty line.
    let mut end = eol;
    if input[end] == b'\n' && end > 0 && input[end - 1] == b'\r' {
        end -= 1;
    }
    let line_start = memchr::memrchr2(b'\n', b'\r', &input[..end]).map_or(0, |i| i + 1);
    let line = &input[line_start..end];
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let line = &line[blanks(line)..];
    let trimmed = line.trim_ascii_end();
    trimmed.starts_with(b"[") && trimmed.ends_with(b"]")
}

/// The first offset at or after `approx` where a game certainly starts: offset 0 or a hard boundary
/// (see the module docs). `None` when there is none before the end of `input`.
///
/// Lexing `input[a..b]` for consecutive such offsets `a`, `b` (with [`crate::Reader::with_range`]) gives
/// the same games, in the same order, as lexing the whole input.
pub fn game_starts_near(input: &[u8], approx: usize) -> Option<usize> {
    if approx == 0 {
        return Some(0);
    }
    let mut from = approx;
    while from < input.len() {
        let i = from + memchr::memchr(b'[', &input[from..])?;
        if is_hard_boundary(input, i) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// Cuts `input` into about `pieces` consecutive ranges that start at hard boundaries (see
/// [`game_starts_near`]), for lexing in parallel. The ranges cover the whole input, in order; there may be
/// fewer than asked (never zero unless the input is empty).
pub fn split_at_games(input: &[u8], pieces: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    if input.is_empty() {
        return out;
    }
    let step = (input.len() / pieces.max(1)).max(1);
    let mut start = 0;
    while start < input.len() {
        let next = game_starts_near(input, start.saturating_add(step).max(start + 1));
        match next {
            Some(n) => {
                out.push(start..n);
                start = n;
            }
            None => {
                out.push(start..input.len());
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(is_hard_boundary(b"1-0\n\n[Event \"x\"]", 5));
        assert!(is_hard_boundary(b"1-0\r\n\r\n[Site \"x\"]", 7));
        assert!(is_hard_boundary(b"1-0\r\r[Site \"x\"]", 5));
        assert!(!is_hard_boundary(b"1-0\n[Event \"x\"]", 4));
        assert!(!is_hard_boundary(b"1-0\n \n[Event \"x\"]", 6));
        // ChessBase: an empty line inside the tag section.
        assert!(!is_hard_boundary(b"[Event \"x\"]\n\n[Date \"y\"]", 13));
        // ... but a new Event after a tags-only game is a new game.
        assert!(is_hard_boundary(b"[Event \"x\"]\n\n[Event \"y\"]", 13));
        // A complete tag section (two lines or more) then an empty line: a new game, Event or not.
        assert!(is_hard_boundary(
            b"[White \"a\"]\n[Black \"b\"]\n\n[White \"c\"]",
            25
        ));
        assert!(is_hard_boundary(
            b"[White \"a\"]\r\n[Black \"b\"]\r\n\r\n[White \"c\"]",
            28
        ));
        // One tag line repeated after an empty line: a new game.
        assert!(is_hard_boundary(b"[Round \"1\"]\n\n[Round \"2\"]", 13));
        // A byte order mark before the `[` (concatenated files).
        assert!(is_hard_boundary(b"1-0\n\n\xEF\xBB\xBF[Event \"x\"]", 8));
        assert!(is_hard_boundary(b"1-0\n\n\xEF\xBB\xBF[Site \"x\"]", 8));
        assert!(is_hard_boundary(b"[A \"b\"]\n\xEF\xBB\xBF[Site \"x\"]", 11));
    }

    #[test]
    fn the_bytes_before_settle_it_as_the_whole_test_does() {
        // The quick look at the bytes before a `[` never says no where
        // the whole test (all it used to be) says yes.
        let texts: [&[u8]; 6] = [
            b"[A \"b\"]\r\n[C \"d\"]\r\n\r\n[A \"e\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"x\"]",
            b"[A \"b\"]\n[C \"d\"]\n\n[E \"e\"]\n\n1. e4 *\n\n[Event \"x\"]\r\r[B \"y\"]",
            b"\xEF\xBB\xBF[Event \"x\"]\n\xEF\xBB\xBF[Site \"y\"]\n\r\n[Site \"z\"]",
            b"[[[\n[\n\n[\r[\r\r[\n\r[\r\n[\r\n\r\n[",
            b"1-0\n\n[Round \"1\"]\n\n[Round \"2\"]\n\n[Round \"2\"]",
            b"",
        ];
        for text in texts {
            for pos in 0..text.len() + 2 {
                let whole = text.get(pos) == Some(&b'[') && hard_boundary_after_break(text, pos);
                assert_eq!(is_hard_boundary(text, pos), whole, "{text:?} at {pos}");
            }
        }
    }

    #[test]
    fn starts_and_splits() {
        let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(game_starts_near(pgn, 0), Some(0));
        assert_eq!(game_starts_near(pgn, 1), Some(22));
        assert_eq!(game_starts_near(pgn, 22), Some(22));
        assert_eq!(game_starts_near(pgn, 23), None);
        assert_eq!(split_at_games(pgn, 2), vec![0..22, 22..pgn.len()]);
        assert_eq!(split_at_games(pgn, 100), vec![0..22, 22..pgn.len()]);
        assert_eq!(split_at_games(b"", 4), Vec::<Range<usize>>::new());
    }
}
