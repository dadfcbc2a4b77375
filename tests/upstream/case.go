package main

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	sigsjson "sigs.k8s.io/json"
)

// Label and annotation keys the controller reads (docs/behaviour.md#inputs). Spelled out rather than taken from
// k8s.io/api so that a reader can grep for them.
const (
	labelServiceName = "kubernetes.io/service-name"
	labelManagedBy   = "endpointslice.kubernetes.io/managed-by"
	// controllerName is the managed-by value of the EndpointSlice controller
	// (k8s.io/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, ControllerName).
	controllerName = "endpointslice-controller.k8s.io"
)

// Case is one line of the oracle's input: a cluster dump and how to run it.
type Case struct {
	ID         string          `json:"id"`
	Note       string          `json:"note,omitempty"`
	K8sVersion string          `json:"k8sVersion"`
	Runs       int             `json:"runs"`
	Dump       json.RawMessage `json:"dump"`
	// AdaptiveRuns (set by --adaptive-runs, never read from the case): stop after one run when
	// the path is not the annotation path.
	AdaptiveRuns bool `json:"-"`
}

// kubeList is a `v1 List` with its items left raw until their kind is known.
type kubeList struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// Cluster is a decoded dump: every Node, the one Service, and all EndpointSlices, in dump order.
type Cluster struct {
	Nodes   []*corev1.Node
	Service *corev1.Service
	Slices  []*discovery.EndpointSlice
}

// strictUnmarshal decodes like the API server does: case-sensitive keys, ints kept as ints.
func strictUnmarshal(data []byte, v any) error {
	return sigsjson.UnmarshalCaseSensitivePreserveInts(data, v)
}

// decodedList is the Nodes, Services and EndpointSlices of a `v1 List`, in list order.
type decodedList struct {
	kind     string
	nodes    []*corev1.Node
	services []*corev1.Service
	slices   []*discovery.EndpointSlice
}

// decodeList decodes the Nodes, Services and EndpointSlices of a `v1 List` with the API server's
// own strict decoder. Items of other kinds (Pods, Events, ...) are ignored.
func decodeList(raw []byte) (*decodedList, error) {
	var list kubeList
	if err := strictUnmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("dump is not a v1 List: %w", err)
	}
	d := &decodedList{kind: list.Kind}
	for i, item := range list.Items {
		var tm typeMeta
		if err := strictUnmarshal(item, &tm); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		var err error
		switch {
		case tm.APIVersion == "v1" && tm.Kind == "Node":
			n := &corev1.Node{}
			err = strictUnmarshal(item, n)
			d.nodes = append(d.nodes, n)
		case tm.APIVersion == "v1" && tm.Kind == "Service":
			s := &corev1.Service{}
			err = strictUnmarshal(item, s)
			d.services = append(d.services, s)
		case tm.APIVersion == "discovery.k8s.io/v1" && tm.Kind == "EndpointSlice":
			es := &discovery.EndpointSlice{}
			err = strictUnmarshal(item, es)
			d.slices = append(d.slices, es)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d (%s): %w", i, tm.Kind, err)
		}
	}
	return d, nil
}

// DecodeDump decodes a `v1 List` holding Nodes, exactly one Service and EndpointSlices. Items of
// other kinds (Pods, Events, ...) are ignored.
func DecodeDump(raw []byte) (*Cluster, error) {
	d, err := decodeList(raw)
	if err != nil {
		return nil, err
	}
	if d.kind != "List" {
		return nil, fmt.Errorf("dump kind is %q, want List", d.kind)
	}
	if len(d.services) != 1 {
		return nil, fmt.Errorf("dump has %d v1 Services: a case holds exactly one", len(d.services))
	}
	return &Cluster{Nodes: d.nodes, Service: d.services[0], Slices: d.slices}, nil
}

// ManagedSlices returns deep copies of the slices of addressType that the EndpointSlice
// controller manages for the Service (both labels, same namespace), in dump order.
func (c *Cluster) ManagedSlices(addressType discovery.AddressType) []*discovery.EndpointSlice {
	var out []*discovery.EndpointSlice
	for _, s := range c.Slices {
		if s.Namespace != c.Service.Namespace || s.AddressType != addressType {
			continue
		}
		if s.Labels[labelServiceName] != c.Service.Name || s.Labels[labelManagedBy] != controllerName {
			continue
		}
		out = append(out, s.DeepCopy())
	}
	return out
}

// stripHints returns deep copies of slices with every endpoint's hints removed: what a fresh sync
// builds (podToEndpoint never sets hints).
func stripHints(in []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	out := make([]*discovery.EndpointSlice, 0, len(in))
	for _, s := range in {
		c := s.DeepCopy()
		for i := range c.Endpoints {
			c.Endpoints[i].Hints = nil
		}
		out = append(out, c)
	}
	return out
}

// canonical marshals v with sorted map keys (encoding/json does that) for set semantics.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// outcomeSet counts distinct canonical outcomes.
type outcomeSet map[string]int

func (s outcomeSet) add(v any) { s[canonical(v)]++ }

// sorted returns the distinct outcomes (as raw JSON, sorted) and how often each was seen.
func (s outcomeSet) sorted() ([]json.RawMessage, []int) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	raws := make([]json.RawMessage, len(keys))
	seen := make([]int, len(keys))
	for i, k := range keys {
		raws[i] = json.RawMessage(k)
		seen[i] = s[k]
	}
	return raws, seen
}
