//! `pgnkit diff`: compare two records of the same games (both players' scoresheets).

use clap::Args;

/// `pgnkit diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// White's record.
    pub a: String,
    /// Black's record.
    pub b: String,
}

/// Runs `pgnkit diff`.
pub fn run(args: &DiffArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("diff is being built")
}
