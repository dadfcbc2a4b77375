//! The Report model: what `core` concludes, serialised as-is for `-o json|yaml` inside a versioned
//! envelope, and formatted by `render` for tables. This is the documented JSON schema (README), and
//! with the feature `schema` it generates docs/schema/kubectl-topo.v1alpha1.json (see `schema`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::report::mode::{Mode, ModeSource};
use crate::report::proxy::ProxyZoneView;
use crate::report::reason::Reason;

pub mod apply;
pub mod check;
pub mod dataplane;
pub mod mode;
mod present;
pub mod proxy;
pub mod reason;
#[cfg(feature = "schema")]
pub mod schema;
pub mod stability;
pub mod version;
pub mod watch;
pub mod whatif;
pub mod workloads;
pub mod zones;

pub use check::{CheckReport, CheckRow, CheckSummary};
pub use version::VersionBasis;
pub use whatif::{
    CountRange, CrossZone, CrossZoneRow, EndpointLoad, Outcomes, ReplicasNeeded, Share, SpreadBasis,
    TrafficSource, ZoneFlow,
};
pub use zones::ZoneReport;

/// `apiVersion` of every envelope.
pub const API_VERSION: &str = "kubectl-topo/v1alpha1";

/// The verdict of one Service address family (a stable contract).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum Verdict {
    /// Hints present and what the controller would keep or write.
    Active,
    /// A safeguard or constraint withholds hints and none are present.
    Blocked,
    /// No annotation / trafficDistribution and no hints.
    NotEnabled,
    /// Live hints differ from what the controller would keep or write.
    Drift,
    /// No controller-managed slices.
    Unmanaged,
    /// Not computable from what could be read (Auto mode without Nodes: zone weights unknown).
    Unknown,
}

impl Verdict {
    /// Order used for a Service's "worst verdict" (its summary count): Active < NotEnabled =
    /// Unknown < Unmanaged < Blocked < Drift.
    pub fn severity(self) -> u8 {
        match self {
            Verdict::Active => 0,
            Verdict::Unknown | Verdict::NotEnabled => 1,
            Verdict::Unmanaged => 2,
            Verdict::Blocked => 3,
            Verdict::Drift => 4,
        }
    }
}

/// What the controller does with the slices of this family on its next sync.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum ControllerAction {
    /// Every slice passes the keep-check: nothing is written.
    Keep,
    /// Some slices are rewritten with new hints.
    Write,
    /// Hints are removed from the slices that carry any.
    Remove,
    /// Nothing to do (no hints wanted, none present), or the controller does not reconcile.
    None,
    /// Not computable (verdict Unknown): the expected side repeats the live slices.
    Unknown,
}

/// `service` of a report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ServiceRef {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

/// An Event the controller would emit (type, reason, message).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ControllerEvent {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub event_type: String,
    /// E.g. `TopologyAwareHintsDisabled`.
    pub reason: String,
    /// Full message incl. `, addressType: …`.
    pub message: String,
}

/// Per-zone row of `explain`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ZoneRow {
    /// Zone name.
    pub zone: String,
    /// Allocatable milli-CPU of counted nodes (None when unknown).
    pub cpu_millis: Option<i64>,
    /// The controller's ratio for this zone (None when ratios are nil or the zone is not in them).
    pub cpu_share: Option<f64>,
    /// Ready endpoints whose own zone is this one.
    pub ready_endpoints: i64,
    /// `desired` of the allocation (Auto path).
    pub desired: Option<f64>,
    /// `minimum` of the allocation.
    pub minimum: Option<i64>,
    /// `maximum` of the allocation.
    pub maximum: Option<i64>,
    /// Ready endpoints hinted to this zone after the controller's next sync.
    pub expected_hinted: i64,
    /// Ready endpoints hinted to this zone now.
    pub actual_hinted: i64,
    /// Load per endpoint relative to an even share, minus 1, in percent, with the expected hints (or,
    /// when hints are blocked, with same-zone routing to the zone's own endpoints).
    pub expected_overload_percent: Option<f64>,
}

/// Status of one endpoint in the diff.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum EndpointStatus {
    /// Actual hints are what the controller keeps or writes (or an equivalent outcome, docs/behaviour.md#steady-state-and-ties).
    Ok,
    /// Hints expected, none present.
    Missing,
    /// Hints present, none expected.
    Unexpected,
    /// Hints present but different.
    Different,
    /// Not ready: the controller does not look at its hints (kube-proxy does not use it).
    NotReady,
}

/// Per-endpoint row of `explain`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointRow {
    /// Slice name.
    pub slice: String,
    /// Addresses.
    pub addresses: Vec<String>,
    /// Own zone.
    pub zone: Option<String>,
    /// Node.
    pub node: Option<String>,
    /// Controller readiness (`ready == true`).
    pub ready: bool,
    /// `hints.forZones` now.
    pub actual_zones: Option<Vec<String>>,
    /// `hints.forZones` after the controller's next sync.
    pub expected_zones: Option<Vec<String>>,
    /// `hints.forNodes` now.
    pub actual_nodes: Option<Vec<String>>,
    /// `hints.forNodes` after the controller's next sync.
    pub expected_nodes: Option<Vec<String>>,
    /// Diff status.
    pub status: EndpointStatus,
}

