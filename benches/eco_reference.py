#!/usr/bin/env python3
"""The opening of every game of a PGN file, computed independently of pgnkit.

python-chess replays each game's main line and looks every position up, by
its EPD (`board.epd()`: pieces, side to move, castling rights, en passant
square only when legal), in the lichess table crates/opening/data/*.tsv,
whose lines are replayed by python-chess too. The last named position
reached, up to the table's deepest line, names the game. Chess960 games and
games from a FEN tag get none, as in pgnkit.

Output: one line per game, `NUMBER<TAB>ECO<TAB>NAME`, `-` for none.

    pip install chess   # python-chess
    python3 benches/eco_reference.py FILE.pgn [LIMIT] > expected.tsv

Compare with pgnkit:

    pgnkit check --games --format json FILE.pgn | python3 benches/eco_reference.py --compare expected.tsv
"""

import glob
import io
import json
import os
import sys

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "crates", "opening", "data")


def load_table():
    table, deepest = {}, 0
    for path in sorted(glob.glob(os.path.join(DATA, "*.tsv"))):
        with open(path, encoding="utf-8") as f:
            next(f)
            for line in f:
                eco, name, pgn = line.rstrip("\n").split("\t")
                board = chess.Board()
                for word in pgn.split():
                    if word[0].isdigit():
                        continue
                    board.push_san(word)
                deepest = max(deepest, len(board.move_stack))
                table.setdefault(board.epd(), (eco, name))
    return table, deepest


def classify(game, table, deepest):
    headers = game.headers
    if headers.get("FEN", "").strip():
        return None
    variant = headers.get("Variant", "").lower().replace(" ", "")
    if variant in ("chess960", "960", "fischerandom", "fischerrandom", "frc", "freestyle"):
        return None
    board = game.board()
    found = None
    for ply, move in enumerate(game.mainline_moves(), start=1):
        if ply > deepest:
            break
        board.push(move)
        hit = table.get(board.epd())
        if hit:
            found = hit
    return found


def reference(path, limit):
    table, deepest = load_table()
    with open(path, encoding="utf-8", errors="replace") as f:
        number = 0
        while limit is None or number < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            number += 1
            found = classify(game, table, deepest)
            eco, name = found if found else ("-", "-")
            print(f"{number}\t{eco}\t{name}")


def compare(expected_path):
    expected = {}
    with open(expected_path, encoding="utf-8") as f:
        for line in f:
            number, eco, name = line.rstrip("\n").split("\t")
            expected[int(number)] = (eco, name)
    same = total = 0
    for line in sys.stdin:
        r = json.loads(line)
        if r.get("type") != "game" or r["game"] not in expected:
            continue
        total += 1
        name = r["opening"] if r["variation"] is None else f"{r['opening']}: {r['variation']}"
        got = (r["eco"] or "-", name if r["eco"] else "-")
        if got == expected[r["game"]]:
            same += 1
        else:
            print(f"game {r['game']}: pgnkit {got}, python-chess {expected[r['game']]}", file=sys.stderr)
    print(f"{same} of {total} games agree ({100.0 * same / max(total, 1):.2f}%)")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--compare":
        compare(sys.argv[2])
    elif len(sys.argv) in (2, 3):
        reference(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else None)
    else:
        sys.exit(__doc__)
