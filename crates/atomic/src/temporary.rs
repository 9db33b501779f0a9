//! Temporary files beside their targets: created with `O_EXCL` (a name
//! that exists, even as a symbolic link, is never opened), named with the
//! process id (`.NAME.pgnkit-PID-N.tmp`), registered while they exist so
//! that an interrupt removes them ([`crate::signals`]), and renamed over
//! their target under the registry's lock, so that an interrupt either
//! removes a temporary file before its rename or finds it renamed, never in
//! between. The first temporary file of a run in a directory removes the
//! ones that processes no longer running left there.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustix::fs::{Mode, OFlags};

/// The temporary files that exist now, and whether the process is being
/// interrupted (then none is renamed any more).
pub(crate) struct Registry {
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) interrupted: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    paths: Vec::new(),
    interrupted: false,
});

/// The registry, locked.
pub(crate) fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes every temporary file that exists now (half-written outputs,
/// lock files): what an interrupt does before the process exits. Nothing
/// is renamed into place after it.
pub fn remove_temporaries() {
    let mut registry = registry();
    registry.interrupted = true;
    for path in registry.paths.drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// The directory `target` is in (`.` for a bare name).
pub(crate) fn directory_of(target: &Path) -> &Path {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Bytes of the target's name kept in a temporary name (a name has at most
/// 255 bytes).
const NAME_KEPT: usize = 200;

/// The name of temporary file `n` of this process for `target`.
fn temporary_name(target: &Path, n: u64) -> PathBuf {
    let name = target.file_name().map(OsStrExt::as_bytes).unwrap_or(b"");
    let mut bytes = b".".to_vec();
    bytes.extend_from_slice(&name[..name.len().min(NAME_KEPT)]);
    bytes.extend_from_slice(format!(".pgnkit-{}-{n}.tmp", std::process::id()).as_bytes());
    directory_of(target).join(OsString::from_vec(bytes))
}

/// The process id in a temporary name of pgnkit's (this version's
/// `.NAME.pgnkit-PID-N.tmp`, or an older index's `.NAME.pgnkit-index.PID.N.tmp`).
fn owner_of(name: &[u8]) -> Option<u32> {
    let stem = name.strip_prefix(b".")?.strip_suffix(b".tmp")?;
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let number = |s: &[u8]| std::str::from_utf8(s).ok()?.parse::<u32>().ok();
    // `….pgnkit-PID-N`
    if let Some(at) = find_last(stem, b".pgnkit-") {
        let rest = &stem[at + b".pgnkit-".len()..];
        if let Some((pid, n)) = split_once(rest, b'-')
            && digits(pid)
            && digits(n)
        {
            return number(pid);
        }
    }
    // `….pgnkit-index.PID.N`
    let (head, n) = rsplit_once(stem, b'.')?;
    let (head, pid) = rsplit_once(head, b'.')?;
    (head.ends_with(b"pgnkit-index") && digits(pid) && digits(n))
        .then(|| number(pid))
        .flatten()
}

fn find_last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn split_once(s: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let at = s.iter().position(|&b| b == sep)?;
    Some((&s[..at], &s[at + 1..]))
}

fn rsplit_once(s: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let at = s.iter().rposition(|&b| b == sep)?;
    Some((&s[..at], &s[at + 1..]))
}

/// Whether process `pid` runs (or cannot be told: then it is taken to).
fn runs(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Removes from `dir` the temporary files of pgnkit processes that no
/// longer run, once per directory and process. Returns how many.
pub(crate) fn sweep(dir: &Path) -> usize {
    static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    {
        let mut swept = SWEPT.lock().unwrap_or_else(PoisonError::into_inner);
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !swept.get_or_insert_with(HashSet::new).insert(key) {
            return 0;
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let own = std::process::id();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = owner_of(name.as_bytes()) else {
            continue;
        };
        // Never a directory, never through a link: the entry itself.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if pid != own && is_file && !runs(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The number of the next temporary file of this process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new, empty file beside a target, removed when dropped unless it was
/// renamed over the target ([`Temporary::persist`]).
pub struct Temporary {
    file: Option<File>,
    path: PathBuf,
    target: PathBuf,
    persisted: bool,
}

impl Temporary {
    /// Creates a temporary file in the directory of `target` (which is not
    /// touched), readable and writable by its owner only when `private`,
    /// else with the permissions a new file gets (`0666` less the umask).
    ///
    /// # Errors
    /// When the directory cannot hold a new file.
    pub fn beside(target: &Path, private: bool) -> io::Result<Temporary> {
        let mode = Mode::from_bits_truncate(if private { 0o600 } else { 0o666 });
        let flags =
            OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Temporary::made(target, |path| match rustix::fs::open(path, flags, mode) {
            Ok(fd) => Ok(Some(File::from(fd))),
            Err(rustix::io::Errno::EXIST) => Ok(None),
            Err(e) => Err(e.into()),
        })
        .map(|made| made.unwrap_or_else(|| unreachable!("a new file is always made")))
    }

    /// A second name for the file `source`, beside `target` (a hard link,
    /// closed), or none where links cannot be made.
    ///
    /// # Errors
    /// When the directory cannot hold a new name.
    pub(crate) fn linked(source: &Path, target: &Path) -> io::Result<Option<Temporary>> {
        let mut unlinkable = false;
        let made = Temporary::made(target, |path| match std::fs::hard_link(source, path) {
            Ok(()) => File::open(path).map(Some),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EPERM | libc::EXDEV | libc::EMLINK | libc::EOPNOTSUPP)
                ) =>
            {
                unlinkable = true;
                Err(e)
            }
            Err(e) => Err(e),
        });
        match made {
            Ok(t) => Ok(t),
            Err(_) if unlinkable => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A temporary file beside `target` that `create` makes at a free name
    /// (none when the name is taken, to try the next).
    fn made(
        target: &Path,
        mut create: impl FnMut(&Path) -> io::Result<Option<File>>,
    ) -> io::Result<Option<Temporary>> {
        crate::signals::install();
        sweep(directory_of(target));
        loop {
            let path = temporary_name(target, COUNTER.fetch_add(1, Ordering::Relaxed));
            // Registered before it exists: an interrupt never misses it.
            {
                let mut registry = registry();
                if registry.interrupted {
                    drop(registry);
                    crate::signals::wait_if_exiting();
                    return Err(io::Error::new(
                        io::ErrorKind::Interrupted,
                        "the process is being interrupted",
                    ));
                }
                registry.paths.push(path.clone());
            }
            let made = create(&path);
            if !matches!(made, Ok(Some(_))) {
                registry().paths.retain(|p| p != &path);
            }
            if let Some(file) = made? {
                return Ok(Some(Temporary {
                    file: Some(file),
                    path,
                    target: target.to_path_buf(),
                    persisted: false,
                }));
            }
        }
    }

    /// The open file.
    pub fn file(&self) -> &File {
        self.file
            .as_ref()
            .unwrap_or_else(|| unreachable!("a closed temporary file is not written"))
    }

    /// The open file, to write.
    pub fn file_mut(&mut self) -> &mut File {
        self.file
            .as_mut()
            .unwrap_or_else(|| unreachable!("a closed temporary file is not written"))
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file it will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Syncs it to the disk and closes it; it stays, to be renamed later.
    ///
    /// # Errors
    /// When the data cannot be written out (a full disk).
    pub(crate) fn close(&mut self) -> io::Result<()> {
        if let Some(file) = self.file.take() {
            file.sync_all()?;
        }
        Ok(())
    }

    /// Syncs it and renames it over its target, then syncs the directory
    /// (so that the rename survives a power cut).
    ///
    /// # Errors
    /// When it cannot be synced or renamed, or the process is being
    /// interrupted: the target is then untouched and the file removed.
    pub fn persist(mut self) -> io::Result<()> {
        self.close()?;
        let mut registry = registry();
        if registry.interrupted
            || crate::signals::received()
            || !registry.paths.contains(&self.path)
        {
            drop(registry);
            crate::signals::wait_if_exiting();
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted: nothing more is put in place",
            ));
        }
        std::fs::rename(&self.path, &self.target)?;
        registry.paths.retain(|p| p != &self.path);
        drop(registry);
        self.persisted = true;
        if let Ok(dir) = File::open(directory_of(&self.target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
        registry().paths.retain(|p| p != &self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_temporary_name_carries_the_process_id_and_is_recognised() {
        let name = temporary_name(Path::new("d/games.pgn"), 7);
        let pid = std::process::id();
        assert_eq!(name, Path::new(&format!("d/.games.pgn.pgnkit-{pid}-7.tmp")));
        let file = name.file_name().expect("name").as_bytes();
        assert_eq!(owner_of(file), Some(pid));
        assert_eq!(owner_of(b".g.pgn.pgnkit-index.123.4.tmp"), Some(123));
        assert_eq!(owner_of(b".g.pgn.pgnkit-12x-4.tmp"), None);
        assert_eq!(owner_of(b"g.pgn.pgnkit-12-4.tmp"), None);
        assert_eq!(owner_of(b".notes.123.4.tmp"), None);
    }

    #[test]
    fn a_long_or_non_utf8_name_is_kept_in_bytes() {
        let long = "x".repeat(300);
        let name = temporary_name(Path::new(&long), 0);
        assert!(name.as_os_str().len() < 255, "{}", name.display());
        let odd = OsString::from_vec(b"caf\xe9.pgn".to_vec());
        let name = temporary_name(Path::new(&odd), 0);
        let name = name.file_name().expect("name").as_bytes();
        assert!(name.starts_with(b".caf\xe9.pgn.pgnkit-"));
    }

    #[test]
    fn a_temporary_file_is_removed_unless_persisted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        let mut t = Temporary::beside(&target, true).expect("create");
        io::Write::write_all(t.file_mut(), b"x").expect("write");
        assert_eq!(names(dir.path()).len(), 1);
        drop(t);
        assert!(names(dir.path()).is_empty());
        let mut t = Temporary::beside(&target, true).expect("create");
        io::Write::write_all(t.file_mut(), b"x").expect("write");
        t.persist().expect("persist");
        assert_eq!(names(dir.path()), ["out.pgn"]);
        assert_eq!(std::fs::read(&target).expect("read"), b"x");
    }

    #[test]
    fn a_link_at_the_temporary_name_is_never_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").expect("write");
        // Links at the next names this process will use.
        let next = COUNTER.load(Ordering::Relaxed);
        for n in next..next + 64 {
            let name = temporary_name(&target, n);
            let _ = std::os::unix::fs::symlink(&victim, name);
        }
        let mut t = Temporary::beside(&target, true).expect("create");
        io::Write::write_all(t.file_mut(), b"new").expect("write");
        t.persist().expect("persist");
        assert_eq!(std::fs::read(&victim).expect("read"), b"precious");
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
    }

    #[test]
    fn the_temporaries_of_a_dead_process_are_swept_and_others_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        // A process that ran and ended: its id is free now.
        let mut child = std::process::Command::new("true").spawn().expect("true");
        let dead = child.id();
        child.wait().expect("wait");
        let stale = format!(".g.pgn.pgnkit-{dead}-0.tmp");
        let old_index = format!(".g.pgn.pgnkit-index.{dead}.3.tmp");
        let live = format!(".g.pgn.pgnkit-{}-0.tmp", std::process::id());
        for name in [&stale, &old_index, &live, &"notes.tmp".to_owned()] {
            std::fs::write(dir.path().join(name), "x").expect("write");
        }
        assert_eq!(sweep(dir.path()), 2);
        assert_eq!(names(dir.path()), [live.clone(), "notes.tmp".to_owned()]);
        // Once per directory and process.
        std::fs::write(dir.path().join(&stale), "x").expect("write");
        assert_eq!(sweep(dir.path()), 0);
    }

    #[test]
    fn after_an_interrupt_nothing_is_created_or_renamed() {
        // Run in a child process: the interrupt is for the whole process.
        if std::env::var_os("PGNKIT_ATOMIC_INTERRUPT_CHILD").is_none() {
            let me = std::env::current_exe().expect("exe");
            let out = std::process::Command::new(me)
                .args([
                    "--exact",
                    "temporary::tests::after_an_interrupt_nothing_is_created_or_renamed",
                    "--nocapture",
                ])
                .env("PGNKIT_ATOMIC_INTERRUPT_CHILD", "1")
                .output()
                .expect("child");
            assert!(out.status.success(), "{out:?}");
            return;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.pgn");
        std::fs::write(&target, "old").expect("write");
        let t = Temporary::beside(&target, true).expect("create");
        remove_temporaries();
        assert_eq!(names(dir.path()), ["out.pgn"]);
        assert!(t.persist().is_err());
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        assert!(Temporary::beside(&target, true).is_err());
    }
}
