//! Node filtering and zone CPU ratios: a port of `SetNodes` (`k8s.io/endpointslice`
//! `topologycache/topologycache.go`) as the EndpointSlice controller runs it over all Nodes
//! (`checkNodeTopologyDistribution`, k/k `endpointslice_controller.go`).
//!
//! Upstream stops at the first counted node without zone or CPU; we keep going so a report can
//! name every such node, and record which one upstream hits first (the first in input order).
//!
//! Also the one place that says which nodes the controller counts ([`exclusion`], [`is_counted`])
//! and what a node's zone is ([`node_zone`]): the cross-zone share and `simulate` use these rather
//! than restating them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{CpuAmount, LABEL_ZONE, Node, StrMap};
pub use crate::model::{LABEL_CONTROL_PLANE, LABEL_MASTER};

/// Zone CPU ratios as the topology cache holds them.
///
/// `Nil` is what `SetNodes` stores when node information is insufficient ("Insufficient Node
/// information"); `Map` with no entries is the state of a fresh cache before the first `SetNodes`
/// ("Nodes only ready in one zone", `NewTopologyCache`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Ratios {
    /// `cpuRatiosByZone == nil`.
    Nil,
    /// A non-nil map (possibly empty).
    Map(BTreeMap<String, f64>),
}

impl Ratios {
    /// The empty, non-nil map of a fresh cache (`NewTopologyCache`).
    pub fn initial() -> Self {
        Ratios::Map(BTreeMap::new())
    }
    /// The ratio map, or `None` for `Nil`.
    pub fn as_map(&self) -> Option<&BTreeMap<String, f64>> {
        match self {
            Ratios::Nil => None,
            Ratios::Map(map) => Some(map),
        }
    }
    /// Number of zones (`len(cpuRatiosByZone)`; 0 for `Nil`, as Go's `len(nil)`).
    pub fn len(&self) -> usize {
        self.as_map().map_or(0, BTreeMap::len)
    }
    /// True when there are no zones (`Nil` or empty map).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// CPU and node counts of one zone label value.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ZoneCpu {
    /// Every node carrying this zone label, including excluded and poisoning ones.
    pub nodes_total: usize,
    /// Nodes that pass both filters (not control-plane, Ready) and so enter the ratios
    /// (a zero-CPU node is counted here and also listed in `NodeTopology::poisoning`).
    pub nodes_counted: usize,
    /// Exact sum of the counted nodes' allocatable CPU.
    pub cpu: CpuAmount,
    /// `cpu` rounded up to whole milli-CPU (`Quantity.MilliValue()` of the sum).
    pub cpu_millis: i64,
}

/// Why a node is ignored by `SetNodes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExclusionReason {
    /// Carries `node-role.kubernetes.io/control-plane` or `.../master` (checked first).
    ControlPlane,
    /// Its `Ready` condition is absent or not `True`.
    NotReady,
}

/// A node `SetNodes` skips without effect on the ratios.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExcludedNode {
    /// Node name.
    pub name: String,
    /// Its non-empty zone label, if any.
    pub zone: Option<String>,
    /// Why it is skipped.
    pub why: ExclusionReason,
}

/// Why a counted node makes the ratios nil cluster-wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PoisonReason {
    /// Zone label absent or empty.
    MissingZone,
    /// Allocatable CPU absent or zero.
    MissingCpu,
    /// Both.
    MissingZoneAndCpu,
}

/// A counted node without zone or CPU: one such node disables hints for every Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoisonNode {
    /// Node name.
    pub name: String,
    /// What is missing.
    pub why: PoisonReason,
}

/// Why `SetNodes` left the ratios nil, most specific first (the order upstream would see it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Insufficient {
    /// The first poisoning node in input order: the one upstream logs and stops at.
    Poisoned {
        /// Its name.
        node: String,
        /// What is missing.
        why: PoisonReason,
    },
    /// Fewer than two zones among counted nodes.
    FewerThanTwoZones {
        /// Number of zones found.
        zones: usize,
    },
    /// Total CPU of counted nodes is zero (only possible with negative quantities).
    ZeroTotalCpu,
}

