#!/usr/bin/env python3
"""pgnkit's Python package against python-chess and
rust-pgn-reader-python-binding (PyPI), in one run: runs alternate (each
round runs every reader once, in turn, each in a fresh process), medians
and spreads of the rounds (see benches/README.md, "Python package").

usage:
    benches/python/bench.py san FILE [--rounds 5]       # SAN move lists, one core
    benches/python/bench.py parquet FILE [--rounds 5]   # to Parquet, 2 threads
    benches/python/bench.py correctness FILE            # games and illegal moves found

`san`: every game of FILE to its list of SAN moves on one core (the
process pinned to CPU 0 with taskset, worker threads included).
rust-pgn-reader-python-binding gives UCI, not SAN: its row is the list of
UCI moves, from the file split into games in Python (it reads strings, not
files), then parsed with one thread.

`parquet`: FILE to a Parquet file with a row per game (tags, moves, status
or validity) with 2 threads on 2 cores: pgnkit's `to_parquet` (every move
replayed under the Laws, SAN and UCI, status, FEN); the peer's cheapest table
of the same shape from the same file (split into games in Python, parsed,
headers as columns, moves as lists of squares); and, as `peer-parse`, the
peer's parsing alone of games already split (its best case: games read
from a Parquet file).

Each run prints `seconds games` measured inside the process, around the
work only (the interpreter's start and the imports are left out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

GAME_START = re.compile(rb"(?:\r?\n)(?:[ \t]*\r?\n)+(?=\[)")


def split_games(data: bytes) -> list[str]:
    """A file's games as strings, cut before each tag that follows an empty
    line: what rust-pgn-reader-python-binding needs as input."""
    return [g.decode("utf-8", "replace") for g in GAME_START.split(data) if g.strip()]


# ---------------------------------------------------------------- workers
def run_pgnkit_san(path: str) -> int:
    import pgnkit

    n = 0
    for game in pgnkit.read(path, jobs=1):
        game.moves
        n += 1
    return n


def run_python_chess(path: str, san: bool = True) -> int:
    """python-chess's `read_game` loop, each main line written in SAN
    (`san`), or read alone (moves parsed, no SAN written back)."""
    import chess.pgn

    n = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            sans = []
            for move in game.mainline_moves():
                if san:
                    sans.append(board.san(move))
                    board.push(move)
            n += 1
    return n


def run_peer_uci(path: str, threads: int = 1) -> int:
    import rust_pgn_reader_python_binding as peer

    with open(path, "rb") as f:
        games = split_games(f.read())
    parsed = peer.parse_games_from_strings(games, num_threads=threads)
    for game in parsed:
        game.moves_uci()
    return parsed.num_games


def run_peer_parse(path: str, threads: int = 2) -> tuple[int, float]:
    """The peer's parsing alone, of games already split into an Arrow
    array (its input when the games come from a Parquet file): the games
    and the seconds."""
    import pyarrow as pa
    import rust_pgn_reader_python_binding as peer

    with open(path, "rb") as f:
        games = pa.chunked_array([pa.array(split_games(f.read()))])
    start = time.perf_counter()
    parsed = peer.parse_games(games, num_threads=threads)
    return parsed.num_games, time.perf_counter() - start


def run_pgnkit_parquet(path: str, out: str) -> int:
    import pgnkit

    return pgnkit.to_parquet(path, out, jobs=2)


def run_peer_parquet(path: str, out: str) -> int:
    """The peer's cheapest table of the same shape: its headers as columns,
    the moves as list columns of from/to squares and promotions (zero-copy
    from its arrays), outcome and validity."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import rust_pgn_reader_python_binding as peer

    with open(path, "rb") as f:
        games = split_games(f.read())
    parsed = peer.parse_games(pa.chunked_array([pa.array(games)]), num_threads=2)
    tables = []
    for chunk in parsed.chunks:
        offsets = pa.array(chunk.move_offsets.astype("int32"))
        table = pa.Table.from_pylist(chunk.headers)
        for name in ("from_squares", "to_squares", "promotions"):
            moves = pa.ListArray.from_arrays(offsets, pa.array(getattr(chunk, name)))
            table = table.append_column(name, moves)
        table = table.append_column("outcome", pa.array(chunk.outcome, pa.string()))
        table = table.append_column("valid", pa.array(chunk.valid))
        tables.append(table)
    table = pa.concat_tables(tables, promote_options="default")
    pq.write_table(table, out)
    return table.num_rows


