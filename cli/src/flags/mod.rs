//! Every flag of `pgnkit`, defined once with its help text, as ripgrep's
//! `flags/defs.rs` defines its own: the commands ([`Cli`], [`Command`]),
//! the groups of flags several commands share ([`defs`]: the inputs, the
//! language of the moves, `-j`/`--memory`/`-q`, the settings file), and
//! each command's own flags (check and report, convert, search and index,
//! dedup, diff and show). `--help`, the man pages and the completion
//! scripts all come from these definitions.

mod check;
mod convert;
mod defs;
mod games;
mod search;

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;

pub use self::check::{CheckArgs, MergeArgs, MergeFormat, ReportArgs, RulesArgs};
pub use self::convert::{ConvertArgs, ShapeArgs};
pub use self::games::{ColorWhen, DedupArgs, DiffArgs, ShowArgs};
pub use self::search::{IndexArgs, SearchArgs};

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
    Convert(ConvertArgs),
    /// Build an index beside a PGN file for fast search.
    Index(IndexArgs),
    /// Print the games that match, using the index (or a scan without one).
    Search(Box<SearchArgs>),
    /// Compare two records of the same games (both players' scoresheets).
    Diff(DiffArgs),
    /// Find duplicate games, whatever their notation or language.
    Dedup(DedupArgs),
    /// Show one position of a game in the terminal: the board, the moves around it, its problems.
    Show(ShowArgs),
    /// Write one self-contained HTML page of the problems found, a board for each game.
    Report(ReportArgs),
    /// Add up the summary records of sharded `check --format json` runs.
    MergeSummaries(MergeArgs),
    /// Write the completion script of a shell to standard output.
    Completions(CompletionsArgs),
    /// Write the man page of pgnkit or of one command (roff) to standard output.
    Man(ManArgs),
    /// List every diagnostic code, or explain one with an example.
    Rules(RulesArgs),
}

/// `pgnkit completions`.
#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell to complete in. Install, e.g.: bash: `pgnkit completions
    /// bash > ~/.local/share/bash-completion/completions/pgnkit`; zsh:
    /// `pgnkit completions zsh > ~/.zfunc/_pgnkit` (with `fpath+=~/.zfunc`);
    /// fish: `pgnkit completions fish > ~/.config/fish/completions/pgnkit.fish`;
    /// PowerShell: `pgnkit completions powershell >> $PROFILE`.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// `pgnkit man`.
#[derive(Args, Debug, Clone)]
pub struct ManArgs {
    /// The command whose page to write (`check` gives `pgnkit-check(1)`);
    /// none: `pgnkit(1)`. Read it with `pgnkit man | man -l -`, or install
    /// it: `pgnkit man > ~/.local/share/man/man1/pgnkit.1`.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// The flags make one consistent command line: no two flags of a
    /// command share a name, a group of shared flags flattened twice, or a
    /// flag that `requires` or `conflicts_with` one that is not there.
    #[test]
    fn the_flags_are_consistent() {
        Cli::command().debug_assert();
    }
}
