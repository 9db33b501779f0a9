//! Output files written whole or not at all, through
//! [`pgnkit_atomic::Replacement`]: `convert -o`, `check --fix -o`, `diff -o`,
//! `dedup -o`, `search --non-matching`, `report -o`, baselines and
//! `--split`'s parts go to a temporary file beside the target, renamed over
//! it only when the run succeeded, with the old file's owner, group and
//! mode. A failed or interrupted run leaves the old file as it was and no
//! temporary file. A device or pipe (`/dev/null`, a FIFO) is written in
//! place. Errors of writing name the output, never an input.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use pgnkit_atomic::{Replacement, Written};

/// A file being written; [`OutputFile::commit`] puts it in place.
///
/// Dropping it without committing removes the temporary file and leaves
/// the target untouched.
pub struct OutputFile {
    out: BufWriter<Replacement>,
}

impl OutputFile {
    /// Starts writing `path`.
    ///
    /// # Errors
    /// Those of [`Replacement::create`] (a directory, a read-only file, a
    /// folder that cannot hold a new file), as [`pgnkit_atomic::Error`].
    pub fn create(path: &Path) -> anyhow::Result<OutputFile> {
        Ok(OutputFile {
            out: BufWriter::with_capacity(1 << 16, Replacement::create(path)?),
        })
    }

    /// The target's path.
    pub fn path(&self) -> &Path {
        self.out.get_ref().target()
    }

    /// Writes out and closes the file, to be put in place later.
    fn close(self) -> anyhow::Result<Written> {
        let replacement = self
            .out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        Ok(replacement.close()?)
    }

    /// Writes out and puts the file in place (a rename for a regular file).
    ///
    /// # Errors
    /// When the data cannot be written or the rename fails; the target is
    /// then untouched.
    pub fn commit(self) -> anyhow::Result<()> {
        Ok(self.close()?.commit()?)
    }
}

/// What a run that could not read an input says of its output file (the
/// old one kept, none made): `check --fix -o` and `convert -o` alike.
pub fn nothing_written(path: &Path) -> String {
    format!(
        "nothing written to `{}`: an input could not be read",
        path.display()
    )
}

/// Whether `e` is a failure of an output (a file being written, or
/// standard output), which ends a run: not an input that cannot be read.
pub fn is_output_error(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|cause| pgnkit_atomic::output_error(cause).is_some())
}

/// Whether `e` comes from writing to a pipe whose reader has gone
/// (`pgnkit … | head`): the run then stops quietly, as other command-line
/// tools do.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Where `convert` writes.
pub enum Output {
    /// Standard output.
    Stdout(pgnkit_atomic::Stdout<BufWriter<io::StdoutLock<'static>>>),
    /// `-o FILE`.
    File(OutputFile),
    /// `--split N`: files of N games.
    Parts(Parts),
}

impl Output {
    /// Standard output, `-o FILE`, or `--split`'s files.
    ///
    /// # Errors
    /// When the file cannot be created, or the pattern has no `{n}` (or `{}`).
    pub fn open(path: Option<&Path>, split: Option<u64>) -> anyhow::Result<Output> {
        if let (Some(path), Some(size)) = (path, split) {
            return Ok(Output::Parts(Parts::new(path, size)?));
        }
        match path.filter(|p| p.as_os_str() != "-") {
            None => Ok(Output::Stdout(pgnkit_atomic::Stdout(
                BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            ))),
            Some(path) => Ok(Output::File(OutputFile::create(path)?)),
        }
    }

    /// Where the next game goes.
    ///
    /// # Errors
    /// When the next of `--split`'s files cannot be created.
    pub fn writer(&mut self) -> anyhow::Result<&mut dyn Write> {
        match self {
            Output::Stdout(w) => Ok(w),
            Output::File(f) => Ok(f),
            Output::Parts(p) => p.next_game(),
        }
    }

    /// Flushes; a file is put in place.
    ///
    /// # Errors
    /// When it cannot be.
    pub fn commit(self) -> anyhow::Result<()> {
        match self {
            Output::Stdout(mut w) => Ok(w.flush()?),
            Output::File(f) => f.commit(),
            Output::Parts(p) => p.commit(),
        }
    }
}

/// Output in files of `size` games, named from a pattern (`--split`).
/// Each full file is written out and closed; all are put in place at the
/// end of the run, so that a run that fails (a full disk at the eighth
/// file) replaces no file of an earlier run and leaves no part of its own.
pub struct Parts {
    pattern: PathBuf,
    size: u64,
    /// Games written to the current file.
    games: u64,
    /// The number of the current file.
    number: u64,
    file: Option<OutputFile>,
    /// The full files, waiting for the end of the run.
    written: Vec<Written>,
}

impl Parts {
    /// Files of `size` games named from `pattern`, whose `{n}` (or `{}`) becomes the
    /// file's number.
    ///
    /// # Errors
    /// When the pattern has neither.
    pub fn new(pattern: &Path, size: u64) -> anyhow::Result<Parts> {
        let name = pattern.as_os_str().as_bytes();
        if find(name, b"{n}").is_none() && find(name, b"{}").is_none() {
            anyhow::bail!(
                "--split needs `{{n}}` in the name given with -o (like `out-{{n}}.pgn`), for the files' numbers"
            );
        }
        Ok(Parts {
            pattern: pattern.to_path_buf(),
            size,
            games: 0,
            number: 0,
            file: None,
            written: Vec::new(),
        })
    }

