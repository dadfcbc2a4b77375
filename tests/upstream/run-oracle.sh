#!/usr/bin/env bash
# Builds the upstream oracle (if needed) and prints the path of the binary.
#
#   bash tests/upstream/run-oracle.sh            # → /home/…/.cache/kubectl-topo/oracle/<hash>/oracle
#   bash tests/upstream/run-oracle.sh --line 1.26  # another line: 1.21, 1.23, 1.25, 1.26, 1.29, 1.30, 1.32 (legacy/), 1.33, 1.37
#   "$(bash tests/upstream/run-oracle.sh)" gen-and-run --seed 1 --count 20000
#
# The binary lives outside the repository, under
# ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/oracle/<sha256 of the line, its go.mod/go.sum and
# the Go sources>/oracle, and is reused while none of those change. Go's own caches (GOCACHE,
# GOMODCACHE) stay wherever `go env` puts them. Modules come from the Go module proxy.
# Diagnostics go to stderr; stdout is only the path.
set -euo pipefail

line=1.36
lines="1.21 1.23 1.25 1.26 1.29 1.30 1.32 1.33 1.36 1.37"
case "${1:-}" in
  --line) line="${2:?--line needs one of $lines}" ;;
  "") ;;
  *) echo "usage: run-oracle.sh [--line LINE] (LINE: $lines)" >&2; exit 2 ;;
esac
# Each line: the directory of its sources, its module files, its build flags. legacy/ holds the
# lines whose k8s.io/api is too old for the main package (README.md, "Lines").
dir=.
case "$line" in
  1.36) modfiles=(go.mod go.sum); flags=() ;;
  1.33 | 1.37)
    n="${line#1.}"
    modfiles=("go1$n.mod" "go1$n.sum"); flags=(-modfile "go1$n.mod" -tags "oracle1$n") ;;
  1.21 | 1.23 | 1.25 | 1.26 | 1.29 | 1.30 | 1.32)
    n="${line#1.}"
    dir=legacy; modfiles=("go1$n.mod" "go1$n.sum"); flags=(-modfile "go1$n.mod" -tags "oracle1$n") ;;
  *) echo "run-oracle.sh: unknown line $line ($lines)" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/$dir"

if ! command -v go >/dev/null 2>&1; then
  echo "run-oracle.sh: go is not installed (need Go >= 1.26, see go.mod)" >&2
  exit 1
fi

hash="$(
  {
    printf '%s\n' "${modfiles[@]}"
    find . -maxdepth 1 -name '*.go' ! -name '*_test.go' | sed 's#^\./##' | LC_ALL=C sort
  } | { echo "line $line"; while read -r f; do
    printf '%s\0' "$f"
    cat "$f"
  done; } | sha256sum | cut -c1-16
)"
out="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/oracle/$hash"
bin="$out/oracle"

if [[ ! -x "$bin" ]]; then
  mkdir -p "$out"
  tmp="$(mktemp "$out/oracle.tmp.XXXXXX")"
  trap 'rm -f "$tmp"' EXIT
  echo "run-oracle.sh: building the $line oracle into $out" >&2
  start=$SECONDS
  go build "${flags[@]}" -o "$tmp" . >&2
  mv -f "$tmp" "$bin" # atomic: concurrent builders race harmlessly
  trap - EXIT
  echo "run-oracle.sh: built in $((SECONDS - start))s" >&2
fi

printf '%s\n' "$bin"
