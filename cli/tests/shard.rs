//! `--shard K/N`: N runs over the shards of a real file, concatenated in K
//! order, give exactly the unsharded output (game, line, column and byte
//! numbers stay file-global), for any N, also N larger than the number of
//! games; their summaries merge into the unsharded summary.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/scale")
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

fn pgnkit(args: &[&str]) -> Run {
    let out = Command::cargo_bin("pgnkit")
        .expect("pgnkit binary")
        .current_dir(fixtures())
        .args(args)
        .output()
        .expect("run pgnkit");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn is_summary(line: &str) -> bool {
    line.contains(r#""type":"summary""#)
}

fn without_summary(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !is_summary(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn summary_of(stdout: &str) -> serde_json::Value {
    let line = stdout
        .lines()
        .rfind(|l| is_summary(l))
        .unwrap_or_else(|| panic!("no summary in {stdout}"));
    let mut v: serde_json::Value = serde_json::from_str(line).expect("summary is JSON");
    if let Some(o) = v.as_object_mut() {
        for volatile in ["seconds", "seconds_total", "summaries", "failures", "shard"] {
            o.remove(volatile);
        }
    }
    v
}

fn games_in(stdout: &str) -> usize {
    stdout
        .lines()
        .filter(|l| l.contains(r#""type":"game""#))
        .count()
}

const FIXTURES: [(&str, usize); 3] = [
    ("test.pgn", 16),
    ("gotd.pgn", 171),
    ("chess960rwch.pgn", 20),
];

#[test]
fn shards_concatenated_in_order_are_the_whole_run() {
    for (file, games) in FIXTURES {
        let formats: [&[&str]; 3] = [
            &["--format", "json", "--games"],
            &["--format", "human", "--games"],
            &["--format", "github"],
        ];
        for format in formats {
            let args = [&["check", "--quiet"], format, &[file]].concat();
            let whole = pgnkit(&args);
            assert!(whole.code <= 1, "{file}: {}", whole.stderr);
            if format[1] != "github" {
                assert!(!whole.stdout.is_empty());
            }
            // Down to one game a shard, and more shards than games (most empty).
            let many = if games < 50 { games * 3 } else { games + 3 };
            for n in [1, 2, 3, 7, many] {
                let mut joined = String::new();
                let mut worst = 0;
                for k in 1..=n {
                    let shard = format!("{k}/{n}");
                    let jobs = if k % 2 == 0 { "-j1" } else { "-j2" };
                    let run = pgnkit(&[args.as_slice(), &["--shard", &shard, jobs]].concat());
                    assert!(run.code <= 1, "{file} {shard}: {}", run.stderr);
                    worst = worst.max(run.code);
                    joined.push_str(&without_summary(&run.stdout));
                }
                assert_eq!(
                    joined,
                    without_summary(&whole.stdout),
                    "{file} in {n} shards, {format:?}"
                );
                assert_eq!(worst, whole.code, "{file} in {n} shards: exit status");
            }
        }
        let whole = pgnkit(&["check", "--format", "json", "--games", file]);
        assert_eq!(games_in(&whole.stdout), games, "{file}");
    }
}

#[test]
fn shard_summaries_merge_into_the_whole_summary() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let files: Vec<&str> = FIXTURES.iter().map(|(f, _)| *f).collect();
    let whole = pgnkit(&[&["check", "--format", "json"], files.as_slice()].concat());
    for n in [1usize, 4, 300] {
        let mut outputs = Vec::new();
        for k in 1..=n {
            let shard = format!("{k}/{n}");
            let run = pgnkit(
                &[
                    &["check", "--format", "json", "--shard", &shard],
                    files.as_slice(),
                ]
                .concat(),
            );
            assert!(run.code <= 1, "{shard}: {}", run.stderr);
            let out = tmp.path().join(format!("shard-{k}.ndjson"));
            std::fs::write(&out, &run.stdout).expect("write");
            outputs.push(out.display().to_string());
        }
        let args: Vec<&str> = ["merge-summaries"]
            .into_iter()
            .chain(outputs.iter().map(String::as_str))
            .collect();
        let merged = pgnkit(&args);
        assert_eq!(merged.code, whole.code, "{n} shards: {}", merged.stderr);
        assert_eq!(
            summary_of(&merged.stdout),
            summary_of(&whole.stdout),
            "{n} shards"
        );
        let v: serde_json::Value =
            serde_json::from_str(merged.stdout.trim()).expect("merged summary is JSON");
        assert_eq!(v["summaries"].as_u64(), Some(n as u64));

        // One shard missing: refused, unless --partial.
        if n > 1 {
            let mut missing = args.clone();
            missing.remove(2);
            let refused = pgnkit(&missing);
            assert_eq!(refused.code, 2);
            assert!(
                refused.stderr.contains(&format!("2/{n}")),
                "{}",
                refused.stderr
            );
            missing.push("--partial");
            let partial = pgnkit(&missing);
            assert!(partial.code <= 1, "{}", partial.stderr);
        }
    }
}

#[test]
fn merge_summaries_prints_a_human_line() {
    let whole = pgnkit(&["check", "--format", "json", "gotd.pgn", "test.pgn"]);
    let out = Command::cargo_bin("pgnkit")
        .expect("pgnkit binary")
        .args(["merge-summaries", "--format", "human", "-"])
        .write_stdin(whole.stdout.clone())
        .output()
        .expect("run pgnkit");
    let line = String::from_utf8_lossy(&out.stdout);
    let s = summary_of(&whole.stdout);
    assert!(
        line.starts_with(&format!("checked 2 files: {} games (", s["games"])),
        "{line}"
    );
    assert_eq!(
        out.status.code(),
        Some(whole.code),
        "the exit status says problems like check's"
    );
}

#[test]
fn game_offset_shifts_game_numbers() {
    let plain = pgnkit(&["check", "--format", "json", "--games", "test.pgn"]);
    let shifted = pgnkit(&[
        "check",
        "--format",
        "json",
        "--games",
        "--game-offset",
        "1000",
        "test.pgn",
    ]);
    let numbers = |s: &str| -> Vec<u64> {
        s.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["game"].as_u64())
            .collect()
    };
    let before = numbers(&plain.stdout);
    assert!(before.len() >= 16);
    let after: Vec<u64> = before.iter().map(|g| g + 1000).collect();
    assert_eq!(numbers(&shifted.stdout), after);
}

#[test]
fn shards_of_streams_and_compressed_files_are_refused() {
    let run = pgnkit(&[
        "check",
        "--format",
        "json",
        "--shard",
        "1/2",
        "gotd.pgn.zst",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("zstd-compressed"), "{}", run.stdout);
    let out = Command::cargo_bin("pgnkit")
        .expect("pgnkit binary")
        .args(["check", "--format", "human", "--shard", "1/2", "-"])
        .write_stdin(std::fs::read(fixtures().join("test.pgn")).expect("fixture"))
        .output()
        .expect("run pgnkit");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard 1/2 cannot cut `<stdin>`"));
    for bad in ["0/3", "4/3", "3", "x/y"] {
        let run = pgnkit(&["check", "--shard", bad, "test.pgn"]);
        assert_eq!(run.code, 2, "--shard {bad}");
        assert!(run.stderr.contains("K/N"), "{}", run.stderr);
    }
}
