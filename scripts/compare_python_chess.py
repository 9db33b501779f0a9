#!/usr/bin/env python3
"""Cross-check `pgnkit check` against python-chess on every game of a corpus.

usage: compare_python_chess.py [--pgnkit BIN] [--jobs N] [--sample-above MB]
                               [--every K] [--json-from FILE] PATH...

PATH: .pgn files or directories (searched recursively for *.pgn).

The rule checked: no game that python-chess replays cleanly may get an error
from pgnkit. A game is cut out of its file by the independent splitter of
count_games.py (not pgnkit's lexer) and fed to `chess.pgn.read_game` on its
own; python-chess replays it cleanly when every game it reads from that text
has no `game.errors` (read_game resolves every SAN move against the position,
in the main line and in variations, and records illegal, ambiguous and
unparsable moves there). pgnkit runs once over all files
(`pgnkit check --games --format json`), and each error diagnostic is matched
to the game whose byte range holds the diagnostic's `byte`, so the two tools
need not agree on game numbers.

python-chess is lenient in its own ways, so each disagreement (python-chess
clean, pgnkit error) is classified per diagnostic. EXPLAINED classes (the
disagreement is python-chess's leniency, verified on the game where possible):

  variant        the game has a Variant tag for another game (crazyhouse,
                 atomic, antichess, ...; found in the text, since python-chess
                 ignores tags that share a line): python-chess plays that
                 variant's rules or never saw the tag.
  skipped-token  python-chess's movetext regex finds no move in the token
                 (it skips unknown words and characters silently): the token
                 never reached its move parser.
  partial-token  python-chess's regex reads only part of the token as a move
                 (e.g. `f3` out of `Sf3`, `e4` out of `e4e5`): it played a
                 different move than the text says.
  null-move      the token is a null move (`--`, `Z0`, `0000`, `@@@@`), which
                 python-chess accepts in the main line.
  capture-mark   python-chess ignores the `x` of a SAN move: replaying to the
                 diagnostic's ply shows the move python-chess played has a
                 capture mark that does not match the position.
  result-tag     python-chess never checks the Result tag: its own replay
                 confirms the contradiction pgnkit reports (the final position
                 is checkmate/stalemate/insufficient material with another
                 result, or a fivefold repetition or the 75-move rule ended the
                 game as a draw on the way).
  game-over      pgnkit stops at a position where the rules end the game
                 (fivefold repetition, 75-move rule, insufficient material,
                 checkmate, stalemate) and python-chess plays on.
  fen            python-chess accepted the FEN tag of a position that is not
                 legal (board.status() is not valid) or silently rewrote it.
  unseen-move    python-chess ended the game early (an empty line inside the
                 movetext ends a game for python-chess) and never saw the ply
                 pgnkit reports.
  cascade        an error no other rule explains that follows an earlier pgnkit
                 error of the same game: pgnkit goes on after an error with
                 its own recovery (e.g. counting an unreadable token as a ply),
                 which python-chess, having seen nothing wrong, cannot mirror.
                 The first error of each game is always judged on its own.
  syntax-skip    a `syntax` diagnostic (broken structure) that python-chess
                 does not check: it skips stray characters and reads an
                 unterminated comment to the end of the game.

Everything else is UNEXPLAINED and makes the script exit 1, for instance a
token python-chess reads whole as a move and plays legally while pgnkit calls
it illegal, a token that is only move-number dots glued to a move (`...c5`,
`.d4`: the writer's meaning is plain, so that is no leniency), or a
missing-move/moves-after-end that python-chess's replay does not confirm.

The other direction (python-chess errors, pgnkit clean) is not a failure:
pgnkit reads more notations and languages than python-chess. Those games are
counted and listed by python-chess's error message (first 100, or all with
--all).

Speed: python-chess reads about 1 MB/s per core; the work is spread over
--jobs processes (default: all cores). --sample-above MB with --every K reads
only every K-th game of files bigger than MB (default: every game).
"""
import argparse
import bisect
import collections
import io
import json
import os
import re
import subprocess
import sys
import logging
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from count_games import game_spans, pgn_files  # noqa: E402

try:
    import chess
    import chess.pgn
