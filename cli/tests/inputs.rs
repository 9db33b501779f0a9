//! What the commands that read games take as inputs: directories (walked
//! for PGN files, plain and compressed, honouring `.gitignore` and
//! `.ignore`), `--glob`, failures among good inputs, standard input on a
//! terminal, `convert --quiet`; and what is generated from the flags:
//! every `--help`'s language list, shell completions, man pages.

use std::path::{Path, PathBuf};
use std::process::Command;

use pgnkit_testkit::{Run, records, without_summary};
use serde_json::Value;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn pgnkit(args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    cmd.args(args);
    Run::of(cmd)
}

/// The summary's counts (no timing, no byte count: compressed files count
/// their compressed bytes).
fn counts(stdout: &str) -> Value {
    let mut s = records(stdout, "summary")
        .pop()
        .unwrap_or_else(|| panic!("no summary in {stdout}"));
    if let Some(o) = s.as_object_mut() {
        o.remove("seconds");
        o.remove("bytes");
        o.remove("files");
    }
    s
}

fn copy(from: &str, to: &Path) {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    std::fs::copy(testdata().join(from), to).unwrap_or_else(|e| panic!("{from}: {e}"));
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A tree of real games: what a walk must read, and what it must skip.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// The files a walk reads, in its order.
    read: Vec<PathBuf>,
}

impl Tree {
    /// `pgnkit ARGS` on the files the walk reads, named one by one.
    fn named(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
        cmd.args(args).args(&self.read);
        Run::of(cmd)
    }

    /// `pgnkit ARGS` on the tree's root, then on the files named: both runs.
    fn walked_and_named(&self, args: &[&str]) -> (Run, Run) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
        cmd.args(args).arg(&self.root);
        (Run::of(cmd), self.named(args))
    }
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("games");
    // `.gitignore` counts inside a git repository (as for ripgrep): a
    // `.git` directory is what makes one.
    std::fs::create_dir_all(root.join(".git")).expect("mkdir .git");
    std::fs::write(root.join(".gitignore"), "drafts/\nscratch.pgn\n").expect("write");
    copy("check/languages.pgn", &root.join("a-languages.pgn"));
    copy(
        "scale/gotd.pgn.zst",
        &root.join("nested/deeper/b-gotd.pgn.zst"),
    );
    copy("scale/test.pgn.gz", &root.join("nested/c-test.pgn.gz"));
    // Skipped: ignored by .gitignore, by .ignore, hidden, not named *.pgn.
    copy("check/illegal-ambiguous.pgn", &root.join("drafts/d.pgn"));
    copy("check/illegal-ambiguous.pgn", &root.join("scratch.pgn"));
    copy(
        "check/illegal-ambiguous.pgn",
        &root.join("nested/local.pgn"),
    );
    std::fs::write(root.join("nested/.ignore"), "local.pgn\n").expect("write");
    copy("check/illegal-ambiguous.pgn", &root.join(".hidden.pgn"));
    copy("check/missing-move.pgn", &root.join("notes.txt"));
    let read = vec![
        root.join("a-languages.pgn"),
        root.join("nested/c-test.pgn.gz"),
        root.join("nested/deeper/b-gotd.pgn.zst"),
    ];
    Tree {
        _dir: dir,
        root,
        read,
    }
}

#[test]
fn a_directory_is_its_pgn_files_ignored_ones_skipped_compressed_ones_read() {
    let t = tree();
    let (walked, direct) = t.walked_and_named(&["check", "--format", "json", "--games"]);
    let named: Vec<String> = t.read.iter().map(|p| s(p)).collect();
    assert_eq!(walked.code, 1, "{}", walked.stderr);
    // Exactly the files named, in the walk's (sorted) order, each read whole.
    assert_eq!(
        without_summary(&walked.stdout),
        without_summary(&direct.stdout)
    );
    assert_eq!(counts(&walked.stdout), counts(&direct.stdout));
    assert_eq!(records(&walked.stdout, "summary")[0]["files"], 3);
    let mut files: Vec<String> = records(&walked.stdout, "game")
        .iter()
        .map(|g| g["file"].as_str().unwrap_or_default().to_owned())
        .collect();
    files.dedup();
    assert_eq!(files, named);
    // The compressed games are there: gotd.pgn's games, as the plain file gives them.
    let plain = pgnkit(&[
        "check",
        "--format",
        "json",
        &s(&testdata().join("scale/gotd.pgn")),
    ]);
    let gotd = records(&walked.stdout, "game")
        .iter()
        .filter(|g| g["file"].as_str().is_some_and(|f| f.ends_with(".zst")))
        .count();
    assert_eq!(Some(gotd as u64), counts(&plain.stdout)["games"].as_u64());
    assert!(gotd > 0);
    // The error of the real game with a slip is found through the walk.
    assert!(
        records(&walked.stdout, "diagnostic")
            .iter()
            .any(|d| d["file"] == named[0] && d["token"] == "Ae4+")
    );
}

