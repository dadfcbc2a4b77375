//! Expected share of requests that leave their zone, from kube-proxy's routing (docs/behaviour.md#kube-proxy).
//!
//! Model, stated so it can be argued with:
//! * Requests originate per zone in proportion to the zone's CPU (allocatable CPU of the nodes the
//!   controller counts — its own assumption in `SetNodes`), or as given by `--traffic`.
//! * Within a zone they originate per node in proportion to node CPU (the same assumption one level
//!   down), over the nodes the controller counts ([`is_counted`]: Ready, not control-plane) with
//!   CPU > 0; a zone with no such node spreads its share evenly over the nodes carrying its label.
//! * kube-proxy on a node sends ClusterIP requests uniformly over the endpoint set
//!   [`crate::core::proxy::proxy_view`] gives for that node (the routing truth); an empty set drops
//!   them. An endpoint without a zone (and whose node has none) counts as cross-zone.

use std::collections::BTreeMap;

use crate::core::proxy::{Grouped, ProxyNodes, grouped};
use crate::core::zones::{NodeTopology, is_counted, node_zone};
use crate::model::{Behaviour, EndpointSlice, Node, Service};
use crate::report::CrossZone;

mod assemble;
mod route;
use assemble::assemble;
use route::{Dests, route};

/// Where requests originate.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum TrafficModel {
    /// In proportion to zone CPU.
    #[default]
    ZoneCpu,
    /// Relative weights per zone (`--traffic zone=weight,…`); zones without nodes are ignored.
    Given(BTreeMap<String, f64>),
}

/// Zones named by `--traffic` that no node carries (their requests could not be placed).
pub fn unknown_zones(model: &TrafficModel, nodes: &[Node]) -> Vec<String> {
    match model {
        TrafficModel::ZoneCpu => vec![],
        TrafficModel::Given(given) => given
            .keys()
            .filter(|zone| !nodes.iter().any(|n| node_zone(n) == Some(zone.as_str())))
            .cloned()
            .collect(),
    }
}

/// A node's share of all requests: (node, zone, fraction).
type Origin = (String, String, f64);

/// Zone shares of requests (sum 1), zones sorted.
fn zone_shares(nodes: &[Node], topology: &NodeTopology, model: &TrafficModel) -> BTreeMap<String, f64> {
    let weights: BTreeMap<String, f64> = match model {
        TrafficModel::ZoneCpu => {
            topology.zone_cpu().map(|(zone, millis)| (zone.clone(), millis as f64)).collect()
        }
        TrafficModel::Given(given) => given
            .iter()
            .filter(|(zone, w)| **w > 0.0 && nodes.iter().any(|n| node_zone(n) == Some(zone.as_str())))
            .map(|(zone, w)| (zone.clone(), *w))
            .collect(),
    };
    let total: f64 = weights.values().sum();
    weights.into_iter().map(|(zone, w)| (zone, w / total)).collect()
}

/// Every node's share of all requests (module docs).
pub fn origins(nodes: &[Node], topology: &NodeTopology, model: &TrafficModel) -> Vec<Origin> {
    let mut by_zone: BTreeMap<&str, Vec<&Node>> = BTreeMap::new();
    for node in nodes {
        if let Some(zone) = node_zone(node) {
            by_zone.entry(zone).or_default().push(node);
        }
    }
    let mut out = Vec::new();
    for (zone, share) in zone_shares(nodes, topology, model) {
        let members: Vec<&Node> = by_zone.get(zone.as_str()).cloned().unwrap_or_default();
        let cpu: Vec<(&Node, f64)> = members
            .iter()
            .filter(|n| is_counted(n))
            .map(|n| (*n, cpu_of(n)))
            .filter(|(_, c)| *c > 0.0)
            .collect();
        let total: f64 = cpu.iter().map(|(_, c)| c).sum();
        if total > 0.0 {
            out.extend(cpu.into_iter().map(|(n, c)| (n.name.clone(), zone.clone(), share * c / total)));
        } else {
            let each = share / members.len() as f64;
            out.extend(members.into_iter().map(|n| (n.name.clone(), zone.clone(), each)));
        }
    }
    out
}

