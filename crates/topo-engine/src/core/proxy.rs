//! What kube-proxy routes to (docs/behaviour.md#kube-proxy): the endpoints it holds per service port
//! ([`endpoints_for_port`], `endpointslicecache.go`), how it splits them into cluster and local
//! lists and applies topology hints ([`categorize_endpoints`], `topology.go`), per version era, and
//! a per-zone summary over all nodes ([`proxy_view`]).

mod cache;
mod gosort;
mod nodes;
mod topology;
mod view;

#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::Serialize;

pub use cache::{ProxyEndpoint, endpoints_for_port};
pub use nodes::ProxyNodes;
pub use topology::{LogKeyValue, ProxyLog, TopologyMode};
pub(crate) use view::{Grouped, grouped};
pub use view::{ProxyView, proxy_view, proxy_view_on};

use crate::core::mode::effective_annotation;
use crate::model::version::ProxyEra;
use crate::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, Behaviour, Service, ServicePort};
use crate::report::reason::{Facts, Reason, ReasonCode};

/// The parts of one Service port kube-proxy's categorisation reads (`ServicePort`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyServiceInfo {
    /// ClusterIP (of the family being proxied), used only to print the Service in logs.
    pub cluster_ip: String,
    /// Service port number.
    pub port: i32,
    /// `TCP`, `UDP` or `SCTP`.
    pub protocol: String,
    /// `internalTrafficPolicy: Local`.
    pub internal_policy_local: bool,
    /// `externalTrafficPolicy: Local` on an externally accessible Service.
    pub external_policy_local: bool,
    /// nodePort, LoadBalancer VIP or externalIP present.
    pub externally_accessible: bool,
    /// The hints annotation kube-proxy read (1.24–1.30): key and value, `None` when absent.
    pub hints_annotation: Option<(String, String)>,
}

impl ProxyServiceInfo {
    // mirrors serviceport.go: newBaseServiceInfo (policies, hintsAnnotation precedence)
    /// Builds the info for one port of `service` at this version.
    pub fn from_service(service: &Service, port: &ServicePort, behaviour: Behaviour) -> Self {
        let hints_annotation = if behaviour.reads_topology_mode_annotation() {
            effective_annotation(&service.annotations, behaviour).map(|(k, v)| (k.to_string(), v.to_string()))
        } else {
            service
                .annotations
                .get(ANNOTATION_TOPOLOGY_AWARE_HINTS)
                .map(|v| (ANNOTATION_TOPOLOGY_AWARE_HINTS.into(), v.clone()))
        };
        let external_policy_local = external_policy_local(service, behaviour);
        ProxyServiceInfo {
            cluster_ip: service.cluster_ip.clone().unwrap_or_default(),
            port: port.port,
            protocol: port.protocol.clone(),
            internal_policy_local: internal_policy_local(service, behaviour, external_policy_local),
            external_policy_local,
            externally_accessible: service.externally_accessible,
            hints_annotation,
        }
    }
    /// `BaseServicePortInfo.String()`: `clusterIP:port/protocol`, how logs print the Service.
    pub fn display(&self) -> String {
        format!("{}:{}/{}", self.cluster_ip, self.port, self.protocol)
    }
    /// `UsesClusterEndpoints`: iTP is not Local, or the Service is externally accessible.
    pub fn uses_cluster_endpoints(&self) -> bool {
        !self.internal_policy_local || self.externally_accessible
    }
    /// `UsesLocalEndpoints`: iTP Local, or eTP Local on an externally accessible Service.
    pub fn uses_local_endpoints(&self) -> bool {
        self.internal_policy_local || (self.external_policy_local && self.externally_accessible)
    }
}

// mirrors service.go: newBaseServiceInfo (`ExternalPolicyLocal`, 1.24+) and, before,
// `RequestsOnlyLocalTraffic` (k/k v1.23.17 pkg/api/v1/service/util.go:71): only a NodePort or
// LoadBalancer Service, not a ClusterIP one with externalIPs.
fn external_policy_local(service: &Service, behaviour: Behaviour) -> bool {
    let local = service.external_traffic_policy.as_deref() == Some("Local");
    if behaviour.proxy_era() == ProxyEra::V121 {
        return local && matches!(service.service_type.as_str(), "NodePort" | "LoadBalancer");
    }
    local && service.externally_accessible
}

