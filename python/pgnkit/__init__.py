"""pgnkit for Python: read, check and convert PGN chess databases under the
FIDE Laws of Chess, fast, in any notation and language.

Every game is replayed move by move under the Laws (in Rust, on worker
threads, without the GIL): each game gets its status (checkmate, stalemate,
a draw by the rules, ongoing, invalid), the result the rules give, the draws
that became claimable, and every problem with its line, column and what was
probably meant.

>>> import pgnkit
>>> game = next(pgnkit.read(b"1. f3 e5 2. g4 Qh4# 0-1"))
>>> game.moves
['f3', 'e5', 'g4', 'Qh4#']
>>> game.status, game.result
('checkmate', '0-1')
>>> bad = next(pgnkit.read(b"1. e4 e5 2. Ke3 *"))
>>> [(e.code, e.ply, e.line, e.column) for e in bad.errors]
[('illegal-move', 3, 1, 13)]

Inputs: a path (``str`` or ``os.PathLike``; ``.zst``, ``.gz`` and ``.bz2``
files are recognised by their first bytes), PGN as ``bytes`` (compressed
or not), or a file object open for reading (binary or text: a file opened
on a path at its start is read from the path, streamed; any other, such as
``io.BytesIO`` or a pipe, is read whole). A ``str`` that holds a line break
is taken as PGN text, any other ``str`` as a path.
"""

from __future__ import annotations

import io
import json
import os
from typing import IO, Any, Callable, Iterator, Optional, Sequence, Union

from ._pgnkit import Diagnostic, Game, ReadError, __version__
from . import _pgnkit

__all__ = [
    "Diagnostic",
    "Game",
    "ReadError",
    "CheckResult",
    "read",
    "check",
    "convert",
    "to_arrow",
    "to_parquet",
    "__version__",
]

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", IO[Any]]
Progress = Callable[[int, Optional[int]], Any]


