//go:build oracle125

package main

// The 1.25 line: k8s.io/kubernetes v1.25.16 (controller in pkg/controller/endpointslice, kube-proxy
// in pkg/proxy) with every staging module at v0.25.16; build with -modfile go125.mod -tags oracle125.
// It models 1.24–1.25: TopologyAwareHints beta and on (from 1.24), ProxyTerminatingEndpoints alpha
// and off (on from 1.26), no controller Events (topologycache/event.go is new in 1.26). k/k
// v1.24.17 and v1.25.16 differ in topologycache only in a log argument and where a lock is taken,
// and not at all in pkg/proxy topology.go, endpointslicecache.go, endpoints.go, service.go.
const (
	buildLine    = "1.25"
	minMinor     = 24
	maxMinor     = 25
	defaultMinor = 25
)
