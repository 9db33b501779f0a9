"""Types of the Rust extension module `pgnkit._pgnkit` (use `pgnkit`'s
functions rather than these classes' constructors)."""

from typing import Any, Callable, Iterator, Optional

import chess
import chess.pgn

__version__: str

class ReadError(OSError):
    """An input that cannot be read (missing, a directory, binary data, a
    corrupt compressed stream)."""

    file: str
    """The input's name: the path as given, ``<bytes>`` or ``<str>``."""
    game: Optional[int]
    """1-based number of the game being read when it failed (None: the
    input could not be opened)."""
    line: Optional[int]
    """1-based line where the failing chunk starts (None: not opened)."""
    column: Optional[int]
    """Always None: a whole input or chunk failed, not a token."""

class Diagnostic:
    """One problem found in a game.

    >>> d = next(pgnkit.read(b"1. e4 e5 2. Ke3 *")).errors[0]
    >>> d.code, d.severity, d.ply, d.line, d.column
    ('illegal-move', 'error', 3, 1, 13)
    >>> d.suggestions[0]["san"]
    'Ke2'
    """

    code: str
    """The stable code: ``illegal-move``, ``ambiguous-move``, ``syntax``,
    ``result-mismatch``, ``null-move``, … (``pgnkit explain CODE``)."""
    severity: str
    """``error`` or ``warning``."""
    ply: Optional[int]
    """1-based ply in its line (main line or variation), when about a move."""
    move_number: Optional[int]
    side: Optional[str]
    """``white`` or ``black``: whose move."""
    line: int
    """1-based line in the input."""
    column: int
    """1-based column (characters for UTF-8 text, else bytes)."""
    byte: int
    """0-based byte offset in the (decompressed) input."""
    game: int
    """1-based number of the game in its input."""
    token: Optional[str]
    """The token as written."""
    message: str
    """One plain sentence."""
    variation: bool
    """The token is inside a variation."""
    stood: bool
    """An illegal move that stood (``illegal_moves="stand"``)."""
    suggestions: list[dict[str, Any]]
    """What was probably meant, best first: each with ``san``, ``written``,
    ``reason``, ``score``, ``best``, ``confirmed``, ``replays``, ``action``."""
    record: dict[str, Any]
    """The ``pgnkit check --format json`` record of this diagnostic."""

class Game:
    """One game read by `pgnkit.read`.

    >>> g = next(pgnkit.read(b"1. f3 e5 2. g4 Qh4# 0-1"))
    >>> g.moves, g.uci[:2], g.status, g.result
    (['f3', 'e5', 'g4', 'Qh4#'], ['f2f3', 'e7e5'], 'checkmate', '0-1')
    """

    file: str
    """The input's name."""
    number: int
    """1-based number of the game in its input, as ``pgnkit check`` counts."""
    byte: int
    """Byte offset of the game in its (decompressed) input."""
    tags: dict[str, str]
    """The tags in order (decoded: Latin-1 files are read as such)."""
    moves: list[str]
    """The main line in SAN (English letters, ``+``/``#`` as the rules
    give them; ``--`` for a null move), up to its first move that cannot
    be played."""
    uci: list[str]
    """The same moves in UCI (``0000`` for a null move)."""
    plies: int
    """Main-line plies replayed."""
    status: str
    """Status under the Laws: ``checkmate``, ``stalemate``,
    ``insufficient-material``, ``fivefold-repetition``,
    ``seventyfive-moves``, ``ongoing``, ``invalid``, …"""
    result: Optional[str]
    """The result the rules give (``1-0``, ``0-1``, ``1/2-1/2``), or None."""
    result_tag: Optional[str]
    """The Result tag as written."""
    language: str
    """The piece-letter language the moves were read in."""
    chess960: bool
    """Played under Chess960 castling rules."""
    fen: Optional[str]
    """FEN of the main line's last position (the game record's ``fen``; None
    for a game whose FEN tag could not be set up)."""
    claims: list[dict[str, Any]]
    """Draws that became claimable (threefold repetition, 50-move rule),
    as in the ``check --games`` record."""
    clocks: list[Optional[float]]
    """The clock after each main-line ply in seconds (``[%clk]``); empty
    when the game has none."""
    diagnostics: list[Diagnostic]
    """Every problem found (errors and warnings), in text order."""
    errors: list[Diagnostic]
    """The diagnostics of severity ``error``."""
    warnings: list[Diagnostic]
    """The diagnostics of severity ``warning``."""
    def record(self) -> dict[str, Any]:
        """The ``pgnkit check --games --format json`` record of the game."""
    def fen_at(self, ply: Optional[int] = None) -> str:
        """FEN after `ply` plies (0: the start; None: the last).
        ``ValueError`` beyond the last ply replayed."""
    def board(self, ply: Optional[int] = None) -> chess.Board:
        """The position after `ply` plies as a python-chess ``Board``."""
    def to_python_chess(self) -> chess.pgn.Game:
        """The game as a python-chess ``chess.pgn.Game`` (tags, main line,
        clocks)."""
    def pgn(self) -> str:
        """The game written back in PGN export format, moves in SAN."""
    def text(self) -> str:
        """The game's text as it stands in its input."""
    def __len__(self) -> int: ...

class Games(Iterator[Game]):
    """The iterator `pgnkit.read` returns."""

    def __next__(self) -> Game: ...

Column = tuple[str, str, Optional[bytes], int, tuple[bytes, ...]]

class Batches(Iterator[tuple[int, list[Column]]]):
    """One `(rows, columns)` batch per chunk, for `pgnkit.to_arrow`."""

    def __next__(self) -> tuple[int, list[Column]]: ...

def check_records(
    paths: list[str],
    jobs: Optional[int] = None,
    games: bool = False,
    lang: str = "auto",
    illegal_moves: str = "stop",
) -> bytes: ...
def convert_input(
    source: tuple[Optional[str], Optional[bytes], str],
    to: str = "san",
    lang: str = "en",
    format: str = "pgn",
    output: Optional[str] = None,
    jobs: Optional[int] = None,
    illegal_moves: str = "stop",
) -> Optional[str]: ...
