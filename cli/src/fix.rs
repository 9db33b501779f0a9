//! Where `pgnkit check --fix` puts the games fixed by
//! [`pgnkit_replay::fix::fix_game`]: one file (`-o FILE`, written
//! atomically), each input rewritten in place (`--in-place`, atomically,
//! the original kept as `FILE.orig`), or a unified diff on standard output
//! (`--diff`, and `--fix` alone on a terminal).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use pgnkit_pgn::location::count_lines;
use pgnkit_replay::fix::{FixCounts, Fixed};

use crate::input::{Chunk, Compression, Input};
use crate::output::OutputFile;

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
    file: OutputFile,
    path: PathBuf,
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
                *current = Some(InPlace {
                    file: OutputFile::create(Path::new(path))?,
                    path: PathBuf::from(path),
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
                        writeln!(out, "--- a/{name}\n+++ b/{name}")?;
                        *header = true;
                    }
                    write_hunks(out, line, before, after)?;
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
    /// When the backup or the rename fails: the input is then untouched.
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
            if *backup {
                let mut orig = c.path.clone().into_os_string();
                orig.push(".orig");
                let orig = PathBuf::from(orig);
                std::fs::copy(&c.path, &orig).with_context(|| {
                    format!("cannot keep {} as {}", c.path.display(), orig.display())
                })?;
            }
            c.file.commit()?;
            *rewritten += 1;
        }
        Ok(())
    }

    /// What was fixed so far.
    pub fn counts(&self) -> FixCounts {
        self.counts
    }

    /// Puts the output in place and says what was done.
    pub fn finish(self, quiet: bool) -> anyhow::Result<()> {
        let counts = self.counts;
        let done = match self.target {
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
        if !quiet {
            eprintln!("{counts}; {done}");
        }
        Ok(())
    }
}

/// Lines of context around each change in a hunk.
const CONTEXT: usize = 3;

/// Writes the unified-diff hunks that turn `before` (a game as read, whose
/// first line is line `first_line` of its file, 1-based) into `after` (the
/// game as fixed). The fixes change no line breaks, so the game's lines are
/// compared one for one; should the numbers of lines differ, the lines from
/// the first difference to the last are one change.
///
/// # Errors
/// Those of writing to `out`.
pub fn write_hunks(
    out: &mut impl Write,
    first_line: usize,
    before: &[u8],
    after: &[u8],
) -> io::Result<()> {
    let old: Vec<&[u8]> = before.split_inclusive(|&b| b == b'\n').collect();
    let new: Vec<&[u8]> = after.split_inclusive(|&b| b == b'\n').collect();
    // Changed runs of lines: (start in old, end in old, start in new, end in new).
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    if old.len() == new.len() {
        let mut i = 0;
        while i < old.len() {
            if old.get(i) == new.get(i) {
                i += 1;
                continue;
            }
            let start = i;
            while i < old.len() && old.get(i) != new.get(i) {
                i += 1;
            }
            runs.push((start, i, start, i));
        }
    } else {
        let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let suffix = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take_while(|(a, b)| a == b)
            .count()
            .min(old.len() - prefix)
            .min(new.len() - prefix);
        runs.push((prefix, old.len() - suffix, prefix, new.len() - suffix));
    }
    // Runs closer than twice the context share a hunk.
    let mut i = 0;
    while i < runs.len() {
        let mut j = i;
        while j + 1 < runs.len() && runs[j + 1].0 <= runs[j].1 + 2 * CONTEXT {
            j += 1;
        }
        let (first, last) = (runs[i], runs[j]);
        let old_from = first.0.saturating_sub(CONTEXT);
        let old_to = (last.1 + CONTEXT).min(old.len());
        let new_from = first.2.saturating_sub(CONTEXT);
        let new_to = (last.3 + CONTEXT).min(new.len());
        writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            first_line + old_from,
            old_to - old_from,
            first_line + new_from,
            new_to - new_from
        )?;
        let mut o = old_from;
        for run in &runs[i..=j] {
            for l in &old[o..run.0] {
                line(out, b' ', l)?;
            }
            for l in &old[run.0..run.1] {
                line(out, b'-', l)?;
            }
            for l in &new[run.2..run.3] {
                line(out, b'+', l)?;
            }
            o = run.1;
        }
        for l in &old[o..old_to] {
            line(out, b' ', l)?;
        }
        i = j + 1;
    }
    Ok(())
}

/// One line of a hunk, ending in a line break (with the usual note when
/// the file's last line has none).
fn line(out: &mut impl Write, mark: u8, text: &[u8]) -> io::Result<()> {
    out.write_all(&[mark])?;
    out.write_all(text)?;
    if !text.ends_with(b"\n") {
        out.write_all(b"\n\\ No newline at end of file\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunks(first: usize, before: &str, after: &str) -> String {
        let mut out = Vec::new();
        write_hunks(&mut out, first, before.as_bytes(), after.as_bytes()).expect("write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn a_changed_line_comes_with_three_lines_of_context() {
        let before = "[Event \"x\"]\n\n1. e4 e5\n2. Nf4 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O *\n";
        let after = before.replace("Nf4", "Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied}");
        assert_eq!(
            hunks(10, before, &after),
            "@@ -10,7 +10,7 @@\n [Event \"x\"]\n \n 1. e4 e5\n-2. Nf4 Nc6\n+2. Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied} Nc6\n 3. Bb5 a6\n 4. Ba4 Nf6\n 5. O-O *\n"
        );
    }

    #[test]
    fn changes_far_apart_are_hunks_of_their_own() {
        let before: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let after = before
            .replace("line 2\n", "line two\n")
            .replace("line 18\n", "line eighteen\n");
        let text = hunks(1, &before, &after);
        let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(heads, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
        assert!(text.contains("-line 18\n+line eighteen\n"), "{text}");
    }

    #[test]
    fn a_game_the_same_has_no_hunk() {
        assert_eq!(hunks(1, "1. e4 *\n", "1. e4 *\n"), "");
    }
}
