//go:build oracle123

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// categorizeEndpoints is what the 1.23 iptables proxier programs for one service port, in
// CategorizeEndpoints' terms (that function is new in 1.24). The filtering is upstream's own
// exported FilterEndpoints (pkg/proxy/topology.go: eTP=Local returns every endpoint, else
// iTP=Local keeps the node's own, else the hints filter when TopologyAwareHints is on); the lists
// are syncProxyRules' (pkg/proxy/iptables/proxier.go:992-1047, unexported): the KUBE-SVC chain
// takes the ready endpoints of the filtered list and serves ClusterIP traffic, and external traffic
// unless the Service is NodeLocalExternal, whose KUBE-XLB chain takes the local ready endpoints
// (local serving-terminating ones with ProxyTerminatingEndpoints, off by default). So:
//   - NodeLocalExternal: cluster = KUBE-SVC (iTP is ignored), local = KUBE-XLB;
//   - iTP=Local otherwise: KUBE-SVC holds only this node's endpoints and every path uses it, so it
//     is the local list and no cluster-wide list exists (cluster = null);
//   - else: cluster = KUBE-SVC, no local list.
//
// hasAny is the proxier's hasEndpoints (a REJECT rule when false), over the filtered list.
func categorizeEndpoints(endpoints []kproxy.Endpoint, svcInfo kproxy.ServicePort, nodeLabels map[string]string) (
	cluster, local, allReachable []kproxy.Endpoint, hasAny bool) {
	all := kproxy.FilterEndpoints(endpoints, svcInfo, nodeLabels)
	external := svcInfo.NodeLocalExternal()
	terminatingGate := utilfeature.DefaultFeatureGate.Enabled(features.ProxyTerminatingEndpoints)
	var hasLocalReady, hasLocalServingTerminating bool
	for _, ep := range all {
		if ep.IsReady() {
			hasAny = true
			hasLocalReady = hasLocalReady || ep.GetIsLocal()
		} else if external && terminatingGate && ep.IsServing() && ep.IsTerminating() {
			hasAny = true
			hasLocalServingTerminating = hasLocalServingTerminating || ep.GetIsLocal()
		}
	}
	useTerminating := !hasLocalReady && hasLocalServingTerminating
	ready, localChains := []kproxy.Endpoint{}, []kproxy.Endpoint{}
	for _, ep := range all {
		if ep.IsReady() {
			ready = append(ready, ep)
		}
		if external && ep.GetIsLocal() {
			if useTerminating && ep.IsServing() && ep.IsTerminating() || !useTerminating && ep.IsReady() {
				localChains = append(localChains, ep)
			}
		}
	}
	internalLocal := utilfeature.DefaultFeatureGate.Enabled(features.ServiceInternalTrafficPolicy) &&
		svcInfo.NodeLocalInternal()
	switch {
	case external:
		return ready, localChains, union(ready, localChains), hasAny
	case internalLocal:
		return nil, ready, ready, hasAny
	default:
		return ready, nil, ready, hasAny
	}
}

func union(a, b []kproxy.Endpoint) []kproxy.Endpoint {
	seen := map[string]bool{}
	out := []kproxy.Endpoint{}
	for _, ep := range append(append([]kproxy.Endpoint{}, a...), b...) {
		if !seen[ep.String()] {
			seen[ep.String()] = true
			out = append(out, ep)
		}
	}
	return out
}
