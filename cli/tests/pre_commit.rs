//! pgnkit as a pre-commit hook, run by the real `pre-commit` (PyPI) from
//! this repository's `.pre-commit-hooks.yaml`.
//!
//! `hooks_manifest_is_valid` checks the manifest with `pre-commit
//! validate-manifest`: without pre-commit it prints `skipped:` and passes,
//! except under CI (`CI` set), where it fails. The whole round trip is
//! `#[ignore]`d because pre-commit's `language: rust` runs `cargo install
//! --path .` of the repository (a release build: minutes):
//! `scripts/pre_commit_check.sh`, which CI runs after its release build,
//! installs pre-commit and runs it with `--include-ignored`.
//!
//! The round trip: a new git repository holding a real game with a slip
//! and a `.pre-commit-config.yaml` of three lines that names this
//! repository (its path) at HEAD's commit (pre-commit clones `rev`: what
//! is not committed is not tested); `pre-commit install`; `git commit` is
//! refused with pgnkit's diagnostic; after the fix the commit goes through.
//! The build reuses the dependencies already built in this target
//! directory (`CARGO_TARGET_DIR`, else the one this test runs from), so
//! only pgnkit's own crates are compiled.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pre_commit_present() -> bool {
    pgnkit_testkit::tool(
        "pre-commit",
        "pre-commit",
        &["--version"],
        "python3 -m pip install pre-commit",
    )
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `program args` in `dir`; its output, stdout then stderr.
fn run(dir: &Path, program: &str, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output()
        .unwrap_or_else(|e| panic!("{program} {args:?}: {e}"))
}

#[test]
fn hooks_manifest_is_valid() {
    if !pre_commit_present() {
        return;
    }
    let manifest = root().join(".pre-commit-hooks.yaml");
    let out = run(
        root(),
        "pre-commit",
        &["validate-manifest", &manifest.display().to_string()],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out));
    let yaml = std::fs::read_to_string(&manifest).expect("manifest");
    for line in [
        "- id: pgnkit-check",
        "entry: pgnkit check",
        "language: rust",
        "files: \\.pgn$",
    ] {
        assert!(yaml.contains(line), "{line}");
    }
}

/// The target directory to build in: `CARGO_TARGET_DIR`, else the one this
/// test binary was built in (`target/release/deps/pre_commit-…`).
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        // cargo install runs in pre-commit's clone: a relative directory
        // would be another one there (cargo took it from the root).
        return root().join(dir);
    }
    let exe = std::env::current_exe().expect("test binary");
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| root().join("target"))
}

#[test]
#[ignore = "builds pgnkit with cargo install (minutes): scripts/pre_commit_check.sh runs it"]
fn commit_is_refused_on_a_broken_game_and_passes_after_the_fix() {
    assert!(
        pre_commit_present(),
        "pre-commit is missing (scripts/pre_commit_check.sh installs it)"
    );
    let head = run(root(), "git", &["rev-parse", "HEAD"], &[]);
    assert!(head.status.success(), "{}", text(&head));
    let rev = String::from_utf8_lossy(&head.stdout).trim().to_owned();
    let at_head = run(
        root(),
        "git",
        &["cat-file", "-e", &format!("{rev}:.pre-commit-hooks.yaml")],
        &[],
    );
    assert!(
        at_head.status.success(),
        "HEAD has no .pre-commit-hooks.yaml: commit it first"
    );

    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path().join("games");
    let home = tmp.path().join("pre-commit-home");
    let target = target_dir();
    std::fs::create_dir_all(&repo).expect("mkdir");
    let env: [(&str, &Path); 2] = [
        // A fresh pre-commit cache: the hook is installed as a new user's is.
        ("PRE_COMMIT_HOME", &home),
        ("CARGO_TARGET_DIR", &target),
    ];
    let git = |args: &[&str]| run(&repo, "git", args, &env);
    for args in [
        &["init", "-q"][..],
        &["config", "user.email", "arbiter@example.invalid"],
        &["config", "user.name", "Arbiter"],
        &["config", "commit.gpgsign", "false"],
    ] {
        assert!(git(args).status.success());
    }
    // A real record: seven games in seven notations, one with a slip
    // (`Ae4+`, a Spanish knight written with another language's letter).
    let game = std::fs::read_to_string(root().join("testdata/check/languages.pgn"))
        .expect("languages.pgn");
    assert!(game.contains(" Ae4+ "));
    std::fs::write(repo.join("round1.pgn"), &game).expect("write");
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks: [{{id: pgnkit-check}}]\n",
            root().display()
        ),
    )
    .expect("write");
    let install = run(&repo, "pre-commit", &["install"], &env);
    assert!(install.status.success(), "{}", text(&install));

    assert!(git(&["add", "-A"]).status.success());
    let started = Instant::now();
    let refused = git(&["commit", "-m", "round 1"]);
    let seconds = started.elapsed().as_secs_f64();
    let said = text(&refused);
    assert!(
        !refused.status.success(),
        "the commit went through:\n{said}"
    );
    for word in [
        "pgnkit check",
        "Failed",
        "error[illegal-move]",
        "round1.pgn:34:34",
        "did you mean Ce4+?",
    ] {
        assert!(said.contains(word), "`{word}` not in:\n{said}");
    }
    // The install's cost, for CI's budget (shown with --nocapture).
    println!("pre-commit's first run (cargo install of pgnkit included): {seconds:.1} s");

    std::fs::write(repo.join("round1.pgn"), game.replace(" Ae4+ ", " Ce4+ ")).expect("write");
    assert!(git(&["add", "-A"]).status.success());
    let passed = git(&["commit", "-m", "round 1, move 4 fixed"]);
    let said = text(&passed);
    assert!(
        passed.status.success(),
        "the fixed game was refused:\n{said}"
    );
    assert!(
        said.contains("pgnkit check") && said.contains("Passed"),
        "{said}"
    );
}
