//! The `-o FILE` of `pgnkit check --fix`: the games fixed by
//! [`pgnkit_replay::fix::fix_game`], written atomically.

use std::io::Write;
use std::path::Path;

use pgnkit_replay::fix::{FixCounts, Fixed};

use crate::output::OutputFile;

/// The `-o FILE` of `--fix`, put in place when every game is written
/// ([`OutputFile`]).
pub struct FixOutput {
    file: OutputFile,
    counts: FixCounts,
}

impl FixOutput {
    /// Starts writing `path`.
    pub fn create(path: &str) -> anyhow::Result<FixOutput> {
        Ok(FixOutput {
            file: OutputFile::create(Path::new(path))?,
            counts: FixCounts::default(),
        })
    }

    /// Writes the fixed games of one chunk.
    pub fn write(&mut self, fixed: &Fixed) -> anyhow::Result<()> {
        self.file.write_all(&fixed.bytes)?;
        self.counts.add(&fixed.counts);
        Ok(())
    }

    /// What was fixed so far.
    pub fn counts(&self) -> FixCounts {
        self.counts
    }

    /// Puts the output in place and says what was done.
    pub fn finish(self, quiet: bool) -> anyhow::Result<()> {
        let path = self.file.path().to_path_buf();
        self.file.commit()?;
        if !quiet {
            eprintln!("{}; wrote {}", self.counts, path.display());
        }
        Ok(())
    }
}
