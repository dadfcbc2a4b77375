//go:build oracle121

package main

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	discoveryv1beta1 "k8s.io/api/discovery/v1beta1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	internal "k8s.io/kubernetes/pkg/apis/discovery"
	convertv1 "k8s.io/kubernetes/pkg/apis/discovery/v1"
	convertv1beta1 "k8s.io/kubernetes/pkg/apis/discovery/v1beta1"
	"k8s.io/kubernetes/pkg/features"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// endpointsMap is kube-proxy's EndpointsMap on node `node` (k/k v1.21.14 pkg/proxy/endpoints.go
// NewEndpointChangeTracker with EndpointSlices enabled, EndpointSliceUpdate, EndpointsMap.Update).
// 1.21's kube-proxy watches discovery.k8s.io/v1beta1, so each slice goes through the API server's
// own conversion v1 → internal → v1beta1 (pkg/apis/discovery/v1 and v1beta1: zone and
// deprecatedTopology become the topology map).
func endpointsMap(family corev1.IPFamily, node string, c *Cluster) kproxy.EndpointsMap {
	ect := kproxy.NewEndpointChangeTracker(node, nil, family, nil, true, nil)
	for _, s := range c.Slices {
		if s.Namespace == c.Service.Namespace {
			ect.EndpointSliceUpdate(toV1beta1(s), false)
		}
	}
	em := make(kproxy.EndpointsMap)
	em.Update(ect)
	return em
}

func toV1beta1(s *discovery.EndpointSlice) *discoveryv1beta1.EndpointSlice {
	var in internal.EndpointSlice
	if err := convertv1.Convert_v1_EndpointSlice_To_discovery_EndpointSlice(s, &in, nil); err != nil {
		panic("converting EndpointSlice " + s.Name + " to internal: " + err.Error())
	}
	out := &discoveryv1beta1.EndpointSlice{}
	if err := convertv1beta1.Convert_discovery_EndpointSlice_To_v1beta1_EndpointSlice(&in, out, nil); err != nil {
		panic("converting EndpointSlice " + s.Name + " to v1beta1: " + err.Error())
	}
	return out
}

// categorizeEndpoints is what the 1.21 iptables proxier programs for one service port, in
// CategorizeEndpoints' terms (new in 1.24), as proxy_123.go does for 1.23: upstream's exported
// FilterEndpoints (pkg/proxy/topology.go:29-48: eTP=Local or EndpointSliceProxying off → every
// endpoint; ServiceTopology, iTP and hints only with their gates, all off by default), then
// syncProxyRules' chains (pkg/proxy/iptables/proxier.go:1018-1313, unexported): KUBE-SVC takes
// the ready endpoints, KUBE-XLB (eTP=Local) the local ready ones; hasEndpoints = any ready. No
// terminating fallback exists yet.
func categorizeEndpoints(endpoints []kproxy.Endpoint, svcInfo kproxy.ServicePort, nodeLabels map[string]string) (
	cluster, local, allReachable []kproxy.Endpoint, hasAny bool) {
	all := kproxy.FilterEndpoints(endpoints, svcInfo, nodeLabels)
	ready, localReady := []kproxy.Endpoint{}, []kproxy.Endpoint{}
	for _, ep := range all {
		if ep.IsReady() {
			ready = append(ready, ep)
			if ep.GetIsLocal() {
				localReady = append(localReady, ep)
			}
		}
	}
	hasAny = len(ready) > 0
	if svcInfo.NodeLocalExternal() {
		return ready, localReady, ready, hasAny
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.ServiceInternalTrafficPolicy) && svcInfo.NodeLocalInternal() {
		// FilterEndpoints kept only this node's endpoints: every path uses them.
		return nil, ready, ready, hasAny
	}
	return ready, nil, ready, hasAny
}
