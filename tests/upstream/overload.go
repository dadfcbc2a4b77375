package main

import (
	"reflect"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/endpointslice/topologycache"
)

// familyOverloaded runs upstream's own overload recheck (SetNodes + GetOverloadedServices, which
// calls the unexported serviceOverloaded) on a scratch cache holding only this family's entry of
// `cache`, so that a dual-stack Service's families can be judged one by one. nil when the sync
// left no entry for the family (RemoveHints, or a path that never calls AddHints).
func familyOverloaded(logger logr.Logger, nodes []*corev1.Node, cache *topologycache.TopologyCache,
	key string, at discovery.AddressType) *bool {
	ezi, ok := cachedZoneInfo(cache, key, at)
	if !ok {
		return nil
	}
	scratch := topologycache.NewTopologyCache()
	scratch.SetNodes(logger, nodes)
	scratch.SetHints(key, at, ezi)
	overloaded := len(scratch.GetOverloadedServices()) > 0
	return &overloaded
}

// cachedZoneInfo reads endpointsByService[key][at] of the real cache. The field is unexported,
// so it is read (never written) through reflect; a renamed field fails loudly.
func cachedZoneInfo(cache *topologycache.TopologyCache, key string, at discovery.AddressType) (topologycache.EndpointZoneInfo, bool) {
	field := reflect.ValueOf(cache).Elem().FieldByName("endpointsByService")
	if !field.IsValid() {
		panic("topologycache.TopologyCache has no field endpointsByService: update overload.go")
	}
	byType := field.MapIndex(reflect.ValueOf(key))
	if !byType.IsValid() {
		return nil, false
	}
	ezi := byType.MapIndex(reflect.ValueOf(at))
	if !ezi.IsValid() {
		return nil, false
	}
	out := topologycache.EndpointZoneInfo{}
	for it := ezi.MapRange(); it.Next(); {
		out[it.Key().String()] = int(it.Value().Int())
	}
	return out, true
}
