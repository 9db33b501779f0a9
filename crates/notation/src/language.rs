//! Piece letters by language, as data: one table per language.
//!
//! Each table lists the letters used when *writing* (one per role) and every
//! documented spelling accepted when *reading* (see `shared/notation/REFERENCE.md`).
//! Where sources disagree within one language, every variant is accepted as long
//! as it does not give one letter two meanings inside that language (Indonesian
//! `R` = queen "Ratu" is therefore not accepted: `R` is the king, "Raja").
//!
//! Homoglyphs: the Cyrillic languages (ru, uk, bg) also accept the Latin letters
//! that look the same (Latin `C` for Cyrillic `С`, `K` for `К`, `Kp`/`Kr` for
//! `Кр`, `T` for `Т`, `O` for `О`), because Russian games are often typed on
//! mixed keyboards. Serbian/Croatian accepts its Cyrillic letters (`К Д Т Л С`).
//! Greek accepts only Greek letters.
//!
//! Arabic (`ar`) letters have no case: a word's first letter is read as a
//! piece letter when the coordinates of a move follow it (`حf3`,
//! `حxf3`, `حgf3`), as an uppercase Latin letter is. Squares are read in
//! Latin letters; ranks also in Eastern Arabic (`١`-`٨`) and Persian
//! (`۱`-`۸`) digits (`حf٣` is `حf3`). Arabic file letters are not read:
//! the one source that gives them orders them from the right (`أ` is the
//! h-file) and writes the rank first (`2و` for c2), which collides with
//! the piece letters `و` and `ح` (see the crate's README).
//!
//! English fallback: under any language, a letter that means nothing in that
//! language is read with its English meaning (so `Nf3` reads under `de`, but
//! `Rf3` under `fr` is a king move).
//!
//! English itself also accepts `P` before a pawn move (`Pe4`) and the old
//! `Kt` for the knight. It does not accept `S` for the knight (problem-chess
//! usage): `S` is the knight in de/da/sv/no/pl/sr but the bishop in cs/sk,
//! so it is left to those languages, where detection can tell them apart.
//! Pawn letters are accepted only where they collide with nothing in the same
//! language (`P` in most, `G` in hu, `S`/`P` in fi, `п` in ru, `П` in bg);
//! German/Scandinavian `B` (Bauer/Bonde) is not, because `B` falls back to the
//! English bishop there.

use shakmaty::Role;

/// A language whose piece letters can be read and written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Language {
    /// English: K Q R B N.
    En,
    /// German: K D T L S.
    De,
    /// French: R D T F C.
    Fr,
    /// Spanish: R D T A C.
    Es,
    /// Italian: R D T A C.
    It,
    /// Portuguese: R D T B C.
    Pt,
    /// Catalan: R D T A C.
    Ca,
    /// Dutch: K D T L P (P is the knight).
    Nl,
    /// Danish: K D T L S.
    Da,
    /// Norwegian (nb, nn): K D T L S (bishop also B).
    No,
    /// Swedish: K D T L S.
    Sv,
    /// Finnish: K D T L R.
    Fi,
    /// Icelandic: K D H B R.
    Is,
    /// Estonian: K L V O R.
    Et,
    /// Polish: K H W G S.
    Pl,
    /// Czech: K D V S J.
    Cs,
    /// Slovak: K D V S J.
    Sk,
    /// Hungarian: K V B F H.
    Hu,
    /// Romanian: R D T N C.
    Ro,
    /// Russian: Кр Ф Л С К.
    Ru,
    /// Ukrainian: Кр Ф Т С К.
    Uk,
    /// Bulgarian: Ц Д Т О К.
    Bg,
    /// Serbian, Croatian, Bosnian: K D T L S.
    Sr,
    /// Turkish: Ş V K F A.
    Tr,
    /// Greek: Ρ Β Π Α Ι.
    El,
    /// Lithuanian: K V B R Ž.
    Lt,
    /// Indonesian: R M B G K.
    Id,
    /// Afrikaans: K D T L R.
    Af,
    /// Latvian: K D T L Z.
    Lv,
    /// Slovene: K D T L S.
    Sl,
    /// Arabic: م و ر ف ح (squares in Latin letters, ranks also in
    /// Eastern Arabic digits).
    Ar,
}

const P: u8 = 1 << (Role::Pawn as u8);
const N: u8 = 1 << (Role::Knight as u8);
const B: u8 = 1 << (Role::Bishop as u8);
const R: u8 = 1 << (Role::Rook as u8);
const Q: u8 = 1 << (Role::Queen as u8);
const K: u8 = 1 << (Role::King as u8);

/// The bit of `role` in a role mask.
pub(crate) const fn role_bit(role: Role) -> u8 {
    1 << (role as u8)
}

