#!/usr/bin/env python3
"""Build the clock fixtures of testdata/clocks from real games, with
python-chess and values of its own (no pgnkit code is used).

usage: clock_fixtures.py            (run in testdata/clocks)

Reads lichess.pgn and bare-king.pgn (real lichess games with clocks) and
writes:

- clean.pgn: the real games whose clocks keep their control (checked here:
  every clock at most the player's previous one plus the increment, the first
  at most the base plus one increment, no clock missing, none at 0:00:00,
  none below the increment), and games whose moves are real and whose clocks
  are made here under a control of periods, `40/5400+30:1800+30` (the
  second period's time shown at move 40, or at move 41, as recorders differ);
- faults.pgn and faults.json: those games with one fault each put in, and
  what pgnkit must find: `{"game": N, "fault": KIND, "code": CODE, "ply": P}`
  (the only clock diagnostic of the game), or for a flag that fell also
  `"status": "flag-fell", "result": R, "mismatch": BOOL` (the result the Laws
  give, and whether the Result tag contradicts it);
- emt.pgn and emt.json: clean games with each `%clk` replaced by the `%emt`
  the clocks imply (the time each move took, with python-chess's
  `set_emt`), and the `%clk` values they came from (`{"clk": [...]}` a
  game), for `convert --clocks clk`.

Fault kinds: `rise` (a clock above the previous one plus the increment),
`start` (a first clock above the base plus one increment), `missing` (a
clock taken out), `zero` (0:00:00 under a control without increment, at the
player's last move), `flag` (a clock below the increment, the game cut
there; the Result tag right, or wrong), `bare-king` (a flag that falls while
the opponent has a bare king: a draw), `period` (the second period's time
never shown).
"""

import io
import json
import random

import chess
import chess.pgn

RNG = random.Random(43)


def read(path):
    games = []
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def control(game):
    """(base, increment) of a `B+I` or `B` TimeControl, else None."""
    tc = game.headers.get("TimeControl", "")
    base, _, inc = tc.partition("+")
    if not base.isdigit() or (inc and not inc.isdigit()):
        return None
    return int(base), int(inc or 0)


def keeps_control(game):
    tc = control(game)
    if tc is None:
        return False
    base, inc = tc
    nodes = list(game.mainline())
    clocks = [n.clock() for n in nodes]
    if not clocks or any(c is None for c in clocks):
        return False
    for i, c in enumerate(clocks):
        if c == 0 or (inc > 0 and c < inc):
            return False
        if i < 2:
            if c > base + inc:
                return False
        elif c > clocks[i - 2] + inc:
            return False
    return True


def text(game):
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter)


def copy(game):
    return chess.pgn.read_game(io.StringIO(text(game)))


def cut_after(game, ply):
    """The game without the moves after `ply`."""
    node = list(game.mainline())[ply - 1]
    node.variations = []
    return game


def position_before(game, ply):
    board = game.board()
    for node in list(game.mainline())[: ply - 1]:
        board.push(node.move)
    return board


def can_mate_at_all(board, color):
    """Whether `color` has the material to checkmate (python-chess's
    `has_insufficient_material`)."""
    return not board.has_insufficient_material(color)


def periods_game(game, show_at):
    """The moves of `game` with clocks made under 40/5400+30:1800+30, the
    second period's time shown at White's and Black's move `show_at` (40 or
    41); None for a game too short."""
    nodes = list(game.mainline())
    if len(nodes) < 84:
        return None
    g = copy(game)
    g.headers["TimeControl"] = "40/5400+30:1800+30"
    clock = [5400, 5400]
    for i, node in enumerate(g.mainline()):
        side, number = i % 2, i // 2 + 1
        spent = RNG.randint(5, 150)
        clock[side] = clock[side] - spent + 30
        if number == show_at:
            clock[side] += 1800
        node.set_clock(clock[side])
    return g


