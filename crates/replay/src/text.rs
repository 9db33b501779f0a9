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
    pub fn detect(bytes: &[u8]) -> Encoding {
        match std::str::from_utf8(bytes) {
            Ok(_) => Encoding::Utf8,
            Err(e) => Encoding::Windows1252 {
                first_invalid: e.valid_up_to(),
            },
        }
    }

    /// Decodes a slice of the game (a token, a tag value, a comment).
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
                    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
                    Cow::Owned(text.into_owned())
                }
            }
        }
    }
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
    pub fn new(input: &'a [u8], span: std::ops::Range<usize>) -> GameText<'a> {
        let bytes = input.get(span.clone()).unwrap_or_default();
        match std::str::from_utf8(bytes) {
            Ok(s) => GameText {
                utf8: Some(s),
                base: span.start,
                encoding: Encoding::Utf8,
            },
            Err(e) => GameText {
                utf8: None,
                base: span.start,
                encoding: Encoding::Windows1252 {
                    first_invalid: e.valid_up_to(),
                },
            },
        }
    }

    /// The encoding the game is read in.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The text of a token with `bytes` at `span` (absolute in the input).
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
    fn latin1_names_decode() {
        // "Müller" in Latin-1, as in the Kasparov player file of the corpus.
        let bytes = b"M\xfcller";
        let enc = Encoding::detect(bytes);
        assert_eq!(enc, Encoding::Windows1252 { first_invalid: 1 });
        assert_eq!(enc.decode(bytes), "Müller");
        assert_eq!(Encoding::detect("Müller".as_bytes()), Encoding::Utf8);
    }
}
