#!/usr/bin/env python3
"""Files concatenated with `cat`, each starting with a UTF-8 byte order mark
(as files saved on Windows do), must check exactly like the files one by one:
the same number of games and the same errors and warnings, code by code.

usage: bom_concat_check.py PGNKIT CORPUS_DIR

Every .pgn file of the corpus (but the benchmark input) gets a byte order
mark at its start when it has none and a line break at its end when it has
none (as an editor saves it); the files are concatenated in order, in groups
of 20, and each group is checked whole and file by file with
`pgnkit check --format json`. Exits 1 on any difference, listing it.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

BOM = b"\xef\xbb\xbf"
GROUP = 20


def check(pgnkit, path):
    out = subprocess.run([pgnkit, "check", "--format", "json", "-j2", path],
                         capture_output=True)
    if out.returncode not in (0, 1):
        raise SystemExit(f"pgnkit check {path} exited {out.returncode}: {out.stderr.decode()}")
    codes = collections.Counter()
    summary = None
    for line in out.stdout.decode("utf-8", "replace").splitlines():
        r = json.loads(line)
        if r["type"] == "diagnostic":
            codes[(r["severity"], r["code"])] += 1
        elif r["type"] == "omitted":
            codes[("omitted-error", "*")] += r["errors"]
            codes[("omitted-warning", "*")] += r["warnings"]
        elif r["type"] == "summary":
            summary = r
    return summary["games"], codes


def main():
    pgnkit, corpus = sys.argv[1], sys.argv[2]
    files = sorted(
        os.path.join(root, f)
        for root, _, names in os.walk(corpus)
        for f in names
        if f.lower().endswith(".pgn") and "bench" not in os.path.relpath(root, corpus).split(os.sep)
    )
    failures = 0
    total_games = 0
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(0, len(files), GROUP):
            group = files[g:g + GROUP]
            whole = os.path.join(tmp, f"group{g // GROUP}.pgn")
            games, codes = 0, collections.Counter()
            with open(whole, "wb") as out:
                for i, f in enumerate(group):
                    data = open(f, "rb").read()
                    if not data.startswith(BOM):
                        data = BOM + data
                    if not data.endswith((b"\n", b"\r")):
                        data += b"\n"
                    one = os.path.join(tmp, f"one{i}.pgn")
                    open(one, "wb").write(data)
                    n, c = check(pgnkit, one)
                    games += n
                    codes += c
                    out.write(data)
            n, c = check(pgnkit, whole)
            total_games += n
            if n != games or c != codes:
                failures += 1
                print(f"FAIL: files {g + 1}-{g + len(group)} concatenated: {n} games, "
                      f"the files one by one: {games}")
                for key in sorted(set(c) | set(codes)):
                    if c[key] != codes[key]:
                        print(f"  {key[0]} {key[1]}: {c[key]} concatenated, {codes[key]} separately")
    print(f"bom_concat_check: {len(files)} files in {(len(files) + GROUP - 1) // GROUP} "
          f"concatenations, {total_games} games, {failures} concatenations differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
