//! Language auto-detection: for every letter collision, two real games written
//! in two languages where the letter means different pieces; detection must
//! choose a language that reads each game as written, and never the other.
//!
//! The games are real (testdata/notation); their moves are rendered in each
//! language by the writer (which renders from the move). A few mixed-keyboard
//! variants are built by replacing Cyrillic letters with their Latin look-alikes.

mod common;

use pgnkit_notation::{
    Language, LanguageSet, Notation, Style, detect_language, parse_move, write_move,
};
use shakmaty::{Chess, Move, Position};

struct Written {
    start: Chess,
    moves: Vec<Move>,
    tokens: Vec<String>,
}

fn games() -> Vec<common::Game> {
    // long standard games, so that every piece moves
    common::all_test_games()
        .into_iter()
        .filter(|g| {
            g.plies.len() >= 80
                && !g.start.castles().mode().is_chess960()
                && g.start == Chess::default()
        })
        .collect()
}

fn write_game(g: &common::Game, style: Style) -> Written {
    let tokens = g
        .plies
        .iter()
        .map(|p| {
            let mut s = String::new();
            write_move(&p.pos, &p.m, &style, &mut s);
            s
        })
        .collect();
    Written {
        start: g.start.clone(),
        moves: g.plies.iter().map(|p| p.m).collect(),
        tokens,
    }
}

/// Whether `lang` reads every token of the game as the moves played.
fn reads_as_written(w: &Written, lang: Language) -> bool {
    let mut pos = w.start.clone();
    for (t, m) in w.tokens.iter().zip(&w.moves) {
        match parse_move(t).ok().and_then(|t| t.resolve(&pos, lang).ok()) {
            Some(got) if got == *m => pos.play_unchecked(got),
            _ => return false,
        }
    }
    true
}

fn assert_detects(w: &Written, expected: Language, not: Language, what: &str) {
    let d = detect_language(&w.start, &w.tokens, LanguageSet::ALL);
    assert!(d.is_complete(), "{what}: nothing replays ({d:?})");
    assert!(
        d.candidates.contains(expected),
        "{what}: {expected} not among {:?}",
        d.candidates
    );
    assert!(!d.candidates.contains(not), "{what}: {not} replays too");
    assert_ne!(d.language, not, "{what}");
    assert!(
        reads_as_written(w, d.language),
        "{what}: chose {} which misreads the game",
        d.language
    );
    assert_eq!(d.replayed, w.tokens.len());
}

/// One collision: `letter` means different pieces in `a` and `b`.
fn collision(letter: &str, a: Language, b: Language, ga: &common::Game, gb: &common::Game) {
    let wa = write_game(ga, Style::new(Notation::San, a));
    let wb = write_game(gb, Style::new(Notation::San, b));
    assert!(
        wa.tokens.iter().any(|t| t.starts_with(letter)),
        "{letter} unused in the {a} game"
    );
    assert!(
        wb.tokens.iter().any(|t| t.starts_with(letter)),
        "{letter} unused in the {b} game"
    );
    assert_detects(&wa, a, b, &format!("{letter}: game in {a}"));
    assert_detects(&wb, b, a, &format!("{letter}: game in {b}"));
}

