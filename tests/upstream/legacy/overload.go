//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	"reflect"

	discovery "k8s.io/api/discovery/v1"
)

// cachedZoneInfo reads endpointsByService[key][at] of a real *TopologyCache (unexported, read
// through reflect as ../overload.go does; a renamed field fails loudly).
func cachedZoneInfo(cache reflect.Value, key string, at discovery.AddressType) (map[string]int, bool) {
	field := cache.Elem().FieldByName("endpointsByService")
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
	out := map[string]int{}
	for it := ezi.MapRange(); it.Next(); {
		out[it.Key().String()] = int(it.Value().Int())
	}
	return out, true
}
