//! Per-zone summary of what kube-proxy on every node does for one Service (spec §4): nodes with
//! the same zone and the same outcome are grouped.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use super::{
    Categorized, ProxyNode, ProxyServiceInfo, TopologyMode, categorize_endpoints, endpoints_for_port,
};
use crate::core::reason::{Facts, Reason, ReasonCode};
use crate::model::{Behaviour, EndpointSlice, LABEL_ZONE, Node, Service};

/// Label naming a node's operating system.
const LABEL_OS: &str = "kubernetes.io/os";

/// How ClusterIP traffic from a node is routed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ProxyMode {
    /// Endpoints hinted for this node.
    PreferSameNode,
    /// Endpoints hinted for this node's zone.
    PreferSameZone,
    /// All usable endpoints (no topology).
    Cluster,
    /// `internalTrafficPolicy: Local`: node-local endpoints only.
    Local,
}

/// Nodes of one zone with the same outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyZoneView {
    /// Zone label value (`""` = no zone label).
    pub zone: String,
    /// Node names, sorted (empty for a hypothetical node).
    pub nodes: Vec<String>,
    /// Routing of ClusterIP traffic.
    pub mode: ProxyMode,
    /// Endpoints ClusterIP traffic goes to (first addresses, sorted); empty = traffic dropped.
    pub endpoints: Vec<String>,
    /// With `externalTrafficPolicy: Local` on an externally accessible Service: the node-local
    /// endpoints external traffic goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_endpoints: Option<Vec<String>>,
    /// Why the outcome is not plain topology routing (or which fallback was taken).
    pub reason: Option<Reason>,
    /// The lines kube-proxy logs (joined by newlines), exactly as on the first node of the group.
    pub log_line: Option<String>,
}

/// What kube-proxy does for one Service, per zone.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyView {
    /// Nodes were unreadable: one hypothetical node per zone seen on endpoints or hints, with no
    /// local endpoints.
    pub hypothetical_nodes: bool,
    /// kube-proxy does not proxy this Service at all (ExternalName, headless, no ports).
    pub skipped: Option<Reason>,
    /// Name of the port the view is computed for (the Service's first port).
    pub port: Option<String>,
    /// Groups sorted by zone, then first node.
    pub zones: Vec<ProxyZoneView>,
}

// mirrors proxy/util: ShouldSkipService (headless or ExternalName Services are not proxied)
fn skip_reason(service: &Service) -> Option<Reason> {
    if service.service_type == "ExternalName" {
        return Some(Reason::new(ReasonCode::ExternalName));
    }
    let facts = |key: &str, value: &str| Facts {
        key: Some(key.into()),
        value: Some(value.into()),
        ..Facts::default()
    };
    match service.cluster_ip.as_deref() {
        None | Some("") | Some("None") => {
            let value = service.cluster_ip.clone().unwrap_or_default();
            Some(Reason::with(ReasonCode::ProxyTopologyNotUsed, facts("spec.clusterIP", &value)))
        }
        _ if service.ports.is_empty() => {
            Some(Reason::with(ReasonCode::ProxyTopologyNotUsed, facts("spec.ports", "")))
        }
        _ => None,
    }
}

/// One node kube-proxy runs on: (name, zone label, windows).
type NodeRow = (String, Option<String>, bool);

fn node_rows(nodes: &[Node]) -> Vec<NodeRow> {
    let mut rows: Vec<NodeRow> = nodes
        .iter()
        .map(|n| {
            let windows = n.labels.get(LABEL_OS).is_some_and(|os| os == "windows");
            (n.name.clone(), n.labels.get(LABEL_ZONE).cloned(), windows)
        })
        .collect();
    rows.sort();
    rows
}

/// Zones seen on endpoints (`zone`) and zone hints, for hypothetical nodes.
fn hypothetical_rows(slices: &[&EndpointSlice]) -> Vec<NodeRow> {
    let mut zones = BTreeSet::new();
    for endpoint in slices.iter().flat_map(|s| &s.endpoints) {
        zones.extend(endpoint.zone.iter().cloned());
        let hinted = endpoint.hints.as_ref().and_then(|h| h.for_zones.as_ref());
        zones.extend(hinted.into_iter().flatten().cloned());
    }
    if zones.is_empty() {
        zones.insert(String::new());
    }
    zones.into_iter().map(|zone| (String::new(), Some(zone), false)).collect()
}

/// The comparable part of a node's outcome (node names in log key/values left out).
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    mode: ProxyMode,
    endpoints: Vec<String>,
    external_endpoints: Option<Vec<String>>,
    reason: Option<Reason>,
    log_shape: Vec<(String, Vec<(String, String)>)>,
}

