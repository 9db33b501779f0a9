#!/usr/bin/env python3
"""Cross-check `pgnkit check` against python-chess on every game of a corpus,
in both directions.

usage: compare_python_chess.py [--pgnkit BIN] [--jobs N] [--sample-above MB]
                               [--every K] [--json-from FILE] [--convert-from FILE]
                               [--reviewed TSV] [--root DIR] PATH...

PATH: .pgn files or directories (searched recursively for *.pgn).

The same game on both sides. pgnkit runs over all files twice: `check --games
--format json` (verdicts, error diagnostics, and each game's `byte` offset and
main-line `plies`) and `convert --to uci --format json` (each game's main line
as UCI moves). Game N of a file is the bytes from pgnkit's offset of game N to
that of game N+1 (game 1 from the start of the file), and python-chess reads
exactly that text with `chess.pgn.read_game`, as often as it returns a game.
So both verdicts are about the same bytes, whatever either tool thinks a game
is. python-chess's verdict: `game.errors` (every SAN move is resolved against
the position, in the main line and in variations; an illegal, ambiguous or
unparsable move is recorded there and python-chess drops the rest of that
line, so after an error in the main line its main line stops).

Disagreements, by kind (each is judged per game, then per file):

  pgnkit-error   pgnkit reports an error, python-chess reads the text cleanly.
  python-error   pgnkit is clean, python-chess records an error.
  split          both are clean, but python-chess reads the text as another
                 number of games than one.
  plies          both are clean, one game each, different main-line lengths.
  moves          same length, but another main line (the first different ply
                 is shown; this is how a move read differently shows).
  final          same moves, but one tool's final position is checkmate,
                 stalemate or insufficient material and the other's is not.
  merge          python-chess reads two consecutive pgnkit games as one (found
                 only in files where reading the whole file gives python-chess
                 fewer games than the sum over the games' texts).
  game-count     python-chess reads the whole file as another number of games
                 than pgnkit counts, and the per-game splits and merges do not
                 add up to the difference.

A game where both tools report an error is not a disagreement (both reject
it), and neither is a game pgnkit does not replay (status `unsupported`: a
variant it does not play; it says so with a warning), which is counted as
`not-compared`.

A disagreement is EXPLAINED by a category whose condition is checked on the
game itself, or REVIEWED by an entry of the reviewed list (default:
scripts/python_chess_disagreements.tsv, described in that file), or else
UNEXPLAINED, which makes the script exit 1. The categories:

  pgnkit-error, judged per diagnostic (every error of the game must be
  explained; `cascade` only ever follows an explained first error of the
  same game; a token that is only move-number dots glued to a move, `...c5`,
  is no leniency and stays unexplained):
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
    marker         python-chess never compares the Result tag with the
                   termination marker at the end of the movetext: its own read
                   of the game gives a marker that differs from the tag.
    time-forfeit   python-chess does not apply Law 6.9: the Termination tag
                   says the game was lost on time and python-chess's final
                   position confirms that the player given the win has
                   insufficient material to mate (board.has_insufficient_material).
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
  python-error, split, plies, moves, final:
    layout         python-chess reads PGN line by line: an empty line ends
                   its game (inside the movetext, or a second one after the
                   tags: the moves then become a game of their own from the
                   initial position), and a line that starts with `[` but is
                   not one tag alone is dropped whole, moves and all. The
                   condition: with the empty lines of the text removed and
                   each tag put on a line of its own, python-chess reads one
                   game, cleanly, with pgnkit's main line move for move.
    result-in-variation
                   python-chess takes a result token inside a variation
                   (pgn4web's `(* ...)` continuations, `(3. Nf3 1/2-1/2)`) for
                   a move, fails on it, and then loses track of the variation
                   depth. The condition: with those tokens blanked out (and
                   the layout normalized as above) python-chess reads one game,
                   cleanly, with pgnkit's main line move for move.
  merge:
    headers-run-on python-chess sees no movetext in the earlier game (each
                   of its non-empty lines starts with `[`, `%` or `;`), so it
                   reads the later game's tags as more header lines of the
                   same game (read_game allows an empty line between header
                   lines): a tag-only game, or tags and moves on one line.
  game-count:
    per-game       the difference is exactly the per-game splits and merges
                   of the file, each judged on its own.

The reviewed list matches one disagreement precisely: file (relative to
--root), kind, and the game by number or by byte offset (either matches, so an
entry survives a change of how pgnkit splits an earlier part of the file).
Entries that match no disagreement are STALE and make the script exit 1 too
(an entry that a category now explains is stale as well): the list says what
disagrees today, no more. Entries for files not read, or for games the
sampling skipped, are only noted.

Speed: python-chess reads about 1 MB/s per core; the work is spread over
--jobs processes (default: all cores). --sample-above MB with --every K reads
only every K-th game of files bigger than MB (default: every game). Counting
python-chess's games of a whole file (`chess.pgn.skip_game`) is fast and done
for every file.
"""
import argparse
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
from count_games import pgn_files  # noqa: E402

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
RESULT_TOKENS = {"1-0", "0-1", "1/2-1/2", "*"}
TERMINAL = ("checkmate", "stalemate", "insufficient-material")
DEFAULT_REVIEWED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_chess_disagreements.tsv")


def decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# ---------------------------------------------------------------- python-chess side

class Recorder(chess.pgn.GameBuilder):
    """GameBuilder that also keeps the main line as UCI moves, the main-line
    board (python-chess plays the main line on the first board it shows the
    visitor, so at the end it is the final position) and, for each error, the
    token python-chess was reading and whether it was in the main line."""

    def begin_game(self):
        super().begin_game()
        self.san = None
        self.main = None
        self.uci = []
        self.game.error_info = []

    def begin_parse_san(self, board, san):
        self.san = san
        return super().begin_parse_san(board, san)

    def visit_move(self, board, move):
        if len(self.variation_stack) == 1:
            self.uci.append(board.uci(move))
        super().visit_move(board, move)

    def visit_board(self, board):
        if self.main is None and self.san is None:
            self.main = board
        self.san = None

    def handle_error(self, error):
        self.game.errors.append(error)
        self.game.error_info.append((str(error), self.san, len(self.variation_stack) == 1))


def board_status(board) -> str:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient-material"
    return "other"


def read_all(text: str) -> dict:
    """What python-chess makes of a text: every game read_game returns from it."""
    handle = io.StringIO(text)
    parts = []
    exception = None
    while True:
        recorders = []

        def visitor():
            recorders.append(Recorder())
            return recorders[-1]
        try:
            game = chess.pgn.read_game(handle, Visitor=visitor)
        except Exception as err:  # python-chess itself raising is a verdict too
            exception = repr(err)
            break
        if game is None:
            break
        recorder = recorders[-1]
        part = {"errors": game.error_info, "stop": handle.tell(), "variant": game.headers.get("Variant", ""),
                "plies": len(recorder.uci)}
        if not parts:
            part["uci"] = " ".join(recorder.uci)
            part["status"] = board_status(recorder.main) if recorder.main is not None else "other"
        parts.append(part)
    errors = [e for p in parts for e in p["errors"]] + ([(exception, None, True)] if exception else [])
    first = parts[0] if parts else {}
    return {
        "parts": len(parts),
        "errors": errors,
        "clean": bool(parts) and not errors,
        "plies": first.get("plies", 0),
        "uci": first.get("uci", ""),
        "status": first.get("status", "other"),
        "stop": first.get("stop", 0),
        "variant": first.get("variant", ""),
    }


def single_tag(line: str) -> bool:
    return chess.pgn.TAG_REGEX.match(line) is not None


