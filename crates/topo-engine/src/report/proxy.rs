//! kube-proxy's outcome per group of nodes: codes and facts.

use std::sync::Arc;

use serde::Serialize;

use super::reason::Reason;

/// How ClusterIP traffic from a node is routed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProxyZoneView {
    /// Zone label value (`""` = no zone label).
    pub zone: String,
    /// Node names, sorted (empty for a hypothetical node).
    pub nodes: Vec<String>,
    /// Routing of ClusterIP traffic.
    pub mode: ProxyMode,
    /// Endpoints ClusterIP traffic goes to (first addresses, sorted); empty = traffic dropped.
    // Shared by the groups that route to the same endpoints (without hints, every zone's).
    pub endpoints: Arc<[String]>,
    /// With `externalTrafficPolicy: Local` on an externally accessible Service: the node-local
    /// endpoints external traffic goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_endpoints: Option<Vec<String>>,
    /// Why the outcome is not plain topology routing (or which fallback was taken).
    pub reason: Option<Reason>,
    /// The lines kube-proxy logs (joined by newlines), exactly as on the first node of the group.
    pub log_line: Option<String>,
    /// On a skewed cluster, the older version kube-proxy on these nodes runs (their kubelet's,
    /// e.g. `1.30.14`), at which this outcome is modelled; absent when it is the control plane's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_proxy_version: Option<String>,
}
