"""Hostile input: whatever the bytes, `pgnkit` raises `pgnkit.ReadError`
(with the file, game and line) or gives games with their diagnostics;
the interpreter never crashes, and memory stays bounded on a large stream."""

import bz2
import gzip
import os
import pathlib
import random
import subprocess
import sys
import textwrap

import pytest

import pgnkit
from conftest import ROOT, TESTDATA


def _consume(source, **kwargs) -> int:
    """Reads every game and every property; the games read, or -1 for a
    ReadError (which must name its file)."""
    try:
        n = 0
        for game in pgnkit.read(source, **kwargs):
            game.tags, game.moves, game.uci, game.fen, game.status, game.record()
            for d in game.diagnostics:
                assert d.line >= 1 and d.column >= 1 and d.message
            n += 1
        return n
    except pgnkit.ReadError as e:
        assert e.file is not None and str(e)
        return -1


def _hostile_dir(tmp_path_factory) -> pathlib.Path:
    """The hostile classes of `testdata/hostile` (`cargo run --example
    hostile`), 100 kB each, or those in ``PGNKIT_HOSTILE_DIR``."""
    given = os.environ.get("PGNKIT_HOSTILE_DIR")
    if given:
        return pathlib.Path(given)
    out = tmp_path_factory.mktemp("hostile")
    subprocess.run(
        ["cargo", "run", "-q", "-p", "pgnkit", "--example", "hostile", "--", str(out), "100000"],
        cwd=ROOT, check=True, capture_output=True, timeout=900,
    )
    return out


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> list[pathlib.Path]:
    files = sorted(_hostile_dir(tmp_path_factory).glob("*.pgn"))
    assert len(files) >= 15, "the hostile classes were not written"
    return files


def test_hostile_classes(hostile):
    for path in hostile:
        assert _consume(path, jobs=2) != 0 or path.stat().st_size == 0, path
        # Bytes too (streamed, not mapped).
        _consume(path.read_bytes())
        for use in (pgnkit.to_arrow, pgnkit.convert):
            try:
                use(path)
            except pgnkit.ReadError as e:
                assert e.file == str(path)
        pgnkit.check([path])


def test_fuzz_regressions_and_seeds():
    files = [p for p in (ROOT / "fuzz" / "regressions").rglob("*") if p.is_file()]
    files += [p for p in (ROOT / "fuzz" / "seeds").rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        _consume(path)
        _consume(path.read_bytes())


def test_binary_data_is_a_read_error():
    rng = random.Random(7)
    data = bytes(rng.randrange(256) for _ in range(100_000))
    with pytest.raises(pgnkit.ReadError) as e:
        list(pgnkit.read(data))
    assert e.value.file == "<bytes>"
    assert "binary data" in str(e.value)


def test_utf16_is_a_read_error_with_advice():
    data = "[Event \"x\"]\n\n1. e4 e5 *\n".encode("utf-16")
    with pytest.raises(pgnkit.ReadError, match="UTF-16"):
        list(pgnkit.read(data))


@pytest.mark.parametrize(
    "data",
    [
        b"\x1f\x8b\x08\x00junk that is no deflate stream" * 10,
        b"\x28\xb5\x2f\xfd" + b"\x00" * 100,
        b"BZh9" + b"\xff" * 100,
        gzip.compress(b"[Event \"x\"]\n\n1. e4 e5 *\n" * 1000)[:-40],
        bz2.compress(b"[Event \"x\"]\n\n1. e4 e5 *\n" * 1000)[:-10],
    ],
    ids=["gzip", "zstd", "bzip2", "gzip-truncated", "bzip2-truncated"],
)
def test_corrupt_compressed_streams_are_read_errors(data):
    with pytest.raises(pgnkit.ReadError) as e:
        list(pgnkit.read(data))
    assert e.value.file == "<bytes>"
    assert e.value.game is not None and e.value.line is not None


def test_paths_that_cannot_be_read(tmp_path):
    for path, message in [(tmp_path / "missing.pgn", "cannot read"), (tmp_path, "directory")]:
        with pytest.raises(pgnkit.ReadError, match=message) as e:
            pgnkit.read(path)
        assert e.value.file == str(path)
        assert isinstance(e.value, OSError)
    records = pgnkit.check([tmp_path / "missing.pgn"])
    assert records.failures and records.failures[0]["file"].endswith("missing.pgn")


def test_nesting_junk_and_nul_bytes_give_diagnostics():
    data = b"1. e4 " + b"(" * 200_000 + b"\n\n" + b"1. e4 \x00 e5 Kx9 {" + b"\n\n[Event \"ok\"]\n\n1. d4 *\n"
    assert _consume(data) >= 1
    games = list(pgnkit.read(data))
    assert any(g.diagnostics for g in games)


def test_wrong_arguments_are_python_errors():
    with pytest.raises(ValueError):
        pgnkit.read(b"1. e4 *", illegal_moves="skip")
    with pytest.raises(ValueError):
        pgnkit.read(b"1. e4 *", lang="xx")
    with pytest.raises(TypeError):
        pgnkit.read(42)
    with pytest.raises(ValueError):
        pgnkit.convert(b"1. e4 *", to="klingon")


def test_memory_stays_bounded_on_a_large_stream(tmp_path):
    """120 MB of games (gzip) read game by game: the peak resident memory
    grows by far less than the input's size."""
    games = (TESTDATA / "scale" / "gotd.pgn").read_bytes()
    path = tmp_path / "big.pgn.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        for _ in range(120_000_000 // len(games)):
            f.write(games)
    script = textwrap.dedent(
        """
        import resource, sys, pgnkit
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        n = sum(1 for g in pgnkit.read(sys.argv[1], jobs=2) if g.moves is not None)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(n, (after - before) // 1024)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True,
        timeout=600,
    )
    games_read, grown_mb = map(int, out.stdout.split())
    assert games_read > 50_000
    assert grown_mb < 80, f"resident memory grew by {grown_mb} MB reading 120 MB"
