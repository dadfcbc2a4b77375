#!/usr/bin/env bash
# Prints the directory holding the Prometheus Operator's CRDs (ServiceMonitor, PrometheusRule, …),
# fetched when missing from the Go module proxy (never from GitHub): the module
# github.com/prometheus-operator/prometheus-operator ships them under
# example/prometheus-operator-crd/. The e2e `monitoring` group creates them in its apiserver so
# that deploy/prometheus-operator/*.yaml can be dry-run applied with strict field validation.
# Cached under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-monitoring (a module cache of its own,
# writable so that it can be deleted).
set -euo pipefail
version="v0.85.0"
module="github.com/prometheus-operator/prometheus-operator"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-monitoring"
dir="$cache/gomod/$module@$version/example/prometheus-operator-crd"
if [ ! -f "$dir/monitoring.coreos.com_servicemonitors.yaml" ]; then
  command -v go >/dev/null || { echo "error: go not found: it fetches the Prometheus Operator CRDs" >&2; exit 2; }
  mkdir -p "$cache"
  # Outside any module; GOFLAGS=-modcacherw keeps the cache deletable.
  (cd "$cache" && GOMODCACHE="$cache/gomod" GOFLAGS=-modcacherw GOTOOLCHAIN=local \
    go mod download "$module@$version" >&2)
fi
[ -f "$dir/monitoring.coreos.com_prometheusrules.yaml" ] || { echo "error: no CRDs in $dir" >&2; exit 2; }
echo "$dir"
