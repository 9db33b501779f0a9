//! The records of a file's games, as `pgnkit diff` pairs and compares
//! them: each game kept in a few bytes, read again from the file's bytes
//! when its pair is compared ([`compare_records`]) and its merged game
//! written ([`write_merged`]).
//!
//! ```
//! use pgnkit_diff::records::{compare_records, read_records};
//!
//! let a = b"[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n";
//! let b = "[White \"A\"]\n\n1. e2-e4 e7-e5 2. Sg1-f3 *\n".as_bytes();
//! let (ra, rb) = (read_records(a, None), read_records(b, None));
//! let (comparison, _) = compare_records((a, &ra[0]), (b, &rb[0]));
//! assert!(comparison.differences().is_empty() && comparison.complete);
//! ```

use std::ops::Range;

use pgnkit_notation::{Language, Style};
use pgnkit_pgn::text::GameText;
use pgnkit_pgn::write::{Movetext, Writer};
use pgnkit_pgn::{Game, GameResult, Reader};
use shakmaty::Chess;

use crate::compare::{Comparison, Words, compare};
use crate::pairing::Identity;
use pgnkit_replay::{Detail, Options, replay_game};

/// One record of one game. Only what pairing needs is kept for every game
/// (32 bytes, and the tags below for a game that has them); its words and
/// tags are read again from its bytes when its pair is compared and
/// written, so memory does not grow with the length of the games.
pub struct Record {
    /// The game's bytes in its file.
    span: Range<usize>,
    language: Language,
    /// What few games have: a start other than the standard one, and tags
    /// that name the game.
    rare: Option<Box<Rare>>,
}

/// The starting position and the identity of a record, where it has them.
#[derive(Default)]
struct Rare {
    /// The starting position, when it is not the standard one.
    start: Option<Chess>,
    /// Round, White, Black and Date, as its tags give them.
    identity: Identity,
}

/// A game's 1-based number in its file, from its index among the file's
/// records (the 2^32nd and later games of one file are all `u32::MAX`).
pub fn number(index: usize) -> u32 {
    u32::try_from(index.saturating_add(1)).unwrap_or(u32::MAX)
}

impl AsRef<Identity> for Record {
    fn as_ref(&self) -> &Identity {
        self.identity()
    }
}

impl Record {
    /// Round, White, Black and Date, as the game's tags give them.
    pub fn identity(&self) -> &Identity {
        static NONE: Identity = Identity {
            round: None,
            white: None,
            black: None,
            date: None,
        };
        self.rare.as_deref().map_or(&NONE, |r| &r.identity)
    }

    /// The starting position.
    pub fn start(&self) -> Chess {
        (self.rare.as_deref())
            .and_then(|r| r.start.clone())
            .unwrap_or_default()
    }

    /// The game, lexed again from its bytes.
    pub fn game<'a>(&self, bytes: &'a [u8]) -> Game<'a> {
        let mut game = Game::default();
        Reader::with_range(bytes, self.span.clone()).read_game(&mut game);
        game
    }

    /// The main-line words of the game.
    pub fn words<'a>(&self, bytes: &'a [u8]) -> Words<'a> {
        // The encoding the replay found, found again from the same bytes.
        let encoding = GameText::new(bytes, self.span.clone()).encoding();
        Words::new(&self.game(bytes), bytes, encoding, self.language)
    }
}

/// The records of the games of `bytes` (comment-only stretches are no
/// game), each replayed once for its language (`language`: forced) and
/// its start.
pub fn read_records(bytes: &[u8], language: Option<Language>) -> Vec<Record> {
    let mut reader = Reader::new(bytes);
    let mut records = Vec::new();
    // Only the language and the start are kept: plain games take the
    // replay's faster lane.
    let options = Options {
        language,
        suggestions: false,
        detail: Detail::Errors,
        ..Options::default()
    };
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(bytes, &game, &options);
        let identity = Identity::of_game(&game, &GameText::new(bytes, game.span.clone()));
        let start = (report.start != Chess::default()).then(|| report.start.clone());
        let rare =
            (start.is_some() || !identity.is_empty()).then(|| Box::new(Rare { start, identity }));
        records.push(Record {
            span: game.span.clone(),
            language: report.language,
            rare,
        });
    }
    records.shrink_to_fit();
    records
}

/// Compares two records of one game (from the files `a` and `b`), ply by
/// ply; and how A writes its moves, for the merged game.
pub fn compare_records(a: (&[u8], &Record), b: (&[u8], &Record)) -> (Comparison, Style) {
    let wa = a.1.words(a.0);
    let wb = b.1.words(b.0);
    let mut c = compare(a.1.start(), &wa, &wb);
    c.words = (wa.len(), wb.len());
    (c, wa.house_style())
}

/// Appends the merged game to `out` in PGN export format (by the one
/// writer): A's tags, the merged moves written as A writes its moves (its
/// language, long or short, its capture and castling marks), and where the
/// merge stopped a comment saying why.
pub fn write_merged(
    a: &Record,
    bytes: &[u8],
    (c, style): &(Comparison, Style),
    writer: &mut Writer,
    out: &mut Vec<u8>,
) {
    let game = a.game(bytes);
    let source = GameText::new(bytes, game.span.clone());
    writer.write_tags(out, &game, &source);
    let mut mt = Movetext::new(out);
    c.write_merged(&a.start(), style, &mut mt);
    let result = if c.complete {
        game.tag("Result")
            .and_then(|t| GameResult::from_bytes(source.decode(&t.value()).trim().as_bytes()))
            .map_or("*", |r| r.as_str())
    } else {
        if let Some(d) = c.differences().iter().find(|d| d.merged.is_none()) {
            let why = match (d.a_legal, d.b_legal) {
                (Some(true), Some(true)) => "both are legal",
                _ => "neither is legal",
            };
            mt.comment_any(
                format!(
                    "pgnkit: the records differ here: A has \"{}\", B has \"{}\"; {why}",
                    d.a.as_deref().unwrap_or("nothing"),
                    d.b.as_deref().unwrap_or("nothing")
                )
                .as_bytes(),
            );
        }
        "*"
    };
    mt.item(result.as_bytes());
    mt.finish();
    out.push(b'\n');
}