// mirrors topology.go: FilterEndpoints before 1.24 (k/k v1.23.17 pkg/proxy/topology.go:29-42):
// an eTP=Local Service returns every endpoint before iTP is looked at, so its ClusterIP traffic
// goes cluster-wide whatever iTP says; and iTP needs ServiceInternalTrafficPolicy (alpha, off, in
// 1.21). From 1.24 `CategorizeEndpoints` applies both policies independently.
fn internal_policy_local(service: &Service, behaviour: Behaviour, external_policy_local: bool) -> bool {
    let local = service.internal_traffic_policy.as_deref() == Some("Local");
    if behaviour.proxy_era() == ProxyEra::V121 {
        return local && !external_policy_local && behaviour.minor >= 22;
    }
    local
}

/// The node a kube-proxy runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyNode<'a> {
    /// Node name (`""` for a hypothetical node: nothing is local).
    pub name: &'a str,
    /// Value of `topology.kubernetes.io/zone`; `None` when absent.
    pub zone: Option<&'a str>,
    /// `kubernetes.io/os=windows`: winkernel kube-proxy, which ignores hints.
    pub windows: bool,
}

/// `CategorizeEndpoints`' result for one node and service port; lists hold endpoint identities
/// (`ip:port`), sorted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Categorized {
    /// Usable Cluster-policy endpoints (topology applied); `None` when the port never uses them.
    pub cluster: Option<Vec<String>>,
    /// Usable Local-policy endpoints; `None` when the port never uses them.
    pub local: Option<Vec<String>>,
    /// Union of both lists.
    pub all_reachable: Vec<String>,
    /// Some endpoint is usable somewhere in the cluster.
    pub has_any_endpoints: bool,
    /// Topology mode applied to the cluster list.
    pub topology_mode: Option<TopologyMode>,
    /// The cluster list fell back to serving+terminating endpoints.
    pub cluster_uses_terminating: bool,
    /// Lines kube-proxy logs while deciding, in order.
    pub logs: Vec<ProxyLog>,
    /// The main reason the outcome is not plain topology routing, if any.
    pub reason: Option<Reason>,
}

/// ProxyTerminatingEndpoints gate (beta on 1.26, GA 1.28): serving+terminating fallback.
fn terminating_fallback(behaviour: Behaviour) -> bool {
    behaviour.minor >= 26
}

/// [`Categorized`] with its lists as positions in the endpoint list categorized (in its order):
/// what a view needs of each node, without writing every endpoint's identity once per node.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Categories {
    /// Usable Cluster-policy endpoints; `None` when the port never uses them.
    pub cluster: Option<Vec<usize>>,
    /// Usable Local-policy endpoints; `None` when the port never uses them.
    pub local: Option<Vec<usize>>,
    /// Some endpoint is usable somewhere in the cluster.
    pub has_any_endpoints: bool,
    /// Topology mode applied to the cluster list.
    pub topology_mode: Option<TopologyMode>,
    /// The cluster list fell back to serving+terminating endpoints.
    pub cluster_uses_terminating: bool,
    /// The local list fell back to serving+terminating endpoints.
    pub local_uses_terminating: bool,
    /// Lines kube-proxy logs while deciding, in order.
    pub logs: Vec<ProxyLog>,
    /// The main reason the outcome is not plain topology routing, if any: shared, as every node
    /// that decides alike and every group of a view holds it (copying its facts, endpoint
    /// addresses included, was a fifth of the allocations of `serve`'s recompute).
    pub reason: Option<Rc<Reason>>,
}

fn positions<'a>(endpoints: impl Iterator<Item = (usize, &'a ProxyEndpoint)>) -> Vec<usize> {
    endpoints.map(|(i, _)| i).collect()
}

