package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/endpointslice/topologycache"
)

// The generator: seeded random cluster dumps biased towards the edges of the hint algorithms
// (docs/behaviour.md). Case i of seed S uses its own PCG stream (S, i), so any case can be
// regenerated alone: `oracle gen --seed S --start i --count 1`.

var zonePool = []string{"zone-a", "zone-b", "zone-c", "zone-d", "zone-e", "zone-f", "us-east-1a", "eu-west-3c", "Zone-A", "z", "a.b_c-d"}

// ratioSets are CPU weights per zone that hit known float and tie edges (docs/behaviour.md#floating-point, W1-W12).
var ratioSets = [][]int{{1, 1}, {1, 4}, {2, 3}, {3, 1}, {1, 2}, {2, 1, 1}, {1, 1, 1}, {5, 4, 1}, {1, 1, 1, 1}, {3, 3, 2}, {1, 1, 1, 1, 1}, {1, 2, 3, 4, 5, 6}, {7, 3}, {1, 1, 2}}

const kFactor = 1 / (1 + 0.2)

type genEndpoint struct {
	zone        *string
	node        *string
	ready       *bool
	serving     *bool
	terminating *bool
	slice       int
	dupOf       int // -1, or index of the endpoint whose address this one reuses
}

type generator struct {
	r      *rand.Rand
	seed   uint64
	index  uint64
	zones  []string
	cpu    map[string]int64 // milli per worker zone (target)
	nodes  []*corev1.Node
	cpuStr map[string]string // node name -> CPU text as written in the dump ("" = absent)
	byZone map[string][]string
	svc    *corev1.Service
}

func (g *generator) p(prob float64) bool { return g.r.Float64() < prob }

func (g *generator) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func ptr[T any](v T) *T { return &v }

// GenerateCase returns case number index of seed.
func GenerateCase(seed, index uint64) *Case {
	g := &generator{r: rand.New(rand.NewPCG(seed, index)), seed: seed, index: index, cpu: map[string]int64{}, cpuStr: map[string]string{}, byZone: map[string][]string{}}
	// 70 % the build's default line, the rest spread over the versions it models.
	version := fmt.Sprintf("1.%d", defaultMinor)
	if g.p(0.3) {
		version = fmt.Sprintf("1.%d", minMinor+g.r.IntN(maxMinor-minMinor+1))
	}
	g.genZonesAndNodes()
	g.genService()
	var slices []*discovery.EndpointSlice
	eps := g.genEndpoints()
	nSlices := 1 + g.r.IntN(4)
	for i := range eps {
		eps[i].slice = g.r.IntN(nSlices)
	}
	if g.p(0.3) { // zone-sorted slices, like a controller that packed by pod order
		for i := range eps {
			if eps[i].zone != nil {
				eps[i].slice = int(hashString(*eps[i].zone) % uint64(nSlices))
			}
		}
	}
	for _, at := range g.families() {
		slices = append(slices, g.slicesFor(at, eps, nSlices)...)
	}
	if g.p(0.04) { // an FQDN slice of the Service: never read
		s := g.newSlice(discovery.AddressTypeFQDN, "fqdn")
		s.Endpoints = []discovery.Endpoint{{Addresses: []string{"pod.example.internal"}, Conditions: discovery.EndpointConditions{Ready: ptr(true)}}}
		slices = append(slices, s)
	}
	g.applyHints(slices)
	return &Case{ID: fmt.Sprintf("gen-%d-%d", seed, index), K8sVersion: version, Runs: DefaultRuns, Dump: g.dump(slices)}
}

