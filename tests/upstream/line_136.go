//go:build !oracle133 && !oracle137

package main

// The default build: k8s.io/endpointslice v0.36.3. Its topologycache/ and trafficdist/ are
// byte-identical to v0.33.0 (checked with diff -r), and 1.37 is identical to 1.36 (its release
// diff is empty for these packages), so this one binary models 1.33 … 1.37; the versions differ
// only in the reconciler's gate defaults (reconciler_133.go) and in kube-proxy's
// PreferSameTrafficDistribution gate (proxy.go). The 1.33 and 1.37 builds (line_133.go,
// line_137.go) run those versions' own code.
const (
	buildLine      = "1.36"
	minMinor       = 33
	maxMinor       = 37
	defaultMinor   = 36
	proxyAvailable = true
	// proxyDuplicatesFrom: the oldest minor whose duplicate-endpoint merge is the linked
	// kube-proxy's own (v1.36.0 endpointslicecache.go:247; 1.33–1.35 differ, run.go).
	proxyDuplicatesFrom = 36
)
