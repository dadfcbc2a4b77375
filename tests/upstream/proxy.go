package main

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/version"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	kproxy "k8s.io/kubernetes/pkg/proxy"

	// Registers the kube feature gates (PreferSameTrafficDistribution, ...) in
	// utilfeature.DefaultMutableFeatureGate, as kube-proxy's main does.
	_ "k8s.io/kubernetes/pkg/features"
)

// Synthetic kube-proxy nodes added to the dump's own Nodes: one without a zone label, and one per
// zone seen anywhere in the case (node labels, endpoint zones, zone hints) that hosts no endpoint.
const (
	syntheticZonelessNode = "oracle-zoneless"
	syntheticZonePrefix   = "oracle-in-"
)

// ProxyPort is CategorizeEndpoints' answer for one service port on one node: endpoint strings
// ("ip:port"), sorted; null when the service never uses that policy's list.
type ProxyPort struct {
	Cluster      []string `json:"cluster"`
	Local        []string `json:"local"`
	AllReachable []string `json:"allReachable"`
	HasAny       bool     `json:"hasAny"`
}

type proxyNode struct {
	name string
	zone *string
}

// setProxyGates sets the process-wide feature gates kube-proxy reads to the defaults of the
// modelled version. Only PreferSameTrafficDistribution matters here (1.33 alpha/off: forNodes
// are ignored, endpointslicecache.go); this uses the gate's own versioned spec via emulation version.
func setProxyGates(b Behaviour) error {
	emulate := b.Minor
	if emulate > maxMinor {
		emulate = maxMinor
	}
	v := version.MustParse(fmt.Sprintf("1.%d", emulate))
	if utilfeature.DefaultMutableFeatureGate.EmulationVersion().EqualTo(v) {
		return nil
	}
	return utilfeature.DefaultMutableFeatureGate.SetEmulationVersion(v)
}

func proxyNodes(c *Cluster) []proxyNode {
	var nodes []proxyNode
	zones := sets.New[string]()
	for _, n := range c.Nodes {
		pn := proxyNode{name: n.Name}
		if z, ok := n.Labels[corev1.LabelTopologyZone]; ok {
			pn.zone = &z
			zones.Insert(z)
		}
		nodes = append(nodes, pn)
	}
	for _, s := range c.Slices {
		for _, ep := range s.Endpoints {
			if ep.Zone != nil {
				zones.Insert(*ep.Zone)
			}
			if ep.Hints != nil {
				for _, z := range ep.Hints.ForZones {
					zones.Insert(z.Name)
				}
			}
		}
	}
	nodes = append(nodes, proxyNode{name: syntheticZonelessNode})
	for _, z := range sets.List(zones) {
		z := z
		nodes = append(nodes, proxyNode{name: syntheticZonePrefix + z, zone: &z})
	}
	return nodes
}

func endpointStrings(eps []kproxy.Endpoint) []string {
	if eps == nil {
		return nil
	}
	out := make([]string, 0, len(eps))
	for _, ep := range eps {
		out = append(out, ep.String())
	}
	sort.Strings(out)
	return out
}

// ProxyKey names one (family, node, port) cell of the kube-proxy results.
type proxyKey struct{ family, node, port string }

// runProxy asks the real kube-proxy code, for each IP family and node, which endpoints each
// service port uses: the Service goes through ServiceChangeTracker/ServicePortMap, every
// EndpointSlice of the namespace through EndpointsChangeTracker/EndpointsMap (the real
// endpointslicecache merge, including its map-order duplicate handling), then
// CategorizeEndpoints with the node's zone label (k8s.io/kubernetes@v1.36.3 pkg/proxy/topology.go).
func runProxy(c *Cluster, nodes []proxyNode, into map[proxyKey]outcomeSet) {
	for _, family := range []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol} {
		sct := kproxy.NewServiceChangeTracker(family, nil, nil)
		sct.Update(nil, c.Service)
		spm := make(kproxy.ServicePortMap)
		spm.Update(sct)
		if len(spm) == 0 {
			continue
		}
		for _, n := range nodes {
			ect := kproxy.NewEndpointsChangeTracker(family, n.name, nil, nil)
			for _, s := range c.Slices {
				if s.Namespace == c.Service.Namespace {
					ect.EndpointSliceUpdate(s, false)
				}
			}
			em := make(kproxy.EndpointsMap)
			em.Update(ect)
			labels := map[string]string{}
			if n.zone != nil {
				labels[corev1.LabelTopologyZone] = *n.zone
			}
			for spn, info := range spm {
				cluster, local, all, hasAny := kproxy.CategorizeEndpoints(em[spn], info, n.name, labels)
				k := proxyKey{family: string(family), node: n.name, port: fmt.Sprintf("%s/%s", spn.Port, spn.Protocol)}
				if into[k] == nil {
					into[k] = outcomeSet{}
				}
				into[k].add(ProxyPort{
					Cluster:      endpointStrings(cluster),
					Local:        endpointStrings(local),
					AllReachable: endpointStrings(all),
					HasAny:       hasAny,
				})
			}
		}
	}
}
