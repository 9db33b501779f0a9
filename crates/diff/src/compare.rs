//! Comparing two records of one game (both players' scoresheets), as
//! `pgnkit diff` does.
//!
//! Both records are replayed side by side from the start: where they name
//! the same move (however written) they agree; where they differ, the
//! difference is reported with which version is legal at that point. The
//! merged game takes the legal version wherever exactly one is; a move that
//! one record left out (the other record's next move fits there) is taken
//! from the other. Where both or neither are legal, the difference is
//! reported and the merged game stops there: nothing is guessed. The
//! remaining differences are still listed, by position in the records.
//!
//! ```
//! use pgnkit_notation::Language;
//! use pgnkit_pgn::text::Encoding;
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_diff::compare::{Words, compare};
//! use shakmaty::Chess;
//!
//! let (a, b) = (&b"1. e4 e5 2. Nf3 Nc6 *"[..], &b"1. e2-e4 e7-e5 2. Sf3 Sc6 *"[..]);
//! let (mut ga, mut gb) = (Game::default(), Game::default());
//! Reader::new(a).read_game(&mut ga);
//! Reader::new(b).read_game(&mut gb);
//! let c = compare(
//!     Chess::default(),
//!     &Words::new(&ga, a, Encoding::Utf8, Language::En),
//!     &Words::new(&gb, b, Encoding::Utf8, Language::De),
//! );
//! assert!(c.complete && c.differences().is_empty());
//! assert_eq!(c.merged().len(), 4);
//! ```

use std::ops::Range;

use pgnkit_notation::{HouseStyle, Language, Notation, Style, parse_move, write_move};
use pgnkit_pgn::Game;
use pgnkit_pgn::text::Encoding;
use pgnkit_pgn::write::Movetext;

use pgnkit_replay::main_line_words;
use shakmaty::{Chess, Color, Move, Position};

/// A place where the records differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based ply.
    pub ply: u32,
    /// The word in A (`None`: A has no move here).
    pub a: Option<String>,
    /// The word in B.
    pub b: Option<String>,
    /// Byte offsets of the words.
    pub byte_a: Option<usize>,
    /// Byte offset in B.
    pub byte_b: Option<usize>,
    /// Whether A's word is a legal move here (`None`: not known, the merged
    /// game stopped before).
    pub a_legal: Option<bool>,
    /// Whether B's word is a legal move here.
    pub b_legal: Option<bool>,
    /// What the merged game took (SAN), if anything.
    pub merged: Option<String>,
    /// The side to move, when known.
    pub side: Option<Color>,
    /// The move number, when known.
    pub move_number: Option<u32>,
}

/// The comparison of one pair of records: 24 bytes when the records are
/// empty (every pair's is kept until the output is written).
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// The differences and the merged line, when there is any.
    detail: Option<Box<Found>>,
    /// The merged game reached the end of both records.
    pub complete: bool,
    /// Main-line words of A and of B.
    pub words: (usize, usize),
}

#[derive(Debug, Clone, Default)]
struct Found {
    differences: Vec<Difference>,
    merged: Vec<Move>,
}

impl Comparison {
    /// Every difference, in order.
    pub fn differences(&self) -> &[Difference] {
        self.detail.as_ref().map_or(&[], |d| &d.differences)
    }

    /// The merged main line, from the records' start.
    pub fn merged(&self) -> &[Move] {
        self.detail.as_ref().map_or(&[], |d| &d.merged)
    }

    fn detail(&mut self) -> &mut Found {
        self.detail.get_or_insert_with(Box::default)
    }
}

/// The spans of the main-line words of `game` that are no annotations,
/// packed (see [`pack`]) from `base`, the game's start.
fn main_words(game: &Game<'_>, encoding: Encoding, base: usize) -> Vec<u64> {
    main_line_words(game, encoding)
        .map(|t| pack(&t.span, base))
        .collect()
}

fn resolve(text: &str, pos: &Chess, lang: Language) -> Option<Move> {
    parse_move(text).ok()?.resolve(pos, lang).ok()
}

fn san(pos: &Chess, m: &Move) -> String {
    let mut s = String::new();
    write_move(pos, m, &Style::new(Notation::San, Language::En), &mut s);
    s
}

/// A record's main-line words (their spans in the file's bytes), and the
/// language they are read in.
pub struct Words<'a> {
    /// Packed spans ([`pack`]): 8 bytes a word, for games of millions.
    words: Vec<u64>,
    /// Where the game starts in `bytes`.
    base: usize,
    bytes: &'a [u8],
    encoding: Encoding,
    language: Language,
}

impl<'a> Words<'a> {
    /// The main-line words of `game` (read from `bytes`, in `encoding`),
    /// read as moves in `language`: every word outside variations that is
    /// no annotation.
    pub fn new(
        game: &Game<'_>,
        bytes: &'a [u8],
        encoding: Encoding,
        language: Language,
    ) -> Words<'a> {
        Words {
            words: main_words(game, encoding, game.span.start),
            base: game.span.start,
            bytes,
            encoding,
            language,
        }
    }

    /// How the record writes its moves ([`HouseStyle`]), in the language
    /// it is read in.
    pub fn house_style(&self) -> Style {
        let mut house = HouseStyle::new();
        for k in 0..self.words.len() {
            if let Some((word, _)) = self.get(k) {
                house.read(&word);
            }
        }
        house.style(self.language)
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Word `k` and its byte offset.
    fn get(&self, k: usize) -> Option<(String, usize)> {
        let packed = *self.words.get(k)?;
        let start = self
            .base
            .checked_add(usize::try_from(packed >> LENGTH_BITS).ok()?)?;
        let len = usize::try_from(packed & ((1 << LENGTH_BITS) - 1)).ok()?;
        let raw = self.bytes.get(start..start.checked_add(len)?)?;
        Some((self.encoding.decode(raw).into_owned(), start))
    }
}

