//! An input rewritten in place (`check --fix --in-place`), as GNU `sed -i`
//! does it, with what `sed` lacks: the file's lock is taken first
//! ([`Lock`]), the replacement is a [`Replacement`] (owner, group and mode
//! kept), and just before the rename the file is checked to be still the
//! one that was read ([`Identity`]): a game appended meanwhile, a
//! truncation, another program's rewrite keep the file as it is, and the
//! run says so. The old file is kept as `FILE.orig` first ([`backup`]) when
//! asked. A symbolic link is followed: the file it points to is rewritten,
//! its lock and backup beside it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::backup::backup;
use crate::identity::Identity;
use crate::lock::Lock;
use crate::replace::{Resolved, resolve};
use crate::{Error, Replacement};

/// A file being rewritten in place; dropped without
/// [`InPlace::commit`], the file is left as it was.
pub struct InPlace {
    target: PathBuf,
    real: PathBuf,
    read: Identity,
    replacement: Replacement,
    /// Held until the rewrite is over.
    _lock: Lock,
}

impl InPlace {
    /// Starts rewriting `target`, which was read as `read` says.
    ///
    /// # Errors
    /// [`Error::Locked`] when another run rewrites it, [`Error::Changed`]
    /// when it is no longer the file read, and those of [`Replacement`].
    pub fn begin(target: &Path, read: Identity) -> Result<InPlace, Error> {
        let real = match resolve(target)? {
            Resolved::File(real, Some(_)) => real,
            Resolved::File(_, None) => {
                return Err(Error::write(
                    target,
                    io::Error::new(io::ErrorKind::NotFound, "it is gone"),
                ));
            }
            Resolved::Device => {
                return Err(Error::write(
                    target,
                    io::Error::other("it is not a regular file"),
                ));
            }
        };
        let lock = Lock::acquire(target, &real)?;
        // Taken after the file was read: another run may have rewritten it
        // in between.
        unchanged(target, &real, &read)?;
        let owner = std::fs::metadata(&real)
            .map(|m| crate::owner::Owner::of(&m))
            .map_err(|e| Error::write(target, e))?;
        let replacement = Replacement::of_file(target, &real, Some(owner))?;
        Ok(InPlace {
            target: target.to_path_buf(),
            real,
            read,
            replacement,
            _lock: lock,
        })
    }

    /// The file as given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Puts the rewritten file in place, the old one kept as `FILE.orig`
    /// first when `keep` (its path returned), if the file is still the one
    /// that was read.
    ///
    /// # Errors
    /// [`Error::Changed`] when it is not: it is then left as it is; and
    /// those of writing, of the backup and of the rename.
    pub fn commit(self, keep: bool) -> Result<Option<PathBuf>, Error> {
        let written = self.replacement.close()?;
        unchanged(&self.target, &self.real, &self.read)?;
        let orig = if keep {
            Some(backup(&self.target, &self.real, &self.read)?)
        } else {
            None
        };
        written.commit()?;
        Ok(orig)
    }
}

/// Refuses a file that is no longer the one read.
fn unchanged(target: &Path, real: &Path, read: &Identity) -> Result<(), Error> {
    let now = Identity::of_path(real).map_err(|e| Error::write(target, e))?;
    match read.difference(&now) {
        None => Ok(()),
        Some(what) => Err(Error::Changed {
            target: target.to_path_buf(),
            what,
        }),
    }
}

impl Write for InPlace {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.replacement.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.replacement.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backup::backup_path;

    fn rewrite(file: &Path, text: &str, keep: bool) -> Result<Option<PathBuf>, Error> {
        let read = Identity::of_path(file).expect("identity");
        let mut w = InPlace::begin(file, read)?;
        w.write_all(text.as_bytes()).expect("write");
        w.commit(keep)
    }

    #[test]
    fn the_file_is_rewritten_and_the_old_one_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, "old").expect("write");
        let orig = rewrite(&file, "new", true).expect("rewrite");
        assert_eq!(orig, Some(backup_path(&file)));
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        assert_eq!(std::fs::read(backup_path(&file)).expect("read"), b"old");
        // No lock, no temporary file left.
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 2);
    }

    #[test]
    fn a_game_appended_while_the_file_is_read_keeps_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, "1. e4 *\n").expect("write");
        let read = Identity::of_path(&file).expect("identity");
        let mut w = InPlace::begin(&file, read).expect("begin");
        w.write_all(b"1. e4 * fixed\n").expect("write");
        std::fs::write(&file, "1. e4 *\n1. d4 *\n").expect("append");
        let e = w.commit(true).expect_err("refused");
        assert!(matches!(e, Error::Changed { .. }), "{e}");
        assert_eq!(std::fs::read(&file).expect("read"), b"1. e4 *\n1. d4 *\n");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[test]
    fn a_second_rewrite_at_once_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, "old").expect("write");
        let read = Identity::of_path(&file).expect("identity");
        let first = InPlace::begin(&file, read).expect("first");
        let e = InPlace::begin(&file, read).err().expect("refused");
        assert!(matches!(e, Error::Locked { .. }), "{e}");
        drop(first);
        assert_eq!(std::fs::read(&file).expect("read"), b"old");
    }

    #[test]
    fn a_link_is_followed_with_the_lock_and_backup_beside_its_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.pgn");
        let link = dir.path().join("link.pgn");
        std::fs::write(&real, "old").expect("write");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let orig = rewrite(&link, "new", true).expect("rewrite");
        let canonical = std::fs::canonicalize(&real).expect("canonical");
        assert_eq!(orig, Some(backup_path(&canonical)));
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&link).expect("read"), b"new");
        assert_eq!(std::fs::read(backup_path(&real)).expect("read"), b"old");
    }
}