func hashString(s string) uint64 {
	var h uint64 = 1469598103934665603
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

func (g *generator) genZonesAndNodes() {
	nz := 1 + g.r.IntN(6)
	if g.p(0.5) {
		nz = 2 + g.r.IntN(2)
	}
	perm := g.r.Perm(len(zonePool))
	for i := 0; i < nz; i++ {
		g.zones = append(g.zones, zonePool[perm[i]])
	}
	var weights []int
	var candidates [][]int
	for _, rs := range ratioSets {
		if len(rs) == nz {
			candidates = append(candidates, rs)
		}
	}
	if len(candidates) > 0 && g.p(0.7) {
		weights = candidates[g.r.IntN(len(candidates))]
	} else {
		for i := 0; i < nz; i++ {
			weights = append(weights, 1+g.r.IntN(8))
		}
	}
	units := []int64{100, 250, 500, 1000, 1500, 2000, 4000, 8000}
	unit := units[g.r.IntN(len(units))]
	if g.p(0.03) {
		return // no nodes at all
	}
	total := 0
	for zi, z := range g.zones {
		g.cpu[z] = int64(weights[zi]) * unit
		// split the zone's CPU over 1..k nodes; k bounded so the dump stays ≤ 40 nodes
		k := 1 + g.r.IntN(4)
		if g.p(0.1) {
			k = 1 + g.r.IntN(8)
		}
		if total+k > 34 {
			k = 1
		}
		parts := splitMilli(g.r, g.cpu[z], k)
		for _, m := range parts {
			g.addNode(ptr(z), m, "True", nil)
			total++
		}
	}
	// control-plane nodes: ignored by SetNodes whatever their zone/CPU (hasExcludedLabels)
	if g.p(0.3) {
		for i := 0; i < 1+g.r.IntN(2); i++ {
			zone := g.someZone(true)
			labels := map[string]string{}
			if g.p(0.7) {
				labels["node-role.kubernetes.io/control-plane"] = ""
			} else {
				labels["node-role.kubernetes.io/master"] = g.pick("", "true")
			}
			g.addNode(zone, g.r.Int64N(4000), "True", labels)
		}
	}
	// not-ready nodes (False, Unknown, or no Ready condition): ignored by SetNodes
	if g.p(0.3) {
		for i := 0; i < 1+g.r.IntN(2); i++ {
			g.addNode(g.someZone(true), 1+g.r.Int64N(4000), g.pick("False", "Unknown", ""), nil)
		}
	}
	// a Ready worker that breaks the ratios: no zone, empty zone, beta label only, zero or no CPU
	if g.p(0.08) {
		switch g.r.IntN(5) {
		case 0:
			g.addNode(nil, 1000, "True", nil)
		case 1:
			g.addNode(ptr(""), 1000, "True", nil)
		case 2:
			g.addNode(nil, 1000, "True", map[string]string{"failure-domain.beta.kubernetes.io/zone": g.zones[0]})
		case 3:
			g.addNode(ptr(g.zones[0]), 0, "True", nil)
		case 4:
			g.addNode(ptr(g.zones[0]), -1, "True", nil)
		}
	}
}

// someZone returns a worker zone, a fresh zone with no workers ("sink"), or none.
func (g *generator) someZone(allowNone bool) *string {
	switch x := g.r.Float64(); {
	case x < 0.6:
		return ptr(g.zones[g.r.IntN(len(g.zones))])
	case x < 0.85:
		return ptr("zone-sink")
	default:
		if allowNone {
			return nil
		}
		return ptr("zone-sink")
	}
}

func splitMilli(r *rand.Rand, total int64, k int) []int64 {
	if k <= 1 || total < int64(k) {
		return []int64{total}
	}
	parts := make([]int64, k)
	remaining := total
	for i := 0; i < k-1; i++ {
		maxPart := remaining - int64(k-1-i)
		v := int64(1)
		if maxPart > 1 {
			v = 1 + r.Int64N(maxPart)
		}
		if r.IntN(2) == 0 { // prefer round numbers
			v = (v / 100) * 100
			if v == 0 {
				v = 1
			}
		}
		if v > maxPart {
			v = maxPart
		}
		parts[i] = v
		remaining -= v
	}
	parts[k-1] = remaining
	return parts
}

// cpuText writes milli CPU in one of the forms Kubernetes accepts: "2", "1500m", "0.5",
// "1.25", "100u", "15e-1". A zero or negative milli means "0" or absent respectively.
func (g *generator) cpuText(milli int64) string {
	if milli < 0 {
		return ""
	}
	if milli == 0 {
		return g.pick("0", "0m", "0.0")
	}
	if g.p(0.08) { // sub-milli precision: exact sums, rounded up only per zone (SetNodes: MilliValue of the sums)
		return fmt.Sprintf("%du", milli*1000-int64(g.r.IntN(999)))
	}
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("%dm", milli)
	case 1:
		if milli%1000 == 0 {
			return fmt.Sprintf("%d", milli/1000)
		}
		s := strings.TrimRight(fmt.Sprintf("%d.%03d", milli/1000, milli%1000), "0")
		return s
	case 2:
		return fmt.Sprintf("%du", milli*1000)
	default:
		if milli%100 == 0 && g.p(0.3) {
			return fmt.Sprintf("%de-1", milli/100)
		}
		if milli%1000 == 0 {
			return fmt.Sprintf("%d", milli/1000)
		}
		return fmt.Sprintf("%dm", milli)
	}
}