/// One language's letters.
struct Table {
    code: &'static str,
    aliases: &'static [&'static str],
    name: &'static str,
    /// Written letters, indexed by `Role as usize - 1` (pawn, knight, bishop, rook, queen, king).
    write: [&'static str; 6],
    /// Every accepted spelling and the roles it may mean.
    read: &'static [(&'static str, u8)],
}

macro_rules! table {
    ($code:literal, [$($alias:literal),*], $name:literal, [$k:literal, $q:literal, $r:literal, $b:literal, $n:literal], extra [$(($x:literal, $xr:expr)),*]) => {
        Table {
            code: $code,
            aliases: &[$($alias),*],
            name: $name,
            write: ["", $n, $b, $r, $q, $k],
            read: &[($k, K), ($q, Q), ($r, R), ($b, B), ($n, N) $(, ($x, $xr))*],
        }
    };
}

/// The tables, in the order of [`Language::ALL`].
static TABLES: [Table; 31] = [
    table!("en", [], "English", ["K", "Q", "R", "B", "N"], extra [("Kt", N), ("P", P)]),
    table!("de", [], "German", ["K", "D", "T", "L", "S"], extra []),
    table!(
        "fr",
        [],
        "French",
        ["R", "D", "T", "F", "C"],
        extra[("P", P)]
    ),
    table!(
        "es",
        [],
        "Spanish",
        ["R", "D", "T", "A", "C"],
        extra[("P", P)]
    ),
    table!(
        "it",
        [],
        "Italian",
        ["R", "D", "T", "A", "C"],
        extra[("P", P)]
    ),
    table!(
        "pt",
        [],
        "Portuguese",
        ["R", "D", "T", "B", "C"],
        extra[("P", P)]
    ),
    table!(
        "ca",
        [],
        "Catalan",
        ["R", "D", "T", "A", "C"],
        extra[("P", P)]
    ),
    table!("nl", [], "Dutch", ["K", "D", "T", "L", "P"], extra []),
    table!("da", [], "Danish", ["K", "D", "T", "L", "S"], extra []),
    table!(
        "no",
        ["nb", "nn"],
        "Norwegian",
        ["K", "D", "T", "L", "S"],
        extra[("B", B)]
    ),
    table!("sv", [], "Swedish", ["K", "D", "T", "L", "S"], extra []),
    table!("fi", [], "Finnish", ["K", "D", "T", "L", "R"], extra [("P", P), ("S", P)]),
    table!(
        "is",
        [],
        "Icelandic",
        ["K", "D", "H", "B", "R"],
        extra[("P", P)]
    ),
    table!(
        "et",
        [],
        "Estonian",
        ["K", "L", "V", "O", "R"],
        extra[("P", P)]
    ),
    table!(
        "pl",
        [],
        "Polish",
        ["K", "H", "W", "G", "S"],
        extra[("P", P)]
    ),
    table!(
        "cs",
        ["cz"],
        "Czech",
        ["K", "D", "V", "S", "J"],
        extra[("P", P)]
    ),
    table!(
        "sk",
        [],
        "Slovak",
        ["K", "D", "V", "S", "J"],
        extra[("P", P)]
    ),
    table!(
        "hu",
        [],
        "Hungarian",
        ["K", "V", "B", "F", "H"],
        extra[("G", P)]
    ),
    table!(
        "ro",
        [],
        "Romanian",
        ["R", "D", "T", "N", "C"],
        extra[("P", P)]
    ),
    table!("ru", [], "Russian", ["Кр", "Ф", "Л", "С", "К"],
        extra [("Kp", K), ("Kр", K), ("Кp", K), ("Kr", K), ("C", B), ("K", N), ("п", P)]),
    table!("uk", ["ua"], "Ukrainian", ["Кр", "Ф", "Т", "С", "К"],
        extra [("Kp", K), ("Kр", K), ("Кp", K), ("Kr", K), ("T", R), ("C", B), ("K", N)]),
    table!("bg", [], "Bulgarian", ["Ц", "Д", "Т", "О", "К"],
        extra [("T", R), ("O", B), ("K", N), ("П", P)]),
    table!("sr", ["hr", "bs", "sh"], "Serbian/Croatian", ["K", "D", "T", "L", "S"],
        extra [("К", K), ("Д", Q), ("Т", R), ("Л", B), ("С", N), ("P", P)]),
    table!("tr", [], "Turkish", ["Ş", "V", "K", "F", "A"], extra []),
    table!("el", [], "Greek", ["Ρ", "Β", "Π", "Α", "Ι"], extra []),
    table!("lt", [], "Lithuanian", ["K", "V", "B", "R", "Ž"], extra []),
    table!("id", [], "Indonesian", ["R", "M", "B", "G", "K"], extra []),
    table!(
        "af",
        [],
        "Afrikaans",
        ["K", "D", "T", "L", "R"],
        extra[("P", P)]
    ),
    table!("lv", [], "Latvian", ["K", "D", "T", "L", "Z"], extra []),
    table!("sl", [], "Slovene", ["K", "D", "T", "L", "S"], extra []),
    // م مَلِك, و وزير, ر رخ, ف فيل, ح حصان (old Wikipedia table; Elke
    // Rehder's list for K Q R). The pawn letter ب (بيدق) is not read: it
    // is also a file letter of Arabic print, where و and ح are too.
    table!("ar", [], "Arabic", ["\u{645}", "\u{648}", "\u{631}", "\u{641}", "\u{62D}"], extra []),
];

