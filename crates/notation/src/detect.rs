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
