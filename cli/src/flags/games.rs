//! The flags of the commands that compare and show games: `dedup`,
//! `diff`, `show`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::defs::{For, Illegal, Language, Memory, Name, Quiet, Run, TerminalFormat};

/// `pgnkit dedup`.
#[derive(Args, Debug, Clone)]
pub struct DedupArgs {
    /// PGN files (plain or compressed: zstd, gzip, bzip2; `-`: standard input).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<String>,
    /// Games of the inputs already in this database (a PGN file, plain or
    /// compressed, or its `.pgnkit-index`; repeatable): its games are kept
    /// first and never written. A PGN file's fresh index is used when there
    /// is one (not with --fuzzy-depth or --prefix).
    #[arg(long, value_name = "KNOWN")]
    pub against: Vec<String>,
    /// Write the kept games (and the games without duplicate) to FILE, byte
    /// for byte as they were.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// Write the games not kept to FILE, byte for byte as they were.
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<String>,
    /// Also count the same moves with contradicting tags (White, Black,
    /// Event, Site, Round, Date, Result) as duplicates (kind `contradicting-tags`).
    #[arg(long)]
    pub contradicting_tags: bool,
    /// Also count a game whose main line is a proper prefix of another's,
    /// with tags that agree, as a duplicate (kind `prefix`; reads the inputs twice).
    #[arg(long)]
    pub prefix: bool,
    /// Also count games that reach the same position at ply N as duplicates
    /// (kind `fuzzy`, pgn-extract's --fuzzydepth).
    #[arg(long, value_name = "N")]
    pub fuzzy_depth: Option<u32>,
    /// `--format`.
    #[command(flatten)]
    pub format: TerminalFormat,
    /// `--input-lang`.
    #[command(flatten)]
    pub lang: Language<Self>,
    /// `-j`, `--memory` (for the games' records), `-q`.
    #[command(flatten)]
    pub run: Run<Self, Memory<Self>>,
}

impl For for DedupArgs {
    const NAME: Name = Name::Dedup;
}

/// `pgnkit diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// White's record (or either player's).
    #[arg(value_name = "A")]
    pub a: String,
    /// Black's record (or the other player's).
    #[arg(value_name = "B")]
    pub b: String,
    /// `--format`.
    #[command(flatten)]
    pub format: TerminalFormat,
    /// `--input-lang`: the piece letters of both records.
    #[command(flatten)]
    pub lang: Language<Self>,
    /// Also write the merged games as PGN to FILE (replaced atomically).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// `-q`.
    #[command(flatten)]
    pub quiet: Quiet<Self>,
}

impl For for DiffArgs {
    const NAME: Name = Name::Diff;
}

/// `pgnkit show`.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The PGN file (`-`: standard input; compressed files are read too).
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The game's number in the file (from 1, as `check` numbers games).
    #[arg(long, value_name = "N")]
    pub game: u64,
    /// Show the position before ply K of the main line (1: the start
    /// position; plies as `check` numbers them) and the problems of that
    /// ply. Default: the ply of the game's first problem in the main line,
    /// else the position after the last move.
    #[arg(long, value_name = "K")]
    pub ply: Option<u32>,
    /// Letters as in FEN (`K`, `p`, `.`) instead of Unicode chess glyphs.
    #[arg(long)]
    pub ascii: bool,
    /// Colour the squares: `auto` on a terminal (unless `NO_COLOR` is set),
    /// `always`, `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Also write the board alone, as a self-contained SVG image, to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// `--input-lang`.
    #[command(flatten)]
    pub lang: Language<Self>,
    /// `--illegal-moves`.
    #[command(flatten)]
    pub illegal: Illegal,
}

impl For for ShowArgs {
    const NAME: Name = Name::Show;
}

/// When to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}
