#!/usr/bin/env python3
"""Write what python-chess reads of the clocks of every game in PGN files.

usage: clocks_expected.py FILE.pgn... > expected.json

For each file (named as given), one entry a game, in order:
{"clk": [...], "emt": [...]}, each a list with one entry a main-line ply:
python-chess's `node.clock()` and `node.emt()` (seconds, or null). The clock
tests of pgnkit (crates/replay/tests/clock.rs) compare pgnkit's clocks with
these, ply by ply; scripts/clocks_python_chess.py does the same over whole
files with the `pgnkit` binary.
"""

import json
import sys

import chess.pgn


def clocks_of(path):
    games = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return games
            nodes = list(game.mainline())
            games.append({
                "clk": [n.clock() for n in nodes],
                "emt": [n.emt() for n in nodes],
            })


def main():
    json.dump({path: clocks_of(path) for path in sys.argv[1:]}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
