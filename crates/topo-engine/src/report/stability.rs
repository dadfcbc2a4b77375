//! Stability of an Auto-mode verdict (docs/stability.md): how far today's cluster is from the next
//! flip of "the controller's next sync writes hints" (the margin), what the Service's Events say
//! about past flips (the history), and whether the verdict holds at every replica count and
//! placement a scaling range allows (the certificate). Codes and numbers only.

use std::collections::BTreeMap;

use serde::Serialize;

use super::whatif::CountRange;

pub mod load;

/// The margin of one Auto family: the nearest change of each kind that flips the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Margin {
    /// Today's verdict: the controller's next fresh sync writes hints (`getAllocations` passes and
    /// every ready endpoint has a zone).
    pub holds: bool,
    /// Ready endpoints today (`n`).
    pub ready_endpoints: i64,
    /// Per counted zone: how far its CPU share may move (other zones' CPU unchanged) before a flip.
    pub shares: Vec<ShareMargin>,
    /// Every single Node, of an allocatable CPU present in the cluster, whose addition to or
    /// removal from a zone flips the verdict.
    pub nodes: Vec<NodeFlip>,
    /// Node changes examined (zones × sizes, added and removed).
    pub nodes_examined: usize,
    /// Per zone with counted Nodes or ready endpoints: whether one more or one fewer ready endpoint
    /// there flips the verdict.
    pub endpoints: Vec<EndpointFlip>,
    /// Smallest move of any zone's share, in percentage points, that flips the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest_share_points: Option<f64>,
    /// Within the fragile threshold ([`FRAGILE_SHARE_POINTS`], or any single Node or endpoint flips it).
    pub fragile: bool,
}

/// A share move under this many percentage points that flips the verdict makes it fragile.
pub const FRAGILE_SHARE_POINTS: f64 = 5.0;

/// How far one zone's CPU share may move before the verdict flips.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ShareMargin {
    /// The zone.
    pub zone: String,
    /// Its allocatable milli-CPU today (as `SetNodes` rounds it).
    pub millis: i64,
    /// Its share today (`float64(millis) / float64(total)`, as `SetNodes`).
    pub share: f64,
    /// The nearest flip when the zone's CPU falls; None when no fall (to 1 milli-CPU) flips it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub down: Option<ShareFlip>,
    /// The nearest flip when the zone's CPU grows; None when no growth flips it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up: Option<ShareFlip>,
}

/// The last zone CPU that keeps today's verdict and the first that flips it, in one direction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ShareFlip {
    /// The farthest milli-CPU that keeps the verdict.
    pub holds_to_millis: i64,
    /// The zone's share there.
    pub holds_to_share: f64,
    /// The nearest milli-CPU that flips it (one milli-CPU beyond `holds_to_millis`).
    pub flips_at_millis: i64,
    /// The zone's share there.
    pub flips_at_share: f64,
}

/// Added or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NodeChange {
    /// One more Ready worker Node.
    Added,
    /// One fewer (a counted Node of that size in that zone).
    Removed,
}

/// One single-Node change that flips the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeFlip {
    /// The zone of the Node.
    pub zone: String,
    /// Its allocatable CPU, as a quantity (`4`, `3920m`).
    pub cpu: String,
    /// Added or removed.
    pub change: NodeChange,
    /// The zone leaves the ratios (its last counted Node removed).
    pub zone_leaves: bool,
}

/// One more / one fewer ready endpoint in one zone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointFlip {
    /// The zone (`""`: endpoints without a zone).
    pub zone: String,
    /// Ready endpoints there today.
    pub ready: i64,
    /// One more there flips the verdict.
    pub add_flips: bool,
    /// One fewer there flips it; None when the zone has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_flips: Option<bool>,
}

/// Flips seen in the controller's Events on one Service (they live for the API server's
/// `--event-ttl`, one hour by default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct History {
    /// Times hints were switched on (`TopologyAwareHintsEnabled`: emitted on the first success
    /// after hints were off, so each one is a flip).
    pub enabled: i64,
    /// `TopologyAwareHintsDisabled` Events, repeats included (they repeat on every failing sync).
    pub disabled_events: i64,
    /// Flips seen: each switch on, and each switch off that an Enabled Event precedes.
    pub flips: i64,
    /// Earliest `lastTimestamp` among those Events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_seen: Option<String>,
    /// Latest `lastTimestamp` among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<String>,
    /// The state the newest Event leaves, and since when; None without such Events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streak: Option<Streak>,
}

/// The current run of one state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Streak {
    /// Hints on (newest Event is Enabled) or off (Disabled).
    pub hints: bool,
    /// On: when they were switched on (exact: each Enabled is a switch). Off: unknown (Disabled
    /// Events repeat), so None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Off: hints were last switched on at this time (the streak began after it); None when no
    /// Enabled Event is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// The spread a certificate assumes (a `topologySpreadConstraint` over the zone label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SpreadRule {
    /// `maxSkew`.
    pub max_skew: i64,
    /// `minDomains` (None: 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_domains: Option<i64>,
    /// `whenUnsatisfiable: DoNotSchedule` (else `ScheduleAnyway`).
    pub hard: bool,
}

