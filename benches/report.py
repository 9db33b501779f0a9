#!/usr/bin/env python3
"""Turn one benches/run.sh run into benches/RESULTS.md (markdown on stdout).

Inputs (all written by run.sh): hyperfine's --export-json, the command table
(name, group, input, plain-validator reference, pgn-extract reference,
command), peak RSS per command, the SKIPPED lines, and input sizes.

Throughput is input bytes / median wall time (MB = 10^6 bytes). Ratios are
throughput ratios ("x faster"), so python-chess, timed on the 20 MB prefix,
is compared per MB with tools timed on the big input.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def nproc():
    try:
        return subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(os.cpu_count())


def fmt(value, digits=1):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def ratio(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}x"
    return f"{value:.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hyperfine", required=True)
    ap.add_argument("--commands", required=True)
    ap.add_argument("--rss", required=True)
    ap.add_argument("--skipped", required=True)
    ap.add_argument("--big-bytes", type=int, required=True)
    ap.add_argument("--big-games", type=int, required=True)
    ap.add_argument("--small-bytes", type=int, required=True)
    ap.add_argument("--small-games", type=int, required=True)
    ap.add_argument("--zst-bytes", type=int, default=0)
    ap.add_argument("--size", default="?")
    ap.add_argument("--runs", default="?")
    ap.add_argument("--fen", default="")
    ap.add_argument("--versions", default="")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--load-before", default="", help="/proc/loadavg when the run started")
    args = ap.parse_args()

    with open(args.hyperfine, encoding="utf-8") as handle:
        timing = {r["command"]: r for r in json.load(handle)["results"]}
    rows = []
    with open(args.commands, encoding="utf-8") as handle:
        for line in handle:
            name, group, source, plain_ref, extract_ref, command = line.rstrip("\n").split("\t", 5)
            rows.append(dict(name=name, group=group, input=source, plain=plain_ref,
                             extract=extract_ref, command=command))
    rss = {}
    with open(args.rss, encoding="utf-8") as handle:
        for line in handle:
            name, kb = line.rstrip("\n").split("\t")
            rss[name] = int(kb or 0)
    with open(args.skipped, encoding="utf-8") as handle:
        skipped = [line.strip() for line in handle if line.strip()]

    # The compressed row reads the .zst file but checks the same games: its
    # throughput is counted in uncompressed bytes, like the others.
    sizes = {"big": (args.big_bytes, args.big_games), "zst": (args.big_bytes, args.big_games),
             "small": (args.small_bytes, args.small_games)}
    speed = {}  # name -> (MB/s, games/s, seconds)
    for row in rows:
        result = timing.get(row["name"])
        if result is None:
            continue
        seconds = result["median"]
        nbytes, games = sizes[row["input"]]
        speed[row["name"]] = (nbytes / seconds / 1e6, games / seconds, seconds)

    def faster(name, ref):
        """Throughput of `name` over that of `ref` (None if either is missing)."""
        if name in speed and ref in speed:
            return speed[name][0] / speed[ref][0]
        return None

    out = []
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out.append("# pgnkit benchmark results\n")
    out.append(f"Written by `benches/run.sh` on {now} at commit `{args.commit}`.\n")
    out.append(f"- Machine: {nproc()} cores (`nproc`), {cpu_model()}, {platform.system()} {platform.release()}")
    out.append(f"- Input: `make_big.sh {args.size}` of `real.pgn`: {args.big_bytes / 1e6:,.1f} MB, "
               f"{args.big_games:,} games; python-chess on the 20 MB prefix: {args.small_bytes / 1e6:,.1f} MB, "
               f"{args.small_games:,} games" + (f"; zstd copy {args.zst_bytes / 1e6:,.1f} MB" if args.zst_bytes else ""))
    out.append(f"- Timing: hyperfine, 1 warm-up + {args.runs} runs, median; files in the page cache. "
               "Peak RSS: `/usr/bin/time -f %M`, one separate run.")
    try:
        with open("/proc/loadavg", encoding="utf-8") as handle:
            load_after = " ".join(handle.read().split()[:3])
    except OSError:
        load_after = "unknown"
    out.append(f"- Load average (1/5/15 min) at start: {args.load_before or 'unknown'}; at the end: {load_after}"
               " (on a machine shared with other jobs, a load above the core count means every figure is"
               " slowed and the thread scaling is not measured)")
    if args.versions:
        out.append(f"- Peers: {args.versions}")
    if args.fen:
        out.append(f"- FEN searched: `{args.fen}`")
    out.append("- Ratios are throughput ratios per MB (\"x faster\"); the plain-validator reference is the "
               "1-thread validator for check rows and the 1-thread converter of the same notation for convert rows; "
               "the pgn-extract reference is `-s` for check rows, `-Wxlalg`/`-Wuci` for convert rows, "
               "`-Tp`/`-Tf` for search rows.\n")

    out.append("| tool | group | MB/s | games/s | median s | peak RSS | vs plain validator | vs pgn-extract |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        name = row["name"]
        if name not in speed:
            continue
        mbs, gps, seconds = speed[name]
        kb = rss.get(name)
        mem = f"{kb / 1024:,.1f} MB" if kb else "—"
        vs_plain = faster(name, row["plain"]) if row["plain"] != "-" else None
        vs_extract = faster(name, row["extract"])
        out.append(f"| `{name}` | {row['group']} | {fmt(mbs)} | {fmt(gps, 0)} | {seconds:.3f} | {mem} | "
                   f"{ratio(vs_plain)} | {ratio(vs_extract)} |")
    out.append("")

    # Goals from the issues.
    def seconds_of(name):
        return speed[name][2] if name in speed else None

    goals = []

    def goal(text, value, ok, shown):
        if value is None:
            goals.append(f"| {text} | n/a (not measured) | ✗ |")
        else:
            goals.append(f"| {text} | {shown} | {'✓' if ok else '✗'} |")

    v1 = "plain-validator 1 thread"
    c1, c2 = "pgnkit check -j1", "pgnkit check -j2"
    r = faster(c1, v1)
    goal("check, 1 thread, no slower than the plain validator (1 thread)", r, r is not None and r >= 1.0,
         f"{ratio(r)} its speed")
    t2, tv = seconds_of(c2), seconds_of(v1)
    r = t2 / tv if t2 is not None and tv is not None else None
    goal("check, 2 threads, ≤ 0.55x the plain validator's 1-thread time", r, r is not None and r <= 0.55,
         f"{r:.2f}x the time" if r is not None else "")
    r = faster(c2, "pgn-extract -s")
    goal("check, all threads (-j2), ≥ 18x faster than `pgn-extract -s`", r, r is not None and r >= 18,
         ratio(r))
    r = faster(c2, "python-chess read_game (20 MB)")
    goal("check, all threads (-j2), ≥ 150x faster than python-chess (per MB)", r, r is not None and r >= 150,
         ratio(r))
    r = faster("pgnkit convert --to lan -j1", "pgn-extract -Wxlalg")
    goal("convert --to lan, 1 thread, ≥ 10x faster than `pgn-extract -Wxlalg`", r, r is not None and r >= 10,
         ratio(r))
    r = faster("pgnkit convert --to uci -j1", "pgn-extract -Wuci")
    goal("convert --to uci, 1 thread, ≥ 10x faster than `pgn-extract -Wuci`", r, r is not None and r >= 10,
         ratio(r))
    ti = seconds_of("pgnkit index (build)")
    r = t2 / ti if ti is not None and t2 is not None else None
    goal("index build (all threads) ≥ half the speed of check (-j2)", r, r is not None and r >= 0.5,
         f"{r:.2f}x check's speed" if r is not None else "")
    for name in ("pgnkit search --player Carlsen --count", "pgnkit search --fen --count"):
        ts = seconds_of(name)
        r = ts / t2 if ts is not None and t2 is not None else None
        goal(f"`{name.removeprefix('pgnkit ')}` < 1% of a full check (-j2)", r, r is not None and r < 0.01,
             f"{100 * r:.2f}% ({ts:.3f} s)" if r is not None else "")

    out.append("## Goals\n")
    out.append("| goal | measured | met |")
    out.append("|---|---:|:---:|")
    out.extend(goals)
    out.append("")

    informative = []
    r = faster("pgnkit check -j2 big.pgn.zst", c2)
    if r is not None:
        informative.append(f"- Compressed input: `check -j2` on the zstd copy runs at {ratio(r)} the speed of "
                           "the plain file (throughput in uncompressed bytes).")
    r = faster(c1, "pgn-extract -s")
    if r is not None:
        informative.append(f"- check -j1 vs `pgn-extract -s`: {ratio(r)}.")
    r = faster(c1, "python-chess read_game (20 MB)")
    if r is not None:
        informative.append(f"- check -j1 vs python-chess: {ratio(r)}.")
    r = faster("plain-validator 2 threads", v1)
    if r is not None:
        informative.append(f"- plain validator, 2 threads vs 1: {ratio(r)}.")
    if informative:
        out.append("## Other figures\n")
        out.extend(informative)
        out.append("")

    out.append("## Skipped\n")
    if skipped:
        out.extend(f"- SKIPPED: {line}" for line in skipped)
    else:
        out.append("Nothing was skipped.")
    out.append("")

    out.append("## Commands\n")
    out.append("```")
    for row in rows:
        out.append(f"{row['name']}: {row['command']}")
    out.append("```")
    print("\n".join(out))


if __name__ == "__main__":
    main()