def normalize_layout(text: str) -> str:
    """The text with its empty lines removed and each tag of a line that
    starts with `[` on a line of its own (the rest of such a line after it)."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        stripped = line.lstrip()
        if stripped.startswith("[") and not single_tag(stripped):
            while stripped.startswith("["):
                close = stripped.find("]")
                if close < 0:
                    break
                out.append(stripped[:close + 1])
                stripped = stripped[close + 1:].lstrip()
            if stripped:
                out.append(stripped)
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def blank_variation_results(text: str) -> str:
    """The text with result tokens inside variations (outside comments)
    replaced by spaces."""
    out = list(text)
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{":
            close = text.find("}", i)
            i = n if close < 0 else close + 1
            continue
        if c == ";":
            close = text.find("\n", i)
            i = n if close < 0 else close + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth > 0 and (i == 0 or text[i - 1] in " \t\r\n("):
            for token in ("1/2-1/2", "1-0", "0-1", "*"):
                if text.startswith(token, i) and (i + len(token) == n or text[i + len(token)] in " \t\r\n)"):
                    out[i:i + len(token)] = " " * len(token)
                    i += len(token) - 1
                    break
        i += 1
    return "".join(out)


def count_games(text: str) -> int:
    """python-chess's number of games in a text (its fast skipping reader,
    which splits games exactly like read_game)."""
    handle = io.StringIO(text)
    count = 0
    while chess.pgn.skip_game(handle):
        count += 1
    return count


def python_task(task):
    """Worker: ("games", path, [(number, start, end)...]) -> python-chess's
    view of those games; ("count", path, [(number, start, end)...]) -> its
    game count of the whole file and of each game's text."""
    what, path, games = task
    low, high = (0, None) if what == "count" else (games[0][1], games[-1][2])
    with open(path, "rb") as handle:
        handle.seek(low)
        data = handle.read() if high is None else handle.read(high - low)
    if what == "count":
        return what, path, (count_file(path), {n: count_games(decode(data[s:e])) for n, s, e in games})
    return what, path, {n: read_all(decode(data[s - low:e - low])) for n, s, e in games}


def count_file(path: str) -> int:
    """count_games of the whole file, read as a stream (UTF-8, else Latin-1,
    like decode(); lines end at LF only, as in a StringIO)."""
    for encoding in ("utf-8", "latin-1"):
        try:
            with open(path, encoding=encoding, newline="\n") as handle:
                count = 0
                while chess.pgn.skip_game(handle):
                    count += 1
                return count
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")


# ---------------------------------------------------------------- pgnkit side

def run_pgnkit(pgnkit, files, jobs):
    """Error diagnostics and game records per file, from one pgnkit run."""
    command = [pgnkit, "check", "--games", "--format", "json", "--quiet", "-j", str(jobs), *files]
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        raise SystemExit(f"compare_python_chess.py: pgnkit check exited {proc.returncode}")
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
            diagnostics[(record.get("file"), record.get("game"))].append(record)
        elif kind == "game":
            games[record.get("file")][record.get("game")] = record
    return diagnostics, games


CONVERT_KEY = re.compile(rb'\{"type":"game","file":("(?:[^"\\]|\\.)*"),"game":(\d+)')


def main_lines(stream, wanted):
    """pgnkit's main line (UCI moves joined by spaces) of each wanted
    (file, game), from `pgnkit convert --to uci --format json` output."""
    lines = {}
    for line in stream:
        match = CONVERT_KEY.match(line)
        if not match:
            continue
        key = (json.loads(match.group(1)), int(match.group(2)))
        if key in wanted:
            record = json.loads(line)
            lines[key] = " ".join(item["uci"] for item in record.get("moves", []) if "uci" in item)
    return lines