def main():
    lichess = read("lichess.pgn")
    clean = [g for g in lichess if keeps_control(g)]
    periods = []
    for show_at in (40, 41):
        for g in lichess:
            made = periods_game(g, show_at)
            if made is not None:
                periods.append(made)
                break
    clean_all = clean + periods
    with open("clean.pgn", "w") as out:
        for g in clean_all:
            out.write(text(g) + "\n\n")

    faults, expected = [], []

    def add(game, fault, code=None, ply=None, **more):
        faults.append(game)
        entry = {"game": len(faults), "fault": fault}
        if code:
            entry.update(code=code, ply=ply)
        entry.update(more)
        expected.append(entry)

    with_inc = [g for g in clean if control(g)[1] > 0]
    without_inc = [g for g in clean if control(g)[1] == 0]
    for k, g in enumerate(clean[:12]):
        base, inc = control(g)
        nodes = list(g.mainline())
        n = len(nodes)
        # rise: a clock above the player's previous one plus the increment.
        f = copy(g)
        fn = list(f.mainline())
        p = RNG.randint(5, n)
        prev = nodes[p - 3].clock()
        fn[p - 1].set_clock(prev + inc + RNG.randint(1, 40))
        add(f, "rise", "clock-rise", p)
        # start: a first clock above the base plus one increment.
        f = copy(g)
        p = 1 + k % 2
        list(f.mainline())[p - 1].set_clock(base + inc + RNG.randint(1, 60))
        add(f, "start", "clock-start", p)
        # missing: a clock taken out.
        f = copy(g)
        p = RNG.randint(3, n - 1)
        list(f.mainline())[p - 1].set_clock(None)
        add(f, "missing", "clock-missing", p)
    for g in without_inc[:6]:
        # zero: 0:00:00 at the player's last move, without increment.
        f = copy(g)
        n = len(list(f.mainline()))
        p = n - RNG.randint(0, 1)
        list(f.mainline())[p - 1].set_clock(0)
        add(f, "zero", "clock-zero", p)
    for k, g in enumerate(with_inc[:6]):
        base, inc = control(g)
        n = len(list(g.mainline()))
        for wrong in (False, True):
            f = copy(g)
            p = RNG.randint(10, n)
            list(f.mainline())[p - 1].set_clock(RNG.choice([0, inc - 0.5]))
            cut_after(f, p)
            loser = chess.WHITE if p % 2 == 1 else chess.BLACK
            board = position_before(f, p)
            if can_mate_at_all(board, not loser):
                result = "0-1" if loser == chess.WHITE else "1-0"
            else:
                result = "1/2-1/2"
            written = result
            if wrong:
                written = "1-0" if result != "1-0" else "0-1"
            f.headers["Result"] = written
            add(f, "flag", "clock-flag", p, status="flag-fell", result=result, mismatch=wrong)
    for g in read("bare-king.pgn"):
        base, inc = control(g)
        board = g.board()
        for p, node in enumerate(g.mainline(), start=1):
            if not any(board.pieces(r, not board.turn) for r in range(chess.PAWN, chess.KING)):
                break
            board.push(node.move)
        f = copy(g)
        list(f.mainline())[p - 1].set_clock(0)
        cut_after(f, p)
        f.headers["Result"] = "0-1" if p % 2 == 1 else "1-0"
        add(f, "bare-king", "clock-flag", p, status="flag-fell", result="1/2-1/2", mismatch=True)
    for g in periods:
        # period: the second period's time never shown.
        f = copy(g)
        for i, node in enumerate(f.mainline()):
            number = i // 2 + 1
            if number >= 40 and i % 2 == 0 and node.clock() >= 1800 + 30:
                node.set_clock(node.clock() - 1800)
        # White's move 40 (ply 79) completes the first period.
        add(f, "period", "clock-period", 79)
        break

    with open("faults.pgn", "w") as out:
        for g in faults:
            out.write(text(g) + "\n\n")
    with open("faults.json", "w") as out:
        json.dump(expected, out, indent=0)
        out.write("\n")

    # emt: the time each move took, from the clocks (increment added back).
    emt_games, emt_clk = [], []
    for g in clean[:6]:
        base, inc = control(g)
        f = copy(g)
        nodes = list(f.mainline())
        clocks = [n.clock() for n in nodes]
        for i, node in enumerate(nodes):
            before = base if i < 2 else clocks[i - 2]
            node.set_clock(None)
            node.set_emt(before + inc - clocks[i])
        emt_games.append(f)
        emt_clk.append({"clk": clocks})
    with open("emt.pgn", "w") as out:
        for g in emt_games:
            out.write(text(g) + "\n\n")
    with open("emt.json", "w") as out:
        json.dump(emt_clk, out)
        out.write("\n")
    print(f"clean {len(clean_all)}, faults {len(faults)}, emt {len(emt_games)}")


if __name__ == "__main__":
    main()
