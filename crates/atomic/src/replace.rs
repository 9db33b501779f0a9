//! A file written whole or not at all: a [`Temporary`] file beside the
//! target, renamed over it by [`Replacement::commit`].
//!
//! What the target is decides how:
//! - none yet, or a regular file: a temporary file beside it, given the
//!   old file's owner, group and mode (a new file gets `0666` less the
//!   umask, as a shell's `>` gives it). A regular file the runner could not
//!   write itself (read-only) is refused, as `>` refuses it; root may
//!   replace it, and its mode is kept.
//! - a symbolic link: followed, as `sed -i --follow-symlinks` does. The
//!   file it points to is replaced (in its own directory) and the link
//!   stays a link to it. A link to nothing is refused.
//! - a directory: refused.
//! - a device or a named pipe (`/dev/null`, `/dev/stdout`, a FIFO): it
//!   cannot be replaced and must not be: it is opened and written in place.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rustix::fs::{Access, AtFlags, CWD};

use crate::Error;
use crate::owner::Owner;
use crate::temporary::Temporary;

/// A file being written in place of another: a temporary beside it, synced
/// and renamed over it on success.
/// Dropping it without [`Replacement::commit`] leaves the target as it was
/// and removes the temporary file.
pub struct Replacement {
    /// The target as given, for messages.
    target: PathBuf,
    inner: Inner,
}

enum Inner {
    /// A temporary file to be renamed over the target.
    Temporary(Temporary),
    /// A device or pipe, written in place.
    Device(File),
}

/// Where a target resolves to.
pub(crate) enum Resolved {
    /// A file to replace (none there yet, or a regular one: its owner).
    File(PathBuf, Option<Owner>),
    /// A device or pipe.
    Device,
}

/// Where `target` resolves to: a link followed to its file, a regular file
/// checked writable, a directory refused.
///
/// # Errors
/// A directory, a dangling link, a read-only file.
pub(crate) fn resolve(target: &Path) -> Result<Resolved, Error> {
    let write = |e| Error::write(target, e);
    let meta = match std::fs::symlink_metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Resolved::File(target.to_path_buf(), None));
        }
        Err(e) => return Err(write(e)),
    };
    let (real, meta) = if meta.file_type().is_symlink() {
        match std::fs::canonicalize(target) {
            Ok(real) => {
                let meta = std::fs::metadata(&real).map_err(write)?;
                (real, meta)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(Error::Dangling {
                    target: target.to_path_buf(),
                    link: std::fs::read_link(target).map_err(write)?,
                });
            }
            Err(e) => return Err(write(e)),
        }
    } else {
        (target.to_path_buf(), meta)
    };
    if meta.is_dir() {
        return Err(Error::Directory(target.to_path_buf()));
    }
    if !meta.is_file() {
        return Ok(Resolved::Device);
    }
    if rustix::fs::accessat(CWD, &real, Access::WRITE_OK, AtFlags::EACCESS).is_err() {
        return Err(Error::ReadOnly(target.to_path_buf()));
    }
    Ok(Resolved::File(real, Some(Owner::of(&meta))))
}

impl Replacement {
    /// Starts writing a replacement of `target`.
    ///
    /// # Errors
    /// A directory, a dangling link or a read-only file as the target, a
    /// directory that cannot hold a new file, a device that cannot be
    /// opened.
    pub fn create(target: &Path) -> Result<Replacement, Error> {
        let inner = match resolve(target)? {
            Resolved::Device => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(target)
                    .map_err(|e| Error::write(target, e))?;
                Inner::Device(file)
            }
            Resolved::File(real, owner) => Inner::Temporary(temporary_for(target, &real, owner)?),
        };
        Ok(Replacement {
            target: target.to_path_buf(),
            inner,
        })
    }

    /// Starts writing a replacement of the regular file `real` (already
    /// resolved), named `target` in messages.
    pub(crate) fn of_file(
        target: &Path,
        real: &Path,
        owner: Option<Owner>,
    ) -> Result<Replacement, Error> {
        Ok(Replacement {
            target: target.to_path_buf(),
            inner: Inner::Temporary(temporary_for(target, real, owner)?),
        })
    }

    /// The target as given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The error of writing it.
    fn error(&self, e: io::Error) -> io::Error {
        if crate::output_error(&e).is_some() {
            return e;
        }
        Error::write(&self.target, e).into_io()
    }

    /// Syncs the file and closes it, to be put in place later
    /// ([`Written::commit`]): for many files put in place at the end of a
    /// run, without holding them all open.
    ///
    /// # Errors
    /// When the data cannot be written out.
    pub fn close(self) -> Result<Written, Error> {
        match self.inner {
            Inner::Device(mut file) => {
                file.flush().map_err(|e| Error::write(&self.target, e))?;
                Ok(Written {
                    target: self.target,
                    temporary: None,
                })
            }
            Inner::Temporary(mut t) => {
                t.close().map_err(|e| Error::write(&self.target, e))?;
                Ok(Written {
                    target: self.target,
                    temporary: Some(t),
                })
            }
        }
    }

    /// Syncs the file and puts it in place (a rename over the target).
    ///
    /// # Errors
    /// When it cannot be written out or renamed, or the process is being
    /// interrupted: the target is then untouched and the temporary file
    /// removed.
    pub fn commit(self) -> Result<(), Error> {
        self.close()?.commit()
    }
}

