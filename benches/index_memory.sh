#!/usr/bin/env bash
# Index build time and peak memory against `pgnkit check -j2` on big inputs.
#
# usage: benches/index_memory.sh [SIZE]...     (default: 1G 8G)
#
# For each SIZE it makes `make_big.sh SIZE` of real.pgn (cached in
# BENCH_DIR), then runs, one after the other, with the file in the page
# cache:
#   pgnkit index [--memory MEMORY] FILE   (time and peak RSS, /usr/bin/time)
#   pgnkit check -j2 -q FILE              (time)
# and prints one table row: size, games, index time, check time, their
# ratio, the index's peak RSS and the sorted runs it spilled.
#
# Environment:
#   BENCH_DIR  where the inputs go (default /tmp/pgnkit-bench; an 8G input
#              needs 8 GiB there plus ~4 GiB for its index and runs)
#   MEMORY     passed as `pgnkit index --memory` (default: its default, 256M)
#   KEEP=1     keep the inputs (default: each input made here is removed
#              after its row)
#   PGNKIT     the binary (default: target/release/pgnkit, built here)
#   CORPUS     the shared corpus (default ../shared/corpus beside the repo,
#              else /work/shared/corpus)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="${BENCH_DIR:-/tmp/pgnkit-bench}"
if [ -z "${CORPUS:-}" ]; then
  if [ -d "$root/../shared/corpus" ]; then CORPUS="$root/../shared/corpus"; else CORPUS=/work/shared/corpus; fi
fi
if [ -z "${PGNKIT:-}" ]; then
  (cd "$root" && cargo build --release -q -p pgnkit)
  PGNKIT="${CARGO_TARGET_DIR:-$root/target}/release/pgnkit"
fi
memory_args=()
[ -n "${MEMORY:-}" ] && memory_args=(--memory "$MEMORY")
mkdir -p "$work"
[ "$#" -gt 0 ] || set -- 1G 8G

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); pgnkit $(git -C "$root" rev-parse --short HEAD); index ${memory_args[*]:-(default memory)}"
echo
echo "| input | MB | games | index s | check -j2 s | index/check | index peak RSS | runs spilled |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for size in "$@"; do
  file="$work/big-$size.pgn"
  made=0
  if [ ! -f "$file" ]; then
    "$CORPUS/bench/make_big.sh" "$size" "$file" 2>/dev/null
    made=1
  fi
  cat "$file" > /dev/null # into the page cache
  rm -f "$file.pgnkit-index"
  log="$work/index-$size.log"
  /usr/bin/time -f 'TIME %e s %M KB' -o "$log.time" \
    "$PGNKIT" index "${memory_args[@]}" "$file" 2> "$log"
  index_s="$(awk '/^TIME/ {print $2}' "$log.time")"
  rss_kb="$(awk '/^TIME/ {print $4}' "$log.time")"
  games="$(sed -n 's/.*: \([0-9]*\) games,.*/\1/p' "$log")"
  runs="$(sed -n 's/.*; \([0-9]*\) sorted runs spilled.*/\1/p' "$log")"
  start=$(date +%s.%N)
  "$PGNKIT" check -j2 -q "$file" > /dev/null 2>&1 || true # 1: problems found
  end=$(date +%s.%N)
  check_s="$(echo "$end - $start" | bc)"
  mb="$(echo "scale=1; $(stat -c %s "$file") / 1000000" | bc)"
  printf '| `make_big.sh %s` | %s | %s | %.2f | %.2f | %.2fx | %.1f MB | %s |\n' \
    "$size" "$mb" "$games" "$index_s" "$check_s" \
    "$(echo "scale=4; $index_s / $check_s" | bc)" \
    "$(echo "scale=1; $rss_kb / 1000" | bc)" "$runs"
  rm -f "$file.pgnkit-index"
  if [ "$made" = 1 ] && [ "${KEEP:-0}" != 1 ]; then rm -f "$file"; fi
done
