//! Move numbers (`12.`, `12...`) and NAGs (`$1`) written without
//! allocation.

use super::movetext::Movetext;

/// What follows a move number: `. ` (White), `... ` (Black), or no number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Dots {
    White,
    Black,
    None,
}

impl Dots {
    /// The dots of a move: none without move numbers (`numbers` false);
    /// White's before a White move; Black's before a Black move that
    /// needs its number (`need_number`: it opens a line or follows a
    /// comment, a NAG or a variation).
    #[inline]
    pub(super) fn before(numbers: bool, white: bool, need_number: bool) -> Dots {
        if !numbers {
            Dots::None
        } else if white {
            Dots::White
        } else if need_number {
            Dots::Black
        } else {
            Dots::None
        }
    }
}

/// The number of decimal digits of `n`.
#[inline]
pub(super) fn digit_count(n: u32) -> usize {
    match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        _ => n.ilog10() as usize + 1,
    }
}

pub(super) fn push_number(item: &mut Vec<u8>, number: u32, dots: &[u8]) {
    item.extend_from_slice(itoa_buf(number).as_slice());
    item.extend_from_slice(dots);
}

pub(super) fn write_nag(mt: &mut Movetext<'_>, item: &mut Vec<u8>, n: u8) {
    item.clear();
    item.push(b'$');
    item.extend_from_slice(itoa_buf(u32::from(n)).as_slice());
    mt.item(item);
}

/// A small decimal rendering without allocation.
pub(super) struct Digits {
    buf: [u8; 10],
    start: usize,
}

impl Digits {
    pub(super) fn as_slice(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }
}

pub(super) fn itoa_buf(mut n: u32) -> Digits {
    let mut buf = [0u8; 10];
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || start == 0 {
            break;
        }
    }
    Digits { buf, start }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_render() {
        assert_eq!(itoa_buf(0).as_slice(), b"0");
        assert_eq!(itoa_buf(1234).as_slice(), b"1234");
        assert_eq!(itoa_buf(u32::MAX).as_slice(), b"4294967295");
    }
}
