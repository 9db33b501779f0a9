//! The flags of `convert`: the target notation and language, the output
//! format, and the shaping flags (the parts of each game written
//! ([`Layout`]), the long algebraic style ([`Style`]), positions instead of
//! games, which games by number, and output in files of N games).

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use pgnkit_notation::{CaptureMark, CastlingMark, Language, Notation, Style};
use pgnkit_pgn::write::{LINE_WIDTH, Layout, TagSection};
use pgnkit_replay::positions::PositionFormat;
use pgnkit_report::Format;
pub use pgnkit_work::convert::OutputFormat;

use super::defs::InputArgs;

/// `pgnkit convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// Target notation: `san` (PGN SAN), `lan` (`Ng1-f3`, `e4xd5`), `uci`
    /// (`g1f3`, `e7e8q`), `iccf` (ICCF numeric: `7163`, `27281`), `figurine`
    /// or `fan` (`♘f3`), `spoken` (the words of the Laws' rules for
    /// visually impaired players, `Springer Gustav eins Felix drei`; text
    /// or JSON only: the words have spaces), or `ru-scoresheet` (the Russian
    /// scoresheet preset: Russian letters, `:` for captures, `0-0`, `e8Ф`;
    /// ignores `--lang`); or positions, one a line: `fen` or `epd` (each
    /// game's last position, every one with `--all-positions`).
    #[arg(long, short = 't', value_name = "NOTATION", default_value = "san", value_parser = parse_target)]
    pub to: String,
    /// Language of the piece letters written ([`output_lang_help`]).
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang,
          help = output_lang_help())]
    pub lang: Language,
    /// Output format (default: `pgn`; with `--to spoken`, `text` on a
    /// terminal and `json` otherwise).
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    /// Leave games with an error out of the output (they are still counted).
    #[arg(long)]
    pub skip_invalid: bool,
    /// Write to FILE (atomically: a temporary file renamed at the end)
    /// instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// How errors in the games are reported on standard error (not at all
    /// with `--quiet`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Human)]
    pub diagnostics: Format,
    /// Add the `ECO`, `Opening` and `Variation` tags of the opening each
    /// game's main line reaches (the last named position of the lichess
    /// table). A game with an ECO tag keeps its tags, and is reported
    /// (`eco-mismatch`, a warning) where the tag disagrees. PGN output only.
    #[arg(long)]
    pub add_opening: bool,
    /// With `--add-opening`: replace the ECO, Opening and Variation tags of
    /// games that have them.
    #[arg(long, requires = "add_opening")]
    pub replace_eco: bool,
    /// What is written of each game, and which games.
    #[command(flatten)]
    pub shape: ShapeArgs,
}

/// `--to`'s position formats.
fn position_format(name: &str) -> Option<PositionFormat> {
    match name {
        "fen" => Some(PositionFormat::Fen),
        "epd" => Some(PositionFormat::Epd),
        _ => None,
    }
}

fn parse_target(s: &str) -> Result<String, String> {
    let name = s.trim().to_ascii_lowercase();
    match Style::from_name(s, Language::En) {
        Some(_) => Ok(name),
        None if position_format(&name).is_some() => Ok(name),
        None => Err(format!(
            "unknown notation `{s}`; use one of {} fen epd",
            Style::NAMES.join(" ")
        )),
    }
}

fn parse_lang(s: &str) -> Result<Language, String> {
    Language::parse(s).map_err(|e| e.to_string())
}

impl ConvertArgs {
    /// `--to`'s position format, if it names one (`fen`, `epd`), with
    /// `--all-positions`.
    pub fn positions(&self) -> Option<(PositionFormat, bool)> {
        position_format(&self.to).map(|f| (f, self.shape.all_positions))
    }