except ImportError:
    print("compare_python_chess.py: python-chess is missing (pip install chess)", file=sys.stderr)
    sys.exit(2)

# python-chess logs every error it records; the verdicts are read from game.errors.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

VARIANT_TAG = re.compile(r'\[\s*Variant\s+"([^"]*)"')
# python-chess's own movetext regex (chess.pgn.MOVETEXT_REGEX), first group = a move.
PY_MOVE = chess.pgn.MOVETEXT_REGEX
NULL_MOVES = {"--", "Z0", "0000", "@@@@"}
STANDARD_VARIANTS = {"", "standard", "chess", "normal", "chess960", "chess 960", "fischerandom",
                     "fischer random", "fischer random chess", "frc", "from position", "from_position",
                     "dfrc", "double fischer random", "double chess960", "classical", "three-check?"}
ANNOTATION = re.compile(r"[+#!?]+$")


def decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# ---------------------------------------------------------------- python-chess side

def python_view(text: str) -> dict:
    """What python-chess makes of one game's text."""
    handle = io.StringIO(text)
    games = []
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except Exception as err:  # python-chess itself raising is a verdict too
            return {"clean": False, "errors": [f"exception: {err!r}"], "parts": len(games), "plies": 0}
        if game is None:
            break
        games.append(game)
    errors = [str(e) for g in games for e in g.errors]
    first = games[0] if games else None
    return {
        "clean": bool(games) and not errors,
        "errors": errors,
        "parts": len(games),
        "plies": sum(1 for _ in first.mainline()) if first else 0,
        "variant": (first.headers.get("Variant", "") if first else ""),
    }


def python_file(task):
    """Worker: python-chess's view of some games of one file, given as
    (index, start, end) byte ranges in file order."""
    path, games = task
    low, high = games[0][1], games[-1][2]
    with open(path, "rb") as handle:
        handle.seek(low)
        data = handle.read(high - low)
    views = {}
    for index, start, end in games:
        views[index] = python_view(decode(data[start - low:end - low]))
    return path, views


# ---------------------------------------------------------------- pgnkit side

def run_pgnkit(pgnkit, files, jobs):
    """Error diagnostics and game records per file, from one pgnkit run."""
    command = [pgnkit, "check", "--games", "--format", "json", "--quiet", "-j", str(jobs), *files]
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        raise SystemExit(f"compare_python_chess.py: pgnkit exited {proc.returncode}")
    return parse_pgnkit(proc.stdout)


def parse_pgnkit(stdout: bytes):
    diagnostics = collections.defaultdict(list)
    games = collections.defaultdict(dict)
    for line in stdout.splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        kind = record.get("type")
        if kind == "diagnostic" and record.get("severity") == "error":
            diagnostics[record.get("file")].append(record)
        elif kind == "game":
            games[record.get("file")][record.get("game")] = record
    return diagnostics, games


# ---------------------------------------------------------------- classification

def replay_to(text: str, ply: int):
    """python-chess board before main-line ply `ply` (1-based) and the move it
    played there, or (None, None)."""
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        return None, None
    board = game.board()
    for number, move in enumerate(game.mainline_moves(), start=1):
        if number == ply:
            return board, move
        board.push(move)
    return board, None


def final_board(text: str):
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        return None, None
    return game.end().board(), game.headers.get("Result", "*")


