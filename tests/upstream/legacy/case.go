//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	sigsjson "sigs.k8s.io/json"
)

// The case and result formats are the main oracle's (../README.md, ../case.go, ../run.go); this
// package re-declares them because a Go binary links one version of k8s.io/api, and these lines
// link an older one than ../ does.

const (
	labelServiceName = "kubernetes.io/service-name"
	labelManagedBy   = "endpointslice.kubernetes.io/managed-by"
	controllerName   = "endpointslice-controller.k8s.io"
	// DefaultRuns is how often a case runs when it does not say.
	DefaultRuns = 64
)

// Case is one line of the oracle's input.
type Case struct {
	ID           string          `json:"id"`
	Note         string          `json:"note,omitempty"`
	K8sVersion   string          `json:"k8sVersion"`
	Runs         int             `json:"runs"`
	Dump         json.RawMessage `json:"dump"`
	AdaptiveRuns bool            `json:"-"`
}

// CaseResult is one line of the oracle's output.
type CaseResult struct {
	ID         string                              `json:"id"`
	K8sVersion string                              `json:"k8sVersion"`
	Runs       int                                 `json:"runs"`
	Error      string                              `json:"error,omitempty"`
	Outcomes   []json.RawMessage                   `json:"outcomes"`
	Seen       []int                               `json:"seen"`
	Proxy      map[string]map[string]*ProxyNodeOut `json:"proxy"`
	ProxyNote  string                              `json:"proxyNote,omitempty"`
}

// ProxyNodeOut is kube-proxy's view on one node.
type ProxyNodeOut struct {
	Zone  *string                      `json:"zone"`
	Ports map[string][]json.RawMessage `json:"ports"`
}

// Behaviour is the Kubernetes minor version whose default-gate behaviour the case asks for.
type Behaviour struct{ Minor int }

// ParseBehaviour accepts "1.29", "v1.29", "1.29.3"; empty means the line's default.
func ParseBehaviour(s string) (Behaviour, error) {
	if s == "" {
		return Behaviour{Minor: defaultMinor}, nil
	}
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
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

// Cluster is a decoded dump: every Node, the one Service, and all EndpointSlices, in dump order.
type Cluster struct {
	Nodes   []*corev1.Node
	Service *corev1.Service
	Slices  []*discovery.EndpointSlice
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// DecodeDump decodes a `v1 List` like the API server of this line: case-sensitive keys, fields
// this version's API does not have (trafficDistribution before 1.30, forNodes before 1.33) dropped.
func DecodeDump(raw []byte) (*Cluster, error) {
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &list); err != nil {
		return nil, fmt.Errorf("dump is not a v1 List: %w", err)
	}
	if list.Kind != "List" {
		return nil, fmt.Errorf("dump kind is %q, want List", list.Kind)
	}
	c := &Cluster{}
	var services []*corev1.Service
	for i, item := range list.Items {
		var tm typeMeta
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(item, &tm); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		var err error
		switch {
		case tm.APIVersion == "v1" && tm.Kind == "Node":
			n := &corev1.Node{}
			err = sigsjson.UnmarshalCaseSensitivePreserveInts(item, n)
			c.Nodes = append(c.Nodes, n)
		case tm.APIVersion == "v1" && tm.Kind == "Service":
			s := &corev1.Service{}
			err = sigsjson.UnmarshalCaseSensitivePreserveInts(item, s)
			services = append(services, s)
		case tm.APIVersion == "discovery.k8s.io/v1" && tm.Kind == "EndpointSlice":
			es := &discovery.EndpointSlice{}
			err = sigsjson.UnmarshalCaseSensitivePreserveInts(item, es)
			c.Slices = append(c.Slices, es)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d (%s): %w", i, tm.Kind, err)
		}
	}
	if len(services) != 1 {
		return nil, fmt.Errorf("dump has %d v1 Services: a case holds exactly one", len(services))
	}
	c.Service = services[0]
	return c, nil
}

// ManagedSlices returns deep copies of the controller-managed slices of the Service of one
// address type, in dump order.
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

func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

type outcomeSet map[string]int

func (s outcomeSet) add(v any) { s[canonical(v)]++ }

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

func hasDuplicateAddresses(c *Cluster) bool {
	seen := map[string]bool{}
	for _, s := range c.Slices {
		if s.Namespace != c.Service.Namespace {
			continue
		}
		for _, ep := range s.Endpoints {
			if len(ep.Addresses) == 0 {
				continue
			}
			k := string(s.AddressType) + "/" + ep.Addresses[0]
			if seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	return false
}
