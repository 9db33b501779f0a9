#!/usr/bin/env bash
# pgnkit as a pre-commit hook, as a user gets it: the real pre-commit (PyPI)
# builds the hook from this repository's .pre-commit-hooks.yaml at HEAD's
# commit (`language: rust`: `cargo install --path .`), refuses a commit of
# a real game with an illegal move, and lets the fixed game through
# (cli/tests/pre_commit.rs, its ignored test included, under CI=true).
#
# usage: scripts/pre_commit_check.sh
#
# Run it after `cargo build --release -p pgnkit` with the same
# CARGO_TARGET_DIR (default: target/): the hook's build then reuses the
# dependencies built there and compiles pgnkit's own crates only (about
# 1.5 minutes on 2 cores). Commit first: pre-commit clones HEAD.
#
# Environment:
#   NO_INSTALL=1  do not pip install pre-commit (use what is there)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
export CARGO_TARGET_DIR="$target"
if [ -z "${NO_INSTALL:-}" ] && ! command -v pre-commit >/dev/null; then
  python3 -m pip install -q 'pre-commit>=3,<5' >&2
fi
pre-commit --version >&2
cd "$root"
start=$(date +%s)
# The test as `cargo test --workspace` built it: no second build of the suite.
CI=true cargo test --workspace --test pre_commit -- --include-ignored --nocapture --test-threads 1
echo "pre_commit_check: ok in $(($(date +%s) - start)) s" >&2