fn addresses(identities: &[String], by_identity: &BTreeMap<String, String>) -> Vec<String> {
    let mut out: Vec<String> = identities.iter().filter_map(|id| by_identity.get(id).cloned()).collect();
    out.sort();
    out
}

fn outcome(
    svc: &ProxyServiceInfo,
    categorized: &Categorized,
    by_identity: &BTreeMap<String, String>,
) -> Outcome {
    let (mode, list) = if svc.internal_policy_local {
        (ProxyMode::Local, categorized.local.clone())
    } else {
        let mode = match categorized.topology_mode {
            Some(TopologyMode::PreferSameNode) => ProxyMode::PreferSameNode,
            Some(TopologyMode::PreferSameZone) => ProxyMode::PreferSameZone,
            None => ProxyMode::Cluster,
        };
        (mode, categorized.cluster.clone())
    };
    let external = (svc.external_policy_local && !svc.internal_policy_local)
        .then(|| addresses(categorized.local.as_deref().unwrap_or_default(), by_identity));
    let log_shape = categorized
        .logs
        .iter()
        .map(|log| {
            let kvs = log
                .key_values
                .iter()
                .filter(|kv| kv.key != "node")
                .map(|kv| (kv.key.clone(), kv.value.clone()));
            (log.message.clone(), kvs.collect())
        })
        .collect();
    Outcome {
        mode,
        endpoints: addresses(&list.unwrap_or_default(), by_identity),
        external_endpoints: external,
        reason: categorized.reason.clone(),
        log_shape,
    }
}

/// What kube-proxy on every node does for the Service's **first port** (all ports share the
/// slices' hints; a port-specific view would differ only in which slices carry that port).
/// `slices` are the Service's EndpointSlices of one address family, any manager (slices labelled
/// for other Services are ignored). kube-proxy runs on every node, control-plane included. With
/// no `nodes` (unreadable), one hypothetical node per zone seen is used and flagged.
pub fn proxy_view(
    service: &Service,
    slices: &[&EndpointSlice],
    nodes: &[Node],
    behaviour: Behaviour,
) -> ProxyView {
    if let Some(reason) = skip_reason(service) {
        return ProxyView { skipped: Some(reason), ..ProxyView::default() };
    }
    let port = &service.ports[0];
    let svc = ProxyServiceInfo::from_service(service, port, behaviour);
    let own: Vec<&EndpointSlice> = slices
        .iter()
        .copied()
        .filter(|s| {
            s.namespace == service.namespace && s.service_name.as_deref() == Some(service.name.as_str())
        })
        .collect();
    let hypothetical = nodes.is_empty();
    let rows = if hypothetical { hypothetical_rows(&own) } else { node_rows(nodes) };
    let mut groups: Vec<(String, Outcome, ProxyZoneView)> = Vec::new();
    // Groups by zone, so finding a node's group does not compare against every zone (10^4 zones).
    let mut by_zone: HashMap<String, Vec<usize>> = HashMap::new();
    for (name, zone, windows) in &rows {
        let node = ProxyNode { name, zone: zone.as_deref(), windows: *windows };
        let endpoints = endpoints_for_port(&own, &port.name, &port.protocol, name, behaviour);
        let by_identity = endpoints.iter().map(|ep| (ep.identity(), ep.address.clone())).collect();
        let categorized = categorize_endpoints(&endpoints, &svc, &node, behaviour);
        let result = outcome(&svc, &categorized, &by_identity);
        let zone = zone.clone().unwrap_or_default();
        let same_zone = by_zone.entry(zone.clone()).or_default();
        if let Some(&index) = same_zone.iter().find(|&&i| groups[i].1 == result) {
            groups[index].2.nodes.extend((!hypothetical).then(|| name.clone()));
            continue;
        }
        same_zone.push(groups.len());
        let lines: Vec<&str> = categorized.logs.iter().map(|log| log.line.as_str()).collect();
        let view = ProxyZoneView {
            zone: zone.clone(),
            nodes: if hypothetical { vec![] } else { vec![name.clone()] },
            mode: result.mode,
            endpoints: result.endpoints.clone(),
            external_endpoints: result.external_endpoints.clone(),
            reason: result.reason.clone(),
            log_line: (!lines.is_empty()).then(|| lines.join("\n")),
        };
        groups.push((zone, result, view));
    }
    let mut zones: Vec<ProxyZoneView> = groups.into_iter().map(|(_, _, view)| view).collect();
    zones.sort_by(|a, b| (&a.zone, a.nodes.first()).cmp(&(&b.zone, b.nodes.first())));
    ProxyView { hypothetical_nodes: hypothetical, skipped: None, port: Some(port.name.clone()), zones }
}
