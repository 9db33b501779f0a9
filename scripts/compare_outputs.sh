#!/usr/bin/env bash
# Runs `check` (human, JSON, --games, SARIF, --fix), `convert` (every
# notation, a few languages, PGN, JSON and FEN), `search` (scans),
# `dedup`, `diff`, `show`, `report` and `index` on every .pgn under a corpus with two pgnkit binaries
# and compares the bytes they write (standard output, standard error and exit
# status; for `index`, the index file). Prints one line per difference and a
# count; exits 1 if any.
#
#   scripts/compare_outputs.sh OLD_BINARY NEW_BINARY [CORPUS_DIR]
#
# Example: cp target/release/pgnkit /tmp/pgnkit-before  (on the old commit)
#          cargo build --release -p pgnkit
#          scripts/compare_outputs.sh /tmp/pgnkit-before target/release/pgnkit /work/shared/corpus
set -u
old=$(realpath "$1")
new=$(realpath "$2")
corpus=${3:-/work/shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each variant: a name and the arguments (FILE is replaced by the input).
variants=(
  "check-json|check -q --format json FILE"
  "convert-san|convert -q --to san FILE"
  "convert-lan|convert -q --to lan FILE"
  "convert-uci|convert -q --to uci FILE"
  "convert-figurine|convert -q --to figurine FILE"
  "convert-de|convert -q --to san --lang de FILE"
  "convert-fr|convert -q --to san --lang fr FILE"
  "convert-ru|convert -q --to san --lang ru FILE"
  "convert-ru-scoresheet|convert -q --to ru-scoresheet FILE"
  "convert-san-json|convert -q --to san --format json FILE"
  "convert-lan-json|convert -q --to lan --format json FILE"
  "convert-uci-json|convert -q --to uci --format json FILE"
  "convert-spoken-json|convert -q --to spoken --format json FILE"
  "convert-de-json|convert -q --to san --lang de --format json FILE"
  "convert-diag-json|convert -q --to san --diagnostics json FILE"
  "convert-fen|convert -q --to fen FILE"
  "check-human|check FILE"
  "check-games|check -q --format json --games FILE"
  "check-sarif|check -q --format sarif FILE"
  "check-fix|check -q --fix --diff FILE"
  "search-scan|search --scan --result 1-0 FILE"
  "search-plies|search --scan --plies 40..400 --status checkmate --count FILE"
  "dedup|dedup -q FILE"
  "diff|diff -q FILE FILE"
  "show|show --ascii --game 1 FILE"
  "report|report -q -o - FILE"
)

run() { # binary out-prefix args...
  local bin=$1 prefix=$2
  shift 2
  "$bin" "$@" >"$prefix.out" 2>"$prefix.err"
  echo $? >"$prefix.rc"
  # The only bytes that may differ from run to run: the time taken.
  sed -i -E 's/"seconds":[0-9.e+-]+/"seconds":T/' "$prefix.out"
  sed -i -E 's/, [0-9.]+ s\)/, T s)/; s/ in [0-9.]+ s\b/ in T s/' "$prefix.err"
}

files=0
runs=0
diffs=0
while IFS= read -r -d '' f; do
  files=$((files + 1))
  for v in "${variants[@]}"; do
    name=${v%%|*}
    read -r -a args <<<"${v#*|}"
    for k in "${!args[@]}"; do [[ ${args[$k]} == FILE ]] && args[$k]=$f; done
    run "$old" "$work/old" "${args[@]}"
    run "$new" "$work/new" "${args[@]}"
    runs=$((runs + 1))
    for part in out err rc; do
      if ! cmp -s "$work/old.$part" "$work/new.$part"; then
        echo "DIFF $name ($part): $f"
        diffs=$((diffs + 1))
      fi
    done
  done
  # index writes FILE.pgnkit-index beside its input: index a copy (same
  # name, same modification time: the index records both).
  mkdir -p "$work/old-dir" "$work/new-dir"
  for side in old new; do
    bin=$old; [[ $side == new ]] && bin=$new
    cp -p "$f" "$work/$side-dir/game.pgn"
    rm -f "$work/$side-dir/game.pgn.pgnkit-index"
    run "$bin" "$work/$side-index" index -q "$work/$side-dir/game.pgn"
  done
  runs=$((runs + 1))
  for part in out rc; do
    if ! cmp -s "$work/old-index.$part" "$work/new-index.$part"; then
      echo "DIFF index ($part): $f"
      diffs=$((diffs + 1))
    fi
  done
  if ! cmp -s "$work/old-dir/game.pgn.pgnkit-index" "$work/new-dir/game.pgn.pgnkit-index"; then
    echo "DIFF index (file): $f"
    diffs=$((diffs + 1))
  fi
done < <(find "$corpus" -name '*.pgn' -print0 | sort -z)

echo "compared $runs runs on $files files: $diffs differences"
[[ $diffs -eq 0 ]]
