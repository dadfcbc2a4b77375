//go:build oracle126

package main

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/kubernetes/pkg/controller/endpointslice/topologycache"
)

// The 1.26 line's topology cache: k8s.io/kubernetes v1.26.15
// pkg/controller/endpointslice/topologycache (the code moved to k8s.io/endpointslice in 1.28).
type kkCache struct{ t *topologycache.TopologyCache }

func newLineCache() lineCache { return &kkCache{t: topologycache.NewTopologyCache()} }

func (c *kkCache) SetNodes(nodes []*corev1.Node) { c.t.SetNodes(nodes) }

func toUpstream(si *sliceInfo) *topologycache.SliceInfo {
	return &topologycache.SliceInfo{ServiceKey: si.ServiceKey, AddressType: si.AddressType,
		ToCreate: si.ToCreate, ToUpdate: si.ToUpdate, Unchanged: si.Unchanged}
}

func (c *kkCache) AddHints(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event) {
	up := toUpstream(si)
	create, update, events := c.t.AddHints(up)
	si.Unchanged = up.Unchanged
	out := []Event{}
	for _, e := range events {
		out = append(out, Event{Type: e.EventType, Reason: e.Reason, Message: e.Message})
	}
	return create, update, out
}

func (c *kkCache) RemoveHintsFromSlices(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	up := toUpstream(si)
	create, update := topologycache.RemoveHintsFromSlices(up)
	si.Unchanged = up.Unchanged
	return create, update
}

func (c *kkCache) RemoveHints(key string, at discovery.AddressType) { c.t.RemoveHints(key, at) }
func (c *kkCache) HasPopulatedHints(key string) bool                { return c.t.HasPopulatedHints(key) }

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

func disabledEvent(at discovery.AddressType) Event {
	return Event{Type: corev1.EventTypeWarning, Reason: "TopologyAwareHintsDisabled",
		Message: topologycache.FormatWithAddressType(topologycache.TopologyAwareHintsDisabled, at)}
}
