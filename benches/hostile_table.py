#!/usr/bin/env python3
"""The hostile-input table of benches/README.md from the rows `benches/hostile.sh` prints.

    benches/hostile.sh > rows.txt && python3 benches/hostile_table.py rows.txt

One line per class: CPU seconds and peak memory of `check -j1`, `check --fix`,
the worst of `convert` to the five PGN notations, the worst of `convert` to
JSON, `index` and `diff`. A cell over the goal (2 s or 100 MB) is in bold.
"""
import sys
from collections import defaultdict

def main(path):
    runs = defaultdict(dict)
    for line in open(path, encoding="utf-8"):
        parts = line.split()
        if len(parts) < 5 or parts[0] in ("class", "runs"):
            continue
        cls = parts[0]
        # command words, then status, cpu, rss (and maybe OVER)
        tail = parts[-4:] if parts[-1] == "OVER" else parts[-3:] + [""]
        status, cpu, rss = tail[0], float(tail[1]), float(tail[2])
        command = " ".join(parts[1 : len(parts) - (4 if parts[-1] == "OVER" else 3)])
        runs[cls][command] = (status, cpu, rss)

    def cell(entries):
        if not entries:
            return ""
        cpu = max(e[1] for e in entries)
        rss = max(e[2] for e in entries)
        text = f"{cpu:.2f} s, {rss:.0f} MB"
        return f"**{text}**" if cpu >= 2 or rss >= 100 else text

    columns = [
        ("check -j1", lambda c: c == "check -j1"),
        ("check --fix", lambda c: c == "check --fix"),
        ("convert, PGN (worst of 5)", lambda c: c.startswith("convert --to") and "json" not in c),
        ("convert, JSON (worst of 2)", lambda c: "json" in c),
        ("index", lambda c: c == "index"),
        ("diff", lambda c: c == "diff"),
    ]
    print("| class (10 MB) | " + " | ".join(name for name, _ in columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for cls in sorted(runs):
        cells = [cell([v for c, v in runs[cls].items() if match(c)]) for _, match in columns]
        print(f"| {cls} | " + " | ".join(cells) + " |")

if __name__ == "__main__":
    main(sys.argv[1])
