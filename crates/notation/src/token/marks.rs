//! The marks written after a move or as words of their own: check and
//! mate, move glyphs (`!?`), draw offers (`(=)`), en passant (`e.p.`).

use std::ops::Range;

use super::chars::{ends_move, ends_with, normalize};
use super::{Annotation, ParseError, Suffix, parse_move};

pub(super) fn glyph_nag<T: Copy + Into<u32>>(glyph: &[T]) -> Option<u8> {
    let mut it = glyph.iter().map(|c| (*c).into());
    let a = it.next()?;
    let b = it.next();
    if it.next().is_some() {
        return None;
    }
    const EXCL: u32 = '!' as u32;
    const QUEST: u32 = '?' as u32;
    Some(match (a, b) {
        (EXCL, None) => 1,
        (QUEST, None) => 2,
        (EXCL, Some(EXCL)) => 3,
        (QUEST, Some(QUEST)) => 4,
        (EXCL, Some(QUEST)) => 5,
        (QUEST, Some(EXCL)) => 6,
        _ => return None,
    })
}

/// The check and mate marks of descriptive notation glued to the move
/// (`Q-R5ch`, `QxPch.`, `P-Q4dis.ch.`, `R-Q8mate`), in the order they are
/// tried; all ASCII, so a word's length is its number of characters.
const BOOK_MARKS: [(&str, Suffix); 7] = [
    ("ch", Suffix::Check),
    ("ch.", Suffix::Check),
    ("dis.ch.", Suffix::Check),
    ("dbl.ch.", Suffix::DoubleCheck),
    ("disch", Suffix::Check),
    ("dblch", Suffix::DoubleCheck),
    ("mate", Suffix::Mate),
];

/// The marks after a move's body, peeled off its end.
pub(super) struct Peeled {
    /// Characters of the body (the move without its marks).
    pub(super) body: usize,
    pub(super) suffix: Suffix,
    /// Where the check or mate mark stands (character indices).
    pub(super) suffix_at: Option<Range<usize>>,
    pub(super) nag: Option<u8>,
    pub(super) draw_offer: bool,
    pub(super) en_passant: bool,
    pub(super) trailing_capture: bool,
}

/// Peels the marks off the end of `s` (normalized characters, whitespace
/// trimmed at the start), in any order: the one reading of the marks that
/// [`parse_move`] and [`with_suffix`] share.
pub(super) fn peel_marks(mut s: &[char]) -> Result<Peeled, ParseError> {
    let mut p = Peeled {
        body: 0,
        suffix: Suffix::None,
        suffix_at: None,
        nag: None,
        draw_offer: false,
        en_passant: false,
        trailing_capture: false,
    };
    loop {
        while s.last().is_some_and(|c| c.is_whitespace()) {
            s = &s[..s.len() - 1];
        }
        let n = s.len();
        let before = |k: usize| n > k && ends_move(s[n - k - 1]);
        let unmarked = p.suffix == Suffix::None;
        // A check or mate mark of `k` characters.
        let mark = |suffix: Suffix, k: usize| (suffix, n - k..n);
        let mut found = None;
        let keep = if ends_with(s, "(=)") {
            p.draw_offer = true;
            n - 3
        } else if n > 0 && matches!(s[n - 1], '!' | '?') && p.nag.is_none() {
            let k = if n >= 2 && matches!(s[n - 2], '!' | '?') {
                2
            } else {
                1
            };
            p.nag = Some(glyph_nag(&s[n - k..]).ok_or(ParseError::Unparsable)?);
            n - k
        } else if ends_with(s, "++") && unmarked {
            found = Some(mark(Suffix::DoubleCheck, 2));
            n - 2
        } else if n > 0 && matches!(s[n - 1], '+' | '†') && unmarked {
            found = Some(mark(Suffix::Check, 1));
            n - 1
        } else if n > 0 && matches!(s[n - 1], '#' | '‡') && unmarked {
            found = Some(mark(Suffix::Mate, 1));
            n - 1
        } else if let Some(&(word, suffix)) = BOOK_MARKS
            .iter()
            .find(|(word, _)| unmarked && ends_with(s, word) && before(word.len()))
        {
            found = Some(mark(suffix, word.len()));
            n - word.len()
        } else if ends_with(s, "e.p.") && !p.en_passant {
            p.en_passant = true;
            n - 4
        } else if ends_with(s, "ep") && !p.en_passant && digit_before(&s[..n - 2]) {
            p.en_passant = true;
            n - 2
        } else if n >= 2 && matches!(s[n - 1], 'x' | 'X') && before(1) && unmarked {
            found = Some(mark(Suffix::Mate, 1));
            n - 1
        } else if n >= 2 && s[n - 1] == ':' && s[n - 2].is_ascii_digit() && !p.trailing_capture {
            p.trailing_capture = true;
            n - 1
        } else if n >= 2
            && s[n - 1] == '='
            && (s[n - 2].is_ascii_digit() || s[n - 2] == ')')
            && !p.draw_offer
        {
            p.draw_offer = true;
            n - 1
        } else {
            break;
        };
        if let Some((suffix, at)) = found {
            p.suffix = suffix;
            p.suffix_at = Some(at);
        }
        s = &s[..keep];
    }
    p.body = s.len();
    Ok(p)
}