func (g *generator) addNode(zone *string, milli int64, ready string, labels map[string]string) {
	name := fmt.Sprintf("node-%d", len(g.nodes))
	n := &corev1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
	}
	for k, v := range labels {
		n.Labels[k] = v
	}
	if zone != nil {
		n.Labels[corev1.LabelTopologyZone] = *zone
		if *zone != "" {
			g.byZone[*zone] = append(g.byZone[*zone], name)
		}
	}
	g.cpuStr[name] = g.cpuText(milli)
	if ready != "" {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionStatus(ready)}}
	}
	g.nodes = append(g.nodes, n)
}

func (g *generator) genService() {
	name := g.pick("svc", "web", "api")
	ns := g.pick("default", "prod")
	s := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name), Annotations: map[string]string{}},
		Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": name}, Type: corev1.ServiceTypeClusterIP},
	}
	if g.p(0.03) {
		s.Spec.Selector = nil
	}
	values := []string{"Auto", "auto", "Auto", "auto", "Auto", "auto", "Auto", "auto", "AUTO", " Auto", "Disabled", "disabled", "", "PreferZone", "aUto"}
	if g.p(0.3) {
		s.Annotations[corev1.DeprecatedAnnotationTopologyAwareHints] = values[g.r.IntN(len(values))]
	}
	if g.p(0.65) {
		s.Annotations[corev1.AnnotationTopologyMode] = values[g.r.IntN(len(values))]
	}
	switch x := g.r.Float64(); {
	case x < 0.4:
	case x < 0.6:
		s.Spec.TrafficDistribution = ptr(corev1.ServiceTrafficDistributionPreferClose)
	case x < 0.75:
		s.Spec.TrafficDistribution = ptr(corev1.ServiceTrafficDistributionPreferSameZone)
	case x < 0.9:
		s.Spec.TrafficDistribution = ptr(corev1.ServiceTrafficDistributionPreferSameNode)
	default:
		s.Spec.TrafficDistribution = ptr(g.pick("Unknown", "preferClose", "PreferSameRegion"))
	}
	switch x := g.r.Float64(); {
	case x < 0.55:
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	case x < 0.7:
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol}
	case x < 0.85:
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	case x < 0.9:
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol, corev1.IPv4Protocol}
	}
	headless := g.p(0.05)
	for _, f := range s.Spec.IPFamilies {
		ip := "10.96.0.10"
		if f == corev1.IPv6Protocol {
			ip = "fd00:10:96::a"
		}
		if headless {
			ip = corev1.ClusterIPNone
		}
		if len(s.Spec.ClusterIPs) == 0 || !headless {
			s.Spec.ClusterIPs = append(s.Spec.ClusterIPs, ip)
		}
	}
	if len(s.Spec.IPFamilies) == 0 { // legacy object without families (getAddressTypesForService)
		s.Spec.ClusterIPs = []string{g.pick("10.96.0.10", "fd00:10:96::a", corev1.ClusterIPNone)}
	}
	s.Spec.ClusterIP = s.Spec.ClusterIPs[0]
	s.Spec.Ports = []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}}
	if g.p(0.15) {
		s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(5353)})
	} else if g.p(0.1) {
		s.Spec.Ports[0].Name = ""
	}
	switch x := g.r.Float64(); {
	case x < 0.1 && s.Spec.ClusterIP != corev1.ClusterIPNone:
		s.Spec.Type = corev1.ServiceTypeNodePort
	case x < 0.15 && s.Spec.ClusterIP != corev1.ClusterIPNone:
		s.Spec.Type = corev1.ServiceTypeLoadBalancer
	case x < 0.17:
		s.Spec = corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com", Ports: s.Spec.Ports, TrafficDistribution: s.Spec.TrafficDistribution}
	}
	if s.Spec.Type == corev1.ServiceTypeNodePort || s.Spec.Type == corev1.ServiceTypeLoadBalancer {
		for i := range s.Spec.Ports {
			s.Spec.Ports[i].NodePort = int32(30000 + i)
		}
		if g.p(0.3) {
			s.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		} else {
			s.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
		}
	}
	if s.Spec.Type != corev1.ServiceTypeExternalName {
		if g.p(0.12) {
			s.Spec.InternalTrafficPolicy = ptr(corev1.ServiceInternalTrafficPolicyLocal)
		} else {
			s.Spec.InternalTrafficPolicy = ptr(corev1.ServiceInternalTrafficPolicyCluster)
		}
	}
	g.svc = s
}

