#!/usr/bin/env python3
"""Run `pgnkit check` under Apache Spark, over shards of PGN files, and
collect its NDJSON into a DataFrame.

Every Spark task runs one `pgnkit check --shard K/N --format json --games`
process (uncompressed files) or one whole-file run (compressed files, which
cannot be cut), so the same job runs on a laptop (`--master local[2]`) or on
a cluster (`--master yarn`, `spark://...`, with pgnkit and the files on every
worker, e.g. on a shared file system).

Two ways to drive the processes, both standard Spark:
  partitions  RDD.mapPartitions with subprocess (default)
  pipe        RDD.pipe: each task pipes its "K/N<TAB>FILE" lines through a
              shell loop that runs pgnkit

The records become one DataFrame (spark.read.json over the RDD of lines);
the totals come from it twice: from the per-game and per-diagnostic records
(DataFrame aggregations) and from the shards' summary records.

With --verify, a single `pgnkit check` over the same files is run too and the
Spark totals must equal its summary (exit status 1 otherwise).

usage: spark_check.py [--pgnkit PATH] [--shards N] [--mode partitions|pipe]
                      [--master URL] [--verify] [--json OUT] FILE...
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import time

COUNTS = ["games", "games_with_errors", "errors", "warnings", "plies", "bytes"]
MAGIC = (b"\x28\xb5\x2f\xfd", b"\x1f\x8b", b"BZh")


def is_compressed(path):
    with open(path, "rb") as f:
        return f.read(4).startswith(MAGIC)


def tasks_for(files, shards):
    """One (shard, file) task per shard of each uncompressed file, one
    whole-file task (shard None) per compressed file."""
    tasks = []
    for path in files:
        if is_compressed(path) or shards <= 1:
            tasks.append((None, path))
        else:
            tasks.extend((f"{k}/{shards}", path) for k in range(1, shards + 1))
    return tasks


def pgnkit_command(pgnkit, shard, path):
    cmd = [pgnkit, "check", "--format", "json", "--games", "--quiet", "-j1"]
    if shard:
        cmd += ["--shard", shard]
    return cmd + [path]


def run_partition(pgnkit):
    """The mapPartitions function: runs pgnkit for every task of the
    partition and yields its NDJSON lines."""

    def run(tasks):
        for shard, path in tasks:
            proc = subprocess.run(
                pgnkit_command(pgnkit, shard, path),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                check=False,
            )
            # 0: no problems, 1: problems found in the games; 2: failure.
            if proc.returncode not in (0, 1):
                raise RuntimeError(
                    f"pgnkit failed on {path} shard {shard}: exit {proc.returncode}: "
                    + proc.stderr.decode(errors="replace")
                )
            yield from proc.stdout.decode("utf-8", errors="replace").splitlines()

    return run


def pipe_command(pgnkit):
    """The RDD.pipe command: reads "K/N<TAB>FILE" lines on standard input."""
    p = shlex.quote(pgnkit)
    return (
        "sh -c 'while IFS=\"\t\" read -r shard file; do "
        f"if [ \"$shard\" = - ]; then {p} check --format json --games --quiet -j1 \"$file\"; "
        f"else {p} check --format json --games --quiet -j1 --shard \"$shard\" \"$file\"; fi; "
        "[ $? -le 1 ] || exit 2; done'"
    )


def spark_totals(spark, pgnkit, files, shards, mode):
    sc = spark.sparkContext
    tasks = tasks_for(files, shards)
    rdd = sc.parallelize(tasks, len(tasks))
    if mode == "pipe":
        lines = rdd.map(lambda t: f"{t[0] or '-'}\t{t[1]}").pipe(pipe_command(pgnkit))
    else:
        lines = rdd.mapPartitions(run_partition(pgnkit))
    lines = lines.filter(lambda l: l.strip() != "").cache()
    df = spark.read.json(lines)
    df.createOrReplaceTempView("pgnkit")

    from pyspark.sql import functions as F

    by_type = {r["type"]: r["n"] for r in df.groupBy("type").agg(F.count("*").alias("n")).collect()}
    failures = by_type.get("error", 0)
    games = df.filter(F.col("type") == "game")
    g = games.agg(
        F.count("*").alias("games"),
        F.sum(F.when(F.col("errors") > 0, 1).otherwise(0)).alias("games_with_errors"),
        F.sum("plies").alias("plies"),
        F.sum("errors").alias("errors"),
        F.sum("warnings").alias("warnings"),
    ).collect()[0]
    diagnostics = {}
    if "severity" in df.columns:
        diagnostics = {
            r["severity"]: r["n"]
            for r in df.filter(F.col("type") == "diagnostic")
            .groupBy("severity")
            .agg(F.count("*").alias("n"))
            .collect()
        }
    s = (
        df.filter(F.col("type") == "summary")
        .agg(*[F.sum(c).alias(c) for c in COUNTS], F.max("seconds").alias("seconds"))
        .collect()[0]
    )
    status = {
        r["status"]: r["n"]
        for r in games.groupBy("status").agg(F.count("*").alias("n")).collect()
    }
    return {
        "tasks": len(tasks),
        "records": lines.count(),
        "failures": failures,
        "from_records": {
            "games": g["games"] or 0,
            "games_with_errors": g["games_with_errors"] or 0,
            "errors": diagnostics.get("error", 0),
            "warnings": diagnostics.get("warning", 0),
            "plies": g["plies"] or 0,
            "errors_in_game_records": g["errors"] or 0,
            "warnings_in_game_records": g["warnings"] or 0,
        },
        "from_summaries": {c: s[c] or 0 for c in COUNTS},
        "status": dict(sorted(status.items())),
        "slowest_task_seconds": s["seconds"],
    }


def single_run(pgnkit, files):
    proc = subprocess.run(
        [pgnkit, "check", "--format", "json", "--games", "--quiet", *files],
        stdout=subprocess.PIPE,
        check=False,
    )
    records = [json.loads(l) for l in proc.stdout.decode().splitlines() if l.strip()]
    summary = [r for r in records if r["type"] == "summary"][-1]
    status = {}
    for r in records:
        if r["type"] == "game":
            status[r["status"]] = status.get(r["status"], 0) + 1
    return summary, dict(sorted(status.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--pgnkit", default=os.environ.get("PGNKIT", "pgnkit"))
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--mode", choices=["partitions", "pipe", "both"], default="partitions")
    ap.add_argument("--master", default=os.environ.get("SPARK_MASTER", "local[2]"))
    ap.add_argument("--verify", action="store_true", help="compare with one pgnkit check run")
    ap.add_argument("--json", help="write the report here too")
    args = ap.parse_args()
    pgnkit = os.path.abspath(args.pgnkit) if os.sep in args.pgnkit else args.pgnkit
    files = [os.path.abspath(f) for f in args.files]

    from pyspark.sql import SparkSession

    started = time.time()
    spark = (
        SparkSession.builder.master(args.master)
        .appName("pgnkit-check")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    report = {"master": args.master, "shards": args.shards, "files": len(files), "runs": {}}
    try:
        modes = ["partitions", "pipe"] if args.mode == "both" else [args.mode]
        for mode in modes:
            t = time.time()
            report["runs"][mode] = spark_totals(spark, pgnkit, files, args.shards, mode)
            report["runs"][mode]["seconds"] = round(time.time() - t, 2)
    finally:
        spark.stop()
    report["seconds"] = round(time.time() - started, 2)

    ok = True
    if args.verify:
        summary, status = single_run(pgnkit, files)
        report["single_run"] = {c: summary[c] for c in COUNTS}
        for mode, run in report["runs"].items():
            problems = []
            for c in COUNTS:
                if run["from_summaries"][c] != summary[c]:
                    problems.append(f"summaries {c}: {run['from_summaries'][c]} != {summary[c]}")
            for c in ["games", "games_with_errors", "errors", "warnings", "plies"]:
                if run["from_records"][c] != summary[c]:
                    problems.append(f"records {c}: {run['from_records'][c]} != {summary[c]}")
            if run["status"] != status:
                problems.append(f"status {run['status']} != {status}")
            if run["failures"]:
                problems.append(f"{run['failures']} error records")
            run["verified"] = not problems
            run["problems"] = problems
            ok = ok and not problems

    text = json.dumps(report, indent=2, sort_keys=True)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
