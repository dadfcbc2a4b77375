//go:build oracle130

package main

import corev1 "k8s.io/api/core/v1"

// The 1.30 line: built with -tags oracle130 -modfile go130.mod, which replaces
// k8s.io/endpointslice by v0.30.14. Its trafficdist/ differs from v0.33+ (PreferClose only, and
// a zone-less ready endpoint gets forZones [""]); topologycache/ differs only in log verbosity.
// v0.30.14 and v0.32.0 are identical in both directories (diff -r), so this build models
// 1.30 … 1.32. kube-proxy is not modelled here: the linked pkg/proxy is 1.36 and its feature
// gates emulate back to 1.33 only, while 1.30–1.32 kube-proxy still read the annotation.
const (
	buildLine      = "1.30"
	minMinor       = 30
	maxMinor       = 32
	defaultMinor   = 32
	proxyAvailable = false
	// proxyDuplicatesFrom is unused without kube-proxy.
	proxyDuplicatesFrom = 0
)

// serviceTrafficDistribution is the ServiceTrafficDistribution gate at its default
// (1.30 alpha off, 1.31 beta on).
func (b Behaviour) serviceTrafficDistribution() bool { return b.Minor >= 31 }

// canUseTrafficDistribution is k8s.io/endpointslice@v0.30.14 reconciler.go:278: the gate and no
// enabling annotation; the value itself is not validated (nil or unknown values reach trafficdist
// and get its "remove hints" heuristic).
func (b Behaviour) canUseTrafficDistribution(svc *corev1.Service) bool {
	return b.serviceTrafficDistribution() && !hintsEnabled(svc.Annotations)
}

func (b Behaviour) preferSameTrafficDistribution() bool { return false }
