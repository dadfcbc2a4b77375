//! The workloads behind Services (issue 34 item 1): Deployments, StatefulSets and ReplicaSets with
//! their replica counts, the range an autoscaling/v2 HorizontalPodAutoscaler gives them, their pod
//! template's `topologySpreadConstraints` and labels; and Pods, reduced to their controller, node
//! and addresses. Read best effort: each kind has a [`ReadStatus`] (read, forbidden, not in
//! the dump…), so a report says what is unknown instead of guessing.
//!
//! Plain data: the joins (a Service's endpoints → Pods by address → ReplicaSet → Deployment, or
//! the Service's selector → pod template labels when Pods were not read) are
//! `core::analyze::workloads`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dataplane::ReadStatus;
use super::strmap::StrMap;

/// One kind of object the workload reads look for, each with its own [`ReadStatus`].
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
    Deserialize,
    strum::Display,
    strum::VariantArray,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WorkloadObject {
    /// `v1 Pod`: reduced to its controller ownerReference and node.
    Pods,
    /// `apps/v1 Deployment`.
    Deployments,
    /// `apps/v1 StatefulSet`.
    StatefulSets,
    /// `apps/v1 ReplicaSet`.
    ReplicaSets,
    /// `autoscaling/v2 HorizontalPodAutoscaler`.
    HorizontalPodAutoscalers,
}

/// The kind of a workload.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, strum::Display,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WorkloadKind {
    /// `apps/v1 Deployment`.
    Deployment,
    /// `apps/v1 StatefulSet`.
    StatefulSet,
    /// `apps/v1 ReplicaSet` (one no Deployment controls, or whose Deployment was not read).
    ReplicaSet,
    /// Any other controller of a Pod (DaemonSet, Job, a custom resource): named, never read.
    Other,
}

impl WorkloadKind {
    /// The kind an ownerReference's `kind` names (`Other` for every other kind).
    pub fn from_kind(kind: &str) -> Self {
        match kind {
            "Deployment" => WorkloadKind::Deployment,
            "StatefulSet" => WorkloadKind::StatefulSet,
            "ReplicaSet" => WorkloadKind::ReplicaSet,
            _ => WorkloadKind::Other,
        }
    }
}

/// A controller ownerReference (`controller: true`): the owner's kind and name, in the object's
/// namespace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Owner {
    /// `kind` as written (`ReplicaSet`, `StatefulSet`, `DaemonSet`, …).
    pub kind: String,
    /// `name`.
    pub name: String,
}

/// A Pod, lean: who controls it and where it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// Its controller ownerReference, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    /// `spec.nodeName`, when scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    /// `status.podIPs[].ip` (or `status.podIP`): the addresses its endpoints carry, which is how a
    /// Service's endpoints find their Pods (the endpoints' `targetRef` names are not kept: on a
    /// large cluster they would cost every command a string per endpoint).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ips: Vec<String>,
}

/// One entry of a pod template's `topologySpreadConstraints`, as the scheduler reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SpreadConstraint {
    /// `topologyKey` (`topology.kubernetes.io/zone` is the one hints care about).
    pub topology_key: String,
    /// `maxSkew`.
    pub max_skew: i32,
    /// `minDomains`, when set (only with `whenUnsatisfiable: DoNotSchedule`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_domains: Option<i32>,
    /// `whenUnsatisfiable`: `DoNotSchedule` or `ScheduleAnyway`.
    pub when_unsatisfiable: String,
    /// `nodeAffinityPolicy` (`Honor` when absent, the scheduler's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity_policy: Option<String>,
    /// `nodeTaintsPolicy` (`Ignore` when absent, the scheduler's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_taints_policy: Option<String>,
    /// Whether its `labelSelector` selects the template's own labels: when not, the constraint
    /// counts other Pods and does not spread this workload's.
    pub selects_own_pods: bool,
}

/// The replica range an autoscaling/v2 HorizontalPodAutoscaler gives a workload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Autoscaler {
    /// The HPA's name.
    pub name: String,
    /// `spec.minReplicas`, 1 when absent (the API server's default).
    pub min: i32,
    /// `spec.maxReplicas`.
    pub max: i32,
}

/// An autoscaling/v2 HorizontalPodAutoscaler: what it scales and between which counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hpa {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.scaleTargetRef` (kind and name).
    pub target: Owner,
    /// The range.
    pub range: Autoscaler,
}

/// A Deployment, StatefulSet or ReplicaSet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    /// Its kind (never `Other`: other owners are not read).
    pub kind: WorkloadKind,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// `spec.replicas` (`None` when absent: the API server defaults it to 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// A ReplicaSet's controller ownerReference (its Deployment); `None` for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    /// `spec.template.spec.topologySpreadConstraints`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spread: Vec<SpreadConstraint>,
    /// `spec.template.metadata.labels`.
    #[serde(default)]
    pub template_labels: StrMap,
}

/// Everything the workload reads found, with a status per kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workloads {
    /// What each read found; a kind not listed was not looked for (a Snapshot built in code, or a
    /// command that needs no workloads).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reads: BTreeMap<WorkloadObject, ReadStatus>,
    /// Deployments, StatefulSets and ReplicaSets, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workloads: Vec<Workload>,
    /// autoscaling/v2 HorizontalPodAutoscalers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub autoscalers: Vec<Hpa>,
    /// Pods (those the asked-for Services select, or all in scope).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pods: Vec<Pod>,
}

impl Workloads {
    /// The status of the read of `object` (`None`: not looked for).
    pub fn status(&self, object: WorkloadObject) -> Option<ReadStatus> {
        self.reads.get(&object).copied()
    }

    /// True when nothing was read or looked for: a command that needs no workloads.
    pub fn is_empty(&self) -> bool {
        *self == Workloads::default()
    }

    /// True when some read was done or refused: `false` for a dump that holds none of the kinds
    /// (every read `NotInDump`), or a command that did not look.
    pub fn looked_for(&self) -> bool {
        self.reads.values().any(|s| *s != ReadStatus::NotInDump)
    }

    /// The workload of `kind` named `namespace/name`, when read.
    pub fn find(&self, kind: WorkloadKind, namespace: &str, name: &str) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.kind == kind && w.namespace == namespace && w.name == name)
    }

    /// The autoscaler whose `scaleTargetRef` names `kind` `namespace/name`.
    pub fn autoscaler(&self, kind: WorkloadKind, namespace: &str, name: &str) -> Option<&Autoscaler> {
        let kind = kind.to_string();
        self.autoscalers
            .iter()
            .find(|h| h.namespace == namespace && h.target.kind == kind && h.target.name == name)
            .map(|h| &h.range)
    }
}
