#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (.ci/run calls this script).
# Tiers, least powerful first: fmt + clippy + engine purity → the engine alone (unit, property and
# worked-example tests: seconds, no Go, no network) → oracle go test → the kubectl-topo crate: unit
# tests and the hermetic tier (what plain `cargo test` runs), the real consumers, the real control
# plane e2e → upstream differential (Rust engine vs Go oracle, printing its summary). Each test
# target is run by name; all but the hermetic one sit behind a cargo feature of their own, and
# every step passes all of them, so the crate is built once (docs/testing.md).
# Go builds are cached under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo* (oracle, control plane,
# kubectl + krew), never in the repo. etcd comes from Debian's etcd-server (installed if missing);
# the picture formats' consumers (chromium, graphviz, mermaid) from tests/consumers/install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every test target and one build for all of them; a gated test fails here instead of skipping.
tiers=(--features consumers,differential,e2e)
export KUBECTL_TOPO_TEST_ALL=1

step() { printf '\n==> %s\n' "$*"; }

command -v cargo >/dev/null || { echo "error: cargo not found: install Rust (https://rustup.rs)"; exit 2; }
command -v go >/dev/null || { echo "error: go not found: the Go test tiers need Go >= 1.24"; exit 2; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy --workspace --all-targets (every test tier) -- -D warnings"
cargo clippy --workspace --all-targets --locked "${tiers[@]}" -- -D warnings

step "engine purity: no async, client or terminal crate in crates/topo-engine"
bash scripts/check-engine-purity.sh

step "cargo test -p topo-engine (the engine alone: no Go, no network)"
cargo test --locked -p topo-engine

step "go test: the oracle's own tests (the 1.36 line; the other lines run in the differential)"
(cd tests/upstream && go test ./...)

step "picture consumers: chromium, graphviz (apt) and mermaid, playwright-core (npm ci), when missing"
# Installs into ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-node; the tests/pictures.rs tests read them.
bash tests/consumers/install.sh >/dev/null

step "report consumers: SARIF 2.1.0 schema (npm), junitparser + markdown-it-py (PyPI), cached"
# tests/report_formats.rs reads `check -o sarif|junit|markdown` back with them; installed once
# under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-consumers (the test also calls this when missing).
command -v npm >/dev/null || { echo "error: npm not found: the report-format tests need npm and python3"; exit 2; }
bash tests/consumers/install-reports.sh >/dev/null

step "monitoring consumers: promtool and prometheus (Debian's prometheus package), when missing"
# tests/monitoring.rs runs promtool on deploy/prometheus/ and on real /metrics output; the e2e
# `monitoring` group starts a Prometheus on 127.0.0.1 that scrapes `kubectl topo serve`.
bash tests/monitoring/install.sh

step "chart tools: helm, kustomize, the Prometheus Operator and Prometheus (Go module proxy, cached), when missing"
# tests/chart.rs runs helm and kustomize on charts/ and deploy/; the e2e `prometheus_operator`
# group installs the chart with helm and runs the Operator. Under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-helm.
bash tests/helm/build-helm.sh helm kustomize operator prometheus >/dev/null

step "release toolchains: rustup targets, zig (PyPI), cargo-zigbuild, mingw-w64, qemu-user-static, wine, when missing"
# Cached under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-dist; tests/dist.rs builds the linux/amd64,
# linux/arm64 and windows/amd64 archives once per run with them (scripts/dist.sh --profile dist-check).
bash scripts/dist-tools.sh >/dev/null

step "completion shells: bash-completion, zsh, fish (apt), when missing"
bash tests/completion/install.sh

step "cargo test: unit tests and the hermetic tier (snapshots, CLI, bad inputs, schema, README)"
cargo test --locked -p kubectl-topo "${tiers[@]}" --lib --bins --test hermetic -- --test-threads 2

step "cargo test --test consumers (pictures, report formats, monitoring, shells, archives, krew + kubectl)"
cargo test --locked -p kubectl-topo "${tiers[@]}" --test consumers -- --test-threads 2

step "cargo test --test e2e (real control plane and kube-proxies)"
cargo test --locked -p kubectl-topo "${tiers[@]}" --test e2e -- --test-threads 2 --skip serve_faults --skip prometheus_operator
# Each in a control plane of its own (one per test process), after every other group:
# prometheus_operator runs the Operator and a Prometheus beside the apiserver (other groups beside
# it missed their 30 s waits on 2 cores), serve_faults freezes (SIGSTOP), kills and restarts the
# apiserver and compacts etcd behind it.
cargo test --locked -p kubectl-topo "${tiers[@]}" --test e2e -- --exact prometheus_operator
cargo test --locked -p kubectl-topo "${tiers[@]}" --test e2e -- --exact serve_faults

step "cargo test -p xtask (bench tooling: the synthetic cluster generator)"
cargo test --locked -p xtask

step "upstream differential: Rust engine vs the Go oracle (real upstream code)"
# Builds the oracle lines (cached), compares ORACLE_CASES random cases of the 1.36 line and a
# twentieth as many on each other line (1.21, 1.23, 1.25, 1.26, 1.29, 1.30, 1.32, 1.33, 1.37), plus every
# tests/upstream/regressions/*.json, and prints
# "differential: compared N (1.36 line) + M (1.30 line) + …, seed S, mismatches K".
export ORACLE_CASES="${ORACLE_CASES:-20000}"
# Default seed: derived from the committed tree, so it changes with every change while a given
# commit always compares the same cases (CI compares exactly what a local run of that commit did);
# scripts/differential-release.sh uses fresh seeds.
tree="$(git rev-parse 'HEAD^{tree}' 2>/dev/null || echo 0)"
export ORACLE_SEED="${ORACLE_SEED:-$((16#${tree:0:7}))}"
echo "differential: ${ORACLE_CASES} cases, seed ${ORACLE_SEED} (replay: ORACLE_SEED=${ORACLE_SEED} scripts/test-all.sh)"
cargo test --locked -p kubectl-topo "${tiers[@]}" --test differential -- --nocapture

step "benchmarks: every cargo xtask command of BENCHMARKS.md once at the small size (dev builds)"
# Only that each still runs (a refused flag, a child that exits, a cluster that does not load fail
# here with the child's last words); the figures mean nothing. Last: it builds kubectl-topo
# without the test tiers' features.
bash scripts/bench-smoke.sh
