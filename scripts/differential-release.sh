#!/usr/bin/env bash
# Release check of the upstream differential, in chunks, each chunk one run of the differential
# test (tests/differential.rs): 1,000,000 random cases of the 1.36 line, then 200,000 on each other
# oracle line (1.21, 1.23, 1.25, 1.26, 1.29, 1.30, 1.32, 1.33, 1.37: one per behaviour era, tests/upstream/README.md)
# and 200,000 skewed-cluster cases (`skew`: control plane 1.33, nodes 1.30/1.32/1.33, each node's
# kube-proxy on its own line; tests/differential/skew.rs).
#
#   scripts/differential-release.sh                                  # fresh seed (printed), every line
#   scripts/differential-release.sh --seed 42 --line 1.29 --start 60000  # resume one line after a stop
#   scripts/differential-release.sh --count 200000 --era-count 20000 --chunk 20000
#   scripts/differential-release.sh --line 1.26 --line 1.29          # only those lines
#
# A chunk that finds a mismatch stops the run and prints the replay command of the minimal case
# (written under <target>/differential-mismatches/) and the command that resumes at that chunk.
# Every chunk's summary line is appended to <target>/differential-release-<seed>.log.
# Uses a release build of the test binary (the engine is ~5x faster optimised).
set -euo pipefail
cd "$(dirname "$0")/.."

count=1000000
era_count=200000
chunk=50000
start=0
seed="${ORACLE_SEED:-}"
lines=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --era-count) era_count="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --line) lines+=("$2"); shift 2 ;;
    *) echo "usage: differential-release.sh [--seed S] [--line L]... [--start I] [--count N] [--era-count M] [--chunk C]" >&2; exit 2 ;;
  esac
done
[[ ${#lines[@]} -gt 0 ]] || lines=(1.36 1.21 1.23 1.25 1.26 1.29 1.30 1.32 1.33 1.37 skew)
seed="${seed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
target="${CARGO_TARGET_DIR:-target}"
echo "differential release: seed $seed, lines ${lines[*]}; 1.36: $count cases, other lines: $era_count each, chunks of $chunk"

began=$SECONDS
for line in "${lines[@]}"; do
  total=$era_count
  [[ "$line" == 1.36 ]] && total=$count
  for ((i = start; i < total; i += chunk)); do
    n=$((total - i < chunk ? total - i : chunk))
    echo "==> $line line: chunk $i..$((i + n - 1)) ($(( (i - start) * 100 / (total - start) ))% of this line, $((SECONDS - began)) s)"
    # The 1.36 line's share is ORACLE_CASES; every other line's is ORACLE_LINE_CASES.
    if ! ORACLE_SEED="$seed" ORACLE_START="$i" ORACLE_CASES="$n" ORACLE_LINE_CASES="$n" ORACLE_LINES="$line" \
        cargo test --release --locked --features differential --test differential differential::differential -- --nocapture; then
      echo "differential release: mismatch on the $line line in the chunk starting at $i; see above for the replay command"
      echo "resume: scripts/differential-release.sh --seed $seed --line $line --start $i --count $count --era-count $era_count --chunk $chunk"
      exit 1
    fi
    cat "$target/differential-summary.txt" >>"$target/differential-release-$seed.log" || true
  done
  echo "differential release: $line line: $((total - start)) cases from $start, seed $seed, 0 mismatches, $((SECONDS - began)) s"
  start=0
done
echo "differential release: lines ${lines[*]}, seed $seed, 0 mismatches, $((SECONDS - began)) s"