fn cpu_of(node: &Node) -> f64 {
    node.allocatable_cpu.map_or(0.0, |c| c.milli_value() as f64)
}

/// Every node's share of requests, summed per row and per (zone, Windows) class of the sorted
/// nodes once per run, so routing a Service visits groups rather than every node.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    list: Vec<Origin>,
    /// Origin zones, sorted.
    zones: Vec<String>,
    /// Requests originating in each zone.
    zone_totals: Vec<f64>,
    /// Per row: (zone id, requests) of the origins on that node.
    by_row: Vec<Vec<(usize, f64)>>,
    /// Per class: (zone id, requests, rows with requests from that zone) summed over its rows.
    by_class: Vec<Vec<(usize, f64, usize)>>,
    /// Origins whose node has no row (their requests are dropped).
    unplaced: Vec<(usize, f64)>,
}

/// Adds `weight` to the entry of `zone` (the lists hold one or two zones).
fn add_to(list: &mut Vec<(usize, f64)>, zone: usize, weight: f64) {
    match list.iter_mut().find(|(z, _)| *z == zone) {
        Some((_, w)) => *w += weight,
        None => list.push((zone, weight)),
    }
}

impl Origins {
    /// [`origins`], indexed.
    pub fn new(nodes: &[Node], topology: &NodeTopology, model: &TrafficModel, rows: &ProxyNodes) -> Self {
        let list = origins(nodes, topology, model);
        let mut zones: Vec<String> = list.iter().map(|o| o.1.clone()).collect();
        zones.dedup();
        let mut zone_totals = vec![0.0; zones.len()];
        let mut by_row = vec![Vec::new(); rows.len()];
        let mut unplaced = Vec::new();
        for (name, zone, weight) in &list {
            // `list` runs zone by zone in name order, so `zones` is sorted.
            let z = zones.binary_search(zone).unwrap_or(0);
            zone_totals[z] += weight;
            match rows.row(name) {
                Some(row) => add_to(&mut by_row[row], z, *weight),
                None => unplaced.push((z, *weight)),
            }
        }
        let mut by_class: Vec<Vec<(usize, f64, usize)>> = vec![Vec::new(); rows.classes()];
        for (row, entries) in by_row.iter().enumerate() {
            let class = &mut by_class[rows.class_of(row)];
            for &(z, w) in entries {
                match class.iter_mut().find(|(x, _, _)| *x == z) {
                    Some((_, sum, n)) => (*sum, *n) = (*sum + w, *n + 1),
                    None => class.push((z, w, 1)),
                }
            }
        }
        Origins { list, zones, zone_totals, by_row, by_class, unplaced }
    }

    /// Requests per group of `view`: (group, zone id, requests). A class some of whose rows are
    /// named sends the rest as its group: its total less the named rows' requests, one step per
    /// named row rather than a pass over every member (a zone of 10,000 nodes, for each Service
    /// with node hints, was nodes × Services). Equal to the sum over the other rows up to rounding.
    fn per_group(&self, view: &Grouped, nodes: &ProxyNodes) -> Vec<(usize, usize, f64)> {
        let named = view.named_rows();
        let mut named_in: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        named.iter().for_each(|&(row, _)| named_in.entry(nodes.class_of(row)).or_default().push(row));
        let mut sums: Vec<Vec<(usize, f64)>> = vec![Vec::new(); view.endpoints().len()];
        for (class, group) in view.class_groups().iter().enumerate() {
            let Some(g) = *group else { continue };
            let rows = named_in.get(&class).map_or(&[][..], Vec::as_slice);
            for &(z, total, count) in &self.by_class[class] {
                let of_named = rows.iter().flat_map(|&row| self.by_row[row].iter().filter(|e| e.0 == z));
                let (named_sum, named_count) = of_named.fold((0.0, 0), |(s, n), &(_, w)| (s + w, n + 1));
                // Only rows with requests from `z` count: none left means no entry, as before.
                if count > named_count {
                    add_to(&mut sums[g], z, if named_count == 0 { total } else { total - named_sum });
                }
            }
        }
        for &(row, g) in named {
            self.by_row[row].iter().for_each(|&(z, w)| add_to(&mut sums[g], z, w));
        }
        let groups = sums.into_iter().enumerate();
        groups.flat_map(|(g, list)| list.into_iter().map(move |(z, w)| (g, z, w))).collect()
    }
}

