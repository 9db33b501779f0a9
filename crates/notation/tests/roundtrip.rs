//! Round-trip property over real positions: every legal move, rendered in a
//! style and language, reads back to the same move.
//!
//! Default run (debug, CI): every legal move of every main-line position of
//! testdata/notation (over 100,000 positions), each move in one style chosen
//! in rotation among all styles (SAN and LAN in every language, UCI,
//! figurine, spoken in every language, the Russian scoresheet), read back
//! under that style's language (language-neutral styles under a rotating
//! language); plus English SAN for every legal move of every 4th position
//! (the reader's fast path), and every style for the move played in every
//! 16th position.
//! `PGNKIT_FULL=1`: every legal move in every style.

mod common;

use pgnkit_notation::{
    CaptureMark, CastlingMark, Language, Notation, Style, parse_move, write_move,
};
use shakmaty::{Chess, Move, Position};

fn styles() -> Vec<Style> {
    let mut v = Vec::new();
    for &lang in Language::ALL {
        v.push(Style::new(Notation::San, lang));
        v.push(Style::new(Notation::Lan, lang));
        v.push(Style::new(Notation::Spoken, lang));
    }
    v.push(Style::new(Notation::Uci, Language::En));
    v.push(Style::new(Notation::Figurine, Language::En));
    v.push(Style::RU_SCORESHEET);
    v.push(Style {
        notation: Notation::Lan,
        language: Language::Sr,
        capture: CaptureMark::Colon,
        castling: CastlingMark::DigitZero,
        ..Style::new(Notation::Lan, Language::Sr)
    });
    v
}

fn neutral(style: &Style) -> bool {
    matches!(
        style.notation,
        Notation::Uci | Notation::Figurine | Notation::Spoken
    )
}

fn check(
    pos: &Chess,
    m: &Move,
    style: &Style,
    lang: Language,
    buf: &mut String,
) -> Result<(), String> {
    buf.clear();
    write_move(pos, m, style, buf);
    let token = parse_move(buf).map_err(|e| format!("{buf:?} ({style:?}): {e}"))?;
    match token.resolve(pos, lang) {
        Ok(got) if got == *m => Ok(()),
        Ok(got) => Err(format!(
            "{buf:?} ({style:?}, read as {lang}) gave {got:?}, wrote {m:?}"
        )),
        Err(e) => Err(format!(
            "{buf:?} ({style:?}, read as {lang}) in {}: {e}",
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        )),
    }
}

#[test]
fn every_legal_move_reads_back_in_every_style() {
    let games = common::all_test_games();
    let positions: Vec<(&Chess, &Move)> = games
        .iter()
        .flat_map(|g| g.plies.iter().map(|p| (&p.pos, &p.m)))
        .collect();
    assert!(
        positions.len() >= 100_000,
        "only {} positions",
        positions.len()
    );
    assert!(
        games.iter().any(|g| g.start.castles().mode().is_chess960()),
        "no Chess960 game"
    );
    let full = std::env::var_os("PGNKIT_FULL").is_some();
    let styles = styles();
    let n = styles.len();
    let langs = Language::ALL;
    let chunks: Vec<&[(&Chess, &Move)]> = positions.chunks(positions.len().div_ceil(2)).collect();
    let (checked, failures) = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .enumerate()
            .map(|(ci, chunk)| {
                let styles = &styles;
                s.spawn(move || {
                    let mut buf = String::new();
                    let mut failures = Vec::new();
                    let mut checked = 0usize;
                    for (pi, (pos, played)) in chunk.iter().enumerate() {
                        let pi = pi + ci * 1_000_003;
                        let mut run = |m: &Move, style: &Style, k: usize| {
                            let lang = if neutral(style) {
                                langs[k % langs.len()]
                            } else {
                                style.language
                            };
                            checked += 1;
                            if let Err(e) = check(pos, m, style, lang, &mut buf)
                                && failures.len() < 20
                            {
                                failures.push(e);
                            }
                        };
                        for (mi, m) in pos.legal_moves().iter().enumerate() {
                            if full {
                                for (si, style) in styles.iter().enumerate() {
                                    run(m, style, pi + si);
                                }
                            } else {
                                let si = (pi * 7 + mi) % n;
                                run(m, &styles[si], pi + mi);
                                if pi % 4 == 0 && si != 0 {
                                    run(m, &styles[0], pi + mi); // English SAN
                                }
                            }
                        }
                        if !full && pi % 16 == 0 {
                            for (si, style) in styles.iter().enumerate() {
                                run(played, style, pi + si);
                            }
                        }
                    }
                    (checked, failures)
                })
            })
            .collect();
        handles.into_iter().fold((0, Vec::new()), |(c, mut f), h| {
            let (c2, f2) = h.join().expect("worker");
            f.extend(f2);
            (c + c2, f)
        })
    });
    eprintln!("{} positions, {checked} round trips", positions.len());
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
