//! `simulate --apply` (docs/apply.md): rendered manifests laid over a cluster, and each Service
//! they affect before → after, with the certificate after the change. Codes and numbers only.

use serde::Serialize;

use super::reason::Reason;
use super::stability::{Certificate, SpreadRule};
use super::whatif::{BeforeAfter, SimulationReport};
use super::{ServiceRef, VersionBasis};
use crate::model::{Autoscaler, WorkloadKind};

/// What applying a manifest does to the object of its kind, namespace and name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, strum::Display, strum::IntoStaticStr,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ObjectChange {
    /// No object of that kind, namespace and name was in the cluster.
    Added,
    /// The cluster's object is replaced by a different one.
    Replaced,
    /// The manifest says what the cluster's object already says (as far as it is read).
    Unchanged,
}

/// The kind of a manifest object `simulate --apply` applies.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, strum::Display, strum::IntoStaticStr,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AppliedKind {
    /// `v1 Node` (a node-pool change).
    Node,
    /// `v1 Service`.
    Service,
    /// `apps/v1 Deployment`.
    Deployment,
    /// `apps/v1 StatefulSet`.
    StatefulSet,
    /// `apps/v1 ReplicaSet`.
    ReplicaSet,
    /// `autoscaling/v2 HorizontalPodAutoscaler`.
    HorizontalPodAutoscaler,
}

/// One object of the manifests and what it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppliedObject {
    /// Its kind.
    pub kind: AppliedKind,
    /// Its namespace (empty for a Node).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Added, replaced or unchanged.
    pub change: ObjectChange,
}

/// Why a Service is in the report.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, strum::Display, strum::IntoStaticStr,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Cause {
    /// The Service object is added or replaced.
    Service,
    /// A workload behind it (or its autoscaler) is added or replaced: its endpoints follow.
    Workloads,
    /// Nodes are added, replaced or removed: the zones' CPU every Auto Service is allocated by.
    Nodes,
}

/// One workload behind a Service after the change.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppliedWorkload {
    /// Its kind.
    pub kind: WorkloadKind,
    /// Its name (in the Service's namespace).
    pub name: String,
    /// What the manifests do to it.
    pub change: ObjectChange,
    /// Replicas: the cluster's `spec.replicas` (None: not read, or added), and the count
    /// simulated after the change (`spec.replicas`, within the autoscaler's range).
    pub replicas: BeforeAfter<Option<i64>>,
    /// The autoscaling/v2 HorizontalPodAutoscaler's range after the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autoscaler: Option<Autoscaler>,
    /// Its zone `topologySpreadConstraint` after the change (the first over the zone label that
    /// spreads its own Pods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread: Option<SpreadRule>,
}

/// One Service before → after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceApply<R = Reason> {
    /// Which Service.
    pub service: ServiceRef,
    /// What the manifests do to the Service object (`Added`: `simulation.before` is of a Service
    /// that does not exist yet).
    pub change: ObjectChange,
    /// Why it is affected.
    pub causes: Vec<Cause>,
    /// The workloads behind it after the change (its selector against their pod templates).
    pub workloads: Vec<AppliedWorkload>,
    /// The change as `simulate` models it: the controller's reaction, before → after.
    pub simulation: SimulationReport<R>,
    /// The certificate after the change (Auto mode only): every replica count the autoscaler may
    /// pick, every placement the workload's spread allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
}

/// `simulate --apply`: the objects applied and every Service they affect.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApplyReport<R = Reason> {
    /// Behaviour modelled.
    pub kubernetes_version: String,
    /// Why that version (set by the caller).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version_basis: Option<VersionBasis>,
    /// The manifests' objects, in the order read (a later object of the same kind, namespace and
    /// name replaces an earlier one).
    pub objects: Vec<AppliedObject>,
    /// The node flags given beside `--apply` (`--remove-node`, …), as typed.
    pub node_changes: Vec<String>,
    /// The Services affected, by namespace and name.
    pub services: Vec<ServiceApply<R>>,
}

impl<R: Serialize> super::Kind for ApplyReport<R> {
    const KIND: &'static str = "ApplyReport";
}

impl ApplyReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: super::present::Presenter<'_, S>) -> ApplyReport<S> {
        let service = |s: ServiceApply| ServiceApply {
            service: s.service,
            change: s.change,
            causes: s.causes,
            workloads: s.workloads,
            simulation: s.simulation.present(f),
            certificate: s.certificate,
        };
        ApplyReport {
            kubernetes_version: self.kubernetes_version,
            kubernetes_version_basis: self.kubernetes_version_basis,
            objects: self.objects,
            node_changes: self.node_changes,
            services: self.services.into_iter().map(service).collect(),
        }
    }
}
