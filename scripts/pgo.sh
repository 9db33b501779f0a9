#!/usr/bin/env bash
# Makes pgo/pgnkit.profdata, the profile that optimized builds for x86_64
# Linux are compiled with (pgo/README.md): builds pgnkit instrumented, runs
# it on the real games bundled in testdata/ (every command a user runs on a
# database: check, convert to each notation, index, search), and merges what
# it counted. Needs nothing outside the repository but the llvm-tools
# component of the toolchain, which it installs.
#
# usage: scripts/pgo.sh        (then rebuild: cargo build --release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
profdata="$("$root/scripts/llvm_profdata.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
target="$root/target/pgo-instrumented"
RUSTFLAGS="-Cprofile-generate=$work/raw" CARGO_TARGET_DIR="$target" \
  cargo build --release -q -p pgnkit
pgnkit="$target/release/pgnkit"

# The training set: the real games of testdata/ (tournaments, books,
# broadcasts with clocks, other notations and languages), not the hostile
# inputs, which would teach the optimizer rare paths.
mapfile -t games < <(find testdata -name '*.pgn' -not -path 'testdata/hostile/*' \
  -not -path 'testdata/scale/*' -size -2M | sort)
run() { "$pgnkit" "$@" > /dev/null 2>&1 || true; }
for round in 1 2; do
  run check -j1 --quiet --format json "${games[@]}"
  run check -j"$round" "${games[@]}"
  for to in uci lan san; do
    run convert -q --to "$to" -j1 "${games[@]}"
  done
done
run convert -q --to figurine -j1 "${games[@]}"
run convert -q --to san --lang de -j1 "${games[@]}"
run convert -q --to ru-scoresheet -j1 "${games[@]}"
mkdir -p "$work/index"
for f in testdata/index/*.pgn testdata/notation/twic944-first700.pgn; do
  cp "$f" "$work/index/"
done
for f in "$work"/index/*.pgn; do
  run index -q -j1 "$f"
  run search --white Carlsen "$f"
done
"$profdata" merge --sparse -o "$root/pgo/pgnkit.profdata" "$work/raw"
rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p' > "$root/pgo/llvm-version"
ls -l "$root/pgo/pgnkit.profdata"
