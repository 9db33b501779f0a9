//! What tells that a file is still the one that was read: its device and
//! inode (a file renamed over it is another), size and modification time
//! (a file appended to, truncated or rewritten in place).

use std::fs::{File, Metadata};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A file as it was when it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
    /// Its size in bytes.
    pub size: u64,
    mtime: (i64, i64),
}

impl Identity {
    /// That of the metadata of a file.
    pub fn of(meta: &Metadata) -> Identity {
        Identity {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
        }
    }

    /// That of an open file.
    ///
    /// # Errors
    /// When it cannot be asked.
    pub fn of_file(file: &File) -> io::Result<Identity> {
        Ok(Identity::of(&file.metadata()?))
    }

    /// That of the file at `path` now (links followed).
    ///
    /// # Errors
    /// When there is none, or it cannot be asked.
    pub fn of_path(path: &Path) -> io::Result<Identity> {
        Ok(Identity::of(&std::fs::metadata(path)?))
    }

    /// The same file with `size` bytes read of it (a memory map's length).
    pub fn with_size(self, size: u64) -> Identity {
        Identity { size, ..self }
    }

    /// How `now` differs from `self` (the file when it was read), in
    /// words; none when it does not.
    pub fn difference(&self, now: &Identity) -> Option<String> {
        if (self.device, self.inode) != (now.device, now.inode) {
            Some("another file was put in its place".to_owned())
        } else if self.size != now.size {
            Some(format!(
                "its size went from {} to {} bytes",
                self.size, now.size
            ))
        } else if self.mtime != now.mtime {
            Some("it was modified".to_owned())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn an_append_a_truncation_and_a_replacement_are_told() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("g.pgn");
        std::fs::write(&path, "1. e4 *\n").expect("write");
        let read = Identity::of_path(&path).expect("identity");
        assert_eq!(
            read.difference(&Identity::of_path(&path).expect("now")),
            None
        );

        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"1. d4 *\n"))
            .expect("append");
        let now = Identity::of_path(&path).expect("now");
        assert_eq!(
            read.difference(&now).as_deref(),
            Some("its size went from 8 to 16 bytes")
        );

        let other = dir.path().join("other");
        std::fs::write(&other, "1. e4 *\n").expect("write");
        std::fs::rename(&other, &path).expect("rename");
        let now = Identity::of_path(&path).expect("now");
        assert_eq!(
            read.difference(&now).as_deref(),
            Some("another file was put in its place")
        );
    }
}
