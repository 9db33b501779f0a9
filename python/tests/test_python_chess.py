"""`Game.to_python_chess()` against python-chess's own reading of the same
game text: the same main line, the same final position, the same tags."""

import io
import pathlib

import chess
import chess.pgn
import pytest

import pgnkit
from conftest import ROOT, TESTDATA

FILES = sorted(
    p
    for folder in ("check", "pgn", "convert", "clocks", "scale")
    for p in (TESTDATA / folder).glob("*.pgn")
)
REAL = ROOT.parent / "shared" / "corpus" / "bench" / "real.pgn"


def _games(path: pathlib.Path, limit: int):
    for n, game in enumerate(pgnkit.read(path)):
        if n == limit:
            return
        yield game


def _compare(game: pgnkit.Game) -> bool:
    """Whether `game` and python-chess's reading of its text agree (False:
    python-chess could not read it, nothing compared)."""
    theirs = chess.pgn.read_game(io.StringIO(game.text()))
    if theirs is None or theirs.errors or game.errors or game.language != "en":
        # python-chess reads English SAN only.
        return False
    if "Variant" in game.tags or type(theirs.board()) is not chess.Board:
        # A variant (Antichess, …): pgnkit replays chess only.
        return False
    ours = game.to_python_chess()
    our_line = [m.uci() for m in ours.mainline_moves()]
    their_line = [m.uci() for m in theirs.mainline_moves()]
    if len(their_line) < len(our_line) and our_line[: len(their_line)] == their_line:
        # python-chess stopped reading where pgnkit did not: tags and moves
        # on one line, CR-only line ends, leading whitespace.
        return False
    assert our_line == their_line
    # EPD: python-chess and pgnkit count the clocks differently after a
    # null move.
    assert ours.end().board().epd() == theirs.end().board().epd()
    assert chess.Board(game.fen, chess960=game.chess960).epd() == theirs.end().board().epd()
    for name in ("White", "Black", "Event"):
        if theirs.headers.get(name, "?") != "?":
            # (pgnkit also reads tags written `[ Event  "…"]`.)
            assert ours.headers.get(name) == theirs.headers.get(name)
    if game.clocks and any(c is not None for c in game.clocks):
        assert [n.clock() for n in ours.mainline()] == [n.clock() for n in theirs.mainline()]
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_round_trip_against_python_chess(path):
    compared = [_compare(g) for g in _games(path, 300)]
    assert compared, "no game read"


def test_round_trip_on_real_games():
    if not REAL.exists():
        pytest.fail(f"{REAL} is missing: the shared corpus stands beside the repository")
    compared = [_compare(g) for g in _games(REAL, 400)]
    assert sum(compared) >= 350


def test_board_is_the_position_after_a_ply():
    game = next(pgnkit.read(b"1. e4 e5 2. Nf3 Nc6 *"))
    assert game.board(0) == chess.Board()
    b = chess.Board()
    for san in ["e4", "e5", "Nf3"]:
        b.push_san(san)
    assert game.board(3).fen() == b.fen()
    with pytest.raises(ValueError):
        game.board(5)
