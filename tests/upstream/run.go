package main

import (
	"encoding/json"
	"sync"

	"github.com/go-logr/logr"
)

// DefaultRuns is how often a case is run when it does not say (docs/behaviour.md#steady-state-and-ties: Go map order is the
// only source of randomness, so repetition is how the oracle sees every outcome).
const DefaultRuns = 64

var proxyMu sync.Mutex

// ProxyNodeOut is kube-proxy's view on one node: its zone label and, per service port
// ("<port name>/<protocol>"), the set of distinct CategorizeEndpoints results seen.
type ProxyNodeOut struct {
	Zone  *string                      `json:"zone"`
	Ports map[string][]json.RawMessage `json:"ports"`
}

// CaseResult is one line of the oracle's output.
type CaseResult struct {
	ID         string `json:"id"`
	K8sVersion string `json:"k8sVersion"`
	Runs       int    `json:"runs"`
	Error      string `json:"error,omitempty"`
	// Outcomes: the distinct controller outcomes (each an Outcome), canonical JSON, sorted.
	Outcomes []json.RawMessage `json:"outcomes"`
	// Seen[i]: in how many runs Outcomes[i] occurred.
	Seen []int `json:"seen"`
	// Proxy: family → node → {zone, ports: port → distinct ProxyPort results}.
	Proxy map[string]map[string]*ProxyNodeOut `json:"proxy"`
	// ProxyNote: why Proxy is null although this build links kube-proxy.
	ProxyNote string `json:"proxyNote,omitempty"`
}

// RunCase decodes and runs one case `runs` times.
func RunCase(c *Case) *CaseResult {
	res := &CaseResult{ID: c.ID, K8sVersion: c.K8sVersion, Runs: c.Runs, Outcomes: []json.RawMessage{}, Seen: []int{}}
	if res.Runs <= 0 {
		res.Runs = DefaultRuns
	}
	b, err := ParseBehaviour(c.K8sVersion)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.K8sVersion = "1." + itoa(b.Minor)
	cl, err := DecodeDump(c.Dump)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	logger := logr.Discard()
	requested := res.Runs
	outcomes := outcomeSet{}
	for i := 0; i < res.Runs; i++ {
		o := runController(logger, b, cl)
		outcomes.add(o)
		if c.AdaptiveRuns && o.Path != PathAnnotation {
			// Only the annotation path ranges over Go maps (AddHints: getMost ties, the receiving
			// zone per moved endpoint, the per-Service Enabled flag across families). trafficdist,
			// RemoveHintsFromSlices and the none path are plain loops over slices and endpoints,
			// so one run is every outcome.
			res.Runs = i + 1
			break
		}
	}
	res.Outcomes, res.Seen = outcomes.sorted()
	if !proxyAvailable {
		return res
	}
	if b.Minor < proxyDuplicatesFrom && hasDuplicateAddresses(cl) {
		// The default build links kube-proxy v1.36.3; its duplicate merge is 1.36's code, which no
		// gate emulates (the 1.33 build links v1.33.13 and has 1.33's rule):
		// v1.36.0 pkg/proxy/endpointslicecache.go:247 keeps a copy unless a later one is
		// not terminating (`!exists || !terminating`), v1.33.0-v1.35.0 :238 unless a later one is
		// local (`!exists || isLocal`). With a duplicate address the answer would be 1.36's.
		res.ProxyNote = "duplicate addresses: the linked kube-proxy merges them as 1." + itoa(proxyDuplicatesFrom) + " does, not as 1." + itoa(b.Minor)
		return res
	}
	// kube-proxy reads process-wide feature gates, set per case from its version: one case's
	// proxy runs at a time.
	proxyMu.Lock()
	defer proxyMu.Unlock()
	if err := setProxyGates(b); err != nil {
		res.Error = "setting kube-proxy feature gates: " + err.Error()
		return res
	}
	proxyCells := map[proxyKey]outcomeSet{}
	nodes := proxyNodes(cl)
	proxyRuns := 1
	if hasDuplicateAddresses(cl) {
		proxyRuns = requested
	}
	for i := 0; i < proxyRuns; i++ {
		runProxy(cl, nodes, proxyCells)
	}
	res.Proxy = map[string]map[string]*ProxyNodeOut{}
	zoneOf := map[string]*string{}
	for _, n := range nodes {
		zoneOf[n.name] = n.zone
	}
	for k, set := range proxyCells {
		if res.Proxy[k.family] == nil {
			res.Proxy[k.family] = map[string]*ProxyNodeOut{}
		}
		pn := res.Proxy[k.family][k.node]
		if pn == nil {
			pn = &ProxyNodeOut{Zone: zoneOf[k.node], Ports: map[string][]json.RawMessage{}}
			res.Proxy[k.family][k.node] = pn
		}
		pn.Ports[k.port], _ = set.sorted()
	}
	return res
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// hasDuplicateAddresses reports whether an address occurs twice among the Service's slices. Only
// then can kube-proxy's result vary between runs: endpointslicecache merges duplicates while
// ranging over a map of slices (pkg/proxy/endpointslicecache.go, endpointInfoByServicePort and
// addEndpoints); everything else in CategorizeEndpoints is order-free once the oracle sorts its
// lists. Without duplicates one proxy run is exact, which keeps 20,000-case runs cheap.
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
