//! The spoken form of a move, for announcing moves aloud (FIDE Laws, rules
//! for visually impaired players) and for screen readers.
//!
//! Every language of [`Language`] has a table of words, as data: the six
//! piece names, the numbers one to eight, and the words for a capture, a
//! promotion, en passant, the two castlings, check and mate. A move is said
//! as the piece, its origin square, the capture word if it captures, its
//! destination square, then en passant, the promotion and check or mate.
//! Files are the phonetic names of the Laws (Anna, Bella, Cäsar, David, Eva,
//! Felix, Gustav, Hektor in German; Cesar and Hector in the Latin-script
//! languages; Анна … Гектор in Russian, Ukrainian and Bulgarian); ranks are
//! the numbers in the players' language. English keeps the squares as
//! written (`Knight g1 to f3`).
//!
//! ```
//! use pgnkit_notation::{Language, Notation, Style, write_move};
//! use shakmaty::{Chess, Square, Role, Move};
//!
//! let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None,
//!                        to: Square::F3, promotion: None };
//! let mut out = String::new();
//! write_move(&Chess::default(), &m, &Style::new(Notation::Spoken, Language::De), &mut out);
//! assert_eq!(out, "Springer Gustav eins Felix drei");
//! out.clear();
//! write_move(&Chess::default(), &m, &Style::new(Notation::Spoken, Language::Fr), &mut out);
//! assert_eq!(out, "cavalier Gustav un Felix trois");
//! ```
//!
//! Spoken moves read back in any of these languages (the words of one
//! language, or German and English mixed, in any case).

use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use crate::language::Language;
use crate::token::{Body, Coords, MoveToken, Suffix, spoken_token};

/// How a vocabulary says a square.
enum Squares {
    /// As written: `g1`.
    Coordinates,
    /// A phonetic file name and a number word: `Gustav eins`.
    Named {
        files: &'static [&'static str; 8],
        ranks: [&'static str; 8],
    },
}

