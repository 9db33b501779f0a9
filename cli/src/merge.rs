//! `pgnkit merge-summaries`: add up the summary records of sharded runs.

use clap::Args;

/// `pgnkit merge-summaries`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// NDJSON outputs of `check --format json` (`-` for standard input).
    pub files: Vec<String>,
}

/// Runs `pgnkit merge-summaries`.
pub fn run(args: &MergeArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("merge-summaries is being built")
}
