#!/usr/bin/env bash
# pgnkit against its peers, in one run.
#
# usage: benches/run.sh            (SIZE=1G RUNS=3)
#        SIZE=64M RUNS=1 benches/run.sh   (quick smoke run)
#
# Environment:
#   SIZE       size of the benchmark input built from real.pgn (default 1G)
#   RUNS       hyperfine runs per command (default 3, after 1 warm-up run)
#   BENCH_DIR  where inputs and raw results go (default /tmp/pgnkit-bench)
#   CORPUS     the shared corpus (default ../shared/corpus beside the repo,
#              else /work/shared/corpus)
#   RESULTS    the markdown report (default benches/RESULTS.md)
#   NO_INSTALL=1  do not apt-get/pip install missing peers (skip them)
#
# What it does: builds release pgnkit and plain-validator, makes the inputs
# (cached), probes which pgnkit subcommands work on a tiny real game (a
# subcommand that does not work yet is reported as "SKIPPED: reason", never
# dropped silently), measures peak RSS of every command in one single run
# (which also checks each command works), times all commands with hyperfine in
# ONE invocation, and writes the table with the goals to benches/RESULTS.md.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
SIZE="${SIZE:-1G}"
RUNS="${RUNS:-3}"
work="${BENCH_DIR:-/tmp/pgnkit-bench}"
results="${RESULTS:-$here/RESULTS.md}"
if [ -z "${CORPUS:-}" ]; then
  if [ -d "$root/../shared/corpus" ]; then CORPUS="$root/../shared/corpus"; else CORPUS=/work/shared/corpus; fi
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$work"
load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

say() { printf '\n== %s\n' "$*" >&2; }
skipped=()
skip() { # NAME REASON
  skipped+=("$1: $2")
  echo "SKIPPED: $1: $2" >&2
}

