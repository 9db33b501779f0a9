//! Output files written whole or not at all.
//!
//! `convert -o`, `check --fix -o` and `diff --fix` write to a temporary file
//! beside the target and rename it over the target at the end, so a failed
//! or interrupted run never leaves half a file in place of a good one. An
//! existing target's permissions are kept.
//!
//! A target that exists and is not a regular file (`/dev/null`, a named
//! pipe, `/dev/stdout`) cannot be replaced by a rename, and must not be: it
//! is opened and written in place.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// A file being written; [`OutputFile::commit`] puts it in place.
///
/// Dropping it without committing removes the temporary file and leaves
/// the target untouched.
pub struct OutputFile {
    inner: Inner,
    path: PathBuf,
}

enum Inner {
    /// A temporary file beside the target, renamed over it at the end.
    Temporary(BufWriter<tempfile::NamedTempFile>),
    /// A device or pipe, written in place.
    InPlace(BufWriter<File>),
}

impl OutputFile {
    /// Starts writing `path`.
    ///
    /// # Errors
    /// When `path` is a directory, or its folder cannot hold a new file, or
    /// a device cannot be opened.
    pub fn create(path: &Path) -> anyhow::Result<OutputFile> {
        let existing = fs::metadata(path).ok();
        if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
            anyhow::bail!("cannot write {}: it is a directory", path.display());
        }
        let inner = match existing {
            Some(meta) if !meta.is_file() => {
                let file = fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Inner::InPlace(BufWriter::with_capacity(1 << 16, file))
            }
            _ => {
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let file = tempfile::Builder::new()
                    .prefix(".pgnkit-")
                    .suffix(".tmp")
                    .tempfile_in(&dir)
                    .with_context(|| format!("cannot create a file in {}", dir.display()))?;
                if let Some(meta) = existing {
                    // Keep the target's permissions (a temporary file is 0600).
                    // Best effort: a failure leaves the file readable by its owner.
                    let _ = file.as_file().set_permissions(meta.permissions());
                } else {
                    set_default_permissions(file.as_file());
                }
                Inner::Temporary(BufWriter::with_capacity(1 << 16, file))
            }
        };
        Ok(OutputFile {
            inner,
            path: path.to_path_buf(),
        })
    }

    /// The target's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes and puts the file in place (a rename for a regular file).
    ///
    /// # Errors
    /// When the data cannot be written or the rename fails; the target is
    /// then untouched.
    pub fn commit(self) -> anyhow::Result<()> {
        let path = self.path;
        let fail =
            |e: &dyn std::fmt::Display| anyhow::anyhow!("cannot write {}: {e}", path.display());
        match self.inner {
            Inner::InPlace(mut w) => w.flush().map_err(|e| fail(&e)),
            Inner::Temporary(w) => {
                let file = w.into_inner().map_err(|e| fail(e.error()))?;
                file.as_file().sync_all().map_err(|e| fail(&e))?;
                file.persist(&path).map_err(|e| fail(&e.error))?;
                Ok(())
            }
        }
    }
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

#[cfg(unix)]
fn set_default_permissions(file: &File) {
    use std::os::unix::fs::PermissionsExt;
    // What a shell redirection gives under the usual umask 022.
    let _ = file.set_permissions(fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_default_permissions(_: &File) {}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Temporary(w) => w.write(buf),
            Inner::InPlace(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.inner {
            Inner::Temporary(w) => w.write_all(buf),
            Inner::InPlace(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Temporary(w) => w.flush(),
            Inner::InPlace(w) => w.flush(),
        }
    }
}

/// Where `convert` writes.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<io::StdoutLock<'static>>),
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
            None => Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout().lock(),
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
pub struct Parts {
    pattern: PathBuf,
    size: u64,
    /// Games written to the current file.
    games: u64,
    /// The number of the current file.
    number: u64,
    file: Option<OutputFile>,
}

impl Parts {
    /// Files of `size` games named from `pattern`, whose `{n}` (or `{}`) becomes the
    /// file's number.
    ///
    /// # Errors
    /// When the pattern has neither.
    pub fn new(pattern: &Path, size: u64) -> anyhow::Result<Parts> {
        let name = pattern.to_string_lossy();
        if !name.contains("{n}") && !name.contains("{}") {
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
        })
    }

    /// The file the next game goes to (a new one after every `size` games).
    ///
    /// # Errors
    /// When the full file cannot be put in place or the next one created.
    pub fn next_game(&mut self) -> anyhow::Result<&mut dyn Write> {
        if self.file.is_none() || self.games >= self.size {
            if let Some(full) = self.file.take() {
                full.commit()?;
            }
            self.number += 1;
            self.games = 0;
            let name = self
                .pattern
                .to_string_lossy()
                .replace("{n}", &self.number.to_string())
                .replace("{}", &self.number.to_string());
            self.file = Some(OutputFile::create(Path::new(&name))?);
        }
        self.games += 1;
        match self.file.as_mut() {
            Some(f) => Ok(f),
            None => anyhow::bail!("no output file"),
        }
    }

    /// Puts the last file in place.
    ///
    /// # Errors
    /// When it cannot be.
    pub fn commit(self) -> anyhow::Result<()> {
        match self.file {
            Some(f) => f.commit(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_replaced_only_on_commit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        fs::write(&target, b"old").expect("write");
        let mut out = OutputFile::create(&target).expect("create");
        out.write_all(b"new").expect("write");
        assert_eq!(fs::read(&target).expect("read"), b"old");
        out.commit().expect("commit");
        assert_eq!(fs::read(&target).expect("read"), b"new");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[test]
    fn dropping_leaves_the_target_untouched() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        fs::write(&target, b"old").expect("write");
        let mut out = OutputFile::create(&target).expect("create");
        out.write_all(b"half").expect("write");
        drop(out);
        assert_eq!(fs::read(&target).expect("read"), b"old");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                File::open(&fifo)
                    .and_then(|mut f| f.read_to_end(&mut got))
                    .expect("read the pipe");
                got
            })
        };
        let mut out = OutputFile::create(&fifo).expect("create");
        out.write_all(b"through the pipe").expect("write");
        out.commit().expect("commit");
        assert_eq!(reader.join().expect("reader"), b"through the pipe");
        let meta = fs::metadata(&fifo).expect("metadata");
        assert!(meta.file_type().is_fifo(), "the pipe was replaced");
    }

    #[cfg(unix)]
    #[test]
    fn permissions_of_an_existing_file_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        fs::write(&target, b"old").expect("write");
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).expect("chmod");
        let out = OutputFile::create(&target).expect("create");
        out.commit().expect("commit");
        let mode = fs::metadata(&target)
            .expect("metadata")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = OutputFile::create(dir.path()).err().expect("refused");
        assert!(err.to_string().contains("directory"), "{err}");
    }
}
