//! Byte scanning eight bytes at a time in a `u64` (SWAR), without `unsafe`.

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `x` that is below `n` (`n` <= 0x80); the lowest set bit is exact.
#[inline(always)]
pub(crate) fn bytes_below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS
}

/// High bit set in each byte of `x` equal to `c`; the lowest set bit is exact.
#[inline(always)]
pub(crate) fn bytes_equal(x: u64, c: u8) -> u64 {
    bytes_below(x ^ (ONES * u64::from(c)), 1)
}

/// The first offset at or after `i` in `buf` whose byte is `"`, `\\`, LF or CR, or `buf.len()`.
#[inline]
pub(crate) fn find_quote_backslash_or_eol(buf: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = buf.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        let m = bytes_equal(x, b'"')
            | bytes_equal(x, b'\\')
            | bytes_equal(x, b'\n')
            | bytes_equal(x, b'\r');
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = buf.get(i) {
        if matches!(b, b'"' | b'\\' | b'\n' | b'\r') {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_find_the_first_match() {
        for s in [
            &b"abcdefgh"[..],
            b"ab\"cdefg",
            b"\xff\x80\x00\x01a\nbc",
            b"ab\\d\"\"\n\r",
        ] {
            let x = u64::from_le_bytes(*s.first_chunk::<8>().unwrap_or(&[0; 8]));
            let first_below = s.iter().position(|&b| b < 0x21);
            let m = bytes_below(x, 0x21);
            assert_eq!(
                (m != 0).then(|| (m.trailing_zeros() / 8) as usize),
                first_below,
                "{s:?}"
            );
            let first_quote = s.iter().position(|&b| b == b'"');
            let m = bytes_equal(x, b'"');
            assert_eq!(
                (m != 0).then(|| (m.trailing_zeros() / 8) as usize),
                first_quote
            );
            let first = s
                .iter()
                .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
                .unwrap_or(8);
            assert_eq!(find_quote_backslash_or_eol(s, 0), first);
        }
        assert_eq!(find_quote_backslash_or_eol(b"0123456789ab\"", 0), 12);
        assert_eq!(find_quote_backslash_or_eol(b"0123456789ab", 3), 12);
    }
}