# ---------------------------------------------------------------- peers
say "peers"
export PATH="$PATH:/usr/games" # Debian installs pgn-extract there
need_apt=()
command -v hyperfine >/dev/null || need_apt+=(hyperfine)
command -v pgn-extract >/dev/null || need_apt+=(pgn-extract)
command -v zstd >/dev/null || need_apt+=(zstd)
[ -x /usr/bin/time ] || need_apt+=(time)
if [ "${#need_apt[@]}" -gt 0 ] && [ -z "${NO_INSTALL:-}" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2 || true
  $sudo apt-get install -y -qq "${need_apt[@]}" >&2 || echo "apt-get install ${need_apt[*]} failed" >&2
fi
if ! python3 -c 'import chess.pgn' 2>/dev/null && [ -z "${NO_INSTALL:-}" ]; then
  python3 -m pip install -q chess >&2 || echo "pip install chess failed" >&2
fi
command -v hyperfine >/dev/null || { echo "hyperfine is required" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is required" >&2; exit 2; }
have_extract=0; command -v pgn-extract >/dev/null && have_extract=1
have_zstd=0; command -v zstd >/dev/null && have_zstd=1
have_pychess=0; python3 -c 'import chess.pgn' 2>/dev/null && have_pychess=1

# ---------------------------------------------------------------- build
say "build (release)"
(cd "$root" && cargo build --release -q -p plain-validator)
plain="$CARGO_TARGET_DIR/release/plain-validator"
pgnkit="$CARGO_TARGET_DIR/release/pgnkit"
have_pgnkit=1
if ! (cd "$root" && cargo build --release -q -p pgnkit) >"$work/pgnkit-build.log" 2>&1; then
  have_pgnkit=0
  skip "pgnkit" "cargo build --release -p pgnkit failed (see $work/pgnkit-build.log)"
fi

# ---------------------------------------------------------------- inputs
say "inputs"
make_big="$CORPUS/bench/make_big.sh"
[ -x "$make_big" ] || [ -f "$make_big" ] || { echo "missing $make_big" >&2; exit 2; }
real_pgn="$CORPUS/bench/real.pgn"
make_input() { # SIZE OUT: cached while SIZE and real.pgn are unchanged
  local size="$1" out="$2" stamp
  stamp="$size $(stat -c '%s %Y' "$real_pgn")"
  if [ -f "$out" ] && [ -f "$out.stamp" ] && [ "$(cat "$out.stamp")" = "$stamp" ]; then
    echo "cached: $out ($(stat -c %s "$out") bytes)" >&2
  else
    rm -f "$out.stamp"
    bash "$make_big" "$size" "$out"
    echo "$stamp" >"$out.stamp"
  fi
}
big="$work/big.pgn"
small="$work/small.pgn"
make_input "$SIZE" "$big"
make_input 20M "$small"
zst="$big.zst"
if [ "$have_zstd" = 1 ]; then
  if [ ! -f "$zst" ] || [ "$zst" -ot "$big" ]; then
    zstd -q -f -T0 -3 "$big" -o "$zst"
  fi
else
  skip "compressed input" "zstd is not installed"
fi
big_bytes=$(stat -c %s "$big")
small_bytes=$(stat -c %s "$small")
cat "$big" "$small" >/dev/null # into the page cache
count_games() { "$plain" "$1" 2>&1 >/dev/null | awk '/^games /{print $2}'; }
big_games=$(count_games "$big")
small_games=$(count_games "$small")
echo "big.pgn: $big_bytes bytes, $big_games games; small.pgn: $small_bytes bytes, $small_games games" >&2

# A mid-game position (ply 30 of the first Carlsen game) that occurs in the input.
read -r fen_full < <(python3 - "$small" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
try:
    import chess.pgn, io
    handle = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if "Carlsen" in game.headers.get("White", "") + game.headers.get("Black", ""):
            board = game.board()
            moves = list(game.mainline_moves())
            if len(moves) >= 40:
                for move in moves[:30]:
                    board.push(move)
                print(board.fen())
                break
except ImportError:
    pass
PY
) || true
fen_board="${fen_full%% *}"
echo "search FEN: ${fen_full:-<none>}" >&2

# ---------------------------------------------------------------- probes
# A tiny real game (TWIC 944, Carlsen-Jones, London 2012; from
# hauva69/pgn4web) to see which pgnkit subcommands work yet.
probe="$work/probe"
rm -rf "$probe"
mkdir -p "$probe"
cat >"$probe/probe.pgn" <<'PGN'
[Event "4th London Chess Classic"]
[Site "London ENG"]
[Date "2012.12.04"]
[Round "4.1"]
[White "Carlsen,M"]
[Black "Jones,G"]
[Result "1-0"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Qxd4 a6 5. h3 Nc6 6. Qe3 g6 7. c4 Bg7 8. Be2
Nf6 9. Nc3 O-O 10. O-O Nd7 11. Rb1 a5 12. b3 Nc5 13. Bb2 f5 14. exf5 Bxf5 15.
Rbd1 a4 16. Ba3 Qa5 17. Nb5 axb3 18. axb3 Qxa3 19. Nxa3 Rxa3 20. Nd2 Bd4 21. Qg3
Be5 22. f4 Bf6 23. Bg4 Nd4 24. Kh1 Bc2 25. Rde1 Kh8 26. Re3 h5 27. b4 h4 28. Qf2
Nd3 29. Qg1 Nf5 30. Bxf5 gxf5 31. Nf3 Rc3 32. c5 Bb3 33. Ne1 Bd4 34. Nxd3 dxc5
35. Qf2 Rf7 36. Rc1 cxb4 37. Rxc3 bxc3 38. Qe1 1-0

PGN
# Position after 10. O-O (ply 19 played), black to move.
probe_fen="r1bq1rk1/1p2ppbp/p1np1np1/8/2P1P3/2N1QN1P/PP2BPP1/R1B2RK1 b - - 6 10"
probe_run() { timeout 20 "$pgnkit" "$@" 2>>"$probe/stderr"; }
can_check=0 can_lan=0 can_uci=0 can_index=0 can_player=0 can_fen=0 can_zst=0
if [ "$have_pgnkit" = 1 ]; then
  out=$(probe_run check --format json -j1 "$probe/probe.pgn" || true)
  if printf '%s\n' "$out" | grep -q '"type":"summary".*"games":1[,}]'; then
    if probe_run check --quiet --format json -j1 "$probe/probe.pgn" >/dev/null; then can_check=1
    else skip "pgnkit check" "--quiet --format json -j1 fails on a legal game (exit $?)"; fi
  else
    skip "pgnkit check" "no '\"type\":\"summary\",...\"games\":1' line for a one-game file"
  fi
  out=$(probe_run convert --to lan -j1 "$probe/probe.pgn" || true)
  if printf '%s' "$out" | grep -q 'Ng1-f3' && printf '%s' "$out" | grep -q 'e4xd5\|c5xd4'; then can_lan=1
  else skip "pgnkit convert --to lan" "output lacks Ng1-f3 / c5xd4 for 2. Nf3 ... 3... cxd4"; fi
  out=$(probe_run convert --to uci -j1 "$probe/probe.pgn" || true)
  if printf '%s' "$out" | grep -q 'g1f3' && printf '%s' "$out" | grep -q 'c5d4'; then can_uci=1
  else skip "pgnkit convert --to uci" "output lacks g1f3 / c5d4"; fi
  before=$(ls -A "$probe" | wc -l)
  if probe_run index "$probe/probe.pgn" >/dev/null && [ "$(ls -A "$probe" | wc -l)" -gt "$before" ]; then
    can_index=1
    out=$(probe_run search "$probe/probe.pgn" --player Carlsen --count || true)
    if [ "$(printf '%s' "$out" | tr -dc '0-9')" = 1 ]; then can_player=1
    else skip "pgnkit search --player" "'search --player Carlsen --count' did not print 1 for a one-Carlsen-game file"; fi
    out=$(probe_run search "$probe/probe.pgn" --fen "$probe_fen" --count || true)
    if [ "$(printf '%s' "$out" | tr -dc '0-9')" = 1 ]; then can_fen=1
    else skip "pgnkit search --fen" "'search --fen <position after 10. O-O> --count' did not print 1"; fi
  else
    skip "pgnkit index" "'pgnkit index FILE' failed or wrote nothing beside FILE"
    skip "pgnkit search" "needs a working 'pgnkit index'"
  fi
  if [ "$have_zstd" = 1 ] && [ "$can_check" = 1 ]; then
    zstd -q -f "$probe/probe.pgn" -o "$probe/probe.pgn.zst"
    out=$(probe_run check --format json -j1 "$probe/probe.pgn.zst" || true)
    if printf '%s\n' "$out" | grep -q '"type":"summary".*"games":1[,}]'; then can_zst=1
    else skip "pgnkit check FILE.zst" "no summary with games 1 for a zstd-compressed one-game file"; fi
  fi
fi
[ -n "$fen_full" ] || { can_fen=0; skip "FEN search" "python-chess missing: no FEN picked from the input"; }

# ---------------------------------------------------------------- commands
# One row per command: name, group, input, plain-validator reference row,
# pgn-extract reference row, command.
meta="$work/commands.tsv"
: >"$meta"
names=()
cmds=()
add() { # NAME GROUP INPUT PLAIN_REF EXTRACT_REF COMMAND
  names+=("$1")
  cmds+=("$6")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$meta"
}
q() { printf '%q' "$1"; }
P=$(q "$pgnkit"); V=$(q "$plain"); B=$(q "$big"); S=$(q "$small"); Z=$(q "$zst")
PE="pgn-extract"
C1="check -j1"; C2="check -j2"; V1="plain-validator 1 thread"; V2="plain-validator 2 threads"; X="pgn-extract -s"
# check
[ "$can_check" = 1 ] && add "pgnkit check -j1" check big "$V1" "$X" "$P check -j1 --quiet --format json $B > /dev/null"
[ "$can_check" = 1 ] && add "pgnkit check -j2" check big "$V1" "$X" "$P check -j2 --quiet --format json $B > /dev/null"
add "$V1" check big "$V1" "$X" "$V --threads 1 $B"
add "$V2" check big "$V1" "$X" "$V --threads 2 $B"
if [ "$have_extract" = 1 ]; then add "$X" check big "$V1" "$X" "$PE -s -o /dev/null $B"
else skip "pgn-extract" "not installed"; fi
if [ "$have_pychess" = 1 ]; then
  add "python-chess read_game (20 MB)" check small "$V1" "$X" "python3 $(q "$here/python_chess_check.py") $S > /dev/null"
else skip "python-chess" "pip install chess failed"; fi
# convert
XL="pgn-extract -Wxlalg"; XU="pgn-extract -Wuci"; VL="plain-validator --convert lan"; VU="plain-validator --convert uci"
[ "$can_lan" = 1 ] && add "pgnkit convert --to lan -j1" convert big "$VL" "$XL" "$P convert --to lan -j1 $B > /dev/null"
[ "$can_lan" = 1 ] && add "pgnkit convert --to lan -j2" convert big "$VL" "$XL" "$P convert --to lan -j2 $B > /dev/null"
[ "$can_uci" = 1 ] && add "pgnkit convert --to uci -j1" convert big "$VU" "$XU" "$P convert --to uci -j1 $B > /dev/null"
[ "$can_uci" = 1 ] && add "pgnkit convert --to uci -j2" convert big "$VU" "$XU" "$P convert --to uci -j2 $B > /dev/null"
add "$VL" convert big "$VL" "$XL" "$V --convert lan $B > /dev/null"
add "$VU" convert big "$VU" "$XU" "$V --convert uci $B > /dev/null"
add "plain-validator --convert lan, 2 threads" convert big "$VL" "$XL" "$V --threads 2 --convert lan $B > /dev/null"
if [ "$have_extract" = 1 ]; then
  add "$XL" convert big "$VL" "$XL" "$PE -s -Wxlalg -o /dev/null $B"
  add "$XU" convert big "$VU" "$XU" "$PE -s -Wuci -o /dev/null $B"
fi
# index and search
XP="pgn-extract -TpCarlsen"; XF="pgn-extract -Tf<fen>"
[ "$can_index" = 1 ] && add "pgnkit index (build)" index big "$V1" "$X" "$P index $B > /dev/null"
[ "$can_player" = 1 ] && add "pgnkit search --player Carlsen --count" search big - "$XP" "$P search $B --player Carlsen --count > /dev/null"
[ "$can_fen" = 1 ] && add "pgnkit search --fen --count" search big - "$XF" "$P search $B --fen $(q "$fen_full") --count > /dev/null"
if [ "$have_extract" = 1 ]; then
  add "$XP" search big - "$XP" "$PE -s -TpCarlsen -o /dev/null $B"
  [ -n "$fen_full" ] && add "$XF" search big - "$XF" "$PE -s $(q "-Tf$fen_board") -o /dev/null $B"
fi
# compressed
[ "$can_zst" = 1 ] && add "pgnkit check -j2 big.pgn.zst" compressed zst "$V1" "$X" "$P check -j2 --quiet --format json $Z > /dev/null"

# ---------------------------------------------------------------- peak RSS
say "peak RSS (one run each; also checks that every command works)"
rss="$work/rss.tsv"
: >"$rss"
keep_names=()
keep_cmds=()
for i in "${!names[@]}"; do
  name="${names[$i]}"
  set +e
  /usr/bin/time -f '%M' -o "$work/time.out" bash -c "${cmds[$i]}" 2>"$work/cmd.err"
  status=$?
  set -e
  kb=$(tail -n 1 "$work/time.out" | tr -dc '0-9')
  # Exit 1 means "problems found in the games" for pgnkit and the peers; the
  # benchmark input has none, but a count of them is no reason to drop a row.
  if [ "$status" -ge 2 ]; then
    skip "$name" "exit status $status: $(tail -c 300 "$work/cmd.err" | tr '\n' ' ')"
    continue
  fi
  [ "$status" -eq 1 ] && echo "note: $name exited 1 (problems reported)" >&2
  printf '%s\t%s\n' "$name" "${kb:-0}" >>"$rss"
  printf '  %-45s %8s KB\n' "$name" "${kb:-?}" >&2
  keep_names+=("$name")
  keep_cmds+=("${cmds[$i]}")
done

# ---------------------------------------------------------------- timing
say "timing: hyperfine --warmup 1 --runs $RUNS (one invocation, ${#keep_names[@]} commands)"
args=()
for i in "${!keep_names[@]}"; do args+=(-n "${keep_names[$i]}" "${keep_cmds[$i]}"); done
hyperfine --ignore-failure --warmup 1 --runs "$RUNS" --style basic \
  --export-json "$work/hyperfine.json" "${args[@]}" >&2

# ---------------------------------------------------------------- report
say "report"
skipped_file="$work/skipped.txt"
printf '%s\n' "${skipped[@]+"${skipped[@]}"}" >"$skipped_file"
versions="pgn-extract $( (pgn-extract -h 2>&1 || true) | grep -o 'v[0-9][0-9-]*' | head -n 1); python-chess $(python3 -c 'import chess; print(chess.__version__)' 2>/dev/null || echo none); $(hyperfine --version)"
python3 "$here/report.py" \
  --hyperfine "$work/hyperfine.json" --commands "$meta" --rss "$rss" --skipped "$skipped_file" \
  --big-bytes "$big_bytes" --big-games "$big_games" --small-bytes "$small_bytes" --small-games "$small_games" \
  --zst-bytes "$( [ -f "$zst" ] && stat -c %s "$zst" || echo 0)" \
  --load-before "$load_before" --size "$SIZE" --runs "$RUNS" --fen "${fen_full:-}" --versions "$versions" \
  --commit "$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  >"$results"
cat "$results"
echo "written: $results" >&2
