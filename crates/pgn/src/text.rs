//! Decoding a game's bytes: UTF-8 (a BOM is the lexer's business), or, when a
//! game is not valid UTF-8, Windows-1252 (a superset of Latin-1 for text).

use std::borrow::Cow;

/// The encoding a game was read in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Valid UTF-8 (ASCII included).
    Utf8,
    /// Not UTF-8: decoded byte by byte as Windows-1252.
    Windows1252 {
        /// Offset (in the game's bytes) of the first byte that is not UTF-8.
        first_invalid: usize,
    },
}

impl Encoding {
    /// Finds the encoding of `bytes`.
    #[inline]
    pub fn detect(bytes: &[u8]) -> Encoding {
        match utf8(bytes) {
            Ok(_) => Encoding::Utf8,
            Err(first_invalid) => Encoding::Windows1252 { first_invalid },
        }
    }

    /// Decodes a slice of the game (a token, a tag value, a comment).
    #[inline]
    pub fn decode<'a>(self, bytes: &'a [u8]) -> Cow<'a, str> {
        match self {
            Encoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => String::from_utf8_lossy(bytes),
            },
            Encoding::Windows1252 { .. } => {
                if bytes.is_ascii() {
                    // Safe path without a copy.
                    String::from_utf8_lossy(bytes)
                } else {
                    // Without byte order mark sniffing: Latin-1 text that
                    // starts with `þÿ` or `ï»¿` is still Latin-1 (found by
                    // fuzzing).
                    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
                    Cow::Owned(text.into_owned())
                }
            }
        }
    }
}

/// `bytes` as UTF-8, or the offset of the first byte that is not. Valid
/// text, nearly all of it, is checked with vector instructions (a whole
/// game's comments are many bytes); only invalid text is looked at again,
/// by the standard library, for where it goes wrong.
#[inline]
fn utf8(bytes: &[u8]) -> Result<&str, usize> {
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        return Ok(s);
    }
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
}

/// A game's text: validated once as a whole, then sliced per token without
/// validating again.
#[derive(Copy, Clone, Debug)]
pub struct GameText<'a> {
    utf8: Option<&'a str>,
    base: usize,
    encoding: Encoding,
}

impl From<Encoding> for GameText<'_> {
    /// A text that decodes each token on its own (no whole-game validation).
    fn from(encoding: Encoding) -> Self {
        GameText {
            utf8: None,
            base: 0,
            encoding,
        }
    }
}

impl<'a> GameText<'a> {
    /// The text of the game at `span` of `input`.
    #[inline]
    pub fn new(input: &'a [u8], span: std::ops::Range<usize>) -> GameText<'a> {
        let bytes = input.get(span.clone()).unwrap_or_default();
        match utf8(bytes) {
            Ok(s) => GameText {
                utf8: Some(s),
                base: span.start,
                encoding: Encoding::Utf8,
            },
            Err(first_invalid) => GameText {
                utf8: None,
                base: span.start,
                encoding: Encoding::Windows1252 { first_invalid },
            },
        }
    }

    /// The encoding the game is read in.
    #[inline]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Decodes `bytes`, a slice of the game's own bytes (a token's text, a
    /// comment, a tag's name or value), without validating it again. Bytes
    /// from elsewhere (an unescaped copy of a value) are decoded on their
    /// own.
    #[inline]
    pub fn decode<'b>(&self, bytes: &'b [u8]) -> Cow<'b, str>
    where
        'a: 'b,
    {
        if let Some(s) = self.utf8 {
            // Where `bytes` starts in the game's text, if it is part of it.
            let start = (bytes.as_ptr() as usize).wrapping_sub(s.as_ptr() as usize);
            if let Some(part) = start
                .checked_add(bytes.len())
                .and_then(|end| s.get(start..end))
            {
                return Cow::Borrowed(part);
            }
        }
        self.encoding.decode(bytes)
    }

    /// The text of a token with `bytes` at `span` (absolute in the input).
    #[inline]
    pub fn slice(&self, span: std::ops::Range<usize>, bytes: &'a [u8]) -> Cow<'a, str> {
        if let Some(s) = self.utf8 {
            let range = span
                .start
                .checked_sub(self.base)
                .zip(span.end.checked_sub(self.base));
            if let Some(word) = range.and_then(|(a, b)| s.get(a..b)) {
                return Cow::Borrowed(word);
            }
        }
        self.encoding.decode(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_that_looks_like_a_byte_order_mark_stays_latin1() {
        let enc = Encoding::Windows1252 { first_invalid: 0 };
        assert_eq!(enc.decode(b"\xfe\xffA"), "þÿA");
        assert_eq!(enc.decode(b"\xef\xbb\xbfA"), "ï»¿A");
    }

    #[test]
    fn latin1_names_decode() {
        // "Müller" in Latin-1, as in the Kasparov player file of the corpus.
        let bytes = b"M\xfcller";
        let enc = Encoding::detect(bytes);
        assert_eq!(enc, Encoding::Windows1252 { first_invalid: 1 });
        assert_eq!(enc.decode(bytes), "Müller");
        assert_eq!(Encoding::detect("Müller".as_bytes()), Encoding::Utf8);
    }

    #[test]
    fn decode_slices_the_validated_text_and_decodes_the_rest() {
        let input = "[White \"Müller\"] 1. e4 { très bien } *".as_bytes();
        let text = GameText::new(input, 0..input.len());
        assert_eq!(text.encoding(), Encoding::Utf8);
        let open = input.iter().position(|&b| b == b'{').expect("comment");
        let comment = &input[open + 1..open + 13];
        assert!(matches!(text.decode(comment), Cow::Borrowed(" très bien ")));
        // Not part of the game: decoded on its own.
        let other = b"Caf\xe9".to_vec();
        assert_eq!(text.decode(&other), "Caf\u{FFFD}");
        let latin1 = b"[White \"M\xfcller\"]";
        let text = GameText::new(latin1, 0..latin1.len());
        assert_eq!(text.decode(&latin1[8..14]), "Müller");
    }

    #[test]
    fn detection_agrees_with_the_standard_library() {
        // Text long enough for the vector path (64 bytes and more), with a
        // byte that breaks UTF-8 at every offset: a lone continuation, a
        // Latin-1 letter, a truncated sequence, a surrogate, an overlong
        // form. The reference is `std::str::from_utf8`.
        let text = "1. e4 { très bien, «Müller» – ♘f3 } e5 2. Nf3 Nc6 3. Bb5 a6 ".repeat(3);
        let bytes = text.as_bytes();
        let breakers: [&[u8]; 5] = [b"\x80", b"\xfc", b"\xe2\x99", b"\xed\xa0\x80", b"\xc0\xaf"];
        let mut tried = 0;
        for at in 0..=bytes.len() {
            for breaker in breakers {
                let mut v = bytes[..at].to_vec();
                v.extend_from_slice(breaker);
                v.extend_from_slice(&bytes[at..]);
                let expected = match std::str::from_utf8(&v) {
                    Ok(_) => Encoding::Utf8,
                    Err(e) => Encoding::Windows1252 {
                        first_invalid: e.valid_up_to(),
                    },
                };
                assert_eq!(Encoding::detect(&v), expected, "at {at}");
                assert_eq!(GameText::new(&v, 0..v.len()).encoding(), expected);
                tried += 1;
            }
        }
        assert_eq!(Encoding::detect(bytes), Encoding::Utf8);
        assert!(tried > 1000);
    }
}
