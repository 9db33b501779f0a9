//! The old file kept as `FILE.orig` before it is replaced: made under a
//! temporary name (a hard link to the old file, or a copy where links
//! cannot be made) and renamed over `FILE.orig`. A rename replaces what is
//! at that name, a symbolic link included, and never writes through it; a
//! backup that fails leaves any previous `FILE.orig` whole.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::identity::Identity;
use crate::owner::Owner;
use crate::temporary::Temporary;
use crate::{Error, Replacement};

/// The name of the backup of `path`.
pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".orig");
    PathBuf::from(name)
}

/// Keeps the regular file `path` (named `target` in messages) as
/// `path.orig`, if it is still the file `read` says; returns the backup's
/// path.
///
/// # Errors
/// [`Error::Changed`] when `path` is no longer that file;
/// [`Error::Backup`] when the backup cannot be made.
pub fn backup(target: &Path, path: &Path, read: &Identity) -> Result<PathBuf, Error> {
    let orig = backup_path(path);
    let fail = |source: io::Error| Error::Backup {
        target: target.to_path_buf(),
        backup: orig.clone(),
        source,
    };
    let mut old = File::open(path).map_err(fail)?;
    let now = Identity::of_file(&old).map_err(fail)?;
    if let Some(what) = read.difference(&now) {
        return Err(Error::Changed {
            target: target.to_path_buf(),
            what,
        });
    }
    // A hard link: nothing copied, the old file itself.
    let linked = Temporary::linked(path, &orig).map_err(fail)?;
    let kept = match linked {
        Some(t) => t,
        None => {
            // Links cannot be made here: a copy, with the old owner and mode.
            let owner = Owner::of(&old.metadata().map_err(fail)?);
            let mut copy = Replacement::of_file(target, &orig, Some(owner))?;
            io::copy(&mut old, &mut copy).map_err(fail)?;
            return copy.commit().map(|()| orig.clone()).map_err(|e| match e {
                Error::Write { source, .. } => fail(source),
                e => e,
            });
        }
    };
    // Still the file read (not one renamed over it since it was opened).
    let linked = Identity::of_file(kept.file()).map_err(fail)?;
    if let Some(what) = read.difference(&linked) {
        return Err(Error::Changed {
            target: target.to_path_buf(),
            what,
        });
    }
    kept.persist().map_err(fail)?;
    Ok(orig)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_file_is_kept_and_a_link_at_the_backup_name_is_replaced_not_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        let victim = dir.path().join("victim");
        std::fs::write(&file, "old games").expect("write");
        std::fs::write(&victim, "precious").expect("write");
        std::os::unix::fs::symlink(&victim, backup_path(&file)).expect("link");
        let read = Identity::of_path(&file).expect("identity");
        let orig = backup(&file, &file, &read).expect("backup");
        assert_eq!(std::fs::read(&victim).expect("read"), b"precious");
        assert!(
            !std::fs::symlink_metadata(&orig)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&orig).expect("read"), b"old games");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 3);
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_backed_up() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, "old games").expect("write");
        let read = Identity::of_path(&file).expect("identity");
        std::fs::write(&file, "old games and a new one").expect("write");
        let e = backup(&file, &file, &read).expect_err("refused");
        assert!(matches!(e, Error::Changed { .. }), "{e}");
        assert!(!backup_path(&file).exists());
    }

    #[test]
    fn a_failed_backup_leaves_the_previous_one_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, "old games").expect("write");
        // A directory at the backup's name: the rename fails.
        std::fs::create_dir(backup_path(&file)).expect("dir");
        std::fs::write(backup_path(&file).join("inside"), "kept").expect("write");
        let read = Identity::of_path(&file).expect("identity");
        let e = backup(&file, &file, &read).expect_err("fails");
        assert!(matches!(e, Error::Backup { .. }), "{e}");
        assert_eq!(
            std::fs::read(backup_path(&file).join("inside")).expect("read"),
            b"kept"
        );
        // No temporary file left.
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 2);
    }
}
