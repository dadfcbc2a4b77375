//go:build !oracle130

package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Worked examples (docs/behaviour.md#worked-examples) checked through the oracle end to end: dump JSON
// in, outcome set out.

type tEndpoint struct {
	zone, node string
	hint       string // "" = no hints
}

func tCase(t *testing.T, cpuByZone map[string]string, eps []tEndpoint, annotations map[string]string, td *string) *CaseResult {
	t.Helper()
	var items []any
	i := 0
	for _, z := range []string{"zone-a", "zone-b", "zone-c"} {
		cpu, ok := cpuByZone[z]
		if !ok {
			continue
		}
		items = append(items, &corev1.Node{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%d", i), Labels: map[string]string{corev1.LabelTopologyZone: z}},
			Status: corev1.NodeStatus{
				Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)},
				Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			},
		})
		i++
	}
	items = append(items, &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: "default", Annotations: annotations},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "svc"}, ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"},
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol}, TrafficDistribution: td,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}},
	})
	slice := &discovery.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{Name: "svc-1", Namespace: "default",
			Labels: map[string]string{labelServiceName: "svc", labelManagedBy: controllerName}},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: ptr("http"), Port: ptr(int32(8080)), Protocol: ptr(corev1.ProtocolTCP)}},
	}
	for j, e := range eps {
		ep := discovery.Endpoint{Addresses: []string{fmt.Sprintf("10.0.0.%d", j+1)}, Zone: ptr(e.zone),
			Conditions: discovery.EndpointConditions{Ready: ptr(true)}}
		if e.node != "" {
			ep.NodeName = ptr(e.node)
		}
		if e.hint != "" {
			ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: e.hint}}}
		}
		slice.Endpoints = append(slice.Endpoints, ep)
	}
	items = append(items, slice)
	dump, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		t.Fatal(err)
	}
	res := RunCase(&Case{ID: t.Name(), K8sVersion: "1.36", Runs: 64, Dump: dump})
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	return res
}

func zoneEndpoints(counts map[string]int, hinted bool) []tEndpoint {
	var out []tEndpoint
	for _, z := range []string{"zone-a", "zone-b", "zone-c"} {
		for i := 0; i < counts[z]; i++ {
			e := tEndpoint{zone: z}
			if hinted {
				e.hint = z
			}
			out = append(out, e)
		}
	}
	return out
}

var auto = map[string]string{corev1.AnnotationTopologyMode: "Auto"}

var equalCPU = map[string]string{"zone-a": "1", "zone-b": "1000m", "zone-c": "1.0"}

// W2: 3 equal zones, 4 endpoints → no hints, exact event text.
func TestW2OverloadThresholdEvent(t *testing.T) {
	res := tCase(t, equalCPU, zoneEndpoints(map[string]int{"zone-a": 2, "zone-b": 1, "zone-c": 1}, false), auto, nil)
	outs := outcomes(t, res)
	if len(outs) != 1 {
		t.Fatalf("want 1 outcome, got %d", len(outs))
	}
	want := Event{Type: "Warning", Reason: "TopologyAwareHintsDisabled",
		Message: "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold (4 endpoints, 3 zones), addressType: IPv4"}
	for _, r := range []*Result{outs[0].Families[0].Steady, outs[0].Families[0].Fresh} {
		if len(r.Events) != 1 || r.Events[0] != want {
			t.Errorf("events = %+v, want [%+v]", r.Events, want)
		}
		if len(r.Counts) != 0 {
			t.Errorf("counts = %v, want none", r.Counts)
		}
	}
}

// W8: CPU 2:1:1, a:8 b:3 c:3 → the surplus endpoint goes to b or c; both outcomes seen.
func TestW8TieGivesTwoOutcomes(t *testing.T) {
	res := tCase(t, map[string]string{"zone-a": "2", "zone-b": "1", "zone-c": "1"},
		zoneEndpoints(map[string]int{"zone-a": 8, "zone-b": 3, "zone-c": 3}, false), auto, nil)
	seen := map[string]bool{}
	for _, o := range outcomes(t, res) {
		seen[canonical(o.Families[0].Fresh.Counts)] = true
	}
	want := []string{`{"zone-a":7,"zone-b":3,"zone-c":4}`, `{"zone-a":7,"zone-b":4,"zone-c":3}`}
	if len(seen) != 2 || !seen[want[0]] || !seen[want[1]] {
		t.Fatalf("fresh counts seen = %v, want exactly %v", seen, want)
	}
}

// W11: CPU 1:4 with 6 endpoints: float rounding makes Σmin 7 > 6 → no hints.
func TestW11FloatingPointRefusesHints(t *testing.T) {
	res := tCase(t, map[string]string{"zone-a": "1000m", "zone-b": "4000m"},
		zoneEndpoints(map[string]int{"zone-a": 2, "zone-b": 4}, false), auto, nil)
	outs := outcomes(t, res)
	if len(outs) != 1 {
		t.Fatalf("want 1 outcome, got %d", len(outs))
	}
	ev := outs[0].Families[0].Fresh.Events
	want := "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold (6 endpoints, 2 zones), addressType: IPv4"
	if len(ev) != 1 || ev[0].Message != want {
		t.Fatalf("events = %+v, want %q", ev, want)
	}
}

