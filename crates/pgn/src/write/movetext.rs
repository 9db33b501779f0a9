//! Line breaking: movetext items separated by one space, in lines shorter
//! than [`LINE_WIDTH`] characters, comments never broken.

use super::numbering::{Dots, digit_count, itoa_buf, put_digits};

/// Lines of movetext have fewer than this many characters (PGN §8.2.1:
/// "less than 80 printing characters"), comments longer than that aside.
pub const LINE_WIDTH: usize = 80;

/// Number of characters (not bytes) of UTF-8 text.
pub(super) fn width(text: &[u8]) -> usize {
    if text.len() < 16 {
        text.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
    } else {
        bytecount::num_chars(text)
    }
}

/// A movetext writer that separates items with one space and wraps lines
/// before [`LINE_WIDTH`] columns.
pub struct Movetext<'o> {
    pub(super) out: &'o mut Vec<u8>,
    column: usize,
    width: usize,
}

impl<'o> Movetext<'o> {
    /// Starts movetext at the beginning of a line of `out`.
    pub fn new(out: &'o mut Vec<u8>) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: LINE_WIDTH,
        }
    }

    /// Starts movetext whose lines are shorter than `width` characters
    /// (comments aside), or never broken when `width` is 0.
    pub fn with_width(out: &'o mut Vec<u8>, width: usize) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: if width == 0 { usize::MAX } else { width },
        }
    }

    /// Starts movetext that is never wrapped: one line (but for comments
    /// with line breaks), for a movetext shown inside other text.
    pub fn unwrapped(out: &'o mut Vec<u8>) -> Movetext<'o> {
        Movetext {
            out,
            column: 0,
            width: usize::MAX,
        }
    }

    fn separate(&mut self, first_line_width: usize) {
        if self.column > 0 {
            if self
                .column
                .saturating_add(1)
                .saturating_add(first_line_width)
                >= self.width
            {
                self.out.push(b'\n');
                self.column = 0;
            } else {
                self.out.push(b' ');
                self.column += 1;
            }
        }
    }

    /// Writes one item (a move, a move number and its move, a NAG, a
    /// parenthesis, a result): text without line breaks.
    pub fn item(&mut self, text: &[u8]) {
        let w = width(text);
        self.separate(w);
        self.out.extend_from_slice(text);
        self.column += w;
    }

    /// Writes a move, after its number when `number` is given (`12. `,
    /// `12... `): one item of `width` characters plus the number's.
    pub fn move_item(&mut self, number: Option<(u32, &[u8])>, text: &str, width: usize) {
        let number = number.map(|(n, dots)| (itoa_buf(n), dots));
        let w = width
            + number
                .as_ref()
                .map_or(0, |(digits, dots)| digits.as_slice().len() + dots.len());
        self.separate(w);
        if let Some((digits, dots)) = &number {
            self.out.extend_from_slice(digits.as_slice());
            self.out.extend_from_slice(dots);
        }
        self.out.extend_from_slice(text.as_bytes());
        self.column += w;
    }

    /// [`Movetext::move_item`] for the writer's moves: the number `number`
    /// with its dots (`12. `, `12... `, none: [`Dots`]), then the move
    /// `text` of `width` characters, copied 16 bytes at a time from
    /// `padded` (the 16 bytes from its start) when it is given. The
    /// separator, the number and the move go out in one copy.
    #[inline(always)]
    pub(super) fn written_move(
        &mut self,
        number: u32,
        dots: Dots,
        text: &[u8],
        width: usize,
        padded: Option<&[u8; 16]>,
    ) {
        let (dots, dots_len): ([u8; 4], usize) = match dots {
            Dots::White => (*b". \0\0", 2),
            Dots::Black => (*b"... ", 4),
            Dots::None => ([0; 4], 0),
        };
        let digits = if dots_len == 0 {
            0
        } else {
            digit_count(number)
        };
        let w = width + digits + dots_len;
        // Separator (1) + digits (at most 10) + dots (4) + move (16).
        let mut buf = [0u8; 32];
        let mut len = 0;
        if self.column > 0 {
            if self.column.saturating_add(1).saturating_add(w) >= self.width {
                buf[0] = b'\n';
                self.column = 0;
            } else {
                buf[0] = b' ';
                self.column += 1;
            }
            len = 1;
        }
        if let Some(at) = buf.get_mut(len..) {
            put_digits(at, number, digits);
        }
        len += digits;
        if let Some(at) = buf.get_mut(len..len + 4) {
            at.copy_from_slice(&dots);
        }
        len += dots_len;
        match padded {
            Some(bytes) if text.len() <= bytes.len() && len + 16 <= buf.len() => {
                if let Some(at) = buf.get_mut(len..len + 16) {
                    at.copy_from_slice(bytes);
                }
                len += text.len();
                let end = self.out.len() + len;
                self.out.extend_from_slice(&buf);
                self.out.truncate(end);
            }
            _ => {
                self.out
                    .extend_from_slice(buf.get(..len).unwrap_or_default());
                self.out.extend_from_slice(text);
            }
        }
        self.column += w;
    }

    /// Writes `{text}` as one item, never broken; `text` must hold no `}`
    /// (see [`Movetext::comment_any`]).
    fn brace_comment(&mut self, text: &[u8]) {
        match memchr::memchr2(b'\n', b'\r', text) {
            None => {
                let w = width(text) + 2;
                self.separate(w);
                self.write_braced(text);
                self.column += w;
            }
            Some(first) => {
                self.separate(width(&text[..first]) + 2);
                self.write_braced(text);
                let last = memchr::memrchr2(b'\n', b'\r', text).unwrap_or(first);
                self.column = width(&text[last + 1..]) + 1;
            }
        }
    }

    fn write_braced(&mut self, text: &[u8]) {
        self.out.reserve(text.len() + 2);
        self.out.push(b'{');
        self.out.extend_from_slice(text);
        self.out.push(b'}');
    }

    /// Writes a comment with any text: `{text}`, or, when the text holds a
    /// `}` (possible only in a `;` comment, which has no line break), the
    /// rest-of-line comment `;text` and a line break.
    pub fn comment_any(&mut self, text: &[u8]) {
        if memchr::memchr(b'}', text).is_none() {
            self.brace_comment(text);
        } else {
            let text: Vec<u8> = text
                .iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
                .collect();
            self.separate(width(&text) + 1);
            self.out.push(b';');
            self.out.extend_from_slice(&text);
            self.out.push(b'\n');
            self.column = 0;
        }
    }

    /// Writes an escape line (`%text`) on a line of its own.
    pub fn escape(&mut self, text: &[u8]) {
        if self.column > 0 {
            self.out.push(b'\n');
        }
        self.out.push(b'%');
        self.out.extend_from_slice(text);
        self.out.push(b'\n');
        self.column = 0;
    }

    /// Ends the movetext's last line; gives back the output.
    pub fn finish(self) -> &'o mut Vec<u8> {
        if self.column > 0 {
            self.out.push(b'\n');
        }
        self.out
    }

    /// Takes back what was written from byte `start` of the output on,
    /// the start of a line: the movetext starts again there.
    pub(super) fn rewind(&mut self, start: usize) {
        self.out.truncate(start);
        self.column = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_moves_are_the_items_move_item_writes() {
        // Numbers of 1 to 5 digits, both dots, no number, moves of 1 to 20
        // bytes (beyond the 16 of a fixed copy) and non-ASCII ones, with
        // line wraps: the writer's path and the general one agree.
        let texts = [
            "e4",
            "Ng1-f3+",
            "e7-e8=Q#",
            "♘f3",
            "Крg1",
            "N",
            "abcdefghijklmnopqrst",
        ];
        let mut fast = Vec::new();
        let mut general = Vec::new();
        let mut a = Movetext::new(&mut fast);
        let mut b = Movetext::new(&mut general);
        for (k, number) in [1u32, 9, 10, 99, 100, 999, 1000, 12345].iter().enumerate() {
            for (j, text) in texts.iter().enumerate() {
                let (dots, d): (Dots, Option<&[u8]>) = match (k + j) % 3 {
                    0 => (Dots::White, Some(b". ")),
                    1 => (Dots::Black, Some(b"... ")),
                    _ => (Dots::None, None),
                };
                let width = text.chars().count();
                let bytes = text.as_bytes();
                let mut padded = [b'#'; 16];
                let fits = bytes.len() <= 16;
                if fits {
                    padded[..bytes.len()].copy_from_slice(bytes);
                }
                a.written_move(*number, dots, bytes, width, fits.then_some(&padded));
                b.move_item(d.map(|d| (*number, d)), text, width);
            }
        }
        a.finish();
        b.finish();
        assert_eq!(String::from_utf8(fast), String::from_utf8(general.clone()));
        assert!(general.contains(&b'\n'), "the lines wrapped");
    }

    #[test]
    fn wraps_at_80_columns_and_keeps_comments_whole() {
        let mut out = Vec::new();
        let mut mt = Movetext::new(&mut out);
        for _ in 0..30 {
            mt.item(b"1. e4");
        }
        mt.comment_any(
            "a comment that is longer than anything else on the line, kept whole, é".as_bytes(),
        );
        mt.item(b"*");
        mt.finish();
        let text = String::from_utf8(out).expect("utf-8");
        for line in text.lines() {
            assert!(
                line.chars().count() < LINE_WIDTH || line.starts_with('{'),
                "{line:?}"
            );
        }
        assert!(
            text.contains(
                "{a comment that is longer than anything else on the line, kept whole, é}"
            )
        );
        assert!(text.ends_with(" *\n"));
    }

    #[test]
    fn semicolon_comment_with_brace_stays_a_line_comment() {
        let mut out = Vec::new();
        let mut mt = Movetext::new(&mut out);
        mt.item(b"1. e4");
        mt.comment_any(b"weird } text");
        mt.item(b"*");
        mt.finish();
        assert_eq!(out, b"1. e4 ;weird } text\n*\n");
    }
}