// families returns the address types slices are generated for: the Service's, plus sometimes a
// stray family the Service does not have.
func (g *generator) families() []discovery.AddressType {
	var out []discovery.AddressType
	for _, f := range g.svc.Spec.IPFamilies {
		out = append(out, discovery.AddressType(f))
	}
	if len(out) == 0 {
		out = []discovery.AddressType{discovery.AddressTypeIPv4}
		if g.p(0.5) {
			out = append(out, discovery.AddressTypeIPv6)
		}
	}
	if len(out) == 1 && g.p(0.05) {
		if out[0] == discovery.AddressTypeIPv4 {
			out = append(out, discovery.AddressTypeIPv6)
		} else {
			out = append(out, discovery.AddressTypeIPv4)
		}
	}
	return out
}

// workerRatios mirrors SetNodes' ratio formula on the target CPU (for biasing only).
func (g *generator) workerRatios() []float64 {
	var total int64
	for _, z := range g.zones {
		total += g.cpu[z]
	}
	var out []float64
	for _, z := range g.zones {
		if total > 0 {
			out = append(out, float64(g.cpu[z])/float64(total))
		}
	}
	return out
}

func sumMin(ratios []float64, n int) int {
	s := 0
	for _, r := range ratios {
		s += int(math.Ceil(r * float64(n) * kFactor))
	}
	return s
}

