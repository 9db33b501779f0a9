//! The flags several commands share, each defined once with its help
//! text, in groups a command's flags flatten (`#[command(flatten)]`): the
//! inputs ([`InputArgs`]), the language of the moves ([`Language`]), how
//! a command runs (`-j`, `--memory`, `-q`: [`Run`]), the settings file
//! ([`Settings`]) and the output format of the commands that print
//! diagnostics or pairs ([`TerminalFormat`]).
//!
//! A few words of a shared flag's help differ from command to command
//! (what `-q` leaves out, whether `--input-lang` shows its default): a
//! group is generic over the command whose flags flatten it ([`For`]), and
//! the help texts of each flag stand beside it, by command ([`Name`]). They
//! are written without the final period that clap takes off a doc
//! comment's help.

use std::fmt::Debug;
use std::io::IsTerminal;
use std::marker::PhantomData;
use std::path::PathBuf;

use clap::Args;
use pgnkit_config::Config;
use pgnkit_notation::Language as Letters;
use pgnkit_replay::IllegalMoves;
use pgnkit_report::Format;

/// The commands (or, for [`InputArgs`], the commands that read games
/// through the file loop: check, convert, report) whose help of a shared
/// flag has words of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// The flags of [`InputArgs`]: check, convert, report.
    Files,
    /// `check`.
    Check,
    /// `report`.
    Report,
    /// `dedup`.
    Dedup,
    /// `index`.
    Index,
    /// `search`.
    Search,
    /// `diff`.
    Diff,
    /// `show`.
    Show,
}

/// The flags of a command (its `Args` struct), for the groups it flattens:
/// which command the help is written for.
pub trait For: Clone + Debug + 'static {
    /// The command.
    const NAME: Name;
}

/// `--input-lang LANG`: the piece letters of the moves read.
#[derive(Args, Debug, Clone)]
pub struct Language<C: For> {
    /// The language given (the commands that show a default get `auto`
    /// when none is given; the others fall back on `pgnkit.toml`'s, else
    /// `auto`).
    #[arg(long, value_name = "LANG", value_parser = parse_input_lang, help = input_lang_help(),
          default_value = language_default(C::NAME))]
    pub input_lang: Option<InputLang>,
    #[arg(skip)]
    of: PhantomData<C>,
}

/// The default `--input-lang` that the help of command `name` shows.
const fn language_default(name: Name) -> Option<&'static str> {
    match name {
        Name::Dedup | Name::Index | Name::Search | Name::Diff => Some("auto"),
        _ => None,
    }
}

impl<C: For> Language<C> {
    /// The language to force, if any (none given, or `auto`: detect it per
    /// game).
    pub fn forced(&self) -> Option<Letters> {
        self.input_lang.and_then(InputLang::forced)
    }

    /// The language to force: the flag's when given, else the settings
    /// file's (`input-lang`).
    pub fn forced_or(&self, config: &Config) -> Option<Letters> {
        match self.input_lang {
            Some(l) => l.forced(),
            None => config.input_lang.flatten(),
        }
    }
}

/// `--illegal-moves stop|stand`: what an illegal main-line move does.
#[derive(Args, Debug, Clone)]
pub struct Illegal {
    /// What an illegal main-line move does: `stop` (default) ends the
    /// replay of the game there; `stand` plays it as written when its token
    /// names the piece (a move through a piece, off the piece's geometry,
    /// a king into check, castling not allowed), reports it as an
    /// `illegal-move` that stood, and goes on, with the Laws' rulings
    /// (7.5.5, A.4.2, B.3). Default: `pgnkit.toml`'s `illegal-moves`, else
    /// `stop`
    #[arg(long, value_name = "WHAT", value_parser = parse_illegal_moves)]
    pub illegal_moves: Option<IllegalMoves>,
}

impl Illegal {
    /// The flag's choice, else `stop` (for the commands without a
    /// settings file).
    pub fn given(&self) -> IllegalMoves {
        self.illegal_moves.unwrap_or_default()
    }