/// The words of one language.
struct Vocab {
    language: Language,
    /// Pawn, knight, bishop, rook, queen, king.
    pieces: [&'static str; 6],
    squares: Squares,
    /// Said between two squares of a move that captures nothing.
    to: Option<&'static str>,
    capture: &'static str,
    promotes: &'static str,
    en_passant: &'static str,
    short_castle: &'static str,
    long_castle: &'static str,
    check: &'static str,
    mate: &'static str,
}

/// The files as the Laws name them, in German.
static GERMAN_FILES: [&str; 8] = [
    "Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hektor",
];
/// The same names as the Laws' English text spells them.
static LATIN_FILES: [&str; 8] = [
    "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector",
];
/// The same names in Cyrillic.
static CYRILLIC_FILES: [&str; 8] = [
    "Анна",
    "Белла",
    "Цезарь",
    "Давид",
    "Ева",
    "Феликс",
    "Густав",
    "Гектор",
];

/// One table per language of [`Language::ALL`] but those of
/// [`WITHOUT_WORDS`]; a test checks that each language has exactly one.
static TABLES: [Vocab; 30] = [
    Vocab {
        language: Language::En,
        pieces: ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"],
        squares: Squares::Coordinates,
        to: Some("to"),
        capture: "takes",
        promotes: "promotes to",
        en_passant: "en passant",
        short_castle: "short castling",
        long_castle: "long castling",
        check: "check",
        mate: "checkmate",
    },
    Vocab {
        language: Language::De,
        pieces: ["Bauer", "Springer", "Läufer", "Turm", "Dame", "König"],
        squares: Squares::Named {
            files: &GERMAN_FILES,
            ranks: [
                "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht",
            ],
        },
        to: None,
        capture: "schlägt",
        promotes: "wird",
        en_passant: "en passant",
        short_castle: "kurze Rochade",
        long_castle: "lange Rochade",
        check: "Schach",
        mate: "Matt",
    },
    Vocab {
        language: Language::Fr,
        pieces: ["pion", "cavalier", "fou", "tour", "dame", "roi"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit",
            ],
        },
        to: None,
        capture: "prend",
        promotes: "devient",
        en_passant: "en passant",
        short_castle: "petit roque",
        long_castle: "grand roque",
        check: "échec",
        mate: "échec et mat",
    },
    Vocab {
        language: Language::Es,
        pieces: ["peón", "caballo", "alfil", "torre", "dama", "rey"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho",
            ],
        },
        to: None,
        capture: "captura",
        promotes: "corona",
        en_passant: "al paso",
        short_castle: "enroque corto",
        long_castle: "enroque largo",
        check: "jaque",
        mate: "jaque mate",
    },
    Vocab {
        language: Language::It,
        pieces: ["pedone", "cavallo", "alfiere", "torre", "donna", "re"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto",
            ],
        },
        to: None,
        capture: "prende",
        promotes: "promuove a",
        en_passant: "en passant",
        short_castle: "arrocco corto",
        long_castle: "arrocco lungo",
        check: "scacco",
        mate: "scacco matto",
    },
    Vocab {
        language: Language::Pt,
        pieces: ["peão", "cavalo", "bispo", "torre", "dama", "rei"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito",
            ],
        },
        to: None,
        capture: "captura",
        promotes: "promove a",
        en_passant: "en passant",
        short_castle: "roque pequeno",
        long_castle: "roque grande",
        check: "xeque",
        mate: "xeque-mate",
    },
    Vocab {
        language: Language::Ca,
        pieces: ["peó", "cavall", "alfil", "torre", "dama", "rei"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["u", "dos", "tres", "quatre", "cinc", "sis", "set", "vuit"],
        },
        to: None,
        capture: "captura",
        promotes: "corona",
        en_passant: "en passant",
        short_castle: "enroc curt",
        long_castle: "enroc llarg",
        check: "escac",
        mate: "escac i mat",
    },
    Vocab {
        language: Language::Nl,
        pieces: ["pion", "paard", "loper", "toren", "dame", "koning"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht",
            ],
        },
        to: None,
        capture: "slaat",
        promotes: "promoveert tot",
        en_passant: "en passant",
        short_castle: "korte rokade",
        long_castle: "lange rokade",
        check: "schaak",
        mate: "schaakmat",
    },
    Vocab {
        language: Language::Da,
        pieces: ["bonde", "springer", "løber", "tårn", "dronning", "konge"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["en", "to", "tre", "fire", "fem", "seks", "syv", "otte"],
        },
        to: None,
        capture: "slår",
        promotes: "bliver til",
        en_passant: "en passant",
        short_castle: "kort rokade",
        long_castle: "lang rokade",
        check: "skak",
        mate: "skakmat",
    },
    Vocab {
        language: Language::No,
        pieces: ["bonde", "springer", "løper", "tårn", "dronning", "konge"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["en", "to", "tre", "fire", "fem", "seks", "sju", "åtte"],
        },
        to: None,
        capture: "slår",
        promotes: "blir til",
        en_passant: "en passant",
        short_castle: "kort rokade",
        long_castle: "lang rokade",
        check: "sjakk",
        mate: "sjakkmatt",
    },
    Vocab {
        language: Language::Sv,
        pieces: ["bonde", "springare", "löpare", "torn", "dam", "kung"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["ett", "två", "tre", "fyra", "fem", "sex", "sju", "åtta"],
        },
        to: None,
        capture: "slår",
        promotes: "blir",
        en_passant: "en passant",
        short_castle: "kort rockad",
        long_castle: "lång rockad",
        check: "schack",
        mate: "schack matt",
    },
    Vocab {
        language: Language::Fi,
        pieces: ["sotilas", "ratsu", "lähetti", "torni", "daami", "kuningas"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "yksi",
                "kaksi",
                "kolme",
                "neljä",
                "viisi",
                "kuusi",
                "seitsemän",
                "kahdeksan",
            ],
        },
        to: None,
        capture: "lyö",
        promotes: "korottuu",
        en_passant: "ohestalyönti",
        short_castle: "lyhyt linnoitus",
        long_castle: "pitkä linnoitus",
        check: "shakki",
        mate: "matti",
    },
    Vocab {
        language: Language::Is,
        pieces: ["peð", "riddari", "biskup", "hrókur", "drottning", "kóngur"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "einn", "tveir", "þrír", "fjórir", "fimm", "sex", "sjö", "átta",
            ],
        },
        to: None,
        capture: "drepur",
        promotes: "verður",
        en_passant: "í framhjáhlaupi",
        short_castle: "stutt hrókun",
        long_castle: "löng hrókun",
        check: "skák",
        mate: "mát",
    },
    Vocab {
        language: Language::Et,
        pieces: ["ettur", "ratsu", "oda", "vanker", "lipp", "kuningas"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "üks", "kaks", "kolm", "neli", "viis", "kuus", "seitse", "kaheksa",
            ],
        },
        to: None,
        capture: "lööb",
        promotes: "muutub",
        en_passant: "möödaminnes",
        short_castle: "lühike vangerdus",
        long_castle: "pikk vangerdus",
        check: "tuli",
        mate: "matt",
    },
    Vocab {
        language: Language::Pl,
        pieces: ["pionek", "skoczek", "goniec", "wieża", "hetman", "król"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem",
            ],
        },
        to: None,
        capture: "bije",
        promotes: "promuje na",
        en_passant: "w przelocie",
        short_castle: "krótka roszada",
        long_castle: "długa roszada",
        check: "szach",
        mate: "szach mat",
    },
    Vocab {
        language: Language::Cs,
        pieces: ["pěšec", "jezdec", "střelec", "věž", "dáma", "král"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["jedna", "dvě", "tři", "čtyři", "pět", "šest", "sedm", "osm"],
        },
        to: None,
        capture: "bere",
        promotes: "mění se v",
        en_passant: "mimochodem",
        short_castle: "malá rošáda",
        long_castle: "velká rošáda",
        check: "šach",
        mate: "mat",
    },
    Vocab {
        language: Language::Sk,
        pieces: ["pešiak", "jazdec", "strelec", "veža", "dáma", "kráľ"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "jeden", "dva", "tri", "štyri", "päť", "šesť", "sedem", "osem",
            ],
        },
        to: None,
        capture: "berie",
        promotes: "mení sa na",
        en_passant: "mimochodom",
        short_castle: "malá rošáda",
        long_castle: "veľká rošáda",
        check: "šach",
        mate: "mat",
    },
    Vocab {
        language: Language::Hu,
        pieces: ["gyalog", "huszár", "futó", "bástya", "vezér", "király"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["egy", "kettő", "három", "négy", "öt", "hat", "hét", "nyolc"],
        },
        to: None,
        capture: "üti",
        promotes: "átváltozik",
        en_passant: "menet közben",
        short_castle: "rövid sáncolás",
        long_castle: "hosszú sáncolás",
        check: "sakk",
        mate: "matt",
    },
    Vocab {
        language: Language::Ro,
        pieces: ["pion", "cal", "nebun", "turn", "damă", "rege"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "unu", "doi", "trei", "patru", "cinci", "șase", "șapte", "opt",
            ],
        },
        to: None,
        capture: "ia",
        promotes: "devine",
        en_passant: "en passant",
        short_castle: "rocadă mică",
        long_castle: "rocadă mare",
        check: "șah",
        mate: "mat",
    },
    Vocab {
        language: Language::Ru,
        pieces: ["пешка", "конь", "слон", "ладья", "ферзь", "король"],
        squares: Squares::Named {
            files: &CYRILLIC_FILES,
            ranks: [
                "один",
                "два",
                "три",
                "четыре",
                "пять",
                "шесть",
                "семь",
                "восемь",
            ],
        },
        to: None,
        capture: "бьёт",
        promotes: "превращается в",
        en_passant: "на проходе",
        short_castle: "короткая рокировка",
        long_castle: "длинная рокировка",
        check: "шах",
        mate: "мат",
    },
    Vocab {
        language: Language::Uk,
        pieces: ["пішак", "кінь", "слон", "тура", "ферзь", "король"],
        squares: Squares::Named {
            files: &CYRILLIC_FILES,
            ranks: [
                "один",
                "два",
                "три",
                "чотири",
                "п'ять",
                "шість",
                "сім",
                "вісім",
            ],
        },
        to: None,
        capture: "б'є",
        promotes: "перетворюється на",
        en_passant: "на проході",
        short_castle: "коротка рокіровка",
        long_castle: "довга рокіровка",
        check: "шах",
        mate: "мат",
    },
    Vocab {
        language: Language::Bg,
        pieces: ["пешка", "кон", "офицер", "топ", "дама", "цар"],
        squares: Squares::Named {
            files: &CYRILLIC_FILES,
            ranks: [
                "едно",
                "две",
                "три",
                "четири",
                "пет",
                "шест",
                "седем",
                "осем",
            ],
        },
        to: None,
        capture: "взима",
        promotes: "става",
        en_passant: "ан пасан",
        short_castle: "малка рокада",
        long_castle: "голяма рокада",
        check: "шах",
        mate: "мат",
    },
    Vocab {
        language: Language::Sr,
        pieces: ["pešak", "skakač", "lovac", "top", "dama", "kralj"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "jedan", "dva", "tri", "četiri", "pet", "šest", "sedam", "osam",
            ],
        },
        to: None,
        capture: "uzima",
        promotes: "postaje",
        en_passant: "en passant",
        short_castle: "mala rokada",
        long_castle: "velika rokada",
        check: "šah",
        mate: "mat",
    },
    Vocab {
        language: Language::Tr,
        pieces: ["piyon", "at", "fil", "kale", "vezir", "şah"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz"],
        },
        to: None,
        capture: "alır",
        promotes: "terfi",
        en_passant: "geçerken alma",
        short_castle: "kısa rok",
        long_castle: "uzun rok",
        check: "şah çek",
        mate: "mat",
    },
    Vocab {
        language: Language::El,
        pieces: [
            "πιόνι",
            "ίππος",
            "αξιωματικός",
            "πύργος",
            "βασίλισσα",
            "βασιλιάς",
        ],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "ένα",
                "δύο",
                "τρία",
                "τέσσερα",
                "πέντε",
                "έξι",
                "επτά",
                "οκτώ",
            ],
        },
        to: None,
        capture: "παίρνει",
        promotes: "γίνεται",
        en_passant: "αν πασάν",
        short_castle: "μικρό ροκέ",
        long_castle: "μεγάλο ροκέ",
        check: "σαχ",
        mate: "ματ",
    },
    Vocab {
        language: Language::Lt,
        pieces: [
            "pėstininkas",
            "žirgas",
            "rikis",
            "bokštas",
            "valdovė",
            "karalius",
        ],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "vienas", "du", "trys", "keturi", "penki", "šeši", "septyni", "aštuoni",
            ],
        },
        to: None,
        capture: "kerta",
        promotes: "virsta",
        en_passant: "praeinant",
        short_castle: "trumpoji rokiruotė",
        long_castle: "ilgoji rokiruotė",
        check: "šachas",
        mate: "matas",
    },
    Vocab {
        language: Language::Id,
        pieces: ["pion", "kuda", "gajah", "benteng", "menteri", "raja"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "satu", "dua", "tiga", "empat", "lima", "enam", "tujuh", "delapan",
            ],
        },
        to: None,
        capture: "makan",
        promotes: "promosi",
        en_passant: "en passant",
        short_castle: "rokade pendek",
        long_castle: "rokade panjang",
        check: "skak",
        mate: "skakmat",
    },
    Vocab {
        language: Language::Af,
        pieces: ["pion", "ruiter", "loper", "toring", "dame", "koning"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["een", "twee", "drie", "vier", "vyf", "ses", "sewe", "agt"],
        },
        to: None,
        capture: "slaan",
        promotes: "word",
        en_passant: "en passant",
        short_castle: "kort rokade",
        long_castle: "lang rokade",
        check: "skaak",
        mate: "skaakmat",
    },
    Vocab {
        language: Language::Lv,
        pieces: [
            "bandinieks",
            "zirgs",
            "laidnis",
            "tornis",
            "dāma",
            "karalis",
        ],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: [
                "viens", "divi", "trīs", "četri", "pieci", "seši", "septiņi", "astoņi",
            ],
        },
        to: None,
        capture: "sit",
        promotes: "pārvēršas par",
        en_passant: "garāmejot",
        short_castle: "īsā rokāde",
        long_castle: "garā rokāde",
        check: "šahs",
        mate: "mats",
    },
    Vocab {
        language: Language::Sl,
        pieces: ["kmet", "skakač", "lovec", "trdnjava", "dama", "kralj"],
        squares: Squares::Named {
            files: &LATIN_FILES,
            ranks: ["ena", "dve", "tri", "štiri", "pet", "šest", "sedem", "osem"],
        },
        to: None,
        capture: "vzame",
        promotes: "postane",
        en_passant: "en passant",
        short_castle: "kratka rokada",
        long_castle: "dolga rokada",
        check: "šah",
        mate: "mat",
    },
];

