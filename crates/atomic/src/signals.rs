//! What pgnkit does with the signals that would otherwise leave files
//! behind or kill it without a word. [`install`] sets it up once per
//! process (the first temporary file or mapped input does it too):
//!
//! - SIGINT, SIGTERM, SIGHUP (Ctrl-C, `kill`, a closed terminal): a thread
//!   of its own removes every temporary file and lock of the run
//!   ([`crate::remove_temporaries`]), after which nothing is renamed into
//!   place, and the process exits with 130, 143 or 129, the status a shell
//!   gives a process killed by them. A signal ignored when pgnkit started
//!   (`nohup`, a background job) stays ignored.
//! - SIGXFSZ (a file-size limit, `ulimit -f`): caught and nothing done, so
//!   that the write that went past the limit fails with `EFBIG` and is
//!   reported like a full disk, the temporary file removed.
//! - SIGBUS on a mapped input ([`crate::Mapped`]) that another program
//!   truncated while pgnkit read it: `FILE was truncated while it was read`
//!   on standard error, the temporary files removed, exit status 2. A
//!   SIGBUS anywhere else keeps its default action.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Once};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};

use crate::regions;

/// The exit status after a signal: 128 and its number.
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// The exit status of a run that read a truncated input.
pub const TRUNCATED_STATUS: i32 = 2;

/// A signal the terminating thread waits for, when it runs (else 0, and a
/// SIGBUS exits on its own).
static WAKE: AtomicI32 = AtomicI32::new(0);
/// A mapped input was truncated: the terminating thread exits with
/// [`TRUNCATED_STATUS`].
static TRUNCATED: AtomicBool = AtomicBool::new(false);

/// The terminating thread is ending the process.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Set by the signal handler itself, in the thread the signal interrupted,
/// as soon as SIGINT, SIGTERM or SIGHUP arrives: the terminating thread
/// may not have run yet, and a file must not be renamed into place
/// meanwhile.
static RECEIVED: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

/// Whether a terminating signal has arrived (the terminating thread is
/// about to end the process, or doing it).
pub(crate) fn received() -> bool {
    EXITING.load(Ordering::SeqCst) || RECEIVED.get().is_some_and(|r| r.load(Ordering::SeqCst))
}

/// Waits for the end of the process if a signal is ending it: a thread
/// that would create or rename a file after the temporary files were
/// removed waits for the exit (with the signal's status) instead of
/// failing with an error of its own.
pub(crate) fn wait_if_exiting() {
    if received() {
        loop {
            std::thread::park();
        }
    }
}

/// Sets up the handling of the module's signals, once per process.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)));
        spawn_terminator();
        catch_bus_errors();
    });
}

/// Starts the thread that ends the process on SIGINT, SIGTERM and SIGHUP.
fn spawn_terminator() {
    let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| !ignored(s))
        .collect();
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("pgnkit-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                EXITING.store(true, Ordering::SeqCst);
                crate::remove_temporaries();
                let status = if TRUNCATED.load(Ordering::SeqCst) {
                    TRUNCATED_STATUS
                } else {
                    exit_status(signal)
                };
                std::process::exit(status);
            }
        });
    if let (Ok(_), Some(&signal)) = (spawned, wanted.first()) {
        WAKE.store(signal, Ordering::SeqCst);
        let received = RECEIVED.get_or_init(|| Arc::new(AtomicBool::new(false)));
        for &signal in &wanted {
            let _ = signal_hook::flag::register(signal, Arc::clone(received));
        }
    }
}

/// Whether `signal` is ignored (as `nohup` and background jobs start
/// programs).
#[allow(unsafe_code)]
fn ignored(signal: i32) -> bool {
    // SAFETY: a query only (no new action): `sigaction` fills `old`, a
    // plain struct of ours.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Installs [`on_bus_error`] for SIGBUS.
#[allow(unsafe_code)]
fn catch_bus_errors() {
    // SAFETY: `action` is a plain struct of ours, zeroed then filled; the
    // handler only does what a signal handler may (see `on_bus_error`).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// The SIGBUS handler: for an address in a mapped input, says which was
/// truncated, then has the terminating thread remove the temporary files
/// and exit with status 2 (this thread waits: returning would fault again);
/// for any other address, restores the default action and returns, so
/// that the fault kills the process as it would have.
#[allow(unsafe_code)]
extern "C" fn on_bus_error(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO`
    // handler; `message_at` reads only atomics and the message of a live
    // mapping (see `mapped`); `write`, `raise`, `pause`, `signal` and
    // `_exit` are async-signal-safe.
    unsafe {
        let address = (*info).si_addr() as usize;
        let Some((text, len)) = regions::message_at(address) else {
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
            return;
        };
        libc::write(libc::STDERR_FILENO, text.cast(), len);
        TRUNCATED.store(true, Ordering::SeqCst);
        let wake = WAKE.load(Ordering::SeqCst);
        if wake != 0 {
            libc::raise(wake);
            loop {
                libc::pause();
            }
        }
        libc::_exit(TRUNCATED_STATUS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs this test binary's test `name` in a child process with `env`
    /// set, and gives its exit status and standard error.
    fn child(name: &str, env: &str, dir: &std::path::Path) -> (Option<i32>, String) {
        let me = std::env::current_exe().expect("exe");
        let out = std::process::Command::new(me)
            .args(["--exact", name, "--nocapture"])
            .env(env, dir)
            .output()
            .expect("child");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    #[test]
    fn sigterm_removes_the_temporary_files_and_exits_143() {
        const ENV: &str = "PGNKIT_ATOMIC_SIGTERM_DIR";
        if let Some(dir) = std::env::var_os(ENV) {
            let target = std::path::Path::new(&dir).join("out.pgn");
            let mut out = crate::Replacement::create(&target).expect("create");
            std::io::Write::write_all(&mut out, b"half").expect("write");
            let _ = signal_hook::low_level::raise(SIGTERM);
            std::thread::sleep(std::time::Duration::from_secs(10));
            unreachable!("not terminated");
        }
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("out.pgn"), "old").expect("write");
        let (status, stderr) = child(
            "signals::tests::sigterm_removes_the_temporary_files_and_exits_143",
            ENV,
            dir.path(),
        );
        assert_eq!(status, Some(143), "{stderr}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "{left:?}");
        assert_eq!(
            std::fs::read(dir.path().join("out.pgn")).expect("read"),
            b"old"
        );
    }

    #[test]
    fn a_file_size_limit_is_a_write_error_not_a_kill() {
        const ENV: &str = "PGNKIT_ATOMIC_SIGXFSZ_DIR";
        if let Some(dir) = std::env::var_os(ENV) {
            let limit = rustix::process::Rlimit {
                current: Some(4096),
                maximum: None,
            };
            rustix::process::setrlimit(rustix::process::Resource::Fsize, limit).expect("limit");
            let target = std::path::Path::new(&dir).join("out.pgn");
            let mut out = crate::Replacement::create(&target).expect("create");
            let e = std::io::Write::write_all(&mut out, &[b'x'; 1 << 16]).expect_err("limit");
            let cause = std::error::Error::source(&e)
                .and_then(|c| c.downcast_ref::<std::io::Error>())
                .and_then(std::io::Error::raw_os_error);
            assert_eq!(cause, Some(libc::EFBIG), "{e}");
            drop(out);
            return;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let (status, stderr) = child(
            "signals::tests::a_file_size_limit_is_a_write_error_not_a_kill",
            ENV,
            dir.path(),
        );
        assert_eq!(status, Some(0), "{stderr}");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }
}
