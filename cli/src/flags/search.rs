//! The flags of `search`, its filters (one group from the command line,
//! one more per `--or "FLAGS"`, making one [`Query`]), and of `index`.

use std::path::PathBuf;

use clap::{Args, Parser, ValueEnum};
use pgnkit_index::line::MoveLine;
use pgnkit_index::material::Material;
use pgnkit_index::order::Order;
use pgnkit_index::pattern::BoardPattern;
use pgnkit_index::{Date, Eco, Filter, Needle, Outcome, Probe, Query, TagTest, fen_key};
use pgnkit_replay::clock::{Kind, Time, TimeControl};
use pgnkit_replay::{ClaimKind, Status};
use pgnkit_report::search::Output;

use super::defs::{For, Illegal, InMemory, Language, Memory, Name, Run};

/// `pgnkit search`.
///
/// Filters combine with AND; `--or` adds groups of filters, any of which
/// may match. Names match case-insensitive substrings. A partial date
/// (`1972.??.??`) matches a range when any day it can be lies in it. Exit
/// status: 0 when a game matched, 1 when none did, 2 on errors.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Filters combine with AND; each --or \"FLAGS\" adds a group of filters, \
and a game matches when it passes every filter of one group (--invert: of none). With an \
up-to-date FILE.pgnkit-index (`pgnkit index FILE`) the index answers what it stores (names, \
event, site, round, result, the ECO tag, the opening the moves reach, date, ratings, plies, \
status, errors, positions) and only the \
games that pass are read; --tag, --annotator, --claim, --moves, --ply, --material, \
--fen-pattern, --time-control, --time-class and --clock-below then read (and replay) those games. Without an index the file is scanned, with \
the same answers. A stale or corrupted index is refused.\n\
Exit status: 0 when a game matched, 1 when none did, 2 when the search could not be done."
)]
pub struct SearchArgs {
    /// The PGN file to search (`-` or none: standard input, scanned).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: String,
    /// The filters of the first group.
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Or the games that pass these filters: a group of filter flags in one
    /// argument, e.g. `--or "--black Carlsen --result 0-1"`. Repeat for
    /// more groups.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub or: Vec<String>,
    /// Select the games that do not match instead.
    #[arg(long)]
    pub invert: bool,
    /// Also write the games not selected to FILE (as they stand in the
    /// file), in the same pass.
    #[arg(long, value_name = "FILE")]
    pub non_matching: Option<PathBuf>,
    /// Print the matches in this order: date (earliest first), white
    /// (White's name), elo (highest mean rating first), plies (fewest
    /// first); ties and games without the field keep file order, last.
    #[arg(long, value_name = "KEY", value_parser = Order::parse)]
    pub sort: Option<Order>,
    /// Skip the first N matches (after sorting).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: u64,
    /// Print at most N games (the first N in file order, or in --sort order).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print only the number of matching games.
    #[arg(long)]
    pub count: bool,
    /// Output: the games' original bytes (`pgn`, default), or one JSON
    /// object a line with the indexed fields and byte offsets (`json`).
    #[arg(long, value_enum, default_value = "pgn")]
    pub format: SearchFormat,
    /// (Re)build the index first (`pgnkit index FILE`), then search it.
    #[arg(long, conflicts_with = "scan")]
    pub reindex: bool,
    /// Do not use the index: scan the file (same answers, slower).
    #[arg(long)]
    pub scan: bool,
    /// `--input-lang`: the piece letters when games are replayed (indexing
    /// or scanning).
    #[command(flatten)]
    pub lang: Language<Self>,
    /// `--illegal-moves`: when games are replayed (indexing or scanning).
    #[command(flatten)]
    pub illegal: Illegal,
    /// `-j` (for scanning and indexing), `-q`.
    #[command(flatten)]
    pub run: Run<Self, InMemory>,
}

impl For for SearchArgs {
    const NAME: Name = Name::Search;
}

impl SearchArgs {
    /// What the flags ask to print.
    pub fn output(&self) -> Output {
        match (self.count, self.format) {
            (true, _) => Output::Count,
            (false, SearchFormat::Pgn) => Output::Pgn,
            (false, SearchFormat::Json) => Output::Json,
        }
    }

    /// The query of the command line's filters, each `--or` group, and
    /// `--invert`.
    ///
    /// # Errors
    /// An `--or` group that does not parse, or too many groups.
    pub fn query(&self) -> anyhow::Result<Query> {
        let mut groups = vec![self.filters.filter()];
        for text in &self.or {
            let group =
                OrGroup::try_parse_from(words(text).map_err(anyhow::Error::msg)?).map_err(|e| {
                    anyhow::anyhow!("in `--or {text}`: {}", e.render().to_string().trim())
                })?;
            groups.push(group.filters.filter());
        }
        if groups.len() > Query::MAX_GROUPS {
            anyhow::bail!(
                "{} groups of filters: a search takes at most {} (`--or` {} times)",
                groups.len(),
                Query::MAX_GROUPS,
                Query::MAX_GROUPS - 1
            );
        }
        Ok(Query {
            groups,
            invert: self.invert,
        })
    }
}

