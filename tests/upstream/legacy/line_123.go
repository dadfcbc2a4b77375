//go:build oracle123

package main

// The 1.23 line: k8s.io/kubernetes v1.23.17 (controller in pkg/controller/endpointslice, kube-proxy
// in pkg/proxy and pkg/proxy/iptables) with every staging module at v0.23.17; build with -modfile
// go123.mod -tags oracle123. It models 1.22–1.23, where TopologyAwareHints is off by default
// (alpha 1.22, beta-off 1.23, kubernetes/kubernetes#108747): the controller builds no topology
// cache and removes every hint, kube-proxy's FilterEndpoints never reads them. 1.22 and 1.23 share
// every gate default read here (ServiceInternalTrafficPolicy beta on, ProxyTerminatingEndpoints
// alpha off) and the proxier's chain building (v1.22.17 proxier.go:1008-1054); 1.21, whose
// kube-proxy read discovery/v1beta1 slices, has its own line (line_121.go).
const (
	buildLine    = "1.23"
	minMinor     = 22
	maxMinor     = 23
	defaultMinor = 23
)
