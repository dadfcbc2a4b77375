//! What-if parts of the reports: replicas needed and the cross-zone traffic share (on every
//! `explain` family), and the `simulate` report (before → after).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{ControllerEvent, ServiceRef, ServiceReport, Verdict};
use crate::report::proxy::ProxyMode;
use crate::report::reason::{Reason, ReasonCode};

/// An inclusive range of endpoint counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CountRange {
    /// First count.
    pub from: i64,
    /// Last count.
    pub to: i64,
}

/// What the spread of new endpoints follows.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum SpreadBasis {
    /// Today's ready endpoints per zone (largest remainder).
    AsToday,
    /// No ready endpoints today: the zones' CPU.
    ZoneCpu,
}

/// For which ready-endpoint counts the controller writes hints (Auto mode, docs/behaviour.md#step-a-allocations).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicasNeeded {
    /// Ready endpoints today.
    pub ready_endpoints: i64,
    /// Smallest count ≥ today's (≥ 1) for which hints are written; None when none works.
    pub nearest: Option<i64>,
    /// Counts in [1, 100] for which hints are written.
    pub working: Vec<CountRange>,
    /// Every count above 100 works too (shown as "≥ N").
    pub beyond_limit: bool,
    /// Per zone, the fewest endpoints within the 20 % threshold at today's count (`ceil(r·n·K)`).
    pub minimum_by_zone: BTreeMap<String, i64>,
    /// What the spread of endpoints follows.
    pub spread_basis: SpreadBasis,
    /// Endpoints per zone at `nearest` (`""` = no zone).
    pub spread_at_nearest: BTreeMap<String, i64>,
    /// Per zone minimum at `nearest`.
    pub minimum_at_nearest: BTreeMap<String, i64>,
}

/// Where requests originate.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum TrafficSource {
    /// In proportion to zone CPU (the controller's own assumption).
    ZoneCpu,
    /// `--traffic zone=weight,…`.
    Given,
    /// From the zones of the Pods of the front doors before the Service (ingress-nginx's
    /// controller, Envoy Gateway's proxies): the load check only (docs/stability.md#callers-from-the-front-door).
    FrontDoor,
}

/// A value for the three hint states compared.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
#[serde(rename_all = "camelCase")]
pub struct Outcomes<T> {
    /// With the hints on the slices today.
    pub now: T,
    /// With the hints after the controller's next sync.
    pub expected: T,
    /// With no hints at all (kube-proxy routes over every ready endpoint).
    pub without_hints: T,
}

/// Requests of one origin: the fraction that leaves its zone and the fraction kube-proxy drops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Share {
    /// Fraction (0–1) routed to an endpoint in another zone (or without a zone).
    pub cross_zone: f64,
    /// Fraction (0–1) with no endpoint to go to.
    pub dropped: f64,
}

/// Cross-zone share of one zone's requests.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CrossZoneRow {
    /// Zone the requests come from.
    pub zone: String,
    /// Fraction (0–1) of all requests that come from this zone.
    pub traffic_share: f64,
    /// Where they go.
    pub share: Outcomes<Share>,
    /// Where they go, per destination zone (sorted; `""` = endpoints without a zone): the routing
    /// matrix row of this zone. Only destinations that receive requests in some state.
    pub destinations: Vec<ZoneFlow>,
}

/// The fraction of one origin zone's requests that reaches the endpoints of one zone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ZoneFlow {
    /// Destination zone (`""` when unknown).
    pub zone: String,
    /// Fraction (0–1) of the origin zone's requests.
    pub share: Outcomes<f64>,
}

/// Load of one endpoint relative to an even share (1.0 = `1/n` of all requests).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointLoad {
    /// First address.
    pub address: String,
    /// Its zone (`""` when unknown).
    pub zone: String,
    /// Relative load.
    pub load: Outcomes<f64>,
}

/// Expected share of requests leaving their zone, from kube-proxy's routing (docs/behaviour.md#kube-proxy).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CrossZone {
    /// Where requests originate.
    pub traffic_source: TrafficSource,
    /// Per origin zone.
    pub zones: Vec<CrossZoneRow>,
    /// All requests.
    pub overall: Outcomes<Share>,
    /// Per endpoint that receives requests in some state, sorted by zone and address.
    pub endpoints: Vec<EndpointLoad>,
    /// Highest relative load of any endpoint (None when no endpoint receives requests).
    pub max_load: Outcomes<Option<f64>>,
}

