#!/usr/bin/env bash
# Prints the path of the toolchain's llvm-profdata (scripts/pgo.sh,
# scripts/pgo_check.sh), installing the llvm-tools component when it is
# missing: it must be the LLVM of the rustc that builds pgnkit.
set -euo pipefail
sysroot="$(rustc --print sysroot)"
find_it() { find "$sysroot" -name llvm-profdata -type f 2>/dev/null | head -n 1; }
profdata="$(find_it)"
if [ -z "$profdata" ]; then
  rustup component add llvm-tools >&2
  profdata="$(find_it)"
fi
[ -n "$profdata" ] || { echo "llvm-profdata: not found in $sysroot" >&2; exit 1; }
echo "$profdata"
