//go:build oracle126

package main

// The 1.26 line: k8s.io/kubernetes v1.26.15 (controller in pkg/controller/endpointslice, kube-proxy
// in pkg/proxy) with every staging module at v0.26.15; build with -modfile go126.mod -tags oracle126.
// It models 1.26 only: 1.24–1.25 differ in the ProxyTerminatingEndpoints default (off) and emit no
// controller Events (topologycache/event.go arrived in 1.26).
const (
	buildLine    = "1.26"
	minMinor     = 26
	maxMinor     = 26
	defaultMinor = 26
)
