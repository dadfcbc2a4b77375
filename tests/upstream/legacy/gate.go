//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

// topologyAwareHintsGate is the TopologyAwareHints feature gate at the linked release's default,
// read through the real gate as kube-controller-manager and kube-proxy do: alpha (off) in 1.21,
// beta but off in 1.22–1.23 (kubernetes/kubernetes#108747), on from 1.24 (k/k
// pkg/features/kube_features.go of each line).
func topologyAwareHintsGate() bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareHints)
}
