#!/usr/bin/env bash
# Release check: 1,000,000 random cases of the upstream differential (plus 100,000 of the 1.30
# line), in chunks, each chunk one run of the differential test (tests/differential.rs).
#
#   scripts/differential-release.sh                       # fresh seed (printed), from case 0
#   scripts/differential-release.sh --seed 42 --start 350000   # resume after a failure / stop
#   scripts/differential-release.sh --count 200000 --chunk 20000
#
# A chunk that finds a mismatch stops the run and prints the replay command of the minimal case
# (written under <target>/differential-mismatches/) and the --start that resumes at that chunk.
# Uses a release build of the test binary (the engine is ~5x faster optimised).
set -euo pipefail
cd "$(dirname "$0")/.."

count=1000000
chunk=50000
start=0
seed="${ORACLE_SEED:-}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "usage: differential-release.sh [--seed S] [--start I] [--count N] [--chunk C]" >&2; exit 2 ;;
  esac
done
seed="${seed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
target="${CARGO_TARGET_DIR:-target}"
echo "differential release: seed $seed, cases $start..$((count - 1)) in chunks of $chunk"

began=$SECONDS
for ((i = start; i < count; i += chunk)); do
  n=$((count - i < chunk ? count - i : chunk))
  echo "==> chunk $i..$((i + n - 1)) ($(( (i - start) * 100 / (count - start) ))% done, $((SECONDS - began)) s)"
  if ! ORACLE_SEED="$seed" ORACLE_START="$i" ORACLE_CASES="$n" \
      cargo test --release --locked --test integration differential::differential -- --nocapture; then
    echo "differential release: mismatch in chunk starting at $i; see above for the replay command"
    echo "resume: scripts/differential-release.sh --seed $seed --start $i --count $count --chunk $chunk"
    exit 1
  fi
  cat "$target/differential-summary.txt" >>"$target/differential-release-$seed.log" || true
done
echo "differential release: $((count - start)) cases from $start, seed $seed, 0 mismatches, $((SECONDS - began)) s"
