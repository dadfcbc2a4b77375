//go:build oracle129 || oracle130 || oracle132

package main

import (
	corev1 "k8s.io/api/core/v1"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// endpointsMap is kube-proxy's EndpointsMap on node `node` (k/k v1.29.15 pkg/proxy/endpoints.go, v1.32.13
// endpointschangetracker.go: NewEndpointsChangeTracker, EndpointSliceUpdate, EndpointsMap.Update).
func endpointsMap(family corev1.IPFamily, node string, c *Cluster) kproxy.EndpointsMap {
	ect := kproxy.NewEndpointsChangeTracker(node, nil, family, nil, nil)
	for _, s := range c.Slices {
		if s.Namespace == c.Service.Namespace {
			ect.EndpointSliceUpdate(s, false)
		}
	}
	em := make(kproxy.EndpointsMap)
	em.Update(ect)
	return em
}
