//! Test support shared by pgnkit's test suites (a dev-dependency only, never
//! published): one way for a test that needs something outside the
//! repository (the shared corpus, an outside tool) to say that it could not
//! run.
//!
//! A test never passes silently for want of what it needs: [`skip`] writes
//! a `skipped: <test>: <reason>` line straight to standard error, past the test
//! harness's capture, so that a plain `cargo test` shows it (count them with
//! `cargo test --workspace 2>&1 | grep -c 'skipped:'`); and when the `CI`
//! environment variable is set (`.ci/run` sets `CI=true`) it fails the test
//! instead, so CI runs every test or goes red.
//!
//! ```
//! // In a test that needs the shared corpus:
//! let Some(corpus) = pgnkit_testkit::corpus() else {
//!     return; // `skipped: …` was printed (and under CI the test failed)
//! };
//! assert!(corpus.is_dir());
//! ```
//!
//! It also holds what the tests that run the binary all need: [`Run`] (a
//! finished process's output), [`records`] and [`without_summary`] (its
//! NDJSON).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The pgnkit binary a test runs: `built` (the test's own
/// `env!("CARGO_BIN_EXE_pgnkit")`), or the one `PGNKIT_BIN` names, so that a
/// long corpus-wide test can run a release build without building the
/// test suite a second time in the release profile.
///
/// ```
/// let bin = pgnkit_testkit::binary("target/debug/pgnkit");
/// assert!(!bin.as_os_str().is_empty());
/// ```
pub fn binary(built: &str) -> PathBuf {
    std::env::var_os("PGNKIT_BIN")
        .filter(|b| !b.is_empty())
        .map_or_else(|| PathBuf::from(built), PathBuf::from)
}

/// Whether the environment variable `name` is set to something other than
/// empty, `0` or `false`.
pub fn flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Says that the calling test cannot run and why: writes `skipped:
/// <reason>` on standard error (not captured by the test harness), or,
/// when `CI` is set, panics with the reason (a CI run must run every test).
/// The caller returns after it.
#[track_caller]
pub fn skip(reason: &str) {
    assert!(
        !flag("CI"),
        "this test cannot run, and CI is set, so it may not be skipped: {reason}"
    );
    // The harness names each test's thread after the test.
    let thread = std::thread::current();
    let test = thread.name().filter(|n| *n != "main").unwrap_or("a test");
    // `eprintln!` would be captured, and shown only if the test failed.
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
}

/// The shared corpus of real games: the directory in `PGNKIT_CORPUS`, else
/// `../shared/corpus` beside the repository (where CI puts it), else
/// `/work/shared/corpus`. `None` after a [`skip`] when none is there.
#[track_caller]
pub fn corpus() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("PGNKIT_CORPUS") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => vec![
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
            PathBuf::from("/work/shared/corpus"),
        ],
    };
    if let Some(dir) = candidates.iter().find(|d| d.is_dir()) {
        return Some(dir.clone());
    }
    let tried: Vec<String> = candidates.iter().map(|d| d.display().to_string()).collect();
    skip(&format!(
        "the shared corpus is not there (looked in {}; set PGNKIT_CORPUS)",
        tried.join(", ")
    ));
    None
}

/// Whether `program args` runs and exits successfully (`parallel
/// --version`, `python3 -c 'import duckdb'`); output discarded.
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// [`runs`], or a [`skip`] naming `what` and how to install it when it
/// does not: `if !tool("GNU parallel", "parallel", &["--version"],
/// "apt-get install parallel") { return; }`.
#[track_caller]
pub fn tool(what: &str, program: &str, args: &[&str], install: &str) -> bool {
    let present = runs(program, args);
    if !present {
        skip(&format!("{what} is not installed ({install})"));
    }
    present
}

/// What a finished process gave: its standard output and error (lossily
/// decoded) and its exit status (-1 for a crash: a signal has no status).
#[derive(Debug)]
pub struct Run {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Exit status.
    pub code: i32,
}

impl Run {
    /// Runs `cmd` to its end, with nothing on standard input.
    ///
    /// ```
    /// let run = pgnkit_testkit::Run::of(std::process::Command::new("true"));
    /// assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    /// ```
    ///
    /// # Panics
    /// When the program cannot be started.
    #[track_caller]
    pub fn of(mut cmd: Command) -> Run {
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{cmd:?} cannot run: {e}"));
        Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

/// The NDJSON records of type `kind` (`"diagnostic"`, `"summary"`, …) in
/// `stdout`; lines that are not JSON are passed over.
///
/// ```
/// let out = "{\"type\":\"error\",\"file\":\"a.pgn\"}\nnot json\n{\"type\":\"summary\"}\n";
/// assert_eq!(pgnkit_testkit::records(out, "error")[0]["file"], "a.pgn");
/// ```
pub fn records(stdout: &str, kind: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == kind)
        .collect()
}

/// `stdout` without its summary record (whose timings differ run to run).
///
/// ```
/// let out = "{\"type\":\"game\"}\n{\"type\":\"summary\",\"seconds\":0.1}\n";
/// assert_eq!(pgnkit_testkit::without_summary(out), "{\"type\":\"game\"}\n");
/// ```
pub fn without_summary(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !l.contains(r#""type":"summary""#))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A xorshift64 generator (Marsaglia, 2003): the same numbers on every run,
/// for the tests that compare an implementation with a reference over many
/// made-up inputs.
///
/// ```
/// let mut a = pgnkit_testkit::Xorshift::new(7);
/// let mut b = pgnkit_testkit::Xorshift::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(a.next_u64(), a.next_u64());
/// ```
#[derive(Clone, Debug)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator started from `seed` (0, which would give only zeros,
    /// is taken as 1).
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed.max(1))
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
