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

/// The binary is private: the fuzz targets, examples and tests reach the
/// commands' work through the library crates (`pgnkit-work` and the
/// others), or run the binary.
#[test]
fn the_binary_is_no_library() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        !manifest.lines().any(|l| l.trim() == "[lib]"),
        "the root Cargo.toml has a [lib] target"
    );
    assert!(
        !root.join("cli/src/lib.rs").exists(),
        "cli/src/lib.rs exists"
    );
}

/// The modules of the binary that are not commands: the flags, and the
/// glue every command may use. Every other module of `cli/src` is a
/// command, which may use these and nothing else of the binary.
const SHARED: &[&str] = &["flags", "exit"];

/// A module of the binary by its path (`check`, `flags::defs`; the crate
/// root, `main.rs`, is the empty path).
type Module = Vec<String>;

/// Every file of `cli/src` and its module.
fn modules(src: &Path) -> Vec<(Module, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("under cli/src");
            let mut module: Module = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module
                .last()
                .is_some_and(|m| m == "mod" || m == "main" || m == "lib")
            {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            out.push((module, text));
        }
    }
    out
}

/// The paths a source text names from `crate::`, `super::`, `self::` and
/// `use child::` (`children`: the modules declared in it), each as the
/// segments after its base module (`at`: the text's own module), comments
/// and unit tests left out. A group (`crate::{a, b::{c, d}}`) gives one path a member.
fn paths(text: &str, at: &Module, children: &[String]) -> Vec<Module> {
    // A file's unit tests (`#[cfg(test)] mod tests`, at its end) are a
    // module of their own, whose `super` is the file.
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let starts_word = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let rest = &code[i..];
        let base = if !starts_word {
            None
        } else if let Some(r) = rest.strip_prefix("crate::") {
            Some((Module::new(), r))
        } else if let Some(r) = rest.strip_prefix("super::") {
            Some((at[..at.len().saturating_sub(1)].to_vec(), r))
        } else if let Some(r) = rest.strip_prefix("self::") {
            Some((at.clone(), r))
        } else if let Some(r) = rest.strip_prefix("use ")
            && let Some(child) = children.iter().find(|c| r.starts_with(&format!("{c}::")))
        {
            Some((at.clone(), r.trim_start_matches(child.as_str())))
        } else {
            None
        };
        match base {
            Some((base, r)) => {
                let mut found = Vec::new();
                // A path from `use child::`: its first segment is the child.
                let (first, r) = match r.strip_prefix("::") {
                    Some(r) => (rest[4..].split("::").next().map(str::to_owned), r),
                    None => (None, r),
                };
                let mut prefix = base;
                prefix.extend(first);
                tree(r, prefix, &mut found);
                out.extend(found);
                i += 1;
            }
            None => i += 1,
        }
    }
    out
}

/// Reads one path or group of paths at the start of `s` (the text after
/// `prefix::`) into `out`, and gives what follows it.
fn tree<'a>(s: &'a str, prefix: Module, out: &mut Vec<Module>) -> &'a str {
    let s = s.trim_start();
    if let Some(mut s) = s.strip_prefix('{') {
        loop {
            s = tree(s, prefix.clone(), out).trim_start();
            if let Some(r) = s.strip_prefix(',') {
                s = r;
            }
            if let Some(r) = s.trim_start().strip_prefix('}') {
                return r;
            }
            if s.is_empty() {
                return s;
            }
        }
    }
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    let mut path = prefix;
    if end > 0 {
        path.push(s[..end].to_owned());
    }
    let s = &s[end..];
    match s.strip_prefix("::") {
        Some(r) if !path.is_empty() => tree(r, path, out),
        _ => {
            out.push(path);
            s
        }
    }
}

/// The uses between the binary's modules: (user, used), each the longest
/// module that prefixes a path it names.
fn uses(src: &Path) -> (Vec<Module>, Vec<(Module, Module)>) {
    let files = modules(src);
    let known: Vec<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges = Vec::new();
    for (module, text) in &files {
        let children: Vec<String> = known
            .iter()
            .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
            .filter_map(|k| k.last().cloned())
            .collect();
        for path in paths(text, module, &children) {
            let used = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| known.contains(p))
                .unwrap_or_default();
            if &used != module && !edges.contains(&(module.clone(), used.clone())) {
                edges.push((module.clone(), used));
            }
        }
    }
    (known, edges)
}