def run_convert(pgnkit, files, jobs, wanted):
    command = [pgnkit, "convert", "--to", "uci", "--format", "json", "--quiet", "-j", str(jobs), *files]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        lines = main_lines(proc.stdout, wanted)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"compare_python_chess.py: pgnkit convert exited {proc.returncode}")
    return lines


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
        message = diag.get("message") or ""
        tag = re.search(r'\[\s*Result\s+"([^"]*)"', text)
        if "termination marker" in message and tag:
            marker = termination_marker(text)
            if marker is not None and marker != tag.group(1).strip():
                return "marker", (f"Result tag {tag.group(1)!r}, termination marker {marker!r}: "
                                  "python-chess does not compare them")
        if "Law 6.9" in message:
            board, result = final_board(text)
            winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
            termination = re.search(r'\[\s*Termination\s+"([^"]*)"', text)
            if (board is not None and winner is not None and termination
                    and board.has_insufficient_material(winner)):
                return "time-forfeit", (f"Termination {termination.group(1)!r}, Result {result}: the winner "
                                        "cannot mate (python-chess agrees); python-chess does not apply Law 6.9")
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

    if code in ("clock-rise", "clock-start") and isinstance(ply, int):
        # python-chess reads the clocks (node.clock()) but judges none: the
        # fault is confirmed on its reading of the same comments.
        game = chess.pgn.read_game(io.StringIO(text))
        control = re.search(r'\[\s*TimeControl\s+"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?"', text)
        if game is not None and control:
            base, increment = float(control.group(1)), float(control.group(2) or 0)
            clocks = [node.clock() for node in game.mainline()]
            now = clocks[ply - 1] if 0 < ply <= len(clocks) else None
            before = clocks[ply - 3] if ply >= 3 and ply - 3 < len(clocks) else None
            if code == "clock-rise" and now is not None and before is not None and now > before + increment:
                return "clock", (f"python-chess reads the clock at ply {ply} as {now} s after {before} s, "
                                 f"more than the {increment} s increment; it does not judge clocks")
            if code == "clock-start" and now is not None and ply <= 2 and now > base + increment:
                return "clock", (f"python-chess reads the first clock as {now} s, above the {base} s base "
                                 f"and {increment} s increment; it does not judge clocks")
        return "unexplained", "python-chess's clocks do not show the fault"

    return "unexplained", f"no rule for code {code!r}"


class _MarkerBuilder(chess.pgn.GameBuilder):
    """A GameBuilder that keeps the termination marker it read."""

    def begin_game(self):
        super().begin_game()
        self.marker = None

    def visit_result(self, result):
        self.marker = result
        super().visit_result(result)

    def result(self):
        return self.marker


def termination_marker(text: str):
    """The termination marker python-chess reads at the end of the game's movetext, or None."""
    return chess.pgn.read_game(io.StringIO(text), Visitor=_MarkerBuilder)


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


# ---------------------------------------------------------------- both directions

def first_difference(a: str, b: str) -> str:
    x, y = a.split(), b.split()
    for ply, (p, q) in enumerate(zip(x, y), start=1):
        if p != q:
            return f"ply {ply}: python-chess {p}, pgnkit {q}"
    return f"python-chess {len(x)} plies, pgnkit {len(y)}"


def error_text(view: dict, most: int = 2) -> str:
    shown = [f"{msg.split(' in ')[0]}{'' if main else ' (in a variation)'}" for msg, _, main in view["errors"][:most]]
    more = len(view["errors"]) - most
    return "; ".join(shown) + (f"; +{more} more" if more > 0 else "")


def same_game(reading: dict, uci: str) -> bool:
    return reading["parts"] == 1 and reading["clean"] and reading["uci"] == uci


