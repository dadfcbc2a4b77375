//go:build oracle121 || oracle123 || oracle125

package main

import (
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/kubernetes/pkg/controller/endpointslice/topologycache"
)

// Before 1.26 the controller records no topology Events: AddHints returns only the slices
// (k/k v1.25.16 topologycache.go:87) and there is no hintsPopulatedByService (v1.26.0).

func addHints(t *topologycache.TopologyCache, si *topologycache.SliceInfo) (
	[]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event) {
	create, update := t.AddHints(si)
	return create, update, []Event{}
}

func (c *kkCache) HasPopulatedHints(string) bool { return false }

// disabledEvent is never called: HasPopulatedHints is always false before 1.26.
func disabledEvent(discovery.AddressType) Event { return Event{} }
