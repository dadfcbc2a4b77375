//go:build oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	corev1 "k8s.io/api/core/v1"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// servicePorts is the Service through kube-proxy's ServiceChangeTracker into its ServicePortMap
// (pkg/proxy/service.go from 1.26; the map was called ServiceMap before).
func servicePorts(family corev1.IPFamily, svc *corev1.Service) kproxy.ServicePortMap {
	sct := kproxy.NewServiceChangeTracker(nil, family, nil, nil)
	sct.Update(nil, svc)
	spm := make(kproxy.ServicePortMap)
	spm.Update(sct)
	return spm
}
