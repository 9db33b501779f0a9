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
/// of one text, all found in one forward pass whatever order they are
/// asked in.
///
/// ```
/// use pgnkit_pgn::location::Places;
///
/// let text = b"[Event \"x\"]\n\n1. e4 e5 *\n";
/// let places = Places::new(text, vec![19, 0]);
/// assert_eq!(places.line_col(Some(19)), (Some(3), Some(7)));
/// assert_eq!(places.line_col(Some(0)), (Some(1), Some(1)));
/// assert_eq!(places.line_col(Some(5)), (None, None));
/// ```
#[derive(Default)]
pub struct Places {
    /// Offset, line and column, sorted by offset.
    found: Vec<(usize, usize, usize)>,
}

impl Places {
    /// Finds the places of `offsets` in `bytes`.
    pub fn new(bytes: &[u8], mut offsets: Vec<usize>) -> Places {
        offsets.sort_unstable();
        offsets.dedup();
        let places = Cursor::new(bytes, 0).locate_many(&offsets, true);
        Places {
            found: offsets
                .into_iter()
                .zip(places)
                .map(|(o, p)| (o, p.line.saturating_add(1), p.column))
                .collect(),
        }
    }

    /// The line and column of `offset`, if it is known.
    pub fn line_col(&self, offset: Option<usize>) -> (Option<usize>, Option<usize>) {
        let Some(o) = offset else {
            return (None, None);
        };
        match self.found.binary_search_by_key(&o, |p| p.0) {
            Ok(k) => self
                .found
                .get(k)
                .map_or((None, None), |p| (Some(p.1), Some(p.2))),
            Err(_) => (None, None),
        }
    }
}
