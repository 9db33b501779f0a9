//! The lock of a file being rewritten in place: `FILE.pgnkit-lock` beside
//! it, created with `O_EXCL` (as git's `index.lock`) and holding the
//! process id, removed when the rewrite is over (or on an interrupt).
//!
//! A lock whose process died (a SIGKILL, a power cut) is found stale and
//! taken over: the lock file is also `flock`ed while it is held, and the
//! operating system releases that with the process.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, Mode, OFlags};

use crate::Error;
use crate::temporary::registry;

/// A held lock; dropped, it is released (its file removed).
pub struct Lock {
    path: PathBuf,
    /// Held open: the `flock` lasts as long as it.
    _file: File,
}

/// The name of the lock of `path`.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".pgnkit-lock");
    PathBuf::from(name)
}

impl Lock {
    /// Takes the lock of the file `path` (named `target` in messages).
    ///
    /// # Errors
    /// [`Error::Locked`] when another running process holds it;
    /// [`Error::Write`] when the lock file cannot be made.
    pub fn acquire(target: &Path, path: &Path) -> Result<Lock, Error> {
        let lock = lock_path(path);
        let write = |e: io::Error| Error::write(target, e);
        crate::signals::install();
        for _ in 0..100 {
            // Registered before it exists, as a temporary file is.
            {
                let mut registry = registry();
                if registry.interrupted {
                    drop(registry);
                    crate::signals::wait_if_exiting();
                    return Err(Error::Interrupted(target.to_path_buf()));
                }
                registry.paths.push(lock.clone());
            }
            let created = rustix::fs::open(
                &lock,
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o600),
            );
            match created {
                Ok(fd) => {
                    let mut file = File::from(fd);
                    rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive)
                        .map_err(|e| write(e.into()))?;
                    let _ = writeln!(file, "{}", std::process::id());
                    return Ok(Lock {
                        path: lock,
                        _file: file,
                    });
                }
                Err(e) => {
                    registry().paths.retain(|p| p != &lock);
                    if e != rustix::io::Errno::EXIST {
                        return Err(write(e.into()));
                    }
                }
            }
            if let Some(pid) = held(&lock).map_err(write)? {
                return Err(Error::Locked {
                    target: target.to_path_buf(),
                    lock,
                    pid,
                });
            }
        }
        Err(write(io::Error::other(format!(
            "its lock `{}` keeps changing",
            lock.display()
        ))))
    }
}

/// Whether the lock at `lock` is held by a running process (`Some`, with
/// its process id if it says), or was stale and is removed (`None`: try
/// again).
fn held(lock: &Path) -> io::Result<Option<Option<u32>>> {
    let fd = match rustix::fs::open(
        lock,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        // Released meanwhile: try again.
        Err(rustix::io::Errno::NOENT) => return Ok(None),
        // A link planted at the lock's name: not a lock of ours, left alone.
        Err(rustix::io::Errno::LOOP) => {
            return Err(io::Error::other(format!(
                "`{}` is a symbolic link, not a lock",
                lock.display()
            )));
        }
        Err(e) => return Err(e.into()),
    };
    let mut file = File::from(fd);
    if rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
        let mut text = String::new();
        let _ = file.read_to_string(&mut text);
        return Ok(Some(text.trim().parse().ok()));
    }
    // Nobody holds it: its process is gone. Removed if the name is still
    // this very file (not a fresh lock another run made meanwhile).
    let ours = file.metadata()?;
    if let Ok(now) = std::fs::symlink_metadata(lock)
        && (now.dev(), now.ino()) == (ours.dev(), ours.ino())
    {
        std::fs::remove_file(lock)?;
    }
    Ok(None)
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, then closed (released).
        let _ = std::fs::remove_file(&self.path);
        registry().paths.retain(|p| p != &self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_released() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        let first = Lock::acquire(&file, &file).expect("first");
        let e = Lock::acquire(&file, &file).err().expect("refused");
        match e {
            Error::Locked { pid, .. } => assert_eq!(pid, Some(std::process::id())),
            e => panic!("{e}"),
        }
        drop(first);
        assert!(!lock_path(&file).exists());
        Lock::acquire(&file, &file).expect("again");
    }

    #[test]
    fn a_stale_lock_of_a_dead_process_is_taken_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        // What a killed run leaves: the file, no process holding it.
        std::fs::write(lock_path(&file), "4194000\n").expect("write");
        let lock = Lock::acquire(&file, &file).expect("taken over");
        let text = std::fs::read_to_string(lock_path(&file)).expect("read");
        assert_eq!(text.trim(), std::process::id().to_string());
        drop(lock);
    }

    #[test]
    fn a_link_at_the_lock_name_is_not_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").expect("write");
        std::os::unix::fs::symlink(&victim, lock_path(&file)).expect("link");
        assert!(Lock::acquire(&file, &file).is_err());
        assert_eq!(std::fs::read(&victim).expect("read"), b"precious");
    }
}
