//! The workloads behind a Service: its endpoints' addresses → the Pods that have them → their
//! controller ownerReference (a ReplicaSet → the Deployment that controls it), as the
//! EndpointSlice controller built the endpoints from those Pods (`podToEndpoint` writes
//! `status.podIPs` as the addresses); when Pods were not read, the Service's selector against
//! each workload's pod template labels, as the ReplicaSet and StatefulSet controllers label the
//! Pods they create from the template.
//!
//! [`WorkloadIndex`] holds the lookups of one snapshot (Pods by address, workloads and autoscalers
//! by name, slices by Service), built once: `explain` asks it about one Service, `check --certify`
//! about every Service, each in time proportional to that Service's endpoints.

use std::collections::{BTreeMap, HashMap};

use crate::model::{
    Autoscaler, EndpointSlice, Owner, Pod, ReadStatus, Service, Snapshot, StrMap, Workload, WorkloadKind,
    WorkloadObject, Workloads,
};
use crate::report::workloads::{BackingWorkload, FoundBy, WorkloadsReport};

/// The workloads behind `service`.
pub fn workloads(snapshot: &Snapshot, service: &Service) -> WorkloadsReport {
    WorkloadIndex::new(snapshot).workloads(service)
}

/// The lookups of one snapshot's workload reads, built once in time linear in what was read.
pub struct WorkloadIndex<'a> {
    read: &'a Workloads,
    /// Pods by namespace and address (a later Pod with the same address wins, as it always did).
    pods: HashMap<(&'a str, &'a str), &'a Pod>,
    /// Workloads by kind, namespace and name (the first in source order, as [`Workloads::find`]).
    by_name: HashMap<(WorkloadKind, &'a str, &'a str), &'a Workload>,
    /// Workloads of each namespace, in source order (the selector path).
    by_namespace: HashMap<&'a str, Vec<&'a Workload>>,
    /// Autoscalers by target kind, namespace and name (the first, as [`Workloads::autoscaler`]).
    autoscalers: HashMap<(&'a str, &'a str, &'a str), &'a Autoscaler>,
    /// Slices by namespace and Service name, in snapshot order.
    slices: HashMap<(&'a str, &'a str), Vec<&'a EndpointSlice>>,
}

impl<'a> WorkloadIndex<'a> {
    /// Index `snapshot`'s workloads, Pods and slices.
    pub fn new(snapshot: &'a Snapshot) -> Self {
        let read = &snapshot.workloads;
        let pods = (read.pods.iter())
            .flat_map(|p| p.ips.iter().map(move |ip| ((p.namespace.as_str(), ip.as_str()), p)))
            .collect();
        let mut by_name = HashMap::new();
        let mut by_namespace: HashMap<&str, Vec<&Workload>> = HashMap::new();
        for w in &read.workloads {
            by_name.entry((w.kind, w.namespace.as_str(), w.name.as_str())).or_insert(w);
            by_namespace.entry(w.namespace.as_str()).or_default().push(w);
        }
        let mut autoscalers = HashMap::new();
        for h in &read.autoscalers {
            let key = (h.target.kind.as_str(), h.namespace.as_str(), h.target.name.as_str());
            autoscalers.entry(key).or_insert(&h.range);
        }
        let mut slices: HashMap<(&str, &str), Vec<&EndpointSlice>> = HashMap::new();
        for s in &snapshot.slices {
            if let Some(name) = s.service_name.as_deref() {
                slices.entry((s.namespace.as_str(), name)).or_default().push(s);
            }
        }
        WorkloadIndex { read, pods, by_name, by_namespace, autoscalers, slices }
    }

    /// The workloads behind `service`.
    pub fn workloads(&self, service: &Service) -> WorkloadsReport {
        let read = self.read;
        let status = |object| read.status(object) == Some(ReadStatus::Read);
        let any_workload_read =
            [WorkloadObject::Deployments, WorkloadObject::StatefulSets, WorkloadObject::ReplicaSets]
                .into_iter()
                .any(status);
        let (found_by, workloads, unowned_endpoints) = if status(WorkloadObject::Pods) {
            let (workloads, unowned) = self.by_pods(service);
            (FoundBy::Pods, workloads, unowned)
        } else if any_workload_read && service.has_selector && !service.selector.is_empty() {
            (FoundBy::Selector, self.by_selector(service), 0)
        } else {
            (FoundBy::Unknown, Vec::new(), 0)
        };
        WorkloadsReport { found_by, workloads, unowned_endpoints, reads: read.reads.clone() }
    }

