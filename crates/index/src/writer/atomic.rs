//! Files written whole or not at all: a temporary file beside the target
//! ([`pgnkit_atomic::Temporary`]), renamed into place once complete,
//! removed on an error or an interrupt.

use std::io;
use std::path::Path;

use pgnkit_atomic::Temporary;

/// Removes the temporary files that [`write_atomically`] is writing now (a
/// half-written index), and every other temporary file of the process
/// ([`pgnkit_atomic::remove_temporaries`], which an interrupt runs): for
/// a process about to exit. The spill files of a [`Builder`](super::Builder)
/// need nothing: they are anonymous files that the operating system
/// reclaims.
pub fn remove_temporary_files() {
    pgnkit_atomic::remove_temporaries();
}

/// Writes `path` through `write`, atomically: the bytes go to a new
/// temporary file in the same directory ([`Temporary`], named with the
/// process id, created like any new file, so with the usual permissions),
/// which is synced and renamed to `path` only when `write` succeeds. On any
/// error the temporary file is removed and `path` is left as it was; an
/// interrupt removes it.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut std::fs::File) -> io::Result<()>,
{
    let mut temporary = Temporary::beside(path, false)?;
    write(temporary.file_mut())?;
    temporary.persist()
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
