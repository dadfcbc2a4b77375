//go:build oracle121 || oracle123 || oracle125

package main

import (
	corev1 "k8s.io/api/core/v1"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// servicePorts is the Service through kube-proxy's ServiceChangeTracker into its ServiceMap
// (k/k v1.23.17 / v1.25.16 pkg/proxy/service.go; renamed ServicePortMap in 1.26).
func servicePorts(family corev1.IPFamily, svc *corev1.Service) kproxy.ServiceMap {
	sct := kproxy.NewServiceChangeTracker(nil, family, nil, nil)
	sct.Update(nil, svc)
	sm := make(kproxy.ServiceMap)
	sm.Update(sct)
	return sm
}
