"""The rest of the API: `to_arrow`/`to_parquet` (one row per game, the
schema of docs/python.md), `check`, `convert`, compressed inputs, progress."""

import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pgnkit
from conftest import TESTDATA, run_cli

SCALE = TESTDATA / "scale"


def test_compressed_files_give_the_same_games():
    plain = [(g.tags, g.moves, g.status) for g in pgnkit.read(SCALE / "gotd.pgn")]
    assert len(plain) > 50
    for ext in ("gz", "bz2", "zst"):
        path = SCALE / f"gotd.pgn.{ext}"
        assert [(g.tags, g.moves, g.status) for g in pgnkit.read(path)] == plain
        assert [(g.tags, g.moves) for g in pgnkit.read(path.read_bytes())] == [
            (t, m) for t, m, _ in plain
        ]


def test_file_objects_are_sources(tmp_path):
    import io

    path = SCALE / "gotd.pgn"
    expected = [(g.tags, g.moves) for g in pgnkit.read(path)]
    with open(path, "rb") as f:
        games = list(pgnkit.read(f))
    assert [(g.tags, g.moves) for g in games] == expected and games[0].file == str(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        assert [(g.tags, g.moves) for g in pgnkit.read(f)] == expected
    # A reader that decompresses (xz, which pgnkit itself does not read)
    # has the compressed file's name: read, not taken for that file.
    import lzma

    xz = tmp_path / "gotd.pgn.xz"
    xz.write_bytes(lzma.compress(path.read_bytes()))
    with lzma.open(xz, "rb") as f:
        assert [(g.tags, g.moves) for g in pgnkit.read(f)] == expected
    stream = io.BytesIO(path.read_bytes())
    games = list(pgnkit.read(stream))
    assert [(g.tags, g.moves) for g in games] == expected and games[0].file == "<stream>"
    # A file read part of the way is read from where it stands.
    with open(path, "rb") as f:
        f.readline()
        rest = list(pgnkit.read(f))
    assert rest and rest[0].file == str(path)
    text = io.StringIO("1. e4 e5 2. Ke3 *")
    assert next(pgnkit.read(text)).errors[0].code == "illegal-move"


def test_str_with_a_line_break_is_pgn_text():
    games = list(pgnkit.read("[White \"Tal\"]\n\n1. e4 e5 *\n"))
    assert games[0].tags == {"White": "Tal"} and games[0].file == "<str>"


def test_languages_are_read_and_can_be_forced():
    german = b"1. e4 e5 2. Sf3 Sc6 3. Lb5 *"
    game = next(pgnkit.read(german))
    assert (game.language, game.moves[-1]) == ("de", "Bb5")
    forced = next(pgnkit.read(german, lang="fr"))
    assert forced.errors


def test_to_arrow_has_one_row_per_game_and_the_schema(pgnkit_bin):
    path = TESTDATA / "check" / "illegal-ambiguous.pgn"
    table = pgnkit.to_arrow(path, jobs=2)
    games = list(pgnkit.read(path))
    assert table.num_rows == len(games)
    assert table.column_names[:2] == ["game", "byte"]
    assert table.column_names[-12:] == [
        "moves", "uci", "plies", "status", "result", "result_tag", "language", "errors",
        "warnings", "first_error_ply", "first_error_code", "fen",
    ]
    assert table.schema.field("moves").type == pa.list_(pa.string())
    rows = table.to_pylist()
    for row, game in zip(rows, games):
        assert row["game"] == game.number and row["byte"] == game.byte
        assert row["moves"] == game.moves and row["uci"] == game.uci
        assert (row["status"], row["result"], row["plies"]) == (game.status, game.result, game.plies)
        assert row["errors"] == len(game.errors)
        first = game.errors[0] if game.errors else None
        assert row["first_error_ply"] == (first.ply if first else None)
        assert row["first_error_code"] == (first.code if first else None)
        assert row["fen"] == game.fen
        for name, value in game.tags.items():
            assert row[name] == value


def test_tags_missing_from_a_chunk_are_null(tmp_path):
    # More than one chunk (2 MB), the second with a tag the first lacks.
    game = (SCALE / "gotd.pgn").read_bytes()
    data = game * (3_000_000 // len(game) + 1) + b'[Event "late"]\n[Annotator "X"]\n\n1. e4 *\n'
    table = pgnkit.to_arrow(data)
    assert table.column("Annotator").null_count == table.num_rows - 1
    assert table.column("Event").to_pylist()[-1] == "late"
    assert table.column("game").to_pylist() == list(range(1, table.num_rows + 1))
    out = tmp_path / "games.parquet"
    assert pgnkit.to_parquet(data, out, compression="zstd") == table.num_rows
    assert pq.read_table(out).equals(table)
    # One row group for the whole file (batches are chunks of the input).
    assert pq.ParquetFile(out).metadata.num_row_groups == 1
    assert pgnkit.to_parquet(data, out, row_group_size=1000) == table.num_rows
    meta = pq.ParquetFile(out).metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert max(sizes) <= 1000 and len(sizes) < table.num_rows / 500, sizes


def test_to_parquet_replaces_a_file_whole_or_not_at_all(tmp_path):
    data = (SCALE / "gotd.pgn").read_bytes()
    out = tmp_path / "games.parquet"
    out.write_bytes(b"keep")
    with pytest.raises(Exception):
        pgnkit.to_parquet(data, out, compression="no-such-codec")
    assert out.read_bytes() == b"keep"
    assert [p.name for p in tmp_path.iterdir()] == ["games.parquet"], "nothing left behind"
    # Through a link: the target is written, the link stays.
    target = tmp_path / "target.parquet"
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    rows = pgnkit.to_parquet(data, link)
    assert link.is_symlink() and pq.read_table(target).num_rows == rows > 50


def test_check_gives_the_records_of_the_cli(pgnkit_bin):
    folder = TESTDATA / "check"
    paths = [folder / "illegal-ambiguous.pgn", folder / "claims.pgn"]
    result = pgnkit.check(paths, jobs=1, games=True)
    cli = run_cli(pgnkit_bin, "check", "--games", "--format", "json", "--no-config", "-j1",
                  *map(str, paths), cwd=folder)
    drop = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert [drop(r) for r in result.records] == [drop(r) for r in cli]
    assert result.summary["games"] == 5 and not result.ok
    assert len(result.diagnostics) == 3 and len(result.games) == 5
    assert pgnkit.check(folder / "claims.pgn").ok


def test_convert_to_a_string_and_to_a_file(tmp_path, pgnkit_bin):
    path = TESTDATA / "check" / "languages.pgn"
    text = pgnkit.convert(path, to="figurine")
    out = tmp_path / "out.pgn"
    assert pgnkit.convert(path, to="figurine", output=out) is None
    assert out.read_text() == text
    cli = subprocess.run(
        [str(pgnkit_bin), "convert", "--to", "figurine", "-q", str(path)],
        capture_output=True, check=False,
    )
    assert text == cli.stdout.decode()
    assert pgnkit.convert(b"1. e4 e5 2. Nf3 *", to="san", lang="de") == "1. e4 e5 2. Sf3 *\n\n"
    assert pgnkit.convert(b"1. e4 e5 *", to="uci", format="line").strip() == (
        "position startpos moves e2e4 e7e5"
    )


def test_progress_is_called_with_bytes():
    seen = []
    games = list(pgnkit.read(SCALE / "gotd.pgn", progress=lambda done, total: seen.append((done, total))))
    assert games and seen[-1] == ((SCALE / "gotd.pgn").stat().st_size,) * 2


def test_game_pgn_and_text():
    game = next(pgnkit.read(b'[White "A"]\n[Black "B"]\n\n1.e4 e5 2.Nf3 Nc6 *'))
    assert game.pgn().startswith('[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 *')
    assert game.text() == '[White "A"]\n[Black "B"]\n\n1.e4 e5 2.Nf3 Nc6 *'
    assert repr(game).startswith("<pgnkit.Game 1 of")


def test_illegal_moves_that_stood():
    pgn = b'[TimeControl "180+2"]\n\n1. e4 Bc5 2. Nf3 Nc6 *\n'
    stopped = next(pgnkit.read(pgn))
    assert stopped.moves == ["e4"] and stopped.status == "invalid"
    stood = next(pgnkit.read(pgn, illegal_moves="stand"))
    # A move that stood is written from its square, as `pgnkit convert` writes it.
    assert stood.moves == ["e4", "Bf8c5", "Nf3", "Nc6"]
    assert stood.pgn().startswith('[TimeControl "180+2"]\n\n1. e4 Bf8c5 2. Nf3 Nc6 *')
    assert stood.errors[0].stood and stood.errors[0].code == "illegal-move"
    assert stood.record()["rulings"]  # the Laws' ruling on it (the article: check_fixtures)
    table = pgnkit.to_arrow(pgn, illegal_moves="stand")
    assert table.column("moves").to_pylist() == [stood.moves]
    assert pgnkit.check([TESTDATA / "illegal" / "broadcast.pgn"], illegal_moves="stand").games == []


def test_a_broadcast_game_sent_again_as_check_says(pgnkit_bin, tmp_path):
    path = tmp_path / "broadcast.pgn"
    path.write_bytes(b'[White "A"]\n\n1. e4 e5 *\n\n[White "A"]\n\n1. e4 e5 2. Nf3 *\n')
    cli = run_cli(pgnkit_bin, "check", "--illegal-moves", "stand", "--format", "json",
                  "--no-config", path.name, cwd=tmp_path)
    expected = [r for r in cli if r["type"] == "diagnostic"]
    assert [r["code"] for r in expected] == ["resent-game"]
    games = list(pgnkit.read(path, illegal_moves="stand"))
    mine = [d.record for g in games for d in g.diagnostics]
    assert [dict(r, file=path.name) for r in mine] == expected
    assert not [d for g in pgnkit.read(path) for d in g.diagnostics]
