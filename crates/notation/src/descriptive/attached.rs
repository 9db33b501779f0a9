//! A descriptive move's parentheses in movetext (`R(KB1)-K1`, `P-K8(Q)`):
//! part of the word, where any other `(` opens a variation. The rule the
//! PGN lexer reads words by.

use super::family::ENGLISH;

/// Whether the bytes of a movetext word so far (`word`) and what follows it
/// (`rest`, starting with `(`) are one descriptive move whose parenthesis
/// belongs to it: the word looks like the start of a descriptive move
/// (its first letter a piece, then only descriptive characters), and the
/// parenthesis, attached to it, holds a descriptive square, a rank or a
/// promotion piece and closes at once (`R(KB1)-K1`, `NxP(Q5)`, `N(5)-B3`,
/// `P-K8(Q)`); after `Castles`, the side castled to (`Castles(QR)`). Gives
/// the length of the parenthesised part, `(` to `)`. Any other `(` opens a
/// variation, as in PGN.
///
/// ```
/// use pgnkit_notation::descriptive::attached_parenthesis;
///
/// assert_eq!(attached_parenthesis(b"R", b"(KB1)-K1"), Some(5));
/// assert_eq!(attached_parenthesis(b"NxP", b"(Q5) N-B3"), Some(4));
/// assert_eq!(attached_parenthesis(b"P-K8", b"(Q)"), Some(3));
/// assert_eq!(attached_parenthesis(b"N", b"(5)-B3"), Some(3));
/// assert_eq!(attached_parenthesis(b"Castles", b"(QR) R-Q1"), Some(4));
/// assert_eq!(attached_parenthesis(b"Nf3", b"(Nc3)"), None);
/// assert_eq!(attached_parenthesis(b"P-K4", b"(P-Q4)"), None);
/// ```
pub fn attached_parenthesis(word: &[u8], rest: &[u8]) -> Option<usize> {
    if is_castles(word) {
        return castling_side(rest);
    }
    if !matches!(word.first(), Some(b'K' | b'Q' | b'R' | b'B' | b'N' | b'P'))
        || !descriptive_characters(word)
    {
        return None;
    }
    parenthesis(rest)
}

/// The length of the castling side `rest` starts with, as books print it
/// after `Castles`: `(K)`, `(KR)`, `(Q)`, `(QR)`.
fn castling_side(rest: &[u8]) -> Option<usize> {
    [&b"(K)"[..], b"(KR)", b"(Q)", b"(QR)"]
        .into_iter()
        .find(|side| rest.starts_with(side))
        .map(<[u8]>::len)
}

/// Whether the movetext word `word` is a book's `Castles`, which the side
/// castled to may follow ([`castles_end`]).
#[inline(always)]
pub fn is_castles(word: &[u8]) -> bool {
    matches!(word, b"Castles" | b"castles")
}

/// The end of a book's `Castles` whose word ends at `end` in `text`, with
/// the side castled to when it is written after it, glued or after spaces:
/// `Castles(QR)`, `Castles QR`, `Castles (Q)`, `Castles KR`. The side is a
/// word of its own (`Castles KR-Q1` is castling, then the rook's move).
///
/// ```
/// use pgnkit_notation::descriptive::castles_end;
///
/// assert_eq!(castles_end(b"Castles QR R-Q1", 7), 10);
/// assert_eq!(castles_end(b"Castles (QR) R-Q1", 7), 12);
/// assert_eq!(castles_end(b"Castles(K)", 7), 10);
/// assert_eq!(castles_end(b"Castles KR-Q1", 7), 7);
/// assert_eq!(castles_end(b"Castles R-Q1", 7), 7);
/// ```
pub fn castles_end(text: &[u8], end: usize) -> usize {
    let Some(rest) = text.get(end..) else {
        return end;
    };
    let spaces = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let side = &rest[spaces..];
    let n = castling_side(side).or_else(|| {
        [&b"KR"[..], b"QR", b"K", b"Q"]
            .into_iter()
            .find(|word| side.starts_with(word))
            .map(<[u8]>::len)
            .filter(|&n| {
                side.get(n)
                    .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b')' | b'{' | b';'))
            })
    });
    match n {
        Some(n) if spaces > 0 || side.first() == Some(&b'(') => end + spaces + n,
        _ => end,
    }
}

/// Whether every byte is one a descriptive move is written with.
fn descriptive_characters(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| {
        matches!(
            b,
            b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b't' | b'1'
                ..=b'8' | b'x' | b'-' | b'=' | b'/' | b'(' | b')'
        )
    })
}

/// The length of the parenthesis `rest` starts with (`(` to `)`), when it
/// holds a descriptive square, a rank or a promotion piece and closes at
/// once.
fn parenthesis(rest: &[u8]) -> Option<usize> {
    if rest.first() != Some(&b'(') {
        return None;
    }
    let close = |j: usize| (rest.get(j) == Some(&b')')).then_some(j + 1);
    if let Some((_, j)) = ENGLISH.place::<false>(rest, 1, false)
        && let Some(n) = close(j)
    {
        return Some(n);
    }
    // The mover's rank, as in `N(5)-B3`.
    if rest.get(1).is_some_and(|b| (b'1'..=b'8').contains(b))
        && let Some(n) = close(2)
    {
        return Some(n);
    }
    ENGLISH.promotion_piece(rest, 1).and_then(|(_, j)| close(j))
}

/// The end of a descriptive move's word: `word_end(from)` gives where a
/// word that goes on at `from` ends in `text`; the word starts at `start`
/// and its first end is `end`. Every parenthesis attached to it that
/// [`attached_parenthesis`] takes is part of the word. Each byte is looked
/// at a bounded number of times, however many parentheses a word has.
///
/// ```
/// use pgnkit_notation::descriptive::attached_end;
///
/// let text = b"R(KB1)-K1 (N-B3)";
/// let word_end = |i: usize| text[i..].iter().position(|&b| b == b' ' || b == b'(').map_or(text.len(), |k| i + k);
/// assert_eq!(attached_end(text, 0, word_end(1), word_end), 9);
/// ```
pub fn attached_end(
    text: &[u8],
    start: usize,
    end: usize,
    word_end: impl Fn(usize) -> usize,
) -> usize {
    let (Some(word), Some(rest)) = (text.get(start..end), text.get(end..)) else {
        return end;
    };
    let Some(mut n) = attached_parenthesis(word, rest) else {
        return end;
    };
    let mut end = end;
    loop {
        let grown = word_end(end + n);
        // What the word grew by must be descriptive too, as the whole word
        // is for [`attached_parenthesis`]: only the new bytes are looked at.
        let Some(added) = text.get(end..grown) else {
            return grown;
        };
        end = grown;
        match text.get(end..) {
            Some(rest) if descriptive_characters(added) => match parenthesis(rest) {
                Some(k) => n = k,
                None => return end,
            },
            _ => return end,
        }
    }
}
