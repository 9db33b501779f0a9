#!/usr/bin/env bash
# Law 6.9 ("can this side still checkmate?") by pgnkit and by CHA, the
# Chess Unwinnability Analyzer (Miguel Ambrona, github.com/miguel-ambrona/
# D3-Chess), on the same questions, in alternated rounds: each round runs
# CHA's full version (its command line with its defaults: 500,000 nodes)
# and pgnkit's full analysis (`dead::can_checkmate`, `Budget::FULL`, through
# the `dead_bench` example) once on each input, so that a change in the
# machine's load falls on both alike. Prints each run's mean, maximum and
# the answers' counts.
#
# usage: CHA=/path/to/cha benches/dead_vs_cha.sh [LICHESS_FILE]   (RUNS=3)
# (both read the same files: a FEN a line, then the winner asked about,
# `white` or `black`, or nothing for the side that moved last)
#
# Inputs:
# - CHA's test vectors (testdata/dead/cha-test-vectors.txt), every position
#   asked for both sides: the hard set;
# - LICHESS_FILE, optional: a FEN a line (words after it ignored), the side
#   that moved last asked, which is what CHA's command line asks by default
#   (CHA's tests/lichess-30K-games.txt: final positions of lichess games lost
#   on time; the positions CHA's published mean of 336 us is measured on
#   are of this kind).
#
# Building CHA (C++, on Stockfish 51deae8; its README says how): clone
# D3-Chess and Stockfish, `git checkout 51deae8` in Stockfish, copy
# D3-Chess/lib/stockfish/stockfish.{cpp,h} into Stockfish/src, add
# `SRCS += stockfish.cpp` to its Makefile, `touch nn-62ef826d1a6d.nnue`
# there (CHA evaluates nothing: an empty network file lets Stockfish build
# offline), `make -j2 all ARCH=x86-64`, then in D3-Chess/src link CHA with
# Stockfish's objects: `g++ -o cha util.cpp semistatic.cpp dynamic.cpp
# cha.cpp main.cpp $(ls STOCKFISH/src/*.o | grep -v /main.o) -lpthread -O3
# -flto -std=c++17 -DUSE_PTHREADS -DNDEBUG -DIS_64BIT -msse -DUSE_SSE2
# -msse2 -I STOCKFISH/src` (with the empty network file beside it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cha="${CHA:?set CHA to the path of the cha binary}"
lichess="${1:-}"
RUNS="${RUNS:-3}"
(cd "$root" && cargo build --release -q -p pgnkit-replay --example dead_bench)
bench="$CARGO_TARGET_DIR/release/examples/dead_bench"
vectors="$root/testdata/dead/cha-test-vectors.txt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# CHA reads a FEN and the winner a line: each vector twice.
grep -v '^#' "$vectors" | grep . | while read -r _label fen; do
  echo "$fen white"
  echo "$fen black"
done > "$work/hard.txt"

cha_run() { # CHA's summary line and its answers' counts
  (cd "$(dirname "$cha")" && "$cha" < "$1") > "$work/cha.out"
  printf '%s; ' "$(tail -n 1 "$work/cha.out")"
  awk '$1 ~ /^(winnable|unwinnable|undetermined)/ {n[$1]++} END {for (k in n) printf "%s %d ", k, n[k]; print ""}' "$work/cha.out"
}
pgnkit_run() {
  "$bench" full "$1" | grep -v '^undecided:' | tr '\n' ' '
  echo
}

for round in $(seq "$RUNS"); do
  read -r load _ < /proc/loadavg
  echo "== round $round (load $load)"
  echo "CHA full, the test vectors:    $(cha_run "$work/hard.txt")"
  echo "pgnkit full, the test vectors: $(pgnkit_run "$work/hard.txt")"
  if [ -n "$lichess" ]; then
    awk '{print $1, $2, $3, $4}' "$lichess" > "$work/lichess.txt"
    echo "CHA full, $(basename "$lichess"):    $(cha_run "$work/lichess.txt")"
    echo "pgnkit full, $(basename "$lichess"): $(pgnkit_run "$work/lichess.txt")"
  fi
done
