//! The piece-letter language a game is read in, when its English replay
//! fails: the evidence of its letters, weighed by how few errors each
//! reading leaves once repaired.

use pgnkit_notation::{Language, LanguageSet, LetterEvidence, parse_move};
use pgnkit_pgn::Game;
use shakmaty::Chess;

use crate::movetext::{Pass, probe_main_line, replay_movetext};
use crate::outcome::{History, Tracker};
use crate::repair;
use crate::text::GameText;

/// Readings of a game's letters (one language each) replayed with their
/// repairs when its English replay fails, at most.
const MAX_READINGS: usize = 4;

/// The language to read a game in whose replay in English failed, and the
/// repairs found for the main line's errors in it (`None` where none were
/// looked for: they are then found for the language chosen if wanted).
///
/// The evidence of the whole game is weighed, so that a slip before the
/// replay has seen much of the game does not derail the choice: first its
/// piece letters, wherever they stand (before and after the first error),
/// name the languages they speak for ([`LetterEvidence::candidates`]); then
/// the game is replayed in each of them (and in English, where English
/// explains the letters) with the best repair of each error applied, and
/// the reading that leaves the fewest errors wins, the one the letters
/// speak for most on a tie. A game with one slip is so read in its own
/// language, with one error. Where the letters speak for no language, the
/// language under which the main line replays farthest is chosen
/// ([`farthest_language`]).
pub(crate) fn choose(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    english: &Pass<Tracker>,
) -> (Language, Option<repair::Repairs>) {
    let encoding = text.encoding();
    let mut evidence = LetterEvidence::default();
    for i in english.main_tokens.iter().map(|&i| i as usize) {
        let Some(token) = game.tokens.get(i) else {
            continue;
        };
        let word = text.slice(token.span.clone(), token.text);
        if let Ok(mt) = parse_move(word.trim_start_matches(['.', '…'])) {
            evidence.add(&mt);
        }
    }
    let mut readings = evidence.candidates();
    if readings.is_empty() {
        // One foreign-looking letter in an English game is more likely a
        // slip (`Cc3` for `Nc3`) than a language: another language needs
        // two words of evidence, or the whole main line replaying in it.
        let better = english
            .failure
            .as_ref()
            .is_some_and(|f| f.resolvable_elsewhere)
            .then(|| farthest_language(game, text, start, english))
            .flatten()
            .filter(|&l| {
                evidence.speaks_for(l) >= 2
                    || probe_main_line(game, text, start, l) as usize == english.main_tokens.len()
            });
        return (better.unwrap_or(Language::En), None);
    }
    readings.truncate(MAX_READINGS);
    // English last: on a tie, the letters' evidence decides.
    if evidence.is_plausible(Language::En) {
        readings.push(Language::En);
    }
    // (errors left, with one more for a game the repairs do not carry to
    // its end; the language; its repairs)
    let mut best: Option<(usize, Language, Option<repair::Repairs>)> = None;
    for lang in readings {
        // A reading wins with fewer errors than the best: its search stops
        // one short of that many.
        let limit = best
            .as_ref()
            .map_or(repair::MAX_ERRORS, |b| b.0.saturating_sub(1));
        if limit == 0 {
            // Only a reading without error can win: the main line replaying
            // to its end, which a probe tells.
            if probe_main_line(game, text, start, lang) as usize == english.main_tokens.len() {
                best = Some((0, lang, None));
                break;
            }
            continue;
        }
        let own;
        let pass = if lang == Language::En {
            english
        } else {
            own = replay_movetext(game, text, start, (lang, History::Recent, false), &mut ());
            &own
        };
        let (errors, found) = if pass.failure.is_none() {
            (0, None)
        } else {
            match repair::Repairs::find(game, encoding, start, lang, pass, limit) {
                Some(r) => (r.errors() + usize::from(!r.finished()), Some(r)),
                None => (2, None),
            }
        };
        if best.as_ref().is_none_or(|b| errors < b.0) {
            best = Some((errors, lang, found));
        }
        if errors == 0 {
            break;
        }
    }
    match best {
        Some((_, lang, found)) => (lang, found),
        None => (Language::En, None),
    }
}

/// Chooses the language under which the main line replays farthest, if one
/// goes farther than English. Candidates are the languages in which every
/// piece letter of the main line means a piece.
fn farthest_language(
    game: &Game<'_>,
    text: GameText<'_>,
    start: &Chess,
    english: &Pass<Tracker>,
) -> Option<Language> {
    let mut candidates = LanguageSet::ALL;
    let mut failing = LanguageSet::ALL;
    for i in english.main_tokens.iter().map(|&i| i as usize) {
        let Some(token) = game.tokens.get(i) else {
            continue;
        };
        let word = text.slice(token.span.clone(), token.text);
        if let Ok(mt) = parse_move(&word) {
            let langs = mt.languages();
            if english.failure.as_ref().is_some_and(|f| f.token == i) {
                failing = langs;
            }
            candidates = candidates.intersect(langs);
        }
    }
    if candidates.is_empty() {
        candidates = failing;
    }
    let mut best: Option<(u32, Language)> = None;
    for lang in candidates.iter() {
        if lang == Language::En {
            continue;
        }
        let plies = probe_main_line(game, text, start, lang);
        if best.is_none_or(|(b, _)| plies > b) {
            best = Some((plies, lang));
        }
    }
    best.filter(|&(plies, _)| plies > english.plies)
        .map(|(_, lang)| lang)
}
