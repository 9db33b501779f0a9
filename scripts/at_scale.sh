#!/usr/bin/env bash
# pgnkit under engines teams already use, as CI runs it:
#   GNU parallel over --shard K/N, DuckDB and pandas over the NDJSON,
#   Apache Spark (PySpark, local mode) running pgnkit over shards.
#
# usage: scripts/at_scale.sh
#
# Installs what it needs (Debian: parallel; PyPI: pyspark, duckdb, pandas;
# Java 17+ must be on the machine for Spark), builds pgnkit, makes an 8 MB
# real input from the shared corpus when it is there (bench/make_big.sh), and
# runs cli/tests/at_scale.rs with its ignored tests included and CI=true (a
# missing tool then fails the tests instead of skipping them). About 2
# minutes on 2 cores.
#
# Environment:
#   CORPUS       the shared corpus (default ../shared/corpus beside the repo,
#                else /work/shared/corpus); without it only testdata/ is used
#   AT_SCALE_SIZE  size of the real input (default 8M; 0 = none)
#   NO_INSTALL=1 do not apt-get/pip install (use what is there)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
size="${AT_SCALE_SIZE:-8M}"
work="${AT_SCALE_DIR:-${TMPDIR:-/tmp}/pgnkit-at-scale}"
if [ -z "${CORPUS:-}" ]; then
  if [ -d "$root/../shared/corpus" ]; then CORPUS="$root/../shared/corpus"; else CORPUS=/work/shared/corpus; fi
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$work"
say() { printf '\n== %s\n' "$*" >&2; }

say "tools"
if [ -z "${NO_INSTALL:-}" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! command -v parallel >/dev/null; then
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq parallel >&2
  fi
  if ! python3 -c 'import pyspark, duckdb, pandas' 2>/dev/null; then
    python3 -m pip install -q 'pyspark~=4.3' 'duckdb~=2.0' 'pandas~=3.1' >&2
  fi
fi
java -version 2>&1 | head -n 1 >&2 || { echo "java is required for Spark" >&2; exit 2; }
parallel --version | head -n 1 >&2
python3 -c 'import pyspark, duckdb, pandas; print("pyspark", pyspark.__version__, "duckdb", duckdb.__version__, "pandas", pandas.__version__)' >&2

if [ "$size" != 0 ] && [ -f "$CORPUS/bench/make_big.sh" ]; then
  say "input: $size of real games"
  input="$work/real-$size.pgn"
  [ -f "$input" ] || bash "$CORPUS/bench/make_big.sh" "$size" "$input"
  export PGNKIT_AT_SCALE_INPUT="$input"
else
  echo "no corpus at $CORPUS: testdata/scale only" >&2
fi

say "tests (cli/tests/at_scale.rs)"
cd "$root"
# The test as `cargo test --workspace` built it (`-p pgnkit` alone would
# build the whole suite again with other features), running the release
# binary when there is one.
target_dir="${CARGO_TARGET_DIR:-$root/target}"
if [ -z "${PGNKIT_BIN:-}" ] && [ -x "$target_dir/release/pgnkit" ]; then
  export PGNKIT_BIN="$target_dir/release/pgnkit"
fi
CI=true cargo test --workspace --test at_scale -- --include-ignored --test-threads 1
