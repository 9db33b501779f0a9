//! Choosing the piece-letter language of a game: the one under which the
//! whole game replays.
//!
//! Every candidate language is replayed at once, grouped by what each token
//! means: languages that read a token the same way share one position, so a
//! game costs little more than one replay. Among the languages under which
//! every move resolves, the one whose own letters (not the English fallback)
//! explain the most tokens is chosen; ties go to the order of
//! [`Language::ALL`] (English first). Nothing is guessed from single letters.

use shakmaty::{Chess, Move, Position};

use crate::language::{Language, LanguageSet};
use crate::token::{MoveToken, PieceMark, parse_move};

/// The outcome of [`detect_language`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The chosen language: the best of `candidates`, or, when no language
    /// replays the whole game, the one that got furthest.
    pub language: Language,
    /// Every language under which the whole game replays (empty if none).
    pub candidates: LanguageSet,
    /// How many tokens replayed under `language` (all of them when `candidates` is not empty).
    pub replayed: usize,
}

impl Detection {
    /// Whether the whole game replays under `language`.
    pub fn is_complete(&self) -> bool {
        !self.candidates.is_empty()
    }
}

fn meaning_key(t: &MoveToken, lang: Language) -> (u8, u8) {
    if let Some(r) = t.descriptive() {
        // Which reading of a descriptive word the language takes.
        return (r.key(lang), u8::MAX);
    }
    let key = |mark: PieceMark| match mark {
        PieceMark::Letters(l) => l.roles(lang),
        _ => 0,
    };
    (key(t.piece_mark()), key(t.promotion_mark()))
}

/// Detects the language of a game given as move tokens (move numbers,
/// comments and results already removed) from `start`, among `allowed`.
pub fn detect_language<S: AsRef<str>>(
    start: &Chess,
    tokens: &[S],
    allowed: LanguageSet,
) -> Detection {
    let mut hyps: Vec<(LanguageSet, Chess)> = vec![(allowed, start.clone())];
    let mut reached = [0usize; 64];
    let mut parsed: Vec<Option<MoveToken>> = Vec::with_capacity(tokens.len());
    for (i, text) in tokens.iter().enumerate() {
        let token = parse_move(text.as_ref()).ok();
        parsed.push(token);
        let mut next: Vec<(LanguageSet, Chess)> = Vec::with_capacity(hyps.len());
        for (set, pos) in hyps {
            let Some(token) = token else { continue };
            // group the languages by the meaning of the token's letters
            let mut groups: Vec<((u8, u8), LanguageSet)> = Vec::new();
            if token.has_letters() {
                for lang in set.iter() {
                    let k = meaning_key(&token, lang);
                    match groups.iter_mut().find(|(key, _)| *key == k) {
                        Some((_, s)) => s.insert(lang),
                        None => groups.push((k, LanguageSet::single(lang))),
                    }
                }
            } else {
                groups.push(((0, 0), set));
            }
            let mut results: Vec<(Move, LanguageSet)> = Vec::new();
            for (_, langs) in groups {
                let Some(lang) = langs.first() else { continue };
                if let Ok(m) = token.resolve(&pos, lang) {
                    match results.iter_mut().find(|(mv, _)| *mv == m) {
                        Some((_, s)) => *s = s.union(langs),
                        None => results.push((m, langs)),
                    }
                }
            }
            for (m, langs) in results {
                for l in langs.iter() {
                    reached[l as usize] = i + 1;
                }
                let mut after = pos.clone();
                after.play_unchecked(m);
                next.push((langs, after));
            }
        }
        hyps = next;
        if hyps.is_empty() {
            break;
        }
    }
    let candidates = hyps
        .iter()
        .fold(LanguageSet::EMPTY, |acc, (s, _)| acc.union(*s));
    let pool = if candidates.is_empty() {
        allowed
    } else {
        candidates
    };
    let score = |lang: Language| -> (usize, usize) {
        let own = parsed
            .iter()
            .flatten()
            .filter(|t| t.has_letters() && t.own_languages().contains(lang))
            .count();
        (reached[lang as usize], own)
    };
    let mut best: Option<(Language, (usize, usize))> = None;
    for lang in pool.iter() {
        let s = score(lang);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((lang, s));
        }
    }
    let (language, (replayed, _)) = best.unwrap_or((Language::En, (0, 0)));
    Detection {
        language,
        candidates,
        replayed,
    }
}

