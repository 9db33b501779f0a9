//! A record's house style: how its writer writes moves (short or long
//! algebraic, UCI, ICCF numeric or descriptive, `x` or `:` for a capture, `O-O` or `0-0`), read from
//! the words of the record, so that what is written into it (a suggested
//! move, a fix, a merged game) looks like the rest of it.
//!
//! ```
//! use pgnkit_notation::{HouseStyle, Language, Notation, parse_move, write_move};
//! use shakmaty::Chess;
//!
//! // A Russian scoresheet: long algebraic, `:` for captures, zeros.
//! let house = HouseStyle::of_words(["e2-e4", "e7-e5", "Кg1-f3", "Кb8-c6", "Сf1:c6", "0-0"]);
//! let style = house.style(Language::Ru);
//! assert_eq!(style.notation, Notation::Lan);
//!
//! let pos = Chess::default();
//! let m = parse_move("Nf3")?.resolve(&pos, Language::En)?;
//! let mut out = String::new();
//! write_move(&pos, &m, &style, &mut out);
//! assert_eq!(out, "Кg1-f3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::language::Language;
use crate::write::{CaptureMark, CastlingMark, Notation, Style};

/// Counts of how the words of a record are written; [`HouseStyle::style`]
/// takes the majority of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HouseStyle {
    short: u32,
    long: u32,
    uci: u32,
    iccf: u32,
    descriptive: u32,
    cross: u32,
    colon: u32,
    letters: u32,
    zeros: u32,
}

impl HouseStyle {
    /// No word read yet: the style is PGN's (short algebraic, `x`, `O-O`).
    pub fn new() -> HouseStyle {
        HouseStyle::default()
    }

    /// The house style of these move words.
    pub fn of_words<'w>(words: impl IntoIterator<Item = &'w str>) -> HouseStyle {
        let mut house = HouseStyle::new();
        for w in words {
            house.read(w);
        }
        house
    }

    /// Counts one move word as written (anything that is no move, such as
    /// an annotation, counts for nothing).
    pub fn read(&mut self, word: &str) {
        if crate::token::is_iccf(word.as_bytes()) {
            self.iccf = self.iccf.saturating_add(1);
            return;
        }
        let mut chars = word.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some('0'), Some('-' | '–'), Some('0')) => {
                self.zeros = self.zeros.saturating_add(1);
                return;
            }
            (Some('O' | 'o'), Some('-' | '–'), Some('O' | 'o')) => {
                self.letters = self.letters.saturating_add(1);
                return;
            }
            _ => {}
        }
        if word.contains(':') {
            self.colon = self.colon.saturating_add(1);
        } else if word.contains(['x', '×']) {
            self.cross = self.cross.saturating_add(1);
        }
        // Squares: a file letter followed by a rank digit.
        let bytes = word.as_bytes();
        let squares = bytes
            .windows(2)
            .filter(|w| matches!(w, [b'a'..=b'h', b'1'..=b'8']))
            .count();
        let uci = matches!(
            bytes,
            [b'a'..=b'h', b'1'..=b'8', b'a'..=b'h', b'1'..=b'8', rest @ ..]
                if matches!(rest, [] | [b'q' | b'r' | b'b' | b'n'])
        );
        let count = match (uci, squares) {
            (true, _) => &mut self.uci,
            (false, 0) => {
                // No square of algebraic notation: descriptive (`P-K4`) or no move.
                if crate::token::parse_move(word).is_ok_and(|t| t.is_descriptive()) {
                    self.descriptive = self.descriptive.saturating_add(1);
                }
                return;
            }
            (false, 1) => &mut self.short,
            (false, _) => &mut self.long,
        };
        *count = count.saturating_add(1);
    }

    /// The style that writes moves as most of the words read are written,
    /// in `language` (the language the record is read in). Ties go to PGN's
    /// way.
    pub fn style(&self, language: Language) -> Style {
        let notation = if self.descriptive > self.iccf.max(self.uci).max(self.long).max(self.short)
        {
            Notation::Descriptive
        } else if self.iccf > self.uci.max(self.long).max(self.short) {
            Notation::Iccf
        } else if self.uci > self.long.max(self.short) {
            Notation::Uci
        } else if self.long > self.short {
            Notation::Lan
        } else {
            Notation::San
        };
        Style {
            notation,
            language,
            capture: if self.colon > self.cross {
                CaptureMark::Colon
            } else {
                CaptureMark::X
            },
            castling: if self.zeros > self.letters {
                CastlingMark::DigitZero
            } else {
                CastlingMark::LetterO
            },
            ..Style::new(notation, language)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_is_read_as_pgn() {
        let house = HouseStyle::of_words(["e4", "e5", "Nf3", "Nc6", "Bxc6", "dxc6", "O-O", "f6"]);
        assert_eq!(house.style(Language::En), Style::SAN);
    }

    #[test]
    fn a_russian_scoresheet_keeps_its_marks() {
        let house = HouseStyle::of_words(["e4", "e5", "Кf3", "Кc6", "С:c6", "d:c6", "0-0", "f6"]);
        assert_eq!(house.style(Language::Ru), Style::RU_SCORESHEET);
    }

    #[test]
    fn long_algebraic_and_uci_are_told_apart() {
        let long = HouseStyle::of_words(["e2-e4", "e7-e5", "Ng1-f3", "Nb8-c6", "Bf1xc6"]);
        assert_eq!(long.style(Language::En).notation, Notation::Lan);
        let uci = HouseStyle::of_words(["e2e4", "e7e5", "g1f3", "b8c6", "e1g1", "a7a8q"]);
        assert_eq!(uci.style(Language::En).notation, Notation::Uci);
        let iccf = HouseStyle::of_words(["5254", "5755", "7163", "2836", "6125", "1716"]);
        assert_eq!(iccf.style(Language::En).notation, Notation::Iccf);
        let descriptive =
            HouseStyle::of_words(["P-K4", "P-K4", "N-KB3", "N-QB3", "B-N5", "P-QR3", "O-O"]);
        assert_eq!(
            descriptive.style(Language::En).notation,
            Notation::Descriptive
        );
    }

    #[test]
    fn a_few_odd_words_do_not_change_the_style() {
        // One fully disambiguated move in a short record; one `0-0` among `O-O`.
        let house = HouseStyle::of_words(["e4", "e5", "Qh4e1", "Nf3", "O-O", "O-O", "0-0"]);
        assert_eq!(house.style(Language::En), Style::SAN);
    }
}
