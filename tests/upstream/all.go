package main

// `oracle all --dump FILE`: the benchmark baseline for `kubectl topo check -A --from-file FILE`.
// It decodes a whole cluster dump (any number of Services) once and recomputes every Service's
// hints once, as one controller does: one topology cache, SetNodes once, each Service's steady
// sync (every live managed slice Unchanged) through reconcileHints, then the overload recheck
// (GetOverloadedServices). One run per Service (no repetition over Go map order).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/endpointslice/topologycache"
	"sigs.k8s.io/yaml"
)

// WholeDump is a decoded dump with every Service, and the managed slices indexed by Service.
type WholeDump struct {
	Nodes    []*corev1.Node
	Services []*corev1.Service
	// Managed: "<namespace>/<service>" → controller-managed slices, in dump order.
	Managed map[string][]*discovery.EndpointSlice
}

// DecodeWholeDump decodes a `v1 List` of Nodes, Services and EndpointSlices (other kinds ignored).
func DecodeWholeDump(raw []byte) (*WholeDump, error) {
	d, err := decodeList(raw)
	if err != nil {
		return nil, err
	}
	w := &WholeDump{Nodes: d.nodes, Services: d.services, Managed: map[string][]*discovery.EndpointSlice{}}
	for _, es := range d.slices {
		if es.Labels[labelManagedBy] == controllerName && es.Labels[labelServiceName] != "" {
			key := es.Namespace + "/" + es.Labels[labelServiceName]
			w.Managed[key] = append(w.Managed[key], es)
		}
	}
	return w, nil
}

// AllSummary is what `oracle all` prints: counts only, so printing costs nothing.
type AllSummary struct {
	Services      int            `json:"services"`
	Paths         map[string]int `json:"paths"`
	Families      int            `json:"families"`
	ChangedSlices int            `json:"changedSlices"`
	HintedReady   int            `json:"hintedReady"`
	Events        map[string]int `json:"events"`
	Overloaded    int            `json:"overloaded"`
	DecodeTime    string         `json:"decodeTime"`
	ComputeTime   string         `json:"computeTime"`
}

// RecomputeAll runs every Service's steady sync on one cache, then the overload recheck.
func RecomputeAll(logger logr.Logger, b Behaviour, d *WholeDump) *AllSummary {
	sum := &AllSummary{Services: len(d.Services), Paths: map[string]int{}, Events: map[string]int{}}
	cache := topologycache.NewTopologyCache()
	cache.SetNodes(logger, d.Nodes)
	for _, svc := range d.Services {
		key := svc.Namespace + "/" + svc.Name
		path := b.decidePath(svc)
		sum.Paths[path]++
		for _, at := range sets.List(getAddressTypesForService(svc)) {
			sum.Families++
			var managed []*discovery.EndpointSlice
			for _, s := range d.Managed[key] {
				if s.AddressType == at {
					managed = append(managed, s)
				}
			}
			if path == PathNone {
				continue
			}
			r := reconcileHints(logger, b, cache, svc, at, managed, nil, nil)
			sum.ChangedSlices += len(r.Changed)
			for _, n := range r.Counts {
				sum.HintedReady += n
			}
			for _, e := range r.Events {
				sum.Events[e.Reason]++
			}
		}
	}
	cache.SetNodes(logger, d.Nodes)
	sum.Overloaded = len(cache.GetOverloadedServices())
	return sum
}

func cmdAll(args []string) int {
	fs := flag.NewFlagSet("oracle all", flag.ContinueOnError)
	dump := fs.String("dump", "", "a v1 List (JSON or YAML) of Nodes, Services and EndpointSlices")
	version := fs.String("k8s-version", "", "behaviour to model (default 1.36)")
	if err := fs.Parse(args); err != nil || *dump == "" {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	b, err := ParseBehaviour(*version)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	start := time.Now()
	raw, err := os.ReadFile(*dump)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if raw, err = yamlToJSON(raw); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", *dump, err)
		return 1
	}
	d, err := DecodeWholeDump(raw)
	raw = nil
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", *dump, err)
		return 1
	}
	decoded := time.Now()
	sum := RecomputeAll(logr.Discard(), b, d)
	sum.DecodeTime = decoded.Sub(start).Round(time.Millisecond).String()
	sum.ComputeTime = elapsed(decoded)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	_ = enc.Encode(sum)
	return 0
}

// yamlToJSON converts a YAML dump to JSON as kubectl does for `-f` (sigs.k8s.io/yaml, which
// decodes the YAML into a tree and writes it as JSON); JSON is returned as it is.
func yamlToJSON(raw []byte) ([]byte, error) {
	if trimmed := bytes.TrimLeft(raw, " \t\r\n\ufeff"); len(trimmed) > 0 && trimmed[0] == '{' {
		return raw, nil
	}
	return yaml.YAMLToJSON(raw)
}
