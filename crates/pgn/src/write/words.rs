//! What the movetext tokens that are no replayed moves stand for: move
//! glyphs and draw offers (attached to a move or as words), check marks,
//! null moves, comments.

use pgnkit_notation::{Annotation, annotation_glyph, parse_annotation, parse_move};

use crate::scan::{HIGHS, bytes_equal};
use crate::text::GameText;
use crate::{Game, Token, TokenKind};

/// The text of a comment token, decoded, without the `\r` of a `;`
/// comment's CRLF line end.
pub fn comment_text<'t>(token: &Token<'t>, source: &GameText<'t>) -> std::borrow::Cow<'t, str> {
    let mut text = token.text;
    if let [rest @ .., b'\r'] = text {
        text = rest;
    }
    source.decode(text)
}

/// What a movetext word that is not a replayed move stands for.
pub enum Word {
    /// A NAG (a move glyph written as a word).
    Nag(u8),
    /// A draw offer (`(=)`, `=`), kept as the comment `(=)`.
    DrawOffer,
    /// A mark the writer recomputes (check, mate, en passant): dropped.
    Mark,
    /// Not a move that was replayed: the line is not converted from here.
    Dead,
}

/// Classifies a word that is not a replayed move.
pub fn classify_word(text: &str) -> Word {
    match parse_annotation(text) {
        Some(Annotation::Nag(n)) => Word::Nag(n),
        Some(Annotation::DrawOffer) => Word::DrawOffer,
        // A mark with a glyph after it (`ch!`): the mark is recomputed,
        // the glyph kept.
        Some(_) => annotation_glyph(text).map_or(Word::Mark, Word::Nag),
        None => Word::Dead,
    }
}

/// Whether a move token may carry a glyph or a draw offer.
pub(super) fn may_have_marks(raw: &[u8]) -> bool {
    raw.iter()
        .any(|&b| matches!(b, b'!' | b'?' | b'=') || b >= 0x80)
}

/// [`may_have_marks`] of a word of `len` bytes (at most eight) whose
/// bytes, and whatever follows them, are `x` (little-endian): eight bytes
/// looked at at once.
#[inline(always)]
pub(super) fn may_have_marks_in(x: u64, len: usize) -> bool {
    let word = match len {
        0..8 => (1u64 << (8 * len)) - 1,
        _ => u64::MAX,
    };
    // A byte flagged beyond the first true one may be a false one (a
    // borrow): a flag within the word means a true one within it.
    let flagged = (x & HIGHS) | bytes_equal(x, b'!') | bytes_equal(x, b'?') | bytes_equal(x, b'=');
    flagged & word != 0
}

/// The glyph and draw offer attached to a move token (`e4!`, `Nf3!?`,
/// `Qd2(=)`), read only when the token may hold one.
pub fn attached_marks(raw: &[u8], text: &str) -> (Option<u8>, bool) {
    if !may_have_marks(raw) {
        return (None, false);
    }
    match parse_move(text) {
        Ok(t) => (t.nag(), t.draw_offer()),
        Err(_) => (None, false),
    }
}

/// Whether a word is a null move (`--`, `Z0`, `0000`).
pub fn is_null_word(text: &str) -> bool {
    parse_move(text).is_ok_and(|t| t.is_null())
}

/// Whether the tokens at `i` are `(`, `=`, `)`: the scoresheet draw offer
/// `(=)`, which the lexer sees as a variation.
pub fn draw_offer_at(game: &Game<'_>, i: usize) -> bool {
    let mut next = game.tokens.range(i..i.saturating_add(3));
    matches!(
        (next.next(), next.next(), next.next()),
        (Some(a), Some(b), Some(c)) if a.kind == TokenKind::OpenVariation
            && b.kind == TokenKind::Word
            && b.text == b"="
            && c.kind == TokenKind::CloseVariation
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_eight_bytes_at_a_time_as_one_by_one() {
        let words: [&[u8]; 12] = [
            b"e4",
            b"Nxe5+",
            b"e8=Q",
            b"Nf3!",
            b"d4?!",
            b"O-O-O",
            b"Qh4#",
            b"\xE2\x99\x98f3",
            b"a",
            b"Rxe7+Kf8",
            b"exd6e.p.",
            b"",
        ];
        for word in words {
            for after in [&b"        "[..], b"!!!!!!!!", b"\xFF=?\x80\x80\x80\x80\x80"] {
                let mut bytes = word.to_vec();
                bytes.extend_from_slice(after);
                let x = u64::from_le_bytes(*bytes.first_chunk::<8>().unwrap_or(&[0; 8]));
                assert_eq!(
                    may_have_marks_in(x, word.len()),
                    may_have_marks(word),
                    "{word:?} then {after:?}"
                );
            }
        }
    }
}
