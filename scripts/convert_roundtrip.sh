#!/usr/bin/env bash
# SAN -> X -> SAN over the shared corpus for every notation and language
# (`pgnkit convert`, issue #5): at least 5,000 games (up to 600 KB of every
# corpus file), or every game with --all.
#
# usage: scripts/convert_roundtrip.sh [--all]
# env:   PGNKIT_CORPUS  the corpus (default ../shared/corpus beside the repo,
#                       else /work/shared/corpus)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
if [ "${1:-}" = "--all" ]; then export PGNKIT_ROUNDTRIP_ALL=1; fi
if [ -z "${PGNKIT_CORPUS:-}" ]; then
  for d in "$root/../shared/corpus" /work/shared/corpus; do
    if [ -d "$d" ]; then export PGNKIT_CORPUS="$d"; break; fi
  done
fi
: "${PGNKIT_CORPUS:?no corpus found; set PGNKIT_CORPUS}"
cd "$root"
# The test suite as `cargo test --workspace` built it (no second build in
# another profile), running the release binary when one is there.
if [ -z "${PGNKIT_BIN:-}" ] && [ -x "$CARGO_TARGET_DIR/release/pgnkit" ]; then
  export PGNKIT_BIN="$CARGO_TARGET_DIR/release/pgnkit"
fi
cargo test --workspace --test convert -- --ignored corpus_round_trip --nocapture