/// One address family of a Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FamilyReport<R = Reason> {
    /// `IPv4` or `IPv6`.
    pub address_type: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Reasons, most important first.
    pub reasons: Vec<R>,
    /// What the controller does on its next sync.
    pub action: ControllerAction,
    /// The Event the controller emits on that sync (annotation path only).
    pub event: Option<ControllerEvent>,
    /// Controller-managed slices the next sync rewrites.
    pub rewritten_slices: Vec<String>,
    /// Every per-zone count vector the controller can reach (ties, docs/behaviour.md#steady-state-and-ties); empty off the Auto path.
    pub count_outcomes: Vec<BTreeMap<String, i64>>,
    /// The overload recheck (`serviceOverloaded`) on the counts the controller caches — today's hints, or when the
    /// slices carry none, the hints its next sync writes: `true` means the Service is requeued at the
    /// next Node event. None when not on the Auto path or no hints either way.
    pub overloaded: Option<bool>,
    /// Per-zone table.
    pub zones: Vec<ZoneRow>,
    /// Per-endpoint diff (controller-managed slices).
    pub endpoints: Vec<EndpointRow>,
    /// kube-proxy's view per zone (all slices of the Service, any manager).
    pub proxy: Vec<ProxyZoneView>,
    /// Auto mode: for which ready-endpoint counts hints are written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<whatif::ReplicasNeeded>,
    /// Expected share of requests leaving their zone (None when kube-proxy does not proxy the Service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_zone: Option<whatif::CrossZone>,
    /// Auto mode: the nearest change of zone CPU share, Nodes or endpoints that flips whether the
    /// controller writes hints (docs/stability.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<stability::Margin>,
    /// trafficDistribution's close heuristics (`PreferSameZone`, `PreferSameNode`, `PreferClose`),
    /// `explain` only: the endpoints the hints load over [`stability::load::LOAD_FACTOR`]× an even
    /// share and those they leave idle, as upstream has no overload safeguard there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<stability::load::LoadCheck>,
    /// Reasons an ignore rule set aside (the Service's `kubectl-topo.io/ignore` annotation or the
    /// config file), as `CheckFamily.ignored`: still reported, never a failure. The engine leaves
    /// this empty; the caller that applies the rules moves reasons here.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub ignored: Vec<R>,
}

/// `explain` for one Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceReport<R = Reason> {
    /// Which Service.
    pub service: ServiceRef,
    /// Behaviour modelled, e.g. `1.36`.
    pub kubernetes_version: String,
    /// Why that version (set by the caller, which knows where it came from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version_basis: Option<VersionBasis>,
    /// The mode the controller applies.
    pub mode: Mode,
    /// Which annotation or field decided the mode.
    pub mode_source: ModeSource,
    /// Service-level notes (mode selection, data plane).
    pub notes: Vec<R>,
    /// Per address family.
    pub families: Vec<FamilyReport<R>>,
    /// Events on the Service, newest last.
    pub events: Vec<crate::model::Event>,
    /// The hint flips those Events record (docs/stability.md#history); None without such Events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<stability::History>,
    /// Notes about partial data (e.g. Nodes forbidden).
    pub partial: Vec<String>,
    /// Each path of the Service's traffic through the data plane, and what it does with hints.
    pub data_plane: Vec<dataplane::DataPath>,
    /// The workloads behind the Service, when the command read them (`explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workloads: Option<workloads::WorkloadsReport>,
    /// The stability certificate of each workload behind an Auto Service, or why it is unknown
    /// (`explain`; docs/stability.md#certificate-from-the-workloads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificates: Option<stability::WorkloadCertificates>,
}

/// `{apiVersion, kind, …}` around a report.
#[derive(Debug, Clone, Serialize)]
pub struct Envelope<'a, T: Serialize> {
    /// Always [`API_VERSION`].
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    /// `ServiceReport`, `CheckReport` or `ZoneReport`.
    pub kind: &'static str,
    /// The report.
    #[serde(flatten)]
    pub report: &'a T,
}

/// A report with a `kind` for its envelope.
pub trait Kind: Serialize {
    /// The envelope's `kind`.
    const KIND: &'static str;
    /// Wrap in the envelope.
    fn envelope(&self) -> Envelope<'_, Self>
    where
        Self: Sized,
    {
        Envelope { api_version: API_VERSION, kind: Self::KIND, report: self }
    }
}

impl<R: Serialize> Kind for ServiceReport<R> {
    const KIND: &'static str = "ServiceReport";
}
impl<R: Serialize> Kind for CheckReport<R> {
    const KIND: &'static str = "CheckReport";
}
impl<R: Serialize> Kind for ZoneReport<R> {
    const KIND: &'static str = "ZoneReport";
}