    /// The output format: `--format`, else PGN; spoken moves, which PGN
    /// movetext cannot hold, are text on a terminal (one numbered move a
    /// line, to read aloud) and JSON otherwise.
    pub fn format(&self) -> OutputFormat {
        let spoken =
            Style::from_name(&self.to, self.lang).is_some_and(|s| s.notation == Notation::Spoken);
        match self.format {
            Some(format) => format,
            None if spoken && std::io::stdout().is_terminal() => OutputFormat::Text,
            None if spoken => OutputFormat::Json,
            None => OutputFormat::Pgn,
        }
    }

    /// The style `--to` and `--lang` name, with the marks the shaping flags
    /// ask for (SAN for positions).
    ///
    /// # Errors
    /// A flag that does not go with the target and format.
    pub fn style(&self) -> anyhow::Result<Style> {
        let positions = self.positions();
        let Some(style) = Style::from_name(&self.to, self.lang)
            .or(positions.map(|_| Style::SAN))
            .map(|s| self.shape.style(s))
        else {
            anyhow::bail!("unknown notation `{}`", self.to);
        };
        check_shape(self, &style, positions.is_some())?;
        Ok(style)
    }
}

/// The help of `convert --lang`, listing every language code from the one
/// table ([`Language::ALL`]).
fn output_lang_help() -> String {
    format!(
        "Language of the piece letters written (ISO 639-1 code: {})",
        Language::code_list()
    )
}

/// What `convert` writes of each game, and which games.
#[derive(Args, Debug, Clone, Default)]
pub struct ShapeArgs {
    /// Leave comments out (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub no_comments: bool,
    /// Leave NAGs (`$1`, glyphs) out (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub no_nags: bool,
    /// Leave variations out (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub no_variations: bool,
    /// Write no tags: movetext only (PGN output).
    #[arg(long, conflicts_with = "roster", help_heading = "Shaping the output")]
    pub no_tags: bool,
    /// Write the seven-tag roster only (Event, Site, Date, Round, White,
    /// Black, Result: those the game has).
    #[arg(long, help_heading = "Shaping the output")]
    pub roster: bool,
    /// Write no `+`/`#` after checking and mating moves.
    #[arg(long, help_heading = "Shaping the output")]
    pub no_check_marks: bool,
    /// Write no move numbers (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub no_move_numbers: bool,
    /// Write no result after the moves (the Result tag stays; PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub no_results: bool,
    /// Lines of movetext shorter than N characters (comments aside); 0 for
    /// one line per game (PGN output).
    #[arg(long, value_name = "N", default_value_t = LINE_WIDTH, help_heading = "Shaping the output")]
    pub width: usize,
    /// Write each variation as a game of its own (the moves up to it, then
    /// its own), after its game's main line (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub split_variations: bool,
    /// A `{FEN}` comment after each move: the position it leads to (PGN
    /// output).
    #[arg(long, help_heading = "Shaping the output")]
    pub fen_comments: bool,
    /// Leave out the clock commands (`[%clk …]`, `[%emt …]`) of every
    /// comment, keeping its other words as written; a comment that held
    /// only clocks goes (PGN and JSON output).
    #[arg(long, conflicts_with = "clocks", help_heading = "Shaping the output")]
    pub no_clocks: bool,
    /// Write one kind of clock command after each main-line move, made from
    /// the other under the game's TimeControl where it is not written:
    /// `clk` (the time left) or `emt` (the time the move took) (PGN and
    /// JSON output).
    #[arg(
        long,
        value_enum,
        value_name = "KIND",
        help_heading = "Shaping the output"
    )]
    pub clocks: Option<ClocksArg>,
    /// Add a PlyCount tag: the plies of the main line (of each line, with
    /// `--split-variations`), in place of the game's own (PGN output).
    #[arg(long, help_heading = "Shaping the output")]
    pub add_plycount: bool,
    /// With `--to fen` or `--to epd`: every position of the main line, from
    /// the start, instead of the last one.
    #[arg(long, help_heading = "Shaping the output")]
    pub all_positions: bool,
    /// Long algebraic notation: pawn moves with the letter `P` (`Pe2-e4`).
    #[arg(long, help_heading = "Long algebraic style")]
    pub pawn_letter: bool,
    /// The capture mark of SAN and LAN: `x` (`e4xd5`) or `colon` (`e4:d5`).
    #[arg(
        long,
        value_enum,
        value_name = "MARK",
        help_heading = "Long algebraic style"
    )]
    pub capture_mark: Option<CaptureArg>,
    /// How castling is written: `o` (`O-O`), `zero` (`0-0`), or `king` (the
    /// king's move, `e1-g1`: LAN only).
    #[arg(
        long,
        value_enum,
        value_name = "MARK",
        help_heading = "Long algebraic style"
    )]
    pub castling: Option<CastlingArg>,
    /// Only the games of these numbers (1-based, counted over all inputs
    /// in order): `1,5,10-20`.
    #[arg(long, value_name = "LIST", value_parser = GameSet::parse,
          conflicts_with = "skip_games", help_heading = "Choosing the games")]
    pub select_games: Option<GameSet>,
    /// Every game but those of these numbers: `1,5,10-20`.
    #[arg(long, value_name = "LIST", value_parser = GameSet::parse, help_heading = "Choosing the games")]
    pub skip_games: Option<GameSet>,
    /// Write files of N games each, named from `-o` with `{}` in its name
    /// replaced by 1, 2, … (`-o 'out-{}.pgn'`; an n between the braces
    /// too).
    #[arg(long, value_name = "N", requires = "output", value_parser = clap::value_parser!(u64).range(1..),
          help_heading = "Choosing the games")]
    pub split: Option<u64>,
}

