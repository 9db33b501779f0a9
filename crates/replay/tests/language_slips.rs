//! A slip early in a game written in another language must not derail the
//! detection of its language: real games written by the notation crate's
//! writer in German, French, Spanish, Dutch, Polish, Czech, Russian (short,
//! `Кf3`) and Russian long (`Кg1-f3`, `Фd1:d8`, `0-0`), with one slip
//! seeded at each of the first ten plies, are read in their own language
//! with exactly one error, and the fix of that error is among its
//! suggestions, shown in the game's language so that it reads back as the
//! move played.

use pgnkit_notation::{CaptureMark, CastlingMark, Language, Notation, Style, parse_move};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Code, Diagnostic, GameReport, Options, replay_game};
use shakmaty::{Chess, Move};

#[path = "support/slips.rs"]
mod slips;

use slips::{Clean, Rng, SLIPS, Truth, inject_at, pgn_text, rank_of};

/// Real games from the notation crate's test data (see its README for
/// their sources and licences): the first `n` of `file` with at least 30
/// plies, as played.
fn games(file: &str, n: usize) -> Vec<Clean> {
    let out = slips::clean_games(file, n);
    assert_eq!(out.len(), n, "{file} has {n} clean games of 30 plies");
    out
}

fn styles() -> Vec<Style> {
    let mut styles: Vec<Style> = [
        Language::De,
        Language::Fr,
        Language::Es,
        Language::Nl,
        Language::Pl,
        Language::Cs,
        Language::Ru,
    ]
    .into_iter()
    .map(|l| Style::new(Notation::San, l))
    .collect();
    styles.push(Style {
        notation: Notation::Lan,
        language: Language::Ru,
        capture: CaptureMark::Colon,
        castling: CastlingMark::DigitZero,
        ..Style::new(Notation::Lan, Language::Ru)
    });
    styles
}

fn is_move_error(d: &Diagnostic) -> bool {
    d.is_error()
        && matches!(
            d.code,
            Code::UnparsableMove | Code::IllegalMove | Code::AmbiguousMove | Code::MissingMove
        )
}

/// The moves a help line shows (`did you mean Кf3?`, `insert Sf3 as ply
/// 5`, `play Фd1-d3 before Лf8-e8`).
fn shown_moves(help: &str) -> Vec<&str> {
    let between = |after: &str, before: &str| -> Option<&str> {
        let rest = help.split_once(after)?.1;
        Some(rest.split_once(before)?.0)
    };
    if let Some(m) = between("did you mean ", "? ") {
        vec![m]
    } else if let Some(m) = between("insert ", " as ply") {
        vec![m]
    } else if let (Some(a), Some(b)) = (between("play ", " before "), between(" before ", " (")) {
        vec![a, b]
    } else {
        Vec::new()
    }
}

/// `text` read in `lang` in `pos`.
fn read(text: &str, pos: &Chess, lang: Language) -> Option<Move> {
    parse_move(text).ok()?.resolve(pos, lang).ok()
}

/// Checks one seeded game; a description of what went wrong, if anything.
fn check(
    report: &GameReport,
    g: &Clean,
    truth: &Truth,
    style: &Style,
    p: usize,
) -> Result<(), String> {
    let lang = style.language;
    if report.language != lang {
        return Err(format!("read as {}", report.language));
    }
    if report.errors() != 1 {
        return Err(format!("{} errors", report.errors()));
    }
    let Some(d) = report.diagnostics.iter().find(|d| is_move_error(d)) else {
        return Err("the error is no move error".to_owned());
    };
    let Some(r) = rank_of(truth, &d.suggestions) else {
        return Err(format!("the fix is not suggested: {:?}", d.suggestions));
    };
    // The fix as the help shows it, in the game's language, reads back as
    // the moves played.
    let help = d.help.get(r).map_or("", String::as_str);
    let shown = shown_moves(help);
    let expected: Vec<(&Chess, Move)> = match truth {
        Truth::Replace { .. } | Truth::Insert { .. } => vec![(&g.positions[p], g.moves[p])],
        Truth::Swap { .. } => vec![
            (&g.positions[p], g.moves[p]),
            (&g.positions[p + 2], g.moves[p + 2]),
        ],
        Truth::Delete => Vec::new(),
    };
    if shown.len() != expected.len() {
        return Err(format!("help `{help}` shows {shown:?}"));
    }
    for (text, (pos, m)) in shown.iter().zip(expected) {
        if read(text, pos, lang) != Some(m) {
            return Err(format!(
                "help `{help}`: `{text}` does not read as the move played"
            ));
        }
    }
    Ok(())
}

#[test]
fn an_early_slip_leaves_the_language_and_one_error() {
    let mut all = games("Capablanca.pgn", 5);
    all.extend(games("twic944-first700.pgn", 5));
    let options = Options::default();
    let mut failures: Vec<String> = Vec::new();
    let mut cases = 0;
    for style in styles() {
        let lang = style.language;
        for (gi, g) in all.iter().enumerate() {
            let written = g.written(&style);
            for p in 0..10 {
                // The slip kinds take turns; where one does not apply at
                // this ply (no piece moved, no capture…), the next.
                let mut rng = Rng((gi * 10 + p) as u64);
                let Some((slip, (tokens, truth))) = (0..SLIPS.len())
                    .map(|k| SLIPS[(gi + p + k) % SLIPS.len()])
                    .filter(|s| s.applies_to(&style))
                    .find_map(|s| inject_at(s, g, &written, &style, p, &mut rng).map(|c| (s, c)))
                else {
                    continue;
                };
                let text = pgn_text(&tokens);
                let mut reader = Reader::new(text.as_bytes());
                let mut game = Game::default();
                assert!(reader.read_game(&mut game));
                let report = replay_game(text.as_bytes(), &game, &options);
                cases += 1;
                if let Err(why) = check(&report, g, &truth, &style, p) {
                    failures.push(format!(
                        "{lang} {:?} game {gi} ply {}: {slip:?} {truth:?}: {why}\n{text}",
                        style.notation,
                        p + 1
                    ));
                }
            }
        }
    }
    assert!(cases >= 700, "{cases} cases");
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