#[test]
fn glob_chooses_other_names_and_excludes() {
    let t = tree();
    let root = s(&t.root);
    // Only the text file, which holds a real game with a missing move.
    let txt = pgnkit(&["check", "--format", "json", "--glob", "*.txt", &root]);
    let games = records(&txt.stdout, "diagnostic");
    assert!(!games.is_empty());
    assert!(
        games
            .iter()
            .all(|d| d["file"] == s(&t.root.join("notes.txt")))
    );
    assert!(games.iter().any(|d| d["code"] == "missing-move"));
    // `!` alone: the PGN names less what it matches.
    let out = pgnkit(&["check", "--format", "json", "--glob", "!nested/**", &root]);
    let direct = pgnkit(&["check", "--format", "json", &s(&t.read[0])]);
    assert_eq!(counts(&out.stdout), counts(&direct.stdout));
    assert_eq!(records(&out.stdout, "summary")[0]["files"], 1);
    // A glob that does not parse is a usage error.
    let bad = pgnkit(&["check", "--glob", "[z-a]", &root]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("[z-a]"), "{}", bad.stderr);
}

#[test]
fn convert_reads_directories_the_same_way() {
    let t = tree();
    let (walked, direct) = t.walked_and_named(&["convert", "--to", "uci", "--quiet"]);
    assert_eq!(walked.code, direct.code);
    assert!(walked.stdout.contains("e2e4"));
    assert_eq!(walked.stdout, direct.stdout);
}

#[test]
fn a_directory_without_pgn_files_fails_by_name_and_the_rest_is_read() {
    let t = tree();
    let empty = t.root.join("nested/deeper/empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    std::fs::write(empty.join("readme.txt"), "no games").expect("write");
    let good = s(&t.read[0]);
    let out = pgnkit(&["check", "--format", "json", &s(&empty), &good]);
    assert_eq!(out.code, 2);
    let errors = records(&out.stdout, "error");
    assert_eq!(errors.len(), 1, "{}", out.stdout);
    assert_eq!(errors[0]["file"], s(&empty));
    assert!(
        errors[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no PGN file") && m.contains(&s(&empty))),
        "{errors:?}"
    );
    let alone = pgnkit(&["check", "--format", "json", &good]);
    assert_eq!(counts(&out.stdout), counts(&alone.stdout));
    // Human output says it on standard error.
    let human = pgnkit(&["check", "--format", "human", &s(&empty)]);
    assert_eq!(human.code, 2);
    assert!(human.stderr.contains("no PGN file in"), "{}", human.stderr);
}

#[test]
fn an_unreadable_subdirectory_is_reported_and_the_walk_goes_on() {
    // A directory whose path is longer than the system allows cannot be
    // read, even by root (for whom permission bits do not count): it is
    // made one level at a time, each `mkdir` relative to the last.
    let t = tree();
    let level = "d".repeat(250);
    let made = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "cd '{}' && for i in $(seq 18); do mkdir {level} && cd {level} || exit 1; done && cp '{}' deep.pgn",
            s(&t.root),
            s(&testdata().join("check/missing-move.pgn"))
        ))
        .status()
        .expect("sh");
    assert!(made.success());
    let out = pgnkit(&["check", "--format", "json", &s(&t.root)]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let errors = records(&out.stdout, "error");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]["file"]
            .as_str()
            .is_some_and(|f| f.starts_with(&s(&t.root)) && f.contains(&level))
    );
    // The three readable files were all read.
    assert_eq!(records(&out.stdout, "summary")[0]["files"], 3);
    let named = t.named(&["check", "--format", "json"]);
    assert_eq!(counts(&out.stdout), counts(&named.stdout));
}

#[test]
fn a_missing_file_among_files_with_errors_exits_2_and_the_errors_are_counted() {
    let bad = s(&testdata().join("check/illegal-ambiguous.pgn"));
    let missing = s(&testdata().join("check/no-such-file.pgn"));
    let alone = pgnkit(&["check", "--format", "json", &bad]);
    assert_eq!(alone.code, 1);
    let errors = counts(&alone.stdout)["errors"].as_u64().unwrap_or(0);
    assert!(errors > 0);
    let out = pgnkit(&["check", "--format", "json", &missing, &bad]);
    assert_eq!(out.code, 2);
    assert_eq!(counts(&out.stdout), counts(&alone.stdout));
    assert_eq!(records(&out.stdout, "error")[0]["file"], missing);
    // The human summary line counts them too.
    let human = pgnkit(&["check", "--format", "human", &bad, &missing]);
    assert_eq!(human.code, 2);
    assert!(
        human.stderr.contains(&format!(
            "checked 1 file: 3 games (3 with errors), {errors} errors"
        )),
        "{}",
        human.stderr
    );
}

