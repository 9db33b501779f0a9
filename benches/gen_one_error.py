#!/usr/bin/env python3
"""Short games with one error each, for measuring `pgnkit check`'s memory
per diagnostic (benches/check_memory.sh).

usage: benches/gen_one_error.py [--games N | --size SIZE] [--short] [--warnings]
                                [--seed S] [-o FILE]

Each game has a few tags and a short opening line, and exactly one error,
taken in turn from four kinds:

- an illegal move (`Ke3` where the king cannot go; suggestions searched),
- an ambiguous move (`Ng5` with knights on e4 and f3),
- a Result tag that the termination marker contradicts (`1-0` and `0-1`),
- a word that is no move (`zz`).

With --warnings, each game has instead a check mark on each of its 60
moves where none gives check: 60 warnings a game, no error, about 470
bytes a game.

The players and events are numbered, so no two games are alike. SIZE
takes a K, M or G suffix (powers of 1024): games are written until the
output reaches it. Standard output unless -o. Deterministic for a seed.
"""

import argparse
import random
import sys

# (movetext, marker, Result tag): each has exactly one error.
KINDS = [
    # Illegal: the king on e1 cannot reach e3.
    ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke3 Nf6", "*", "*"),
    # Ambiguous: knights on e4 and f3 both reach g5.
    ("1. Nc3 a6 2. Ne4 a5 3. Nf3 a4 4. Ng5 h6", "*", "*"),
    # Result tag against the marker: the moves are legal.
    ("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7", "0-1", "1-0"),
    # A word that is no move.
    ("1. e4 c5 2. Nf3 zz d6 3. d4 cxd4 4. Nxd4 Nf6", "*", "*"),
]


def parse_size(text):
    """Bytes from `10M`, `1G`, `512K` or a plain number."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


# Knights out and back, each move marked as check: a warning a move.
WARNINGS = " ".join(
    (f"{ply // 2 + 1}. {m}+" if ply % 2 == 0 else f"{m}+")
    for ply, m in enumerate(["Nf3", "Nf6", "Ng1", "Ng8"] * 15)
)


def game(k, rng, short, warnings=False):
    """The text of game `k` (0-based), with its error of kind k mod 4;
    `short`: the players and the result only (about 110 bytes a game);
    `warnings`: a warning at every move instead."""
    moves, marker, result = KINDS[k % len(KINDS)]
    if warnings:
        moves, marker, result = WARNINGS, "*", "*"
    if short:
        return (
            f'[White "Player {rng.randrange(100000)}"]\n'
            f'[Black "Player {rng.randrange(100000)}"]\n'
            f'[Result "{result}"]\n'
            f"\n{moves} {marker}\n\n"
        )
    return (
        f'[Event "Bench {k // 1000}"]\n'
        f'[Site "Local"]\n'
        f'[Date "2026.{1 + k % 12:02}.{1 + k % 28:02}"]\n'
        f'[Round "{k % 9 + 1}"]\n'
        f'[White "Player {rng.randrange(100000)}"]\n'
        f'[Black "Player {rng.randrange(100000)}"]\n'
        f'[Result "{result}"]\n'
        f"\n{moves} {marker}\n\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--games", type=int, help="how many games")
    limit.add_argument("--size", type=parse_size, help="bytes of output (10M, 1G)")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument(
        "--short", action="store_true", help="three tags a game, not seven (about 110 bytes)"
    )
    parser.add_argument(
        "--warnings", action="store_true", help="a warning at every move instead of one error"
    )
    parser.add_argument("-o", "--output", help="output file (default: standard output)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = open(args.output, "w", encoding="ascii") if args.output else sys.stdout
    written, k = 0, 0
    with out:
        while (args.games is not None and k < args.games) or (
            args.size is not None and written < args.size
        ):
            text = game(k, rng, args.short, args.warnings)
            out.write(text)
            written += len(text)
            k += 1
    print(f"{k} games, {written} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