/// The words of `language`; `None` for a language without a table.
fn vocab(language: Language) -> Option<&'static Vocab> {
    TABLES.iter().find(|v| v.language == language)
}

/// The languages read and written in letters without a table of spoken
/// words: no source at hand gives the words (Arabic: the piece names are
/// known, the phrases for "takes", castling and promotion are not):
/// `pgnkit convert --to spoken` refuses them.
pub const WITHOUT_WORDS: &[Language] = &[Language::Ar];

/// Whether moves can be spoken in `language` (every language pgnkit reads
/// but those of [`WITHOUT_WORDS`] has a table).
pub fn has_words(language: Language) -> bool {
    vocab(language).is_some()
}

fn push_square(v: &Vocab, sq: Square, out: &mut String) {
    match &v.squares {
        Squares::Named { files, ranks } => {
            out.push_str(files[usize::from(sq.file())]);
            out.push(' ');
            out.push_str(ranks[usize::from(sq.rank())]);
        }
        Squares::Coordinates => {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
    }
}

/// Writes the spoken form of `m` (legal in `pos`) in `language`, in English
/// for a language without a table (see [`has_words`]).
pub(crate) fn write(pos: &Chess, m: &Move, language: Language, out: &mut String) {
    let Some(v) = vocab(language).or_else(|| vocab(Language::En)) else {
        return;
    };
    match *m {
        Move::Castle { king, rook } => {
            out.push_str(if rook.file() > king.file() {
                v.short_castle
            } else {
                v.long_castle
            });
        }
        _ => {
            let Some(from) = m.from() else { return };
            out.push_str(v.pieces[m.role() as usize - 1]);
            out.push(' ');
            push_square(v, from, out);
            out.push(' ');
            if m.is_capture() {
                out.push_str(v.capture);
                out.push(' ');
            } else if let Some(to) = v.to {
                out.push_str(to);
                out.push(' ');
            }
            push_square(v, m.to(), out);
            if m.is_en_passant() {
                out.push(' ');
                out.push_str(v.en_passant);
            }
            if let Some(p) = m.promotion() {
                out.push(' ');
                out.push_str(v.promotes);
                out.push(' ');
                out.push_str(v.pieces[p as usize - 1]);
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        out.push_str(", ");
        out.push_str(v.mate);
    } else if after.is_check() {
        out.push_str(", ");
        out.push_str(v.check);
    }
}

/// What a word or phrase of a spoken move says.
#[derive(Clone, Copy)]
enum Said {
    Capture,
    To,
    Promotes,
    EnPassant,
    Castle(CastlingSide),
    Check,
    Mate,
}

/// Words read in every language besides the tables' (the forms the reader
/// took before there were tables).
static ALSO: [(&str, Said); 12] = [
    ("x", Said::Capture),
    ("captures", Said::Capture),
    ("-", Said::To),
    ("nach", Said::To),
    ("in", Said::To),
    ("promotes", Said::Promotes),
    ("umwandlung", Said::Promotes),
    ("mate", Said::Mate),
    ("schachmatt", Said::Mate),
    ("short castles", Said::Castle(CastlingSide::KingSide)),
    ("long castles", Said::Castle(CastlingSide::QueenSide)),
    ("castles short", Said::Castle(CastlingSide::KingSide)),
];

impl Vocab {
    fn phrases(&self) -> impl Iterator<Item = (&'static str, Said)> + '_ {
        [
            (self.capture, Said::Capture),
            (self.promotes, Said::Promotes),
            (self.en_passant, Said::EnPassant),
            (self.short_castle, Said::Castle(CastlingSide::KingSide)),
            (self.long_castle, Said::Castle(CastlingSide::QueenSide)),
            (self.check, Said::Check),
            (self.mate, Said::Mate),
        ]
        .into_iter()
        .chain(self.to.map(|t| (t, Said::To)))
    }
}

fn eq_word(word: &str, target: &str) -> bool {
    word.chars()
        .flat_map(char::to_lowercase)
        .eq(target.chars().flat_map(char::to_lowercase))
}

fn lookup(word: &str, table: &[&'static str]) -> Option<usize> {
    table.iter().position(|t| eq_word(word, t))
}

/// The number of words of `phrase` that `words` starts with, if it starts
/// with all of them.
fn starts_with(words: &[&str], phrase: &str) -> Option<usize> {
    let mut n = 0;
    for p in phrase.split(' ') {
        if !eq_word(words.get(n)?, p) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// The longest phrase of `vocabs` (or of [`ALSO`]) that `words` starts with.
fn phrase(words: &[&str], vocabs: &[&Vocab]) -> Option<(Said, usize)> {
    vocabs
        .iter()
        .flat_map(|v| v.phrases())
        .chain(ALSO.iter().copied())
        .filter_map(|(p, said)| starts_with(words, p).map(|n| (said, n)))
        .max_by_key(|&(_, n)| n)
}

fn file_named(word: &str) -> Option<File> {
    [&GERMAN_FILES, &LATIN_FILES, &CYRILLIC_FILES]
        .iter()
        .find_map(|files| lookup(word, &files[..]))
        .or_else(|| lookup(word, &["Caesar", "Hektor"]).map(|i| [2, 7][i]))
        .and_then(|i| u32::try_from(i).ok())
        .map(File::new)
}

fn rank_named(word: &str, vocabs: &[&Vocab]) -> Option<Rank> {
    vocabs
        .iter()
        .find_map(|v| match &v.squares {
            Squares::Named { ranks, .. } => lookup(word, &ranks[..]),
            Squares::Coordinates => None,
        })
        .or_else(|| {
            word.parse::<usize>()
                .ok()
                .filter(|n| (1..=8).contains(n))
                .map(|n| n - 1)
        })
        .and_then(|i| u32::try_from(i).ok())
        .map(Rank::new)
}

/// Reads a spoken move (in any language's words, any case); `None` if the
/// words are not a spoken move.
pub(crate) fn parse(text: &str) -> Option<MoveToken> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_end_matches(['.', '!']))
        .filter(|w| !w.is_empty())
        .collect();
    // German and English words mixed, as the reader has always taken them;
    // then each language on its own.
    let mixed = [vocab(Language::De)?, vocab(Language::En)?];
    let first = *words.first()?;
    // A move starts with its piece or is a castling: only the languages
    // with that first word are tried.
    let starts = |v: &Vocab| {
        lookup(first, &v.pieces).is_some()
            || starts_with(&words, v.short_castle).is_some()
            || starts_with(&words, v.long_castle).is_some()
    };
    read_words(&words, &mixed).or_else(|| {
        TABLES
            .iter()
            .filter(|v| starts(v))
            .find_map(|v| read_words(&words, &[v]))
    })
}

fn read_words(words: &[&str], vocabs: &[&Vocab]) -> Option<MoveToken> {
    let mut piece = None;
    let mut squares: [Option<Square>; 2] = [None, None];
    let mut nsq = 0;
    let mut capture = false;
    let mut promoting = false;
    let mut promotion = None;
    let mut en_passant = false;
    let mut suffix = Suffix::None;
    let mut castle: Option<CastlingSide> = None;
    let mut pending_file: Option<File> = None;
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        let first = i == 0;
        if let Some(f) = pending_file.take() {
            let r = rank_named(w, vocabs)?;
            *squares.get_mut(nsq)? = Some(Square::from_coords(f, r));
            nsq += 1;
            i += 1;
            continue;
        }
        if let Some((said, n)) = phrase(&words[i..], vocabs) {
            match said {
                Said::Castle(side) if first => castle = Some(side),
                _ if first => return None,
                Said::Castle(_) => return None,
                Said::Capture => capture = true,
                Said::To => {}
                Said::Promotes => promoting = true,
                Said::EnPassant => en_passant = true,
                Said::Check => suffix = Suffix::Check,
                Said::Mate => suffix = Suffix::Mate,
            }
            i += n;
            continue;
        }
        if let Some(role) = vocabs
            .iter()
            .find_map(|v| lookup(w, &v.pieces))
            .map(|i| Role::ALL[i])
        {
            if promoting && promotion.is_none() {
                promotion = Some(role);
            } else if piece.is_none() && nsq == 0 {
                piece = Some(role);
            } else {
                return None;
            }
            i += 1;
            continue;
        }
        if first {
            return None;
        }
        if let Some(f) = file_named(w) {
            pending_file = Some(f);
        } else if w.len() == 2
            && w.is_ascii()
            && let Ok(sq) = Square::from_ascii(w.as_bytes())
        {
            *squares.get_mut(nsq)? = Some(sq);
            nsq += 1;
        } else {
            return None;
        }
        i += 1;
    }
    if pending_file.is_some() || promoting && promotion.is_none() {
        return None;
    }
    if let Some(side) = castle {
        if nsq != 0 || piece.is_some() || capture || promoting || en_passant {
            return None;
        }
        return Some(spoken_token(Body::Castle(side), None, None, suffix, false));
    }
    let (from, to) = match squares {
        [Some(from), Some(to)] => (Some(from), to),
        [Some(to), None] => (None, to),
        _ => return None,
    };
    piece?;
    let coords = Coords {
        from_file: from.map(Square::file),
        from_rank: from.map(Square::rank),
        capture,
        to_file: to.file(),
        to_rank: Some(to.rank()),
    };
    Some(spoken_token(
        Body::Coords(coords),
        piece,
        promotion,
        suffix,
        en_passant,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_exactly_one_table() {
        for &language in Language::ALL {
            let n = TABLES.iter().filter(|v| v.language == language).count();
            let expected = usize::from(!WITHOUT_WORDS.contains(&language));
            assert_eq!(n, expected, "{language:?}");
        }
        assert_eq!(TABLES.len() + WITHOUT_WORDS.len(), Language::ALL.len());
    }

    #[test]
    fn no_word_of_a_table_means_two_things() {
        for v in &TABLES {
            let mut words: Vec<String> = v.pieces.iter().map(|p| p.to_lowercase()).collect();
            words.extend(v.phrases().map(|(p, _)| p.to_lowercase()));
            if let Squares::Named { files, .. } = &v.squares {
                words.extend(files.iter().map(|f| f.to_lowercase()));
            }
            let n = words.len();
            words.sort();
            words.dedup();
            assert_eq!(words.len(), n, "{:?}", v.language);
        }
    }
}
