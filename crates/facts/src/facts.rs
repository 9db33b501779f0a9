//! What is known about one game: where its bytes are, its indexed tags,
//! and what the replay found (plies, status). [`GameFacts`] is built the
//! same way when indexing and when scanning, so the filters see the same
//! values either way.

use std::borrow::Cow;

use pgnkit_opening::Opening;
use pgnkit_pgn::text::GameText;
use pgnkit_pgn::{Game, GameResult, Tag, TokenKind};
use pgnkit_replay::{Encoding, GameReport, Status};

use crate::mainline::line_fingerprint;
use crate::tags::{Date, Eco, elo};

/// The indexed tags, in the order of [`GameFacts::texts`].
pub const TEXT_TAGS: [&str; 6] = ["White", "Black", "Event", "Site", "Round", "Date"];

/// The tags [`GameFacts::new`] reads: the text tags, then ECO, Result and
/// the ratings.
const WANTED: [&str; 10] = [
    TEXT_TAGS[0],
    TEXT_TAGS[1],
    TEXT_TAGS[2],
    TEXT_TAGS[3],
    TEXT_TAGS[4],
    TEXT_TAGS[5],
    "ECO",
    "Result",
    "WhiteElo",
    "BlackElo",
];

/// The place in [`WANTED`] of the tag named `name`.
fn wanted(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"White" => 0,
        b"Black" => 1,
        b"Event" => 2,
        b"Site" => 3,
        b"Round" => 4,
        b"Date" => 5,
        b"ECO" => 6,
        b"Result" => 7,
        b"WhiteElo" => 8,
        b"BlackElo" => 9,
        _ => return None,
    })
}

/// Which text tag of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(usize)]
pub enum TextTag {
    /// `White`.
    White = 0,
    /// `Black`.
    Black = 1,
    /// `Event`.
    Event = 2,
    /// `Site`.
    Site = 3,
    /// `Round`.
    Round = 4,
    /// `Date` as written.
    Date = 5,
}

impl TextTag {
    /// Every text tag, in the order of [`TEXT_TAGS`].
    pub const ALL: [TextTag; 6] = [
        TextTag::White,
        TextTag::Black,
        TextTag::Event,
        TextTag::Site,
        TextTag::Round,
        TextTag::Date,
    ];
}

/// The facts about one game that the index keeps and the filters test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFacts<'a> {
    /// Byte offset of the game in the PGN file.
    pub offset: u64,
    /// Length of the game in bytes (from its first tag or token to the end
    /// of its last token, normally the result).
    pub length: u32,
    /// White, Black, Event, Site, Round and Date as written (decoded from
    /// Latin-1 where the game is not UTF-8); empty when missing.
    pub texts: [Cow<'a, str>; 6],
    /// The date, sortable.
    pub date: Date,
    /// The ECO tag's code, if any (as written: see [`GameFacts::opening`]
    /// for the opening the moves reach).
    pub eco: Option<Eco>,
    /// The opening the main line reaches ([`pgnkit_opening::classify`]:
    /// the last named position of the lichess table), from the replay's
    /// position keys; `None` when not replayed (or replayed without keys),
    /// for a Chess960 game, a game from a `FEN` tag, or a line that reaches
    /// no named position.
    pub opening: Option<Opening>,
    /// White's rating (0: none).
    pub white_elo: u16,
    /// Black's rating (0: none).
    pub black_elo: u16,
    /// The Result tag (`None`: none, or no result).
    pub outcome: Option<GameResult>,
    /// Main-line plies replayed (0 when not replayed).
    pub plies: u32,
    /// The status per the Laws (`None` when not replayed).
    pub status: Option<Status>,
    /// Errors the replay found.
    pub errors: u32,
    /// The fingerprint of the main line replayed
    /// ([`crate::mainline::line_fingerprint`] of its positions' keys; 0
    /// when not replayed): the one `pgnkit dedup` compares.
    pub line: u128,
    /// Tags with a value (not empty, not `?`, not `????.??.??`).
    pub tagged: u32,
    /// Comments, NAGs and variations.
    pub annotation: u32,
}

