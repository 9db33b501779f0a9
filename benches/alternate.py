#!/usr/bin/env python3
"""Wall and CPU time of commands run alternately, in milliseconds.

usage: benches/alternate.py ROUNDS LABEL=COMMAND [LABEL=COMMAND ...] [--ratio A/B ...]

Each round runs every command once, in the order given (standard output
and error discarded), so that a change in the machine's load falls on all
of them alike. Prints the load average before and after, then per command
the median wall time with its range and the median CPU time (user +
system, of the command and its threads) with its range. Unlike
benches/ratios.sh (/usr/bin/time, 10 ms steps), it times short runs too:
an 8 MB file, a 100 KB file.

    benches/alternate.py 25 "check=target/release/pgnkit check -j1 /tmp/8mb.pgn" \\
        "plain=target/release/plain-validator /tmp/8mb.pgn" --ratio check/plain

`--ratio A/B` prints, besides, the ratio of A's wall time to B's within
each round: their median and range, and the median of the ratios in the
third of the rounds where A and B together took least time. On a machine
whose speed drifts during the run (a shared host), the per-round ratio
moves less than the ratio of the medians: the two commands of a round
run seconds apart, under nearly the same load.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    args = sys.argv[2:]
    ratios = [args[i + 1].split("/", 1) for i, a in enumerate(args) if a == "--ratio"]
    args = [a for i, a in enumerate(args) if a != "--ratio" and (i == 0 or args[i - 1] != "--ratio")]
    commands = [arg.split("=", 1) for arg in args]
    times = {label: ([], []) for label, _ in commands}
    load_before = open("/proc/loadavg").read().split()[:3]
    for _ in range(rounds):
        for label, command in commands:
            start = time.perf_counter()
            child = subprocess.Popen(
                shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            _, _, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
            times[label][0].append(wall * 1000)
            times[label][1].append((usage.ru_utime + usage.ru_stime) * 1000)
    load_after = open("/proc/loadavg").read().split()[:3]
    print(f"{rounds} rounds; load average before {' '.join(load_before)}, after {' '.join(load_after)}")
    for label, (wall, cpu) in times.items():
        print(
            f"{label:>16}: wall {statistics.median(wall):9.2f} ms ({min(wall):.2f}-{max(wall):.2f})"
            f"  cpu {statistics.median(cpu):9.2f} ms ({min(cpu):.2f}-{max(cpu):.2f})"
        )
    for a, b in ratios:
        if a not in times or b not in times:
            sys.exit(f"--ratio {a}/{b}: no command labelled so")
        pairs = list(zip(times[a][0], times[b][0]))
        per_round = [x / y for x, y in pairs]
        quiet = sorted(pairs, key=lambda p: p[0] + p[1])[: max(1, len(pairs) // 3)]
        print(
            f"{a + '/' + b:>16}: per-round ratio median {statistics.median(per_round):.3f}"
            f" ({min(per_round):.3f}-{max(per_round):.3f}),"
            f" quietest third {statistics.median(x / y for x, y in quiet):.3f};"
            f" ratio of medians {statistics.median(times[a][0]) / statistics.median(times[b][0]):.3f}"
        )


if __name__ == "__main__":
    main()
