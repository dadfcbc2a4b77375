//! The workload reads (issue 34 item 1, `model/workload.rs`): Pods, Deployments, StatefulSets,
//! ReplicaSets and autoscaling/v2 HorizontalPodAutoscalers, each decoded lean (only the fields
//! the model takes: a Pod's controller ownerReference, node and addresses; a workload's replicas,
//! controller, pod template labels and spread constraints; an HPA's target and range), from a
//! dump's objects and from live lists alike. Pure: the live reads are `source/live/workload.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use topo_engine::model::{
    Autoscaler, Hpa, Owner, Pod, ReadStatus, SpreadConstraint, Workload, WorkloadKind, WorkloadObject,
    Workloads,
};

/// The kinds read, as a dump writes them: `(apiVersion, kind, what it stands for)`.
pub(crate) const WORKLOAD_KINDS: [(&str, &str, WorkloadObject); 5] = [
    ("v1", "Pod", WorkloadObject::Pods),
    ("apps/v1", "Deployment", WorkloadObject::Deployments),
    ("apps/v1", "StatefulSet", WorkloadObject::StatefulSets),
    ("apps/v1", "ReplicaSet", WorkloadObject::ReplicaSets),
    ("autoscaling/v2", "HorizontalPodAutoscaler", WorkloadObject::HorizontalPodAutoscalers),
];

/// The read a dump's `(apiVersion, kind)` stands for, if any.
pub(crate) fn object_named(api_version: &str, kind: &str) -> Option<WorkloadObject> {
    WORKLOAD_KINDS.iter().find(|(a, k, _)| *a == api_version && *k == kind).map(|(_, _, o)| *o)
}

/// How a dump's messages name an object of `object`'s kind (kubectl's lower case).
pub(crate) fn object_label(object: WorkloadObject) -> &'static str {
    match object {
        WorkloadObject::Pods => "pod",
        WorkloadObject::Deployments => "deployment",
        WorkloadObject::StatefulSets => "statefulset",
        WorkloadObject::ReplicaSets => "replicaset",
        WorkloadObject::HorizontalPodAutoscalers => "horizontalpodautoscaler",
    }
}

/// `metadata`, as far as it is read.
#[derive(Deserialize, Default)]
#[serde(expecting = "ObjectMeta", rename_all = "camelCase")]
struct Meta {
    name: Option<String>,
    namespace: Option<String>,
    owner_references: Option<Vec<OwnerReference>>,
}

#[derive(Deserialize)]
#[serde(expecting = "OwnerReference")]
struct OwnerReference {
    kind: Option<String>,
    name: Option<String>,
    controller: Option<bool>,
}

impl Meta {
    /// The controller ownerReference (`controller: true`; the API server allows one).
    fn controller(&self) -> Option<Owner> {
        let owner = self.owner_references.iter().flatten().find(|o| o.controller == Some(true))?;
        Some(Owner {
            kind: owner.kind.clone().unwrap_or_default(),
            name: owner.name.clone().unwrap_or_default(),
        })
    }

    fn names(self) -> (String, String) {
        (self.namespace.unwrap_or_default(), self.name.unwrap_or_default())
    }
}

/// A Pod: its controller, node and addresses.
#[derive(Deserialize)]
#[serde(expecting = "Pod")]
pub(crate) struct LeanPod {
    metadata: Option<Meta>,
    spec: Option<PodSpec>,
    status: Option<PodStatus>,
}

#[derive(Deserialize)]
#[serde(expecting = "PodSpec", rename_all = "camelCase")]
struct PodSpec {
    node_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(expecting = "PodStatus", rename_all = "camelCase")]
struct PodStatus {
    #[serde(rename = "podIP")]
    pod_ip: Option<String>,
    #[serde(rename = "podIPs")]
    pod_ips: Option<Vec<PodIp>>,
}

#[derive(Deserialize)]
#[serde(expecting = "PodIP")]
struct PodIp {
    ip: Option<String>,
}

impl LeanPod {
    /// The model's Pod.
    pub(crate) fn into_model(self) -> Pod {
        let meta = self.metadata.unwrap_or_default();
        let owner = meta.controller();
        let (namespace, name) = meta.names();
        let (pod_ip, pod_ips) = self.status.map(|s| (s.pod_ip, s.pod_ips)).unwrap_or_default();
        let mut ips: Vec<String> = pod_ips.into_iter().flatten().filter_map(|p| p.ip).collect();
        if ips.is_empty() {
            ips.extend(pod_ip);
        }
        Pod { namespace, name, owner, node_name: self.spec.and_then(|s| s.node_name), ips }
    }
}

/// A Deployment, StatefulSet or ReplicaSet: replicas, controller, pod template labels and spread.
#[derive(Deserialize)]
#[serde(expecting = "Deployment, StatefulSet or ReplicaSet")]
pub(crate) struct LeanWorkload {
    metadata: Option<Meta>,
    spec: Option<WorkloadSpec>,
}