    fn find(&self, kind: WorkloadKind, namespace: &str, name: &str) -> Option<&'a Workload> {
        self.by_name.get(&(kind, namespace, name)).copied()
    }

    fn autoscaler(&self, kind: WorkloadKind, namespace: &str, name: &str) -> Option<&'a Autoscaler> {
        let kind = kind.to_string();
        self.autoscalers.get(&(kind.as_str(), namespace, name)).copied()
    }

    /// The controllers of the Pods behind the Service's endpoints, with how many of their Pods
    /// back one; and the endpoints no controlled Pod backs.
    fn by_pods(&self, service: &Service) -> (Vec<BackingWorkload>, u32) {
        let namespace = service.namespace.as_str();
        let mut pods: BTreeMap<(WorkloadKind, Option<String>, String), Vec<&str>> = BTreeMap::new();
        let mut unowned = 0u32;
        let slices = self.slices.get(&(namespace, service.name.as_str())).map_or(&[][..], Vec::as_slice);
        for endpoint in slices.iter().flat_map(|s| s.endpoints.iter()) {
            let pod = endpoint.addresses.iter().find_map(|a| self.pods.get(&(namespace, a.as_str())));
            match pod.and_then(|p| p.owner.as_ref().map(|o| (p, o))) {
                Some((pod, owner)) => {
                    let (kind, owner_kind, name) = self.controller(&pod.namespace, owner);
                    let names = pods.entry((kind, owner_kind, name)).or_default();
                    if !names.contains(&pod.name.as_str()) {
                        names.push(&pod.name);
                    }
                }
                None => unowned += 1,
            }
        }
        let backing = pods
            .into_iter()
            .map(|((kind, owner_kind, name), names)| {
                let mut backing = self.backing(kind, namespace, &name);
                backing.owner_kind = owner_kind;
                backing.pods = Some(u32::try_from(names.len()).unwrap_or(u32::MAX));
                backing
            })
            .collect();
        (backing, unowned)
    }

    /// The workload a Pod's controller stands for: a ReplicaSet's Deployment when the ReplicaSet
    /// was read and a Deployment controls it, else the controller itself (`Other` with its kind).
    fn controller(&self, namespace: &str, owner: &Owner) -> (WorkloadKind, Option<String>, String) {
        let kind = WorkloadKind::from_kind(&owner.kind);
        if kind == WorkloadKind::ReplicaSet
            && let Some(deployment) = self
                .find(kind, namespace, &owner.name)
                .and_then(|rs| rs.owner.as_ref())
                .filter(|o| o.kind == "Deployment")
        {
            return (WorkloadKind::Deployment, None, deployment.name.clone());
        }
        let other = (kind == WorkloadKind::Other).then(|| owner.kind.clone());
        (kind, other, owner.name.clone())
    }

    /// Deployments, StatefulSets and ReplicaSets no read Deployment controls whose pod template
    /// carries every label of the Service's selector.
    fn by_selector(&self, service: &Service) -> Vec<BackingWorkload> {
        let controlled = |w: &Workload| {
            w.owner.as_ref().is_some_and(|o| {
                o.kind == "Deployment" && self.find(WorkloadKind::Deployment, &w.namespace, &o.name).is_some()
            })
        };
        let here = self.by_namespace.get(service.namespace.as_str()).map_or(&[][..], Vec::as_slice);
        let mut found: Vec<BackingWorkload> = (here.iter())
            .filter(|w| !controlled(w))
            .filter(|w| selects(&service.selector, &w.template_labels))
            .map(|w| self.backing(w.kind, &w.namespace, &w.name))
            .collect();
        found.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
        found
    }

    /// A workload as the report shows it: what its object says when it was read.
    fn backing(&self, kind: WorkloadKind, namespace: &str, name: &str) -> BackingWorkload {
        let object = self.find(kind, namespace, name);
        BackingWorkload {
            kind,
            owner_kind: None,
            namespace: namespace.to_string(),
            name: name.to_string(),
            read: object.is_some(),
            replicas: object.map(|w| w.replicas.unwrap_or(1)),
            autoscaler: self.autoscaler(kind, namespace, name).cloned(),
            spread: object.map(|w| w.spread.clone()).unwrap_or_default(),
            pods: None,
        }
    }
}

/// A Service's selector selects Pods with `labels` when every one of its pairs is among them
/// (`labels.SelectorFromSet`); an empty selector selects nothing here (the controller makes no
/// endpoints for it).
fn selects(selector: &StrMap, labels: &StrMap) -> bool {
    !selector.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

#[cfg(test)]
mod tests;
