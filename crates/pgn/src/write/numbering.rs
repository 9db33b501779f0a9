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

/// The decimal digits of 0 to 99, two by two.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the `digits` decimal digits of `n` ([`digit_count`]) at the
/// start of `out`, two at a time (a move number takes one step).
#[inline(always)]
pub(super) fn put_digits(out: &mut [u8], mut n: u32, digits: usize) {
    let mut end = digits;
    while end >= 2 {
        let pair = (n % 100) as usize * 2;
        if let (Some(at), Some(two)) = (out.get_mut(end - 2..end), PAIRS.get(pair..pair + 2)) {
            at.copy_from_slice(two);
        }
        n /= 100;
        end -= 2;
    }
    if end == 1
        && let Some(first) = out.first_mut()
    {
        *first = b'0' + (n % 10) as u8;
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

pub(super) fn itoa_buf(n: u32) -> Digits {
    let mut buf = [0u8; 10];
    let digits = digit_count(n);
    let start = buf.len() - digits;
    if let Some(at) = buf.get_mut(start..) {
        put_digits(at, n, digits);
    }
    Digits { buf, start }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_those_of_the_standard_library() {
        // Expected: `u32`'s `Display`.
        let numbers = (0..=100_000u32).chain([999_999, 1_000_000, 123_456_789, u32::MAX]);
        for n in numbers {
            let mut out = [b'x'; 12];
            let digits = digit_count(n);
            put_digits(&mut out, n, digits);
            assert_eq!(&out[..digits], n.to_string().as_bytes(), "{n}");
            assert!(out[digits..].iter().all(|&b| b == b'x'), "{n}");
            assert_eq!(itoa_buf(n).as_slice(), n.to_string().as_bytes(), "{n}");
        }
    }

    #[test]
    fn numbers_render() {
        assert_eq!(itoa_buf(0).as_slice(), b"0");
        assert_eq!(itoa_buf(1234).as_slice(), b"1234");
        assert_eq!(itoa_buf(u32::MAX).as_slice(), b"4294967295");
    }
}
