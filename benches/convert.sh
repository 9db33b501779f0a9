#!/usr/bin/env bash
# `pgnkit convert` against pgn-extract and the plain pgn-reader + shakmaty
# converter, one thread each, on the benchmark input (real.pgn, 66 MB, or
# FILE). Prints wall and user seconds, MB/s and the ratios; the full
# one-run comparison on 1 GiB is benches/run.sh.
#
# usage: benches/convert.sh [FILE]     (RUNS=3 by default: best of RUNS)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export PATH="$PATH:/usr/games"
input="${1:-}"
if [ -z "$input" ]; then
  for d in "$root/../shared/corpus" /work/shared/corpus; do
    if [ -f "$d/bench/real.pgn" ]; then input="$d/bench/real.pgn"; break; fi
  done
fi
[ -f "$input" ] || { echo "no input: pass FILE" >&2; exit 2; }
RUNS="${RUNS:-3}"
(cd "$root" && cargo build --release -q -p pgnkit -p plain-validator)
pgnkit="$CARGO_TARGET_DIR/release/pgnkit"
plain="$CARGO_TARGET_DIR/release/plain-validator"
bytes=$(stat -c %s "$input")
cat "$input" > /dev/null
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT

# best-of-RUNS user seconds and wall seconds of a command (output discarded)
measure() {
  local best_u="" best_w=""
  for _ in $(seq "$RUNS"); do
    local t
    /usr/bin/time -o "$timing" -f "%U %e" "$@" > /dev/null 2>/dev/null || true
    t=$(tail -1 "$timing")
    local u=${t% *} w=${t#* }
    if [ -z "$best_u" ] || awk "BEGIN{exit !($u < $best_u)}"; then best_u=$u; best_w=$w; fi
  done
  echo "$best_u $best_w"
}

printf '%-44s %8s %8s %8s\n' "command (1 thread, $((bytes / 1000000)) MB)" "user s" "wall s" "MB/s"
declare -A user
row() {
  local name="$1"; shift
  local r; r=$(measure "$@")
  local u=${r% *} w=${r#* }
  user[$name]=$u
  printf '%-44s %8s %8s %8.1f\n' "$name" "$u" "$w" "$(awk "BEGIN{print $bytes/1e6/($u>0?$u:0.001)}")"
}
row "pgnkit convert --to lan -j1" "$pgnkit" convert -q --to lan -j1 "$input"
row "pgnkit convert --to uci -j1" "$pgnkit" convert -q --to uci -j1 "$input"
row "pgnkit convert --to san -j1" "$pgnkit" convert -q --to san -j1 "$input"
row "plain-validator --convert lan" "$plain" --convert lan "$input"
row "plain-validator --convert uci" "$plain" --convert uci "$input"
if command -v pgn-extract > /dev/null; then
  row "pgn-extract -Wxlalg" pgn-extract -s -Wxlalg -o /dev/null "$input"
  row "pgn-extract -Wuci" pgn-extract -s -Wuci -o /dev/null "$input"
  echo
  awk "BEGIN{printf \"pgnkit lan vs pgn-extract -Wxlalg: %.1fx faster (user time)\n\", ${user[pgn-extract -Wxlalg]}/${user[pgnkit convert --to lan -j1]}}"
  awk "BEGIN{printf \"pgnkit uci vs pgn-extract -Wuci:   %.1fx faster (user time)\n\", ${user[pgn-extract -Wuci]}/${user[pgnkit convert --to uci -j1]}}"
fi
awk "BEGIN{printf \"pgnkit lan vs plain converter:     %.2fx its time\n\", ${user[pgnkit convert --to lan -j1]}/${user[plain-validator --convert lan]}}"
