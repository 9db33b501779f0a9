//! The owner, group and mode of a file that is replaced, given to its
//! replacement, as GNU `sed -i` does: the owner and group where the
//! runner may set them (root always; anyone else the group, if they are in
//! it), then the mode. When the group cannot be kept, the set-user-id and
//! set-group-id bits are dropped rather than given to the runner's file.

use std::fs::{File, Metadata};
use std::io;
use std::os::unix::fs::MetadataExt;

use rustix::fs::{Gid, Mode, Uid};

/// What is kept of a file that is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    uid: u32,
    gid: u32,
    mode: u32,
}

impl Owner {
    /// Those of `meta`.
    pub(crate) fn of(meta: &Metadata) -> Owner {
        Owner {
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.mode() & 0o7777,
        }
    }

    /// Gives them to `file` (best effort for the owner and group).
    ///
    /// # Errors
    /// When the mode cannot be set.
    pub(crate) fn give(&self, file: &File) -> io::Result<()> {
        let uid = Uid::from_raw(self.uid);
        let gid = Gid::from_raw(self.gid);
        let meta = file.metadata()?;
        let mut mode = self.mode;
        if meta.uid() != self.uid || meta.gid() != self.gid {
            let both = rustix::fs::fchown(file, Some(uid), Some(gid));
            if both.is_err() {
                let group = rustix::fs::fchown(file, None, Some(gid));
                if group.is_err() {
                    mode &= 0o1777;
                }
                mode &= !0o4000;
            }
        }
        rustix::fs::fchmod(file, Mode::from_raw_mode(mode))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_is_given() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&a, "a").expect("write");
        std::fs::write(&b, "b").expect("write");
        std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let owner = Owner::of(&std::fs::metadata(&a).expect("meta"));
        owner.give(&File::open(&b).expect("open")).expect("give");
        let meta = std::fs::metadata(&b).expect("meta");
        assert_eq!(meta.mode() & 0o7777, 0o640);
        assert_eq!(Owner::of(&meta), owner);
    }

    #[test]
    fn root_gives_another_users_file_back_to_them() {
        if !rustix::process::geteuid().is_root() {
            return; // only root can give a file away
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let theirs = dir.path().join("theirs");
        let ours = dir.path().join("ours");
        std::fs::write(&theirs, "a").expect("write");
        std::fs::write(&ours, "b").expect("write");
        std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).expect("chown");
        let owner = Owner::of(&std::fs::metadata(&theirs).expect("meta"));
        owner.give(&File::open(&ours).expect("open")).expect("give");
        let meta = std::fs::metadata(&ours).expect("meta");
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    }
}