/// What the piece letters of a game say about its language, gathered word
/// by word with no position: every letter counts wherever it stands, after
/// a slip as much as before it.
///
/// A letter speaks for a language when that language's own table gives it
/// a meaning that English does not (`S`, `D`, `Ф`); it speaks against one
/// where it means nothing there, not even in English. Languages that read
/// every letter seen alike (German, Danish, Swedish: `K D T L S`) are one
/// reading; [`LetterEvidence::candidates`] gives the first of each.
///
/// ```
/// use pgnkit_notation::{Language, LetterEvidence, parse_move};
///
/// let mut evidence = LetterEvidence::default();
/// for word in ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "La4", "Sf6", "Xq9", "Le7"] {
///     if let Ok(token) = parse_move(word) {
///         evidence.add(&token);
///     }
/// }
/// assert_eq!(evidence.speaks_for(Language::De), 6);
/// assert_eq!(evidence.speaks_for(Language::En), 0);
/// // German first; Finnish reads `S` as a pawn, so it is a reading of its own.
/// let candidates = evidence.candidates();
/// assert_eq!(candidates.first(), Some(&Language::De));
/// assert!(candidates.contains(&Language::Fi));
/// assert!(!candidates.contains(&Language::Sv)); // reads as German does
/// ```
#[derive(Clone, Debug)]
pub struct LetterEvidence {
    /// Per language: words whose letters mean a piece in it and not in English.
    own: [u32; 64],
    /// Per language: words whose letters mean nothing in it, nor in English.
    meaningless: [u32; 64],
    /// Words with piece letters.
    lettered: u32,
    /// The distinct ways letters were written, to split the readings by,
    /// each with the languages it means a piece in (its own letters, and
    /// with the English fallback): a game writes a handful of marks, so
    /// each is looked up in the language tables once.
    marks: Vec<(PieceMark, LanguageSet, LanguageSet)>,
    /// The distinct sets of languages that read descriptive words in their
    /// own way (Spanish `P4R`: es it fr): languages read such a word alike
    /// when both are in the set or both out of it.
    descriptive: Vec<LanguageSet>,
}

impl Default for LetterEvidence {
    fn default() -> LetterEvidence {
        LetterEvidence {
            own: [0; 64],
            meaningless: [0; 64],
            lettered: 0,
            marks: Vec::new(),
            descriptive: Vec::new(),
        }
    }
}

impl LetterEvidence {
    /// Counts the letters of one word of the game.
    pub fn add(&mut self, token: &MoveToken) {
        if !token.has_letters() {
            return;
        }
        self.lettered += 1;
        let mut own = LanguageSet::ALL;
        let mut means = LanguageSet::ALL;
        if let Some(r) = token.descriptive() {
            own = r.own_languages();
            means = r.languages();
            if !self.descriptive.contains(&r.latin_languages()) {
                self.descriptive.push(r.latin_languages());
            }
        }
        for mark in [token.piece_mark(), token.promotion_mark()] {
            let PieceMark::Letters(letters) = mark else {
                continue;
            };
            let (_, own_sets, means_sets) = match self.marks.iter().find(|(m, ..)| *m == mark) {
                Some(known) => *known,
                None => {
                    let known = (mark, letters.own_languages(), letters.languages());
                    self.marks.push(known);
                    known
                }
            };
            own = own.intersect(own_sets);
            means = means.intersect(means_sets);
        }
        let english = own.contains(Language::En);
        for &lang in Language::ALL {
            if !english && own.contains(lang) {
                self.own[lang as usize] += 1;
            }
            if !means.contains(lang) {
                self.meaningless[lang as usize] += 1;
            }
        }
    }

    /// How many words have letters that mean a piece in `lang` but not in
    /// English.
    pub fn speaks_for(&self, lang: Language) -> u32 {
        self.own[lang as usize]
    }

    /// How many words have letters that mean nothing in `lang`, nor in
    /// English.
    pub fn speaks_against(&self, lang: Language) -> u32 {
        self.meaningless[lang as usize]
    }

    /// Whether `lang` explains the letters: at most one word in ten (and at
    /// least one, a slip) means nothing in it.
    pub fn is_plausible(&self, lang: Language) -> bool {
        self.speaks_against(lang) <= (self.lettered / 10).max(1)
    }

    /// The languages other than English that the letters speak for (at
    /// least two words: one foreign-looking letter in an English game is
    /// more likely a slip than a language) and that explain them, the
    /// first of each reading, most evidence first (ties in the order of
    /// [`Language::ALL`]).
    pub fn candidates(&self) -> Vec<Language> {
        let mut out: Vec<Language> = Vec::new();
        for &lang in &Language::ALL[1..] {
            if self.speaks_for(lang) < 2 || !self.is_plausible(lang) {
                continue;
            }
            let alike = |other: Language| {
                self.marks.iter().all(|(mark, ..)| match mark {
                    PieceMark::Letters(l) => l.roles(lang) == l.roles(other),
                    _ => true,
                }) && self
                    .descriptive
                    .iter()
                    .all(|set| set.contains(lang) == set.contains(other))
            };
            if !out.iter().any(|&o| alike(o)) {
                out.push(lang);
            }
        }
        out.sort_by_key(|&l| std::cmp::Reverse(self.speaks_for(l)));
        out
    }
}
