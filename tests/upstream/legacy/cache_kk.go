//go:build oracle121 || oracle123 || oracle125 || oracle126

package main

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/kubernetes/pkg/controller/endpointslice/topologycache"
)

// The 1.23, 1.25 and 1.26 lines' topology cache: k8s.io/kubernetes v1.23.17 / v1.25.16 / v1.26.15
// pkg/controller/endpointslice/topologycache (the code moved to k8s.io/endpointslice in 1.28).
// What differs (Events, from 1.26) is in events_*.go.
type kkCache struct{ t *topologycache.TopologyCache }

// newLineCache is NewController's `if utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareHints)
// { c.topologyCache = topologycache.NewTopologyCache() }` (k/k v1.26.15 endpointslice_controller.go).
func newLineCache() lineCache {
	if !topologyAwareHintsGate() {
		return nil
	}
	return &kkCache{t: topologycache.NewTopologyCache()}
}

func (c *kkCache) SetNodes(nodes []*corev1.Node) { c.t.SetNodes(nodes) }

func toUpstream(si *sliceInfo) *topologycache.SliceInfo {
	return &topologycache.SliceInfo{ServiceKey: si.ServiceKey, AddressType: si.AddressType,
		ToCreate: si.ToCreate, ToUpdate: si.ToUpdate, Unchanged: si.Unchanged}
}

func (c *kkCache) AddHints(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event) {
	up := toUpstream(si)
	create, update, events := addHints(c.t, up)
	si.Unchanged = up.Unchanged
	return create, update, events
}

func removeHintsFromSlices(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	up := toUpstream(si)
	create, update := topologycache.RemoveHintsFromSlices(up)
	si.Unchanged = up.Unchanged
	return create, update
}

func (c *kkCache) RemoveHints(key string, at discovery.AddressType) { c.t.RemoveHints(key, at) }

func (c *kkCache) Overloaded(key string) bool {
	for _, k := range c.t.GetOverloadedServices() {
		if k == key {
			return true
		}
	}
	return false
}

// FamilyOverloaded is ../overload.go familyOverloaded on this line's cache.
func (c *kkCache) FamilyOverloaded(nodes []*corev1.Node, key string, at discovery.AddressType) *bool {
	ezi, ok := cachedZoneInfo(reflect.ValueOf(c.t), key, at)
	if !ok {
		return nil
	}
	scratch := topologycache.NewTopologyCache()
	scratch.SetNodes(nodes)
	scratch.SetHints(key, at, topologycache.EndpointZoneInfo(ezi))
	overloaded := len(scratch.GetOverloadedServices()) > 0
	return &overloaded
}
