//go:build oracle123

package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// The 1.23 line: k8s.io/kubernetes v1.23.17 (controller in pkg/controller/endpointslice, kube-proxy
// in pkg/proxy and pkg/proxy/iptables) with every staging module at v0.23.17; build with -modfile
// go123.mod -tags oracle123. It models 1.21–1.23, where TopologyAwareHints is off by default
// (alpha 1.21, beta-off 1.22–1.23, kubernetes/kubernetes#108747): the controller builds no
// topology cache and removes every hint, kube-proxy's FilterEndpoints never reads them. 1.22 and
// 1.23 share every gate default read here; 1.21 had ServiceInternalTrafficPolicy alpha (off),
// set per case below, and its API server drops spec.internalTrafficPolicy and the serving /
// terminating conditions (EndpointSliceTerminatingCondition alpha), which `gen --versions 21`
// drops too. 1.21's own kube-proxy read discovery/v1beta1 slices; it is not linked
// (tests/upstream/README.md, "Lines").
const (
	buildLine    = "1.23"
	minMinor     = 21
	maxMinor     = 23
	defaultMinor = 23
)

// The field does not exist before 1.30.
func (b Behaviour) canUseTrafficDistribution(*corev1.Service) bool { return false }

func reconcileTrafficDistribution(_ *corev1.Service, create, update, unchanged []*discovery.EndpointSlice) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	return create, update, unchanged
}

// setProxyGates sets ServiceInternalTrafficPolicy to the modelled version's default (alpha, off,
// in 1.21; beta, on, from 1.22: k/k v1.21.14 and v1.22.17 pkg/features/kube_features.go).
func setProxyGates(b Behaviour) error {
	return utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("ServiceInternalTrafficPolicy=%t", b.Minor >= 22))
}
