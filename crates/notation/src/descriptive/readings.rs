//! The readings of one descriptive word: in English, and in the Latin
//! family (Spanish, Italian, French).

use super::Descriptive;
use super::family::{EN, ENGLISH, ES_IT_FR, LATIN, ROLE};
use crate::language::{Language, LanguageSet};

/// The readings of one descriptive word: in English, and in the Latin
/// family (Spanish, Italian, French) with the languages whose letters it
/// is written with. Under a language of the Latin family its reading
/// there comes first; every other language reads the English one (as
/// algebraic letters fall back to English).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Readings {
    english: Option<Descriptive>,
    latin: Option<Descriptive>,
    /// Empty when there is no Latin reading.
    latin_languages: LanguageSet,
}

/// Whether a word starting with `b` may be a descriptive move.
#[inline]
pub(crate) fn may_start(b: u8) -> bool {
    matches!(
        b,
        b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'D' | b'T' | b'A' | b'F' | b'C'
    )
}

impl Readings {
    /// The readings of the body of a descriptive move (marks off), if it
    /// has any.
    #[inline]
    pub(crate) fn parse(s: &[u8]) -> Option<Readings> {
        let english = ENGLISH.parse(s);
        let latin = match s.first() {
            Some(&b) if LATIN.letters[usize::from(b)] & ROLE != 0 => LATIN.parse(s),
            _ => None,
        };
        let latin_languages = match latin {
            Some(_) => LATIN.languages(s).intersect(ES_IT_FR),
            None => LanguageSet::EMPTY,
        };
        let latin = latin.filter(|_| !latin_languages.is_empty());
        (english.is_some() || latin.is_some()).then_some(Readings {
            english,
            latin,
            latin_languages,
        })
    }

    /// The reading under `lang`.
    #[inline]
    pub(crate) fn get(&self, lang: Language) -> Option<&Descriptive> {
        if self.latin_languages.contains(lang) {
            self.latin.as_ref()
        } else {
            self.english.as_ref()
        }
    }

    /// Whether some reading names a man by the side it started on.
    pub(crate) fn names_origin(&self) -> bool {
        [self.english, self.latin]
            .iter()
            .flatten()
            .any(Descriptive::names_origin)
    }

    /// Whether some reading captures.
    pub(crate) fn is_capture(&self) -> bool {
        self.english.or(self.latin).is_some_and(|d| d.is_capture())
    }

    /// The languages under which the word is a move.
    pub(crate) fn languages(&self) -> LanguageSet {
        if self.english.is_some() {
            LanguageSet::ALL
        } else {
            self.latin_languages
        }
    }

    /// The languages whose own letters the word is written with.
    pub(crate) fn own_languages(&self) -> LanguageSet {
        let english = if self.english.is_some() {
            EN
        } else {
            LanguageSet::EMPTY
        };
        english.union(self.latin_languages)
    }

    /// The languages that read the word in the Latin family.
    pub(crate) fn latin_languages(&self) -> LanguageSet {
        self.latin_languages
    }

    /// Whether the word means something different in some language (it
    /// has a Latin reading).
    pub(crate) fn depends_on_language(&self) -> bool {
        self.latin.is_some()
    }

    /// Which reading `lang` takes: 1 English, 2 Latin, 0 none.
    pub(crate) fn key(&self, lang: Language) -> u8 {
        if self.latin_languages.contains(lang) {
            2
        } else {
            u8::from(self.english.is_some())
        }
    }
}