#[derive(Deserialize)]
#[serde(expecting = "spec")]
struct WorkloadSpec {
    replicas: Option<i32>,
    template: Option<Template>,
}

#[derive(Deserialize)]
#[serde(expecting = "PodTemplateSpec")]
struct Template {
    metadata: Option<TemplateMeta>,
    spec: Option<TemplateSpec>,
}

#[derive(Deserialize)]
#[serde(expecting = "ObjectMeta")]
struct TemplateMeta {
    labels: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(expecting = "PodSpec", rename_all = "camelCase")]
struct TemplateSpec {
    topology_spread_constraints: Option<Vec<Constraint>>,
}

#[derive(Deserialize)]
#[serde(expecting = "TopologySpreadConstraint", rename_all = "camelCase")]
struct Constraint {
    topology_key: Option<String>,
    max_skew: Option<i32>,
    min_domains: Option<i32>,
    when_unsatisfiable: Option<String>,
    node_affinity_policy: Option<String>,
    node_taints_policy: Option<String>,
    label_selector: Option<LabelSelector>,
}

#[derive(Deserialize)]
#[serde(expecting = "LabelSelector", rename_all = "camelCase")]
struct LabelSelector {
    match_labels: Option<BTreeMap<String, String>>,
    match_expressions: Option<Vec<Requirement>>,
}

#[derive(Deserialize)]
#[serde(expecting = "LabelSelectorRequirement")]
struct Requirement {
    key: Option<String>,
    operator: Option<String>,
    values: Option<Vec<String>>,
}

impl LabelSelector {
    /// `metav1.LabelSelectorAsSelector(s).Matches(labels)`: every matchLabels pair and every
    /// expression holds; an unknown operator matches nothing (the API server refuses one).
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let pairs = self.match_labels.iter().flatten().all(|(k, v)| labels.get(k) == Some(v));
        pairs
            && self.match_expressions.iter().flatten().all(|r| {
                let value = r.key.as_ref().and_then(|k| labels.get(k));
                let values = r.values.as_deref().unwrap_or_default();
                match r.operator.as_deref() {
                    Some("In") => value.is_some_and(|v| values.contains(v)),
                    Some("NotIn") => value.is_none_or(|v| !values.contains(v)),
                    Some("Exists") => value.is_some(),
                    Some("DoesNotExist") => value.is_none(),
                    _ => false,
                }
            })
    }
}

impl LeanWorkload {
    /// The model's workload of `kind`.
    pub(crate) fn into_model(self, kind: WorkloadKind) -> Workload {
        let meta = self.metadata.unwrap_or_default();
        let owner = meta.controller().filter(|_| kind == WorkloadKind::ReplicaSet);
        let (namespace, name) = meta.names();
        let (replicas, template) = self.spec.map(|s| (s.replicas, s.template)).unwrap_or_default();
        let (labels, constraints) = match template {
            Some(t) => (
                t.metadata.and_then(|m| m.labels).unwrap_or_default(),
                t.spec.and_then(|s| s.topology_spread_constraints).unwrap_or_default(),
            ),
            None => (BTreeMap::new(), Vec::new()),
        };
        let spread = constraints.into_iter().map(|c| c.into_model(&labels)).collect();
        Workload { kind, namespace, name, replicas, owner, spread, template_labels: labels.into() }
    }
}

impl Constraint {
    fn into_model(self, labels: &BTreeMap<String, String>) -> SpreadConstraint {
        SpreadConstraint {
            topology_key: self.topology_key.unwrap_or_default(),
            max_skew: self.max_skew.unwrap_or_default(),
            min_domains: self.min_domains,
            when_unsatisfiable: self.when_unsatisfiable.unwrap_or_default(),
            node_affinity_policy: self.node_affinity_policy,
            node_taints_policy: self.node_taints_policy,
            // A nil selector selects no Pod (the scheduler counts none).
            selects_own_pods: self.label_selector.is_some_and(|s| s.matches(labels)),
        }
    }
}

/// An autoscaling/v2 HorizontalPodAutoscaler: its target and range.
#[derive(Deserialize)]
#[serde(expecting = "HorizontalPodAutoscaler")]
pub(crate) struct LeanHpa {
    metadata: Option<Meta>,
    spec: Option<HpaSpec>,
}

#[derive(Deserialize)]
#[serde(expecting = "HorizontalPodAutoscalerSpec", rename_all = "camelCase")]
struct HpaSpec {
    scale_target_ref: Option<TargetRef>,
    min_replicas: Option<i32>,
    max_replicas: Option<i32>,
}

#[derive(Deserialize)]
#[serde(expecting = "CrossVersionObjectReference")]
struct TargetRef {
    kind: Option<String>,
    name: Option<String>,
}