WORKERS = {
    "pgnkit-san": run_pgnkit_san,
    "python-chess-san": run_python_chess,
    "python-chess-read": lambda path: run_python_chess(path, san=False),
    "peer-uci": run_peer_uci,
    "pgnkit-parquet": run_pgnkit_parquet,
    "peer-parquet": run_peer_parquet,
    "peer-parse": run_peer_parse,
}
TASKS = {
    "san": ["pgnkit-san", "python-chess-san", "python-chess-read", "peer-uci"],
    "parquet": ["pgnkit-parquet", "peer-parquet", "peer-parse"],
}


def worker(name: str, path: str) -> None:
    args = [path]
    tmp = None
    if name.endswith("parquet"):
        tmp = tempfile.NamedTemporaryFile(suffix=".parquet", delete=False)
        args.append(tmp.name)
    start = time.perf_counter()
    games = WORKERS[name](*args)
    seconds = time.perf_counter() - start
    if isinstance(games, tuple):
        games, seconds = games
    if tmp is not None:
        os.unlink(tmp.name)
    print(json.dumps({"seconds": seconds, "games": games}))


def one_run(name: str, path: str, pin: bool) -> dict:
    cmd = [sys.executable, __file__, "worker", name, path]
    if pin:
        cmd = ["taskset", "-c", "0", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- correctness
def correctness(path: str) -> None:
    """Games counted and games found with an illegal move (or any error),
    by each reader, on the whole file."""
    import logging

    import chess.pgn
    import pgnkit
    import rust_pgn_reader_python_binding as peer

    # python-chess logs each illegal move it meets; its count is the table's.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    rows = []
    games = list(pgnkit.read(path))
    illegal = sum(1 for g in games if any(e.code == "illegal-move" for e in g.errors))
    rows.append(("pgnkit", len(games), sum(1 for g in games if g.errors), illegal))
    n = errors = illegal = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            n += 1
            errors += bool(game.errors)
            illegal += any("illegal san" in str(e) for e in game.errors)
    rows.append(("python-chess", n, errors, illegal))
    with open(path, "rb") as f:
        parsed = peer.parse_games_from_strings(split_games(f.read()))
    invalid = [e for chunk in parsed.chunks for e in chunk.parse_errors if e]
    rows.append(("rust-pgn-reader-python-binding", parsed.num_games, len(invalid),
                 sum(1 for e in invalid if "(illegal san)" in e)))
    print("| reader | games | games with an error | games with an illegal move |")
    print("|---|---:|---:|---:|")
    for name, n, errors, illegal in rows:
        print(f"| {name} | {n:,} | {errors:,} | {illegal:,} |")


# ---------------------------------------------------------------- main
def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        worker(sys.argv[2], sys.argv[3])
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("task", choices=["san", "parquet", "correctness"])
    p.add_argument("file")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", nargs="*", help="readers to run (default: all of the task)")
    a = p.parse_args()
    if a.task == "correctness":
        correctness(a.file)
        return
    names = a.only or TASKS[a.task]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    print(f"{a.task}: {a.file}, {a.rounds} rounds alternated, commit {commit}, "
          f"load {os.getloadavg()[0]:.2f} at start, {platform.python_version()}", flush=True)
    runs: dict[str, list[dict]] = {n: [] for n in names}
    for _ in range(a.rounds):
        for name in names:
            runs[name].append(one_run(name, a.file, pin=a.task == "san"))
    print(f"load {os.getloadavg()[0]:.2f} at end")
    first = names[0]
    base = statistics.median(r["seconds"] for r in runs[first])
    print("| reader | games | seconds (median, min-max) | games/s | vs " + first + " |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        s = [r["seconds"] for r in runs[name]]
        med = statistics.median(s)
        games = runs[name][0]["games"]
        print(f"| {name} | {games:,} | {med:.2f} ({min(s):.2f}-{max(s):.2f}) | "
              f"{games / med:,.0f} | {med / base:.1f}x |")


if __name__ == "__main__":
    main()
