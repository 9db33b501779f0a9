//! The flags of the commands that check games and report what they find:
//! `check`, `report` (the HTML page), `rules` and `merge-summaries`.

use clap::{Args, ValueEnum};
use pgnkit_replay::Code;
use pgnkit_report::html::DEFAULT_MAX_CARDS;
use pgnkit_report::printer::CheckFormat;

use super::defs::{For, InputArgs, Name, Settings};

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
    /// `--config`, `--no-config`.
    #[command(flatten)]
    pub settings: Settings<Self>,
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

impl For for CheckArgs {
    const NAME: Name = Name::Check;
}

impl CheckArgs {
    /// `check --format html`: the flags of `pgnkit report` writing its page
    /// to standard output, for the same files and settings file. The flags
    /// that shape the other formats' output have no place on the page.
    ///
    /// # Errors
    /// Such a flag given.
    pub fn html_report(&self) -> anyhow::Result<ReportArgs> {
        let shaping = [
            (self.games, "--games"),
            (self.fix, "--fix"),
            (self.strict, "--strict"),
            (self.baseline.is_some(), "--baseline"),
            (self.write_baseline.is_some(), "--write-baseline"),
            (self.max_annotations.is_some(), "--max-annotations"),
            (self.no_suggestions, "--no-suggestions"),
            (self.all_suggestions, "--all-suggestions"),
            (
                !(self.select.is_empty()
                    && self.ignore.is_empty()
                    && self.warn.is_empty()
                    && self.error.is_empty()),
                "--select/--ignore/--warn/--error",
            ),
        ];
        if let Some((_, flag)) = shaping.iter().find(|(set, _)| *set) {
            anyhow::bail!(
                "{flag} is not for --format html: the page shows every problem the settings file selects, with the best suggestion (see `pgnkit report`)"
            );
        }
        Ok(ReportArgs {
            input: self.input.clone(),
            output: "-".to_owned(),
            max_cards: DEFAULT_MAX_CARDS,
            settings: self.settings.to(),
        })
    }
}

/// `pgnkit report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
    /// The HTML file to write (replaced atomically; `-`: standard output).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: String,
    /// The most games given a card (the first ones with a problem); the
    /// page says how many were left out.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CARDS)]
    pub max_cards: u64,
    /// `--config`, `--no-config`.
    #[command(flatten)]
    pub settings: Settings<Self>,
}

impl For for ReportArgs {
    const NAME: Name = Name::Report;
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
fn parse_topic(s: &str) -> Result<pgnkit_report::rules::Topic, String> {
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
fn parse_code(s: &str) -> Result<Code, String> {
    Code::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown code `{s}`; the codes are: {}", names.join(", "))
    })
}

/// `pgnkit merge-summaries`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// NDJSON outputs of `check --format json` (`-` or none: standard
    /// input). Every `summary` record in them is added up; other records are
    /// skipped, except `error` records (an input a run could not read),
    /// which are counted as `failures`.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// `json`: one summary record (default); `human`: one line.
    #[arg(long, value_enum, default_value = "json")]
    pub format: MergeFormat,
    /// Merge even when some shards of a `--shard K/N` set are missing or
    /// repeated (otherwise that is an error: the totals would be wrong).
    #[arg(long)]
    pub partial: bool,
}

/// How the merged summary is printed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    /// One NDJSON `summary` record.
    Json,
    /// One line, like `check`'s summary line.
    Human,
}
