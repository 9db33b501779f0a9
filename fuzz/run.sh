#!/usr/bin/env bash
# Bounded fuzzing of every target, for CI and by hand:
#   bash fuzz/run.sh [SECONDS] [TARGET...]
# SECONDS per target (default 30); TARGETs default to all of them. Fails
# (exit 1) when any target finds a crash, a timeout (an input slower than
# 10 s, or FUZZ_TIMEOUT seconds: libFuzzer's timer counts wall-clock time, so
# on a machine busy with other work a long run under `nice` wants more) or goes
# over 2 GiB of memory; the input is then in
# fuzz/artifacts/<target>/. Needs cargo-fuzz (`cargo install cargo-fuzz
# --locked`) and a C++ compiler; runs on stable Rust through
# RUSTC_BOOTSTRAP. Seeds are cut from testdata/ into fuzz/corpus/<target>/
# (git-ignored), where the fuzzer also keeps the new inputs it finds;
# fuzz/seeds/ (read_token) and fuzz/regressions/<target>/ (inputs that
# once failed) are only read.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(read_token check convert repair index inputs)
fi
export RUSTC_BOOTSTRAP=1
# No sanitizer: the code under test is safe Rust (twice the executions of
# AddressSanitizer); debug assertions and overflow checks stay on.
flags=(-s none)
python3 seed_corpus.py "${targets[@]}"
cargo fuzz build "${flags[@]}"
failed=()
for t in "${targets[@]}"; do
  dirs=("corpus/$t")
  [ "$t" = read_token ] && dirs+=(seeds)
  [ -d "regressions/$t" ] && dirs+=("regressions/$t")
  echo "==== fuzz $t for ${seconds}s"
  if ! cargo fuzz run "${flags[@]}" "$t" "${dirs[@]}" -- \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1; then
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FUZZ FAILED: ${failed[*]} (inputs in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "fuzz: ${targets[*]}: ${seconds}s each, nothing found"
