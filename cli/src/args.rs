//! Every flag, defined once with its help text.

use clap::{Args, Parser, Subcommand};
use pgnkit_notation::Language;
use pgnkit_replay::Code;

/// Check, convert, index and search PGN chess databases in any notation and
/// language.
#[derive(Parser, Debug)]
#[command(name = "pgnkit", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay every game, report every problem, compute each game's true result.
    Check(CheckArgs),
    /// Rewrite the moves of every game in another notation or language.
    Convert(crate::convert::ConvertArgs),
    /// Build an index beside a PGN file for fast search.
    Index(crate::index::IndexArgs),
    /// Print the games that match, using the index (or a scan without one).
    Search(Box<crate::search::SearchArgs>),
    /// Compare two records of the same games (both players' scoresheets).
    Diff(crate::diff::DiffArgs),
    /// Find duplicate games, whatever their notation or language.
    Dedup(crate::dedup::DedupArgs),
    /// Show one position of a game in the terminal: the board, the moves around it, its problems.
    Show(crate::show::ShowArgs),
    /// Write one self-contained HTML page of the problems found, a board for each game.
    Report(crate::report::ReportArgs),
    /// Add up the summary records of sharded `check --format json` runs.
    MergeSummaries(crate::merge::MergeArgs),
    /// Write the completion script of a shell to standard output.
    Completions(crate::manual::CompletionsArgs),
    /// Write the man page of pgnkit or of one command (roff) to standard output.
    Man(crate::manual::ManArgs),
    /// List every diagnostic code, or explain one with an example.
    Rules(RulesArgs),
}

/// `pgnkit rules`.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// The code to explain (e.g. `illegal-move`), or the rule
    /// `dead-position`; none lists them all.
    #[arg(value_name = "CODE", value_parser = parse_topic)]
    pub code: Option<pgnkit_report::rules::Topic>,
}

/// Reads what `pgnkit rules` explains: a code, or a rule
/// (`dead-position`); an unknown one is refused with the list.
pub fn parse_topic(s: &str) -> Result<pgnkit_report::rules::Topic, String> {
    pgnkit_report::rules::Topic::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!(
            "unknown code `{s}`; the codes are: {}; the rules: {}",
            names.join(", "),
            pgnkit_report::rules::Topic::RULES.join(", ")
        )
    })
}

/// Reads a diagnostic code by its name; an unknown one is refused with the
/// list of the known ones.
pub fn parse_code(s: &str) -> Result<Code, String> {
    Code::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown code `{s}`; the codes are: {}", names.join(", "))
    })
}

pub use pgnkit_report::Format;
pub use pgnkit_report::printer::{CheckFormat, DEFAULT_MAX_ANNOTATIONS, ReportFormat};

/// Options every command that reads games shares.
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
    /// Piece-letter language of the input ([`input_lang_help`]); none
    /// given: `pgnkit.toml`'s, else `auto`.
    #[arg(long, value_name = "LANG", value_parser = parse_input_lang, help = input_lang_help())]
    pub input_lang: Option<InputLang>,
    /// Worker threads (default: all cores). Output order is always the input order.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar and no summary on standard error; `convert` prints
    /// no diagnostics either (the games' errors still set the exit status).
    #[arg(short, long)]
    pub quiet: bool,
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

impl InputArgs {
    /// `--input-lang`, `auto` when not given.
    pub fn input_lang(&self) -> InputLang {
        self.input_lang.unwrap_or(InputLang::Auto)
    }

    /// The inputs these flags name and how to read them (the file loop,
    /// [`pgnkit_driver::files::run`]): `--shard K/N` cuts each file to one
    /// shard and `--game-offset N` is added to its game numbers.
    pub fn inputs(&self) -> pgnkit_driver::files::Inputs<'_> {
        pgnkit_driver::files::Inputs {
            files: &self.files,
            globs: &self.glob,
            jobs: self.jobs,
            quiet: self.quiet,
            shard: self.shard,
            game_offset: self.game_offset,
        }
    }
}

/// Reads one `--glob`: a glob that parses.
pub fn parse_glob(s: &str) -> Result<String, String> {
    crate::input::walk::check_glob(s).map_err(|e| e.to_string())
}

/// The largest `--game-offset`: 2^53 - 1, the largest integer that every
/// JSON reader (JavaScript, jq: IEEE doubles) holds exactly. With it, game
/// numbers (offset + games before + games in the file) stay far from
/// `u64::MAX`, so no addition on them can overflow.
pub const MAX_GAME_OFFSET: u64 = (1 << 53) - 1;

/// Reads `--game-offset`: a decimal number up to [`MAX_GAME_OFFSET`].
pub fn parse_game_offset(s: &str) -> Result<u64, String> {
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
    Forced(Language),
}

