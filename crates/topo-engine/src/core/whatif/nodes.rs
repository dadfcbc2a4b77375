//! Node changes of `simulate` and whether the controller notices them (docs/behaviour.md#overload-recheck-and-requeue): a node add or
//! delete and a Ready flip recompute the zone weights (`SetNodes`); a change of allocatable CPU
//! alone does not.

use std::collections::BTreeSet;

use super::changes::{Changes, NewNode};
use super::error::{Misfit, SimulateError};
use crate::core::zones::{LABEL_CONTROL_PLANE, is_node_ready};
use crate::model::{LABEL_ZONE, Node};

/// The nodes after the change and what the controller sees of it.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeChange {
    /// Nodes afterwards, in input order, added ones last.
    pub nodes: Vec<Node>,
    /// Names of deleted nodes (their pods' endpoints disappear).
    pub removed: BTreeSet<String>,
    /// A node add/delete or Ready flip: `SetNodes` runs again.
    pub node_event: bool,
    /// Some allocatable CPU changed.
    pub cpu_changed: bool,
}

/// Apply the node changes; unknown names and zones without nodes are errors.
pub(crate) fn apply_nodes(nodes: &[Node], changes: &Changes) -> Result<NodeChange, SimulateError> {
    let mut out = NodeChange { nodes: nodes.to_vec(), ..NodeChange::default() };
    for name in &changes.remove_nodes {
        find(&out.nodes, name, "--remove-node")?;
        out.removed.insert(name.clone());
    }
    for zone in &changes.remove_zones {
        let members: Vec<String> = out
            .nodes
            .iter()
            .filter(|n| n.labels.get(LABEL_ZONE) == Some(zone))
            .map(|n| n.name.clone())
            .collect();
        if members.is_empty() {
            return Err(SimulateError(
                format!("--remove-zone {zone}: no node has {LABEL_ZONE}={zone}"),
                Misfit::Names,
            ));
        }
        out.removed.extend(members);
    }
    out.nodes.retain(|n| !out.removed.contains(&n.name));
    out.node_event = !out.removed.is_empty();
    for name in &changes.not_ready {
        let i = find(&out.nodes, name, "--not-ready")?;
        out.node_event |= is_node_ready(&out.nodes[i]);
        out.nodes[i].ready = Some("False".into());
    }
    for (k, new) in changes.add_nodes.iter().enumerate() {
        let node = new_node(new, k, &out.nodes)?;
        out.nodes.push(node);
        out.node_event = true;
    }
    for node in &changes.put_nodes {
        put(&mut out, node);
    }
    for (name, cpu) in &changes.set_cpu {
        let i = find(&out.nodes, name, "--set-cpu")?;
        out.cpu_changed |= out.nodes[i].allocatable_cpu != Some(*cpu);
        out.nodes[i].allocatable_cpu = Some(*cpu);
    }
    Ok(out)
}

// mirrors endpointslice_controller.go: updateNode (a Ready flip or a zone label change re-runs
// SetNodes; the zone label from the releases with k/k #117245's fix, docs/behaviour.md#release-fixes,
// which `--apply` assumes) and addNode (any new Node does); a CPU change alone does not.
/// A Node of `--apply`: replaces the Node of its name, or is added.
fn put(out: &mut NodeChange, node: &Node) {
    match out.nodes.iter().position(|n| n.name == node.name) {
        Some(i) => {
            let old = &out.nodes[i];
            out.node_event |= is_node_ready(old) != is_node_ready(node)
                || old.labels.get(LABEL_ZONE) != node.labels.get(LABEL_ZONE);
            out.cpu_changed |= old.allocatable_cpu != node.allocatable_cpu;
            out.nodes[i] = node.clone();
        }
        None => {
            out.nodes.push(node.clone());
            out.node_event = true;
        }
    }
}

fn find(nodes: &[Node], name: &str, flag: &str) -> Result<usize, SimulateError> {
    nodes.iter().position(|n| n.name == name).ok_or_else(|| {
        SimulateError(format!("{flag} {name}: no such node (after the removals)"), Misfit::Names)
    })
}

fn new_node(spec: &NewNode, k: usize, existing: &[Node]) -> Result<Node, SimulateError> {
    let name = match &spec.name {
        Some(name) if existing.iter().any(|n| &n.name == name) => {
            return Err(SimulateError(
                format!("--add-node name={name}: a node of that name exists"),
                Misfit::Names,
            ));
        }
        Some(name) => name.clone(),
        None => (k + 1..)
            .map(|i| format!("sim-node-{i}"))
            .find(|c| existing.iter().all(|n| &n.name != c))
            .unwrap(),
    };
    let mut labels = crate::model::StrMap::new();
    labels.insert(LABEL_ZONE.to_string(), spec.zone.clone());
    labels.insert("kubernetes.io/os".to_string(), "linux".to_string());
    if spec.control_plane {
        labels.insert(LABEL_CONTROL_PLANE.to_string(), String::new());
    }
    Ok(Node {
        name,
        labels,
        allocatable_cpu: Some(spec.cpu),
        ready: Some(if spec.not_ready { "False" } else { "True" }.to_string()),
        kubelet_version: None,
    })
}
