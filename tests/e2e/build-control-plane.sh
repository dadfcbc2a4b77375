#!/usr/bin/env bash
# Builds the upstream kube-apiserver, kube-controller-manager and kube-proxy for the e2e tier
# from the Go module proxy (tests/e2e/cpbuild pins k8s.io/kubernetes and every
# staging module), into a cache folder outside the repo keyed by version:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-e2e/<version>/{kube-apiserver,kube-controller-manager,kube-proxy}
# Idempotent: when the binaries exist nothing is rebuilt (warm run: well under a second).
# Also installs Debian's etcd-server when no etcd is on PATH.
# Prints `KUBE_APISERVER=<path>`, `KUBE_CONTROLLER_MANAGER=<path>`, `KUBE_PROXY=<path>`, `ETCD=<path>`
# on stdout;
# progress goes to stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mod="$here/cpbuild"
version="$(grep -oE '^\s*(require\s+)?k8s\.io/kubernetes v[0-9][^ ]*' "$mod/go.mod" | awk '{print $NF}' | head -1)"
if [[ -z "$version" ]]; then
  echo "build-control-plane: cannot read the k8s.io/kubernetes version from $mod/go.mod" >&2
  exit 1
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-e2e/$version"
mkdir -p "$cache"

log() { echo "build-control-plane: $*" >&2; }

# One build at a time per cache folder (parallel test binaries, two engineers).
exec 9>"$cache/.lock"
flock 9

# Stamp the version as upstream's release builds do (hack/lib/version.sh), so /version reports
# it; without it the binaries answer v0.0.0-master. A changed recipe rebuilds (link step only).
pkgs=(k8s.io/component-base/version k8s.io/client-go/pkg/version)
minor="${version#v1.}"; minor="${minor%%.*}"
ldflags="-s -w"
for p in "${pkgs[@]}"; do
  ldflags+=" -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
done
recipe="go-build -trimpath -ldflags=$ldflags"
if [[ "$(cat "$cache/.recipe" 2>/dev/null)" != "$recipe" ]]; then
  rm -f "$cache/kube-apiserver" "$cache/kube-controller-manager" "$cache/kube-proxy"
fi

build() {
  local name="$1"
  if [[ -x "$cache/$name" ]]; then
    log "$name $version: cached at $cache/$name"
    return
  fi
  command -v go >/dev/null || { log "go is not on PATH (needed once to build $name)"; exit 1; }
  log "$name $version: building (cold: several minutes on 2 cores)"
  local start=$SECONDS
  # -trimpath and -s -w keep the link step (the slow, memory-hungry part) short.
  (cd "$mod" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -p "${E2E_GO_PARALLEL:-2}" -trimpath \
      -ldflags="$ldflags" -o "$cache/$name.tmp" "k8s.io/kubernetes/cmd/$name")
  mv "$cache/$name.tmp" "$cache/$name"
  log "$name $version: built in $((SECONDS - start)) s"
}

build kube-apiserver
build kube-controller-manager
build kube-proxy
echo "$recipe" > "$cache/.recipe"

etcd_bin="$(command -v etcd || true)"
if [[ -z "$etcd_bin" && -x /usr/bin/etcd ]]; then etcd_bin=/usr/bin/etcd; fi
if [[ -z "$etcd_bin" ]]; then
  log "etcd not found: installing Debian's etcd-server"
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq etcd-server >&2
  # The package starts a system etcd on the default ports; the tests use their own.
  $sudo systemctl disable --now etcd >/dev/null 2>&1 || true
  etcd_bin="$(command -v etcd || echo /usr/bin/etcd)"
fi

# The kube-proxy comparison (kube_proxy.rs) runs kube-proxy in iptables and nftables mode inside
# network namespaces and bridges the apiserver into them with socat.
missing=()
command -v iptables-save >/dev/null || missing+=(iptables)
command -v nft >/dev/null || missing+=(nftables)
command -v socat >/dev/null || missing+=(socat)
if ((${#missing[@]})); then
  log "installing Debian's ${missing[*]} (kube-proxy tier)"
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

echo "KUBE_APISERVER=$cache/kube-apiserver"
echo "KUBE_CONTROLLER_MANAGER=$cache/kube-controller-manager"
echo "KUBE_PROXY=$cache/kube-proxy"
echo "ETCD=$etcd_bin"