// genEndpoints picks the number of ready endpoints with a bias to Σmin == n and its
// neighbours, places them near the CPU-proportional share with small perturbations (surplus and
// deficit near 0.5 and 1.0, ties), then adds non-ready, zone-less and foreign-zone endpoints.
func (g *generator) genEndpoints() []genEndpoint {
	ratios := g.workerRatios()
	n := g.r.IntN(1 + g.r.IntN(61))
	if len(ratios) >= 2 && g.p(0.6) {
		var exact, near []int
		for m := 1; m <= 60; m++ {
			switch d := sumMin(ratios, m) - m; {
			case d == 0:
				exact = append(exact, m)
			case d == 1 || d == -1:
				near = append(near, m)
			}
		}
		if len(exact) > 0 && g.p(0.6) {
			n = exact[g.r.IntN(len(exact))]
		} else if len(near) > 0 {
			n = near[g.r.IntN(len(near))]
		}
	}
	counts := map[string]int{}
	switch x := g.r.Float64(); {
	case x < 0.55 && len(ratios) == len(g.zones):
		assigned := 0
		for i, z := range g.zones {
			d := ratios[i] * float64(n)
			c := int(math.Floor(d))
			if g.p(0.5) {
				c = int(math.Ceil(d))
			}
			counts[z] = c
			assigned += c
		}
		for assigned > n {
			z := g.zones[g.r.IntN(len(g.zones))]
			if counts[z] > 0 {
				counts[z]--
				assigned--
			}
		}
		for assigned < n {
			counts[g.zones[g.r.IntN(len(g.zones))]]++
			assigned++
		}
		for k := g.r.IntN(4); k > 0; k-- { // move a few endpoints between zones
			a, b := g.zones[g.r.IntN(len(g.zones))], g.zones[g.r.IntN(len(g.zones))]
			if counts[a] > 0 {
				counts[a]--
				counts[b]++
			}
		}
	case x < 0.65:
		counts[g.zones[g.r.IntN(len(g.zones))]] = n // all in one zone (W12)
	default:
		for i := 0; i < n; i++ {
			counts[g.zones[g.r.IntN(len(g.zones))]]++
		}
	}
	var eps []genEndpoint
	add := func(zone *string, ready, serving, terminating *bool) {
		var node *string
		if zone != nil && len(g.byZone[*zone]) > 0 && g.p(0.95) {
			node = ptr(g.byZone[*zone][g.r.IntN(len(g.byZone[*zone]))])
		} else if g.p(0.5) {
			node = ptr(fmt.Sprintf("ghost-%d", g.r.IntN(3)))
		}
		eps = append(eps, genEndpoint{zone: zone, node: node, ready: ready, serving: serving, terminating: terminating, dupOf: -1})
	}
	for _, z := range g.zones {
		for i := 0; i < counts[z]; i++ {
			zone := ptr(z)
			if g.p(0.02) {
				zone = g.someZone(false) // a sink zone or a zone of control-plane nodes (W7)
			}
			if g.p(0.01) {
				zone = nil // zone-less ready endpoint (W6)
			}
			add(zone, ptr(true), ptr(true), ptr(false))
		}
	}
	if g.p(0.35) { // non-ready endpoints in all the condition mixes
		for k := 1 + g.r.IntN(4); k > 0 && len(eps) < 60; k-- {
			zone := g.someZone(true)
			switch g.r.IntN(6) {
			case 0:
				add(zone, ptr(false), ptr(false), ptr(false))
			case 1:
				add(zone, ptr(false), ptr(true), ptr(true)) // terminating but serving
			case 2:
				add(zone, ptr(false), ptr(false), ptr(true))
			case 3:
				add(zone, nil, nil, nil) // nil ready: ready for kube-proxy, not for the controller
			case 4:
				add(zone, ptr(true), nil, nil)
			default:
				add(zone, ptr(false), nil, ptr(false))
			}
		}
	}
	if g.p(0.05) && len(eps) < 60 {
		add(ptr(""), ptr(true), ptr(true), ptr(false)) // non-nil empty zone (only foreign slices)
	}
	g.r.Shuffle(len(eps), func(i, j int) { eps[i], eps[j] = eps[j], eps[i] })
	if len(eps) > 0 && g.p(0.1) { // duplicate endpoints (same address in two places)
		for k := 1 + g.r.IntN(2); k > 0 && len(eps) < 60; k-- {
			src := g.r.IntN(len(eps))
			d := eps[src]
			if d.dupOf < 0 {
				d.dupOf = src
			}
			if g.p(0.5) {
				d.ready, d.serving, d.terminating = ptr(false), ptr(true), ptr(true)
			}
			eps = append(eps, d)
		}
	}
	return eps
}

func address(at discovery.AddressType, i int) string {
	if at == discovery.AddressTypeIPv6 {
		return fmt.Sprintf("fd00:10:244::%x", i+1)
	}
	return fmt.Sprintf("10.244.%d.%d", (i+1)/250, (i+1)%250+1)
}

func (g *generator) newSlice(at discovery.AddressType, suffix string) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%s-%s", g.svc.Name, suffix),
			Namespace: g.svc.Namespace,
			Labels:    map[string]string{labelServiceName: g.svc.Name, labelManagedBy: controllerName},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: g.svc.Name,
				UID: g.svc.UID, Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
		},
		AddressType: at,
	}
	for _, p := range g.svc.Spec.Ports {
		s.Ports = append(s.Ports, discovery.EndpointPort{Name: ptr(p.Name), Port: ptr(p.TargetPort.IntVal), Protocol: ptr(p.Protocol)})
	}
	return s
}

