//! Tag pairs: `[Name "value"]`, read the way a human reads them.
//!
//! - Spaces and tabs may surround the name, the value and the brackets: `[ Name  "v" ]`.
//! - A tag never spans lines; several tags (and movetext) may share one line.
//! - The value ends at the first `"` that is followed by optional spaces and `]`, with `\"` and `\\`
//!   taken as escapes: `[C "A]]"]` has the value `A]]`, `[E "\"A]][\""]` the value `"A]]["`.
//!   Unescaped quotes inside the value are therefore kept: `[Site "Club "Victory""]` has the value
//!   `Club "Victory"`.
//! - An escaped quote `\"` followed by `]` that ends the line (or is followed by the next `[`) closes the
//!   value, the backslash being literal: `[Event "Tournament \"]` has the raw value `Tournament \`.
//! - No closing quote on the line at all: [`crate::SyntaxErrorKind::UnterminatedTag`], spanning to the
//!   end of the line. A bracket without a quoted value (`[Foo bar]`, `[]`):
//!   [`crate::SyntaxErrorKind::BadTag`], spanning to the first `]` on the line or its end.

use std::ops::Range;

use crate::scan::find_quote_backslash_or_eol;

/// The outcome of reading a tag that starts at a `[`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TagParse {
    /// A well-formed tag.
    Tag {
        name: Range<usize>,
        value: Range<usize>,
        /// Offset just after the `]`.
        end: usize,
    },
    /// Not `[Name "value"]`; `end` is after the first `]` on the line, or the end of the line.
    Bad { end: usize },
    /// A value whose closing quote is missing; `end` is the end of the line.
    Unterminated { end: usize },
}

#[inline]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// End of the line that contains `from` (offset of its line break, or `limit`).
/// If `input[q..]` is optional blanks then `]` (on this line), the offset after the `]`.
#[inline]
fn closing_bracket(input: &[u8], mut q: usize, limit: usize) -> Option<usize> {
    while q < limit && is_blank(input[q]) {
        q += 1;
    }
    (q < limit && input[q] == b']').then_some(q + 1)
}

/// Whether a `[` at `pos` is followed by blanks, a name and blanks then a `"`: the start of a tag.
/// Scans only blanks and name bytes (which contain no `[`), so calling it at every `[` stays linear.
pub(crate) fn looks_like_tag(input: &[u8], pos: usize, limit: usize) -> bool {
    let mut i = pos + 1;
    while i < limit && is_blank(input[i]) {
        i += 1;
    }
    let name_start = i;
    while i < limit && is_name_byte(input[i]) {
        i += 1;
    }
    if i == name_start {
        return false;
    }
    while i < limit && is_blank(input[i]) {
        i += 1;
    }
    i < limit && input[i] == b'"'
}

#[inline]
fn is_name_byte(b: u8) -> bool {
    !(b.is_ascii_whitespace() || matches!(b, b'"' | b'[' | b']' | b'{' | b'}'))
}

/// Reads the tag whose `[` is at `pos`, not looking at or beyond `limit`. Scans at most to the end of
/// the tag, or to the end of the line when it returns `Unterminated`, so reading tag after tag is linear.
#[inline]
pub(crate) fn parse_tag(input: &[u8], pos: usize, limit: usize) -> TagParse {
    let mut i = pos + 1;
    while i < limit && is_blank(input[i]) {
        i += 1;
    }
    let name_start = i;
    while i < limit && is_name_byte(input[i]) {
        i += 1;
    }
    let name = name_start..i;
    while i < limit && is_blank(input[i]) {
        i += 1;
    }
    if name.is_empty() || i >= limit || input[i] != b'"' {
        let from = i.min(limit);
        let end = match memchr::memchr3(b']', b'\n', b'\r', &input[from..limit]) {
            Some(j) if input[from + j] == b']' => from + j + 1,
            Some(j) => from + j,
            None => limit,
        };
        return TagParse::Bad { end };
    }
    let value_start = i + 1;
    let line = &input[..limit];
    let mut q = value_start;
    while q < limit {
        q = find_quote_backslash_or_eol(line, q);
        let Some(&b) = line.get(q) else {
            break;
        };
        match b {
            b'"' => {
                if let Some(end) = closing_bracket(input, q + 1, limit) {
                    return TagParse::Tag {
                        name,
                        value: value_start..q,
                        end,
                    };
                }
                q += 1;
            }
            b'\\' => {
                match input.get(q + 1) {
                    Some(b'"') if q + 2 <= limit => {
                        // `\"` is an escaped quote, unless it is the last thing on the line before `]`:
                        // then the backslash was literal (`[Event "Tournament \"]`).
                        if let Some(end) = closing_bracket(input, q + 2, limit)
                            && ends_line(input, end, limit)
                        {
                            return TagParse::Tag {
                                name,
                                value: value_start..q + 1,
                                end,
                            };
                        }
                        q += 2;
                    }
                    Some(b'\\') if q + 2 <= limit => q += 2,
                    _ => q += 1,
                }
            }
            _ => break, // a line break
        }
    }
    TagParse::Unterminated { end: q.min(limit) }
}

/// Whether only blanks follow `q` up to the end of the line, the input or the next `[`.
fn ends_line(input: &[u8], mut q: usize, limit: usize) -> bool {
    while q < limit && is_blank(input[q]) {
        q += 1;
    }
    q >= limit || matches!(input[q], b'\n' | b'\r' | b'[')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str) -> Option<String> {
        match parse_tag(s.as_bytes(), 0, s.len()) {
            TagParse::Tag { value, .. } => Some(s[value].to_string()),
            _ => None,
        }
    }

    #[test]
    fn values() {
        assert_eq!(value(r#"[Event "x"]"#).as_deref(), Some("x"));
        assert_eq!(value(r#"[ Event   "x y"  ]"#).as_deref(), Some("x y"));
        assert_eq!(value(r#"[A "b\""]"#).as_deref(), Some(r#"b\""#));
        assert_eq!(
            value(r#"[F "\"A]][\"\\"]"#).as_deref(),
            Some(r#"\"A]][\"\\"#)
        );
        assert_eq!(
            value(r#"[Event "Tournament \"]"#).as_deref(),
            Some(r"Tournament \")
        );
        assert_eq!(
            value(r#"[White "Smith, John "The King""]"#).as_deref(),
            Some(r#"Smith, John "The King""#)
        );
        assert_eq!(value(r#"[Event ""]"#).as_deref(), Some(""));
    }

    #[test]
    fn broken() {
        let s = "[Foo bar] [X \"y\"]";
        assert_eq!(
            parse_tag(s.as_bytes(), 0, s.len()),
            TagParse::Bad { end: 9 }
        );
        let s = "[Event \"foo\n1. e4";
        assert_eq!(
            parse_tag(s.as_bytes(), 0, s.len()),
            TagParse::Unterminated { end: 11 }
        );
        let s = "[";
        assert_eq!(
            parse_tag(s.as_bytes(), 0, s.len()),
            TagParse::Bad { end: 1 }
        );
        let s = "[Event \"x\\";
        assert_eq!(
            parse_tag(s.as_bytes(), 0, s.len()),
            TagParse::Unterminated { end: 10 }
        );
    }
}
