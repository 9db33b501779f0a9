//! Line and column of byte offsets inside a chunk, found lazily: the cursor
//! only moves forward, counting line breaks (`\n`, `\r\n`, or a lone `\r`)
//! as it goes.

/// Counts the line breaks in `bytes` (`\n`, and `\r` not followed by `\n`).
pub fn count_lines(bytes: &[u8]) -> usize {
    let lf = bytecount::count(bytes, b'\n');
    let cr = bytecount::count(bytes, b'\r');
    if cr == 0 {
        return lf;
    }
    // A `\r\n` is one break, counted as its `\n`. The pairs are counted
    // in blocks of fixed length, which the compiler turns into vector
    // compares (a file written on Windows has a `\r` a line: one call of
    // a search per line would cost more than the count).
    const BLOCK: usize = 64;
    let firsts = bytes
        .get(..bytes.len().saturating_sub(1))
        .unwrap_or_default();
    let seconds = bytes.get(1..).unwrap_or_default();
    let mut pairs = 0usize;
    let mut a = firsts.chunks_exact(BLOCK);
    let mut b = seconds.chunks_exact(BLOCK);
    for (x, y) in (&mut a).zip(&mut b) {
        let mut in_block = 0u8;
        for (&x, &y) in x.iter().zip(y) {
            in_block += u8::from(x == b'\r') & u8::from(y == b'\n');
        }
        pairs += usize::from(in_block);
    }
    pairs += a
        .remainder()
        .iter()
        .zip(b.remainder())
        .filter(|&(&x, &y)| x == b'\r' && y == b'\n')
        .count();
    lf + (cr - pairs)
}

/// Where an offset is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Line breaks before the offset, counted from the cursor's start.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
    /// Byte range of the whole line (without its line break).
    pub line_range: std::ops::Range<usize>,
}

