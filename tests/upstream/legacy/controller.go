//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utilnet "k8s.io/utils/net"
)

// The controller's hint code of this line, called as that line's reconcileByAddressType calls it
// (k8s.io/kubernetes v1.26.15 pkg/controller/endpointslice/reconciler.go:255-281;
// k8s.io/endpointslice v0.29.15 reconciler.go:255-279; v0.32.2 reconciler.go:276-322). The
// topology cache itself is the line's real package (cache_*.go); what is re-implemented here is
// unexported upstream and a few lines long.

const (
	PathAnnotation          = "annotation"
	PathTrafficDistribution = "trafficDistribution"
	PathRemove              = "remove"
	PathNone                = "none"
)

// Event is one event the controller would record on the Service.
type Event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// HintsOut is an endpoint's hints. forNodes is always null: the API of these lines has no such
// field.
type HintsOut struct {
	ForZones []string `json:"forZones"`
	ForNodes []string `json:"forNodes"`
}

// Result is what one sync of one address family writes and keeps.
type Result struct {
	Changed []string             `json:"changed"`
	Events  []Event              `json:"events"`
	Counts  map[string]int       `json:"counts"`
	Hints   map[string]*HintsOut `json:"hints"`
}

// FamilyOutcome is one address family's steady and fresh result.
type FamilyOutcome struct {
	Family     string  `json:"family"`
	Steady     *Result `json:"steady"`
	Fresh      *Result `json:"fresh"`
	Overloaded *bool   `json:"overloaded,omitempty"`
}

// Outcome is everything one run of the controller produced for the Service.
type Outcome struct {
	Path       string           `json:"path"`
	Families   []*FamilyOutcome `json:"families"`
	Overloaded bool             `json:"overloaded"`
}

// sliceInfo is topologycache.SliceInfo, line-neutral.
type sliceInfo struct {
	ServiceKey  string
	AddressType discovery.AddressType
	ToCreate    []*discovery.EndpointSlice
	ToUpdate    []*discovery.EndpointSlice
	Unchanged   []*discovery.EndpointSlice
}

// hintsEnabledFor is the line's hintsEnabled (utils.go): before 1.27 only the deprecated
// `service.kubernetes.io/topology-aware-hints` key is read (k/k v1.26.15 utils.go:383-389); from
// 1.27 it wins by presence over `service.kubernetes.io/topology-mode` (v1.27.0 utils.go:385-394,
// ES v0.29.15 utils.go). Only "Auto"/"auto" enable.
func (b Behaviour) hintsEnabled(annotations map[string]string) bool {
	val, ok := annotations["service.kubernetes.io/topology-aware-hints"]
	if !ok {
		if b.Minor < 27 {
			return false
		}
		val, ok = annotations["service.kubernetes.io/topology-mode"]
		if !ok {
			return false
		}
	}
	return val == "Auto" || val == "auto"
}

// getAddressTypesForService is the unexported function of the same name (k/k v1.26.15 utils.go,
// ES v0.29.15/v0.32.2 utils.go; identical in these lines, logging dropped).
// A plain map stands for upstream's set (the generic sets.Set is newer than the older lines'
// apimachinery); ranging over it is Go map order either way.
func getAddressTypesForService(service *corev1.Service) map[discovery.AddressType]bool {
	out := map[discovery.AddressType]bool{}
	for _, family := range service.Spec.IPFamilies {
		if family == corev1.IPv4Protocol {
			out[discovery.AddressTypeIPv4] = true
		}
		if family == corev1.IPv6Protocol {
			out[discovery.AddressTypeIPv6] = true
		}
	}
	if len(out) > 0 {
		return out
	}
	if len(service.Spec.ClusterIP) > 0 && service.Spec.ClusterIP != corev1.ClusterIPNone {
		addrType := discovery.AddressTypeIPv4
		if utilnet.IsIPv6String(service.Spec.ClusterIP) {
			addrType = discovery.AddressTypeIPv6
		}
		out[addrType] = true
		return out
	}
	out[discovery.AddressTypeIPv4] = true
	out[discovery.AddressTypeIPv6] = true
	return out
}

func unchangedSlices(existing, toUpdate []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	changed := map[string]bool{}
	for _, s := range toUpdate {
		changed[s.Name] = true
	}
	out := []*discovery.EndpointSlice{}
	for _, s := range existing {
		if !changed[s.Name] {
			out = append(out, s)
		}
	}
	return out
}

func (b Behaviour) decidePath(svc *corev1.Service) string {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || svc.Spec.Selector == nil {
		return PathNone
	}
	if topologyAwareHintsGate() && b.hintsEnabled(svc.Annotations) {
		return PathAnnotation
	}
	if b.canUseTrafficDistribution(svc) {
		return PathTrafficDistribution
	}
	return PathRemove
}

func hintsKey(slice *discovery.EndpointSlice, i int) string {
	addr := ""
	if len(slice.Endpoints[i].Addresses) > 0 {
		addr = slice.Endpoints[i].Addresses[0]
	}
	return fmt.Sprintf("%s/%d/%s", slice.Name, i, addr)
}