    /// The flag's choice, else the settings file's, else `stop`.
    pub fn or(&self, config: &Config) -> IllegalMoves {
        self.illegal_moves
            .or(config.illegal_moves)
            .unwrap_or_default()
    }
}

/// Reads `--illegal-moves`.
fn parse_illegal_moves(s: &str) -> Result<IllegalMoves, String> {
    s.parse()
}

/// `-j N`, `--memory SIZE` (with `M` = [`Memory`]) and `-q`: how a command
/// runs.
#[derive(Args, Debug, Clone)]
pub struct Run<C: For, M: Args> {
    /// Worker threads (none: one a core).
    #[arg(short = 'j', long, value_name = "N", help = jobs_help(C::NAME))]
    pub jobs: Option<usize>,
    /// `--memory`, for the commands that spill to disk.
    #[command(flatten)]
    pub memory: M,
    /// `-q`.
    #[command(flatten)]
    pub quiet: Quiet<C>,
}

/// The help of `-j`.
const fn jobs_help(name: Name) -> &'static str {
    match name {
        Name::Search => "Worker threads for scanning and indexing (default: all cores)",
        Name::Dedup | Name::Index => "Worker threads (default: all cores)",
        _ => "Worker threads (default: all cores). Output order is always the input order",
    }
}

impl<C: For, M: Args> Run<C, M> {
    /// `-q`.
    pub fn quiet(&self) -> bool {
        self.quiet.quiet
    }
}

impl<C: For> Run<C, Memory<C>> {
    /// `--memory`, in bytes.
    pub fn memory(&self) -> u64 {
        self.memory.memory
    }
}

/// `-q`: nothing on standard error but errors.
#[derive(Args, Debug, Clone)]
pub struct Quiet<C: For> {
    /// Whether `-q` is given.
    #[arg(short, long, help = quiet_help(C::NAME))]
    pub quiet: bool,
    #[arg(skip)]
    of: PhantomData<C>,
}

/// The help of `-q`.
const fn quiet_help(name: Name) -> &'static str {
    match name {
        Name::Dedup | Name::Diff => "No summary on standard error",
        Name::Index => "No progress bar and no summary on standard error",
        Name::Search => "No progress bar, no notes and no summary on standard error",
        _ => {
            "No progress bar and no summary on standard error; `convert` prints no diagnostics \
             either (the games' errors still set the exit status)"
        }
    }
}

/// `--memory SIZE`: the memory to aim at, beyond which a command spills
/// to temporary files.
#[derive(Args, Debug, Clone)]
pub struct Memory<C: For> {
    /// The memory, in bytes.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size,
          help = memory_help(C::NAME))]
    pub memory: u64,
    #[arg(skip)]
    of: PhantomData<C>,
}

/// No `--memory`: the commands that keep what they read in memory.
#[derive(Args, Debug, Clone)]
pub struct InMemory {}

/// The help of `--memory`.
const fn memory_help(name: Name) -> &'static str {
    match name {
        Name::Dedup => {
            "Memory to aim at (as index's --memory), as bytes or with a suffix K, M, G: the \
             games' records (about 170 bytes a game) beyond it are sorted and spilled to \
             temporary files beside -o (else in TMPDIR), with --prefix too"
        }
        _ => {
            "Memory to build the index in: the peak resident memory to aim for, as bytes or \
             with a suffix K, M, G (powers of 1024), e.g. `200M`, `1G`. Tables beyond it are \
             spilled to temporary files beside the index (on that disk they need about the \
             index's size, given back as the index is written); more memory, fewer and larger \
             spills"
        }
    }
}