/// Whether hints hold at every count of a range in every placement the spread allows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Certificate {
    /// Fewest replicas.
    pub min: i64,
    /// Most replicas.
    pub max: i64,
    /// The spread assumed; None: the scheduler may place pods anywhere among `zones`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread: Option<SpreadRule>,
    /// The zones pods may land in.
    pub zones: Vec<String>,
    /// Counts at which hints hold in every placement examined.
    pub holds: Vec<CountRange>,
    /// Counts at which some placement fails.
    pub exceptions: Vec<CountException>,
    /// Counts no placement satisfies (the spread leaves pods Pending).
    pub unschedulable: Vec<CountRange>,
    /// Placements examined in all.
    pub placements_examined: u64,
    /// The enumeration stopped at [`PLACEMENT_LIMIT`]: counts after `examined_to` are not certified.
    pub truncated: bool,
    /// The last count examined in full.
    pub examined_to: i64,
}

/// Placements a certificate examines at most.
pub const PLACEMENT_LIMIT: u64 = 200_000;

/// Failing placements kept per count.
pub const FAILING_KEPT: usize = 5;

/// A count at which some allowed placement does not hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CountException {
    /// The replica count.
    pub count: i64,
    /// Every allowed placement fails.
    pub any_placement: bool,
    /// Allowed placements at this count.
    pub allowed: u64,
    /// Failing ones.
    pub failing: u64,
    /// Up to [`FAILING_KEPT`] failing placements (endpoints per zone), when not all fail.
    pub examples: Vec<BTreeMap<String, i64>>,
}

/// `simulate --replicas MIN..MAX`: the certificate of one Service on today's cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CertificateReport {
    /// Which Service.
    pub service: super::ServiceRef,
    /// Behaviour modelled, e.g. `1.36`.
    pub kubernetes_version: String,
    /// The Service's mode today: the certificate is about the Auto allocation; in another mode it
    /// says what Auto would do.
    pub mode: super::mode::Mode,
    /// The certificate.
    pub certificate: Certificate,
}

impl super::Kind for CertificateReport {
    const KIND: &'static str = "CertificateReport";
}

/// `explain`'s certificates: each workload behind the Service certified over its own replica range
/// (its HPA's, else its `spec.replicas`) and its pod template's zone spread, the other endpoints of
/// the Service held as they are (docs/stability.md#certificate-from-the-workloads).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadCertificates {
    /// One per workload whose replicas are known, by kind and name.
    pub workloads: Vec<WorkloadCertificate>,
    /// Why no workload could be certified; None when some was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<CertificateUnknown>,
}

impl WorkloadCertificates {
    /// Some workload's certificate has an exception, or a count its spread leaves Pending: what
    /// `--fail-on fragile` fails, as `simulate --apply`'s gate does (docs/stability.md#fragile).
    pub fn excepted(&self) -> bool {
        (self.workloads.iter())
            .any(|w| !w.certificate.exceptions.is_empty() || !w.certificate.unschedulable.is_empty())
    }
}

/// Why a Service has no certificate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "reason", rename_all_fields = "camelCase")]
pub enum CertificateUnknown {
    /// Neither its Pods nor the workload kinds were read (an old dump, no RBAC): `reads` has each
    /// read's status.
    WorkloadsNotRead {
        /// The status of each workload read.
        reads: BTreeMap<crate::model::WorkloadObject, crate::model::ReadStatus>,
    },
    /// The reads were done and no workload is behind its endpoints.
    NoWorkload,
    /// Every workload behind it has unknown replicas: its object was not read, or it is another
    /// kind of controller (DaemonSet, Job, a custom resource).
    ReplicasUnknown {
        /// `kind/name` of each, as its Pods' ownerReference names it.
        workloads: Vec<String>,
    },
}

/// Where a certified replica range comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "from", rename_all_fields = "camelCase")]
pub enum RangeSource {
    /// The autoscaling/v2 HorizontalPodAutoscaler's `minReplicas`..`maxReplicas`.
    Autoscaler {
        /// The HPA's name.
        name: String,
    },
    /// No autoscaler: the workload's `spec.replicas`, one count.
    Replicas,
}

/// Something of a workload's `topologySpreadConstraints` the certificate does not model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SpreadNote {
    /// A zone constraint whose `labelSelector` does not select the workload's own Pods: it spreads
    /// other Pods, so it is left out.
    OtherPods,
    /// Several zone constraints select its Pods: the hard one with the smallest `maxSkew` is modelled.
    SeveralZoneConstraints,
    /// `nodeTaintsPolicy: Honor`: zones whose Nodes the Pods do not tolerate would not count; Node
    /// taints are not read, so every eligible zone counts (as under the default `Ignore`).
    TaintsHonored,
    /// `nodeAffinityPolicy: Ignore`: zones the Pods' node affinity excludes would still count in
    /// the skew; the pod template's affinity is not read either way.
    AffinityIgnored,
}

/// One workload's certificate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadCertificate {
    /// Its kind.
    pub kind: crate::model::WorkloadKind,
    /// Its name.
    pub name: String,
    /// Where the range (`certificate.min`..`certificate.max`) comes from.
    pub range: RangeSource,
    /// Endpoints of the Service not of this workload, held at today's count in every count
    /// examined: the other workloads' Pods behind its endpoints (their replicas when found by
    /// selector) and endpoints no controlled Pod backs.
    pub others: i64,
    /// What of its spread constraints is not modelled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spread_notes: Vec<SpreadNote>,
    /// The certificate (its `spread` the zone constraint modelled, if any).
    pub certificate: Certificate,
}
