//! Compressed input: zstd, gzip and bzip2 files (recognised by their magic
//! bytes) give exactly the output of the plain file; multi-member files are
//! read to the end; a truncated file is an error (exit 2) after the games
//! read before the damage are reported.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const COMPRESSIONS: [&str; 3] = ["zst", "gz", "bz2"];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/scale")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

fn pgnkit(dir: &Path, args: &[&str]) -> Run {
    let out = Command::cargo_bin("pgnkit")
        .expect("pgnkit binary")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run pgnkit");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// NDJSON records of one type.
fn records(stdout: &str, kind: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == kind)
        .collect()
}

/// The summary record without its timing.
fn summary(stdout: &str) -> serde_json::Value {
    let mut s = records(stdout, "summary")
        .pop()
        .unwrap_or_else(|| panic!("no summary in {stdout}"));
    if let Some(o) = s.as_object_mut() {
        o.remove("seconds");
    }
    s
}

fn without_summary(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !l.contains(r#""type":"summary""#))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn compressed_files_give_the_output_of_the_plain_file() {
    let dir = fixtures();
    for base in ["test.pgn", "gotd.pgn"] {
        let formats: [&[&str]; 3] = [
            &["--format", "json", "--games"],
            &["--format", "human", "--games"],
            &["--format", "github"],
        ];
        for format in formats {
            let mut args = vec!["check", "-j2"];
            args.extend_from_slice(format);
            let plain = pgnkit(&dir, &[args.as_slice(), &[base]].concat());
            assert!(plain.code <= 1, "{base}: {}", plain.stderr);
            if format[1] != "github" {
                assert!(
                    !plain.stdout.is_empty(),
                    "{base} {format:?} printed nothing"
                );
            }
            for ext in COMPRESSIONS {
                let name = format!("{base}.{ext}");
                let packed = pgnkit(&dir, &[args.as_slice(), &[name.as_str()]].concat());
                assert_eq!(
                    packed.code, plain.code,
                    "{name} {format:?}: {}",
                    packed.stderr
                );
                assert_eq!(
                    without_summary(&packed.stdout).replace(&name, base),
                    without_summary(&plain.stdout),
                    "{name} {format:?}"
                );
                if format[1] == "json" {
                    assert_eq!(summary(&packed.stdout), summary(&plain.stdout), "{name}");
                }
            }
        }
    }
    // The fixture with errors really reports some (so the comparison means something).
    let plain = pgnkit(&dir, &["check", "--format", "json", "test.pgn"]);
    assert_eq!(plain.code, 1);
    assert!(!records(&plain.stdout, "diagnostic").is_empty());
}

#[test]
fn compressed_standard_input_is_recognised_by_its_magic_bytes() {
    let dir = fixtures();
    let plain = pgnkit(
        &dir,
        &["check", "--format", "json", "--games", "-j1", "gotd.pgn"],
    );
    for ext in COMPRESSIONS {
        let out = Command::cargo_bin("pgnkit")
            .expect("pgnkit binary")
            .args(["check", "--format", "json", "--games", "-j1", "-"])
            .write_stdin(read(&format!("gotd.pgn.{ext}")))
            .output()
            .expect("run pgnkit");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(plain.code), "{ext}");
        assert_eq!(
            without_summary(&stdout).replace(r#""file":"<stdin>""#, r#""file":"gotd.pgn""#),
            without_summary(&plain.stdout),
            "{ext} on standard input"
        );
        assert_eq!(summary(&stdout), summary(&plain.stdout));
    }
}

#[test]
fn every_member_of_a_multi_member_file_is_read() {
    // gzip members, zstd frames and bzip2 streams written one after another
    // (as pigz, zstd -T and pbzip2 do) are one input.
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut plain = read("test.pgn");
    plain.extend(read("gotd.pgn"));
    std::fs::write(tmp.path().join("both.pgn"), &plain).expect("write");
    let whole = pgnkit(
        tmp.path(),
        &["check", "--format", "json", "--games", "both.pgn"],
    );
    assert_eq!(records(&whole.stdout, "game").len(), 16 + 171);
    for ext in COMPRESSIONS {
        let mut packed = read(&format!("test.pgn.{ext}"));
        packed.extend(read(&format!("gotd.pgn.{ext}")));
        let name = format!("both.pgn.{ext}");
        std::fs::write(tmp.path().join(&name), &packed).expect("write");
        let run = pgnkit(tmp.path(), &["check", "--format", "json", "--games", &name]);
        assert_eq!(run.code, whole.code, "{name}: {}", run.stderr);
        assert_eq!(
            without_summary(&run.stdout).replace(&name, "both.pgn"),
            without_summary(&whole.stdout),
            "{name}"
        );
        assert_eq!(summary(&run.stdout), summary(&whole.stdout), "{name}");
    }
}

#[test]
fn a_truncated_compressed_file_fails_after_reporting_the_games_read() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut plain = read("test.pgn");
    plain.extend(read("gotd.pgn"));
    std::fs::write(tmp.path().join("both.pgn"), &plain).expect("write");
    let whole = pgnkit(
        tmp.path(),
        &["check", "--format", "json", "--games", "both.pgn"],
    );
    let whole_games = records(&whole.stdout, "game");
    for ext in COMPRESSIONS {
        // The first member whole, the second cut in its middle.
        let first = read(&format!("test.pgn.{ext}"));
        let second = read(&format!("gotd.pgn.{ext}"));
        let mut cut = first.clone();
        cut.extend_from_slice(&second[..second.len() / 2]);
        let name = format!("cut.pgn.{ext}");
        std::fs::write(tmp.path().join(&name), &cut).expect("write");

        let run = pgnkit(tmp.path(), &["check", "--format", "json", "--games", &name]);
        assert_eq!(run.code, 2, "{name}: exit status");
        let errors = records(&run.stdout, "error");
        assert_eq!(errors.len(), 1, "{name}: {}", run.stdout);
        let message = errors[0]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("ends early or is corrupt") && message.contains(&name),
            "{name}: {message}"
        );
        // The error comes after the games, and before the summary.
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert!(
            lines[lines.len() - 2].contains(r#""type":"error""#),
            "{name}"
        );
        // Every game of the intact first member is reported as in the whole run.
        let games = records(&run.stdout, "game");
        assert!(
            games.len() >= 16 && games.len() < whole_games.len(),
            "{name}: {} games",
            games.len()
        );
        for (got, want) in games.iter().zip(&whole_games).take(16) {
            let mut got = got.clone();
            got["file"] = want["file"].clone();
            assert_eq!(&got, want, "{name}");
        }
        let s = summary(&run.stdout);
        assert_eq!(s["games"].as_u64(), Some(games.len() as u64), "{name}");

        // In human format the error goes to standard error, with the summary.
        let human = pgnkit(tmp.path(), &["check", "--format", "human", &name]);
        assert_eq!(human.code, 2);
        assert!(
            human.stderr.contains("pgnkit: error: cannot decompress"),
            "{}",
            human.stderr
        );
    }
}
