#!/usr/bin/env bash
# Builds the Go tools the chart and deploy/ tests run, from the Go module proxy (never GitHub),
# each at a pinned version into a cache folder outside the repo keyed by that version:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-helm/<tool>-<version>/<tool>
#   helm      helm.sh/helm/v3/cmd/helm                      (helm lint, template, install)
#   kustomize sigs.k8s.io/kustomize/kustomize/v5            (kustomize build deploy/, edit set image)
#   operator  github.com/prometheus-operator/prometheus-operator/cmd/operator
#             (the Prometheus Operator reconciling our ServiceMonitor and PrometheusRule; its go.mod
#             has replace directives, so it is built inside tests/helm/opbuild, which pins it)
#   prometheus github.com/prometheus/prometheus/cmd/prometheus (v3.5.0; Debian's package has no
#             Kubernetes service discovery, which the Operator's configuration uses; built inside
#             tests/helm/prombuild for the same reason)
# Idempotent: a built tool is not rebuilt (warm run: well under a second); a changed recipe
# (flags) rebuilds (the link step only, from Go's build cache). One build of a tool at a time (a
# lock per tool), so parallel test binaries wait for each other.
# Usage: build-helm.sh [helm|kustomize|operator|prometheus]...   (default: helm kustomize)
# Prints `HELM=<path>`, `KUSTOMIZE=<path>`, `OPERATOR=<path>`, `PROMETHEUS=<path>` for the tools asked for on stdout;
# progress goes to stderr.
set -euo pipefail

declare -A module=(
  [helm]="helm.sh/helm/v3/cmd/helm@v3.21.4"
  [kustomize]="sigs.k8s.io/kustomize/kustomize/v5@v5.8.1"
  [operator]="github.com/prometheus-operator/prometheus-operator/cmd/operator@v0.85.0"
  [prometheus]="github.com/prometheus/prometheus/cmd/prometheus@v0.305.0"
)
# Built inside a module of ours (their go.mod has replace directives): which one.
declare -A wrapper=([operator]=opbuild [prometheus]=prombuild)
# As helm's Makefile stamps a release: its version, and the Kubernetes version `helm template` and
# `helm lint` assume (its client-go v0.36.2 → 1.36; unstamped it assumes 1.20).
helm_k8s="-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=36"
helm_k8s+=" -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=36"
declare -A stamp=(
  [helm]="-X helm.sh/helm/v3/internal/version.version=v3.21.4 $helm_k8s"
  [kustomize]=""
  [operator]=""
  [prometheus]="-X github.com/prometheus/common/version.Version=3.5.0"
)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The versions built in a wrapper module are the ones its go.mod pins.
for tool in "${!wrapper[@]}"; do
  path="${module[$tool]%@*}"; want="${module[$tool]##*@}"
  pinned="$(awk -v m="${path%/cmd/*}" '$1 == m {print $2}' "$here/${wrapper[$tool]}/go.mod")"
  [[ "$pinned" == "$want" ]] || {
    echo "build-helm: tests/helm/${wrapper[$tool]}/go.mod pins $tool at '$pinned', this script at $want" >&2
    exit 2
  }
done
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-helm"
mkdir -p "$cache_root"
log() { echo "build-helm: $*" >&2; }

tools=("$@")
((${#tools[@]})) || tools=(helm kustomize)
for tool in "${tools[@]}"; do
  spec="${module[$tool]:-}"
  [[ -n "$spec" ]] || { log "unknown tool $tool (helm, kustomize, operator, prometheus)"; exit 2; }
  version="${spec##*@}"
  dir="$cache_root/$tool-$version"
  exec 9>"$cache_root/.lock-$tool"
  flock 9
  ldflags="-s -w ${stamp[$tool]}"
  recipe="go-install -trimpath -ldflags=$ldflags $spec"
  if [[ ! -x "$dir/$tool" || "$(cat "$dir/.recipe" 2>/dev/null)" != "$recipe" ]]; then
    command -v go >/dev/null || { log "go is not on PATH (needed once to build $tool)"; exit 1; }
    log "$tool $version: building $spec (cold: minutes on 2 cores)"
    start=$SECONDS
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    # Outside any module the tool's own go.mod decides every dependency; no newer toolchain is
    # fetched. -trimpath and -s -w keep the link step short. `go install` names the binary after
    # the last element of the package path (helm, kustomize, operator).
    if [[ -n "${wrapper[$tool]:-}" ]]; then
      (cd "$here/${wrapper[$tool]}" && GOTOOLCHAIN=local GOFLAGS="-modcacherw -mod=mod" CGO_ENABLED=0 \
        go build -p "${GO_BUILD_PARALLEL:-1}" -trimpath -ldflags="$ldflags" -o "$dir.tmp/$tool" "${spec%@*}")
    else
      (cd "$dir.tmp" && GOBIN="$dir.tmp" GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0 \
        go install -p "${GO_BUILD_PARALLEL:-1}" -trimpath -ldflags="$ldflags" "$spec")
    fi
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    echo "$recipe" > "$dir/.recipe"
    log "$tool $version: built in $((SECONDS - start)) s"
  fi
  exec 9>&-
  echo "${tool^^}=$dir/$tool"
done
