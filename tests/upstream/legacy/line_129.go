//go:build oracle129

package main

// The 1.29 line: k8s.io/kubernetes v1.29.15 (controller from k8s.io/endpointslice, kube-proxy
// in pkg/proxy) with every staging module at v0.29.15; build with -modfile go129.mod -tags oracle129.
// It models 1.27–1.29: k/k v1.27.16 pkg/controller/endpointslice/topologycache and ES v0.29.15
// topologycache differ only in logging and exported names; hintsEnabled is the same from 1.27;
// pkg/proxy topology.go differs between 1.27 and 1.29 only in log verbosity and keys, and
// ProxyTerminatingEndpoints is on in all three (beta 1.26–1.27, GA 1.28).
const (
	buildLine    = "1.29"
	minMinor     = 27
	maxMinor     = 29
	defaultMinor = 29
)
