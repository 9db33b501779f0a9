#!/usr/bin/env bash
# The Python package as a user gets it (issue 45): a fresh virtual
# environment, `pip install ./python` (maturin comes from PyPI through the
# build isolation of pip; the extension is a release build), pytest,
# python-chess and pyarrow from PyPI, then the package's tests (python/tests:
# the games, moves, statuses and diagnostics of `pgnkit check --games` on
# the test data, the python-chess round trip, hostile input, the API) and
# the examples of its docstrings.
#
# usage: scripts/python_check.sh
#
# Anything that cannot be installed or built FAILS the run (no test is
# skipped for a missing package). Run after `cargo test --workspace` (the
# tests compare the package with its debug binary; built here if missing) and
# with the same CARGO_TARGET_DIR (default: target/), so that the release
# build of the extension reuses the dependencies built there.
#
# Environment:
#   PYTHON   the interpreter to make the environment with (default: python3)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
export CARGO_TARGET_DIR="$target"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"

start=$(date +%s)
"$python" -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install -q pytest chess pyarrow
built=$(date +%s)
"${pip[@]}" install ./python
installed=$(date +%s)
"$work/venv/bin/python" -c 'import pgnkit, chess, pyarrow; print("pgnkit", pgnkit.__version__, "python-chess", chess.__version__, "pyarrow", pyarrow.__version__)'

# The binary the tests compare with, and the hostile inputs (testdata/hostile)
# they read: built as `cargo test --workspace` builds them (examples
# included, which brings the same features: `-p pgnkit` alone would
# compile a dozen dependencies again).
cargo build -q --workspace --bins --examples
"$target/debug/examples/hostile" "$work/hostile" 100000 >/dev/null

# From outside python/, so that `import pgnkit` is the installed package
# (python/pgnkit has the Python sources only); then the examples of its
# docstrings, from the installed package too.
cd "$work"
PGNKIT_BIN="$target/debug/pgnkit" PGNKIT_HOSTILE_DIR="$work/hostile" \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider -c "$root/python/pyproject.toml" \
  --rootdir "$root/python" "$root/python/tests"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider --doctest-modules --pyargs pgnkit
echo "python_check: ok in $(($(date +%s) - start)) s (pip install ./python: $((installed - built)) s)" >&2
