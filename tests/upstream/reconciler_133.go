package main

import corev1 "k8s.io/api/core/v1"

// The reconciler's trafficDistribution decision of k8s.io/endpointslice v0.33 … v0.37 (the
// default, 1.33 and 1.37 builds).

// preferSameTrafficDistribution is the PreferSameTrafficDistribution gate at its default
// (k8s.io/kubernetes pkg/features/kube_features.go: 1.33 alpha off, 1.34 beta on, 1.35 GA).
func (b Behaviour) preferSameTrafficDistribution() bool { return b.Minor >= 34 }

// validTrafficDistribution is a copy of the unexported Reconciler.validTrafficDistribution,
// k8s.io/endpointslice@v0.36.3 reconciler.go:75-90, with r.preferSameTrafficDistribution set
// from the version's default gate (as kube-controller-manager does). In 1.33–1.35 the function
// also required the ServiceTrafficDistribution gate, which is locked on from 1.33 (v0.33 reconciler.go).
func (b Behaviour) validTrafficDistribution(td *string) bool {
	if td == nil {
		return false
	}
	if *td == corev1.ServiceTrafficDistributionPreferClose {
		return true
	}
	if !b.preferSameTrafficDistribution() {
		return false
	}
	return *td == corev1.ServiceTrafficDistributionPreferSameZone || *td == corev1.ServiceTrafficDistributionPreferSameNode
}

// canUseTrafficDistribution is reconciler.go:298 (v0.36.3).
func (b Behaviour) canUseTrafficDistribution(svc *corev1.Service) bool {
	return b.validTrafficDistribution(svc.Spec.TrafficDistribution) && !hintsEnabled(svc.Annotations)
}
