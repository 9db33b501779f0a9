//! Reading a spoken move back, in the words of any language (or German
//! and English mixed), in any case.

use shakmaty::{CastlingSide, File, Rank, Role, Square};

use super::{Body, Coords, MoveToken, Suffix, spoken_token};
use crate::language::Language;
use crate::spoken::tables::{CYRILLIC_FILES, GERMAN_FILES, LATIN_FILES, Squares, TABLES, Vocab};
use crate::spoken::vocab;

/// What a word or phrase of a spoken move says.
#[derive(Clone, Copy)]
pub(crate) enum Said {
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
    pub(crate) fn phrases(&self) -> impl Iterator<Item = (&'static str, Said)> + '_ {
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