    /// The name of file `number`: the pattern with `{n}` and `{}` replaced,
    /// byte for byte (a name that is not UTF-8 stays as it is).
    fn name(&self, number: u64) -> PathBuf {
        let digits = number.to_string();
        let mut name = self.pattern.as_os_str().as_bytes().to_vec();
        for hole in [&b"{n}"[..], b"{}"] {
            while let Some(at) = find(&name, hole) {
                name.splice(at..at + hole.len(), digits.bytes());
            }
        }
        PathBuf::from(OsString::from_vec(name))
    }

    /// The file the next game goes to (a new one after every `size` games).
    ///
    /// # Errors
    /// When the full file cannot be written out or the next one created.
    pub fn next_game(&mut self) -> anyhow::Result<&mut dyn Write> {
        if self.file.is_none() || self.games >= self.size {
            if let Some(full) = self.file.take() {
                self.written.push(full.close()?);
            }
            self.number += 1;
            self.games = 0;
            self.file = Some(OutputFile::create(&self.name(self.number))?);
        }
        self.games += 1;
        match self.file.as_mut() {
            Some(f) => Ok(f),
            None => anyhow::bail!("no output file"),
        }
    }

    /// Puts every file in place.
    ///
    /// # Errors
    /// When the last cannot be written out or one cannot be renamed.
    pub fn commit(mut self) -> anyhow::Result<()> {
        if let Some(last) = self.file.take() {
            self.written.push(last.close()?);
        }
        for part in self.written {
            part.commit()?;
        }
        Ok(())
    }
}

/// Where `needle` first is in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// How many files are in `dir`, and how many of them are temporary.
    fn files(dir: &Path) -> (usize, usize) {
        let names: Vec<_> = fs::read_dir(dir).expect("dir").flatten().collect();
        let hidden = names
            .iter()
            .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
            .count();
        (names.len(), hidden)
    }

    #[test]
    fn parts_are_put_in_place_at_the_end_or_not_at_all() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = dir.path().join("out-1.pgn");
        fs::write(&old, "an earlier run's part").expect("write");
        let write = |parts: &mut Parts, games: usize| {
            for _ in 0..games {
                parts
                    .next_game()
                    .expect("part")
                    .write_all(b"1. e4 *\n")
                    .expect("write");
            }
        };
        // A run that fails after three parts: nothing replaced, nothing left.
        let mut parts = Parts::new(&dir.path().join("out-{n}.pgn"), 1).expect("pattern");
        write(&mut parts, 3);
        drop(parts);
        assert_eq!(files(dir.path()), (1, 0));
        assert_eq!(fs::read(&old).expect("read"), b"an earlier run's part");
        // One that succeeds: every part at once.
        let mut parts = Parts::new(&dir.path().join("out-{n}.pgn"), 2).expect("pattern");
        write(&mut parts, 5);
        assert_eq!(files(dir.path()), (4, 3), "three parts, none in place");
        parts.commit().expect("commit");
        assert_eq!(files(dir.path()), (3, 0));
        assert!(dir.path().join("out-3.pgn").exists());
        assert_eq!(fs::read(&old).expect("read"), b"1. e4 *\n1. e4 *\n");
    }

    #[test]
    fn a_part_name_that_is_not_utf8_keeps_its_bytes() {
        let pattern = PathBuf::from(OsString::from_vec(b"caf\xe9-{n}.pgn".to_vec()));
        let parts = Parts::new(&pattern, 1).expect("pattern");
        assert_eq!(parts.name(12).as_os_str().as_bytes(), b"caf\xe9-12.pgn");
        assert!(Parts::new(Path::new("out.pgn"), 1).is_err());
    }

    #[test]
    fn a_write_error_names_the_output() {
        let mut out = OutputFile::create(Path::new("/dev/full")).expect("create");
        let e = out
            .write_all(&[b'x'; 1 << 17])
            .and_then(|()| out.flush())
            .expect_err("full");
        let e = anyhow::Error::from(e);
        assert!(is_output_error(&e), "{e:#}");
        assert_eq!(
            format!("{e:#}"),
            "cannot write `/dev/full`: No space left on device (os error 28)"
        );
        assert!(!is_output_error(&anyhow::anyhow!("cannot read `g.pgn`")));
    }
}
