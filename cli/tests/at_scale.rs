//! pgnkit under engines teams already use: GNU parallel over shards, DuckDB
//! and pandas over the NDJSON, Apache Spark (PySpark, local mode) running
//! pgnkit over shards.
//!
//! GNU parallel is a Debian package CI installs before `cargo test`: without
//! it the test prints `skipped:` and passes, except under CI (`CI` set),
//! where it fails. DuckDB, pandas and PySpark are large PyPI installs and the
//! Spark run is slow (a JVM and Python workers start), so those two tests are
//! `#[ignore]`d (cargo lists them as ignored, with the reason):
//! `scripts/at_scale.sh`, which CI runs, installs the tools and runs every
//! test here with `--include-ignored`, where a missing tool fails.
//! `PGNKIT_AT_SCALE_INPUT` may name a larger real PGN file to use as well.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/scale")
}

fn pgnkit_path() -> PathBuf {
    pgnkit_testkit::binary(&assert_cmd::cargo::cargo_bin("pgnkit").display().to_string())
}

/// Fails unless `what` is present: for the ignored tests, which run only
/// when asked for (`scripts/at_scale.sh`).
fn require(what: &str, present: bool) {
    assert!(
        present,
        "{what} is missing (scripts/at_scale.sh installs it)"
    );
}

fn python_has(modules: &str) -> bool {
    pgnkit_testkit::runs("python3", &["-c", &format!("import {modules}")])
}

/// The real files the tests run on: the fixtures, and a larger one if given.
fn inputs() -> Vec<String> {
    let mut files: Vec<String> = ["test.pgn", "gotd.pgn", "chess960rwch.pgn"]
        .iter()
        .map(|f| fixtures().join(f).display().to_string())
        .collect();
    if let Ok(big) = std::env::var("PGNKIT_AT_SCALE_INPUT")
        && !big.is_empty()
    {
        assert!(Path::new(&big).is_file(), "PGNKIT_AT_SCALE_INPUT={big}");
        files.push(big);
    }
    files
}

struct Out {
    stdout: String,
    code: i32,
}

fn run(cmd: &mut Command) -> Out {
    let out = cmd.output().expect("run command");
    if !out.stderr.is_empty() && !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    }
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn check(args: &[&str]) -> Out {
    run(Command::new(pgnkit_path()).arg("check").args(args))
}

