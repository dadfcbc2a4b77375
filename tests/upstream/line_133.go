//go:build oracle133

package main

// The 1.33 line: k8s.io/kubernetes v1.33.13 (kube-proxy) and k8s.io/endpointslice v0.33.13, every
// staging module at v0.33.13; build with -modfile go133.mod -tags oracle133. Unlike the default
// build, whose kube-proxy is 1.36's code with 1.33's gates emulated, this is 1.33's own kube-proxy:
// its duplicate-endpoint merge (a later local copy wins, endpointslicecache.go:238) and the
// 1.33.6+ topologyModeFromHints guard (#133527, logs only).
const (
	buildLine           = "1.33"
	minMinor            = 33
	maxMinor            = 33
	defaultMinor        = 33
	proxyAvailable      = true
	proxyDuplicatesFrom = 33
)