/// `search --format`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFormat {
    /// The matching games as they stand in the file.
    Pgn,
    /// One JSON object per game: the indexed fields and byte offsets.
    Json,
}

/// `pgnkit index`.
#[derive(Args, Debug, Clone)]
pub struct IndexArgs {
    /// The PGN file to index (a regular, uncompressed file). The index is
    /// written beside it as `FILE.pgnkit-index`.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// `--input-lang`.
    #[command(flatten)]
    pub lang: Language<Self>,
    /// `--illegal-moves`.
    #[command(flatten)]
    pub illegal: Illegal,
    /// `-j`, `--memory` (to build the index in), `-q`.
    #[command(flatten)]
    pub run: Run<Self, Memory<Self>>,
}

impl For for IndexArgs {
    const NAME: Name = Name::Index;
}

/// The filters of one `--or` group, read from its words.
#[derive(Parser, Debug)]
#[command(no_binary_name = true, disable_help_flag = true)]
struct OrGroup {
    #[command(flatten)]
    filters: FilterArgs,
}

/// The filters of one group (all must pass).
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// White's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub white: Option<String>,
    /// Black's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub black: Option<String>,
    /// White's or Black's name contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub player: Option<String>,
    /// The Event tag contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub event: Option<String>,
    /// The Site tag contains S (ignoring case).
    #[arg(long, value_name = "S")]
    pub site: Option<String>,
    /// The Round tag is R (ignoring case; `--tag Round~R` for a substring).
    #[arg(long, value_name = "R")]
    pub round: Option<String>,
    /// The Annotator tag contains S (ignoring case; read from the game).
    #[arg(long, value_name = "S")]
    pub annotator: Option<String>,
    /// A test of any tag, read from the game: NAME=VALUE (ignoring case),
    /// NAME~VALUE (contains), NAME>=VALUE, NAME<=VALUE (numbers, dates).
    /// Repeat for more (all must pass).
    #[arg(long, value_name = "TEST", value_parser = TagTest::parse)]
    pub tag: Vec<TagTest>,
    /// The Result tag is R: 1-0, 0-1, 1/2-1/2 (or draw), *.
    #[arg(long, value_name = "R", value_parser = Outcome::parse_query)]
    pub result: Option<Outcome>,
    /// The opening the moves reach has its ECO code in RANGE: B90, B9
    /// (B90-B99), B (B00-B99), A00-B99 (named from the moves, as `convert
    /// --add-opening` names them, whatever the ECO tag says; --eco-tag for
    /// the tag).
    #[arg(long, value_name = "RANGE", value_parser = Eco::parse_range)]
    pub eco: Option<(Eco, Eco)>,
    /// The ECO tag's code lies in RANGE (B90, B9, B, A00-B99), whatever the
    /// moves reach.
    #[arg(long, value_name = "RANGE", value_parser = Eco::parse_range)]
    pub eco_tag: Option<(Eco, Eco)>,
    /// The name of the opening the moves reach contains TEXT, ignoring case:
    /// the whole name, opening and variation, as the lichess table writes
    /// it ("Sicilian", "Najdorf", "Sicilian Defense: Najdorf").
    #[arg(long, value_name = "TEXT")]
    pub opening: Option<String>,
    /// The game can be on or after D (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    pub date_from: Option<Date>,
    /// The game can be on or before D (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    pub date_to: Option<Date>,
    /// Both players are rated N or more (WhiteElo, BlackElo).
    #[arg(long, value_name = "N")]
    pub min_elo: Option<u16>,
    /// Both players are rated N or less.
    #[arg(long, value_name = "N")]
    pub max_elo: Option<u16>,
    /// Both players are rated and their ratings differ by MIN..MAX
    /// (`..50`, `100..`, `0..200`, `0`).
    #[arg(long, value_name = "MIN..MAX", value_parser = pgnkit_index::filter::elo_range)]
    pub elo_diff: Option<(u16, u16)>,
    /// The main line has MIN..MAX plies (`40..`, `..60`, `20..30`, `25`).
    #[arg(long, value_name = "MIN..MAX", value_parser = pgnkit_index::filter::ply_range)]
    pub plies: Option<(u32, u32)>,
    /// The replay's status of the game is S (repeat or separate with
    /// commas for any of several): checkmate, stalemate, dead-position,
    /// insufficient-material, fivefold-repetition, seventyfive-moves,
    /// ongoing, invalid, unsupported.
    #[arg(long, value_name = "S", value_delimiter = ',', value_parser = pgnkit_index::filter::parse_status)]
    pub status: Vec<Status>,
    /// The replay found errors in the game.
    #[arg(long)]
    pub has_errors: bool,
    /// A draw became claimable: threefold (Law 9.2) or fifty-moves (Law
    /// 9.3). Read from the game (replayed), also with an index.
    #[arg(long, value_name = "C", value_parser = pgnkit_index::filter::parse_claim)]
    pub claim: Option<ClaimKind>,
    /// The position occurs in the main line (side to move, castling rights
    /// and a legal en passant capture count; the move counters do not).
    #[arg(long, alias = "fen", value_name = "FEN", value_parser = fen_key)]
    pub position: Option<u64>,
    /// With --position: the position is the one after exactly N plies (0:
    /// the start).
    #[arg(
        long,
        value_name = "N",
        requires = "position",
        conflicts_with = "any_ply"
    )]
    pub ply: Option<u32>,
    /// With --position: at any ply (the default).
    #[arg(long, requires = "position")]
    pub any_ply: bool,
    /// The main line starts with these moves, in any notation pgnkit
    /// reads; `*` stands for any one move: "1. e4 c5 2. Nf3".
    #[arg(long, value_name = "MOVES", value_parser = MoveLine::parse)]
    pub moves: Option<MoveLine>,
    /// A material balance occurs in the main line, for either colour
    /// (pgn-extract's -z): "[N] SIDE1 SIDE2", e.g. "q*r*p*b2n2< q=r=p=b2<n2"
    /// (see the manual).
    // The brackets are the help text's, no link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long, value_name = "PATTERN", value_parser = Material::parse)]
    pub material: Option<Material>,
    /// A main-line position fits this board pattern: a FEN board where `?`
    /// is any square, `*` any run of squares, `A`/`a` any White/Black
    /// piece, `!` any piece, `_` an empty square. Repeat for any of several.
    #[arg(long, value_name = "BOARD", value_parser = BoardPattern::parse)]
    pub fen_pattern: Vec<BoardPattern>,
    /// The TimeControl tag gives this control, as parsed (`180+2`,
    /// `40/5400+30:1800+30`; `180+2` is `180+2.0`).
    #[arg(long, value_name = "TC", value_parser = parse_time_control)]
    pub time_control: Option<TimeControl>,
    /// The TimeControl tag's control is of this kind, by the Laws'
    /// appendices: blitz (10 minutes a player or less, counting 60 moves of
    /// increment), rapid (under 60) or standard.
    #[arg(long, value_name = "KIND", value_parser = parse_time_class)]
    pub time_class: Option<Kind>,
    /// A player's clock (`[%clk …]` after a main-line move) went below
    /// SECONDS (decimals allowed). Read from the game (replayed), also with
    /// an index.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub clock_below: Option<Time>,
}