/// Bits of a packed word span for its length (the rest are for its start).
const LENGTH_BITS: u32 = 24;

/// A word's span in 8 bytes: its start from `base` in the high 40 bits
/// (1 TB), its length in the low 24 (a word longer than 16 MB, which no
/// move is, is cut there).
fn pack(span: &Range<usize>, base: usize) -> u64 {
    let start = span.start.saturating_sub(base) as u64;
    let len = (span.len() as u64).min((1 << LENGTH_BITS) - 1);
    (start.min((1 << (64 - LENGTH_BITS)) - 1) << LENGTH_BITS) | len
}

/// Compares the words of two records of one game from `start`, ply by ply
/// (see the [module](self)). [`Comparison::words`] is left for the caller.
pub fn compare(start: Chess, a: &Words<'_>, b: &Words<'_>) -> Comparison {
    let mut c = Comparison::default();
    let mut pos = start;
    let (mut i, mut j) = (0usize, 0usize);
    let mut ply = 0u32;
    let word = |r: &Words<'_>, k: usize| r.get(k);
    loop {
        let (wa, wb) = (word(a, i), word(b, j));
        if wa.is_none() && wb.is_none() {
            c.complete = true;
            return c;
        }
        ply = ply.saturating_add(1);
        let ma = wa.as_ref().and_then(|(t, _)| resolve(t, &pos, a.language));
        let mb = wb.as_ref().and_then(|(t, _)| resolve(t, &pos, b.language));
        if ma.is_some() && ma == mb {
            if let Some(m) = ma {
                c.detail().merged.push(m);
                pos.play_unchecked(m);
            }
            i += 1;
            j += 1;
            continue;
        }
        let mut d = Difference {
            ply,
            a: wa.as_ref().map(|w| w.0.clone()),
            b: wb.as_ref().map(|w| w.0.clone()),
            byte_a: wa.as_ref().map(|w| w.1),
            byte_b: wb.as_ref().map(|w| w.1),
            a_legal: Some(ma.is_some()),
            b_legal: Some(mb.is_some()),
            merged: None,
            side: Some(pos.turn()),
            move_number: Some(pos.fullmoves().get()),
        };
        // A move left out by one record: after the other record's move, its
        // next word and this record's word name the same move.
        let left_out = |m: Move, x: &Words<'_>, xi: usize, y: &Words<'_>, yj: usize| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let mx = x.get(xi).and_then(|(t, _)| resolve(&t, &after, x.language));
            let my = y.get(yj).and_then(|(t, _)| resolve(&t, &after, y.language));
            mx.is_some() && mx == my
        };
        let choice = match (ma, mb) {
            (Some(m), None) if wb.is_some() && left_out(m, a, i + 1, b, j) => {
                d.b = None;
                d.byte_b = None;
                d.b_legal = None;
                Some((m, 1, 0))
            }
            (None, Some(m)) if wa.is_some() && left_out(m, b, j + 1, a, i) => {
                d.a = None;
                d.byte_a = None;
                d.a_legal = None;
                Some((m, 0, 1))
            }
            (Some(m), None) | (None, Some(m)) => Some((m, 1, 1)),
            _ => None,
        };
        match choice {
            Some((m, di, dj)) => {
                d.merged = Some(san(&pos, &m));
                c.detail().merged.push(m);
                pos.play_unchecked(m);
                c.detail().differences.push(d);
                i += di;
                j += dj;
            }
            None => {
                // Both or neither legal: reported, not guessed. The rest is
                // compared word by word only.
                c.detail().differences.push(d);
                i += 1;
                j += 1;
                ply_by_word(a, b, i, j, ply, &mut c);
                return c;
            }
        }
    }
}

/// After the merged game stopped: the words that differ, by position.
fn ply_by_word(a: &Words<'_>, b: &Words<'_>, i: usize, j: usize, ply: u32, c: &mut Comparison) {
    let n = (a.words.len() - i.min(a.words.len())).max(b.words.len() - j.min(b.words.len()));
    for k in 0..n {
        let wa = a.get(i + k);
        let wb = b.get(j + k);
        let same = match (&wa, &wb) {
            (Some((x, _)), Some((y, _))) => {
                x.trim_end_matches(['+', '#', '!', '?']) == y.trim_end_matches(['+', '#', '!', '?'])
            }
            _ => false,
        };
        if !same {
            c.detail().differences.push(Difference {
                ply: ply
                    .saturating_add(1)
                    .saturating_add(u32::try_from(k).unwrap_or(u32::MAX)),
                byte_a: wa.as_ref().map(|w| w.1),
                byte_b: wb.as_ref().map(|w| w.1),
                a: wa.map(|w| w.0),
                b: wb.map(|w| w.0),
                a_legal: None,
                b_legal: None,
                merged: None,
                side: None,
                move_number: None,
            });
        }
    }
}

impl Comparison {
    /// Writes the merged main line, played from `start`, as moves in
    /// `style` (a record's [`Words::house_style`]) with their numbers to
    /// `movetext`.
    pub fn write_merged(&self, start: &Chess, style: &Style, movetext: &mut Movetext<'_>) {
        let mut pos = start.clone();
        let mut text = String::new();
        for (k, m) in self.merged().iter().enumerate() {
            let number = pos.fullmoves().get();
            let dots: Option<&[u8]> = if pos.turn() == Color::White {
                Some(b". ")
            } else if k == 0 {
                Some(b"... ")
            } else {
                None
            };
            text.clear();
            write_move(&pos, m, style, &mut text);
            movetext.move_item(dots.map(|d| (number, d)), &text, text.chars().count());
            pos.play_unchecked(*m);
        }
    }
}
