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

/// Runs `pgnkit convert -q ARGS FILE`.
fn convert(args: &[&str], file: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["convert", "-q"])
        .args(args)
        .arg(file)
        .output()
        .expect("pgnkit runs")
}

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
    let out = convert(&["--to", "spoken", "--format", "pgn"], &file);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format text"));
    // Without `--format`, away from a terminal: the JSON records.
    let out = convert(&["--to", "spoken"], &file);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"{\"type\":\"game\""));
}

/// Without `--format`, on a terminal, spoken moves are text: one numbered
/// move a line, to be read aloud (run under `script`, which gives the
/// command a terminal; skipped where there is none).
#[test]
fn spoken_moves_are_text_on_a_terminal() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/repair/white.pgn");
    let command = format!(
        "{} convert -q --to spoken --lang de {}",
        env!("CARGO_BIN_EXE_pgnkit"),
        file.display()
    );
    let Ok(out) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    else {
        eprintln!("no `script` here: skipped");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3, "{text}");
    assert!(lines[0].contains(" - "), "the players first: {text}");
    assert_eq!(lines[1], "1. Bauer Eva zwei Eva vier", "{text}");
    assert_eq!(lines[2], "1... Bauer Eva sieben Eva fünf", "{text}");
}

/// The names of the six pieces in each language, as an independent source
/// gives them (`None`: the source does not name that piece), with the
/// source: the seed documents (shared/seeds, see their README) and the
/// notation reference (shared/notation/REFERENCE.md: §1 the letter table
/// and the names it quotes, §3.1 the letter collisions, which name the
/// piece behind each letter).
struct Names {
    lang: &'static str,
    source: &'static str,
    /// Pawn, knight, bishop, rook, queen, king.
    pieces: [Option<&'static str>; 6],
}

#[rustfmt::skip]
const NAMES: &[Names] = &[
    Names { lang: "de", source: "seed 000, FIDE Laws, rules for visually impaired players: König, Dame, Turm, Läufer, Springer, Bauer", pieces: [Some("Bauer"), Some("Springer"), Some("Läufer"), Some("Turm"), Some("Dame"), Some("König")] },
    Names { lang: "pl", source: "seed 003, the Polish rules: król, hetman, wieża, goniec, skoczek, pionek", pieces: [Some("pionek"), Some("skoczek"), Some("goniec"), Some("wieża"), Some("hetman"), Some("król")] },
    Names { lang: "da", source: "seed 002, the Danish rules: konge, dronning, tårn, bonde; §3.1 S: Springer", pieces: [Some("bonde"), Some("springer"), None, Some("tårn"), Some("dronning"), Some("konge")] },
    Names { lang: "ru", source: "seed 004, FIDE Laws in Russian: король, ладья", pieces: [None, None, None, Some("ладья"), None, Some("король")] },
    Names { lang: "fr", source: "REFERENCE §1 FIDE-E(old) `F = fou`; §3.1 R: Roi", pieces: [None, None, Some("fou"), None, None, Some("roi")] },
    Names { lang: "es", source: "REFERENCE §3.1 R: Rey; A: Alfil", pieces: [None, None, Some("alfil"), None, None, Some("rey")] },
    Names { lang: "it", source: "REFERENCE §3.1 R: Re; A: Alfiere", pieces: [None, None, Some("alfiere"), None, None, Some("re")] },
    Names { lang: "pt", source: "REFERENCE §3.1 R: Rei", pieces: [None, None, None, None, None, Some("rei")] },
    Names { lang: "ca", source: "REFERENCE §1 Catalan row (WPold): rei, dama, torre, alfil, cavall, peó", pieces: [Some("peó"), Some("cavall"), Some("alfil"), Some("torre"), Some("dama"), Some("rei")] },
    Names { lang: "nl", source: "REFERENCE §1 FIDE-E(old) `L = loper`; §3.1 P: Paard", pieces: [None, Some("paard"), Some("loper"), None, None, None] },
    Names { lang: "no", source: "REFERENCE §3.1 B: Bonde (the pawn slot)", pieces: [Some("bonde"), None, None, None, None, None] },
    Names { lang: "sv", source: "REFERENCE §3.1 B: Bonde (the pawn slot)", pieces: [Some("bonde"), None, None, None, None, None] },
    Names { lang: "fi", source: "REFERENCE §1 Finnish row: kuningas, kuningatar/daami, torni, lähetti, ratsu, sotilas", pieces: [Some("sotilas"), Some("ratsu"), Some("lähetti"), Some("torni"), Some("daami"), Some("kuningas")] },
    Names { lang: "is", source: "REFERENCE §1 Icelandic row (ER): kóngur, drottning, hrókur; §3.1 R: Riddari", pieces: [None, Some("riddari"), None, Some("hrókur"), Some("drottning"), Some("kóngur")] },
    Names { lang: "et", source: "REFERENCE §1 Estonian row (ER): kuningas, lipp, vanker; §3.1 O: Oda, R: Ratsu", pieces: [None, Some("ratsu"), Some("oda"), Some("vanker"), Some("lipp"), Some("kuningas")] },
    Names { lang: "cs", source: "REFERENCE §3.1 S: Střelec; J: Jezdec; V: Věž", pieces: [None, Some("jezdec"), Some("střelec"), Some("věž"), None, None] },
    Names { lang: "sk", source: "REFERENCE §1 Slovak row (soks.sk 1939): kráľ, dáma, strelec, jazdec, veža, pešiak", pieces: [Some("pešiak"), Some("jazdec"), Some("strelec"), Some("veža"), Some("dáma"), Some("kráľ")] },
    Names { lang: "hu", source: "REFERENCE §3.1 G: Gyalog; H: Huszár; F: Futó; B: Bástya; V: Vezér", pieces: [Some("gyalog"), Some("huszár"), Some("futó"), Some("bástya"), Some("vezér"), None] },
    Names { lang: "ro", source: "REFERENCE §3.1 R: Rege", pieces: [None, None, None, None, None, Some("rege")] },
    Names { lang: "uk", source: "REFERENCE §1 Ukrainian row (FIDE Appendix E in Ukrainian): король, ферзь, тура, слон, кінь", pieces: [None, Some("кінь"), Some("слон"), Some("тура"), Some("ферзь"), Some("король")] },
    Names { lang: "bg", source: "REFERENCE §1 Bulgarian row (WPold): цар, дама, топ, офицер, кон, пешка", pieces: [Some("пешка"), Some("кон"), Some("офицер"), Some("топ"), Some("дама"), Some("цар")] },
    Names { lang: "sr", source: "REFERENCE §1 Serbian/Croatian row (WPold): kralj, dama, top, lovac, skakač", pieces: [None, Some("skakač"), Some("lovac"), Some("top"), Some("dama"), Some("kralj")] },
    Names { lang: "sl", source: "REFERENCE §1 Slovene row: kralj, dama, trdnjava, lovec, skakač, kmet", pieces: [Some("kmet"), Some("skakač"), Some("lovec"), Some("trdnjava"), Some("dama"), Some("kralj")] },
    Names { lang: "tr", source: "REFERENCE §1 Turkish row: Şah, Vezir, Kale, Fil, At, piyon", pieces: [Some("piyon"), Some("at"), Some("fil"), Some("kale"), Some("vezir"), Some("şah")] },
    Names { lang: "el", source: "REFERENCE §1 Greek row: Ίππος, Αξιωματικός, Πύργος, Βασίλισσα, Βασιλιάς", pieces: [None, Some("ίππος"), Some("αξιωματικός"), Some("πύργος"), Some("βασίλισσα"), Some("βασιλιάς")] },
    Names { lang: "lt", source: "REFERENCE §1 Lithuanian row (a64.puslapiai.lt): Karalius Valdovė Bokštas Rikis Žirgas Pėstininkas", pieces: [Some("pėstininkas"), Some("žirgas"), Some("rikis"), Some("bokštas"), Some("valdovė"), Some("karalius")] },
    Names { lang: "lv", source: "REFERENCE §1 Latvian row (ER; lichess forum): karalis, dāma, tornis, laidnis, zirgs, bandinieks", pieces: [Some("bandinieks"), Some("zirgs"), Some("laidnis"), Some("tornis"), Some("dāma"), Some("karalis")] },
    Names { lang: "id", source: "REFERENCE §1 Indonesian row: Raja, Menteri, Benteng, Gajah, Kuda", pieces: [None, Some("kuda"), Some("gajah"), Some("benteng"), Some("menteri"), Some("raja")] },
    Names { lang: "af", source: "REFERENCE §3.1 R: Ruiter", pieces: [None, Some("ruiter"), None, None, None, None] },
];

/// Each language's spoken text names every piece in that language's own
/// word, as its source gives it: the Immortal Game (testdata/notation/
/// books/classics.pgn, game 1), where every kind of piece moves, said in
/// each language, one numbered move a line, each line's first word after
/// the number being the piece that moves (the SAN of the same move says
/// which).
#[test]
fn every_language_names_the_pieces_as_its_sources_do() {
    assert_eq!(NAMES.len(), 29, "every language of --lang but English");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/notation/books/classics.pgn");
    let run = |args: &[&str]| {
        let out = convert(args, &file);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let json = run(&["--to", "san", "--format", "json"]);
    let first = json.lines().next().expect("a game");
    let game: serde_json::Value = serde_json::from_str(first).expect("JSON");
    let roles: Vec<usize> = game["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            let san = m["move"].as_str().expect("SAN");
            "PNBRQK".find(&san[..1]).unwrap_or(0)
        })
        .collect();
    for n in NAMES {
        let text = run(&["--to", "spoken", "--format", "text", "--lang", n.lang]);
        let game = text.split("\n\n").next().expect("a game");
        let mut said: [Option<String>; 6] = Default::default();
        for (line, &role) in game.lines().skip(1).zip(&roles) {
            let mut words = line.split(' ');
            let number = words.next().expect("a number");
            assert!(number.ends_with('.'), "{}: {line}", n.lang);
            let piece = words.next().expect("a piece").to_lowercase();
            let first = said[role].get_or_insert_with(|| piece.clone());
            assert_eq!(*first, piece, "{}: one word a piece ({line})", n.lang);
        }
        for (role, expected) in n.pieces.iter().enumerate() {
            let Some(expected) = expected else { continue };
            assert_eq!(
                said[role].as_deref(),
                Some(expected.to_lowercase().as_str()),
                "{}: piece {role} ({})",
                n.lang,
                n.source
            );
        }
    }
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
    let out = convert(&["--lang", "ar"], &file);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("حf3"));
}