impl LeanHpa {
    /// The model's HPA (`minReplicas` defaults to 1, as the API server defaults it).
    pub(crate) fn into_model(self) -> Hpa {
        let (namespace, name) = self.metadata.unwrap_or_default().names();
        let (target, min, max) = match self.spec {
            Some(s) => (s.scale_target_ref, s.min_replicas, s.max_replicas),
            None => (None, None, None),
        };
        let (kind, target_name) = target.map(|t| (t.kind, t.name)).unwrap_or_default();
        Hpa {
            namespace,
            target: Owner { kind: kind.unwrap_or_default(), name: target_name.unwrap_or_default() },
            range: Autoscaler { name, min: min.unwrap_or(1), max: max.unwrap_or_default() },
        }
    }
}

/// One object of the workload reads, in the model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Found {
    /// A Pod.
    Pod(Pod),
    /// A Deployment, StatefulSet or ReplicaSet.
    Workload(Workload),
    /// An HPA.
    Hpa(Hpa),
}

impl Found {
    /// Decodes a dump's object of `object`'s kind.
    pub(crate) fn decode(
        object: WorkloadObject,
        value: serde_json::Value,
    ) -> Result<Found, serde_json::Error> {
        Ok(match object {
            WorkloadObject::Pods => Found::Pod(serde_json::from_value::<LeanPod>(value)?.into_model()),
            WorkloadObject::HorizontalPodAutoscalers => {
                Found::Hpa(serde_json::from_value::<LeanHpa>(value)?.into_model())
            }
            WorkloadObject::Deployments => workload(value, WorkloadKind::Deployment)?,
            WorkloadObject::StatefulSets => workload(value, WorkloadKind::StatefulSet)?,
            WorkloadObject::ReplicaSets => workload(value, WorkloadKind::ReplicaSet)?,
        })
    }

    /// `(kind label, namespace, name)`: how a dump's messages name it, and its key for duplicates.
    pub(crate) fn key(&self) -> (&'static str, &str, &str) {
        match self {
            Found::Pod(p) => ("pod", &p.namespace, &p.name),
            Found::Workload(w) => (kind_label(w.kind), &w.namespace, &w.name),
            Found::Hpa(h) => ("horizontalpodautoscaler", &h.namespace, &h.range.name),
        }
    }

    /// Puts it into `workloads` and marks its kind read.
    pub(crate) fn apply(self, workloads: &mut Workloads) {
        let object = match self {
            Found::Pod(pod) => {
                workloads.pods.push(pod);
                WorkloadObject::Pods
            }
            Found::Hpa(hpa) => {
                workloads.autoscalers.push(hpa);
                WorkloadObject::HorizontalPodAutoscalers
            }
            Found::Workload(w) => {
                let object = object_of(w.kind);
                workloads.workloads.push(w);
                object
            }
        };
        workloads.reads.insert(object, ReadStatus::Read);
    }
}

fn workload(value: serde_json::Value, kind: WorkloadKind) -> Result<Found, serde_json::Error> {
    Ok(Found::Workload(serde_json::from_value::<LeanWorkload>(value)?.into_model(kind)))
}

/// The read a workload kind comes from.
pub(crate) fn object_of(kind: WorkloadKind) -> WorkloadObject {
    match kind {
        WorkloadKind::Deployment | WorkloadKind::Other => WorkloadObject::Deployments,
        WorkloadKind::StatefulSet => WorkloadObject::StatefulSets,
        WorkloadKind::ReplicaSet => WorkloadObject::ReplicaSets,
    }
}

/// How messages name a workload's kind (kubectl's lower case).
pub(crate) fn kind_label(kind: WorkloadKind) -> &'static str {
    match kind {
        WorkloadKind::Deployment => "deployment",
        WorkloadKind::StatefulSet => "statefulset",
        WorkloadKind::ReplicaSet => "replicaset",
        WorkloadKind::Other => "workload",
    }
}

/// The status of every workload read of a dump: read when it holds an object of the kind, else
/// what the dump's ClusterInfo recorded, else not in the dump.
pub(crate) fn dump_statuses(workloads: &mut Workloads, recorded: &BTreeMap<WorkloadObject, ReadStatus>) {
    for (_, _, object) in WORKLOAD_KINDS {
        let status = recorded.get(&object).copied().unwrap_or(ReadStatus::NotInDump);
        workloads.reads.entry(object).or_insert(status);
    }
}

/// The statuses a dump records in its ClusterInfo: those of reads that found nothing (a read
/// kind is in the dump itself).
pub(crate) fn recorded(workloads: &Workloads) -> BTreeMap<WorkloadObject, ReadStatus> {
    (workloads.reads.iter())
        .filter(|(_, s)| !matches!(s, ReadStatus::Read | ReadStatus::NotInDump))
        .map(|(o, s)| (*o, *s))
        .collect()
}

mod items;
pub(crate) use items::{Naming, items, labels};

#[cfg(test)]
mod tests;
