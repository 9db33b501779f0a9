#!/usr/bin/env bash
# Runs the example program of each library crate (the programs a Rust user
# would copy) on testdata/ and checks what they print (run by .ci/run):
#
#   pgnkit-notation  examples/to_uci.rs   a score in any language -> UCI
#   pgnkit-pgn       examples/count.rs    games, tokens, syntax errors
#   pgnkit-replay    examples/check.rs    one line per problem, exit status
#   pgnkit-index     examples/search.rs   builds an index, then searches it
#   pgnkit-source    examples/games.rs    counts games of files, stdin, compressed
#   pgnkit-report    examples/lint.rs     rustc-style problems, JSON, exit status
#   pgnkit-config    examples/selection.rs  the codes pgnkit.toml reports per path
#
# usage: scripts/examples_check.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
# Every example of the workspace, as `cargo test --workspace` built them
# (naming packages with -p would build them again with other features).
cargo build -q --workspace --examples
ex="$target_dir/debug/examples"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=0

# expect NAME ACTUAL EXPECTED
expect() {
  if [ "$2" == "$3" ]; then
    echo "ok: $1"
  else
    printf 'FAILED: %s\n  expected: %s\n  got:      %s\n' "$1" "$3" "$2"
    failed=1
  fi
}

# pgnkit-notation: German letters, then LAN, figurines and Russian letters mixed.
expect "to_uci, German" "$("$ex/to_uci" '1. e4 e5 2. Sf3 Sc6 3. Lb5 1-0' 2>/dev/null)" \
  "e2e4 e7e5 g1f3 b8c6 f1b5"
expect "to_uci, standard input" "$(echo '1. e2-e4 e7–e5 2. ♘f3 Кc6 3. Сb5' | "$ex/to_uci" 2>/dev/null)" \
  "e2e4 e7e5 g1f3 b8c6 f1b5"
status=0
"$ex/to_uci" '1. e4 e5 2. Ke3' >/dev/null 2>&1 || status=$?
expect "to_uci, an illegal move" "$status" 1

# pgnkit-pgn: a five-token game.
expect "count" "$("$ex/count" testdata/pgn/black2move.pgn)" \
  "1 games 5 tokens 0 syntax errors testdata/pgn/black2move.pgn"

# pgnkit-replay: an error is one line at its place, and the exit status says so.
status=0
out="$("$ex/check" testdata/check/illegal-ambiguous.pgn)" || status=$?
expect "check, exit status with errors" "$status" 1
expect "check, first line" "$(printf '%s\n' "$out" | head -n 1)" \
  "testdata/check/illegal-ambiguous.pgn:2:115: error[illegal-move]: \`Ne6\` is not a legal move for white here"
expect "check, a clean file" "$("$ex/check" testdata/check/status-checkmate.pgn | tail -n 1)" \
  "2 games, 0 errors, 1 warnings"

# pgnkit-index: the first search builds the index, the second reuses it.
cp testdata/index/twic-232.pgn "$tmp/"
first="$("$ex/search" "$tmp/twic-232.pgn" --player Carlsen 2>"$tmp/stderr" | tail -n 1)"
expect "search builds the index" "$(grep -c '^indexing' "$tmp/stderr")" 1
second="$("$ex/search" "$tmp/twic-232.pgn" --player Carlsen 2>"$tmp/stderr" | tail -n 1)"
expect "search reuses the index" "$(grep -c '^indexing' "$tmp/stderr" || true)" 0
expect "search, same answer" "$second" "$first"
# As many games as White or Black tags name him (counted by grep).
expect "search by player" "$first" \
  "$(grep -ciE '^\[(White|Black) "[^"]*carlsen' testdata/index/twic-232.pgn) games"
after_e4="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
by_fen="$("$ex/search" "$tmp/twic-232.pgn" --fen "$after_e4" | tail -n 1)"
case "$by_fen" in
  "0 games" | "232 games" | "") expect "search by position finds some games, not all" "$by_fen" "between 1 and 231 games" ;;
  *) echo "ok: search finds $by_fen after 1. e4" ;;
esac

# pgnkit-source: a file, the same file gzipped on standard input, and a
# directory, which is reported while the others are still counted.
expect "games, a file" "$("$ex/games" testdata/repair/white.pgn)" \
  "testdata/repair/white.pgn: 2 games, $(wc -c <testdata/repair/white.pgn | tr -d ' ') bytes"
expect "games, gzip on standard input" "$(gzip -c testdata/repair/white.pgn | "$ex/games" -)" \
  "-: 2 games, $(wc -c <testdata/repair/white.pgn | tr -d ' ') bytes"
status=0
out="$("$ex/games" testdata testdata/repair/black.pgn 2>"$tmp/stderr")" || status=$?
expect "games, a directory: exit status" "$status" 2
expect "games, a directory: the other file counted" "$out" \
  "testdata/repair/black.pgn: 2 games, $(wc -c <testdata/repair/black.pgn | tr -d ' ') bytes"
expect "games, a directory: the error" "$(cat "$tmp/stderr")" \
  "testdata: error: cannot read \`testdata\`: it is a directory"

# pgnkit-report: the first problem of a slip, rustc-style, then as JSON.
status=0
out="$("$ex/lint" testdata/repair/slips.pgn)" || status=$?
expect "lint, exit status with errors" "$status" 1
expect "lint, the first problem" "$(printf '%s\n' "$out" | head -n 2)" \
  "$(printf '%s\n' 'error[illegal-move]: `Ng3` is not a legal move for white here' '  --> testdata/repair/slips.pgn:15:4')"
json="$("$ex/lint" --json testdata/repair/slips.pgn)" || true
expect "lint, JSON" "$(printf '%s\n' "$json" | head -n 1 | cut -d, -f 1-3)" \
  '{"type":"diagnostic","severity":"error","code":"illegal-move"'

# pgnkit-config: a settings file with an override, read from a folder below it.
mkdir -p "$tmp/project/games"
printf 'select = ["illegal-move", "check-mark"]\n[[overrides]]\npaths = ["archive/**"]\nignore = ["check-mark"]\n' \
  > "$tmp/project/pgnkit.toml"
out="$(cd "$tmp/project/games" && "$ex/selection" a.pgn ../archive/b.pgn)"
expect "selection, the settings file found upwards" "$(printf '%s\n' "$out" | head -n 1)" \
  "settings: $tmp/project/pgnkit.toml"
expect "selection, per path" "$(printf '%s\n' "$out" | tail -n 2)" \
  "$(printf '%s\n' 'a.pgn: illegal-move:error check-mark:warning' '../archive/b.pgn: illegal-move:error')"

exit "$failed"
