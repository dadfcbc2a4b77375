//go:build oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// categorizeEndpoints is kube-proxy's own (pkg/proxy/topology.go, from 1.24).
func categorizeEndpoints(endpoints []kproxy.Endpoint, svcInfo kproxy.ServicePort, nodeLabels map[string]string) (
	cluster, local, allReachable []kproxy.Endpoint, hasAny bool) {
	return kproxy.CategorizeEndpoints(endpoints, svcInfo, nodeLabels)
}
