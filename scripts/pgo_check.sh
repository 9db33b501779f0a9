#!/usr/bin/env bash
# Checks that the release build is optimized with pgo/pgnkit.profdata: the
# profile names functions by their symbols, whose hashes change with the
# version and features of each crate, and a profile that names none of the
# build's functions is ignored without a word. For the functions the replay
# spends its time in (the PGN lexer, the movetext walk, the conversion
# of a chunk), the binary's symbol (one of them, for a generic function) must
# be in the profile.
#
# usage: scripts/pgo_check.sh [BINARY]      (default target/release/pgnkit)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-$root/target/release/pgnkit}"
profile="$root/pgo/pgnkit.profdata"
profdata="$("$root/scripts/llvm_profdata.sh")"
known="$(mktemp)"
trap 'rm -f "$known"' EXIT
"$profdata" show --all-functions "$profile" | sed -n 's/^  \(.*\):$/\1/p' | sort -u > "$known"
echo "the profile names $(wc -l < "$known") functions"
missing=0
for pattern in '6Reader9read_game17h' '8movetext4walk17h' '7convert13convert_chunk17h'; do
  symbols="$(nm "$binary" | awk '{print $3}' | grep -e "$pattern" || true)"
  if [ -z "$symbols" ]; then
    echo "no symbol matching $pattern in $binary" >&2
    missing=1
    continue
  fi
  # A generic function has a symbol per instance; those the training
  # never ran are not in the profile (it is sparse), but one must be.
  found="$(grep -xF -f <(printf '%s\n' "$symbols") "$known" || true)"
  if [ -n "$found" ]; then
    echo "in the profile: $(printf '%s\n' "$found" | head -n 1)"
  else
    echo "not in the profile: $symbols" >&2
    missing=1
  fi
done
if [ "$missing" = 1 ]; then
  echo "pgo/pgnkit.profdata does not fit this build: run scripts/pgo.sh (pgo/README.md);" >&2
  echo "a release profile changed by CARGO_PROFILE_RELEASE_* or --config changes the symbols too" >&2
  exit 1
fi
