//! The spoken form of a move, for announcing moves aloud (FIDE Laws, rules
//! for visually impaired players) and for screen readers.
//!
//! Every language of [`Language`] has a table of words, as data: the six
//! piece names, the numbers one to eight, and the words for a capture, a
//! promotion, en passant, the two castlings, check and mate. A move is said
//! as the piece, its origin square, the capture word if it captures, its
//! destination square, then en passant, the promotion and check or mate.
//! Files are the phonetic names of the Laws (Anna, Bella, Cäsar, David, Eva,
//! Felix, Gustav, Hektor in German; Cesar and Hector in the Latin-script
//! languages; Анна … Гектор in Russian, Ukrainian and Bulgarian); ranks are
//! the numbers in the players' language. English keeps the squares as
//! written (`Knight g1 to f3`).
//!
//! ```
//! use pgnkit_notation::{Language, Notation, Style, write_move};
//! use shakmaty::{Chess, Square, Role, Move};
//!
//! let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None,
//!                        to: Square::F3, promotion: None };
//! let mut out = String::new();
//! write_move(&Chess::default(), &m, &Style::new(Notation::Spoken, Language::De), &mut out);
//! assert_eq!(out, "Springer Gustav eins Felix drei");
//! out.clear();
//! write_move(&Chess::default(), &m, &Style::new(Notation::Spoken, Language::Fr), &mut out);
//! assert_eq!(out, "cavalier Gustav un Felix trois");
//! ```
//!
//! Spoken moves read back in any of these languages (the words of one
//! language, or German and English mixed, in any case).

use crate::language::Language;

pub(crate) mod tables;
mod write;

pub(crate) use write::write;

use tables::{TABLES, Vocab};

/// The words of `language`; `None` for a language without a table.
pub(crate) fn vocab(language: Language) -> Option<&'static Vocab> {
    TABLES.iter().find(|v| v.language == language)
}

/// The languages read and written in letters without a table of spoken
/// words: no source at hand gives the words (Arabic: the piece names are
/// known, the phrases for "takes", castling and promotion are not):
/// `pgnkit convert --to spoken` refuses them.
pub const WITHOUT_WORDS: &[Language] = &[Language::Ar];

/// Whether moves can be spoken in `language` (every language pgnkit reads
/// but those of [`WITHOUT_WORDS`] has a table).
pub fn has_words(language: Language) -> bool {
    vocab(language).is_some()
}

#[cfg(test)]
mod tests {
    use super::tables::Squares;
    use super::*;

    #[test]
    fn every_language_has_exactly_one_table() {
        for &language in Language::ALL {
            let n = TABLES.iter().filter(|v| v.language == language).count();
            let expected = usize::from(!WITHOUT_WORDS.contains(&language));
            assert_eq!(n, expected, "{language:?}");
        }
        assert_eq!(TABLES.len() + WITHOUT_WORDS.len(), Language::ALL.len());
    }

    #[test]
    fn no_word_of_a_table_means_two_things() {
        for v in &TABLES {
            let mut words: Vec<String> = v.pieces.iter().map(|p| p.to_lowercase()).collect();
            words.extend(v.phrases().map(|(p, _)| p.to_lowercase()));
            if let Squares::Named { files, .. } = &v.squares {
                words.extend(files.iter().map(|f| f.to_lowercase()));
            }
            let n = words.len();
            words.sort();
            words.dedup();
            assert_eq!(words.len(), n, "{:?}", v.language);
        }
    }
}
