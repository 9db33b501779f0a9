#!/usr/bin/env bash
# The gate benchmark: every command of pgnkit on 10 MB of every hostile input class
# (testdata/hostile/hostile.rs), with CPU time (user+sys) and peak resident memory.
#
#   benches/hostile.sh [SIZE_BYTES] [OUT_DIR]
#
# Prints one row per class and command: class, command, exit status, CPU seconds, peak RSS MB,
# and OVER when a run takes 2 s of CPU or more or 100 MB or more (the goals of the gate).
# A command is stopped after 60 s (status 124).
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-10485760}"
dir="${2:-${TMPDIR:-/tmp}/pgnkit-hostile}"
cargo build --release -q -p pgnkit --example hostile --bin pgnkit
target_dir="${CARGO_TARGET_DIR:-target}"
pgnkit="$target_dir/release/pgnkit"
"$target_dir/release/examples/hostile" "$dir" "$size" testdata/convert/twic944-games700-999.pgn >/dev/null
out="$dir/out"
mkdir -p "$out"

printf '%-24s %-28s %6s %8s %8s\n' class command status cpu_s rss_mb
over=0
run() {
  local class="$1" label="$2"
  shift 2
  local t status
  t=$(mktemp)
  set +e
  /usr/bin/time -f '%U %S %M' -o "$t" timeout "${TIMEOUT:-60}" "$@" >/dev/null 2>&1
  status=$?
  set -e
  local u s m
  read -r u s m < <(tail -n 1 "$t")
  rm -f "$t"
  local cpu rss flag=""
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
  rss=$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 1024 }')
  if awk -v c="$cpu" -v r="$rss" 'BEGIN { exit !(c >= 2 || r >= 100) }' || [ "$status" -ge 124 ]; then
    flag="OVER"
    over=$((over + 1))
  fi
  printf '%-24s %-28s %6s %8s %8s %s\n' "$class" "$label" "$status" "$cpu" "$rss" "$flag"
}

for f in "$dir"/*.pgn; do
  class=$(basename "$f" .pgn)
  run "$class" "check -j1" "$pgnkit" check -j1 --format json "$f"
  run "$class" "check -j2" "$pgnkit" check -j2 --format json "$f"
  run "$class" "check --fix" "$pgnkit" check -j1 --fix -o "$out/fixed.pgn" "$f"
  for to in san lan uci figurine ru-scoresheet; do
    run "$class" "convert --to $to" "$pgnkit" convert -j1 --to "$to" "$f"
  done
  run "$class" "convert --format json" "$pgnkit" convert -j1 --format json "$f"
  run "$class" "convert --to spoken (json)" "$pgnkit" convert -j1 --to spoken --format json "$f"
  cp "$f" "$out/indexed.pgn"
  run "$class" "index" "$pgnkit" index -j1 -q "$out/indexed.pgn"
  run "$class" "search --player x" "$pgnkit" search "$out/indexed.pgn" --player x --count
  run "$class" "diff" "$pgnkit" diff "$f" "$f"
  run "$class" "convert --split-variations" "$pgnkit" convert -j1 --split-variations "$f"
  run "$class" "dedup" "$pgnkit" dedup -j1 "$f"
  run "$class" "report" "$pgnkit" report -j1 -o "$out/report.html" "$f"
  run "$class" "search --moves" "$pgnkit" search "$out/indexed.pgn" --moves "1. e4" --count
done
echo "runs over the goal (2 s CPU or 100 MB): $over"