impl<'a> GameFacts<'a> {
    /// The facts of `game`, read from `input` (the bytes the reader read
    /// it from), which starts at byte `base` of the file. `report` is the
    /// game's replay, if it was replayed (with its main line's keys,
    /// [`pgnkit_replay::Detail::Keys`] or `Full`, for the opening to be
    /// named).
    pub fn new(
        input: &'a [u8],
        base: usize,
        game: &Game<'a>,
        report: Option<&GameReport>,
    ) -> GameFacts<'a> {
        let encoding = match report {
            Some(r) => r.encoding,
            None => Encoding::detect(input.get(game.span.clone()).unwrap_or_default()),
        };
        GameFacts::of_text(&GameText::from(encoding), base, game, report)
    }

    /// [`GameFacts::new`] for a caller that has the game's text already
    /// ([`GameText::new`] of the input and the game's span, as the replay
    /// reads it): its tag values are then not validated again.
    pub fn of_text(
        text: &GameText<'a>,
        base: usize,
        game: &Game<'a>,
        report: Option<&GameReport>,
    ) -> GameFacts<'a> {
        let text = |tag: Option<&Tag<'a>>| -> Cow<'a, str> {
            let Some(t) = tag else {
                return Cow::Borrowed("");
            };
            let raw: &'a [u8] = t.raw_value;
            if raw.contains(&b'\\') {
                return Cow::Owned(text.decode(&t.value()).into_owned());
            }
            text.decode(raw)
        };
        // The tags read, in one pass: the first of each name counts.
        let mut found: [Option<&Tag<'a>>; WANTED.len()] = [None; WANTED.len()];
        for t in &game.tags {
            if let Some(i) = wanted(t.name) {
                found[i].get_or_insert(t);
            }
        }
        let [
            white,
            black,
            event,
            site,
            round,
            date_text,
            eco,
            result,
            white_elo,
            black_elo,
        ] = found.map(text);
        let texts = [white, black, event, site, round, date_text];
        let date = Date::parse(&texts[TextTag::Date as usize]);
        let eco = Eco::parse(&eco);
        let outcome = GameResult::from_bytes(result.trim().as_bytes());
        GameFacts {
            offset: (base + game.span.start) as u64,
            length: u32::try_from(game.span.len()).unwrap_or(u32::MAX),
            date,
            eco,
            opening: report.and_then(|r| pgnkit_opening::classify(game, r)),
            white_elo: elo(&white_elo),
            black_elo: elo(&black_elo),
            outcome,
            plies: report.map_or(0, |r| r.plies),
            status: report.map(|r| r.status),
            errors: report.map_or(0, |r| u32::try_from(r.errors()).unwrap_or(u32::MAX)),
            texts,
            line: report.map_or(0, |r| line_fingerprint(&r.keys)),
            tagged: saturating(game.tags.iter().filter(|t| has_value(t.raw_value)).count()),
            annotation: saturating(
                game.tokens
                    .kinds()
                    .filter(|kind| {
                        matches!(
                            kind,
                            TokenKind::Comment
                                | TokenKind::Nag(_)
                                | TokenKind::OpenVariation
                                | TokenKind::DeepVariation
                        )
                    })
                    .count(),
            ),
        }
    }

    /// One text tag.
    pub fn text(&self, tag: TextTag) -> &str {
        &self.texts[tag as usize]
    }

    /// The same facts, owning their strings.
    pub fn into_owned(self) -> GameFacts<'static> {
        GameFacts {
            offset: self.offset,
            length: self.length,
            texts: self.texts.map(|t| Cow::Owned(t.into_owned())),
            date: self.date,
            eco: self.eco,
            opening: self.opening,
            white_elo: self.white_elo,
            black_elo: self.black_elo,
            outcome: self.outcome,
            plies: self.plies,
            status: self.status,
            errors: self.errors,
            line: self.line,
            tagged: self.tagged,
            annotation: self.annotation,
        }
    }
}

/// A tag value that says something: not empty, not only `?`, `.` and `-`.
fn has_value(raw: &[u8]) -> bool {
    let v = raw.trim_ascii();
    !v.is_empty() && !v.iter().all(|&b| matches!(b, b'?' | b'.' | b'-'))
}

fn saturating(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wanted_tag_is_found_in_its_place() {
        for (i, name) in WANTED.iter().enumerate() {
            assert_eq!(wanted(name.as_bytes()), Some(i), "{name}");
        }
        assert_eq!(wanted(b"white"), None);
        assert_eq!(wanted(b"WhiteTitle"), None);
    }

    /// The first of two tags of one name counts, as `Game::tag` finds it.
    #[test]
    fn facts_come_from_the_first_tag_of_each_name() {
        let pgn = b"[Event \"A \\\"B\\\"\"]\n[White \"X\"]\n[ECO \"B20\"]\n[White \"Y\"]\n[WhiteElo \"2700\"]\n[Date \"1972.??.??\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
        let mut game = Game::default();
        assert!(pgnkit_pgn::Reader::new(pgn).read_game(&mut game));
        let facts = GameFacts::new(pgn, 0, &game, None);
        assert_eq!(facts.text(TextTag::White), "X");
        assert_eq!(facts.text(TextTag::Event), "A \"B\"");
        assert_eq!(facts.text(TextTag::Black), "");
        assert_eq!(facts.white_elo, 2700);
        assert_eq!(facts.black_elo, 0);
        assert_eq!(facts.eco, Eco::parse("B20"));
        assert_eq!(facts.outcome, Some(GameResult::WhiteWins));
        assert_eq!(facts.date, Date::parse("1972.??.??"));
        for (tag, name) in TextTag::ALL.iter().zip(TEXT_TAGS) {
            let expected = game.tag(name).map_or(String::new(), |t| {
                String::from_utf8(t.value().into_owned()).unwrap()
            });
            assert_eq!(facts.text(*tag), expected, "{name}");
        }
    }
}
