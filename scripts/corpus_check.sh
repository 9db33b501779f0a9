#!/usr/bin/env bash
# Corpus-wide cross-checks of `pgnkit check` (run by .ci/run).
#
#  1. `pgnkit check --games --format json` over every .pgn of the corpus with
#     -j 1 and with -j 2: the outputs must be byte-identical (apart from the
#     summary's "seconds", the one field that measures time), and no run may
#     fail (exit 2) or panic.
#  2. Game counts: for every file, the games pgnkit reports must equal the
#     count of scripts/count_games.py (an independent splitter), and the
#     summary's `games` must equal their sum.
#  3. scripts/compare_python_chess.py: pgnkit and python-chess on the same
#     bytes of every game, both ways: every disagreement (pgnkit error /
#     python-chess clean, pgnkit clean / python-chess error, other main line,
#     other final position, other game count) is explained by a category the
#     script checks on the game, or listed in
#     scripts/python_chess_disagreements.tsv with its reason; an unexplained
#     disagreement, or a list entry that no longer disagrees, fails.
#
#  4. `pgnkit search` with and without the index agree on every filter (the
#     opening filters --eco and --opening too: stored in the index, named on
#     the fly by a scan): the
#     files pgnkit can index are concatenated (in the work directory, never
#     beside the corpus) and indexed, then every filter of SEARCH_FILTERS
#     below (and --or, --invert, --non-matching, --sort, --offset) is run
#     with the index and with --scan; the outputs (the games selected, and
#     those --non-matching writes) must be byte-identical, and no run may
#     fail (exit 2) or panic.
#
# Every step runs even when an earlier one fails; the exit status is non-zero
# if any failed.
#
# Environment:
#   CORPUS   the corpus (default: ../shared/corpus beside the repo root). When
#            it is missing the script FAILS if CI=true, else it skips.
#   PGNKIT   the pgnkit binary (default: $CARGO_TARGET_DIR/release/pgnkit or
#            target/release/pgnkit)
#   SEARCH_SKIP_MB  step 4 skips files above this size (default 32: the 66 MB
#            benchmark file, whose games mostly repeat the rest of the corpus)
#   PYCHESS_SAMPLE_MB, PYCHESS_EVERY  python-chess reads only every
#            PYCHESS_EVERY-th game of files above PYCHESS_SAMPLE_MB MB
#            (default 32 and 3: the 66 MB benchmark file, whose games mostly
#            repeat the rest of the corpus)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${CORPUS:-$root/../shared/corpus}"
if [ ! -d "$corpus" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "corpus_check: FAIL: corpus not found at $corpus (CI=true: the corpus is required)" >&2
    exit 1
  fi
  echo "corpus_check: SKIPPED: corpus not found at $corpus (set CORPUS=...)" >&2
  exit 0
fi
corpus="$(cd "$corpus" && pwd)"
pgnkit="${PGNKIT:-${CARGO_TARGET_DIR:-$root/target}/release/pgnkit}"
if [ ! -x "$pgnkit" ]; then
  echo "corpus_check: FAIL: no pgnkit binary at $pgnkit (cargo build --release -p pgnkit)" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-corpus.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=()
fail() { failures+=("$1"); echo "corpus_check: FAIL: $1" >&2; }
step() { printf '\n== corpus_check: %s\n' "$*" >&2; }

mapfile -d '' files < <(find "$corpus" -type f -iname '*.pgn' -print0 | sort -z)
[ "${#files[@]}" -gt 0 ] || { echo "corpus_check: FAIL: no .pgn files under $corpus" >&2; exit 1; }
echo "corpus: $corpus (${#files[@]} .pgn files)" >&2

# ---------------------------------------------------------------- 1. -j1 vs -j2
run_check() { # JOBS OUT
  local status=0 start
  start=$(date +%s%N)
  "$pgnkit" check --games --format json --quiet -j "$1" "${files[@]}" >"$2" 2>"$2.err" || status=$?
  echo "pgnkit check -j $1: exit $status, $(wc -l <"$2") lines, $(( ($(date +%s%N) - start) / 1000000 )) ms" >&2
  if [ "$status" -ge 2 ]; then
    fail "pgnkit check -j $1 exited $status: $(tail -c 1000 "$2.err")"
  fi
}
step "pgnkit check -j 1 and -j 2 on the whole corpus"
run_check 1 "$work/j1.json"
run_check 2 "$work/j2.json"
strip_seconds() { sed -E 's/,?"seconds":[0-9.eE+-]+//' "$1"; }
if ! cmp -s <(strip_seconds "$work/j1.json") <(strip_seconds "$work/j2.json"); then
  fail "-j 1 and -j 2 outputs differ"
  diff <(strip_seconds "$work/j1.json") <(strip_seconds "$work/j2.json") | head -n 20 >&2 || true
else
  echo "identical output with -j 1 and -j 2" >&2
fi

# ---------------------------------------------------------------- 2. game counts
step "game counts: pgnkit vs scripts/count_games.py"
if CORPUS="$corpus" python3 "$here/test_count_games.py" >"$work/unittest.txt" 2>&1; then
  tail -n 3 "$work/unittest.txt" >&2
else
  cat "$work/unittest.txt" >&2
  fail "scripts/test_count_games.py failed"
fi
python3 "$here/count_games.py" "${files[@]}" >"$work/counts.tsv" || fail "count_games.py failed"
if ! python3 - "$work/j1.json" "$work/counts.tsv" >&2 <<'PY'
import collections, json, sys
records = collections.Counter()
summary = None
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        if not line.strip():
            continue
        record = json.loads(line)
        if record.get("type") == "game":
            records[record.get("file")] += 1
        elif record.get("type") == "summary":
            summary = record
bad = 0
total = 0
with open(sys.argv[2], encoding="utf-8") as handle:
    for line in handle:
        count, path = line.rstrip("\n").split("\t", 1)
        total += int(count)
        if records.get(path, 0) != int(count):
            bad += 1
            print(f"  {path}: pgnkit {records.get(path, 0)} games, count_games.py {count}")
if summary is None:
    print("  no summary line in pgnkit's output")
    bad += 1
elif summary.get("games") != sum(records.values()):
    print(f"  summary games {summary.get('games')} != {sum(records.values())} game records")
    bad += 1
print(f"{total} games counted by count_games.py; {sum(records.values())} game records from pgnkit; "
      f"{bad} disagreements")
sys.exit(1 if bad else 0)
PY
then
  fail "game counts differ (see above)"
fi

# ---------------------------------------------------------------- 3. python-chess
step "python-chess cross-check"
if ! python3 "$here/compare_python_chess.py" --json-from "$work/j1.json" --pgnkit "$pgnkit" \
  --root "$corpus" --reviewed "$here/python_chess_disagreements.tsv" \
  --sample-above "${PYCHESS_SAMPLE_MB:-32}" --every "${PYCHESS_EVERY:-3}" "${files[@]}" >"$work/python.txt"; then
  fail "compare_python_chess.py: unexplained disagreements with python-chess or stale reviewed entries (see UNEXPLAINED / STALE above the summary)"
fi
# Every disagreement, classified, then the summary by class.
cat "$work/python.txt" >&2
[ -n "${CORPUS_CHECK_KEEP:-}" ] && cp "$work/python.txt" "$CORPUS_CHECK_KEEP"

# ---------------------------------------------------------------- 4. search
step "pgnkit search: the index and --scan agree on every filter"
after_e4='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
# One filter set a line: its words, separated by tabs (a word may hold spaces).
SEARCH_FILTERS=$(cat <<EOF_FILTERS
--status	checkmate
--status	stalemate,dead-position,insufficient-material,fivefold-repetition,seventyfive-moves
--status	ongoing
--status	invalid,unsupported
--has-errors
--claim	threefold
--claim	fifty-moves
--plies	40..80
--plies	..20
--min-elo	2400
--max-elo	2300
--elo-diff	..100
--round	1
--annotator	a
--tag	Round~1
--tag	WhiteElo>=2500
--tag	Date<=1990.06
--tag	Opening=Sicilian defense
--moves	1. e4 c5
--moves	d4 * c4
--position	$after_e4	--ply	1
--position	$after_e4	--any-ply
--material	r+p* r=p*
--material	q*r*p*b2n2< q=r=p=b2<n2
--fen-pattern	*/*/*/*/4P3/*/*/*	--fen-pattern	*/*/*/3p4/*/*/*/*
--player	a	--or	--status checkmate --plies ..60	--or	--claim threefold
--invert	--result	1-0
--sort	date	--offset	5	--limit	50
--sort	elo
--sort	white	--format	json
--sort	plies	--limit	20
--offset	3	--limit	7	--count
--eco	A00-B99
--eco	C6
--eco	E	--or	--opening gambit
--eco-tag	B
--opening	sicilian
--opening	Queen's Gambit Declined: 
--opening	indian	--format	json	--sort	elo
--time-control	300+3
--time-class	blitz	--or	--time-class rapid
--clock-below	10
--clock-below	30	--time-class	blitz	--invert
EOF_FILTERS
)
search_skip=$(( ${SEARCH_SKIP_MB:-32} * 1024 * 1024 ))
search_runs=0
search_bad=0
search_files=0
start=$(date +%s%N)
mkdir -p "$work/search"
# The files are searched as one: every file pgnkit can index (binary data is
# refused by index and search alike), concatenated, a line break between.
all="$work/search/all.pgn"
: >"$all"
for f in "${files[@]}"; do
  [ "$(stat -c %s "$f")" -le "$search_skip" ] || continue
  copy="$work/search/one.pgn"
  cp "$f" "$copy"
  rm -f "$copy.pgnkit-index"
  if ! "$pgnkit" index -q -j 2 "$copy" 2>"$work/search/err"; then
    status=0
    "$pgnkit" search -q --scan --count "$copy" >/dev/null 2>&1 || status=$?
    if [ "$status" -le 1 ]; then
      fail "search: \`pgnkit index\` refused $f, which a scan reads: $(head -c 300 "$work/search/err")"
    fi
    continue
  fi
  search_files=$((search_files + 1))
  cat "$f" >>"$all"
  printf '\n\n' >>"$all"
done
"$pgnkit" index -q -j 2 "$all" 2>"$work/search/err" \
  || fail "search: \`pgnkit index\` failed on the concatenated corpus: $(head -c 300 "$work/search/err")"
while IFS=$'\t' read -r -a words; do
  [ "${#words[@]}" -gt 0 ] || continue
  search_runs=$((search_runs + 1))
  for mode in index scan; do
    extra=()
    [ "$mode" = scan ] && extra=(--scan)
    status=0
    "$pgnkit" search -q -j 2 "${extra[@]}" "${words[@]}" --non-matching "$work/search/rest-$mode.pgn" \
      "$all" >"$work/search/raw-$mode" 2>"$work/search/err-$mode" || status=$?
    # The JSON summary says whether the index was used, and how long it took.
    grep -av '"type":"summary"' "$work/search/raw-$mode" >"$work/search/out-$mode" || true
    if [ "$status" -ge 2 ]; then
      fail "search ${words[*]} ($mode) exited $status: $(head -c 300 "$work/search/err-$mode")"
      search_bad=$((search_bad + 1))
    fi
  done
  if ! cmp -s "$work/search/out-index" "$work/search/out-scan" \
    || ! cmp -s "$work/search/rest-index.pgn" "$work/search/rest-scan.pgn"; then
    fail "search ${words[*]}: the index and --scan disagree"
    search_bad=$((search_bad + 1))
  fi
  selected=$(grep -ac '^\[Event \|"type":"game"' "$work/search/out-scan" || true)
  printf '  %-70s %s\n' "${words[*]}" "$selected selected" >&2
done <<<"$SEARCH_FILTERS"
echo "search: $search_runs filter runs over $search_files files (concatenated), each with the index and with --scan: \
$search_bad disagreements or failures ($(( ($(date +%s%N) - start) / 1000000 )) ms)" >&2

echo >&2
if [ "${#failures[@]}" -gt 0 ]; then
  echo "corpus_check: ${#failures[@]} check(s) failed:" >&2
  printf '  - %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "corpus_check: all checks passed" >&2