/// Everything `SetNodes` derives from the node list, plus what a report needs to explain it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeTopology {
    /// Per zone label value: node counts and CPU.
    pub zones: BTreeMap<String, ZoneCpu>,
    /// Nodes skipped by the control-plane or readiness filter, in input order.
    pub excluded: Vec<ExcludedNode>,
    /// Counted nodes without zone or CPU, in input order (`poisoning[0]` is upstream's).
    pub poisoning: Vec<PoisonNode>,
    /// Exact CPU total of counted nodes.
    pub total_cpu: CpuAmount,
    /// `total_cpu` rounded up to milli-CPU.
    pub total_cpu_millis: i64,
    /// The ratios the cache ends up with.
    pub ratios: Ratios,
    /// Why `ratios` is `Nil`; `None` when ratios were computed.
    pub insufficient: Option<Insufficient>,
}

// mirrors topologycache.go: SetNodes (filtering, sums and ratios).
/// Computes the zone CPU ratios exactly as `TopologyCache.SetNodes` does (docs/behaviour.md#nodes-and-zone-cpu-ratios).
pub fn set_nodes(nodes: &[Node]) -> NodeTopology {
    let mut topology = NodeTopology {
        zones: BTreeMap::new(),
        excluded: Vec::new(),
        poisoning: Vec::new(),
        total_cpu: CpuAmount::default(),
        total_cpu_millis: 0,
        ratios: Ratios::Nil,
        insufficient: None,
    };
    for node in nodes {
        account_node(&mut topology, node);
    }
    for zone in topology.zones.values_mut() {
        zone.cpu_millis = zone.cpu.milli_value();
    }
    topology.total_cpu_millis = topology.total_cpu.milli_value();
    topology.insufficient = insufficiency(&topology);
    if topology.insufficient.is_none() {
        topology.ratios = Ratios::Map(compute_ratios(&topology));
    }
    topology
}

/// Files one node under excluded, poisoning or counted.
fn account_node(topology: &mut NodeTopology, node: &Node) {
    let zone = node_zone(node).map(str::to_string);
    if let Some(zone) = &zone {
        topology.zones.entry(zone.clone()).or_default().nodes_total += 1;
    }
    if let Some(why) = exclusion(node) {
        topology.excluded.push(ExcludedNode { name: node.name.clone(), zone, why });
        return;
    }
    let cpu = node.allocatable_cpu.unwrap_or_default();
    let why = match (zone.is_none(), cpu.is_zero()) {
        (true, true) => Some(PoisonReason::MissingZoneAndCpu),
        (true, false) => Some(PoisonReason::MissingZone),
        (false, true) => Some(PoisonReason::MissingCpu),
        (false, false) => None,
    };
    if let Some(why) = why {
        topology.poisoning.push(PoisonNode { name: node.name.clone(), why });
    }
    if let Some(zone) = zone {
        let entry = topology.zones.entry(zone).or_default();
        entry.nodes_counted += 1;
        entry.cpu = entry.cpu + cpu;
        topology.total_cpu = topology.total_cpu + cpu;
    }
}

// mirrors topologycache.go: SetNodes, the `totalCPU.IsZero() || !sufficientNodeInfo || len(cpuByZone) < 2` test.
/// Why the ratios are nil, or `None` when they can be computed.
fn insufficiency(topology: &NodeTopology) -> Option<Insufficient> {
    if let Some(first) = topology.poisoning.first() {
        return Some(Insufficient::Poisoned { node: first.name.clone(), why: first.why });
    }
    let zones = topology.counted_zones().count();
    if zones < 2 {
        return Some(Insufficient::FewerThanTwoZones { zones });
    }
    if topology.total_cpu.is_zero() {
        return Some(Insufficient::ZeroTotalCpu);
    }
    None
}

