//! Data-plane caveats of a Service (spec §4.1, §4.2): cases where the hints the controller writes do
//! not change routing, whatever they are. `TrafficPolicyLocal` lives with the family analysis.

use super::Cluster;
use crate::core::mode::{Mode, ModeDecision};
use crate::core::reason::{Facts, Reason, ReasonCode as C};
use crate::model::Service;

/// Label naming a node's operating system.
const LABEL_OS: &str = "kubernetes.io/os";

/// Caveats worth showing when hints are asked for (mode other than `None`): a headless Service
/// (no ClusterIP: kube-proxy does not proxy it, hints only reach DNS-based clients that ignore
/// them) and Windows nodes (their kube-proxy ignores hints, k/k #137953).
pub(super) fn data_plane_notes(
    cluster: &Cluster<'_>,
    service: &Service,
    decision: &ModeDecision,
) -> Vec<Reason> {
    if decision.mode == Mode::None || service.service_type == "ExternalName" {
        return vec![];
    }
    let mut notes = Vec::new();
    if matches!(service.cluster_ip.as_deref(), None | Some("") | Some("None")) {
        let value = service.cluster_ip.clone().unwrap_or_default();
        let facts = Facts { key: Some("spec.clusterIP".into()), value: Some(value), ..Facts::default() };
        notes.push(Reason::with(C::HeadlessService, facts));
    }
    let windows: Vec<String> = cluster
        .snapshot
        .nodes
        .iter()
        .filter(|n| n.labels.get(LABEL_OS).is_some_and(|os| os == "windows"))
        .map(|n| n.name.clone())
        .collect();
    if !windows.is_empty() {
        notes.push(Reason::with(C::WindowsNodes, Facts { nodes: windows, ..Facts::default() }));
    }
    notes
}
