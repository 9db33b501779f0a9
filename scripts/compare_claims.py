#!/usr/bin/env python3
"""Cross-check the draws pgnkit says were claimable against python-chess.

usage: compare_claims.py PGNKIT FILE...

For every game both tools replay without error, the first ply at which a
threefold repetition could be claimed (python-chess's
`can_claim_threefold_repetition`, which counts both the position on the
board and a position a legal move would bring about for the third time) must
equal the first `threefold` claim of `pgnkit check --games` (with or without
`by_move`), and likewise for the 50-move rule (`can_claim_fifty_moves`).
Exits 1 on any disagreement, listing the first ones.
"""
import io
import json
import subprocess
import sys

import chess.pgn


def first(claims, kind):
    plies = [c["ply"] for c in claims if c["kind"] == kind]
    return min(plies) if plies else None


def main():
    pgnkit, files = sys.argv[1], sys.argv[2:]
    checked = disagreements = declared = 0
    for path in files:
        out = subprocess.run([pgnkit, "check", "--games", "--format", "json", "-j1", path],
                             capture_output=True, check=False).stdout.decode()
        games = [r for r in map(json.loads, out.splitlines()) if r["type"] == "game"]
        data = open(path, "rb").read()
        for i, g in enumerate(games):
            if g["status"] in ("invalid", "unsupported") or g["errors"]:
                continue
            end = games[i + 1]["byte"] if i + 1 < len(games) else len(data)
            text = data[g["byte"]:end].decode("utf-8", "replace")
            game = chess.pgn.read_game(io.StringIO(text))
            if game is None or game.errors:
                continue
            board = game.board()
            threefold = fifty = None
            for ply, move in enumerate(game.mainline_moves(), 1):
                board.push(move)
                if threefold is None and board.can_claim_threefold_repetition():
                    threefold = ply
                if fifty is None and board.can_claim_fifty_moves():
                    fifty = ply
            checked += 1
            declared += any("by_move" in c for c in g["claims"])
            mine = (first(g["claims"], "threefold"), first(g["claims"], "fifty-moves"))
            if mine != (threefold, fifty):
                disagreements += 1
                if disagreements <= 20:
                    print(f"DISAGREE: {path}: game {g['game']}: pgnkit threefold/fifty at {mine}, "
                          f"python-chess at {(threefold, fifty)}")
    print(f"compare_claims: {checked} games, {declared} with a claim by declared move, "
          f"{disagreements} disagreements with python-chess")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
