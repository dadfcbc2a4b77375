//go:build oracle125

package main

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

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

// The field does not exist before 1.30.
func (b Behaviour) canUseTrafficDistribution(*corev1.Service) bool { return false }

func reconcileTrafficDistribution(_ *corev1.Service, create, update, unchanged []*discovery.EndpointSlice) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	return create, update, unchanged
}

// No gate differs from the binary's defaults in the versions this line models.
func setProxyGates(Behaviour) error { return nil }
