#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (.ci/run calls this script).
# Tiers: fmt + clippy → unit + snapshot + CLI tests (cargo test) → upstream differential (Go oracle)
# → plugin packaging (tests/plugin.rs: krew's validator, krew and kubectl built from the module proxy).
# Go builds are cached under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo and …/kubectl-topo-plugin,
# never in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

command -v cargo >/dev/null || { echo "error: cargo not found: install Rust (https://rustup.rs)"; exit 2; }
command -v go >/dev/null || { echo "error: go not found: the upstream differential tier needs Go >= 1.24"; exit 2; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets --locked -- -D warnings

step "cargo test (unit, snapshot, CLI, upstream differential, krew + kubectl plugin)"
# The differential test builds the Go oracle (cached) and compares ORACLE_CASES random cases.
export ORACLE_CASES="${ORACLE_CASES:-20000}"
export ORACLE_SEED="${ORACLE_SEED:-$(date +%s)}"
echo "differential: ${ORACLE_CASES} cases, seed ${ORACLE_SEED} (replay: ORACLE_SEED=${ORACLE_SEED} scripts/test-all.sh)"
cargo test --locked --all-targets -- --test-threads 2
