#!/usr/bin/env bash
# Builds the peers `cargo xtask bench-serve` measures `kubectl topo serve` against (if needed) and
# prints the directory holding them:
#
#   kube-state-metrics   k8s.io/kube-state-metrics/v2 (version pinned in xtask/peers/go.mod)
#
#   bash scripts/build-peers.sh   # → /home/…/.cache/kubectl-topo/peers/<hash>
#
# The binaries live outside the repository, under ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/peers/
# <sha256 of xtask/peers' go.mod, go.sum and tools.go>/, and are reused while none of those change.
# Modules come from the Go module proxy. Diagnostics go to stderr; stdout is only the directory.
set -euo pipefail

self="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
peers="$(cd "$(dirname "$self")/../xtask/peers" && pwd)"
cd "$peers"

if ! command -v go >/dev/null 2>&1; then
  echo "build-peers.sh: go is not installed (need Go >= 1.26, see xtask/peers/go.mod)" >&2
  exit 1
fi

hash="$(cat go.mod go.sum tools.go "$self" | sha256sum | cut -c1-16)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo/peers/$hash"
mkdir -p "$dir"

build() { # build NAME PACKAGE
  local name="$1" package="$2" tmp start
  [[ -x "$dir/$name" ]] && return 0
  tmp="$(mktemp "$dir/$name.tmp.XXXXXX")"
  echo "build-peers.sh: building $name ($package) into $dir" >&2
  start=$SECONDS
  if ! go build -trimpath -o "$tmp" "$package" >&2; then
    rm -f "$tmp"
    return 1
  fi
  mv -f "$tmp" "$dir/$name"
  echo "build-peers.sh: built $name in $((SECONDS - start))s" >&2
}

build kube-state-metrics k8s.io/kube-state-metrics/v2

printf '%s\n' "$dir"