def _source(source: Source) -> tuple:
    """`(path, data, name)`: how the Rust side names an input."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return (None, bytes(source), "<bytes>")
    if isinstance(source, str):
        if "\n" in source or "\r" in source:
            return (None, source.encode("utf-8"), "<str>")
        return (source, None, source)
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        return (path, None, path)
    if callable(getattr(source, "read", None)):
        return _file_object(source)
    raise TypeError(
        "a source is a path (str or os.PathLike), PGN as bytes or a file object, "
        f"not {type(source).__name__}"
    )


def _file_object(source: IO[Any]) -> tuple:
    """A file object: its path where it is a plain file opened at its start
    (read by pgnkit, streamed), else what it reads, whole."""
    path = _plain_file(source)
    if path is not None:
        try:
            at_start = source.tell() == 0
        except (OSError, ValueError):
            at_start = False
        if at_start:
            return (path, None, path)
    data = source.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"the file object read {type(data).__name__}, not bytes or str")
    name = getattr(source, "name", None)
    return (None, bytes(data), name if isinstance(name, str) else "<stream>")


def _plain_file(source: IO[Any]) -> Optional[str]:
    """The path of the file `source` reads as it is (``open()`` in binary or
    text mode: an ``io.FileIO`` underneath), checked to be the file open
    (same device and inode); ``None`` for anything else (a member of an
    archive, a decompressing reader, a pipe, a file renamed since)."""
    raw = getattr(source, "buffer", source)
    raw = getattr(raw, "raw", raw)
    name = getattr(raw, "name", None)
    if not isinstance(raw, io.FileIO) or not isinstance(name, str):
        return None
    try:
        opened, named = os.fstat(raw.fileno()), os.stat(name)
    except (OSError, ValueError):
        return None
    if (opened.st_dev, opened.st_ino) != (named.st_dev, named.st_ino):
        return None
    return name


def read(
    source: Source,
    lang: str = "auto",
    illegal_moves: str = "stop",
    *,
    jobs: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> Iterator[Game]:
    """The games of `source`, in order, each replayed under the Laws.

    `lang` is the piece-letter language of the moves: ``"auto"`` detects it
    per game, a code (``"de"``, ``"fr"``, ``"ru"``, …) reads only that one
    plus English SAN. `illegal_moves`: ``"stop"`` ends a game's main line
    at its first illegal move (the error says where); ``"stand"`` plays a
    move whose piece the token names as written (a board-fed broadcast, a
    rapid game where it stood), reports it as an ``illegal-move`` that
    stood (``Diagnostic.stood``) and goes on; the game record then has the
    Laws' ``rulings`` on it (``pgnkit check --illegal-moves stand``).

    The file is read a chunk (about 2 MB) at a time and replayed by `jobs`
    worker threads (default: one per core) a few chunks ahead, so memory
    stays bounded whatever the file's size. `progress(bytes_done,
    bytes_total)` is called after each chunk (`bytes_total` is None when
    unknown); ``tqdm`` fits::

        with tqdm(unit="B", unit_scale=True) as bar:
            for game in pgnkit.read(path, progress=lambda done, total: bar.update(done - bar.n)):
                ...

    Raises ``ReadError`` (an ``OSError``, with ``file``, ``game``, ``line``
    and ``column``) for an input that cannot be read; problems in games are
    never exceptions: they are each game's ``diagnostics``.

    >>> import pgnkit
    >>> [g.number for g in pgnkit.read(b"1. e4 *\\n\\n1. d4 *\\n")]
    [1, 2]
    """
    return _pgnkit.Games(_source(source), (lang, illegal_moves, jobs, progress))


class CheckResult:
    """What `check` found: the records of ``pgnkit check --format json``.

    ``records`` is every record in order (dicts); ``diagnostics``,
    ``games`` and ``failures`` are those of each type, ``summary`` the
    summary record.
    """

    def __init__(self, records: list[dict]):
        self.records = records
        self.summary: dict = next((r for r in reversed(records) if r.get("type") == "summary"), {})
        self.diagnostics = [r for r in records if r.get("type") == "diagnostic"]
        self.games = [r for r in records if r.get("type") == "game"]
        self.failures = [r for r in records if r.get("type") == "error"]

    @property
    def ok(self) -> bool:
        """No error in any game, and every input read."""
        return not self.failures and not self.summary.get("errors", 0)

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<pgnkit.CheckResult {s.get('files', 0)} files, {s.get('games', 0)} games, "
            f"{s.get('errors', 0)} errors, {s.get('warnings', 0)} warnings>"
        )


def check(
    paths: Union[Source, Sequence[Union[str, "os.PathLike[str]"]]],
    jobs: Optional[int] = None,
    *,
    games: bool = False,
    lang: str = "auto",
    illegal_moves: str = "stop",
) -> CheckResult:
    """``pgnkit check --format json`` on files and directories (the PGN files
    under a directory, ``.gitignore`` honoured), as Python objects.

    With ``games=True`` each game's record is included (``--games``);
    `lang` and `illegal_moves` are as for `read`.
    Settings files (``pgnkit.toml``) are not read. An input that cannot be
    read is an ``error`` record in ``failures``, not an exception.

    >>> import pgnkit
    >>> pgnkit.check("games.pgn").summary["errors"]  # doctest: +SKIP
    0
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names = [os.fspath(p) for p in paths]
    out = _pgnkit.check_records(
        names, jobs=jobs, games=games, lang=lang, illegal_moves=illegal_moves
    )
    return CheckResult([json.loads(line) for line in out.splitlines() if line])


def convert(
    source: Source,
    to: str = "san",
    lang: str = "en",
    *,
    format: str = "pgn",
    output: Optional[Union[str, "os.PathLike[str]"]] = None,
    jobs: Optional[int] = None,
    illegal_moves: str = "stop",
) -> Optional[str]:
    """``pgnkit convert``: the games of `source` written in notation `to`
    (``san``, ``lan``, ``uci``, ``figurine``, ``iccf``, ``descriptive``,
    ``spoken``, …; or ``fen``/``epd`` for the last position of each game)
    with piece letters of language `lang`.

    `format`: ``"pgn"`` (export format), ``"text"`` (one move a line) or
    ``"line"`` (with ``to="uci"``: a UCI ``position`` command per game).
    Returns the text, or writes it to `output` (whole or not at all) and
    returns None.

    >>> import pgnkit
    >>> pgnkit.convert(b"1. e4 e5 2. Nf3 *", to="figurine")
    '1. e4 e5 2. ♘f3 *\\n\\n'
    """
    out = None if output is None else os.fspath(output)
    return _pgnkit.convert_input(
        _source(source), to=to, lang=lang, format=format, output=out, jobs=jobs,
        illegal_moves=illegal_moves,
    )


def to_arrow(
    source: Source,
    jobs: Optional[int] = None,
    *,
    lang: str = "auto",
    illegal_moves: str = "stop",
    progress: Optional[Progress] = None,
) -> "pyarrow.Table":  # noqa: F821
    """The games of `source` as a ``pyarrow.Table``, one row per game (read
    as `read` reads them, `lang` and `illegal_moves` alike): every tag as a
    column, the moves as a list column, the status, the results,
    the error counts (the schema is in ``docs/python.md``).
    ``polars.from_arrow(table)`` and ``table.to_pandas()`` take it further.
    """
    from . import _arrow

    return _arrow.table(_batches(source, jobs, lang, illegal_moves, progress))


def to_parquet(
    source: Source,
    path: Union[str, "os.PathLike[str]"],
    jobs: Optional[int] = None,
    *,
    lang: str = "auto",
    illegal_moves: str = "stop",
    progress: Optional[Progress] = None,
    **parquet_options: Any,
) -> int:
    """Writes `to_arrow(source)` to the Parquet file `path`; returns the
    number of games. `parquet_options` go to ``pyarrow.parquet.write_table``
    (``compression="zstd"``, …)."""
    from . import _arrow

    return _arrow.parquet(
        _batches(source, jobs, lang, illegal_moves, progress), os.fspath(path), parquet_options
    )


def _batches(source, jobs, lang, illegal_moves, progress) -> _pgnkit.Batches:
    return _pgnkit.Batches(_source(source), (lang, illegal_moves, jobs, progress))
