//! Data-plane caveats of a Service (docs/behaviour.md#kube-proxy): cases where the hints the controller writes do
//! not change routing, whatever they are. `TrafficPolicyLocal` lives with the family analysis.

use super::Cluster;
use crate::core::mode::ModeDecision;
use crate::model::{CiliumConfig, LABEL_OS, Node, Service};
use crate::report::mode::Mode;
use crate::report::reason::{Facts, Reason, ReasonCode as C};

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
    notes.extend(cilium_note(cluster.snapshot.data_plane.cilium.as_ref()));
    notes
}

/// Cilium with kube-proxy replacement (`true`, or `strict` before Cilium 1.14) routes Service
/// traffic itself; it honours hints only with `enable-service-topology: "true"`. Facts: `value` is
/// the kube-proxy-replacement setting, `key` the service-topology setting (`""` when unset).
fn cilium_note(cilium: Option<&CiliumConfig>) -> Option<Reason> {
    let cilium = cilium?;
    let replacement = cilium.kube_proxy_replacement.as_deref()?.trim();
    if !matches!(replacement.to_ascii_lowercase().as_str(), "true" | "strict") {
        return None;
    }
    let topology = cilium.service_topology.clone().unwrap_or_default();
    let code = if topology.trim().eq_ignore_ascii_case("true") {
        C::CiliumAppliesHints
    } else {
        C::CiliumIgnoresHints
    };
    let facts = Facts { value: Some(replacement.to_string()), key: Some(topology), ..Facts::default() };
    Some(Reason::with(code, facts))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn note(replacement: Option<&str>, topology: Option<&str>) -> Option<C> {
        let config = CiliumConfig {
            kube_proxy_replacement: replacement.map(str::to_string),
            service_topology: topology.map(str::to_string),
        };
        cilium_note(Some(&config)).map(|r| r.code)
    }

    #[test]
    fn cilium_replacing_kube_proxy_ignores_or_applies_hints_by_service_topology() {
        assert_eq!(note(Some("true"), None), Some(C::CiliumIgnoresHints));
        assert_eq!(note(Some("strict"), Some("false")), Some(C::CiliumIgnoresHints));
        assert_eq!(note(Some("true"), Some("true")), Some(C::CiliumAppliesHints));
        // kube-proxy still routes ClusterIP traffic: no caveat.
        for replacement in [Some("false"), Some("partial"), Some("disabled"), None] {
            assert_eq!(note(replacement, Some("true")), None, "{replacement:?}");
        }
        assert_eq!(cilium_note(None), None, "no (readable) cilium-config: say nothing");
    }
}
