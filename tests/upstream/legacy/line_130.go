//go:build oracle130

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

// The 1.30 line: k8s.io/kubernetes v1.30.14 (kube-proxy) with every staging module at v0.30.14,
// k8s.io/endpointslice included (its topologycache/ and trafficdist/ are those of 1.31 and 1.32);
// build with -modfile go130.mod -tags oracle130. It models 1.30, whose kube-proxy still sorts each
// slice's endpoints with an unstable sort before merging duplicates (endpointslicecache.go:150,
// gone in 1.31) and consults the hints annotation while ServiceTrafficDistribution is off (alpha).
const (
	buildLine    = "1.30"
	minMinor     = 30
	maxMinor     = 30
	defaultMinor = 30
)

func (b Behaviour) serviceTrafficDistribution() bool { return b.Minor >= 31 }

// canUseTrafficDistribution is ES v0.30.14 reconciler.go:278 (`r.trafficDistributionEnabled &&
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
