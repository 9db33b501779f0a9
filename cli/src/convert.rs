//! `pgnkit convert`: rewrite the moves of every game in another notation or language.

use clap::Args;

use crate::args::InputArgs;

/// `pgnkit convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Runs `pgnkit convert`.
pub fn run(args: &ConvertArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("convert is being built")
}
