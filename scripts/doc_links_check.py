#!/usr/bin/env python3
"""Checks the relative links of the user and contributor documents.

    python3 scripts/doc_links_check.py [FILE.md ...]

Without arguments it checks README.md, CHANGELOG.md, docs/*.md and
benches/README.md. Every link `[text](target)` (and image) outside code is
followed: a relative target must name a file or directory of the repository
(never one outside it, such as ../shared), and a `#anchor` must be a heading
of the Markdown file it points to (GitHub's anchors: lower case, punctuation
dropped, spaces as hyphens, `-1`, `-2` … for repeated headings) or an
explicit `<a id="…">`. Links with a scheme (https:, mailto:) are not
followed. Prints each broken link as FILE:LINE: TARGET: why, and exits 1 when
there is one, 0 otherwise.
"""

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["README.md", "CHANGELOG.md", "docs/*.md", "benches/README.md"]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def without_code(text):
    """The text with fenced blocks and code spans blanked (same offsets)."""
    lines = text.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            lines[i] = ""
        elif fenced:
            lines[i] = ""
    text = "\n".join(lines)
    return CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), text)


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.replace("`", "").replace("*", "").lower()
    kept = []
    for ch in text:
        if ch.isalnum() or ch in "-_ " or unicodedata.category(ch).startswith("M"):
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a Markdown file."""
    if path not in cache:
        found = set()
        seen = {}
        fenced = False
        for line in path.read_text(encoding="utf-8").split("\n"):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(EXPLICIT.findall(line))
        cache[path] = found
    return cache[path]


def problems(doc):
    """(line, target, why) for each broken link of `doc`."""
    text = doc.read_text(encoding="utf-8")
    plain = without_code(text)
    for m in LINK.finditer(plain):
        target = m.group(1)
        line = plain.count("\n", 0, m.start()) + 1
        if SCHEME.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (doc.parent / path_part).resolve() if path_part else doc.resolve()
        try:
            dest.relative_to(ROOT)
        except ValueError:
            yield line, target, "points outside the repository"
            continue
        if not dest.exists():
            yield line, target, "no such file or directory"
            continue
        if anchor:
            if dest.suffix.lower() != ".md" or dest.is_dir():
                yield line, target, "an anchor into a file that is not Markdown"
            elif anchor not in anchors(dest):
                yield line, target, f"no heading `#{anchor}` in {dest.relative_to(ROOT)}"


def main(args):
    patterns = args or DEFAULT
    docs = []
    for pattern in patterns:
        matched = sorted(ROOT.glob(pattern)) if not Path(pattern).is_absolute() else [Path(pattern)]
        if not matched:
            print(f"{pattern}: no such file", file=sys.stderr)
            return 1
        docs.extend(matched)
    broken = 0
    links = 0
    for doc in docs:
        links += sum(1 for _ in LINK.finditer(without_code(doc.read_text(encoding="utf-8"))))
        for line, target, why in problems(doc):
            broken += 1
            print(f"{doc.relative_to(ROOT)}:{line}: {target}: {why}")
    print(f"{len(docs)} documents, {links} links, {broken} broken", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
