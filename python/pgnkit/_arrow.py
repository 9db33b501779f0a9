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
# The rows of a Parquet row group where `row_group_size` is not given
# (pyarrow's `write_table` default).
ROW_GROUP_ROWS = 1024 * 1024
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


def _named(rows: int, columns, tags: dict) -> dict:
    """A batch's arrays by column name; its tags are added to `tags`."""
    named = {}
    for name, kind, validity, nulls, buffers in columns:
        if kind == "tag":
            kind, name = "string", _tag_column(name)
            tags.setdefault(name, None)
        named[name] = _array(rows, kind, validity, nulls, buffers)
    return named


def _schema(tags: dict) -> pa.Schema:
    """The columns in order: the game's, the tags (the Seven Tag Roster
    first, then as first seen), the replay's."""
    roster = [t for t in ROSTER if t in tags]
    order = list(GAME_COLUMNS) + roster + [t for t in tags if t not in ROSTER] + list(REPLAY_COLUMNS)
    return pa.schema([(name, _type(name, tags)) for name in order])


def _conform(rows: int, named, schema: pa.Schema) -> pa.RecordBatch:
    """A batch with every column of `schema` (nulls for tags it lacks)."""
    return pa.RecordBatch.from_arrays(
        [_or_nulls(named.get(name), rows) for name in schema.names], schema=schema
    )


def table(batches: Iterable) -> pa.Table:
    """The table of every batch (tags seen in any batch are columns of all)."""
    tags: dict[str, None] = {}
    arrays = [(rows, _named(rows, columns, tags)) for rows, columns in batches]
    schema = _schema(tags)
    return pa.Table.from_batches([_conform(rows, named, schema) for rows, named in arrays], schema=schema)


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
    """Writes the table of `batches` to `path`; the number of rows.

    Memory stays bounded: each batch is spilled to an Arrow file in a
    temporary folder beside `path` as it comes (the columns are known only
    once every game is read), then read back by memory map, one at a time,
    into a Parquet file written beside `path` and renamed over it (a link is
    written through to its target): a failure leaves `path` as it was.
    """
    import os
    import tempfile

    import pyarrow.parquet as pq

    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    row_group_size = options.pop("row_group_size", None)
    tags: dict[str, None] = {}
    total = 0
    with tempfile.TemporaryDirectory(prefix=".pgnkit-parquet-", dir=folder) as spill:
        parts = []
        for i, (rows, columns) in enumerate(batches):
            named = _named(rows, columns, tags)
            batch = pa.RecordBatch.from_arrays(list(named.values()), names=list(named))
            part = os.path.join(spill, f"{i}.arrow")
            with pa.OSFile(part, "wb") as sink, pa.ipc.new_file(sink, batch.schema) as writer:
                writer.write_batch(batch)
            parts.append((rows, part))
            total += rows
        schema = _schema(tags)
        temporary = os.path.join(spill, "out.parquet")
        # Row groups span batches (a batch is one chunk of the input, a few
        # hundred games): batches are gathered, memory-mapped, as long as
        # they fit a group's rows (pyarrow's default without
        # `row_group_size`); a larger batch is split by pyarrow.
        group_rows = row_group_size or ROW_GROUP_ROWS
        with pq.ParquetWriter(temporary, schema, **options) as writer:
            group, mapped, rows_in_group = [], [], 0

            def write_group():
                if group:
                    table = pa.Table.from_batches(group, schema=schema)
                    writer.write_table(table, row_group_size=group_rows)
                for source, part in mapped:
                    source.close()
                    os.remove(part)
                group.clear()
                mapped.clear()

            for rows, part in parts:
                if group and rows_in_group + rows > group_rows:
                    write_group()
                    rows_in_group = 0
                source = pa.memory_map(part)
                batch = pa.ipc.open_file(source).get_batch(0)
                named = {name: batch.column(name) for name in batch.schema.names}
                group.append(_conform(rows, named, schema))
                mapped.append((source, part))
                rows_in_group += rows
            write_group()
        os.replace(temporary, target)
    return total
