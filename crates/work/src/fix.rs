//! Where `pgnkit check --fix` puts the games fixed by
//! [`pgnkit_replay::fix::fix_game`]: one file (`-o FILE`, written
//! atomically, and only when every input was read), each input rewritten
//! in place (`--in-place`: [`pgnkit_atomic::InPlace`], under a lock, only
//! if the input did not change while it was read, the original kept as
//! `FILE.orig`), or a unified diff on standard output (`--diff`, and
//! `--fix` alone on a terminal; written by [`pgnkit_report::unified_diff`]).

use std::io::{BufWriter, Write};
use std::path::Path;

use pgnkit_atomic::InPlace as Rewrite;
use pgnkit_driver::output::{OutputFile, nothing_written};
use pgnkit_pgn::location::count_lines;
use pgnkit_replay::fix::{FixCounts, Fixed};
use pgnkit_report::unified_diff;
use pgnkit_source::{Chunk, Compression, Input};

/// Where the fixed games go.
enum Target {
    /// `-o FILE`.
    File(OutputFile),
    /// `--in-place`: the input being read, if it is to be rewritten.
    InPlace {
        backup: bool,
        current: Option<InPlace>,
        rewritten: u64,
    },
    /// `--diff`: a unified diff of the changed games on standard output.
    Diff {
        /// The input being read: its name, and whether its header is out.
        name: String,
        header: bool,
    },
}

/// One input being rewritten in place.
struct InPlace {
    file: BufWriter<Rewrite>,
    /// Some game of it was changed.
    changed: bool,
}

/// The output of `--fix`.
pub struct FixOutput {
    target: Target,
    counts: FixCounts,
}

impl FixOutput {
    /// Starts writing `path` (`-o`).
    pub fn create(path: &str) -> anyhow::Result<FixOutput> {
        Ok(FixOutput::with(Target::File(OutputFile::create(
            Path::new(path),
        )?)))
    }

    /// Rewrites each input in place, keeping `FILE.orig` if `backup`.
    pub fn in_place(backup: bool) -> FixOutput {
        FixOutput::with(Target::InPlace {
            backup,
            current: None,
            rewritten: 0,
        })
    }

    /// Prints a unified diff of the changes.
    pub fn diff() -> FixOutput {
        FixOutput::with(Target::Diff {
            name: String::new(),
            header: false,
        })
    }

    fn with(target: Target) -> FixOutput {
        FixOutput {
            target,
            counts: FixCounts::default(),
        }
    }

    /// Whether the diagnostics are printed (not with a diff: the diff is
    /// the output).
    pub fn prints_diagnostics(&self) -> bool {
        !matches!(self.target, Target::Diff { .. })
    }

    /// An input is about to be read (`path` as given).
    ///
    /// # Errors
    /// `--in-place` on a compressed input, or where no file can be made
    /// beside it.
    pub fn begin(&mut self, path: &str, input: &Input) -> anyhow::Result<()> {
        match &mut self.target {
            Target::File(_) => {}
            Target::InPlace { current, .. } => {
                if input.compression != Compression::None {
                    anyhow::bail!(
                        "cannot fix {path} in place: it is {}-compressed (use -o FILE)",
                        input.compression.name()
                    );
                }
                let Some(read) = input.identity else {
                    anyhow::bail!(
                        "cannot fix {path} in place: it is not a regular file (use -o FILE)"
                    );
                };
                *current = Some(InPlace {
                    file: BufWriter::with_capacity(1 << 16, Rewrite::begin(Path::new(path), read)?),
                    changed: false,
                });
            }
            Target::Diff { name, header } => {
                name.clone_from(&input.name);
                *header = false;
            }
        }
        Ok(())
    }

    /// Writes the fixed games of one chunk (`first_line`: the chunk's first
    /// line in its file, 1-based).
    pub fn write(
        &mut self,
        out: &mut impl Write,
        chunk: &Chunk,
        first_line: usize,
        fixed: &Fixed,
    ) -> anyhow::Result<()> {
        self.counts.add(&fixed.counts);
        match &mut self.target {
            Target::File(file) => file.write_all(&fixed.bytes)?,
            Target::InPlace { current, .. } => {
                if let Some(c) = current {
                    c.file.write_all(&fixed.bytes)?;
                    c.changed |= !fixed.changes.is_empty();
                }
            }
            Target::Diff { name, header } => {
                let data: &[u8] = &chunk.data;
                let mut line = first_line;
                let mut at = chunk.range.start;
                for change in &fixed.changes {
                    let (Some(skipped), Some(before), Some(after)) = (
                        data.get(at..change.before.start),
                        data.get(change.before.clone()),
                        fixed.bytes.get(change.after.clone()),
                    ) else {
                        continue;
                    };
                    line = line.saturating_add(count_lines(skipped));
                    at = change.before.start;
                    if !*header {
                        unified_diff::write_header(out, name)?;
                        *header = true;
                    }
                    unified_diff::write_hunks(out, line, before, after)?;
                }
            }
        }
        Ok(())
    }

    /// The input begun last is read, to its end if `complete`: with
    /// `--in-place`, a changed input is replaced by its fixed copy (the
    /// original kept as `FILE.orig` first), an unchanged one is left alone.
    ///
    /// # Errors
    /// When the input changed while it was read, or the backup or the
    /// rename fails: the input is then untouched.
    pub fn end(&mut self, complete: bool) -> anyhow::Result<()> {
        if let Target::InPlace {
            backup,
            current,
            rewritten,
        } = &mut self.target
            && let Some(c) = current.take()
            && complete
            && c.changed
        {
            let rewrite = c
                .file
                .into_inner()
                .map_err(std::io::IntoInnerError::into_error)?;
            rewrite.commit(*backup)?;
            *rewritten += 1;
        }
        Ok(())
    }

    /// What was fixed so far.
    pub fn counts(&self) -> FixCounts {
        self.counts
    }

    /// Puts the output in place and says what was done: the line `check`
    /// prints on standard error, or, with `failed` (an input could not be
    /// read), the error that `-o`'s file was not written, as `convert -o`
    /// writes none: a run writes all its inputs' games or nothing.
    ///
    /// # Errors
    /// Those of renaming the `-o` file into place.
    pub fn finish(self, failed: bool) -> anyhow::Result<Finished> {
        let counts = self.counts;
        let done = match self.target {
            Target::File(file) if failed => {
                let path = file.path().to_path_buf();
                drop(file);
                return Ok(Finished::NothingWritten(nothing_written(&path)));
            }
            Target::File(file) => {
                let path = file.path().to_path_buf();
                file.commit()?;
                format!("wrote {}", path.display())
            }
            Target::InPlace { rewritten, .. } => format!(
                "rewrote {rewritten} {}",
                if rewritten == 1 { "file" } else { "files" }
            ),
            Target::Diff { .. } => "wrote nothing (a diff)".to_owned(),
        };
        Ok(Finished::Wrote(format!("{counts}; {done}")))
    }
}

/// How a `--fix` run ended ([`FixOutput::finish`]).
#[derive(Debug)]
pub enum Finished {
    /// What was fixed and written (the line `check` prints unless quiet).
    Wrote(String),
    /// The error saying that `-o`'s file was not written.
    NothingWritten(String),
}
