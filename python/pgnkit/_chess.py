"""python-chess interop: `Game.to_python_chess()` and `Game.board()`.

python-chess is imported only here, when one of them is called (``pip
install chess``)."""

from __future__ import annotations

import chess
import chess.pgn


def board(game, ply=None) -> chess.Board:
    """The main-line position after `ply` plies (none: the last) as a
    ``chess.Board``."""
    return chess.Board(game.fen_at(ply), chess960=game.chess960)


def to_python_chess(game) -> chess.pgn.Game:
    """`game` as a ``chess.pgn.Game``: its tags as headers, its main line
    (as far as it was replayed) as nodes, each with its clock."""
    out = chess.pgn.Game()
    # The Seven Tag Roster's defaults, as python-chess reads a game.
    for name, value in game.tags.items():
        out.headers[name] = value
    try:
        position = out.board()
    except ValueError:
        # A FEN tag python-chess cannot read: pgnkit replayed no move
        # either (a bad-fen error).
        return out
    if game.chess960 and not position.chess960:
        position.chess960 = True
    clocks = game.clocks
    node = out
    for ply, uci in enumerate(game.uci):
        move = chess.Move.null() if uci == "0000" else position.parse_uci(uci)
        node = node.add_variation(move)
        position.push(move)
        if ply < len(clocks) and clocks[ply] is not None:
            node.set_clock(clocks[ply])
    return out
