//go:build oracle121 || oracle123 || oracle125 || oracle126 || oracle129 || oracle130 || oracle132

package main

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	kproxy "k8s.io/kubernetes/pkg/proxy"
)

// kube-proxy of this line, linked for real, as ../proxy.go runs the 1.36 one: the Service through
// ServiceChangeTracker/ServicePortMap, every EndpointSlice of the namespace through the line's
// endpoints change tracker/EndpointsMap (the real endpointslicecache merge), then
// CategorizeEndpoints(endpoints, svcInfo, nodeLabels) — no node name before 1.33.

const (
	syntheticZonelessNode = "oracle-zoneless"
	syntheticZonePrefix   = "oracle-in-"
)

// ProxyPort is CategorizeEndpoints' answer for one service port on one node.
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

type proxyKey struct{ family, node, port string }

func proxyNodes(c *Cluster) []proxyNode {
	var nodes []proxyNode
	zones := map[string]bool{}
	for _, n := range c.Nodes {
		pn := proxyNode{name: n.Name}
		if z, ok := n.Labels[corev1.LabelTopologyZone]; ok {
			pn.zone = &z
			zones[z] = true
		}
		nodes = append(nodes, pn)
	}
	for _, s := range c.Slices {
		for _, ep := range s.Endpoints {
			if ep.Zone != nil {
				zones[*ep.Zone] = true
			}
			if ep.Hints != nil {
				for _, z := range ep.Hints.ForZones {
					zones[z.Name] = true
				}
			}
		}
	}
	nodes = append(nodes, proxyNode{name: syntheticZonelessNode})
	sorted := make([]string, 0, len(zones))
	for z := range zones {
		sorted = append(sorted, z)
	}
	sort.Strings(sorted)
	for _, z := range sorted {
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

func runProxy(c *Cluster, nodes []proxyNode, into map[proxyKey]outcomeSet) {
	for _, family := range []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol} {
		spm := servicePorts(family, c.Service)
		if len(spm) == 0 {
			continue
		}
		for _, n := range nodes {
			em := endpointsMap(family, n.name, c)
			labels := map[string]string{}
			if n.zone != nil {
				labels[corev1.LabelTopologyZone] = *n.zone
			}
			for spn, info := range spm {
				cluster, local, all, hasAny := categorizeEndpoints(em[spn], info, labels)
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