/// Why the changed state is or is not reached (docs/behaviour.md#overload-recheck-and-requeue).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum SyncNote {
    /// Endpoints of the Service change: the controller syncs it.
    EndpointsChanged,
    /// The Service object changes (mode): the controller syncs it.
    ServiceChanged,
    /// A node add/delete or Ready flip: `SetNodes` recomputes the zone weights.
    NodesRecomputed,
    /// The overload recheck finds the cached hints overloaded: the Service is requeued.
    Requeued,
    /// The cached hints pass the overload recheck: the Service is not requeued.
    NotRequeuedBalanced,
    /// No hints cached for the Service (none on its slices): node events never requeue it (#123401).
    NotRequeuedNoCache,
    /// Only allocatable CPU changes: upstream does not recompute the zone weights at all.
    CpuChangeIgnored,
    /// A sync happens, but with the zone weights from before the CPU change.
    StaleWeights,
    /// Nothing triggers a sync: the new state waits for an unrelated sync of the Service.
    NotReached,
}

/// What the controller does about the change.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SyncView {
    /// The Service is synced (the after state is reached without another change).
    pub synced: bool,
    /// The overload recheck after the node change (None without a node change or cached hints).
    pub requeued: Option<bool>,
    /// Why, in order.
    pub notes: Vec<SyncNote>,
    /// The Event the sync emits, per address family.
    pub events: Vec<ControllerEvent>,
    /// Slices the sync creates.
    pub created_slices: Vec<String>,
    /// Slices the sync updates.
    pub updated_slices: Vec<String>,
    /// Slices the sync deletes (all their endpoints are gone).
    pub deleted_slices: Vec<String>,
}

/// A value before and after the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub struct BeforeAfter<T> {
    /// Today.
    pub before: T,
    /// In the changed cluster.
    pub after: T,
}

/// kube-proxy on the nodes of one zone group, reduced to its mode and endpoint count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProxyBrief {
    /// Routing mode.
    pub mode: ProxyMode,
    /// Endpoints ClusterIP traffic goes to.
    pub endpoints: usize,
}

/// One zone before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ZoneDelta {
    /// Zone.
    pub zone: String,
    /// CPU share before / after (None when not in the ratios).
    pub cpu_share: BeforeAfter<Option<f64>>,
    /// Ready endpoints before / after.
    pub ready: BeforeAfter<i64>,
    /// Endpoints hinted to the zone on the slices before / after.
    pub hinted: BeforeAfter<i64>,
    /// kube-proxy groups of the zone before / after.
    pub proxy: BeforeAfter<Vec<ProxyBrief>>,
}

/// One address family before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FamilyDelta {
    /// `IPv4` / `IPv6`.
    pub address_type: String,
    /// Verdict before / after.
    pub verdict: BeforeAfter<Option<Verdict>>,
    /// Reason codes before / after.
    pub reasons: BeforeAfter<Vec<ReasonCode>>,
    /// Per zone.
    pub zones: Vec<ZoneDelta>,
    /// Overall cross-zone share (hints on the slices) before / after.
    pub cross_zone: BeforeAfter<Option<f64>>,
}

/// `simulate`: the change, what the controller does about it, and the Service before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SimulationReport<R = Reason> {
    /// Which Service.
    pub service: ServiceRef,
    /// Behaviour modelled.
    pub kubernetes_version: String,
    /// Why that version (set by the caller, which knows where it came from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version_basis: Option<super::VersionBasis>,
    /// The changes, as typed (normalised).
    pub changes: Vec<String>,
    /// The controller's reaction.
    pub sync: SyncView,
    /// Per family, before → after.
    pub summary: Vec<FamilyDelta>,
    /// `explain` of today's cluster.
    pub before: ServiceReport<R>,
    /// `explain` of the changed cluster, with the slices as the sync leaves them.
    pub after: ServiceReport<R>,
}

impl<R: Serialize> super::Kind for SimulationReport<R> {
    const KIND: &'static str = "SimulationReport";
}