impl InputLang {
    /// The language to force, if any.
    pub fn forced(self) -> Option<Language> {
        match self {
            InputLang::Auto => None,
            InputLang::Forced(l) => Some(l),
        }
    }
}

/// The help of `--input-lang` (every command that reads games), listing
/// every language code from the one table ([`Language::ALL`]).
pub fn input_lang_help() -> String {
    format!(
        "Piece-letter language of the input: `auto` (default) detects it per game; a code ({}) \
         reads only that language plus English SAN",
        Language::code_list()
    )
}

/// The help of `convert --lang`, listing every language code from the one
/// table ([`Language::ALL`]).
pub fn output_lang_help() -> String {
    format!(
        "Language of the piece letters written (ISO 639-1 code: {})",
        Language::code_list()
    )
}

/// Reads `--input-lang` (shared by every command that reads games).
pub fn parse_input_lang(s: &str) -> Result<InputLang, String> {
    match Language::parse_or_auto(s) {
        Ok(None) => Ok(InputLang::Auto),
        Ok(Some(l)) => Ok(InputLang::Forced(l)),
        Err(e) => Err(e.to_string()),
    }
}

/// `pgnkit check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format (default: human on a terminal, json otherwise).
    #[arg(long, value_enum)]
    pub format: Option<CheckFormat>,
    /// With `--format github`: the most annotations written (GitHub shows
    /// 10 error and 10 warning annotations a step, 50 a job); a notice
    /// counts the rest, and the job summary (`$GITHUB_STEP_SUMMARY`, when
    /// set) has them all by code. Default 50, or `max-annotations` in
    /// `pgnkit.toml`.
    #[arg(long, value_name = "N")]
    pub max_annotations: Option<u64>,
    /// Also report each game: status, the result the rules give, claimable
    /// draws (not with the document formats sarif, junit, gitlab).
    #[arg(long)]
    pub games: bool,
    /// Warnings count for the exit status too.
    #[arg(long)]
    pub strict: bool,
    /// The settings file (default: the first `pgnkit.toml` in the current
    /// folder or above it). Flags given here win over it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Read no settings file.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
    /// Report only the problems not in this baseline (written by
    /// `--write-baseline`): the known ones are neither printed nor counted;
    /// the entries no longer found are reported, so the baseline can shrink.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<std::path::PathBuf>,
    /// Write the problems found to this baseline file (and report them as
    /// usual).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<std::path::PathBuf>,
    /// Report only these codes (comma-separated; `pgnkit rules` lists them).
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = parse_code)]
    pub select: Vec<Code>,
    /// Do not report these codes: they are neither printed nor counted.
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = parse_code)]
    pub ignore: Vec<Code>,
    /// Report these codes as warnings (they fail only under `--strict`).
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = parse_code)]
    pub warn: Vec<Code>,
    /// Report these codes as errors (they fail the check).
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = parse_code)]
    pub error: Vec<Code>,
    /// Do not search for what the writer probably meant (faster on very
    /// broken files); with `--fix` the search still runs for the fixes, and
    /// only the printed suggestions are left out.
    #[arg(long)]
    pub no_suggestions: bool,
    /// Print every suggestion the search found (at most five a problem),
    /// not only the best one and those as good as it (at most three); the
    /// JSON record always carries them all.
    #[arg(long, conflicts_with = "no_suggestions")]
    pub all_suggestions: bool,
    /// Fix the games: each top fix that no other fix rivals (see docs/)
    /// applied and marked with a comment, a tie left as written with a
    /// comment for a human, move numbers made to fit after an inserted or
    /// struck-out move, a Result tag the rules contradict set to the rules'
    /// result (with a comment saying why), and wrong or missing `+`/`#`
    /// corrected; unconfirmed problems stay as written. Where to: `-o FILE`,
    /// `--in-place`, or `--diff`; with none of them, a diff is printed when
    /// standard output is a terminal (nothing is written).
    #[arg(long)]
    pub fix: bool,
    /// The file `--fix` writes (replaced atomically).
    #[arg(short = 'o', long, value_name = "FILE", requires = "fix", conflicts_with_all = ["in_place", "diff"])]
    pub output: Option<String>,
    /// With `--fix`: rewrite each input file that has something to fix
    /// (a temporary file in its folder, renamed over it), keeping the
    /// original as FILE.orig. Not for standard input, compressed files or
    /// `--shard`.
    #[arg(long, requires = "fix", conflicts_with = "diff")]
    pub in_place: bool,
    /// With `--in-place`: keep no FILE.orig.
    #[arg(long, requires = "in_place")]
    pub no_backup: bool,
    /// With `--fix`: print a unified diff of what would change on standard
    /// output, instead of the diagnostics, and write nothing.
    #[arg(long, requires = "fix")]
    pub diff: bool,
}