/// `--clocks`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClocksArg {
    /// `[%clk h:mm:ss]`: the time left after the move.
    Clk,
    /// `[%emt h:mm:ss]`: the time the move took.
    Emt,
}

impl ShapeArgs {
    /// What `--no-clocks` and `--clocks` ask of the clock commands.
    pub fn clocks(&self) -> Option<pgnkit_replay::clock::Rewrite> {
        use pgnkit_replay::clock::Rewrite;
        match (self.no_clocks, self.clocks) {
            (true, _) => Some(Rewrite::Drop),
            (false, Some(ClocksArg::Clk)) => Some(Rewrite::Clk),
            (false, Some(ClocksArg::Emt)) => Some(Rewrite::Emt),
            (false, None) => None,
        }
    }
}

/// `--capture-mark`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureArg {
    /// `x`.
    X,
    /// `:`.
    Colon,
}

/// `--castling`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingArg {
    /// `O-O`, `O-O-O`.
    O,
    /// `0-0`, `0-0-0`.
    Zero,
    /// The king's move: `e1-g1`, `e8-c8` (LAN).
    King,
}

impl ShapeArgs {
    /// The parts of each game written.
    pub fn layout(&self) -> Layout {
        Layout {
            tags: if self.no_tags {
                TagSection::None
            } else if self.roster {
                TagSection::Roster
            } else {
                TagSection::All
            },
            comments: !self.no_comments,
            nags: !self.no_nags,
            variations: !self.no_variations,
            move_numbers: !self.no_move_numbers,
            result: !self.no_results,
            width: self.width,
        }
    }

    /// Whether a flag asks for a part of PGN output to change.
    pub fn shapes_pgn(&self) -> bool {
        self.layout() != Layout::default()
            || self.split_variations
            || self.fen_comments
            || self.add_plycount
    }

    /// `style` with the marks asked for.
    pub fn style(&self, mut style: Style) -> Style {
        style.check_marks &= !self.no_check_marks;
        style.pawn_letter |= self.pawn_letter;
        match self.capture_mark {
            Some(CaptureArg::X) => style.capture = CaptureMark::X,
            Some(CaptureArg::Colon) => style.capture = CaptureMark::Colon,
            None => {}
        }
        match self.castling {
            Some(CastlingArg::O) => style.castling = CastlingMark::LetterO,
            Some(CastlingArg::Zero) => style.castling = CastlingMark::DigitZero,
            Some(CastlingArg::King) => style.castling = CastlingMark::KingMove,
            None => {}
        }
        style
    }

