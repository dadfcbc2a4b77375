//! The workloads behind a Service (`explain`'s "Workloads" section): which Deployments,
//! StatefulSets, ReplicaSets or other controllers own its endpoints' Pods, with their replicas, the
//! autoscaler's range and the spread of their pods, and how they were found. Facts only; the words
//! are the caller's.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Autoscaler, ReadStatus, SpreadConstraint, WorkloadKind, WorkloadObject};

/// How the workloads of a Service were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FoundBy {
    /// Its endpoints' addresses → the Pods with those addresses → their controller
    /// ownerReferences (a ReplicaSet → its Deployment).
    Pods,
    /// Pods were not read: the Service's selector against each workload's pod template labels.
    Selector,
    /// Neither could be done: Pods and the workloads were not read, or the Service has no
    /// selector and no Pod matched.
    Unknown,
}

/// One workload behind a Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BackingWorkload {
    /// Its kind (`Other`: a controller that is not read, named by `ownerKind`).
    pub kind: WorkloadKind,
    /// The controller's kind as its Pods' ownerReference writes it, for `Other`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_kind: Option<String>,
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// Whether the workload's object was read (`false`: named by its Pods only; its replicas,
    /// range and spread are unknown).
    pub read: bool,
    /// `spec.replicas` (1 when the object leaves it out, as the API server defaults it); `None`
    /// when not read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The range of the autoscaling/v2 HorizontalPodAutoscaler that scales it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autoscaler: Option<Autoscaler>,
    /// Its pod template's `topologySpreadConstraints`.
    pub spread: Vec<SpreadConstraint>,
    /// Its Pods that back an endpoint of the Service (found by Pods only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<u32>,
}

/// The workloads behind one Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadsReport {
    /// How they were found.
    pub found_by: FoundBy,
    /// The workloads, by kind and name.
    pub workloads: Vec<BackingWorkload>,
    /// Endpoints (found by Pods) whose address no Pod read has, or whose Pod has no controller.
    pub unowned_endpoints: u32,
    /// The status of each read (forbidden, failed, not in the dump…): what is unknown.
    pub reads: BTreeMap<WorkloadObject, ReadStatus>,
}
