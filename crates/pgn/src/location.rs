//! Line and column of byte offsets, for diagnostics.
//!
//! Lines are 1-based and end at `\n`, `\r\n` or a lone `\r`. Columns are 1-based and count characters:
//! UTF-8 sequences count as one, each byte of invalid UTF-8 counts as one.
//!
//! For many offsets in order, a forward-only [`Cursor`] ([`cursor`]).

pub mod cursor;

pub use cursor::{Cursor, Place, count_lines};

/// Line and column (both 1-based) of byte `offset` in `input`. An offset past the end is clamped to the
/// end. O(offset): for many look-ups build a [`LineIndex`].
pub fn line_col(input: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(input.len());
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    while let Some(j) = memchr::memchr2(b'\n', b'\r', &input[i..offset]) {
        let k = i + j;
        line += 1;
        line_start = k + 1;
        if input[k] == b'\r' && input.get(k + 1) == Some(&b'\n') {
            // `\r\n` is one line break; an offset on the `\n` stays on the line of the `\r`.
            if k + 1 >= offset {
                line -= 1;
                line_start = start_of_line_before(input, k);
                break;
            }
            line_start = k + 2;
            i = k + 2;
        } else {
            i = k + 1;
        }
    }
    (line, column(&input[line_start..offset]))
}

/// Start of the line that a line break at `k` ends.
fn start_of_line_before(input: &[u8], k: usize) -> usize {
    memchr::memrchr2(b'\n', b'\r', &input[..k]).map_or(0, |i| i + 1)
}

/// 1-based column after `prefix`: characters, invalid UTF-8 bytes counting one each.
fn column(prefix: &[u8]) -> usize {
    let mut n = 0;
    for chunk in prefix.utf8_chunks() {
        n += chunk.valid().chars().count() + chunk.invalid().len();
    }
    n + 1
}

/// The start offset of every line of an input, for fast line/column look-ups.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    input: &'a [u8],
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the lines of `input` (one pass).
    pub fn new(input: &'a [u8]) -> LineIndex<'a> {
        let mut starts = vec![0];
        let mut i = 0;
        while let Some(j) = memchr::memchr2(b'\n', b'\r', &input[i..]) {
            let k = i + j;
            let next = if input[k] == b'\r' && input.get(k + 1) == Some(&b'\n') {
                k + 2
            } else {
                k + 1
            };
            starts.push(next);
            i = next;
        }
        LineIndex { input, starts }
    }

    /// Line and column (1-based, as [`line_col`]) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.input.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts.get(line.wrapping_sub(1)).copied().unwrap_or(0);
        (line, column(&self.input[start..offset]))
    }

    /// The text of 1-based line `line`, without its line break (empty past the end).
    pub fn line(&self, line: usize) -> &'a [u8] {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return &[];
        };
        let end = memchr::memchr2(b'\n', b'\r', &self.input[start..])
            .map_or(self.input.len(), |j| start + j);
        &self.input[start..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let s = "ab\ncd\r\nКf3 x\rz\n".as_bytes();
        let idx = LineIndex::new(s);
        for off in 0..=s.len() + 2 {
            assert_eq!(line_col(s, off), idx.line_col(off), "offset {off}");
        }
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 2), (1, 3));
        assert_eq!(line_col(s, 3), (2, 1));
        assert_eq!(line_col(s, 6), (2, 4)); // the \n of \r\n
        assert_eq!(line_col(s, 7), (3, 1));
        // `К` is two bytes, one column.
        assert_eq!(line_col(s, 9), (3, 2));
        assert_eq!(line_col(s, 13), (3, 6));
        assert_eq!(line_col(s, 14), (4, 1));
        assert_eq!(idx.line(3), "Кf3 x".as_bytes());
        assert_eq!(idx.line(9), b"");
        // Latin-1: each invalid byte is a column.
        assert_eq!(line_col(b"\xe9\xe9x", 2), (1, 3));
    }
}

