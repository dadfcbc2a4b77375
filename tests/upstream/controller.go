package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/endpointslice/topologycache"
	"k8s.io/endpointslice/trafficdist"
	utilnet "k8s.io/utils/net"
)

// Behaviour is the Kubernetes minor version whose default-gate behaviour the case asks for.
type Behaviour struct{ Minor int }

// ParseBehaviour accepts "1.36", "v1.36", "1.36.3"; empty means 1.36.
func ParseBehaviour(s string) (Behaviour, error) {
	if s == "" {
		return Behaviour{Minor: defaultMinor}, nil
	}
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || parts[0] != "1" {
		return Behaviour{}, fmt.Errorf("k8sVersion %q: want 1.NN", s)
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil {
		return Behaviour{}, fmt.Errorf("k8sVersion %q: want 1.NN", s)
	}
	if minor < minMinor || minor > maxMinor {
		return Behaviour{}, fmt.Errorf("k8sVersion %q: this oracle build (%s) models 1.%d … 1.%d", s, buildLine, minMinor, maxMinor)
	}
	return Behaviour{Minor: minor}, nil
}

// hintsEnabled is a copy of the unexported k8s.io/endpointslice@v0.36.3 utils.go:359-368
// (hintsEnabled): the deprecated key wins by presence; only "Auto"/"auto" enable.
func hintsEnabled(annotations map[string]string) bool {
	val, ok := annotations[corev1.DeprecatedAnnotationTopologyAwareHints]
	if !ok {
		val, ok = annotations[corev1.AnnotationTopologyMode]
		if !ok {
			return false
		}
	}
	return val == "Auto" || val == "auto"
}

// getAddressTypesForService is a copy of the unexported function of the same name,
// k8s.io/endpointslice@v0.36.3 utils.go:279-335 (logging dropped). Its result is a Go set, and
// the reconciler ranges over it (reconciler.go:140-146), so the family order is Go map order.
func getAddressTypesForService(service *corev1.Service) sets.Set[discovery.AddressType] {
	out := sets.New[discovery.AddressType]()
	for _, family := range service.Spec.IPFamilies {
		if family == corev1.IPv4Protocol {
			out.Insert(discovery.AddressTypeIPv4)
		}
		if family == corev1.IPv6Protocol {
			out.Insert(discovery.AddressTypeIPv6)
		}
	}
	if out.Len() > 0 {
		return out
	}
	if len(service.Spec.ClusterIP) > 0 && service.Spec.ClusterIP != corev1.ClusterIPNone {
		addrType := discovery.AddressTypeIPv4
		if utilnet.IsIPv6String(service.Spec.ClusterIP) {
			addrType = discovery.AddressTypeIPv6
		}
		out.Insert(addrType)
		return out
	}
	out.Insert(discovery.AddressTypeIPv4)
	out.Insert(discovery.AddressTypeIPv6)
	return out
}

// unchangedSlices is a copy of the unexported function, k8s.io/endpointslice@v0.36.3
// utils.go:337-353: existing slices whose names are in neither list.
func unchangedSlices(existing, toUpdate, toDelete []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	changed := sets.New[string]()
	for _, s := range toUpdate {
		changed.Insert(s.Name)
	}
	for _, s := range toDelete {
		changed.Insert(s.Name)
	}
	out := []*discovery.EndpointSlice{}
	for _, s := range existing {
		if !changed.Has(s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// Path names which controller branch a Service takes (docs/behaviour.md#mode-selection).
const (
	PathAnnotation          = "annotation"
	PathTrafficDistribution = "trafficDistribution"
	PathRemove              = "remove"
	PathNone                = "none"
)

// decidePath mirrors syncService's early returns (ExternalName, nil selector) and
// the reconciler's branch (reconciler.go:298-347).
func (b Behaviour) decidePath(svc *corev1.Service) string {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || svc.Spec.Selector == nil {
		return PathNone
	}
	if hintsEnabled(svc.Annotations) {
		return PathAnnotation
	}
	if b.canUseTrafficDistribution(svc) {
		return PathTrafficDistribution
	}
	return PathRemove
}

// Event is one event the controller would record on the Service.
type Event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// HintsOut is an endpoint's hints; nil lists stay null, empty lists stay [].
type HintsOut struct {
	ForZones []string `json:"forZones"`
	ForNodes []string `json:"forNodes"`
}

// Result is what one sync of one address family writes and keeps.
type Result struct {
	// Changed: names of the slices written (ToCreate + ToUpdate), sorted.
	Changed []string `json:"changed"`
	// Events returned by the hint code, in order.
	Events []Event `json:"events"`
	// Counts: per zone, the forZones entries of ready endpoints over written + kept slices
	// (after a successful AddHints this is exactly the cache's EndpointZoneInfo).
	Counts map[string]int `json:"counts"`
	// Hints of every endpoint of the written + kept slices, keyed "<slice>/<index>/<first address>";
	// null when the endpoint has no hints.
	Hints map[string]*HintsOut `json:"hints"`
}

// FamilyOutcome is one address family's steady and fresh result.
type FamilyOutcome struct {
	Family string  `json:"family"`
	Steady *Result `json:"steady"`
	Fresh  *Result `json:"fresh"`
	// Overloaded: upstream's serviceOverloaded on this family's own cache entry after the steady
	// sync (nil when the sync left no entry). The Service-wide `overloaded` is the OR over the
	// families; a dual-stack Service's families are compared one by one (reconcileByAddressType per family).
	Overloaded *bool `json:"overloaded,omitempty"`
}

// Outcome is everything one run of the controller produced for the Service.
type Outcome struct {
	Path       string           `json:"path"`
	Families   []*FamilyOutcome `json:"families"`
	Overloaded bool             `json:"overloaded"`
}

func hintsKey(slice *discovery.EndpointSlice, i int) string {
	addr := ""
	if len(slice.Endpoints[i].Addresses) > 0 {
		addr = slice.Endpoints[i].Addresses[0]
	}
	return fmt.Sprintf("%s/%d/%s", slice.Name, i, addr)
}

// controllerReady is EndpointReady (topologycache/utils.go:278-280): ready present and true.
func controllerReady(ep discovery.Endpoint) bool {
	return ep.Conditions.Ready != nil && *ep.Conditions.Ready
}

func describe(written, kept []*discovery.EndpointSlice, events []*topologycache.EventBuilder) *Result {
	r := &Result{Changed: []string{}, Events: []Event{}, Counts: map[string]int{}, Hints: map[string]*HintsOut{}}
	for _, s := range written {
		r.Changed = append(r.Changed, s.Name)
	}
	sort.Strings(r.Changed)
	for _, e := range events {
		r.Events = append(r.Events, Event{Type: e.EventType, Reason: e.Reason, Message: e.Message})
	}
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
				if ep.Hints.ForNodes != nil {
					h.ForNodes = []string{}
					for _, n := range ep.Hints.ForNodes {
						h.ForNodes = append(h.ForNodes, n.Name)
					}
				}
				if controllerReady(ep) {
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

// reconcileHints is the hint part of reconcileByAddressType, k8s.io/endpointslice@v0.36.3
// reconciler.go:289-347, verbatim in structure: the annotation path, the cache clean-up and the
// "disabled" event, RemoveHintsFromSlices, and trafficdist.ReconcileHints. existing are the
// slices the reconciler found (the Unchanged candidates); toCreate/toUpdate what it would write.
func reconcileHints(logger logr.Logger, b Behaviour, cache *topologycache.TopologyCache, service *corev1.Service,
	addressType discovery.AddressType, existing, toCreate, toUpdate []*discovery.EndpointSlice) *Result {
	var events []*topologycache.EventBuilder
	si := &topologycache.SliceInfo{
		ServiceKey:  fmt.Sprintf("%s/%s", service.Namespace, service.Name),
		AddressType: addressType,
		ToCreate:    toCreate,
		ToUpdate:    toUpdate,
		Unchanged:   unchangedSlices(existing, toUpdate, nil),
	}
	canUseTrafficDistribution := b.canUseTrafficDistribution(service)
	slicesToCreate, slicesToUpdate := toCreate, toUpdate
	kept := si.Unchanged
	if cache != nil && hintsEnabled(service.Annotations) {
		slicesToCreate, slicesToUpdate, events = cache.AddHints(logger, si)
		kept = si.Unchanged
	} else {
		if cache != nil {
			if cache.HasPopulatedHints(si.ServiceKey) {
				events = append(events, &topologycache.EventBuilder{
					EventType: corev1.EventTypeWarning,
					Reason:    "TopologyAwareHintsDisabled",
					Message:   topologycache.FormatWithAddressType(topologycache.TopologyAwareHintsDisabled, si.AddressType),
				})
			}
			cache.RemoveHints(si.ServiceKey, addressType)
		}
		if !canUseTrafficDistribution {
			slicesToCreate, slicesToUpdate = topologycache.RemoveHintsFromSlices(si)
			kept = si.Unchanged
		}
	}
	if canUseTrafficDistribution {
		slicesToCreate, slicesToUpdate, kept = trafficdist.ReconcileHints(service.Spec.TrafficDistribution,
			slicesToCreate, slicesToUpdate, unchangedSlices(existing, slicesToUpdate, nil))
	}
	written := append(append([]*discovery.EndpointSlice{}, slicesToCreate...), slicesToUpdate...)
	return describe(written, kept, events)
}

// runController runs one full controller pass over the case: every address family of the
// Service (in Go set order, sharing one cache, as one sync does), steady and fresh, then the
// overload recheck.
func runController(logger logr.Logger, b Behaviour, c *Cluster) *Outcome {
	svc := c.Service
	out := &Outcome{Path: b.decidePath(svc), Families: []*FamilyOutcome{}}
	families := getAddressTypesForService(svc)
	byFamily := map[discovery.AddressType]*FamilyOutcome{}
	for _, at := range sets.List(families) {
		byFamily[at] = &FamilyOutcome{Family: string(at)}
		out.Families = append(out.Families, byFamily[at])
	}
	if out.Path == PathNone {
		// syncService returns before the reconciler: nothing is written; report the live state.
		for at, fo := range byFamily {
			fo.Steady = describe(nil, c.ManagedSlices(at), nil)
		}
		return out
	}
	key := fmt.Sprintf("%s/%s", svc.Namespace, svc.Name)

	// Steady state: every live managed slice is Unchanged, nothing to create or update.
	steady := topologycache.NewTopologyCache()
	steady.SetNodes(logger, c.Nodes)
	for at := range families {
		byFamily[at].Steady = reconcileHints(logger, b, steady, svc, at, c.ManagedSlices(at), nil, nil)
	}
	// Overload recheck (checkNodeTopologyDistribution): a node event recomputes the cache and asks which Services
	// to requeue.
	steady.SetNodes(logger, c.Nodes)
	for _, k := range steady.GetOverloadedServices() {
		if k == key {
			out.Overloaded = true
		}
	}
	for at, fo := range byFamily {
		fo.Overloaded = familyOverloaded(logger, c.Nodes, steady, key, at)
	}

	// Fresh sync: the same endpoints built anew (no hints), all slices to create.
	fresh := topologycache.NewTopologyCache()
	fresh.SetNodes(logger, c.Nodes)
	for at := range families {
		byFamily[at].Fresh = reconcileHints(logger, b, fresh, svc, at, nil, stripHints(c.ManagedSlices(at)), nil)
	}
	return out
}
