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

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

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