impl Language {
    /// Every supported language, English first (the order auto-detection prefers on a tie).
    pub const ALL: &'static [Language] = &[
        Language::En,
        Language::De,
        Language::Fr,
        Language::Es,
        Language::It,
        Language::Pt,
        Language::Ca,
        Language::Nl,
        Language::Da,
        Language::No,
        Language::Sv,
        Language::Fi,
        Language::Is,
        Language::Et,
        Language::Pl,
        Language::Cs,
        Language::Sk,
        Language::Hu,
        Language::Ro,
        Language::Ru,
        Language::Uk,
        Language::Bg,
        Language::Sr,
        Language::Tr,
        Language::El,
        Language::Lt,
        Language::Id,
        Language::Af,
        Language::Lv,
        Language::Sl,
        Language::Ar,
    ];

    fn table(self) -> &'static Table {
        &TABLES[self as usize]
    }

    /// The ISO 639-1 code: `"en"`, `"de"`, … (`"sr"` also stands for hr and bs).
    pub fn code(self) -> &'static str {
        self.table().code
    }

    /// The language for an ISO 639-1 code, case-insensitive; accepts the aliases
    /// `hr`, `bs`, `sh` (Serbian/Croatian), `nb`, `nn` (Norwegian), `cz`, `ua`.
    pub fn from_code(code: &str) -> Option<Language> {
        let code = code.trim();
        Language::ALL.iter().copied().find(|l| {
            let t = l.table();
            t.code.eq_ignore_ascii_case(code)
                || t.aliases.iter().any(|a| a.eq_ignore_ascii_case(code))
        })
    }

    /// Reads a language code given by a user (a flag's value), as
    /// [`Language::from_code`] does, with an error that lists the codes.
    ///
    /// ```
    /// use pgnkit_notation::Language;
    ///
    /// assert_eq!(Language::parse("DE"), Ok(Language::De));
    /// let err = Language::parse("xx").unwrap_err();
    /// assert!(err.to_string().starts_with("unknown language `xx`; use one of en de fr"));
    /// ```
    ///
    /// # Errors
    /// [`UnknownLanguage`] when `code` names no language.
    pub fn parse(code: &str) -> Result<Language, UnknownLanguage> {
        Language::from_code(code).ok_or_else(|| UnknownLanguage {
            code: code.to_owned(),
            auto: false,
        })
    }

    /// Reads a language code or `auto` (any case), which gives `None`: the
    /// language is to be detected (per game, for the replay).
    ///
    /// ```
    /// use pgnkit_notation::Language;
    ///
    /// assert_eq!(Language::parse_or_auto("Auto"), Ok(None));
    /// assert_eq!(Language::parse_or_auto("ru"), Ok(Some(Language::Ru)));
    /// let err = Language::parse_or_auto("xx").unwrap_err();
    /// assert!(err.to_string().starts_with("unknown language `xx`; use auto or one of en de"));
    /// ```
    ///
    /// # Errors
    /// [`UnknownLanguage`] when `code` is neither `auto` nor a language.
    pub fn parse_or_auto(code: &str) -> Result<Option<Language>, UnknownLanguage> {
        if code.trim().eq_ignore_ascii_case("auto") {
            return Ok(None);
        }
        Language::from_code(code)
            .map(Some)
            .ok_or_else(|| UnknownLanguage {
                code: code.to_owned(),
                auto: true,
            })
    }

    /// The codes of every language ([`Language::ALL`]), separated by
    /// spaces: what help texts and errors list.
    ///
    /// ```
    /// use pgnkit_notation::Language;
    ///
    /// let codes = Language::code_list();
    /// assert!(codes.starts_with("en de fr"));
    /// assert_eq!(codes.split(' ').count(), Language::ALL.len());
    /// ```
    pub fn code_list() -> String {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        codes.join(" ")
    }

    /// The language's English name: `"German"`.
    pub fn name(self) -> &'static str {
        self.table().name
    }

    /// The letter used when writing a piece of `role` (`""` for the pawn).
    /// Multi-letter abbreviations are returned whole (`"Кр"`).
    pub fn letter(self, role: Role) -> &'static str {
        self.table().write[role as usize - 1]
    }

    /// The roles a written piece abbreviation may mean in this language, as a
    /// role mask (bit `1 << role`); 0 when it means nothing here. No English fallback.
    pub(crate) fn own_roles(self, letters: &[char]) -> u8 {
        let mut mask = 0;
        for (spelling, roles) in self.table().read {
            if spelling.chars().eq(letters.iter().copied()) {
                mask |= roles;
            }
        }
        mask
    }

    /// The roles a written piece abbreviation means when reading in this
    /// language: its own meaning, or else the English one.
    pub(crate) fn roles(self, letters: &[char]) -> u8 {
        match self.own_roles(letters) {
            0 if self != Language::En => Language::En.own_roles(letters),
            mask => mask,
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// A small `Copy` set of languages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LanguageSet(u64);

/// A language code that names no language ([`Language::parse`]): it
/// displays as `unknown language `xx`; use one of en de fr …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLanguage {
    code: String,
    auto: bool,
}

impl std::fmt::Display for UnknownLanguage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown language `{}`; use ", self.code)?;
        if self.auto {
            f.write_str("auto or ")?;
        }
        write!(f, "one of {}", Language::code_list())
    }
}