fn parse_time_control(s: &str) -> Result<TimeControl, String> {
    s.parse::<TimeControl>()
        .map_err(|e| format!("`{s}` is no time control: {e}"))
}

fn parse_time_class(s: &str) -> Result<Kind, String> {
    Kind::from_name(s).ok_or_else(|| format!("`{s}` is no time class: blitz, rapid or standard"))
}

fn parse_seconds(s: &str) -> Result<Time, String> {
    let seconds: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is no number of seconds"))?;
    if !(0.0..=86_400.0).contains(&seconds) {
        return Err(format!("`{s}`: seconds from 0 to 86400"));
    }
    // Whole milliseconds; the bounds keep the product in range.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(Time::from_millis((seconds * 1000.0).round() as u32))
}

fn parse_date(s: &str) -> Result<Date, String> {
    let d = Date::parse(s);
    if d.is_known() {
        Ok(d)
    } else {
        Err(format!("bad date `{s}`: use YYYY.MM.DD, YYYY.MM or YYYY"))
    }
}

impl FilterArgs {
    /// The filter of this group.
    pub fn filter(&self) -> Filter {
        let needle = |s: &Option<String>| s.as_deref().map(Needle::new);
        let mut tags = self.tag.clone();
        if let Some(a) = &self.annotator {
            tags.push(TagTest::contains("Annotator", a));
        }
        Filter {
            white: needle(&self.white),
            black: needle(&self.black),
            player: needle(&self.player),
            event: needle(&self.event),
            site: needle(&self.site),
            outcome: self.result,
            eco: self.eco,
            eco_tag: self.eco_tag,
            opening: needle(&self.opening),
            date_from: self.date_from,
            date_to: self.date_to,
            min_elo: self.min_elo,
            max_elo: self.max_elo,
            elo_diff: self.elo_diff,
            round: self.round.clone(),
            statuses: self.status.clone(),
            has_errors: self.has_errors,
            plies: self.plies,
            position: self.position,
            probe: Probe {
                tags,
                claim: self.claim,
                moves: self.moves.clone(),
                ply: self.ply,
                material: self.material.clone(),
                boards: self.fen_pattern.clone(),
                time_control: self.time_control.clone(),
                time_class: self.time_class,
                clock_below: self.clock_below,
            },
        }
    }
}

/// Splits `--or`'s text into words as a shell would: spaces separate,
/// quotes (`'…'`, `"…"`) group, `\` escapes the next character.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("`--or {text}`: a quote is not closed"));
    }
    out.extend(word);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn or_groups_split_into_words_as_a_shell_would() {
        assert_eq!(
            words(r#"--white "Carlsen, Magnus" --tag 'Round=1' a\ b"#).unwrap(),
            ["--white", "Carlsen, Magnus", "--tag", "Round=1", "a b"]
        );
        assert!(words("--white 'x").is_err());
    }
}
