//! The Node margin: inverts `SetNodes` (which Nodes count, their CPU summed per zone,
//! `topologycache.go`) and `getAllocations` over one Node added to or removed from a zone, for
//! every allocatable CPU a counted Node has in the cluster (docs/stability.md#nodes).
//!
//! An added Node is a Ready worker (not control-plane) of that CPU; a removed one is a counted Node
//! of that CPU in that zone. Removing a zone's last counted Node takes the zone out of the ratios;
//! with fewer than two zones left `SetNodes` leaves them nil and hints go.

use std::collections::{BTreeMap, BTreeSet};

use super::CpuState;
use crate::core::zones::{NodeTopology, exclusion, node_zone};
use crate::model::{CpuAmount, Node};
use crate::report::stability::{NodeChange, NodeFlip};

/// Distinct allocatable CPU of the counted, zoned Nodes with CPU, per zone: computed once per
/// cluster ([`sizes_by_zone`]) and shared by every Service's margin.
pub type NodeSizes = BTreeMap<String, BTreeSet<CpuAmount>>;

/// Every single-Node change that flips the verdict, and how many were examined.
pub fn node_flips(
    topology: &NodeTopology,
    present: &NodeSizes,
    n: i64,
    zoneless: i64,
) -> (Vec<NodeFlip>, usize) {
    let Some(state) = CpuState::of(topology) else { return (Vec::new(), 0) };
    let today = state.holds(n, zoneless);
    let sizes: BTreeSet<CpuAmount> = present.values().flatten().copied().collect();
    let mut flips = Vec::new();
    let mut examined = 0;
    for (zone, cpu) in topology.counted_zones() {
        for size in &sizes {
            examined += 1;
            if changed(topology, zone, cpu.cpu + *size, false).holds(n, zoneless) != today {
                flips.push(flip(zone, size, NodeChange::Added, false));
            }
        }
        for size in present.get(zone).into_iter().flatten() {
            examined += 1;
            let leaves = cpu.nodes_counted == 1;
            let rest = CpuAmount::from_nanos(cpu.cpu.nanos() - size.nanos());
            if changed(topology, zone, rest, leaves).holds(n, zoneless) != today {
                flips.push(flip(zone, size, NodeChange::Removed, leaves));
            }
        }
    }
    (flips, examined)
}

fn flip(zone: &str, size: &CpuAmount, change: NodeChange, zone_leaves: bool) -> NodeFlip {
    NodeFlip { zone: zone.to_string(), cpu: size.to_string(), change, zone_leaves }
}

/// [`NodeSizes`] of `nodes`.
pub fn sizes_by_zone(nodes: &[Node]) -> NodeSizes {
    let mut out = NodeSizes::new();
    for node in nodes.iter().filter(|node| exclusion(node).is_none()) {
        if let (Some(zone), Some(cpu)) = (node_zone(node), node.allocatable_cpu.filter(|c| !c.is_zero())) {
            out.entry(zone.to_string()).or_default().insert(cpu);
        }
    }
    out
}

// mirrors topologycache.go: SetNodes, with one zone's CPU sum replaced.
/// The CPU state after zone `zone`'s exact CPU becomes `cpu` (or the zone leaves): the zone's and
/// the total's milli-CPU rounded up as `SetNodes` rounds them. Fewer than two zones: no zones at
/// all, which every check of `getAllocations` refuses as the nil ratios are refused.
fn changed(topology: &NodeTopology, zone: &str, cpu: CpuAmount, leaves: bool) -> CpuState {
    let before = topology.zones.get(zone).map(|z| z.cpu).unwrap_or_default();
    let total = CpuAmount::from_nanos(topology.total_cpu.nanos() - before.nanos() + cpu.nanos());
    let mut zones: BTreeMap<String, i64> =
        topology.counted_zones().map(|(z, c)| (z.clone(), c.cpu_millis)).collect();
    if leaves {
        zones.remove(zone);
    } else {
        zones.insert(zone.to_string(), cpu.milli_value());
    }
    if zones.len() < 2 {
        zones.clear();
    }
    CpuState { zones, total: total.milli_value() }
}