/// Whether the last non-space character of `s` is a digit (`exd6 ep`).
fn digit_before(s: &[char]) -> bool {
    s.iter()
        .rev()
        .find(|c| !c.is_whitespace())
        .is_some_and(char::is_ascii_digit)
}

/// The move word `text` with its check or mate mark replaced by `suffix`
/// (removed for [`Suffix::None`]), everything else as written: the notation,
/// the language, the move glyph and the other marks. A missing mark goes
/// right after the move (`Nf3!?` becomes `Nf3+!?`). The writer's family of
/// marks is kept (`†` for check goes with `‡` for mate); otherwise the marks
/// are PGN's `+` and `#`.
///
/// `None` when `text` is no move, a null move, or a form whose marks cannot
/// be placed character for character (spoken moves, invisible characters).
///
/// ```
/// use pgnkit_notation::{Suffix, with_suffix};
///
/// assert_eq!(with_suffix("Qh5+!?", Suffix::Mate).as_deref(), Some("Qh5#!?"));
/// assert_eq!(with_suffix("Лd8", Suffix::Check).as_deref(), Some("Лd8+"));
/// assert_eq!(with_suffix("Лd8х", Suffix::Check).as_deref(), Some("Лd8+"));
/// assert_eq!(with_suffix("Bxc3+", Suffix::None).as_deref(), Some("Bxc3"));
/// assert_eq!(with_suffix("Nf3†", Suffix::Mate).as_deref(), Some("Nf3‡"));
/// ```
pub fn with_suffix(text: &str, suffix: Suffix) -> Option<String> {
    let token = parse_move(text).ok()?;
    if token.is_null() {
        return None;
    }
    // One normalized character per character written, so that character
    // indices are the same in both.
    let mut chars = Vec::with_capacity(text.len());
    let mut offsets = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        match normalize(c) {
            Some(n) if !n.is_whitespace() && !c.is_whitespace() => chars.push(n),
            _ => return None,
        }
        offsets.push(i);
    }
    offsets.push(text.len());
    let peeled = peel_marks(&chars).ok()?;
    if peeled.suffix != token.suffix() || peeled.body == 0 {
        return None;
    }
    let daggers = text.contains(['†', '‡']);
    let mark = match (suffix, daggers) {
        (Suffix::None, _) => "",
        (Suffix::Check, false) => "+",
        (Suffix::DoubleCheck, false) => "++",
        (Suffix::Mate, false) => "#",
        (Suffix::Check | Suffix::DoubleCheck, true) => "†",
        (Suffix::Mate, true) => "‡",
    };
    let at = match peeled.suffix_at {
        Some(r) => offsets.get(r.start).copied()?..offsets.get(r.end).copied()?,
        None => {
            let end = offsets.get(peeled.body).copied()?;
            end..end
        }
    };
    let mut out = String::with_capacity(text.len() + mark.len());
    out.push_str(text.get(..at.start)?);
    out.push_str(mark);
    out.push_str(text.get(at.end..)?);
    Some(out)
}