fn json_lines(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn summary(s: &str) -> serde_json::Value {
    json_lines(s)
        .into_iter()
        .rfind(|v| v["type"] == "summary")
        .unwrap_or_else(|| panic!("no summary in {s}"))
}

const COUNTS: [&str; 6] = [
    "games",
    "games_with_errors",
    "errors",
    "warnings",
    "plies",
    "bytes",
];

#[test]
fn gnu_parallel_over_shards_gives_the_whole_run() {
    if !pgnkit_testkit::tool(
        "GNU parallel",
        "parallel",
        &["--version"],
        "apt-get install parallel; scripts/at_scale.sh does",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let pgnkit = pgnkit_path().display().to_string();
    for file in inputs() {
        let whole = check(&["--format", "json", "--games", "--quiet", &file]);
        let n = 5;
        // The recipe of docs/at-scale.md: -k keeps the output in K order.
        let shards = run(Command::new("parallel")
            .args(["-k", "-j2", "--halt", "soon,fail=1"])
            .arg(format!(
                "{pgnkit} check --format json --games --quiet -j1 --shard {{}}/{n} {file} || [ $? -eq 1 ]"
            ))
            .arg(":::")
            .args((1..=n).map(|k| k.to_string())));
        assert_eq!(shards.code, 0, "parallel over {file}");
        let strip = |s: &str| -> String {
            s.lines()
                .filter(|l| !l.contains(r#""type":"summary""#))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        assert_eq!(strip(&shards.stdout), strip(&whole.stdout), "{file}");
        let path = tmp.path().join("shards.ndjson");
        std::fs::write(&path, &shards.stdout).expect("write");
        let merged = run(Command::new(pgnkit_path())
            .arg("merge-summaries")
            .arg(&path));
        assert_eq!(merged.code, whole.code, "{file}: merged exit status");
        let (m, w) = (summary(&merged.stdout), summary(&whole.stdout));
        for c in COUNTS.iter().chain(&["files"]) {
            assert_eq!(m[c], w[c], "{file}: {c}");
        }
        assert_eq!(m["summaries"], n);
    }
}

/// The DuckDB and pandas queries of docs/at-scale.md, printing one JSON object.
const QUERIES: &str = r#"
import json, sys
import duckdb
import pandas as pd

path = sys.argv[1]
con = duckdb.connect()
rel = f"read_json_auto('{path}', format='newline_delimited')"
by_status = con.sql(f"""
    SELECT status, count(*) AS games, sum(plies) AS plies
    FROM {rel} WHERE type = 'game' GROUP BY status ORDER BY status
""").fetchall()
totals = con.sql(f"""
    SELECT count(*) FILTER (WHERE type = 'game'),
           count(*) FILTER (WHERE type = 'game' AND errors > 0),
           count(*) FILTER (WHERE type = 'diagnostic' AND severity = 'error'),
           count(*) FILTER (WHERE type = 'diagnostic' AND severity = 'warning'),
           sum(plies) FILTER (WHERE type = 'game')
    FROM {rel}
""").fetchall()[0]
codes = con.sql(f"""
    SELECT code, count(*) FROM {rel} WHERE type = 'diagnostic' GROUP BY code ORDER BY code
""").fetchall()

df = pd.read_json(path, lines=True)
games = df[df["type"] == "game"]
diags = df[df["type"] == "diagnostic"]
pandas_status = {k: int(v) for k, v in games.groupby("status").size().items()}
print(json.dumps({
    "duckdb": {
        "by_status": {s: {"games": g, "plies": int(p)} for s, g, p in by_status},
        "games": totals[0], "games_with_errors": totals[1], "errors": totals[2],
        "warnings": totals[3], "plies": int(totals[4] or 0),
        "codes": {c: n for c, n in codes},
    },
    "pandas": {
        "by_status": pandas_status,
        "games": int(len(games)),
        "games_with_errors": int((games["errors"] > 0).sum()),
        "errors": int((diags["severity"] == "error").sum()) if len(diags) else 0,
        "warnings": int((diags["severity"] == "warning").sum()) if len(diags) else 0,
        "plies": int(games["plies"].sum()),
    },
}))
"#;

#[test]
#[ignore = "needs DuckDB and pandas (PyPI): scripts/at_scale.sh installs them and runs it"]
fn duckdb_and_pandas_queries_match_pgnkits_summary() {
    require(
        "python3 with duckdb and pandas",
        python_has("duckdb, pandas"),
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let files = inputs();
    let args: Vec<&str> = ["--format", "json", "--games", "--quiet"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = check(&args);
    assert!(out.code <= 1);
    let path = tmp.path().join("check.ndjson");
    std::fs::write(&path, &out.stdout).expect("write");
    let q = run(Command::new("python3")
        .args(["-c", QUERIES])
        .arg(&path)
        .env("PYTHONWARNINGS", "ignore"));
    assert_eq!(q.code, 0, "the queries failed");
    let got: serde_json::Value = serde_json::from_str(q.stdout.trim()).expect("query JSON");

    // What pgnkit says, from its own summary and its game records.
    let records = json_lines(&out.stdout);
    let s = summary(&out.stdout);
    let mut by_status = std::collections::BTreeMap::<String, (u64, u64)>::new();
    let mut codes = std::collections::BTreeMap::<String, u64>::new();
    for r in &records {
        if r["type"] == "game" {
            let e = by_status
                .entry(r["status"].as_str().unwrap_or_default().to_owned())
                .or_default();
            e.0 += 1;
            e.1 += r["plies"].as_u64().unwrap_or(0);
        } else if r["type"] == "diagnostic" {
            *codes
                .entry(r["code"].as_str().unwrap_or_default().to_owned())
                .or_default() += 1;
        }
    }
    assert!(
        by_status.len() >= 2,
        "the inputs give several statuses: {by_status:?}"
    );
    assert!(s["errors"].as_u64() > Some(0), "the inputs have errors");
    for engine in ["duckdb", "pandas"] {
        let g = &got[engine];
        for c in ["games", "games_with_errors", "errors", "warnings", "plies"] {
            assert_eq!(g[c], s[c], "{engine}: {c}");
        }
        for (status, (games, plies)) in &by_status {
            match engine {
                "duckdb" => {
                    assert_eq!(g["by_status"][status]["games"], *games, "{status}");
                    assert_eq!(g["by_status"][status]["plies"], *plies, "{status}");
                }
                _ => assert_eq!(g["by_status"][status], *games, "{engine} {status}"),
            }
        }
        let statuses = g["by_status"].as_object().map_or(0, |o| o.len());
        assert_eq!(statuses, by_status.len(), "{engine}");
    }
    for (code, n) in &codes {
        assert_eq!(got["duckdb"]["codes"][code], *n, "{code}");
    }
}

#[test]
#[ignore = "slow, needs PySpark and Java: scripts/at_scale.sh installs PySpark and runs it"]
fn spark_totals_equal_a_single_check() {
    require("python3 with pyspark", python_has("pyspark"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/spark_check.py");
    let tmp = tempfile::tempdir().expect("temp dir");
    let report = tmp.path().join("spark.json");
    let mut files = inputs();
    // A compressed file goes to Spark whole (it cannot be sharded).
    files.push(fixtures().join("test.pgn.zst").display().to_string());
    let out = run(Command::new("python3")
        .arg(&script)
        .arg("--pgnkit")
        .arg(pgnkit_path())
        .args(["--shards", "4", "--mode", "both", "--verify", "--json"])
        .arg(&report)
        .args(&files)
        .env("PYTHONWARNINGS", "ignore"));
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    assert_eq!(out.code, 0, "spark_check.py: {}{text}", out.stdout);
    let v: serde_json::Value = serde_json::from_str(&text).expect("report JSON");
    for mode in ["partitions", "pipe"] {
        let r = &v["runs"][mode];
        assert_eq!(r["verified"], true, "{mode}: {}", r["problems"]);
        for c in COUNTS {
            assert_eq!(r["from_summaries"][c], v["single_run"][c], "{mode} {c}");
        }
        assert!(r["from_records"]["games"].as_u64() > Some(200));
    }
}
