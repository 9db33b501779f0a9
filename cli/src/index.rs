//! `pgnkit index`: build an index beside a PGN file for fast search.

use clap::Args;

/// `pgnkit index`.
#[derive(Args, Debug, Clone)]
pub struct IndexArgs {
    /// The PGN file to index.
    pub file: String,
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("index is being built")
}
