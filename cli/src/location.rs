//! Line and column of byte offsets inside a chunk, found lazily: the cursor
//! only moves forward, counting line breaks (`\n`, `\r\n`, or a lone `\r`)
//! as it goes.

/// Counts the line breaks in `bytes` (`\n`, and `\r` not followed by `\n`).
pub fn count_lines(bytes: &[u8]) -> usize {
    let lf = bytecount::count(bytes, b'\n');
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf;
    }
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count();
    lf + lone_cr
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

/// A forward-only cursor over `data[start..]`.
pub struct Cursor<'a> {
    data: &'a [u8],
    start: usize,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor whose line 0 starts at `start`.
    pub fn new(data: &'a [u8], start: usize) -> Cursor<'a> {
        Cursor {
            data,
            start,
            pos: start,
            line: 0,
        }
    }

    /// The place of `offset`; `chars` says whether to count UTF-8 characters
    /// (or bytes, for input decoded as Latin-1).
    pub fn locate(&mut self, offset: usize, chars: bool) -> Place {
        let offset = offset.min(self.data.len());
        if offset < self.pos {
            self.pos = self.start;
            self.line = 0;
        }
        self.line += count_lines(&self.data[self.pos..offset]);
        // A `\r\n` split by the offset counts once.
        if offset > self.pos
            && self.data[offset - 1] == b'\r'
            && self.data.get(offset) == Some(&b'\n')
        {
            self.line -= 1;
        }
        self.pos = offset;
        let line_start = memchr::memrchr2(b'\n', b'\r', &self.data[self.start..offset])
            .map_or(self.start, |i| self.start + i + 1);
        let line_end = memchr::memchr2(b'\n', b'\r', &self.data[offset..])
            .map_or(self.data.len(), |i| offset + i);
        let before = &self.data[line_start..offset];
        let column = if chars {
            before.iter().filter(|&&b| b & 0xC0 != 0x80).count()
        } else {
            before.len()
        } + 1;
        Place {
            line: self.line,
            column,
            line_range: line_start..line_end,
        }
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
        assert_eq!((z.line, z.column), (3, 1));
    }
}
