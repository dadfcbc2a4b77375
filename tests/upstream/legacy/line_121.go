//go:build oracle121

package main

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

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

// The field does not exist before 1.30.
func (b Behaviour) canUseTrafficDistribution(*corev1.Service) bool { return false }

func reconcileTrafficDistribution(_ *corev1.Service, create, update, unchanged []*discovery.EndpointSlice) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	return create, update, unchanged
}

// No gate differs from the binary's defaults in the version this line models.
func setProxyGates(Behaviour) error { return nil }