/// A forward-only cursor over `data[start..]`. Every byte is looked at a
/// bounded number of times however many offsets are located, also on one
/// very long line.
#[derive(Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    start: usize,
    pos: usize,
    line: usize,
    /// Start and end of the line `pos` is on.
    line_start: usize,
    line_end: Option<usize>,
    /// Characters and bytes from `line_start` to `pos`.
    chars_before: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor whose line 0 starts at `start` (at most the end of `data`).
    pub fn new(data: &'a [u8], start: usize) -> Cursor<'a> {
        let start = start.min(data.len());
        Cursor {
            data,
            start,
            pos: start,
            line: 0,
            line_start: start,
            line_end: None,
            chars_before: 0,
        }
    }

    /// The places of `offsets` (in the order given), located in increasing
    /// order: the cursor never goes back to its start, so locating the
    /// diagnostics of game after game stays linear in the input whatever
    /// order each game's diagnostics come in.
    pub fn locate_many(&mut self, offsets: &[usize], chars: bool) -> Vec<Place> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_by_key(|&k| offsets.get(k).copied().unwrap_or(0));
        let mut places = vec![
            Place {
                line: 0,
                column: 0,
                line_range: 0..0,
            };
            offsets.len()
        ];
        for k in order {
            if let (Some(&offset), Some(slot)) = (offsets.get(k), places.get_mut(k)) {
                *slot = self.locate(offset, chars);
            }
        }
        places
    }

    /// The place of `offset`; `chars` says whether to count UTF-8 characters
    /// (or bytes, for input decoded as Latin-1). An offset before the last
    /// one located starts the count again from the cursor's start: see
    /// [`Cursor::locate_many`].
    pub fn locate(&mut self, offset: usize, chars: bool) -> Place {
        let (line, column) = self.advance(offset, chars);
        let offset = self.pos;
        let line_end = *self.line_end.get_or_insert_with(|| {
            memchr::memchr2(b'\n', b'\r', &self.data[offset..])
                .map_or(self.data.len(), |i| offset + i)
        });
        Place {
            line,
            column,
            line_range: self.line_start..line_end,
        }
    }

    /// Moves to `end` and gives the line breaks from the cursor's start to
    /// there as [`count_lines`] counts those of `data[start..end]`: a `\r`
    /// just before `end` is a break even when a `\n` follows at `end`.
    /// Moved game after game while each game's bytes are still in cache,
    /// the cursor counts a chunk's lines without a second pass over it.
    pub fn lines_to(&mut self, end: usize) -> usize {
        let (line, _) = self.advance(end, false);
        let end = self.pos;
        let split = end > self.start
            && self.data.get(end - 1) == Some(&b'\r')
            && self.data.get(end) == Some(&b'\n');
        line.saturating_add(usize::from(split))
    }

    /// The byte offset the cursor stands at.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves to `offset` (from the start again if it is behind) and gives
    /// its line breaks from the start and its 1-based column, as
    /// [`Cursor::locate`] does, without looking for the end of its line.
    pub fn advance(&mut self, offset: usize, chars: bool) -> (usize, usize) {
        // Offsets outside `start..=data.len()` are clamped into it.
        let offset = offset.clamp(self.start, self.data.len());
        if offset < self.pos {
            *self = Cursor::new(self.data, self.start);
        }
        let segment = &self.data[self.pos..offset];
        let mut breaks = count_lines(segment);
        // A `\r\n` split by the offset counts once.
        if offset > self.pos
            && self.data[offset - 1] == b'\r'
            && self.data.get(offset) == Some(&b'\n')
        {
            breaks = breaks.saturating_sub(1);
        }
        let count = |b: &[u8]| b.iter().filter(|&&c| c & 0xC0 != 0x80).count();
        if breaks == 0 && !(offset > self.pos && self.data[offset - 1] == b'\r') {
            self.chars_before = self.chars_before.saturating_add(count(segment));
        } else {
            self.line = self.line.saturating_add(breaks);
            self.line_start =
                memchr::memrchr2(b'\n', b'\r', segment).map_or(self.pos, |i| self.pos + i + 1);
            self.line_end = None;
            self.chars_before = count(&self.data[self.line_start..offset]);
        }
        self.pos = offset;
        let column = if chars {
            self.chars_before
        } else {
            offset.saturating_sub(self.line_start)
        }
        .saturating_add(1);
        (self.line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_with_mixed_line_ends() {
        let data = "a\r\nbb\rКf3 x\nz".as_bytes();
        let mut c = Cursor::new(data, 0);
        let k = data.iter().position(|&b| b == b'x').unwrap();
        let p = c.locate(k, true);
        assert_eq!(p.line, 2);
        assert_eq!(p.column, 5); // К f 3 space x
        assert_eq!(count_lines(data), 3);
        let z = c.locate(data.len() - 1, true);
        // Several offsets on one line, and back to the start.
        let mut c = Cursor::new(data, 0);
        assert_eq!(c.locate(6, true).column, 1); // К
        assert_eq!(c.locate(8, true).column, 2); // f
        assert_eq!(c.locate(9, true).column, 3); // 3
        assert_eq!(c.locate(0, true).line, 0);
        assert_eq!(c.locate(data.len(), true).line, 3);
        assert_eq!((z.line, z.column), (3, 1));
    }

    #[test]
    fn lines_counted_piece_by_piece_are_those_of_the_whole() {
        // Every cut of every mix of line ends, against `count_lines` of the
        // whole and a count by hand of the breaks (`\n`, `\r\n`, lone `\r`).
        let data = b"a\r\nb\rc\n\r\r\nd\n\n\re\r";
        let by_hand = |b: &[u8]| {
            (0..b.len())
                .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
                .count()
        };
        for start in 0..=data.len() {
            for end in start..=data.len() {
                assert_eq!(count_lines(&data[start..end]), by_hand(&data[start..end]));
                for cut in start..=end {
                    let mut c = Cursor::new(data, start);
                    c.advance(cut, true);
                    assert_eq!(
                        c.lines_to(end),
                        by_hand(&data[start..end]),
                        "{start} {cut} {end}"
                    );
                }
            }
        }
    }

    #[test]
    fn many_offsets_in_any_order_are_located_as_one_by_one() {
        let data = "1. e4\r\ne5 {é}\r2. Nf3\nNc6 *".as_bytes();
        let offsets = [20, 3, 0, 11, 27, 3, 9, 100];
        let places = Cursor::new(data, 0).locate_many(&offsets, true);
        for (&o, p) in offsets.iter().zip(&places) {
            assert_eq!(*p, Cursor::new(data, 0).locate(o, true), "offset {o}");
        }
        // A start past the end is the end; an offset before the start is
        // the start.
        assert_eq!(Cursor::new(data, 500).locate(0, false).column, 1);
        let mut c = Cursor::new(data, 9);
        assert_eq!(c.locate(3, true), Cursor::new(data, 9).locate(9, true));
    }
}