impl std::error::Error for UnknownLanguage {}

impl LanguageSet {
    /// Every language.
    pub const ALL: LanguageSet = LanguageSet((1u64 << TABLES.len()) - 1);
    /// No language.
    pub const EMPTY: LanguageSet = LanguageSet(0);

    /// The set holding only `lang`.
    pub const fn single(lang: Language) -> LanguageSet {
        LanguageSet(1 << lang as u8)
    }

    /// Whether `lang` is in the set.
    pub const fn contains(self, lang: Language) -> bool {
        self.0 & (1 << lang as u8) != 0
    }

    /// Adds `lang` to the set.
    pub fn insert(&mut self, lang: Language) {
        self.0 |= 1 << lang as u8;
    }

    /// Removes `lang` from the set.
    pub fn remove(&mut self, lang: Language) {
        self.0 &= !(1 << lang as u8);
    }

    /// The languages in both sets.
    #[must_use]
    pub const fn intersect(self, other: LanguageSet) -> LanguageSet {
        LanguageSet(self.0 & other.0)
    }

    /// The languages in either set.
    #[must_use]
    pub const fn union(self, other: LanguageSet) -> LanguageSet {
        LanguageSet(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many languages the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The first language of the set in [`Language::ALL`] order (English first).
    pub fn first(self) -> Option<Language> {
        self.iter().next()
    }

    /// The languages in [`Language::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Language> {
        Language::ALL
            .iter()
            .copied()
            .filter(move |l| self.contains(*l))
    }
}

impl FromIterator<Language> for LanguageSet {
    fn from_iter<I: IntoIterator<Item = Language>>(iter: I) -> Self {
        let mut set = LanguageSet::EMPTY;
        for l in iter {
            set.insert(l);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_in_enum_order() {
        for (i, l) in Language::ALL.iter().enumerate() {
            assert_eq!(*l as usize, i);
            assert_eq!(Language::from_code(l.code()), Some(*l));
        }
        assert_eq!(Language::ALL.len(), TABLES.len());
    }

    #[test]
    fn aliases_and_case() {
        assert_eq!(Language::from_code("HR"), Some(Language::Sr));
        assert_eq!(Language::from_code("nb"), Some(Language::No));
        assert_eq!(Language::from_code("De"), Some(Language::De));
        assert_eq!(Language::from_code("xx"), None);
    }

    #[test]
    fn letters_have_one_meaning_within_a_language() {
        for l in Language::ALL {
            for role in Role::ALL {
                let letter: Vec<char> = l.letter(role).chars().collect();
                if role == Role::Pawn {
                    assert!(letter.is_empty());
                    continue;
                }
                assert_eq!(l.roles(&letter), role_bit(role), "{l} {role:?}");
            }
        }
    }

    #[test]
    fn english_fallback() {
        assert_eq!(Language::De.roles(&['N']), N);
        assert_eq!(Language::Fr.roles(&['R']), K);
        assert_eq!(Language::Nl.roles(&['P']), N);
        assert_eq!(Language::Ru.roles(&['К', 'р']), K);
        assert_eq!(Language::Ru.roles(&['К']), N);
        assert_eq!(Language::Ru.roles(&['C']), B);
        assert_eq!(Language::Fr.roles(&['C']), N);
        assert_eq!(Language::En.roles(&['D']), 0);
    }
}