def classify(diag: dict, view: dict, text: str):
    """(class, explanation) for one pgnkit error on a game python-chess replays cleanly."""
    code = diag.get("code", "")
    token = diag.get("token") or ""
    ply = diag.get("ply")
    tag = VARIANT_TAG.search(text)
    variant = tag.group(1).strip().lower() if tag else ""
    if variant and variant not in STANDARD_VARIANTS:
        return "variant", f"Variant {tag.group(1)!r}: python-chess plays that variant's rules (or never saw the tag)"

    if code in ("illegal-move", "unparsable-move", "ambiguous-move", "moves-after-end", "missing-move"):
        bare = ANNOTATION.sub("", token)
        moves = [m.group(1) for m in PY_MOVE.finditer(token) if m.group(1)]
        if token and bare in NULL_MOVES:
            return "null-move", f"python-chess accepts the null move {token!r}"
        if token and not moves:
            return "skipped-token", f"python-chess silently skipped token {token!r}"
        if token and len(moves) == 1 and bare.lstrip(".…") == moves[0] and view.get("plies", 0) > 0:
            return "unexplained", (f"the token {token!r} is move-number dots glued to the move {moves[0]!r}, "
                                   "which python-chess plays legally")
        if token and (len(moves) > 1 or moves[0] != bare):
            return "partial-token", f"python-chess read only {moves!r} of token {token!r}"
        if isinstance(ply, int) and ply > view.get("plies", 0) and view.get("parts", 1) > 1:
            return "unseen-move", (f"python-chess ended the game at an empty line after {view.get('plies')} plies;"
                                   f" it never saw ply {ply}")
        if isinstance(ply, int) and not diag.get("variation"):
            board, move = replay_to(text, ply)
            if board is not None:
                over = game_over(board)
                if over and code in ("moves-after-end", "illegal-move"):
                    return "game-over", f"the game is over before ply {ply} ({over}); python-chess plays on"
                if move is not None and code == "illegal-move" and token and "x" in bare and not board.is_capture(move):
                    return "capture-mark", f"python-chess played {board.san(move)} for {token!r}: no capture there"
                if move is not None and code == "illegal-move" and token and "x" not in bare and board.is_capture(move):
                    return "capture-mark", f"python-chess played {board.san(move)} for {token!r}: a capture"
        return "unexplained", f"python-chess plays {token!r} legally"

    if code == "result-mismatch":
        board, result = final_board(text)
        if board is not None:
            outcome = board.outcome(claim_draw=False)
            if outcome is not None and result in ("1-0", "0-1", "1/2-1/2") and outcome.result() != result:
                return "result-tag", (f"Result {result} but python-chess's final position is "
                                      f"{outcome.termination.name.lower()} ({outcome.result()})")
            drawn_at = automatic_draw(text)
            if drawn_at and result in ("1-0", "0-1"):
                return "result-tag", f"Result {result} but python-chess sees a {drawn_at}"
        return "unexplained", "python-chess's final position does not contradict the Result tag"

    if code == "bad-fen":
        game = chess.pgn.read_game(io.StringIO(text))
        if game is not None:
            board = game.board()
            tag = game.headers.get("FEN", "")
            if board.status() != chess.STATUS_VALID:
                return "fen", f"python-chess accepts an invalid position (status {board.status()!r})"
            if tag and " ".join(tag.split()[:4]) != " ".join(board.fen().split()[:4]):
                return "fen", f"python-chess rewrote the FEN {tag!r} as {board.fen()!r}"
        return "unexplained", "python-chess reads the FEN as a valid position, unchanged"

    if code == "syntax":
        return "syntax-skip", "python-chess does not check PGN structure (skips stray characters)"

    return "unexplained", f"no rule for code {code!r}"


def automatic_draw(text: str):
    """'fivefold repetition at ply N' / '75-move rule at ply N' if python-chess's
    replay of the main line passes through one, else None."""
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        return None
    board = game.board()
    for ply, move in enumerate(game.mainline_moves(), start=1):
        board.push(move)
        if board.is_fivefold_repetition():
            return f"fivefold repetition at ply {ply}"
        if board.is_seventyfive_moves():
            return f"75-move rule at ply {ply}"
    return None