/// A temporary file for the regular file `real` (named `target` in
/// messages), with the owner, group and mode of the file it replaces.
fn temporary_for(target: &Path, real: &Path, owner: Option<Owner>) -> Result<Temporary, Error> {
    let write = |e| Error::write(target, e);
    let temporary = Temporary::beside(real, owner.is_some()).map_err(write)?;
    if let Some(owner) = owner {
        owner.give(temporary.file()).map_err(write)?;
    }
    Ok(temporary)
}

impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = match &mut self.inner {
            Inner::Temporary(t) => t.file_mut().write(buf),
            Inner::Device(f) => f.write(buf),
        };
        result.map_err(|e| self.error(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = match &mut self.inner {
            Inner::Temporary(t) => t.file_mut().flush(),
            Inner::Device(f) => f.flush(),
        };
        result.map_err(|e| self.error(e))
    }
}

/// A replacement written and closed, waiting to be put in place; dropped,
/// its temporary file is removed.
pub struct Written {
    target: PathBuf,
    /// None for a device, written in place already.
    temporary: Option<Temporary>,
}

impl Written {
    /// The target as given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames it over its target.
    ///
    /// # Errors
    /// When the rename fails or the process is being interrupted.
    pub fn commit(self) -> Result<(), Error> {
        match self.temporary {
            None => Ok(()),
            Some(t) => t.persist().map_err(|e| {
                if e.kind() == io::ErrorKind::Interrupted {
                    Error::Interrupted(self.target.clone())
                } else {
                    Error::write(&self.target, e)
                }
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn entries(dir: &Path) -> usize {
        std::fs::read_dir(dir).expect("dir").count()
    }

    #[test]
    fn a_regular_file_is_replaced_only_on_commit_and_a_drop_leaves_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        std::fs::write(&target, b"old").expect("write");
        let mut out = Replacement::create(&target).expect("create");
        out.write_all(b"half").expect("write");
        drop(out);
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        assert_eq!(entries(dir.path()), 1);
        let mut out = Replacement::create(&target).expect("create");
        out.write_all(b"new").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        out.commit().expect("commit");
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
        assert_eq!(entries(dir.path()), 1);
    }

    #[test]
    fn the_mode_of_the_old_file_is_kept_and_a_new_file_gets_the_usual_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        std::fs::write(&target, b"old").expect("write");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        Replacement::create(&target)
            .expect("create")
            .commit()
            .expect("commit");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").mode() & 0o777;
        assert_eq!(mode(&target), 0o640);
        let new = dir.path().join("new.pgn");
        Replacement::create(&new)
            .expect("create")
            .commit()
            .expect("commit");
        let umask = {
            // What the process creates a file with, for comparison.
            let probe = dir.path().join("probe");
            File::create(&probe).expect("probe");
            mode(&probe)
        };
        assert_eq!(mode(&new), umask);
    }

    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.pgn");
        let link = dir.path().join("link.pgn");
        std::fs::write(&real, b"old").expect("write");
        std::os::unix::fs::symlink("real.pgn", &link).expect("link");
        let mut out = Replacement::create(&link).expect("create");
        out.write_all(b"new").expect("write");
        out.commit().expect("commit");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).expect("read"), b"new");
    }

    #[test]
    fn a_dangling_link_a_directory_and_a_read_only_file_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink("nowhere.pgn", &link).expect("link");
        let e = Replacement::create(&link).err().expect("refused");
        assert!(matches!(e, Error::Dangling { .. }), "{e}");
        let e = Replacement::create(dir.path()).err().expect("refused");
        assert!(matches!(e, Error::Directory(_)), "{e}");
        if !rustix::process::geteuid().is_root() {
            let ro = dir.path().join("ro.pgn");
            std::fs::write(&ro, b"old").expect("write");
            std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).expect("chmod");
            let e = Replacement::create(&ro).err().expect("refused");
            assert!(matches!(e, Error::ReadOnly(_)), "{e}");
        }
    }

    #[test]
    fn a_pipe_is_written_in_place_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe");
        rustix::fs::mknodat(
            CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
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
        let mut out = Replacement::create(&fifo).expect("create");
        out.write_all(b"through the pipe").expect("write");
        out.commit().expect("commit");
        assert_eq!(reader.join().expect("reader"), b"through the pipe");
        assert!(
            std::fs::metadata(&fifo)
                .expect("meta")
                .file_type()
                .is_fifo()
        );
    }

    #[test]
    fn a_full_device_names_the_output() {
        let mut out = Replacement::create(Path::new("/dev/full")).expect("create");
        let e = out.write_all(&[b'x'; 1 << 16]).expect_err("full");
        assert!(crate::output_error(&e).is_some(), "{e}");
        assert_eq!(e.to_string(), "cannot write `/dev/full`");
    }

    #[test]
    fn closed_files_wait_for_their_commit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let targets: Vec<PathBuf> = (1..=3).map(|n| dir.path().join(format!("p{n}"))).collect();
        let mut written = Vec::new();
        for t in &targets {
            let mut out = Replacement::create(t).expect("create");
            out.write_all(b"part").expect("write");
            written.push(out.close().expect("close"));
        }
        assert!(targets.iter().all(|t| !t.exists()));
        drop(written.pop());
        for w in written {
            w.commit().expect("commit");
        }
        assert!(targets[0].exists() && targets[1].exists() && !targets[2].exists());
        assert_eq!(entries(dir.path()), 2);
    }
}