func (g *generator) slicesFor(at discovery.AddressType, eps []genEndpoint, nSlices int) []*discovery.EndpointSlice {
	fam := "v4"
	if at == discovery.AddressTypeIPv6 {
		fam = "v6"
	}
	slices := make([]*discovery.EndpointSlice, nSlices)
	for i := range slices {
		slices[i] = g.newSlice(at, fmt.Sprintf("%s-%c%d", fam, 'a'+rune(g.r.IntN(26)), i))
		switch x := g.r.Float64(); {
		case x < 0.03:
			slices[i].Labels[labelManagedBy] = "endpointslicemirroring-controller.k8s.io"
		case x < 0.05:
			delete(slices[i].Labels, labelManagedBy)
		case x < 0.06:
			slices[i].Labels[labelServiceName] = "other"
		}
	}
	for i, e := range eps {
		addrIdx := i
		if e.dupOf >= 0 {
			addrIdx = e.dupOf
		}
		ep := discovery.Endpoint{
			Addresses:  []string{address(at, addrIdx)},
			Conditions: discovery.EndpointConditions{Ready: e.ready, Serving: e.serving, Terminating: e.terminating},
			NodeName:   e.node,
			Zone:       e.zone,
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: g.svc.Namespace, Name: fmt.Sprintf("%s-pod-%d", g.svc.Name, addrIdx)},
		}
		slice := e.slice
		if e.dupOf >= 0 && nSlices > 1 && g.p(0.7) {
			slice = (eps[e.dupOf].slice + 1) % nSlices
		}
		slices[slice].Endpoints = append(slices[slice].Endpoints, ep)
	}
	var out []*discovery.EndpointSlice
	for _, s := range slices {
		if len(s.Endpoints) > 0 || g.p(0.3) {
			out = append(out, s)
		}
	}
	return out
}

// applyHints gives the slices pre-existing hints, one profile per case with some per-endpoint
// noise: none, own zone, foreign, unknown zone, several zones, forNodes, empty forms, or the
// upstream fresh result itself (so that the steady run meets a state upstream would keep, W13).
func (g *generator) applyHints(slices []*discovery.EndpointSlice) {
	profile := g.pick("none", "none", "own", "own", "own", "upstream", "upstream", "foreign", "unknown", "multi", "nodes", "empty", "mixed")
	if profile == "upstream" {
		g.upstreamHints(slices)
		if g.p(0.7) {
			return
		}
		profile = "mixed" // perturb an upstream state a little
	}
	for _, s := range slices {
		for i := range s.Endpoints {
			ep := &s.Endpoints[i]
			prof := profile
			if prof == "mixed" {
				if g.p(0.8) {
					continue
				}
				prof = g.pick("none", "own", "foreign", "unknown", "multi", "nodes", "empty")
			} else if g.p(0.05) {
				prof = g.pick("none", "own", "foreign", "unknown", "multi", "nodes", "empty")
			}
			own := ""
			if ep.Zone != nil {
				own = *ep.Zone
			}
			switch prof {
			case "none":
				ep.Hints = nil
			case "own":
				if ep.Zone != nil {
					ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: own}}}
				}
			case "foreign":
				z := g.zones[g.r.IntN(len(g.zones))]
				ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: z}}}
			case "unknown":
				ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-gone"}}}
			case "multi":
				k := 2 + g.r.IntN(len(zonePool)-1)
				if k > 8 {
					k = 8
				}
				perm := g.r.Perm(len(zonePool))
				var fz []discovery.ForZone
				for _, p := range perm[:k] {
					fz = append(fz, discovery.ForZone{Name: zonePool[p]})
				}
				ep.Hints = &discovery.EndpointHints{ForZones: fz}
			case "nodes":
				h := &discovery.EndpointHints{}
				if ep.NodeName != nil {
					h.ForNodes = []discovery.ForNode{{Name: *ep.NodeName}}
				} else {
					h.ForNodes = []discovery.ForNode{{Name: "node-0"}}
				}
				if ep.Zone != nil && g.p(0.8) {
					h.ForZones = []discovery.ForZone{{Name: own}}
				}
				ep.Hints = h
			case "empty":
				if g.p(0.5) {
					ep.Hints = &discovery.EndpointHints{}
				} else {
					ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{}}
				}
			}
		}
	}
}

