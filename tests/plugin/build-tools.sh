#!/usr/bin/env bash
# Builds the real tools the plugin tests drive (if needed) and prints the directory holding them:
#
#   kubectl                  k8s.io/kubectl v0.36.3 (cmd/kubectl/main.go: kubectl's own main)
#   krew                     sigs.k8s.io/krew/cmd/krew v0.4.4
#   validate-krew-manifest   sigs.k8s.io/krew/cmd/validate-krew-manifest v0.4.4
#
#   bash tests/plugin/build-tools.sh   # → /home/…/.cache/kubectl-topo-plugin/<hash>
#
# The binaries live outside the repository, under
# ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-plugin/<sha256 of go.mod, go.sum and the Go
# sources>/, and are reused while none of those change. Go's own caches (GOCACHE, GOMODCACHE) stay
# wherever `go env` puts them; modules come from the Go module proxy. Concurrent callers race
# harmlessly (each binary is moved into place atomically). Diagnostics go to stderr; stdout is only
# the directory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

if ! command -v go >/dev/null 2>&1; then
  echo "build-tools.sh: go is not installed (need Go >= 1.26, see go.mod)" >&2
  exit 1
fi

hash="$(
  {
    printf '%s\n' build-tools.sh go.mod go.sum
    find . -name '*.go' | sed 's#^\./##' | LC_ALL=C sort
  } | while read -r f; do
    printf '%s\0' "$f"
    cat "$f"
  done | sha256sum | cut -c1-16
)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-plugin/$hash"
mkdir -p "$dir"

build() { # build NAME PACKAGE [GO BUILD FLAGS…]
  local name="$1" package="$2" tmp start
  shift 2
  [[ -x "$dir/$name" ]] && return 0
  tmp="$(mktemp "$dir/$name.tmp.XXXXXX")"
  echo "build-tools.sh: building $name ($package) into $dir" >&2
  start=$SECONDS
  if ! go build -trimpath "$@" -o "$tmp" "$package" >&2; then
    rm -f "$tmp"
    return 1
  fi
  mv -f "$tmp" "$dir/$name"
  echo "build-tools.sh: built $name in $((SECONDS - start))s" >&2
}

build validate-krew-manifest sigs.k8s.io/krew/cmd/validate-krew-manifest
build krew sigs.k8s.io/krew/cmd/krew
# Stamp kubectl's version as the release build does (v0.36.3 of the staging module = v1.36.3);
# krew stays a development build, which also skips its upgrade check (no network in tests).
kubectl_module="$(go list -m -f '{{.Version}}' k8s.io/kubectl)" # v0.36.3
kubectl_version="v1.${kubectl_module#v0.}"
minor="${kubectl_version#v1.}"
minor="${minor%%.*}"
pkg=k8s.io/component-base/version
build kubectl ./cmd/kubectl -ldflags \
  "-X $pkg.gitVersion=$kubectl_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"

printf '%s\n' "$dir"