/// Lines and columns (1-based; columns count characters) of byte offsets
/// of one text, asked in any order, in time linear in the text for offsets
/// asked in increasing order and bounded by [`Places::STEP`] bytes for each
/// offset behind the last one.
///
/// A forward [`Cursor`] is kept, and a copy of it each [`Places::STEP`]
/// bytes it passes (a few dozen bytes each: 10 MB for 10 GB of text): an
/// offset behind the cursor resumes from the copy before it. Nothing is
/// computed before the first offset is asked.
///
/// ```
/// use pgnkit_pgn::location::Places;
///
/// let text = b"[Event \"x\"]\n\n1. e4 e5 *\n";
/// let places = Places::new(text);
/// assert_eq!(places.line_col(Some(19)), (Some(3), Some(7)));
/// assert_eq!(places.line_col(Some(0)), (Some(1), Some(1)));
/// assert_eq!(places.line_col(None), (None, None));
/// ```
pub struct Places<'a> {
    seek: std::cell::RefCell<Seek<'a>>,
}

/// The cursor of [`Places`] and its saved copies: `saved[k]` stands at
/// byte `k × STEP` (or the end of the text).
struct Seek<'a> {
    cursor: Cursor<'a>,
    saved: Vec<Cursor<'a>>,
}

impl<'a> Places<'a> {
    /// Bytes between two saved cursors: the most an offset behind the
    /// cursor costs to find.
    pub const STEP: usize = 64 << 10;

    /// The places of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Places<'a> {
        let cursor = Cursor::new(bytes, 0);
        Places {
            seek: std::cell::RefCell::new(Seek {
                saved: vec![cursor.clone()],
                cursor,
            }),
        }
    }

    /// The line and column of `offset` (`None` for `None`). An offset past
    /// the end is the end.
    pub fn line_col(&self, offset: Option<usize>) -> (Option<usize>, Option<usize>) {
        let Some(offset) = offset else {
            return (None, None);
        };
        // Only this method borrows, and it calls nothing that could come
        // back here.
        let Ok(mut seek) = self.seek.try_borrow_mut() else {
            return (None, None);
        };
        let (line, column) = seek.advance(offset);
        (Some(line.saturating_add(1)), Some(column))
    }
}

impl Seek<'_> {
    fn advance(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.cursor.position() {
            // The cursor is before `saved.len() × STEP`: the copy for
            // `offset` is there.
            let k = (offset / Places::STEP).min(self.saved.len().saturating_sub(1));
            if let Some(c) = self.saved.get(k) {
                self.cursor = c.clone();
            }
        }
        loop {
            let next = self.saved.len().saturating_mul(Places::STEP);
            if next > offset || self.cursor.position() >= next {
                break;
            }
            self.cursor.advance(next, true);
            if self.cursor.position() < next {
                // The end of the text: no further copy.
                break;
            }
            self.saved.push(self.cursor.clone());
        }
        self.cursor.advance(offset, true)
    }
}

#[cfg(test)]
mod places_tests {
    use super::*;

    /// Offsets asked forwards, backwards and at random over a text longer
    /// than several steps, with long lines, `\r\n` and `\r` line ends and
    /// multi-byte characters, are placed as [`line_col`] places them.
    #[test]
    fn places_in_any_order_are_the_places_of_line_col() {
        let mut text = Vec::new();
        let mut n = 0u32;
        while text.len() < 5 * Places::STEP {
            n = n.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            match n % 7 {
                0 => text.extend_from_slice(b"\r\n"),
                1 => text.push(b'\r'),
                2 => text.push(b'\n'),
                3 => text.extend_from_slice("Кf3 ".as_bytes()),
                4 => text.extend(std::iter::repeat_n(b'x', (n % 90_000) as usize)),
                _ => text.extend_from_slice(b"1. e4 e5 "),
            }
        }
        let len = text.len();
        let mut offsets: Vec<usize> = (0..len + 3).step_by(997).collect();
        offsets.extend((0..len).rev().step_by(1_499));
        let mut m = 7usize;
        for _ in 0..300 {
            m = m.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            offsets.push((m >> 20) % (len + 1));
        }
        let places = Places::new(&text);
        for &o in &offsets {
            let (line, column) = line_col(&text, o);
            assert_eq!(
                places.line_col(Some(o)),
                (Some(line), Some(column)),
                "offset {o}"
            );
        }
    }
}