// upstreamHints writes what a fresh upstream AddHints would write, per family. AddHints itself is
// random (docs/behaviour.md#steady-state-and-ties): getMost breaks ties between zones by Go map
// order, which decides how many endpoints each zone gives or receives, and redistributeHints picks
// each moved endpoint's receiving zone by map order too. A case must be a pure function of (seed,
// index): canonicaliseMoves removes the second choice, and the generator runs AddHints until the
// smallest outcome has stood for 64 runs (at least 96 runs, at most 2,048), and keeps that one.
func (g *generator) upstreamHints(slices []*discovery.EndpointSlice) {
	nodes := make([]*corev1.Node, len(g.nodes))
	for i, n := range g.nodes {
		nodes[i] = g.withCPU(n)
	}
	var best []*discovery.EndpointSlice
	bestKey, bestRun := "", 0
	for run := 0; run < 2048 && (run < 96 || run-bestRun < 64); run++ {
		copies := g.upstreamRun(nodes, slices)
		if key := canonical(copies); best == nil || key < bestKey {
			best, bestKey, bestRun = copies, key, run
		}
	}
	for i := range slices {
		*slices[i] = *best[i]
	}
}

// upstreamRun is one fresh AddHints per family on copies of the slices.
func (g *generator) upstreamRun(nodes []*corev1.Node, slices []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	cache := topologycache.NewTopologyCache()
	cache.SetNodes(logr.Discard(), nodes)
	copies := make([]*discovery.EndpointSlice, len(slices))
	for i, s := range slices {
		copies[i] = s.DeepCopy()
	}
	for _, at := range []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6} {
		var fam []*discovery.EndpointSlice
		for _, s := range copies {
			if s.AddressType == at {
				fam = append(fam, s)
			}
		}
		if len(fam) > 0 {
			cache.AddHints(logr.Discard(), &topologycache.SliceInfo{ServiceKey: "gen/gen", AddressType: at, ToCreate: fam})
			canonicaliseMoves(fam)
		}
	}
	return copies
}

// canonicaliseMoves reassigns the moved endpoints (a single-zone hint naming another zone) as
// redistributeHints does when every map walk yields the receiving zones in sorted order: in slice
// order, each takes the smallest receiving zone that still has room.
func canonicaliseMoves(slices []*discovery.EndpointSlice) {
	var moved []*discovery.Endpoint
	room := map[string]int{}
	for _, s := range slices {
		for i := range s.Endpoints {
			ep := &s.Endpoints[i]
			if ep.Zone == nil || ep.Hints == nil || len(ep.Hints.ForZones) != 1 || ep.Hints.ForZones[0].Name == *ep.Zone {
				continue
			}
			moved = append(moved, ep)
			room[ep.Hints.ForZones[0].Name]++
		}
	}
	zones := make([]string, 0, len(room))
	for z := range room {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	next := 0
	for _, z := range zones {
		for n := 0; n < room[z]; n++ {
			moved[next].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: z}}}
			next++
		}
	}
}

func (g *generator) withCPU(n *corev1.Node) *corev1.Node {
	c := n.DeepCopy()
	if text := g.cpuStr[n.Name]; text != "" {
		c.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(text)}
	}
	return c
}

// dump renders the v1 List. Node CPU is spliced in as text so that the odd-but-valid forms
// ("1.25", "100u", "15e-1") reach the reader as written, not re-canonicalised.
func (g *generator) dump(slices []*discovery.EndpointSlice) json.RawMessage {
	var items []any
	for _, n := range g.nodes {
		meta := map[string]any{"name": n.Name, "labels": n.Labels}
		status := map[string]any{}
		if text := g.cpuStr[n.Name]; text != "" {
			status["allocatable"] = map[string]any{"cpu": text, "memory": "8Gi", "pods": "110"}
		}
		if len(n.Status.Conditions) > 0 {
			status["conditions"] = []any{map[string]any{"type": "Ready", "status": string(n.Status.Conditions[0].Status)}}
		}
		items = append(items, map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": meta, "status": status})
	}
	items = append(items, g.svc)
	for _, s := range slices {
		items = append(items, s)
	}
	raw, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		panic(err)
	}
	return raw
}