/// Reads a mark written as its own word after a move: `e.p.`, `+`, `#`, `!?`, `(=)`, old-Russian `х`...
/// A check, mate or en passant mark with a move glyph after it (`ch!`,
/// `mate!!`, as books print `RxP ch!`) is that mark; its glyph is
/// [`annotation_glyph`]'s.
///
/// ```
/// use pgnkit_notation::{Annotation, parse_annotation};
///
/// assert_eq!(parse_annotation("ch."), Some(Annotation::Check));
/// assert_eq!(parse_annotation("ch!"), Some(Annotation::Check));
/// assert_eq!(parse_annotation("!?"), Some(Annotation::Nag(5)));
/// ```
pub fn parse_annotation(text: &str) -> Option<Annotation> {
    match word_annotation(text) {
        Some(a) => Some(a),
        None => glyph_after_mark(text).map(|(mark, _)| mark),
    }
}

/// The move glyph written after a check, mate or en passant mark in the
/// same word (`ch!` 1, `mate!!` 3): the NAG it stands for.
///
/// ```
/// use pgnkit_notation::annotation_glyph;
///
/// assert_eq!(annotation_glyph("ch!"), Some(1));
/// assert_eq!(annotation_glyph("dis.ch.?!"), Some(6));
/// assert_eq!(annotation_glyph("ch"), None);
/// ```
pub fn annotation_glyph(text: &str) -> Option<u8> {
    glyph_after_mark(text).map(|(_, nag)| nag)
}

/// A check, mate or en passant mark followed by a move glyph in one word:
/// the mark and the glyph's NAG.
fn glyph_after_mark(text: &str) -> Option<(Annotation, u8)> {
    let text = text.trim();
    let mark = text.trim_end_matches(['!', '?']);
    let nag = glyph_nag(text.get(mark.len()..)?.as_bytes())?;
    match word_annotation(mark)? {
        a @ (Annotation::Check
        | Annotation::DoubleCheck
        | Annotation::Mate
        | Annotation::EnPassant) => Some((a, nag)),
        _ => None,
    }
}

