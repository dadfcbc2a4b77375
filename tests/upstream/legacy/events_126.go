//go:build oracle126

package main

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/kubernetes/pkg/controller/endpointslice/topologycache"
)

// The controller's Events arrived in 1.26 (k/k v1.26.0 topologycache/event.go): AddHints returns
// them, and a Service whose hints were populated gets TopologyAwareHintsDisabled when they go.

func addHints(t *topologycache.TopologyCache, si *topologycache.SliceInfo) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event) {
	create, update, events := t.AddHints(si)
	out := []Event{}
	for _, e := range events {
		out = append(out, Event{Type: e.EventType, Reason: e.Reason, Message: e.Message})
	}
	return create, update, out
}

func (c *kkCache) HasPopulatedHints(key string) bool { return c.t.HasPopulatedHints(key) }

func disabledEvent(at discovery.AddressType) Event {
	return Event{Type: corev1.EventTypeWarning, Reason: "TopologyAwareHintsDisabled",
		Message: topologycache.FormatWithAddressType(topologycache.TopologyAwareHintsDisabled, at)}
}
