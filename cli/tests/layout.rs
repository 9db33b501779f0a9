//! The `pgnkit` package's manifest is the repository's root `Cargo.toml`
//! (so that `cargo install --path .`, and with it pre-commit's `language:
//! rust`, finds the binary), and its sources are in `cli/`, where cargo
//! discovers no target by itself: each test file must be named there. This
//! test fails for a file in `cli/tests` that the manifest does not name,
//! which cargo would otherwise never run.

use std::path::Path;

#[test]
fn every_test_file_is_a_test_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("cli/tests")).expect("cli/tests") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let target = format!("[[test]]\nname = \"{stem}\"\npath = \"cli/tests/{name}\"\n");
        if !manifest.contains(&target) {
            missing.push(target);
        }
    }
    assert!(
        missing.is_empty(),
        "add to the root Cargo.toml:\n\n{}",
        missing.join("\n")
    );
}