#[test]
fn every_letter_collision_is_resolved_per_game() {
    let games = games();
    assert!(games.len() > 40);
    let g = |i: usize| &games[i % games.len()];
    use Language::*;
    let cases: &[(&str, Language, Language)] = &[
        ("K", En, Id),  // king / knight (Kuda)
        ("K", De, Tr),  // king / rook (Kale)
        ("R", En, Fr),  // rook / king (Roi)
        ("R", Fi, Lt),  // knight (Ratsu) / bishop (Rikis)
        ("R", Es, Is),  // king / knight
        ("B", En, Hu),  // bishop / rook (Bástya)
        ("B", Pt, Lt),  // bishop / rook (Bokštas)
        ("L", De, Et),  // bishop / queen (Lipp)
        ("S", De, Cs),  // knight / bishop (Střelec)
        ("C", Fr, Ro),  // knight in both, but N is Romanian for bishop: see below
        ("N", En, Ro),  // knight / bishop (Nebun)
        ("P", Nl, Fr),  // knight (Paard) / pawn prefix never written: Fr game uses C
        ("V", Hu, Cs),  // queen (Vezér) / rook (Věž)
        ("H", Hu, Pl),  // knight (Huszár) / queen (Hetman)
        ("H", Pl, Is),  // queen / rook (Hrókur)
        ("A", Es, Tr),  // bishop (Alfil) / knight (At)
        ("F", Fr, Tr),  // bishop in both; Tr's A (knight) and K (rook) differ
        ("G", Pl, Id),  // bishop in both; Pl's S/H/W vs Id's K/M/B differ
        ("O", Et, Bg),  // bishop in Estonian; Bulgarian writes Cyrillic О
        ("D", De, Fr),  // queen in both; S vs C
        ("T", De, Uk),  // rook in both (Latin T and Cyrillic Т)
        ("Кр", Ru, Uk), // king in both; Л vs Т for the rook
        ("К", Ru, Bg),  // knight in both; Кр vs Ц for the king
    ];
    for (i, (letter, a, b)) in cases.iter().enumerate() {
        // different games for the two languages
        let (ga, gb) = (g(2 * i), g(2 * i + 1));
        let wa = write_game(ga, Style::new(Notation::San, *a));
        let wb = write_game(gb, Style::new(Notation::San, *b));
        if wa.tokens.iter().any(|t| t.starts_with(letter))
            && wb.tokens.iter().any(|t| t.starts_with(letter))
        {
            collision(letter, *a, *b, ga, gb);
        } else {
            assert_detects(&wa, *a, *b, &format!("{letter}: game in {a}"));
            assert_detects(&wb, *b, *a, &format!("{letter}: game in {b}"));
        }
    }
}

#[test]
fn cyrillic_and_latin_lookalikes() {
    let games = games();
    use Language::*;
    // Russian typed with Latin C (bishop) and K (knight) and Kp (king): still Russian,
    // while Latin C in a French game is a knight.
    let mut ru = write_game(&games[3], Style::RU_SCORESHEET);
    for t in &mut ru.tokens {
        *t = t.replace("Кр", "Kp").replace('С', "C").replace('К', "K");
    }
    assert!(
        ru.tokens.iter().any(|t| t.starts_with('C'))
            && ru.tokens.iter().any(|t| t.starts_with("Kp"))
    );
    assert_detects(&ru, Ru, Fr, "Russian on a Latin keyboard");
    let fr = write_game(&games[4], Style::new(Notation::San, Fr));
    assert_detects(&fr, Fr, Ru, "French");
    // Serbian Cyrillic: К is the king and С the knight, unlike Russian
    let mut sr = write_game(&games[5], Style::new(Notation::San, Sr));
    for t in &mut sr.tokens {
        *t = t
            .replace('K', "К")
            .replace('S', "С")
            .replace('L', "Л")
            .replace('T', "Т")
            .replace('D', "Д");
    }
    assert_detects(&sr, Sr, Ru, "Serbian Cyrillic");
    let ru = write_game(&games[6], Style::new(Notation::San, Ru));
    assert_detects(&ru, Ru, Sr, "Russian");
    // English with a P prefix on pawn moves vs Dutch P (knight)
    let mut en = write_game(&games[7], Style::SAN);
    for t in &mut en.tokens {
        if t.starts_with(|c: char| c.is_ascii_lowercase()) {
            t.insert(0, 'P');
        }
    }
    assert_detects(&en, En, Nl, "English with P prefixes");
    let nl = write_game(&games[8], Style::new(Notation::San, Nl));
    assert_detects(&nl, Nl, En, "Dutch");
}

#[test]
fn english_games_stay_english_and_forced_languages_are_respected() {
    let games = games();
    for g in games.iter().take(30) {
        let w = write_game(g, Style::SAN);
        let d = detect_language(&w.start, &w.tokens, LanguageSet::ALL);
        assert_eq!(d.language, Language::En);
        // forced German: English SAN still reads (letters without German meaning fall back)
        let d = detect_language(&w.start, &w.tokens, LanguageSet::single(Language::De));
        assert_eq!(d.language, Language::De);
    }
    // a forced language that cannot read the game reports how far it got
    let w = write_game(&games[0], Style::new(Notation::San, Language::Fr));
    let d = detect_language(&w.start, &w.tokens, LanguageSet::single(Language::En));
    assert!(!d.is_complete());
    assert!(d.replayed < w.tokens.len());
}