/// Splits `endpoints` (from [`endpoints_for_port`] for this node) into the lists kube-proxy on
/// `node` programs, with the topology decision and the lines it logs: [`categorize`] with its
/// lists written as endpoint identities.
pub fn categorize_endpoints(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node: &ProxyNode<'_>,
    behaviour: Behaviour,
) -> Categorized {
    let c = categorize(endpoints, svc, node, behaviour);
    let ids = |list: &[usize]| -> Vec<String> { list.iter().map(|&i| endpoints[i].identity()).collect() };
    let (cluster, local) = (c.cluster.as_deref().map(ids), c.local.as_deref().map(ids));
    let all_reachable = match (&cluster, &local) {
        (None, None) => Vec::new(),
        (Some(cluster), None) => cluster.clone(),
        (None, Some(local)) => local.clone(),
        (Some(cluster), Some(_)) if c.topology_mode.is_none() && !c.local_uses_terminating => cluster.clone(),
        (Some(cluster), Some(local)) => {
            let mut all: Vec<String> = cluster.iter().chain(local).cloned().collect();
            all.sort();
            all.dedup();
            all
        }
    };
    Categorized {
        cluster,
        local,
        all_reachable,
        has_any_endpoints: c.has_any_endpoints,
        topology_mode: c.topology_mode,
        cluster_uses_terminating: c.cluster_uses_terminating,
        logs: c.logs,
        reason: c.reason.map(Rc::unwrap_or_clone),
    }
}

// mirrors topology.go: CategorizeEndpoints (+ topologyModeFromHints / canUseTopology per era)
/// [`categorize_endpoints`], its lists as positions in `endpoints`.
pub(crate) fn categorize(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node: &ProxyNode<'_>,
    behaviour: Behaviour,
) -> Categories {
    let mut out = Categories::default();
    // 1.34+ (and 1.33.6+): "If there are no endpoints, we have nothing to categorize".
    if endpoints.is_empty() && behaviour.minor >= 34 {
        out.reason = main_reason(endpoints, svc, node, None, &[]).map(Rc::new);
        return out;
    }
    let fallback = terminating_fallback(behaviour);
    let zone = node.zone.unwrap_or("");
    let mut not_used = None;
    let indexed = || endpoints.iter().enumerate();
    if svc.uses_cluster_endpoints() {
        if !node.windows {
            let outcome = topology::topology_mode(endpoints, svc, node.name, zone, behaviour);
            (out.topology_mode, out.logs, not_used) = (outcome.mode, outcome.logs, outcome.not_used);
        }
        let available = |ep: &ProxyEndpoint| match out.topology_mode {
            None => true,
            Some(TopologyMode::PreferSameNode) => ep.has_node_hint(node.name),
            Some(TopologyMode::PreferSameZone) => ep.has_zone_hint(zone),
        };
        let mut cluster = positions(indexed().filter(|(_, ep)| ep.ready && available(ep)));
        if cluster.is_empty() && fallback {
            cluster = positions(indexed().filter(|(_, ep)| ep.serving && ep.terminating));
            out.cluster_uses_terminating = !cluster.is_empty();
        }
        out.has_any_endpoints = !cluster.is_empty();
        out.cluster = Some(cluster);
    }
    out.reason = main_reason(endpoints, svc, node, not_used, &out.logs).map(Rc::new);
    if !svc.uses_local_endpoints() {
        return out;
    }
    let serving_terminating = |ep: &ProxyEndpoint| !ep.ready && ep.serving && ep.terminating && fallback;
    out.has_any_endpoints |= endpoints.iter().any(|ep| ep.ready || serving_terminating(ep));
    let local_ready = positions(indexed().filter(|(_, ep)| ep.is_local && ep.ready));
    let local_terminating = positions(indexed().filter(|(_, ep)| ep.is_local && serving_terminating(ep)));
    out.local_uses_terminating = local_ready.is_empty() && !local_terminating.is_empty();
    out.local = Some(if out.local_uses_terminating { local_terminating } else { local_ready });
    out
}

fn main_reason(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node: &ProxyNode<'_>,
    not_used: Option<Reason>,
    logs: &[ProxyLog],
) -> Option<Reason> {
    if !svc.uses_cluster_endpoints() {
        return Some(traffic_policy_local("internalTrafficPolicy"));
    }
    if node.windows {
        return Some(Reason::new(ReasonCode::ProxyWindowsIgnoresHints));
    }
    if !endpoints.iter().any(|ep| ep.ready) {
        return Some(Reason::new(ReasonCode::ProxyNoReadyEndpoints));
    }
    not_used.or_else(|| logs.last().map(topology::log_reason))
}

/// `TrafficPolicyLocal` for the policy field `key` (`internalTrafficPolicy` or
/// `externalTrafficPolicy`) set to `Local`.
pub(crate) fn traffic_policy_local(key: &str) -> Reason {
    let facts = Facts { key: Some(key.into()), value: Some("Local".into()), ..Facts::default() };
    Reason::with(ReasonCode::TrafficPolicyLocal, facts)
}
