#!/usr/bin/env bash
# Installs the real consumers of the picture formats when missing: Debian's chromium and graphviz
# (apt) and the npm packages of tests/consumers (mermaid, playwright-core) with `npm ci` into
# ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-node — never into the repo. Idempotent and quiet when
# everything is there; prints the node_modules directory on stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-node"
log() { printf 'consumers: %s\n' "$*" >&2; }

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v dot >/dev/null || missing+=(graphviz)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  log "installing Debian's ${missing[*]}"
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq "${missing[@]}" fonts-dejavu-core >&2
fi

mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [[ ! -d "$cache/node_modules" ]]; then
  log "npm ci (mermaid, playwright-core) into $cache"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund >&2)
fi
echo "$cache/node_modules"
