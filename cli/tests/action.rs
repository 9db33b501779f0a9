//! The GitHub Action (`action.yml`, composite): `scripts/action_check.py`
//! runs its steps as a GitHub runner does, on real games, with this build
//! of pgnkit in place of the cached one. It needs python3 with PyYAML
//! (pre-commit brings it): without them the test prints `skipped:` and
//! passes, except under CI, where it fails.

use std::process::Command;

#[test]
fn the_action_runs_pgnkit_check_as_a_runner_would() {
    if !pgnkit_testkit::tool(
        "python3 with PyYAML",
        "python3",
        &["-c", "import yaml"],
        "python3 -m pip install pyyaml",
    ) {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/action_check.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_pgnkit")])
        .output()
        .expect("python3");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("action_check: ok"), "{said}");
}
