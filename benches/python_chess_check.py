#!/usr/bin/env python3
"""Peer benchmark: the python-chess way to check a PGN file.

Reads every game with chess.pgn.read_game, which replays the main line (and
variations) on a board while parsing: every SAN token is resolved against the
position and an illegal or unparsable move lands in game.errors. Replaying the
moves a second time would only double python-chess's cost, so the loop stops
there, as a user script checking a file would. Prints a one-line summary; exit
status 0 if every game replayed cleanly, else 1.

usage: python_chess_check.py FILE
"""
import sys


import chess.pgn


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    games = plies = bad = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            games += 1
            plies += sum(1 for _ in game.mainline())
            bad += bool(game.errors)
    print(f"games {games} plies {plies} bad {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
