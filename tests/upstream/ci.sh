#!/usr/bin/env bash
# The oracle's CI step: its unit tests, then seeded random cases through every line's build.
#
#   bash tests/upstream/ci.sh                      # 20,000 cases (1.36 line) + 2,000 per other line
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

(cd "$here" && go test ./...)

oracle="$(bash "$here/run-oracle.sh")"
"$oracle" gen-and-run --seed "$seed" --count "$count" --fail-dir "$fail_dir"
# The other lines have no generator: the 1.36 build's, retargeted to each line's versions
# (gen --versions), through the line's batch mode, which exits 1 if a case errors.
share=$((count / 10 > 0 ? count / 10 : 1))
for spec in 1.21:21 1.23:22-23 1.25:24-25 1.26:26 1.29:27-29 1.30:30 1.32:31-32 1.33:33 1.37:37; do
  line="${spec%%:*}"
  bin="$(bash "$here/run-oracle.sh" --line "$line")"
  "$oracle" gen --seed "$seed" --count "$share" --versions "${spec#*:}" | "$bin" --jobs 2 --adaptive-runs >/dev/null
  echo "oracle ci: $line line: $share cases, none errored"
done
