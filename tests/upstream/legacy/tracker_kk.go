//go:build oracle123 || oracle125 || oracle126

package main

import (
	corev1 "k8s.io/api/core/v1"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// endpointsMap is kube-proxy's EndpointsMap on node `node` (k/k v1.23.17, v1.25.16 and v1.26.15 pkg/proxy/endpoints.go
// NewEndpointChangeTracker, EndpointSliceUpdate, EndpointsMap.Update).
func endpointsMap(family corev1.IPFamily, node string, c *Cluster) kproxy.EndpointsMap {
	ect := kproxy.NewEndpointChangeTracker(node, nil, family, nil, nil)
	for _, s := range c.Slices {
		if s.Namespace == c.Service.Namespace {
			ect.EndpointSliceUpdate(s, false)
		}
	}
	em := make(kproxy.EndpointsMap)
	em.Update(ect)
	return em
}