def judge_game(record, diags, view, uci, get_text):
    """(kind, [(category or None, detail)]) for one game, or None when the
    tools agree. A None category is an unexplained part. get_text() gives the
    game's text."""
    pk_error = record.get("errors", 0) > 0
    py_error = not view["clean"] and view["parts"] > 0 or bool(view["errors"])
    if record.get("status") == "unsupported":
        return "not-compared", [("variant", "pgnkit does not replay this variant (unsupported-variant warning)")]
    if pk_error and py_error:
        return None
    if pk_error:
        if view["parts"] == 0:
            return "pgnkit-error", [(None, "python-chess reads no game in the text")]
        out = []
        ordered = sorted(diags, key=lambda d: d.get("byte") or 0)
        first_explained = None
        for diag in ordered:
            kind, why = classify(diag, view, get_text())
            if kind == "unexplained" and diag is not ordered[0] and first_explained:
                kind, why = "cascade", (f"follows pgnkit's {ordered[0].get('code')} {ordered[0].get('token')!r} "
                                        f"at line {ordered[0].get('line')} ({why})")
            if diag is ordered[0]:
                first_explained = kind != "unexplained"
            detail = (f"line {diag.get('line')}: pgnkit {diag.get('code')} {diag.get('token')!r}: "
                      f"{diag.get('message')}; {why}")
            out.append((None if kind == "unexplained" else kind, detail))
        return "pgnkit-error", out
    # pgnkit is clean.
    if py_error:
        kind = "python-error"
        detail = f"python-chess: {error_text(view)}"
    elif view["parts"] != 1:
        kind = "split"
        detail = f"python-chess reads {view['parts']} games"
    elif view["plies"] != record.get("plies"):
        kind = "plies"
        detail = first_difference(view["uci"], uci or "")
    elif uci is not None and view["uci"] != uci:
        kind = "moves"
        detail = first_difference(view["uci"], uci)
    else:
        pk_status = record.get("status") if record.get("status") in TERMINAL else "other"
        if view["status"] == pk_status:
            return None
        return "final", [(None, f"final position: python-chess {view['status']}, pgnkit {record.get('status')}")]
    if uci is not None:
        # The same text with python-chess's layout limits taken away.
        text = get_text()
        if same_game(read_all(normalize_layout(text)), uci):
            return kind, [("layout", detail + "; with the layout normalized python-chess reads pgnkit's main line")]
        if same_game(read_all(normalize_layout(blank_variation_results(text))), uci):
            return kind, [("result-in-variation", detail + "; with the results inside variations blanked out "
                           "python-chess reads pgnkit's main line")]
    if kind not in ("plies", "moves") and uci is not None and view["uci"] != uci and not uci.startswith(view["uci"]):
        detail += f"; main lines differ at {first_difference(view['uci'], uci)}"
    return kind, [(None, detail)]


def headers_only(text: str) -> bool:
    lines = [line.lstrip() for line in text.splitlines() if line.strip()]
    return bool(lines) and all(line[0] in "[%;" for line in lines)


# ---------------------------------------------------------------- the reviewed list

def read_reviewed(path):
    """Entries (line, file, game, byte, kind, reason) of the reviewed list."""
    entries = []
    if not path or not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 5 or not fields[4].strip():
                raise SystemExit(f"{path}:{number}: expected 5 tab-separated fields "
                                 "(file, game, byte, kind, reason)")
            file, game, byte, kind, reason = fields
            entries.append({"line": number, "file": file, "game": None if game == "-" else int(game),
                            "byte": None if byte == "-" else int(byte), "kind": kind, "reason": reason,
                            "used": False})
    return entries