// W13: live hints a:12 b:9 c:9 are within max 12 → kept; a fresh sync would write 10/10/10.
func TestW13SteadyKeepsImbalance(t *testing.T) {
	res := tCase(t, equalCPU, zoneEndpoints(map[string]int{"zone-a": 12, "zone-b": 9, "zone-c": 9}, true), auto, nil)
	outs := outcomes(t, res)
	for _, o := range outs {
		st := o.Families[0].Steady
		if len(st.Changed) != 0 || canonical(st.Counts) != `{"zone-a":12,"zone-b":9,"zone-c":9}` {
			t.Errorf("steady changed=%v counts=%v, want nothing rewritten and 12/9/9", st.Changed, st.Counts)
		}
		if fr := o.Families[0].Fresh; canonical(fr.Counts) != `{"zone-a":10,"zone-b":10,"zone-c":10}` {
			t.Errorf("fresh counts=%v, want 10/10/10", fr.Counts)
		}
		if o.Overloaded {
			t.Errorf("12/9/9 is not overloaded (needs ≥ ceil(30/3·K) = 9 per zone)")
		}
	}
}

// W14 / trafficdist_test.go TestReconcileHints: PreferSameNode writes own zone + own node; kube-proxy (W15) on a node with a local
// endpoint uses only that node's endpoints, on a node without falls back to its zone.
func TestPreferSameNodeEndToEnd(t *testing.T) {
	td := ptr(corev1.ServiceTrafficDistributionPreferSameNode)
	eps := []tEndpoint{{zone: "zone-a", node: "node-0"}, {zone: "zone-b", node: "node-1"}, {zone: "zone-b", node: "node-1"}}
	res := tCase(t, map[string]string{"zone-a": "1", "zone-b": "1"}, eps, nil, td)
	outs := outcomes(t, res)
	if len(outs) != 1 || outs[0].Path != PathTrafficDistribution {
		t.Fatalf("outcomes = %s", res.Outcomes)
	}
	h := outs[0].Families[0].Fresh.Hints["svc-1/0/10.0.0.1"]
	if h == nil || canonical(h) != `{"forZones":["zone-a"],"forNodes":["node-0"]}` {
		t.Fatalf("hint of endpoint 0 = %s", canonical(h))
	}
	// The live slice has no hints: kube-proxy sees all endpoints everywhere.
	var p ProxyPort
	_ = json.Unmarshal(res.Proxy["IPv4"]["node-0"].Ports["http/TCP"][0], &p)
	if len(p.Cluster) != 3 {
		t.Fatalf("node-0 cluster = %v, want all 3", p.Cluster)
	}
}

// kube-proxy on live own-zone hints (W1 kube-proxy variant, topology_test.go TestCategorizeEndpoints first row).
func TestProxyZoneFiltering(t *testing.T) {
	eps := []tEndpoint{{zone: "zone-a", hint: "zone-a"}, {zone: "zone-b", hint: "zone-b"}, {zone: "zone-a", hint: "zone-a"}}
	res := tCase(t, map[string]string{"zone-a": "1", "zone-b": "1"}, eps, nil, nil)
	get := func(node string) []string {
		var p ProxyPort
		_ = json.Unmarshal(res.Proxy["IPv4"][node].Ports["http/TCP"][0], &p)
		return p.Cluster
	}
	if got := canonical(get("node-0")); got != `["10.0.0.1:8080","10.0.0.3:8080"]` {
		t.Errorf("zone-a node: %s", got)
	}
	if got := canonical(get(syntheticZonePrefix + "zone-b")); got != `["10.0.0.2:8080"]` {
		t.Errorf("zone-b node: %s", got)
	}
	if got := get(syntheticZonelessNode); len(got) != 3 {
		t.Errorf("zone-less node: %v, want all", got)
	}
}

// The generator is deterministic per (seed, index) and its dumps decode.
func TestGeneratorDeterministicAndDecodable(t *testing.T) {
	for i := uint64(0); i < 200; i++ {
		a, b := GenerateCase(7, i), GenerateCase(7, i)
		if canonical(a) != canonical(b) {
			t.Fatalf("case %d differs between two generations", i)
		}
		if _, err := DecodeDump(a.Dump); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
	}
}

// Every regressions/*.json of a version this build models runs without error (and is a valid
// case for the Rust comparison); the others belong to an older line (legacy/), which the Rust
// comparison runs them on.
func TestRegressionFixturesRun(t *testing.T) {
	files, err := filepath.Glob("regressions/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		c, err := readCaseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseBehaviour(c.K8sVersion); err != nil {
			continue
		}
		if res := RunCase(c); res.Error != "" || len(res.Outcomes) == 0 {
			t.Errorf("%s: error %q, %d outcomes", f, res.Error, len(res.Outcomes))
		}
	}
}
