//! `pgnkit search`: print the games that match, using the index.

use clap::Args;

/// `pgnkit search`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// The PGN file to search.
    pub file: String,
}

/// Runs `pgnkit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("search is being built")
}
