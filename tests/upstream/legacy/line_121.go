//go:build oracle121

package main

// The 1.21 line: k8s.io/kubernetes v1.21.14 (controller in pkg/controller/endpointslice, kube-proxy
// in pkg/proxy and pkg/proxy/iptables) with every staging module at v0.21.14; build with -modfile
// go121.mod -tags oracle121. It models 1.21: TopologyAwareHints and ServiceInternalTrafficPolicy
// alpha (off), EndpointSliceProxying beta (on), and a kube-proxy that still reads
// discovery.k8s.io/v1beta1 EndpointSlices (proxy_121.go converts as the API server does).
const (
	buildLine    = "1.21"
	minMinor     = 21
	maxMinor     = 21
	defaultMinor = 21
)
