//go:build oracle137

package main

// The 1.37 line: k8s.io/kubernetes v1.37.2 (kube-proxy) and k8s.io/endpointslice v0.37.2, every
// staging module at v0.37.2; build with -modfile go137.mod -tags oracle137. The default build
// models 1.37 as 1.36 (docs/behaviour.md#version-table); this one runs 1.37's own code.
const (
	buildLine           = "1.37"
	minMinor            = 37
	maxMinor            = 37
	defaultMinor        = 37
	proxyAvailable      = true
	proxyDuplicatesFrom = 36
)
