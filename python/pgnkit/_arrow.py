"""Arrow tables from the column buffers the Rust side builds per chunk.

Each batch is ``(rows, columns)``; each column ``(name, type, validity,
null_count, buffers)`` where the buffers are Arrow's own (32-bit offsets,
little-endian values, a least-significant-bit-first validity bitmap), so
``pyarrow.Array.from_buffers`` takes them as they are.
"""

from __future__ import annotations

from typing import Iterable

import pyarrow as pa

# The columns every table has, in order; the tags stand between `byte` and
# `moves`, the Seven Tag Roster first.
GAME_COLUMNS = ("game", "byte")
REPLAY_COLUMNS = (
    "moves",
    "uci",
    "plies",
    "status",
    "result",
    "result_tag",
    "language",
    "errors",
    "warnings",
    "first_error_ply",
    "first_error_code",
    "fen",
)
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
TYPES = {
    "string": pa.string(),
    "uint32": pa.uint32(),
    "uint64": pa.uint64(),
    "list<string>": pa.list_(pa.string()),
}


def _array(rows: int, kind: str, validity, nulls: int, buffers) -> pa.Array:
    valid = None if validity is None else pa.py_buffer(validity)
    if kind == "list<string>":
        offsets, item_offsets, values = buffers
        items = len(item_offsets) // 4 - 1
        child = pa.Array.from_buffers(
            pa.string(), items, [None, pa.py_buffer(item_offsets), pa.py_buffer(values)]
        )
        return pa.Array.from_buffers(
            TYPES[kind], rows, [None, pa.py_buffer(offsets)], children=[child]
        )
    return pa.Array.from_buffers(
        TYPES[kind], rows, [valid] + [pa.py_buffer(b) for b in buffers], null_count=nulls
    )


def _tag_column(name: str) -> str:
    """A tag's column name (a tag named like a game column is ``tag_NAME``)."""
    return f"tag_{name}" if name in GAME_COLUMNS or name in REPLAY_COLUMNS else name


def table(batches: Iterable) -> pa.Table:
    """The table of every batch (tags seen in any batch are columns of all)."""
    arrays = []
    tags: dict[str, None] = {}
    for rows, columns in batches:
        named = {}
        for name, kind, validity, nulls, buffers in columns:
            if kind == "tag":
                kind, name = "string", _tag_column(name)
                tags.setdefault(name, None)
            named[name] = _array(rows, kind, validity, nulls, buffers)
        arrays.append((rows, named))
    roster = [t for t in ROSTER if t in tags]
    order = list(GAME_COLUMNS) + roster + [t for t in tags if t not in ROSTER] + list(REPLAY_COLUMNS)
    schema = pa.schema([(name, _type(name, tags)) for name in order])
    out = [
        pa.RecordBatch.from_arrays(
            [_or_nulls(named.get(name), rows) for name in order], schema=schema
        )
        for rows, named in arrays
    ]
    return pa.Table.from_batches(out, schema=schema)


def _or_nulls(array, rows: int) -> pa.Array:
    """`array`, or a column of nulls for a tag that no game of the batch has."""
    return pa.nulls(rows, pa.string()) if array is None else array


def _kind(name: str) -> str:
    if name in ("moves", "uci"):
        return "list<string>"
    if name in ("game", "byte"):
        return "uint64"
    if name in ("plies", "errors", "warnings", "first_error_ply"):
        return "uint32"
    return "string"


def _type(name: str, tags) -> pa.DataType:
    return pa.string() if name in tags else TYPES[_kind(name)]


def parquet(batches: Iterable, path: str, options: dict) -> int:
    """Writes the table of `batches` to `path`; the number of rows."""
    import pyarrow.parquet as pq

    t = table(batches)
    pq.write_table(t, path, **options)
    return t.num_rows