impl NodeTopology {
    /// Zones that hold at least one counted node: the keys of upstream's `cpuByZone`.
    pub fn counted_zones(&self) -> impl Iterator<Item = (&String, &ZoneCpu)> {
        self.zones.iter().filter(|(_, zone)| zone.nodes_counted > 0)
    }

    /// Milli-CPU of each counted zone whose counted nodes have some: the weight `SetNodes` gives a
    /// zone, and so where the controller wants endpoints and requests are assumed to come from.
    pub fn zone_cpu(&self) -> impl Iterator<Item = (&String, i64)> {
        self.counted_zones()
            .filter(|(_, zone)| zone.cpu_millis > 0)
            .map(|(name, zone)| (name, zone.cpu_millis))
    }
}

/// `float64(cpu.MilliValue()) / float64(totalCPU.MilliValue())` per counted zone.
fn compute_ratios(topology: &NodeTopology) -> BTreeMap<String, f64> {
    let total = topology.total_cpu_millis as f64;
    topology.counted_zones().map(|(name, zone)| (name.clone(), zone.cpu_millis as f64 / total)).collect()
}

/// The node's zone label when present and non-empty (upstream: `!ok || zone == ""` is missing).
pub fn node_zone(node: &Node) -> Option<&str> {
    node.labels.get(LABEL_ZONE).map(String::as_str).filter(|zone| !zone.is_empty())
}

// mirrors topologycache.go: SetNodes, the two `continue`s that open its loop over nodes
// (`hasExcludedLabels`, then `!isNodeReady`).
/// Why `SetNodes` skips the node, or `None` when it counts it (its zone and CPU enter the ratios,
/// or poison them). The one definition of "a node the controller counts", which the cross-zone
/// share and `simulate` reuse.
pub fn exclusion(node: &Node) -> Option<ExclusionReason> {
    if has_excluded_labels(&node.labels) {
        Some(ExclusionReason::ControlPlane)
    } else if !is_node_ready(node) {
        Some(ExclusionReason::NotReady)
    } else {
        None
    }
}

/// True when `SetNodes` counts the node: no excluded role label, and Ready ([`exclusion`]).
pub fn is_counted(node: &Node) -> bool {
    exclusion(node).is_none()
}

// mirrors topologycache.go: hasExcludedLabels
/// True when the node carries an excluded role label, whatever its value.
fn has_excluded_labels(labels: &StrMap) -> bool {
    labels.contains_key(LABEL_CONTROL_PLANE) || labels.contains_key(LABEL_MASTER)
}

// mirrors utils.go: isNodeReady
/// True when the node's Ready condition is exactly `True`.
pub fn is_node_ready(node: &Node) -> bool {
    node.ready.as_deref() == Some("True")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excluded_labels_match_on_key_only() {
        let labels = |k: &str| StrMap::from([(k.to_string(), String::new())]);
        assert!(has_excluded_labels(&labels(LABEL_CONTROL_PLANE)));
        assert!(has_excluded_labels(&labels(LABEL_MASTER)));
        assert!(!has_excluded_labels(&labels("node-role.kubernetes.io/worker")));
        assert!(!has_excluded_labels(&StrMap::new()));
    }

    #[test]
    fn exclusion_checks_role_labels_before_readiness() {
        let node = |label: Option<&str>, ready: Option<&str>| Node {
            name: "n".into(),
            labels: label.map(|k| (k.to_string(), String::new())).into_iter().collect(),
            allocatable_cpu: None,
            ready: ready.map(str::to_string),
            kubelet_version: None,
        };
        assert_eq!(exclusion(&node(Some(LABEL_MASTER), Some("False"))), Some(ExclusionReason::ControlPlane));
        assert_eq!(exclusion(&node(None, Some("Unknown"))), Some(ExclusionReason::NotReady));
        assert_eq!(exclusion(&node(None, None)), Some(ExclusionReason::NotReady));
        assert!(is_counted(&node(Some("node-role.kubernetes.io/worker"), Some("True"))));
    }
}
