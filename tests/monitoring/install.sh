#!/usr/bin/env bash
# Installs Debian's `prometheus` package (promtool and the Prometheus server) and `buildah` (the
# image build of deploy/Dockerfile) when missing: the monitoring tests (tests/monitoring.rs, the e2e `monitoring` group)
# run both, on 127.0.0.1, with temporary data directories. The package's service is not started
# (policy-rc.d), the tests start their own server. Also fetches the Prometheus Operator's CRDs
# (operator-crds.sh: the Go module proxy, cached) that the e2e `monitoring` group creates.
set -euo pipefail
bash "$(dirname "$0")/operator-crds.sh" >/dev/null
if command -v promtool >/dev/null && command -v prometheus >/dev/null && command -v buildah >/dev/null; then
  exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
policy=/usr/sbin/policy-rc.d
added=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
  added=1
fi
cleanup() { [ -z "$added" ] || $sudo rm -f "$policy"; }
trap cleanup EXIT
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus buildah >/dev/null
command -v promtool >/dev/null && command -v prometheus >/dev/null && command -v buildah >/dev/null
