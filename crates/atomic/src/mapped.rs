//! Memory-mapped inputs that say so when another program truncates them.
//!
//! pgnkit maps the files it reads (the fastest way to read them, and what
//! lets `--shard` and indexed searches reach any byte). A mapped file that
//! another program truncates while it is read makes the next read of the
//! lost pages raise SIGBUS, which kills a program without a word (the
//! caveat ripgrep documents). Each [`Mapped`] file is registered with its
//! address range and a message; [`crate::signals`] catches the SIGBUS,
//! finds the file the address is in and says `FILE was truncated while it
//! was read` before the run ends with status 2 (its temporary files
//! removed). The registry is a fixed table of atomics, the only thing a
//! signal handler may read.

use std::fs::File;
use std::io;
use std::ops::Deref;

use memmap2::Mmap;

use crate::regions;

/// A file mapped read-only into memory, its bytes as a slice.
pub struct Mapped {
    map: Mmap,
    /// Its slot in the table, if one was free (else a truncation is
    /// reported without the file's name).
    slot: Option<usize>,
    /// What is said if it is truncated (its address is in the table).
    message: Box<[u8]>,
}

impl Mapped {
    /// Maps `file`, named `name` in a truncation's message.
    ///
    /// # Errors
    /// When the file cannot be mapped.
    pub fn new(file: &File, name: &str) -> io::Result<Mapped> {
        crate::signals::install();
        let map = map(file)?;
        let message = format!("pgnkit: error: `{name}` was truncated while it was read\n")
            .into_bytes()
            .into_boxed_slice();
        let mut mapped = Mapped {
            map,
            slot: None,
            message,
        };
        mapped.slot = regions::register(&mapped.map, &mapped.message);
        Ok(mapped)
    }

    /// The map itself (for advice to the kernel).
    pub fn map(&self) -> &Mmap {
        &self.map
    }
}

/// Opens `path` for reading if it is a regular file (an error of kind
/// `InvalidInput` if it is not), without waiting: a named pipe would block
/// an ordinary open until a writer came.
///
/// # Errors
/// When it cannot be opened, or is not a regular file.
pub fn open_regular(path: &std::path::Path) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file",
        ));
    }
    Ok(file)
}

/// Maps `file` read-only.
#[allow(unsafe_code)]
fn map(file: &File) -> io::Result<Mmap> {
    // SAFETY: a read-only, private map. Another process that truncates the
    // file while it is mapped makes a read of the lost pages raise SIGBUS,
    // which `crate::signals` turns into an error naming the file; pgnkit
    // itself replaces files by renaming new ones over them, which leaves a
    // map of the old one intact.
    unsafe { Mmap::map(file) }
}

impl Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        if let Some(i) = self.slot
            && regions::unregister(i)
        {
            // A handler that may have read the message before it was
            // unpublished: the message stays (the process ends anyway).
            std::mem::forget(std::mem::take(&mut self.message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_pipe_is_refused_without_waiting() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("g.pgn.pgnkit-index");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let e = open_regular(&fifo).expect_err("refused");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        std::fs::write(dir.path().join("g.pgn"), "1. e4 *").expect("write");
        assert!(open_regular(&dir.path().join("g.pgn")).is_ok());
    }

    #[test]
    fn a_mapping_is_found_by_any_of_its_addresses_while_it_lives() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("g.pgn");
        std::fs::write(&path, vec![b'x'; 10_000]).expect("write");
        let file = File::open(&path).expect("open");
        let mapped = Mapped::new(&file, "g.pgn").expect("map");
        let start = mapped.as_ptr() as usize;
        let (text, len) = regions::message_at(start + 9_999).expect("found");
        assert_eq!(len, mapped.message.len());
        assert_eq!(text, mapped.message.as_ptr());
        assert_eq!(
            &*mapped.message,
            b"pgnkit: error: `g.pgn` was truncated while it was read\n"
        );
        assert!(regions::message_at(start + 10_000 + 4096).is_none_or(|(t, _)| t != text));
        drop(mapped);
        assert!(regions::message_at(start).is_none_or(|(t, _)| t != text));
        regions::handled();
    }

    #[test]
    fn a_truncation_while_mapped_is_reported_by_name_with_status_2() {
        if std::env::var_os("PGNKIT_ATOMIC_SIGBUS_CHILD").is_none() {
            let me = std::env::current_exe().expect("exe");
            let out = std::process::Command::new(me)
                .args([
                    "--exact",
                    "mapped::tests::a_truncation_while_mapped_is_reported_by_name_with_status_2",
                    "--nocapture",
                ])
                .env("PGNKIT_ATOMIC_SIGBUS_CHILD", "1")
                .output()
                .expect("child");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(
                stderr.contains("pgnkit: error: `big.pgn` was truncated while it was read"),
                "{stderr}"
            );
            return;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("big.pgn");
        std::fs::write(&path, vec![b'x'; 1 << 20]).expect("write");
        let file = File::open(&path).expect("open");
        let mapped = Mapped::new(&file, "big.pgn").expect("map");
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_len(0))
            .expect("truncate");
        let sum: u64 = mapped.iter().map(|&b| u64::from(b)).sum();
        unreachable!("read {sum} from a truncated file");
    }
}
