#!/usr/bin/env bash
# Builds the upstream oracle (if needed) and prints the path of the binary.
#
#   bash tests/upstream/run-oracle.sh            # → /home/…/.cache/kubectl-topo/oracle/<hash>/oracle
#   bash tests/upstream/run-oracle.sh --line 1.30  # the 1.30–1.32 build (k8s.io/endpointslice v0.30.14)
#   "$(bash tests/upstream/run-oracle.sh)" gen-and-run --seed 1 --count 20000
#
# The binary lives outside the repository, under
# ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/oracle/<sha256 of the line, its go.mod/go.sum and
# the Go sources>/oracle, and is reused while none of those change. Go's own caches (GOCACHE,
# GOMODCACHE) stay wherever `go env` puts them. Modules come from the Go module proxy.
# Diagnostics go to stderr; stdout is only the path.
set -euo pipefail

line=1.36
case "${1:-}" in
  --line) line="${2:?--line needs 1.36 or 1.30}" ;;
  "") ;;
  *) echo "usage: run-oracle.sh [--line 1.36|1.30]" >&2; exit 2 ;;
esac
case "$line" in
  1.36) modfiles=(go.mod go.sum); flags=() ;;
  1.30) modfiles=(go130.mod go130.sum); flags=(-modfile go130.mod -tags oracle130) ;;
  *) echo "run-oracle.sh: unknown line $line (1.36 or 1.30)" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

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
dir="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/oracle/$hash"
bin="$dir/oracle"

if [[ ! -x "$bin" ]]; then
  mkdir -p "$dir"
  tmp="$(mktemp "$dir/oracle.tmp.XXXXXX")"
  trap 'rm -f "$tmp"' EXIT
  echo "run-oracle.sh: building oracle into $dir" >&2
  start=$SECONDS
  go build "${flags[@]}" -o "$tmp" . >&2
  mv -f "$tmp" "$bin" # atomic: concurrent builders race harmlessly
  trap - EXIT
  echo "run-oracle.sh: built in $((SECONDS - start))s" >&2
fi

printf '%s\n' "$bin"
