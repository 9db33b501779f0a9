#!/usr/bin/env bash
# Peak memory of `pgnkit check` per diagnostic: every output format on
# inputs where every game has a problem.
#
# usage: benches/check_memory.sh [SIZE]...     (default: 10M 100M)
#
# For each SIZE and each load it makes an input with benches/gen_one_error.py
# (cached in BENCH_DIR), then runs `check -q` on it once per output and
# per -j, under /usr/bin/time -v, and prints one Markdown table row per
# output: its peak RSS ("Maximum resident set size") in MB at each -j, and
# the wall time of the last -j. The outputs:
#
#   human, json, json --games, sarif, junit, github, gitlab,
#   --fix -o FILE, --write-baseline FILE, --baseline FILE (the one written)
#
# Loads (LOADS, default "one-error warnings"):
#   one-error  short games (about 110 bytes) with one error each: illegal,
#              ambiguous, a Result tag against the marker, a word that is no
#              move (gen_one_error.py --short)
#   warnings   games with a wrong check mark at each of their 60 moves
#              (gen_one_error.py --short --warnings): 60 warnings a game
#
# Environment:
#   PGNKIT     the binary (default: target/release/pgnkit, built here)
#   BENCH_DIR  where the inputs and outputs go (default /tmp/pgnkit-bench)
#   JOBS       the -j values (default "1 2")
#   LOADS      the loads (default "one-error warnings")
#   OUTPUTS    only the outputs whose names are listed (default: all)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="${BENCH_DIR:-/tmp/pgnkit-bench}"
jobs=(${JOBS:-1 2})
loads=(${LOADS:-one-error warnings})
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10M 100M)
if [ -z "${PGNKIT:-}" ]; then
  (cd "$root" && cargo build --release -q -p pgnkit)
  PGNKIT="${CARGO_TARGET_DIR:-$root/target}/release/pgnkit"
fi
mkdir -p "$work"
# The outputs (a baseline of 10 MB of warnings is 250 MB) go when done.
trap 'rm -f "$work"/out.pgn "$work"/out.baseline "$work"/time.log' EXIT

# name|arguments (FILE: the input, OUT: a file in BENCH_DIR)
outputs=(
  "human|--format human FILE"
  "json|--format json FILE"
  "json --games|--format json --games FILE"
  "sarif|--format sarif FILE"
  "junit|--format junit FILE"
  "github|--format github FILE"
  "gitlab|--format gitlab FILE"
  "--fix -o|--format json --fix -o OUT.pgn FILE"
  "--write-baseline|--format json --write-baseline OUT.baseline FILE"
  "--baseline|--format json --baseline OUT.baseline FILE"
)

# Peak RSS in MB and wall seconds of one run: "MB SECONDS".
measure() {
  local log="$work/time.log"
  # Exit status 1 is "problems found": every input here has some.
  /usr/bin/time -v "$PGNKIT" check -q "$@" >/dev/null 2>"$log" || true
  if ! grep -q 'Exit status: [01]$' "$log"; then
    echo "check $* failed:" >&2
    cat "$log" >&2
    exit 2
  fi
  local kb secs
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
  secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  echo "$((kb / 1024)) $secs"
}

header="| input | output |"
rule="|---|---|"
for j in "${jobs[@]}"; do
  header+=" -j$j peak MB |"
  rule+="---:|"
done
header+=" s (-j${jobs[-1]}) |"
rule+="---:|"
echo "pgnkit $("$PGNKIT" --version | awk '{print $2}') ($(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')), $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "$header"
echo "$rule"
for size in "${sizes[@]}"; do
  for load in "${loads[@]}"; do
    input="$work/$load-$size.pgn"
    flags=(--short)
    [ "$load" = warnings ] && flags+=(--warnings)
    [ -s "$input" ] || python3 "$here/gen_one_error.py" --size "$size" "${flags[@]}" -o "$input" 2>/dev/null
    for o in "${outputs[@]}"; do
      name=${o%%|*}
      if [ -n "${OUTPUTS:-}" ] && ! grep -qxF -- "$name" <<<"$(tr ',' '\n' <<<"$OUTPUTS")"; then
        continue
      fi
      read -r -a args <<<"${o#*|}"
      for k in "${!args[@]}"; do
        case ${args[$k]} in
          FILE) args[$k]=$input ;;
          OUT.*) args[$k]="$work/out.${args[$k]#OUT.}" ;;
        esac
      done
      row="| $load $size | \`$name\` |"
      secs=
      for j in "${jobs[@]}"; do
        read -r mb secs < <(measure -j"$j" "${args[@]}")
        row+=" $mb |"
      done
      echo "$row $secs |"
    done
  done
done
