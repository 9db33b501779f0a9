#!/usr/bin/env bash
# Index build time and peak memory against `pgnkit check -j2` on big inputs.
#
# usage: benches/index_memory.sh [SIZE]...     (default: 1G 8G)
#
# For each SIZE it makes `make_big.sh SIZE` of real.pgn (cached in
# BENCH_DIR), then runs ROUNDS alternated rounds, with the file in the page
# cache, of:
#   pgnkit index [--memory MEMORY] FILE   (time, CPU and peak RSS, /usr/bin/time)
#   pgnkit check -j2 -q FILE              (time and CPU)
# and prints one table row: size, games, the median index and check times,
# the median of their ratios per round with its range, the median ratio of
# CPU time (user + system), the index's highest peak RSS and the sorted
# runs it spilled.
#
# Environment:
#   BENCH_DIR  where the inputs go (default /tmp/pgnkit-bench; an 8G input
#              needs 8 GiB there plus ~4 GiB for its index and runs)
#   MEMORY     passed as `pgnkit index --memory` (default: its default, 256M)
#   ROUNDS     rounds per size (default 5)
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
ROUNDS="${ROUNDS:-5}"

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); pgnkit $(git -C "$root" rev-parse --short HEAD); index ${memory_args[*]:-(default memory)}"
echo
echo "$ROUNDS alternated rounds of index then check; medians, ratio range in parentheses"
echo
echo "| input | MB | games | index s | check -j2 s | index/check | CPU index/check | index peak RSS | spills |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for size in "$@"; do
  file="$work/big-$size.pgn"
  made=0
  if [ ! -f "$file" ]; then
    "$CORPUS/bench/make_big.sh" "$size" "$file" 2>/dev/null
    made=1
  fi
  cat "$file" > /dev/null # into the page cache
  mb="$(echo "scale=1; $(stat -L -c %s "$file") / 1000000" | bc)"
  log="$work/index-$size.log"
  : > "$work/rounds-$size"
  for round in $(seq "$ROUNDS"); do
    rm -f "$file.pgnkit-index"
    /usr/bin/time -f 'TIME %e %U %S %M' -o "$log.time" \
      "$PGNKIT" index "${memory_args[@]}" "$file" 2> "$log"
    /usr/bin/time -f 'TIME %e %U %S %M' -o "$log.check" \
      "$PGNKIT" check -j2 -q "$file" > /dev/null 2>&1 || true # 1: problems found
    paste -d' ' <(awk '/^TIME/ {print $2, $3 + $4, $5}' "$log.time") \
      <(awk '/^TIME/ {print $2, $3 + $4}' "$log.check") >> "$work/rounds-$size"
  done
  games="$(sed -n 's/.*: \([0-9]*\) games,.*/\1/p' "$log")"
  runs="$(sed -n 's/.*; \([0-9]*\) spills to temporary files.*/\1/p' "$log")"
  # Columns of a round: index s, index CPU s, index KB, check s, check CPU s.
  python3 - "$work/rounds-$size" "$size" "$mb" "$games" "$runs" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
size, mb, games, runs = sys.argv[2:6]
med = lambda xs: statistics.median(xs)
ratio = [r[0] / r[3] for r in rows]
cpu = [r[1] / r[4] for r in rows]
rss = [r[2] / 1000 for r in rows]
print(f"| `make_big.sh {size}` | {mb} | {games} | {med([r[0] for r in rows]):.2f} "
      f"| {med([r[3] for r in rows]):.2f} | {med(ratio):.2f}x ({min(ratio):.2f}–{max(ratio):.2f}) "
      f"| {med(cpu):.2f}x | {max(rss):.1f} MB | {runs} |")
PY
  rm -f "$file.pgnkit-index"
  if [ "$made" = 1 ] && [ "${KEEP:-0}" != 1 ]; then rm -f "$file"; fi
done