/// [`parse_annotation`] of a word that is one mark.
fn word_annotation(text: &str) -> Option<Annotation> {
    // The longest annotation word is six characters (`Schach`): a longer
    // word is none, and no buffer is filled for it.
    const MAX_CHARS: usize = 8;
    let text = text.trim();
    if text.is_ascii() && text.len() > MAX_CHARS {
        return None;
    }
    let mut buf = [0u8; MAX_CHARS * 4];
    let (mut len, mut chars) = (0, 0);
    for c in text.chars().filter_map(normalize) {
        chars += 1;
        if chars > MAX_CHARS {
            return None;
        }
        len += c.encode_utf8(buf.get_mut(len..)?).len();
    }
    let word = std::str::from_utf8(buf.get(..len)?).ok()?.trim();
    if word.is_empty() {
        return None;
    }
    Some(match word {
        "e.p." | "ep" | "e. p." | "e.p" | "i.p." => Annotation::EnPassant,
        "+" | "†" | "ch" | "ch." | "check" | "Schach" => Annotation::Check,
        // Check in the words of Spanish, French and Italian descriptive
        // notation's books.
        "jaque" | "échec" | "scacco" => Annotation::Check,
        // Descriptive notation's discovered and double check, whole or as
        // their first word (`dis ch`, `dbl ch`: the `ch` adds nothing).
        "dis ch" | "dis. ch." | "disch" | "dis.ch." | "dis" | "dis." => Annotation::Check,
        "dbl ch" | "dbl. ch." | "dblch" | "dbl.ch." | "dbl" | "dbl." => Annotation::DoubleCheck,
        "++" => Annotation::DoubleCheck,
        "#" | "‡" | "x" | "X" | "mate" | "mate." | "Matt" | "мат" => Annotation::Mate,
        "(=)" | "=" => Annotation::DrawOffer,
        // Evaluation symbols written out (PGN NAGs 13-19).
        "∞" => Annotation::Nag(13),
        "+=" | "+/=" | "⩲" => Annotation::Nag(14),
        "=+" | "=/+" | "⩱" => Annotation::Nag(15),
        "+/-" | "±" => Annotation::Nag(16),
        "-/+" | "∓" => Annotation::Nag(17),
        "+-" | "+−" | "+--" => Annotation::Nag(18),
        "-+" | "−+" | "--+" => Annotation::Nag(19),
        // `!` and `?` are ASCII: a glyph of other characters is no NAG.
        _ => Annotation::Nag(glyph_nag(word.as_bytes())?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::MoveToken;

    /// Every form a move is written in, with and without marks: the word
    /// rewritten with each mark reads back as the same move with that mark,
    /// and the rest of the word is untouched.
    #[test]
    fn with_suffix_changes_the_mark_only() {
        let words = [
            "Nf3", "Nf3+", "Nf3#", "Nf3++", "Nf3!?", "Nf3+!?", "Nf3!?+", "Nf3#?", "Nf3(=)",
            "Nf3+(=)", "exd5", "exd6e.p.", "e8=Q+", "e8Q", "O-O+", "0-0-0", "o-o#", "Ng1-f3",
            "e2-e4", "e4:d5", "Лd8х", "Лd8", "Кf3+", "Кр:e2", "С:c7!", "♘f3†", "♞f6‡", "Nf3ch",
            "Rd8x", "Qxf7#!!", "...Nf6", "Ng1f3+", "e7-e8Q#",
        ];
        for word in words {
            let (dots, rest) = word.split_at(word.len() - word.trim_start_matches('.').len());
            let Ok(before) = parse_move(rest) else {
                panic!("{word} is a move");
            };
            for suffix in [
                Suffix::None,
                Suffix::Check,
                Suffix::Mate,
                Suffix::DoubleCheck,
            ] {
                let Some(out) = with_suffix(rest, suffix) else {
                    panic!("{word}: no rewrite for {suffix:?}");
                };
                let after = parse_move(&out).unwrap_or_else(|e| panic!("{out}: {e:?}"));
                let daggers = rest.contains(['†', '‡']);
                let expected = match suffix {
                    Suffix::DoubleCheck if daggers => Suffix::Check,
                    s => s,
                };
                assert_eq!(after.suffix(), expected, "{word} -> {out}");
                let facts = |t: &MoveToken| {
                    (
                        t.nag(),
                        t.draw_offer(),
                        t.en_passant_marked(),
                        t.is_capture_marked(),
                        t.is_castling(),
                        t.languages(),
                    )
                };
                assert_eq!(facts(&after), facts(&before), "{word} -> {dots}{out}");
                // Idempotent, and only the mark changed.
                assert_eq!(with_suffix(&out, suffix).as_deref(), Some(out.as_str()));
                let strip = |s: &str| {
                    s.replace(['+', '#', '†', '‡'], "")
                        .replace("ch", "")
                        .trim_end_matches(['x', 'х'])
                        .to_owned()
                };
                assert_eq!(strip(&out), strip(rest), "{word} -> {out}");
            }
        }
        assert_eq!(with_suffix("--", Suffix::Check), None);
        assert_eq!(with_suffix("junk", Suffix::Check), None);
        assert_eq!(
            with_suffix("Nf3!?", Suffix::Check).as_deref(),
            Some("Nf3+!?")
        );
        assert_eq!(with_suffix("Лd8х", Suffix::Check).as_deref(), Some("Лd8+"));
        assert_eq!(with_suffix("Nf3ch", Suffix::Mate).as_deref(), Some("Nf3#"));
    }
}
