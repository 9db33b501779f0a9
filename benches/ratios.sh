#!/usr/bin/env bash
# The speed goals of pgnkit against its peers as ratios, with runs
# alternated: each round runs every command once, in the same order, so that
# a change in the machine's load falls on all of them alike. Prints, per
# command, the median and the spread (min-max) of wall and user seconds over
# the rounds, then the ratios the goals are stated in (medians of wall time;
# user time beside them, the fairer figure when the machine is shared).
#
# usage: benches/ratios.sh [FILE]      (RUNS=5 rounds by default)
#
# FILE defaults to the corpus's benchmark input (bench/real.pgn, 66 MB);
# the one-run comparison on 1 GiB with hyperfine is benches/run.sh. (It
# replaces benches/convert.sh, best-of-3 and not alternated.)
# Needs pgn-extract (apt-get install pgn-extract); without it the rows and
# ratios against it are left out, and said so.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export PATH="$PATH:/usr/games" # Debian installs pgn-extract there
input="${1:-}"
if [ -z "$input" ]; then
  for d in "$root/../shared/corpus" /work/shared/corpus; do
    if [ -f "$d/bench/real.pgn" ]; then input="$d/bench/real.pgn"; break; fi
  done
fi
[ -f "$input" ] || { echo "no input: pass FILE" >&2; exit 2; }
RUNS="${RUNS:-5}"
(cd "$root" && cargo build --release -q -p pgnkit -p plain-validator)
pgnkit="$CARGO_TARGET_DIR/release/pgnkit"
plain="$CARGO_TARGET_DIR/release/plain-validator"
have_extract=0
command -v pgn-extract > /dev/null && have_extract=1
bytes=$(stat -c %s "$input")
cat "$input" > /dev/null

names=()
cmds=()
add() { names+=("$1"); cmds+=("$2"); }
q() { printf '%q' "$1"; }
P=$(q "$pgnkit"); V=$(q "$plain"); F=$(q "$input")
add "pgnkit check -j1" "$P check -j1 --quiet --format json $F"
add "pgnkit check -j2" "$P check -j2 --quiet --format json $F"
add "plain-validator" "$V --threads 1 $F"
add "pgnkit convert --to lan -j1" "$P convert -q --to lan -j1 $F"
add "pgnkit convert --to uci -j1" "$P convert -q --to uci -j1 $F"
add "pgnkit convert --to san -j1" "$P convert -q --to san -j1 $F"
add "plain-validator --convert lan" "$V --convert lan $F"
add "plain-validator --convert uci" "$V --convert uci $F"
# The index is written beside its PGN: a link in TMPDIR stands for the input.
link="${TMPDIR:-/tmp}/pgnkit-ratios-$$.pgn"
ln -sf "$input" "$link"
L=$(q "$link")
add "pgnkit index" "rm -f $L.pgnkit-index; $P index -q $L"
if [ "$have_extract" = 1 ]; then
  add "pgn-extract -s" "pgn-extract -s -o /dev/null $F"
  add "pgn-extract -Wxlalg" "pgn-extract -s -Wxlalg -o /dev/null $F"
  add "pgn-extract -Wuci" "pgn-extract -s -Wuci -o /dev/null $F"
else
  echo "pgn-extract: not installed; its rows and ratios are left out" >&2
fi

timing=$(mktemp)
samples=$(mktemp)
trap 'rm -f "$timing" "$samples" "$link" "$link.pgnkit-index"' EXIT
echo "input: $input ($((bytes / 1000000)) MB); $RUNS rounds; machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); pgnkit $(git -C "$root" rev-parse --short HEAD)"
for round in $(seq "$RUNS"); do
  for i in "${!names[@]}"; do
    /usr/bin/time -o "$timing" -f "%e %U" bash -c "${cmds[$i]} > /dev/null 2>&1" || true
    printf '%s\t%s\n' "$i" "$(tail -1 "$timing")" >> "$samples"
  done
  echo "round $round done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

# Median and spread of column c (2 wall, 3 user) of command i.
stat() {
  awk -F'\t' -v i="$1" '$1 == i { split($2, t, " "); print t['"$2"'] }' "$samples" | sort -g |
    awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
      printf "%.2f %.2f %.2f\n", m, v[1], v[NR] }'
}
declare -A wall user
printf '\n| command | wall s (median, min-max) | user s (median, min-max) |\n|---|---:|---:|\n'
for i in "${!names[@]}"; do
  read -r wm wl wh < <(stat "$i" 1)
  read -r um ul uh < <(stat "$i" 2)
  wall[${names[$i]}]=$wm
  user[${names[$i]}]=$um
  printf '| `%s` | %s (%s-%s) | %s (%s-%s) |\n' "${names[$i]}" "$wm" "$wl" "$wh" "$um" "$ul" "$uh"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf '\n| goal | wall | user |\n|---|---:|---:|\n'
printf '| `check -j1` / plain validator: at most 1.0x its time | %sx | %sx |\n' \
  "$(ratio "${wall[pgnkit check -j1]}" "${wall[plain-validator]}")" "$(ratio "${user[pgnkit check -j1]}" "${user[plain-validator]}")"
printf '| `convert --to lan -j1` / plain converter (main line only, no comments, no checks) | %sx | %sx |\n' \
  "$(ratio "${wall[pgnkit convert --to lan -j1]}" "${wall[plain-validator --convert lan]}")" "$(ratio "${user[pgnkit convert --to lan -j1]}" "${user[plain-validator --convert lan]}")"
printf '| `index` speed / `check -j2` speed: at least 0.75 | %s | — |\n' \
  "$(ratio "${wall[pgnkit check -j2]}" "${wall[pgnkit index]}")"
if [ "$have_extract" = 1 ]; then
  printf '| `pgn-extract -s` / `check -j2`: at least 18x | %sx | — |\n' \
    "$(ratio "${wall[pgn-extract -s]}" "${wall[pgnkit check -j2]}")"
  printf '| `pgn-extract -Wxlalg` / `convert --to lan -j1`: at least 10x | %sx | %sx |\n' \
    "$(ratio "${wall[pgn-extract -Wxlalg]}" "${wall[pgnkit convert --to lan -j1]}")" "$(ratio "${user[pgn-extract -Wxlalg]}" "${user[pgnkit convert --to lan -j1]}")"
  printf '| `pgn-extract -Wuci` / `convert --to uci -j1`: at least 10x | %sx | %sx |\n' \
    "$(ratio "${wall[pgn-extract -Wuci]}" "${wall[pgnkit convert --to uci -j1]}")" "$(ratio "${user[pgn-extract -Wuci]}" "${user[pgnkit convert --to uci -j1]}")"
fi