func describe(written, kept []*discovery.EndpointSlice, events []Event) *Result {
	r := &Result{Changed: []string{}, Events: []Event{}, Counts: map[string]int{}, Hints: map[string]*HintsOut{}}
	for _, s := range written {
		r.Changed = append(r.Changed, s.Name)
	}
	sort.Strings(r.Changed)
	r.Events = append(r.Events, events...)
	all := append(append([]*discovery.EndpointSlice{}, written...), kept...)
	for _, s := range all {
		for i, ep := range s.Endpoints {
			var h *HintsOut
			if ep.Hints != nil {
				h = &HintsOut{}
				if ep.Hints.ForZones != nil {
					h.ForZones = []string{}
					for _, z := range ep.Hints.ForZones {
						h.ForZones = append(h.ForZones, z.Name)
					}
				}
				if ep.Conditions.Ready != nil && *ep.Conditions.Ready {
					for _, z := range ep.Hints.ForZones {
						r.Counts[z.Name]++
					}
				}
			}
			r.Hints[hintsKey(s, i)] = h
		}
	}
	return r
}

// reconcileHints is the hint part of the line's reconcileByAddressType.
func reconcileHints(b Behaviour, cache lineCache, service *corev1.Service, addressType discovery.AddressType,
	existing, toCreate, toUpdate []*discovery.EndpointSlice) *Result {
	var events []Event
	si := &sliceInfo{
		ServiceKey:  fmt.Sprintf("%s/%s", service.Namespace, service.Name),
		AddressType: addressType,
		ToCreate:    toCreate,
		ToUpdate:    toUpdate,
		Unchanged:   unchangedSlices(existing, toUpdate),
	}
	canUseTD := b.canUseTrafficDistribution(service)
	slicesToCreate, slicesToUpdate := toCreate, toUpdate
	kept := si.Unchanged
	// `r.topologyCache != nil && hintsEnabled(...)`: no cache while the TopologyAwareHints gate
	// is off (newLineCache), as NewController builds none (k/k v1.23.17 reconciler.go:244-251).
	if cache != nil && b.hintsEnabled(service.Annotations) {
		slicesToCreate, slicesToUpdate, events = cache.AddHints(si)
		kept = si.Unchanged
	} else {
		if cache != nil {
			if cache.HasPopulatedHints(si.ServiceKey) {
				events = append(events, disabledEvent(addressType))
			}
			cache.RemoveHints(si.ServiceKey, addressType)
		}
		if !canUseTD {
			slicesToCreate, slicesToUpdate = removeHintsFromSlices(si)
			kept = si.Unchanged
		}
	}
	if canUseTD {
		slicesToCreate, slicesToUpdate, kept = reconcileTrafficDistribution(service,
			slicesToCreate, slicesToUpdate, unchangedSlices(existing, slicesToUpdate))
	}
	written := append(append([]*discovery.EndpointSlice{}, slicesToCreate...), slicesToUpdate...)
	return describe(written, kept, events)
}

// runController is ../controller.go runController for this line: every address family in Go
// set order sharing one cache, steady then the overload recheck, then a fresh sync.
func runController(b Behaviour, c *Cluster) *Outcome {
	svc := c.Service
	out := &Outcome{Path: b.decidePath(svc), Families: []*FamilyOutcome{}}
	families := getAddressTypesForService(svc)
	byFamily := map[discovery.AddressType]*FamilyOutcome{}
	ordered := make([]discovery.AddressType, 0, len(families))
	for at := range families {
		ordered = append(ordered, at)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i] < ordered[j] })
	for _, at := range ordered {
		byFamily[at] = &FamilyOutcome{Family: string(at)}
		out.Families = append(out.Families, byFamily[at])
	}
	if out.Path == PathNone {
		for at, fo := range byFamily {
			fo.Steady = describe(nil, c.ManagedSlices(at), nil)
		}
		return out
	}
	key := fmt.Sprintf("%s/%s", svc.Namespace, svc.Name)
	steady := newLineCache()
	if steady != nil {
		steady.SetNodes(c.Nodes)
	}
	for at := range families {
		byFamily[at].Steady = reconcileHints(b, steady, svc, at, c.ManagedSlices(at), nil, nil)
	}
	if steady != nil {
		steady.SetNodes(c.Nodes)
		out.Overloaded = steady.Overloaded(key)
		for at, fo := range byFamily {
			fo.Overloaded = steady.FamilyOverloaded(c.Nodes, key, at)
		}
	}
	fresh := newLineCache()
	if fresh != nil {
		fresh.SetNodes(c.Nodes)
	}
	for at := range families {
		byFamily[at].Fresh = reconcileHints(b, fresh, svc, at, nil, stripHints(c.ManagedSlices(at)), nil)
	}
	return out
}

// lineCache is what the controller code needs of a line's topology cache; nil when the line's
// TopologyAwareHints gate is off by default (1.21–1.23), the package-level removeHintsFromSlices
// still runs.
type lineCache interface {
	SetNodes(nodes []*corev1.Node)
	AddHints(si *sliceInfo) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice, []Event)
	RemoveHints(key string, at discovery.AddressType)
	HasPopulatedHints(key string) bool
	Overloaded(key string) bool
	FamilyOverloaded(nodes []*corev1.Node, key string, at discovery.AddressType) *bool
}
