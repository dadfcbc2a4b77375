//! `zones`: CPU weight per zone as the controller counts it, and the nodes left out.

use serde::Serialize;

use super::reason::Reason;

/// One zone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ZoneLine {
    /// Zone name.
    pub zone: String,
    /// Nodes carrying this zone label (any role, any readiness).
    pub nodes_total: usize,
    /// Nodes the controller counts (Ready, not control plane).
    pub nodes_counted: usize,
    /// Exact allocatable CPU sum of counted nodes, rounded up to milli-CPU.
    pub cpu_millis: i64,
    /// The controller's ratio (None when ratios are nil).
    pub share: Option<f64>,
}

/// A node that is not counted, or that disables hints cluster-wide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeLine {
    /// Node name.
    pub name: String,
    /// Zone label, if any.
    pub zone: Option<String>,
    /// `ControlPlane`, `NotReady`, `MissingZone`, `MissingCPU`.
    pub why: String,
}

/// `zones` report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ZoneReport<R = Reason> {
    /// Behaviour modelled.
    pub kubernetes_version: String,
    /// Why that version (set by the caller, which knows where it came from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version_basis: Option<super::VersionBasis>,
    /// Zones sorted by name.
    pub zones: Vec<ZoneLine>,
    /// Total counted milli-CPU.
    pub total_cpu_millis: i64,
    /// Nodes the controller ignores (control plane, not Ready).
    pub excluded: Vec<NodeLine>,
    /// Counted nodes without zone or CPU: each disables hints for every Service.
    pub disabling: Vec<NodeLine>,
    /// True when the controller has ratios (hints possible at all).
    pub sufficient: bool,
    /// Why node information is insufficient, when it is.
    pub reasons: Vec<R>,
    /// Notes about partial data.
    pub partial: Vec<String>,
}
