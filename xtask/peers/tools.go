//go:build tools

// The peers `cargo xtask bench-serve` measures `kubectl topo serve` against, pinned here so that
// scripts/build-peers.sh builds them from the Go module proxy at these versions.
package peers

import _ "k8s.io/kube-state-metrics/v2/pkg/app"