def find_entry(entries, file, kind, game, byte):
    for entry in entries:
        if entry["file"] == file and entry["kind"] == kind and (
                (entry["game"] is not None and entry["game"] == game)
                or (entry["byte"] is not None and entry["byte"] == byte)
                or (entry["game"] is None and entry["byte"] is None and game is None)):
            return entry
    return None


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--pgnkit", default=os.environ.get("PGNKIT", "pgnkit"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample-above", type=float, default=None, metavar="MB")
    ap.add_argument("--every", type=int, default=1, metavar="K")
    ap.add_argument("--json-from", default=None, help="read pgnkit check's NDJSON from FILE instead of running it")
    ap.add_argument("--convert-from", default=None,
                    help="read `pgnkit convert --to uci --format json` output from FILE instead of running it")
    ap.add_argument("--reviewed", default=DEFAULT_REVIEWED, help="the reviewed list (TSV)")
    ap.add_argument("--root", default=None,
                    help="files in the reviewed list are relative to DIR (default: the common folder of PATH)")
    args = ap.parse_args()

    started = time.time()
    files = list(pgn_files(args.paths))
    if not files:
        print("compare_python_chess.py: no .pgn files", file=sys.stderr)
        return 2
    root = args.root or os.path.commonpath([os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p))
                                            for p in args.paths])
    rel = {path: os.path.relpath(os.path.abspath(path), os.path.abspath(root)) for path in files}
    entries = read_reviewed(args.reviewed)

    if args.json_from:
        with open(args.json_from, "rb") as handle:
            diagnostics, pgnkit_games = parse_pgnkit(handle.read())
    else:
        diagnostics, pgnkit_games = run_pgnkit(args.pgnkit, files, args.jobs)

    # Each pgnkit game's bytes, and which games python-chess reads.
    spans_of = {}
    tasks = []
    sampled = {}
    problems = []
    for path in files:
        size = os.path.getsize(path)
        records = pgnkit_games.get(path, {})
        numbers = sorted(records)
        starts = [0] + [records[n].get("byte") for n in numbers[1:]]
        if numbers != list(range(1, len(numbers) + 1)) or any(
                not isinstance(s, int) for s in starts) or starts != sorted(set(starts)):
            problems.append(f"{path}: pgnkit's game numbers or byte offsets are not in order; cannot align")
            continue
        spans = list(zip(numbers, starts, starts[1:] + [size]))
        spans_of[path] = spans
        chosen = spans
        if args.sample_above is not None and size > args.sample_above * 1e6 and args.every > 1:
            chosen = spans[::args.every]
        sampled[path] = {n for n, _, _ in chosen}
        tasks.append(("count", path, spans))
        for first in range(0, len(chosen), 400):  # pieces, so both cores stay busy on one big file
            tasks.append(("games", path, chosen[first:first + 400]))
    wanted = {(path, n) for path, numbers in sampled.items() for n in numbers}

    if args.convert_from:
        with open(args.convert_from, "rb") as handle:
            uci_of = main_lines(handle, wanted)
    else:
        uci_of = run_convert(args.pgnkit, files, args.jobs, wanted)

    views = collections.defaultdict(dict)
    counts = {}
    # The big tasks first, so no core idles at the end.
    tasks.sort(key=lambda t: -sum(e - s for _, s, e in t[2]) if t[0] == "games" else 0)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for what, path, result in pool.map(python_task, tasks, chunksize=1):
            if what == "count":
                counts[path] = result
            else:
                views[path].update(result)

    results = []  # (status, kind, category, path, game, byte, detail, reason)

    def settle(kind, path, game, byte, parts):
        """Record one disagreement: explained by categories, reviewed, or not."""
        unexplained = [d for c, d in parts if c is None]
        categories = sorted({c for c, _ in parts if c is not None})
        detail = " | ".join(d for _, d in parts[:3]) + (f" | +{len(parts) - 3} more" if len(parts) > 3 else "")
        entry = find_entry(entries, rel[path], kind, game, byte)
        if not unexplained:
            if entry is not None:
                entry["used"] = "redundant"
            results.append(("EXPLAINED", kind, "+".join(categories), path, game, byte, detail, ""))
        elif entry is not None:
            entry["used"] = True
            results.append(("REVIEWED", kind, "reviewed", path, game, byte, detail,
                            f"{entry['reason']} (reviewed list line {entry['line']})"))
        else:
            results.append(("UNEXPLAINED", kind, "unexplained", path, game, byte, detail, ""))

    compared = collections.Counter()
    for path in files:
        if path not in spans_of:
            continue
        spans = spans_of[path]
        records = pgnkit_games.get(path, {})
        data = None
        for number, start, end in spans:
            if number not in views[path]:
                continue
            view = views[path][number]
            record = records[number]
            diags = diagnostics.get((path, number), [])
            def get_text(start=start, end=end):
                nonlocal data
                if data is None:
                    with open(path, "rb") as handle:
                        data = handle.read()
                return decode(data[start:end])
            verdict = judge_game(record, diags, view, uci_of.get((path, number)), get_text)
            compared["games"] += 1
            if verdict is None:
                continue
            kind, parts = verdict
            if kind == "not-compared":
                compared["not-compared"] += 1
                results.append(("EXPLAINED", kind, "variant", path, number, start, parts[0][1], ""))
                continue
            settle(kind, path, number, record.get("byte", start), parts)

        # Game counts: python-chess's whole file against pgnkit's count.
        whole, per_game = counts[path]
        total = sum(per_game.values())
        if whole == len(spans):
            continue
        deficit = 0
        if whole < total:
            # Find where python-chess reads two pgnkit games as one.
            if data is None:
                with open(path, "rb") as handle:
                    data = handle.read()
            for (n1, s1, _), (n2, _, e2) in zip(spans, spans[1:]):
                joined = count_games(decode(data[s1:e2]))
                lost = per_game[n1] + per_game[n2] - joined
                if lost <= 0:
                    continue
                deficit += lost
                earlier = decode(data[s1:spans[n1 - 1][2]])
                if headers_only(earlier):
                    parts = [("headers-run-on", f"python-chess reads games {n1} and {n2} as one: game {n1} has "
                              f"only header lines for python-chess, so game {n2}'s tags become its headers")]
                else:
                    parts = [(None, f"python-chess reads games {n1} and {n2} as one")]
                settle("merge", path, n2, spans[n2 - 1][1], parts)
        splits = total - len(spans)
        unjudged = [n for n, c in per_game.items() if c != 1 and n not in sampled[path]]
        if unjudged:
            settle("game-count", path, None, None, [(None, f"python-chess reads other than one game in games "
                                                     f"{unjudged[:5]}, which the sampling skipped")])
        elif whole == total - deficit:
            how = (f"python-chess reads {whole} games, pgnkit {len(spans)}: {splits:+} from games python-chess "
                   f"splits, {-deficit:+} from merges, each judged above")
            settle("game-count", path, None, None, [("per-game", how)])
        else:
            settle("game-count", path, None, None, [(None, f"python-chess reads {whole} games, pgnkit {len(spans)}; "
                                                     f"the per-game splits and merges give {total - deficit}")])

    # Report.
    order = {"UNEXPLAINED": 0, "REVIEWED": 1, "EXPLAINED": 2}
    for status, kind, category, path, game, byte, detail, reason in sorted(
            results, key=lambda r: (order[r[0]], r[1], r[3], r[4] or 0)):
        if kind == "not-compared":
            continue  # counted in the table only
        where = f"{rel[path]}: game {game} (byte {byte})" if game is not None else f"{rel[path]}"
        label = status if status != "EXPLAINED" else f"EXPLAINED[{category}]"
        print(f"{label}: {kind}: {where}: {detail}" + (f" -- {reason}" if reason else ""))

    stale = []
    unchecked = []
    for entry in entries:
        if entry["used"] is True:
            continue
        paths = [p for p in files if rel[p] == entry["file"]]
        if not paths and not os.path.exists(os.path.join(root, entry["file"])):
            stale.append((entry, "no such file"))
            continue
        if not paths or paths[0] not in spans_of:
            unchecked.append((entry, "its file was not read"))
            continue
        game = entry["game"]
        if game is None and entry["byte"] is not None:
            game = next((n for n, s, _ in spans_of[paths[0]] if s == entry["byte"]), None)
        if game is not None and entry["kind"] != "merge" and game not in sampled.get(paths[0], ()):
            unchecked.append((entry, "the sampling skipped its game"))
            continue
        stale.append((entry, "a category explains it now" if entry["used"] == "redundant"
                      else "no such disagreement now"))
    for entry, why in stale:
        print(f"STALE: reviewed list line {entry['line']}: {entry['file']} game {entry['game']} "
              f"{entry['kind']}: {why}")
    for entry, why in unchecked:
        print(f"note: reviewed list line {entry['line']} not checked: {why}")
    for problem in problems:
        print(f"UNEXPLAINED: {problem}")

    table = collections.Counter((r[1], r[2]) for r in results)
    print(f"\ncompared {compared['games']} games ({len(files)} files) in {time.time() - started:.1f} s; "
          f"disagreements by kind and category:")
    for (kind, category), n in sorted(table.items()):
        print(f"  {kind:14} {category:22} {n}")
    unexplained = sum(1 for r in results if r[0] == "UNEXPLAINED") + len(problems)
    if unexplained or stale:
        print(f"FAIL: {unexplained} unexplained disagreements with python-chess, {len(stale)} stale entries "
              f"in the reviewed list ({args.reviewed})")
        return 1
    print("OK: every disagreement with python-chess is explained or reviewed; no stale entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