def game_over(board):
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.is_fivefold_repetition():
        return "fivefold repetition"
    if board.is_seventyfive_moves():
        return "75-move rule"
    return None


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--pgnkit", default=os.environ.get("PGNKIT", "pgnkit"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample-above", type=float, default=None, metavar="MB")
    ap.add_argument("--every", type=int, default=1, metavar="K")
    ap.add_argument("--json-from", default=None, help="read pgnkit's NDJSON from FILE instead of running it")
    ap.add_argument("--all", action="store_true", help="list every python-chess-only error")
    args = ap.parse_args()

    started = time.time()
    files = list(pgn_files(args.paths))
    if not files:
        print("compare_python_chess.py: no .pgn files", file=sys.stderr)
        return 2

    if args.json_from:
        with open(args.json_from, "rb") as handle:
            diagnostics, pgnkit_games = parse_pgnkit(handle.read())
    else:
        diagnostics, pgnkit_games = run_pgnkit(args.pgnkit, files, args.jobs)

    # Which games to read with python-chess.
    tasks = []
    spans_of = {}
    for path in files:
        with open(path, "rb") as handle:
            data = handle.read()
        spans = game_spans(data)
        spans_of[path] = spans
        indices = list(range(len(spans)))
        if args.sample_above is not None and len(data) > args.sample_above * 1e6 and args.every > 1:
            indices = indices[::args.every]
        # Pieces of ~400 games so both cores stay busy on one big file.
        for first in range(0, len(indices), 400):
            tasks.append((path, [(i, *spans[i]) for i in indices[first:first + 400]]))
    views = collections.defaultdict(dict)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for path, part in pool.map(python_file, tasks, chunksize=1):
            views[path].update(part)

    counts = collections.Counter()
    unexplained = 0
    python_only = []
    read_games = 0
    for path in files:
        spans = spans_of[path]
        starts = [s for s, _ in spans]
        per_game = collections.defaultdict(list)
        for diag in diagnostics.get(path, []):
            offset = diag.get("byte")
            if not isinstance(offset, int):
                record = pgnkit_games.get(path, {}).get(diag.get("game"), {})
                offset = record.get("byte")
            if not isinstance(offset, int):
                per_game[None].append(diag)
                continue
            per_game[max(0, bisect.bisect_right(starts, offset) - 1)].append(diag)
        data = None
        for index, view in sorted(views[path].items()):
            read_games += 1
            errors = per_game.get(index, [])
            if view["clean"] and errors:
                if data is None:
                    with open(path, "rb") as handle:
                        data = handle.read()
                start, end = spans[index]
                text = decode(data[start:end])
                first = min(errors, key=lambda d: (d.get("game") or 0, d.get("byte") or 0))
                for diag in errors:
                    kind, why = classify(diag, view, text)
                    if kind == "unexplained" and diag is not first and diag.get("game") == first.get("game"):
                        kind, why = "cascade", (f"follows pgnkit's {first.get('code')} {first.get('token')!r} "
                                                f"at line {first.get('line')} ({why})")
                    counts[kind] += 1
                    unexplained += kind == "unexplained"
                    mark = "UNEXPLAINED" if kind == "unexplained" else f"explained[{kind}]"
                    print(f"{mark}: {path}: game {diag.get('game')} (our game {index + 1}), "
                          f"line {diag.get('line')}: pgnkit {diag.get('code')} {diag.get('token')!r}: "
                          f"{diag.get('message')} | python-chess: clean, {view['plies']} plies; {why}")
            elif not view["clean"] and not errors:
                python_only.append((path, index, view["errors"][:1]))
        for diag in per_game.get(None, []):
            counts["unplaced"] += 1
            unexplained += 1
            print(f"UNEXPLAINED: {path}: pgnkit {diag.get('code')} without a byte offset or game record: "
                  f"{diag.get('message')}")

    print(f"\npython-chess errors where pgnkit reports none: {len(python_only)} games")
    by_message = collections.Counter(re.sub(r"'[^']*'|\b[1-8pnbrqkPNBRQK/]{8,}.*", "…", e[0]) if e else "no game read"
                                     for _, _, e in python_only)
    for message, n in by_message.most_common(15):
        print(f"  {n:6}  {message}")
    for path, index, errs in python_only[: None if args.all else 100]:
        print(f"  python-chess only: {path}: our game {index + 1}: {errs[0] if errs else 'no game read'}")
    if not args.all and len(python_only) > 100:
        print(f"  ... {len(python_only) - 100} more (--all lists them)")

    print(f"\ncompared {read_games} games in {len(files)} files in {time.time() - started:.1f} s")
    for kind, n in sorted(counts.items()):
        print(f"  {kind:14} {n}")
    if unexplained:
        print(f"FAIL: {unexplained} pgnkit errors on games python-chess replays cleanly, unexplained")
        return 1
    print("OK: every pgnkit error on a game python-chess replays cleanly is explained")
    return 0


if __name__ == "__main__":
    sys.exit(main())
