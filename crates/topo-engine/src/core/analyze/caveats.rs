//! Data-plane caveats of a Service (docs/behaviour.md#kube-proxy): cases where the hints the controller writes do
//! not change routing, whatever they are. `TrafficPolicyLocal` lives with the family analysis.

use super::Cluster;
use crate::core::mode::ModeDecision;
use crate::model::{LABEL_OS, Node, Service};
use crate::report::dataplane::DataPath;
use crate::report::mode::Mode;
use crate::report::reason::{Facts, Reason, ReasonCode as C};

/// Caveats worth showing when hints are asked for (mode other than `None`): a headless Service
/// (no ClusterIP: kube-proxy does not proxy it, hints only reach DNS-based clients that ignore
/// them) and Windows nodes (their kube-proxy ignores hints, k/k #137953).
pub(super) fn data_plane_notes(
    cluster: &Cluster<'_>,
    service: &Service,
    decision: &ModeDecision,
    paths: &[DataPath],
) -> Vec<Reason> {
    if decision.mode == Mode::None || service.service_type == "ExternalName" {
        return vec![];
    }
    let mut notes = Vec::new();
    if service.is_headless() {
        let value = service.cluster_ip.clone().unwrap_or_default();
        let facts = Facts { key: Some("spec.clusterIP".into()), value: Some(value), ..Facts::default() };
        notes.push(Reason::with(C::HeadlessService, facts));
    }
    let windows = cluster.windows_nodes.clone();
    if !windows.is_empty() {
        notes.push(Reason::with(C::WindowsNodes, Facts { nodes: windows, ..Facts::default() }));
    }
    notes.extend(skew_note(cluster));
    notes.extend(super::dataplane::worst_note(paths));
    notes
}

/// Nodes whose kube-proxy runs older than the control plane: modelled at their own version.
fn skew_note(cluster: &Cluster<'_>) -> Option<Reason> {
    let oldest = cluster.proxy_nodes.oldest_skewed(cluster.behaviour)?;
    let facts = Facts {
        nodes: cluster.skewed_nodes.clone(),
        value: Some(oldest.to_string()),
        key: Some(cluster.behaviour.to_string()),
        ..Facts::default()
    };
    Some(Reason::with(C::KubeProxyVersionSkew, facts))
}

/// Nodes labelled `kubernetes.io/os=windows`, in snapshot order (computed once per run).
pub(super) fn windows_nodes(nodes: &[Node]) -> Vec<String> {
    nodes
        .iter()
        .filter(|n| n.labels.get(LABEL_OS).is_some_and(|os| os == "windows"))
        .map(|n| n.name.clone())
        .collect()
}