/// Parses a size: bytes, or a number with a suffix K, M, G or T (powers of
/// 1024; `KB`, `KiB` and lower case too).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 200M, 1G, 1048576)"))?;
    let shift = match suffix.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{s}` is not a size (e.g. 200M, 1G, 1048576)")),
    };
    let bytes = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if bytes == 0 {
        return Err("the memory must be more than 0 bytes".into());
    }
    Ok(bytes)
}

/// Options every command that reads games through the file loop shares
/// (check, convert, report).
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// PGN files or directories to read (`-` or none: standard input).
    /// `.zst`, `.gz` and `.bz2` files are recognised by their magic bytes
    /// and decompressed as they stream. A directory stands for its PGN
    /// files (`*.pgn`, `*.pgn.zst`, `*.pgn.gz`, `*.pgn.bz2`) at any depth,
    /// in name order, skipping what `.gitignore` (in a git repository) and
    /// `.ignore` files exclude and hidden files, as ripgrep does.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// With directories: read the files whose names match GLOB instead of
    /// the PGN names (repeatable; the syntax of a `.gitignore` line: `*`,
    /// `**`, `{a,b}`; with a `/` it matches the path under the directory);
    /// `!GLOB` leaves out what it matches (only `!` globs: the PGN names
    /// less those). Files named on the command line are always read.
    #[arg(long, value_name = "GLOB", value_parser = parse_glob)]
    pub glob: Vec<String>,
    /// `--input-lang`; none given: `pgnkit.toml`'s, else `auto`.
    #[command(flatten)]
    pub lang: Language<Self>,
    /// `--illegal-moves`.
    #[command(flatten)]
    pub illegal: Illegal,
    /// `-j`, `-q`.
    #[command(flatten)]
    pub run: Run<Self, InMemory>,
    /// Read only shard K of N (K counts from 1): the games whose first byte
    /// lies in the K-th of N equal byte ranges of each file (cuts move
    /// forward to the next game start, the same for every K), so N runs,
    /// on N machines if need be, read every game exactly once. Game, line
    /// and byte numbers stay those of the whole file: the N outputs
    /// concatenated in K order are the unsharded output (summaries aside;
    /// add them up with `pgnkit merge-summaries`). Only for uncompressed
    /// regular files, not standard input or compressed files.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<pgnkit_pgn::shard::Shard>,
    /// Add N to every game number (for a file that is a later piece of a
    /// larger one, cut by other means). Adds to what `--shard` computes. At
    /// most 2^53 - 1 (9007199254740991, the largest integer every JSON
    /// reader holds exactly); more is a usage error (exit status 2).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_game_offset)]
    pub game_offset: u64,
}

impl For for InputArgs {
    const NAME: Name = Name::Files;
}

impl InputArgs {
    /// `-q`.
    pub fn quiet(&self) -> bool {
        self.run.quiet()
    }

    /// The inputs these flags name and how to read them (the file loop,
    /// [`pgnkit_driver::files::run`]): `--shard K/N` cuts each file to one
    /// shard and `--game-offset N` is added to its game numbers.
    pub fn inputs(&self) -> pgnkit_driver::files::Inputs<'_> {
        pgnkit_driver::files::Inputs {
            files: &self.files,
            globs: &self.glob,
            jobs: self.run.jobs,
            quiet: self.quiet(),
            shard: self.shard,
            game_offset: self.game_offset,
        }
    }

    /// Whether standard input is among the inputs (`-`, or none given).
    pub fn reads_stdin(&self) -> bool {
        self.files.is_empty() || self.files.iter().any(|f| f == "-")
    }
}

/// Reads one `--glob`: a glob that parses.
fn parse_glob(s: &str) -> Result<String, String> {
    pgnkit_source::walk::check_glob(s).map_err(|e| e.to_string())
}

/// The largest `--game-offset`: 2^53 - 1, the largest integer that every
/// JSON reader (JavaScript, jq: IEEE doubles) holds exactly. With it, game
/// numbers (offset + games before + games in the file) stay far from
/// `u64::MAX`, so no addition on them can overflow.
const MAX_GAME_OFFSET: u64 = (1 << 53) - 1;

/// Reads `--game-offset`: a decimal number up to [`MAX_GAME_OFFSET`].
fn parse_game_offset(s: &str) -> Result<u64, String> {
    let n: u64 = s.trim().parse().map_err(|_| {
        format!("`{s}` is no game offset: write a whole number from 0 to {MAX_GAME_OFFSET}")
    })?;
    if n > MAX_GAME_OFFSET {
        return Err(format!(
            "game offset {n} is too large: at most {MAX_GAME_OFFSET} (2^53 - 1, the largest integer every JSON reader holds exactly)"
        ));
    }
    Ok(n)
}

/// `--input-lang`: detect, or one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputLang {
    /// Per game, the language under which the whole game replays.
    Auto,
    /// Only this language (plus English SAN).
    Forced(Letters),
}

impl InputLang {
    /// The language to force, if any.
    pub fn forced(self) -> Option<Letters> {
        match self {
            InputLang::Auto => None,
            InputLang::Forced(l) => Some(l),
        }
    }
}

/// The help of `--input-lang` (every command that reads games), listing
/// every language code from the one table ([`Letters::ALL`]).
fn input_lang_help() -> String {
    format!(
        "Piece-letter language of the input: `auto` (default) detects it per game; a code ({}) \
         reads only that language plus English SAN",
        Letters::code_list()
    )
}

/// Reads `--input-lang` (shared by every command that reads games).
fn parse_input_lang(s: &str) -> Result<InputLang, String> {
    match Letters::parse_or_auto(s) {
        Ok(None) => Ok(InputLang::Auto),
        Ok(Some(l)) => Ok(InputLang::Forced(l)),
        Err(e) => Err(e.to_string()),
    }
}

/// `--config FILE` and `--no-config`: the settings file.
#[derive(Args, Debug, Clone)]
pub struct Settings<C: For> {
    /// The settings file given.
    #[arg(long, value_name = "FILE", help = config_help(C::NAME))]
    pub config: Option<PathBuf>,
    /// Read no settings file.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
    #[arg(skip)]
    of: PhantomData<C>,
}

/// The help of `--config`.
const fn config_help(name: Name) -> &'static str {
    match name {
        Name::Report => {
            "The settings file (default: the first `pgnkit.toml` in the current folder or \
             above it), as for `check`: its rules select the problems"
        }
        _ => {
            "The settings file (default: the first `pgnkit.toml` in the current folder or \
             above it). Flags given here win over it"
        }
    }
}

impl<C: For> Settings<C> {
    /// The same flags, for the settings of another command.
    pub fn to<D: For>(&self) -> Settings<D> {
        Settings {
            config: self.config.clone(),
            no_config: self.no_config,
            of: PhantomData,
        }
    }

    /// The settings file of the run: `--config FILE`, none with
    /// `--no-config`, else the first `pgnkit.toml` from the current folder
    /// upwards.
    ///
    /// # Errors
    /// Those of reading the file.
    pub fn read(&self) -> anyhow::Result<Config> {
        if self.no_config {
            return Ok(Config::default());
        }
        Ok(match self.config.as_deref() {
            Some(path) => Config::read(path)?,
            None => Config::find(&std::env::current_dir()?)?,
        })
    }
}

/// `--format human|json|github` of the commands whose output follows
/// standard output: human on a terminal, else JSON.
#[derive(Args, Debug, Clone)]
pub struct TerminalFormat {
    /// Output format (default: human on a terminal, json otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

impl TerminalFormat {
    /// The format given, else human on a terminal and JSON otherwise.
    pub fn get(&self) -> Format {
        self.format.unwrap_or(if std::io::stdout().is_terminal() {
            Format::Human
        } else {
            Format::Json
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bytes_or_powers_of_1024() {
        assert_eq!(parse_size("256M"), Ok(256 << 20));
        assert_eq!(parse_size("200M"), Ok(200 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1gib"), Ok(1 << 30));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("12X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
