#!/usr/bin/env bash
# The engine crate (crates/topo-engine) stays pure: no async runtime, Kubernetes client, HTTP, CLI
# or terminal crate may appear in its normal dependency tree. Prints the tree and fails naming the
# first forbidden crate. Called by scripts/test-all.sh (and so by CI).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo tree --locked -p topo-engine -e normal
tree="$(cargo tree --locked -p topo-engine -e normal --prefix none --format '{p}')"
forbidden='^(tokio.*|futures.*|async-.*|mio|kube.*|k8s-openapi|hyper.*|http|reqwest|tower.*|rustls.*|clap.*|owo-colors|tabled|termcolor|crossterm|anstream|anstyle.*|serde_json|serde-saphyr)$'
names="$(printf '%s\n' "$tree" | sed -E 's/ .*//' | sort -u)"
if bad="$(printf '%s\n' "$names" | grep -E "$forbidden")"; then
    echo "error: the engine crate depends on $(echo "$bad" | head -1) (crates/topo-engine/Cargo.toml): the engine must stay free of I/O, async, client and terminal crates; move that code to the kubectl-topo crate" >&2
    exit 1
fi
echo "engine purity: $(printf '%s\n' "$names" | wc -l) crates in topo-engine's normal tree, none forbidden"
