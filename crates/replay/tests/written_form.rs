//! The way the writer writes the later moves is evidence in every language:
//! a knight move written `Sd7` where both knights reach d7 is decided by
//! the rest of the record (a later `Sbd2` is written with its file of
//! departure only where the other knight could go there too), in German,
//! French or Russian as in English. The same real games with the same
//! missing disambiguations, written in each language, get the same
//! decision from `check --fix` (applied, or left for a human).

use pgnkit_notation::{Language, Notation, Style};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::fix::{Decision, decide};
use pgnkit_replay::{Code, Options, Suggestion, replay_game};

#[path = "support/slips.rs"]
mod slips;

use slips::{Rng, Slip, inject_at, pgn_text};

/// What `check --fix` decides for the first move error of `tokens`:
/// `Some(san)` applied, `None` left (tie or unconfirmed).
fn decision(tokens: &[String]) -> Option<Option<String>> {
    let text = pgn_text(tokens);
    let mut game = Game::default();
    assert!(Reader::new(text.as_bytes()).read_game(&mut game));
    let report = replay_game(text.as_bytes(), &game, &Options::default());
    let d = report
        .diagnostics
        .iter()
        .find(|d| !d.variation && d.code == Code::AmbiguousMove)?;
    Some(match decide(&d.suggestions) {
        Decision::Apply(Suggestion::Replace { san, .. }) => Some(san.clone()),
        _ => None,
    })
}

#[test]
fn a_missing_disambiguation_is_decided_alike_in_every_language() {
    let games = slips::clean_games("twic944-first700.pgn", 12);
    assert_eq!(games.len(), 12);
    let styles = [Language::De, Language::Fr, Language::Ru].map(|l| Style::new(Notation::San, l));
    let (mut cases, mut applied) = (0, 0);
    for g in &games {
        let english = g.written(&Style::SAN);
        for p in 0..g.moves.len() {
            // The slip takes no randomness: the disambiguation is left out.
            let Some((tokens, _)) = inject_at(
                Slip::Disambiguation,
                g,
                &english,
                &Style::SAN,
                p,
                &mut Rng(0),
            ) else {
                continue;
            };
            let Some(en) = decision(&tokens) else {
                continue;
            };
            cases += 1;
            applied += usize::from(en.is_some());
            for style in &styles {
                let written = g.written(style);
                let Some((tokens, _)) =
                    inject_at(Slip::Disambiguation, g, &written, style, p, &mut Rng(0))
                else {
                    panic!("ply {}: no slip in {:?}", p + 1, style.language);
                };
                assert_eq!(
                    decision(&tokens),
                    Some(en.clone()),
                    "ply {} ({}) in {:?}",
                    p + 1,
                    english[p],
                    style.language
                );
            }
        }
    }
    eprintln!("{cases} missing disambiguations, {applied} applied");
    assert!(
        cases >= 5 && applied > 0,
        "{cases} cases, {applied} applied"
    );
}
