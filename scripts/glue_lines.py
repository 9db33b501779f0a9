#!/usr/bin/env python3
"""Count the lines of cli/src that are glue, not flag definitions.

    python3 scripts/glue_lines.py [cli/src]

A flag definition is an item (struct or enum) carrying a clap derive
(`Parser`, `Args`, `Subcommand`, `ValueEnum`), with its doc comments and
attributes: those lines are the command line's help text. Everything else
counts, comments and blank lines included. Prints each file's total and
glue lines, the sums, and exits 1 when the glue is 3,500 lines or more or a
file is over 600 lines (issue 15's limits).
"""
import pathlib
import re
import sys

CLAP = re.compile(r"#\[derive\([^)]*\b(Parser|Args|Subcommand|ValueEnum)\b")


def flag_lines(lines):
    """The indexes of lines inside clap-derived items, their docs and attributes."""
    flags = set()
    i = 0
    while i < len(lines):
        if CLAP.search(lines[i]):
            # Walk back over the doc comments and attributes above the derive.
            start = i
            while start > 0 and lines[start - 1].lstrip().startswith(("///", "#[")):
                start -= 1
            # Walk forward to the end of the item: braces balance again.
            depth, j, opened = 0, i, False
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                opened = opened or "{" in lines[j]
                if opened and depth <= 0:
                    break
                if not opened and lines[j].rstrip().endswith(";"):
                    break
                j += 1
            flags.update(range(start, j + 1))
            i = j + 1
        else:
            i += 1
    return flags


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "cli/src")
    total = glue = 0
    over = []
    for path in sorted(root.rglob("*.rs")):
        lines = path.read_text(encoding="utf-8").splitlines()
        g = len(lines) - len(flag_lines(lines))
        total += len(lines)
        glue += g
        print(f"{len(lines):6} {g:6}  {path}")
        if len(lines) > 600:
            over.append(path)
    print(f"{total:6} {glue:6}  total (all lines, glue lines)")
    ok = glue < 3500 and not over
    for p in over:
        print(f"over 600 lines: {p}")
    print("within the limits" if ok else "over the limits: glue must be under 3,500 lines")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