/// The name of a module in messages.
fn name(m: &[String]) -> String {
    if m.is_empty() {
        "main".to_owned()
    } else {
        m.join("::")
    }
}

#[test]
fn use_paths_are_read_with_their_groups() {
    let at: Module = vec!["flags".into()];
    let found = paths(
        "use crate::{check::{a, b}, exit::EXIT_OK};\nuse super::x::Y; // crate::ignored\nuse defs::Z;\nlet n = crate::index::build(1);",
        &at,
        &["defs".to_owned()],
    );
    let found: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        [
            "check::a",
            "check::b",
            "exit::EXIT_OK",
            "x::Y",
            "flags::defs::Z",
            "index::build"
        ]
    );
}

/// The binary is flags and glue: a command module uses the flags and the
/// shared glue ([`SHARED`]), never another command (what two commands
/// share belongs in a shared module or in a library crate); the shared
/// modules use no command; and no module of the binary uses, through
/// others, itself.
#[test]
fn commands_use_only_the_flags_and_shared_glue_and_no_module_uses_itself() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("cli/src");
    let (known, edges) = uses(&src);
    let top = |m: &Module| m.first().cloned().unwrap_or_default();
    let shared = |m: &Module| SHARED.contains(&top(m).as_str());
    assert!(
        edges.contains(&(vec!["check".into()], vec!["flags".into()])),
        "the uses are read: `check` uses the flags"
    );
    let mut wrong = Vec::new();
    for (user, used) in &edges {
        if user.is_empty() || top(user) == top(used) {
            continue;
        }
        if !shared(used) {
            let what = if shared(user) {
                "shared module"
            } else {
                "command"
            };
            wrong.push(format!("{what} `{}` uses `{}`", name(user), name(used)));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // No cycle: a depth-first walk finds no module on its own path.
    fn walk(
        m: &Module,
        edges: &[(Module, Module)],
        path: &mut Vec<Module>,
        done: &mut Vec<Module>,
    ) {
        if let Some(at) = path.iter().position(|p| p == m) {
            let cycle: Vec<String> = path[at..].iter().chain([m]).map(|p| name(p)).collect();
            panic!("an import cycle: {}", cycle.join(" -> "));
        }
        if done.contains(m) {
            return;
        }
        path.push(m.clone());
        for (_, used) in edges.iter().filter(|(user, _)| user == m) {
            walk(used, edges, path, done);
        }
        path.pop();
        done.push(m.clone());
    }
    let mut done = Vec::new();
    for m in &known {
        walk(m, &edges, &mut Vec::new(), &mut done);
    }
}

/// No library crate's top-level modules use one another in a circle: each
/// crate reads as layers, a module below never reaching back to one above
/// (a module and its own children may share items both ways).
#[test]
fn no_crate_has_an_import_cycle_among_its_modules() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut read = 0;
    let mut cycles = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&crates)
        .expect("crates/")
        .filter_map(|e| e.ok().map(|e| e.path().join("src")))
        .filter(|src| src.is_dir())
        .collect();
    dirs.sort();
    for src in dirs {
        read += 1;
        let (known, edges) = uses(&src);
        let top = |m: &Module| m.first().cloned().unwrap_or_default();
        let mut tops: Vec<(String, String)> = edges
            .iter()
            .filter(|(a, b)| !a.is_empty() && !b.is_empty() && top(a) != top(b))
            .map(|(a, b)| (top(a), top(b)))
            .collect();
        tops.sort();
        tops.dedup();
        let mut names: Vec<String> = known.iter().filter(|m| !m.is_empty()).map(top).collect();
        names.sort();
        names.dedup();
        // A module that reaches itself through others is on a cycle.
        for start in &names {
            let mut seen = vec![start.clone()];
            let mut next: Vec<String> = vec![start.clone()];
            let mut on_cycle = false;
            while let Some(m) = next.pop() {
                for (_, used) in tops.iter().filter(|(user, _)| *user == m) {
                    if used == start {
                        on_cycle = true;
                    } else if !seen.contains(used) {
                        seen.push(used.clone());
                        next.push(used.clone());
                    }
                }
            }
            if on_cycle {
                cycles.push(format!("{}: `{start}`", src.display()));
            }
        }
    }
    assert!(read > 10, "the library crates are read ({read})");
    assert!(
        cycles.is_empty(),
        "modules on an import cycle:\n{}",
        cycles.join("\n")
    );
}
