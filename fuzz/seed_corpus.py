#!/usr/bin/env python3
"""Fills fuzz/corpus/<target>/ with seed inputs cut from testdata/.

usage: python3 fuzz/seed_corpus.py [TARGET...]   (default: every target)

The corpus is git-ignored: seeds are made again from testdata/ on every
machine (fuzz/run.sh calls this). Each PGN file of testdata/ gives pieces
of at most MAX_SEED bytes cut at `[Event` lines (whole games), so that the
fuzzer starts from real games without slow megabyte inputs; each target's
seeds carry the leading bytes that target reads as options.
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "testdata")
MAX_SEED = 6 << 10  # bytes of PGN per seed
MAX_PER_FILE = 4  # seeds per testdata file
TARGETS = ["check", "convert", "repair", "index", "inputs", "read_token"]


def pgn_pieces():
    """Up to MAX_PER_FILE pieces of whole games (at most MAX_SEED bytes) per file."""
    for root, _, files in sorted(os.walk(TESTDATA)):
        for name in sorted(files):
            if not name.endswith(".pgn"):
                continue
            with open(os.path.join(root, name), "rb") as f:
                data = f.read()
            starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", data)] or [0]
            if starts[0] != 0:
                starts.insert(0, 0)
            starts.append(len(data))
            pieces, i = [], 0
            while i < len(starts) - 1 and len(pieces) < MAX_PER_FILE:
                j = i + 1
                while j < len(starts) - 1 and starts[j + 1] - starts[i] <= MAX_SEED:
                    j += 1
                pieces.append(data[starts[i] : starts[j]][:MAX_SEED])
                i = j
            yield from pieces


def write(target, seed):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(seed).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(seed)


def main(targets):
    pieces = list(pgn_pieces())
    for target in targets:
        if target == "check":
            for p in pieces:
                write(target, p)
        elif target == "convert":
            # byte 0: notation (bits 0-2), JSON (bit 3), language (bits 4-7)
            for k, p in enumerate(pieces):
                write(target, bytes([(k * 37) % 256]) + p)
        elif target == "inputs":
            # byte 0 % 7: raw, magic + bytes (zstd, gzip, bzip2), compressed; >> 3: chunk size
            for k, p in enumerate(pieces):
                write(target, bytes([(k % 7) | ((k * 5 % 14) << 3)]) + p[:2048])
        elif target == "repair":
            # byte 0: base game and language; then edits (op, word, value)
            for k in range(32):
                edits = bytes((k * 31 + i * 17) % 256 for i in range(3 * (1 + k % 4)))
                write(target, bytes([k]) + edits)
        elif target == "index":
            # byte 0: flags (cut, fix checksums, raw file); then edits
            for k in range(16):
                flags = k % 8
                body = bytes((k * 53 + i * 29) % 256 for i in range(3 * (1 + k % 5)))
                write(target, bytes([flags]) + body)
        elif target == "read_token":
            seeds = os.path.join(HERE, "seeds")
            for name in sorted(os.listdir(seeds)):
                with open(os.path.join(seeds, name), "rb") as f:
                    write(target, f.read())
        else:
            sys.exit(f"unknown target {target}; one of {' '.join(TARGETS)}")


if __name__ == "__main__":
    main(sys.argv[1:] or TARGETS)
