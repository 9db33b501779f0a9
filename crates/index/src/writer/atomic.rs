//! Files written whole or not at all: a temporary file beside the target,
//! renamed into place once complete, removed on an error or an interrupt.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files [`write_atomically`] is writing now, for
/// [`remove_temporary_files`].
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files that [`write_atomically`] is writing now (a
/// half-written index): for a Ctrl-C or SIGTERM handler, just before the
/// process exits. The spill files of a [`Builder`](super::Builder) need nothing: they are
/// anonymous files that the operating system reclaims.
pub fn remove_temporary_files() {
    for path in temporaries().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Writes `path` through `write`, atomically: the bytes go to a new
/// temporary file in the same directory (`.NAME.PID.N.tmp`, created like any
/// new file, so with the usual permissions), which is synced and renamed to
/// `path` only when `write` succeeds. On any error the temporary file is
/// removed and `path` is left as it was; while it is written,
/// [`remove_temporary_files`] removes it.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut std::fs::File) -> io::Result<()>,
{
    let mut temporary = Temporary::beside(path)?;
    write(&mut temporary.file)?;
    temporary.persist()
}

/// A new file beside `target` (`.NAME.PID.N.tmp`) that becomes `target`
/// when it is persisted ([`Temporary::persist`]), and is removed when it is
/// dropped before, or by [`remove_temporary_files`] on an interrupt.
pub(super) struct Temporary {
    pub(super) file: std::fs::File,
    path: PathBuf,
    pub(super) target: PathBuf,
    /// Renamed to `target`.
    persisted: bool,
}

impl Temporary {
    /// Creates it.
    pub(super) fn beside(target: &Path) -> io::Result<Temporary> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            // Registered before it exists: an interrupt never misses it.
            temporaries().push(path.clone());
            match std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    return Ok(Temporary {
                        file,
                        path,
                        target: target.to_path_buf(),
                        persisted: false,
                    });
                }
                Err(e) => {
                    temporaries().retain(|p| p != &path);
                    if e.kind() != io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Syncs it and renames it to its target.
    pub(super) fn persist(mut self) -> io::Result<()> {
        self.file.sync_all()?;
        // Renamed under the lock, and only if an interrupt did not remove
        // it first: an interrupt either removes the temporary file before
        // the rename, or finds the index complete, never a rename in
        // between.
        let temporaries = temporaries();
        if !temporaries.contains(&self.path) {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted: the index was not written",
            ));
        }
        std::fs::rename(&self.path, &self.target)?;
        drop(temporaries);
        self.persisted = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
        temporaries().retain(|p| p != &self.path);
    }
}

/// The temporary files being written, locked.
fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn.pgnkit-index");
        std::fs::write(&path, b"old index").unwrap();
        let err = write_atomically(&path, |f| {
            f.write_all(b"half a new ind")?;
            Err(io::Error::other("disk full"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old index");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "left behind: {names:?}");

        write_atomically(&path, |f| f.write_all(b"new index")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new index");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
