//! `pgnkit-atomic`: how pgnkit writes files, and reads them, without losing
//! anything.
//!
//! Every file pgnkit writes (an output, an input rewritten in place, a
//! backup, an index, a baseline, a report, the parts of `--split`) goes
//! through one [`Replacement`]: a temporary file beside the target, created
//! with `O_EXCL` (so never through a symbolic link planted at its name),
//! written, synced, given the old file's owner, group and mode, and renamed
//! over the target only when the run succeeded. Until then the old file is
//! untouched; a run that fails, or is dropped, removes its temporary file.
//!
//! Around it:
//! - [`InPlace`] rewrites an input: a lock file `FILE.pgnkit-lock` (created
//!   with `O_EXCL`, as git's `index.lock`) keeps two runs apart, the input
//!   is checked unchanged since it was read ([`Identity`]) just before the
//!   rename, and the old file is kept as `FILE.orig` ([`backup`]), itself
//!   renamed into place, never written through a link.
//! - [`signals`]: on SIGINT, SIGTERM or SIGHUP the temporary files of the
//!   run are removed and the process exits with 130, 143 or 129; SIGXFSZ is
//!   ignored, so that a file-size limit is a write error (`EFBIG`) like a
//!   full disk; an input truncated while it is mapped ([`Mapped`]) is
//!   reported by name, with exit status 2, instead of a SIGBUS crash.
//! - Temporary names carry the process id (`.NAME.pgnkit-PID-N.tmp`): the
//!   next run that writes into a directory removes those of processes that
//!   no longer run (after a SIGKILL or a power cut).
//!
//! ```
//! use std::io::Write;
//! use pgnkit_atomic::Replacement;
//!
//! let dir = tempfile::tempdir()?;
//! let target = dir.path().join("games.pgn");
//! std::fs::write(&target, "old")?;
//! let mut out = Replacement::create(&target)?;
//! out.write_all(b"1. e4 e5 *\n")?;
//! assert_eq!(std::fs::read(&target)?, b"old", "untouched until committed");
//! out.commit()?;
//! assert_eq!(std::fs::read(&target)?, b"1. e4 e5 *\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What this promises to a user is told in `docs/files.md`.

mod backup;
mod identity;
mod in_place;
mod lock;
mod mapped;
mod owner;
mod regions;
mod replace;
pub mod signals;
mod temporary;

use std::io;
use std::path::PathBuf;

pub use backup::backup;
pub use identity::Identity;
pub use in_place::InPlace;
pub use lock::Lock;
pub use mapped::{Mapped, open_regular};
pub use replace::{Replacement, Written};
pub use temporary::{Temporary, remove_temporaries};

/// Why a file could not be written (or rewritten in place). Every variant
/// names the file written, not an input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Creating, writing, syncing or renaming the file failed (a full
    /// disk, a file-size limit, no permission in its directory).
    #[error("cannot write `{}`", .target.display())]
    Write {
        /// The file as given.
        target: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write to standard output")]
    Stdout(#[source] io::Error),
    /// The target is a directory.
    #[error("cannot write `{}`: it is a directory", .0.display())]
    Directory(PathBuf),
    /// The target is a file its runner could not write: it is not replaced.
    #[error(
        "cannot write `{}`: it is read-only (`chmod u+w` it to let pgnkit replace it)",
        .0.display()
    )]
    ReadOnly(PathBuf),
    /// The target is a symbolic link to nothing.
    #[error("cannot write `{}`: it is a symbolic link to `{}`, which does not exist", .target.display(), .link.display())]
    Dangling {
        /// The link.
        target: PathBuf,
        /// Where it points.
        link: PathBuf,
    },
    /// Another run holds the lock of the file.
    #[error(
        "`{}` is being rewritten by another pgnkit run{}: it was left alone (`{}` is its lock)",
        .target.display(),
        .pid.map(|p| format!(" (process {p})")).unwrap_or_default(),
        .lock.display()
    )]
    Locked {
        /// The file.
        target: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// The process that holds it, if it says.
        pid: Option<u32>,
    },
    /// The file changed between the time it was read and the rewrite.
    #[error(
        "`{}` changed while it was read ({what}): it was kept as it is; run again to rewrite it",
        .target.display()
    )]
    Changed {
        /// The file.
        target: PathBuf,
        /// What changed.
        what: String,
    },
    /// The old file could not be kept as a backup: it is not replaced.
    #[error("cannot keep `{}` as `{}`", .target.display(), .backup.display())]
    Backup {
        /// The file.
        target: PathBuf,
        /// The backup's name.
        backup: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The process is being interrupted: nothing more is put in place.
    #[error("interrupted: `{}` was not written", .0.display())]
    Interrupted(PathBuf),
}

impl Error {
    /// A write error of `target`.
    pub(crate) fn write(target: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Write {
            target: target.into(),
            source,
        }
    }

    /// This error as an [`io::Error`] of the same kind, for [`io::Write`]
    /// implementations: [`output_error`] finds it again.
    pub fn into_io(self) -> io::Error {
        let kind = match &self {
            Error::Write { source, .. } | Error::Stdout(source) => source.kind(),
            Error::Interrupted(_) => io::ErrorKind::Interrupted,
            _ => io::ErrorKind::Other,
        };
        io::Error::new(kind, self)
    }
}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        e.into_io()
    }
}

/// The [`Error`] in `e`, when `e` is one, or an [`io::Error`] made of one
/// ([`Error::into_io`]): a failure of the output, which ends a run, as
/// opposed to an input that cannot be read, after which a run goes on.
pub fn output_error<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e Error> {
    if let Some(ours) = e.downcast_ref::<Error>() {
        return Some(ours);
    }
    e.downcast_ref::<io::Error>()
        .and_then(io::Error::get_ref)
        .and_then(|inner| inner.downcast_ref::<Error>())
}

/// A writer whose errors are [`Error::Stdout`]: standard output named as
/// the culprit when it cannot be written (a full disk behind `>`).
pub struct Stdout<W>(pub W);

impl<W: io::Write> io::Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(stdout_error)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(stdout_error)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(stdout_error)
    }
}

fn stdout_error(e: io::Error) -> io::Error {
    if output_error(&e).is_some() {
        e
    } else {
        Error::Stdout(e).into_io()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_error_is_found_in_an_io_error_and_its_cause_is_said_once() {
        let e = Error::write(
            "out.pgn",
            io::Error::from_raw_os_error(28), // ENOSPC
        )
        .into_io();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert!(output_error(&e).is_some());
        let mut said = e.to_string();
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            said.push_str(&format!(": {c}"));
            cause = c.source();
        }
        assert_eq!(
            said,
            "cannot write `out.pgn`: No space left on device (os error 28)"
        );
        assert!(output_error(&io::Error::other("input")).is_none());
    }
}
