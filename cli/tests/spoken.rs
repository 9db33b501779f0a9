//! `pgnkit convert --to spoken --lang L`: moves said in the words of each
//! language (FIDE Laws, rules for visually impaired players: the files by
//! their phonetic names, pieces and numbers in the players' language).
//!
//! The expected words are written out here by hand, one row a language, not
//! taken from the code's tables.

use std::path::Path;
use std::process::Command;

/// Per language: pawn, knight, the numbers one to five, the capture word,
/// short and long castling, and the files e, g, f, d as said.
struct Words {
    lang: &'static str,
    pawn: &'static str,
    knight: &'static str,
    numbers: [&'static str; 5],
    takes: &'static str,
    short: &'static str,
    long: &'static str,
    files: [&'static str; 4],
}

const LATIN: [&str; 4] = ["Eva", "Gustav", "Felix", "David"];
const CYRILLIC: [&str; 4] = ["Ева", "Густав", "Феликс", "Давид"];

#[rustfmt::skip]
const LANGUAGES: &[Words] = &[
    Words { lang: "de", pawn: "Bauer", knight: "Springer", numbers: ["eins", "zwei", "drei", "vier", "fünf"], takes: "schlägt", short: "kurze Rochade", long: "lange Rochade", files: LATIN },
    Words { lang: "fr", pawn: "pion", knight: "cavalier", numbers: ["un", "deux", "trois", "quatre", "cinq"], takes: "prend", short: "petit roque", long: "grand roque", files: LATIN },
    Words { lang: "es", pawn: "peón", knight: "caballo", numbers: ["uno", "dos", "tres", "cuatro", "cinco"], takes: "captura", short: "enroque corto", long: "enroque largo", files: LATIN },
    Words { lang: "it", pawn: "pedone", knight: "cavallo", numbers: ["uno", "due", "tre", "quattro", "cinque"], takes: "prende", short: "arrocco corto", long: "arrocco lungo", files: LATIN },
    Words { lang: "pt", pawn: "peão", knight: "cavalo", numbers: ["um", "dois", "três", "quatro", "cinco"], takes: "captura", short: "roque pequeno", long: "roque grande", files: LATIN },
    Words { lang: "ca", pawn: "peó", knight: "cavall", numbers: ["u", "dos", "tres", "quatre", "cinc"], takes: "captura", short: "enroc curt", long: "enroc llarg", files: LATIN },
    Words { lang: "nl", pawn: "pion", knight: "paard", numbers: ["een", "twee", "drie", "vier", "vijf"], takes: "slaat", short: "korte rokade", long: "lange rokade", files: LATIN },
    Words { lang: "da", pawn: "bonde", knight: "springer", numbers: ["en", "to", "tre", "fire", "fem"], takes: "slår", short: "kort rokade", long: "lang rokade", files: LATIN },
    Words { lang: "no", pawn: "bonde", knight: "springer", numbers: ["en", "to", "tre", "fire", "fem"], takes: "slår", short: "kort rokade", long: "lang rokade", files: LATIN },
    Words { lang: "sv", pawn: "bonde", knight: "springare", numbers: ["ett", "två", "tre", "fyra", "fem"], takes: "slår", short: "kort rockad", long: "lång rockad", files: LATIN },
    Words { lang: "fi", pawn: "sotilas", knight: "ratsu", numbers: ["yksi", "kaksi", "kolme", "neljä", "viisi"], takes: "lyö", short: "lyhyt linnoitus", long: "pitkä linnoitus", files: LATIN },
    Words { lang: "is", pawn: "peð", knight: "riddari", numbers: ["einn", "tveir", "þrír", "fjórir", "fimm"], takes: "drepur", short: "stutt hrókun", long: "löng hrókun", files: LATIN },
    Words { lang: "et", pawn: "ettur", knight: "ratsu", numbers: ["üks", "kaks", "kolm", "neli", "viis"], takes: "lööb", short: "lühike vangerdus", long: "pikk vangerdus", files: LATIN },
    Words { lang: "pl", pawn: "pionek", knight: "skoczek", numbers: ["jeden", "dwa", "trzy", "cztery", "pięć"], takes: "bije", short: "krótka roszada", long: "długa roszada", files: LATIN },
    Words { lang: "cs", pawn: "pěšec", knight: "jezdec", numbers: ["jedna", "dvě", "tři", "čtyři", "pět"], takes: "bere", short: "malá rošáda", long: "velká rošáda", files: LATIN },
    Words { lang: "sk", pawn: "pešiak", knight: "jazdec", numbers: ["jeden", "dva", "tri", "štyri", "päť"], takes: "berie", short: "malá rošáda", long: "veľká rošáda", files: LATIN },
    Words { lang: "hu", pawn: "gyalog", knight: "huszár", numbers: ["egy", "kettő", "három", "négy", "öt"], takes: "üti", short: "rövid sáncolás", long: "hosszú sáncolás", files: LATIN },
    Words { lang: "ro", pawn: "pion", knight: "cal", numbers: ["unu", "doi", "trei", "patru", "cinci"], takes: "ia", short: "rocadă mică", long: "rocadă mare", files: LATIN },
    Words { lang: "ru", pawn: "пешка", knight: "конь", numbers: ["один", "два", "три", "четыре", "пять"], takes: "бьёт", short: "короткая рокировка", long: "длинная рокировка", files: CYRILLIC },
    Words { lang: "uk", pawn: "пішак", knight: "кінь", numbers: ["один", "два", "три", "чотири", "п'ять"], takes: "б'є", short: "коротка рокіровка", long: "довга рокіровка", files: CYRILLIC },
    Words { lang: "bg", pawn: "пешка", knight: "кон", numbers: ["едно", "две", "три", "четири", "пет"], takes: "взима", short: "малка рокада", long: "голяма рокада", files: CYRILLIC },
    Words { lang: "sr", pawn: "pešak", knight: "skakač", numbers: ["jedan", "dva", "tri", "četiri", "pet"], takes: "uzima", short: "mala rokada", long: "velika rokada", files: LATIN },
    Words { lang: "tr", pawn: "piyon", knight: "at", numbers: ["bir", "iki", "üç", "dört", "beş"], takes: "alır", short: "kısa rok", long: "uzun rok", files: LATIN },
    Words { lang: "el", pawn: "πιόνι", knight: "ίππος", numbers: ["ένα", "δύο", "τρία", "τέσσερα", "πέντε"], takes: "παίρνει", short: "μικρό ροκέ", long: "μεγάλο ροκέ", files: LATIN },
    Words { lang: "lt", pawn: "pėstininkas", knight: "žirgas", numbers: ["vienas", "du", "trys", "keturi", "penki"], takes: "kerta", short: "trumpoji rokiruotė", long: "ilgoji rokiruotė", files: LATIN },
    Words { lang: "id", pawn: "pion", knight: "kuda", numbers: ["satu", "dua", "tiga", "empat", "lima"], takes: "makan", short: "rokade pendek", long: "rokade panjang", files: LATIN },
    Words { lang: "af", pawn: "pion", knight: "ruiter", numbers: ["een", "twee", "drie", "vier", "vyf"], takes: "slaan", short: "kort rokade", long: "lang rokade", files: LATIN },
    Words { lang: "lv", pawn: "bandinieks", knight: "zirgs", numbers: ["viens", "divi", "trīs", "četri", "pieci"], takes: "sit", short: "īsā rokāde", long: "garā rokāde", files: LATIN },
    Words { lang: "sl", pawn: "kmet", knight: "skakač", numbers: ["ena", "dve", "tri", "štiri", "pet"], takes: "vzame", short: "kratka rokada", long: "dolga rokada", files: LATIN },
];

/// The spoken moves of the first game of a real game file (Capablanca's
/// 1901 game: 1. e4 e5 2. Nf3 Nc6 3. d4 exd4 … 7... O-O … 12. O-O-O).
fn spoken_moves(lang: &str) -> Vec<String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/repair/white.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args([
            "convert", "-q", "--to", "spoken", "--format", "json", "--lang", lang,
        ])
        .arg(&file)
        .output()
        .expect("pgnkit runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = out.stdout.split(|&b| b == b'\n').next().expect("a game");
    let game: serde_json::Value = serde_json::from_slice(first).expect("JSON");
    game["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().expect("move").to_owned())
        .collect()
}

#[test]
fn every_language_says_moves_in_its_own_words() {
    assert_eq!(LANGUAGES.len(), 29, "every language of --lang but English");
    for w in LANGUAGES {
        let moves = spoken_moves(w.lang);
        let [e, g, f, d] = w.files;
        let [one, two, three, four, five] = w.numbers;
        assert_eq!(
            moves[0],
            format!("{} {e} {two} {e} {four}", w.pawn),
            "{}",
            w.lang
        );
        assert_eq!(
            moves[2],
            format!("{} {g} {one} {f} {three}", w.knight),
            "{}",
            w.lang
        );
        assert_eq!(
            moves[5],
            format!("{} {e} {five} {} {d} {four}", w.pawn, w.takes),
            "{}",
            w.lang
        );
        assert_eq!(moves[13], w.short, "{}", w.lang);
        assert_eq!(moves[22], w.long, "{}", w.lang);
    }
}

#[test]
fn english_keeps_the_squares_as_written() {
    let moves = spoken_moves("en");
    assert_eq!(moves[0], "Pawn e2 to e4");
    assert_eq!(moves[2], "Knight g1 to f3");
    assert_eq!(moves[5], "Pawn e5 takes d4");
    assert_eq!(moves[13], "short castling");
}

/// `--format text`: the players, then one numbered move a line, the same
/// words as the JSON record's, then the result.
#[test]
fn spoken_moves_as_plain_text_are_one_numbered_move_a_line() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/repair/white.pgn");
    for w in LANGUAGES.iter().take(4) {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args([
                "convert", "-q", "--to", "spoken", "--format", "text", "--lang", w.lang,
            ])
            .arg(&file)
            .output()
            .expect("pgnkit runs");
        assert_eq!(out.status.code(), Some(0), "{}", w.lang);
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        let game: Vec<&str> = text.split("\n\n").next().expect("a game").lines().collect();
        let moves = spoken_moves(w.lang);
        assert_eq!(game.len(), moves.len() + 2, "players, moves, result");
        assert!(game[0].contains(" - "), "{}", game[0]);
        for (k, (line, said)) in game[1..].iter().zip(&moves).enumerate() {
            let number = k / 2 + 1;
            let expected = if k % 2 == 0 {
                format!("{number}. {said}")
            } else {
                format!("{number}... {said}")
            };
            assert_eq!(*line, expected);
        }
        assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(game.last().expect("result")));
    }
    // PGN movetext cannot hold words with spaces: refused, with the way out.
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["convert", "-q", "--to", "spoken"])
        .arg(&file)
        .output()
        .expect("pgnkit runs");
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format text"));
}

/// A language read and written in letters but without spoken words
/// (Arabic: no source gives them) is refused with exit status 2, for both
/// output formats, never said in another language's words.
#[test]
fn a_language_without_spoken_words_is_refused() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/repair/white.pgn");
    for format in ["json", "text"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args([
                "convert", "-q", "--to", "spoken", "--lang", "ar", "--format", format,
            ])
            .arg(&file)
            .output()
            .expect("pgnkit runs");
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert!(out.stdout.is_empty(), "{format}: nothing written");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("no spoken words for Arabic"), "{stderr}");
    }
    // Its letters are written all the same.
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["convert", "-q", "--lang", "ar"])
        .arg(&file)
        .output()
        .expect("pgnkit runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("حf3"));
}