#[test]
fn convert_quiet_prints_nothing_on_standard_error() {
    let bad = s(&testdata().join("check/illegal-ambiguous.pgn"));
    let loud = pgnkit(&["convert", &bad]);
    assert_eq!(loud.code, 1);
    assert!(
        loud.stderr.contains("error[illegal-move]"),
        "{}",
        loud.stderr
    );
    let quiet = pgnkit(&["convert", "--quiet", &bad]);
    assert_eq!(quiet.code, 1);
    assert_eq!(quiet.stderr, "");
    assert_eq!(quiet.stdout, loud.stdout);
}

#[test]
fn standard_input_on_a_terminal_is_announced() {
    if !pgnkit_testkit::tool(
        "python3",
        "python3",
        &["--version"],
        "apt-get install python3",
    ) {
        return;
    }
    // python3 gives pgnkit a pseudo-terminal as standard input, ends it
    // with Ctrl-D, and prints what pgnkit wrote on standard error.
    let script = r#"
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(slave)
os.write(master, b"\x04")
out, err = p.communicate(timeout=60)
sys.stderr.buffer.write(err)
sys.exit(p.returncode)
"#;
    for (command, word) in [("check", "check"), ("convert", "convert")] {
        let out = Command::new("python3")
            .args(["-c", script, env!("CARGO_BIN_EXE_pgnkit"), command])
            .output()
            .expect("python3");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "reading PGN from standard input (Ctrl-D to end; give a file to {word})"
            )),
            "{command}: {stderr}"
        );
        assert_eq!(out.status.code(), Some(0), "{command}: {stderr}");
    }
    // Not on a pipe.
    let piped = pgnkit(&["check", "--format", "json"]);
    assert!(!piped.stderr.contains("reading PGN"), "{}", piped.stderr);
}

#[test]
fn every_help_lists_every_language() {
    let codes = pgnkit_notation::Language::code_list();
    for command in ["check", "convert", "index", "search", "diff"] {
        let help = pgnkit(&[command, "--help"]);
        assert_eq!(help.code, 0);
        // Unwrapped, the list is one run of codes.
        let text = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains(&codes), "{command} --help: {text}");
        assert!(text.contains(" lv sl"), "{command}");
    }
    let convert = pgnkit(&["convert", "--help"]);
    assert_eq!(
        convert.stdout.matches(&codes).count(),
        2,
        "--input-lang and --lang"
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _pgnkit"),
        ("zsh", "#compdef pgnkit"),
        ("fish", "complete -c pgnkit"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = pgnkit(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        assert!(out.stdout.contains(marker), "{shell}");
        for word in ["check", "convert", "input-lang", "glob", "sarif"] {
            assert!(out.stdout.contains(word), "{shell} completes {word}");
        }
    }
    let bad = pgnkit(&["completions", "tcsh"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn man_pages_are_generated() {
    let page = pgnkit(&["man"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    for word in [
        ".TH pgnkit 1",
        ".SH NAME",
        "pgnkit\\-check(1)",
        ".SH \"EXIT STATUS\"",
    ] {
        assert!(page.stdout.contains(word), "{word} in {}", page.stdout);
    }
    let check = pgnkit(&["man", "check"]);
    assert_eq!(check.code, 0);
    for word in [
        ".TH pgnkit-check 1",
        "\\-\\-glob",
        "\\-\\-format",
        "sarif",
        "lv sl",
    ] {
        assert!(check.stdout.contains(word), "{word} in pgnkit-check(1)");
    }
    assert!(
        check
            .stdout
            .contains(concat!("\"pgnkit ", env!("CARGO_PKG_VERSION"), "\""))
    );
    // man(1) reads it, when it is there.
    if pgnkit_testkit::runs("man", &["--version"]) {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("pgnkit-check.1");
        std::fs::write(&file, &check.stdout).expect("write");
        let shown = Command::new("man")
            .arg("-l")
            .arg(&file)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "100")
            .output()
            .expect("man");
        let text = String::from_utf8_lossy(&shown.stdout);
        assert!(text.contains("EXIT STATUS"), "{text}");
    }
    let bad = pgnkit(&["man", "nope"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("no command `nope`"), "{}", bad.stderr);
}
