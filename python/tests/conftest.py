"""Shared fixtures: the repository's test data and the `pgnkit` binary the
package is compared with (``PGNKIT_BIN``, else the debug build in
``$CARGO_TARGET_DIR`` or ``target/``; a missing binary fails the tests)."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = ROOT / "testdata"


def _binary() -> pathlib.Path:
    if os.environ.get("PGNKIT_BIN"):
        return pathlib.Path(os.environ["PGNKIT_BIN"])
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug" / "pgnkit"


@pytest.fixture(scope="session")
def pgnkit_bin() -> pathlib.Path:
    path = _binary()
    if not path.exists():
        pytest.fail(f"no pgnkit binary at {path}: build it (cargo build -p pgnkit) or set PGNKIT_BIN")
    return path


def run_cli(binary: pathlib.Path, *args: str, cwd: pathlib.Path) -> list[dict]:
    """The JSON records `pgnkit ARGS` prints (exit status 0 or 1)."""
    import json

    out = subprocess.run(
        [str(binary), *args], cwd=cwd, capture_output=True, check=False, timeout=300
    )
    assert out.returncode in (0, 1), out.stderr.decode(errors="replace")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