    /// Whether the game numbered `number` (1-based, over all inputs) is
    /// written.
    pub fn wants(&self, number: u64) -> bool {
        match (&self.select_games, &self.skip_games) {
            (Some(set), _) => set.contains(number),
            (None, Some(set)) => !set.contains(number),
            (None, None) => true,
        }
    }

    /// Whether the games are written one by one (chosen by number or
    /// split into files).
    pub fn per_game(&self) -> bool {
        self.select_games.is_some() || self.skip_games.is_some() || self.split.is_some()
    }
}

/// Game numbers: single numbers and ranges (`1,5,10-20`), each 1 or more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSet {
    /// Inclusive ranges, sorted and merged.
    ranges: Vec<(u64, u64)>,
}

impl GameSet {
    /// Reads `1,5,10-20` (spaces allowed around the numbers).
    ///
    /// # Errors
    /// A part that is no number or range, a 0, or a range that ends before
    /// it starts.
    pub fn parse(s: &str) -> Result<GameSet, String> {
        let mut ranges = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            let number = |t: &str| match t.trim().parse::<u64>() {
                Ok(0) => Err("game numbers start at 1".to_owned()),
                Ok(n) => Ok(n),
                Err(_) => Err(format!(
                    "`{part}` is no game number or range (like `1,5,10-20`)"
                )),
            };
            let (from, to) = match part.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let n = number(part)?;
                    (n, n)
                }
            };
            if to < from {
                return Err(format!("the range `{part}` ends before it starts"));
            }
            ranges.push((from, to));
        }
        ranges.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (from, to) in ranges {
            match merged.last_mut() {
                Some(last) if from <= last.1.saturating_add(1) => last.1 = last.1.max(to),
                _ => merged.push((from, to)),
            }
        }
        Ok(GameSet { ranges: merged })
    }

    /// Whether `n` is in the set.
    pub fn contains(&self, n: u64) -> bool {
        let at = self.ranges.partition_point(|r| r.1 < n);
        self.ranges.get(at).is_some_and(|r| r.0 <= n)
    }
}

/// Refuses the shaping flags of `args` that do not go with the target and format.
fn check_shape(args: &ConvertArgs, style: &Style, positions: bool) -> anyhow::Result<()> {
    let shape = &args.shape;
    if positions {
        if shape.shapes_pgn() || args.add_opening || args.format() != OutputFormat::Pgn {
            anyhow::bail!(
                "--to {} writes positions, one a line: it takes no --format and no flag that shapes PGN",
                args.to
            );
        }
    } else if shape.all_positions {
        anyhow::bail!("--all-positions needs `--to fen` or `--to epd`");
    }
    if args.format() == OutputFormat::Line && style.notation != Notation::Uci {
        anyhow::bail!("--format line writes UCI commands: it needs `--to uci`");
    }
    if shape.shapes_pgn() && args.format() != OutputFormat::Pgn {
        anyhow::bail!("the flags that shape PGN output need `--format pgn`");
    }
    if style.notation != Notation::Lan
        && (shape.pawn_letter || shape.castling == Some(CastlingArg::King))
    {
        anyhow::bail!(
            "--pawn-letter and `--castling king` are long algebraic styles: they need `--to lan`"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_sets_read_numbers_and_ranges() {
        let set = GameSet::parse("1, 5,10-20,12-25").expect("a set");
        let wanted: Vec<u64> = (1..=30).filter(|&n| set.contains(n)).collect();
        let mut expected = vec![1, 5];
        expected.extend(10..=25);
        assert_eq!(wanted, expected);
        assert!(GameSet::parse("0").is_err());
        assert!(GameSet::parse("3-2").is_err());
        assert!(GameSet::parse("a").is_err());
        assert!(GameSet::parse("1,,2").is_err());
    }
}
