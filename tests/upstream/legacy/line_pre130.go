//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129

package main

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

// What every line before 1.30 shares: no spec.trafficDistribution (new in 1.30), and no gate the
// line's kube-proxy reads differs between the versions it models (line_1NN.go says why per line).

// The field does not exist before 1.30.
func (b Behaviour) canUseTrafficDistribution(*corev1.Service) bool { return false }

func reconcileTrafficDistribution(_ *corev1.Service, create, update, unchanged []*discovery.EndpointSlice) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	return create, update, unchanged
}

func setProxyGates(Behaviour) error { return nil }
