//go:build oracle129 || oracle130 || oracle132

package main

import (
	"reflect"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/endpointslice/topologycache"
)

// The 1.29 and 1.32 lines' topology cache: k8s.io/endpointslice v0.29.15 / v0.32.2 topologycache
// (moved there from k8s.io/kubernetes pkg/controller/endpointslice/topologycache in 1.28).
type esCache struct{ t *topologycache.TopologyCache }

func newLineCache() lineCache { return &esCache{t: topologycache.NewTopologyCache()} }

func (c *esCache) SetNodes(nodes []*corev1.Node) { c.t.SetNodes(logr.Discard(), nodes) }

func toUpstream(si *sliceInfo) *topologycache.SliceInfo {
	return &topologycache.SliceInfo{ServiceKey: si.ServiceKey, AddressType: si.AddressType,
		ToCreate: si.ToCreate, ToUpdate: si.ToUpdate, Unchanged: si.Unchanged}
}

func (c *esCache) AddHints(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event) {
	up := toUpstream(si)
	create, update, events := c.t.AddHints(logr.Discard(), up)
	si.Unchanged = up.Unchanged
	out := []Event{}
	for _, e := range events {
		out = append(out, Event{Type: e.EventType, Reason: e.Reason, Message: e.Message})
	}
	return create, update, out
}

func removeHintsFromSlices(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	up := toUpstream(si)
	create, update := topologycache.RemoveHintsFromSlices(up)
	si.Unchanged = up.Unchanged
	return create, update
}

func (c *esCache) RemoveHints(key string, at discovery.AddressType) { c.t.RemoveHints(key, at) }
func (c *esCache) HasPopulatedHints(key string) bool                { return c.t.HasPopulatedHints(key) }

func (c *esCache) Overloaded(key string) bool {
	for _, k := range c.t.GetOverloadedServices() {
		if k == key {
			return true
		}
	}
	return false
}

// FamilyOverloaded is ../overload.go familyOverloaded on this line's cache.
func (c *esCache) FamilyOverloaded(nodes []*corev1.Node, key string, at discovery.AddressType) *bool {
	ezi, ok := cachedZoneInfo(reflect.ValueOf(c.t), key, at)
	if !ok {
		return nil
	}
	scratch := topologycache.NewTopologyCache()
	scratch.SetNodes(logr.Discard(), nodes)
	scratch.SetHints(key, at, topologycache.EndpointZoneInfo(ezi))
	overloaded := len(scratch.GetOverloadedServices()) > 0
	return &overloaded
}

func disabledEvent(at discovery.AddressType) Event {
	return Event{Type: corev1.EventTypeWarning, Reason: "TopologyAwareHintsDisabled",
		Message: topologycache.FormatWithAddressType(topologycache.TopologyAwareHintsDisabled, at)}
}
