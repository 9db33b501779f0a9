#!/usr/bin/env bash
# Bounded fuzzing of token reading, for CI: bash fuzz/run.sh [SECONDS] (default 30).
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and a C++ compiler; runs on
# stable Rust through RUSTC_BOOTSTRAP. New inputs go to fuzz/corpus/ (git-ignored);
# fuzz/seeds/ holds hand-written starting inputs and is only read.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/read_token
RUSTC_BOOTSTRAP=1 cargo fuzz run read_token corpus/read_token seeds -- -max_total_time="${1:-30}"
