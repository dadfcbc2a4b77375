#!/usr/bin/env bash
# The oracle's CI step: unit tests of both lines, then seeded random cases through both builds.
#
#   bash tests/upstream/ci.sh                      # 20,000 cases (1.36 line) + 2,000 (1.30 line)
#   bash tests/upstream/ci.sh --count 1000000      # the long run
#   ORACLE_SEED=123 bash tests/upstream/ci.sh      # replay a seed (default: a fresh one, printed)
#
# Cases that make the oracle fail are written to ${ORACLE_FAIL_DIR:-/tmp/kubectl-topo-oracle-fail}.
# The Rust engine's comparison on the same generator is tests/differential.rs (scripts/test-all.sh
# runs it; scripts/differential-release.sh runs 1,000,000 cases).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
count=20000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    *) echo "usage: ci.sh [--count N]" >&2; exit 2 ;;
  esac
done
seed="${ORACLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
fail_dir="${ORACLE_FAIL_DIR:-/tmp/kubectl-topo-oracle-fail}"
echo "oracle ci: seed $seed (replay with ORACLE_SEED=$seed)"

(cd "$here" && go test ./... && go test -modfile go130.mod -tags oracle130 ./...)

oracle="$(bash "$here/run-oracle.sh")"
oracle130="$(bash "$here/run-oracle.sh" --line 1.30)"
"$oracle" gen-and-run --seed "$seed" --count "$count" --fail-dir "$fail_dir"
"$oracle130" gen-and-run --seed "$seed" --count "$((count / 10 > 0 ? count / 10 : 1))" --fail-dir "$fail_dir/1.30"