fn without_hints(slices: &[&EndpointSlice]) -> Vec<EndpointSlice> {
    let mut out: Vec<EndpointSlice> = slices.iter().map(|s| (*s).clone()).collect();
    out.iter_mut().flat_map(|s| &mut s.endpoints).for_each(|e| e.hints = None);
    out
}

/// Inputs of one family's cross-zone computation.
pub struct CrossZoneInput<'a> {
    /// The Service.
    pub service: &'a Service,
    /// All nodes, sorted and indexed.
    pub nodes: &'a ProxyNodes,
    /// Where requests originate ([`Origins::new`] over the same nodes and traffic model).
    pub origins: &'a Origins,
    /// `SetNodes` over them.
    pub topology: &'a NodeTopology,
    /// Behaviour modelled.
    pub behaviour: Behaviour,
    /// Traffic model.
    pub model: &'a TrafficModel,
    /// The family's slices today (any manager).
    pub now: &'a [&'a EndpointSlice],
    /// The family's slices after the controller's next sync.
    pub expected: &'a [&'a EndpointSlice],
    /// Everything `explain` shows; without it (`check`) only `overall.now` and `overall.expected`
    /// are computed, the rest of the [`CrossZone`] left empty.
    pub detail: bool,
    /// Without `detail`, `overall.without_hints` too (`serve` shows it); no effect with `detail`.
    pub without_hints: bool,
}

/// The cross-zone share; None when kube-proxy does not proxy the Service, nodes are unknown, or no
/// zone originates requests.
pub fn cross_zone(input: &CrossZoneInput<'_>) -> Option<CrossZone> {
    if input.origins.list.is_empty() || input.nodes.is_empty() {
        return None;
    }
    let dests = Dests::new(input.now, input.nodes);
    let routed = |slices: &[&EndpointSlice]| {
        let view = grouped(input.service, slices, input.nodes, input.behaviour).ok()?;
        Some(route(&view, input.nodes, input.origins, &dests, input.detail))
    };
    let now = routed(input.now)?;
    // The same slices route the same way: most Services have no hints, or keep the ones they have.
    let other = if same_slices(input.now, input.expected) { None } else { Some(routed(input.expected)?) };
    let expected = other.as_ref().unwrap_or(&now);
    let unhinted = |wanted: bool| {
        let hinted = wanted && input.now.iter().flat_map(|s| &s.endpoints).any(|e| e.hints.is_some());
        if hinted {
            routed(&without_hints(input.now).iter().collect::<Vec<_>>()).map(Some)
        } else {
            Some(None)
        }
    };
    if !input.detail {
        let unhinted = unhinted(input.without_hints)?;
        let bare = input.without_hints.then(|| unhinted.as_ref().unwrap_or(&now));
        return Some(assemble::overall_only(input.model, &now, expected, bare));
    }
    let unhinted = unhinted(true)?;
    let bare = unhinted.as_ref().unwrap_or(&now);
    Some(assemble(input.model, &input.origins.zones, &dests, [&now, expected, bare]))
}

/// The same slices in the same order (kube-proxy's merge of duplicate endpoints reads the order):
/// the very same slice is not compared endpoint by endpoint.
fn same_slices(a: &[&EndpointSlice], b: &[&EndpointSlice]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y) || x == y)
}
