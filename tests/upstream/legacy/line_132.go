//go:build oracle132

package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/endpointslice/trafficdist"

	// Registers the kube feature gates, as kube-proxy's main does.
	_ "k8s.io/kubernetes/pkg/features"
)

// The 1.32 line: k8s.io/kubernetes v1.32.13 (kube-proxy) with every staging module at v0.32.13
// except k8s.io/endpointslice at v0.32.2 (the newest 1.32 patch the module proxy serves; its
// topologycache/ and trafficdist/ are identical to v0.30.14's, ../README.md); build with
// -modfile go132.mod -tags oracle132. It models 1.31–1.32 (1.30's kube-proxy still sorted slice
// endpoints, see line_130.go, so 1.30 has its own line).
const (
	buildLine    = "1.32"
	minMinor     = 31
	maxMinor     = 32
	defaultMinor = 32
)

func (b Behaviour) serviceTrafficDistribution() bool { return b.Minor >= 31 }

// canUseTrafficDistribution is ES v0.32.2 reconciler.go:276 (`r.trafficDistributionEnabled &&
// !hintsEnabled(service.Annotations)`); the value is not validated before 1.33.
func (b Behaviour) canUseTrafficDistribution(svc *corev1.Service) bool {
	return b.serviceTrafficDistribution() && !b.hintsEnabled(svc.Annotations)
}

func reconcileTrafficDistribution(svc *corev1.Service, create, update, unchanged []*discovery.EndpointSlice) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	return trafficdist.ReconcileHints(svc.Spec.TrafficDistribution, create, update, unchanged)
}

// setProxyGates sets ServiceTrafficDistribution to the modelled version's default: kube-proxy's
// canUseTopology (pkg/proxy/topology.go) consults the hints annotation only while it is off.
func setProxyGates(b Behaviour) error {
	return utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("ServiceTrafficDistribution=%t", b.serviceTrafficDistribution()))
}
