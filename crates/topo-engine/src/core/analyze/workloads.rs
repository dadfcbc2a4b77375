//! The workloads behind a Service: its endpoints' addresses → the Pods that have them → their
//! controller ownerReference (a ReplicaSet → the Deployment that controls it), as the
//! EndpointSlice controller built the endpoints from those Pods (`podToEndpoint` writes
//! `status.podIPs` as the addresses); when Pods were not read, the Service's selector against
//! each workload's pod template labels, as the ReplicaSet and StatefulSet controllers label the
//! Pods they create from the template.

use std::collections::{BTreeMap, HashMap};

use crate::model::{
    Owner, Pod, ReadStatus, Service, Snapshot, StrMap, Workload, WorkloadKind, WorkloadObject, Workloads,
};
use crate::report::workloads::{BackingWorkload, FoundBy, WorkloadsReport};

/// The workloads behind `service`.
pub fn workloads(snapshot: &Snapshot, service: &Service) -> WorkloadsReport {
    let read = &snapshot.workloads;
    let status = |object| read.status(object) == Some(ReadStatus::Read);
    let any_workload_read =
        [WorkloadObject::Deployments, WorkloadObject::StatefulSets, WorkloadObject::ReplicaSets]
            .into_iter()
            .any(status);
    let (found_by, workloads, unowned_endpoints) = if status(WorkloadObject::Pods) {
        let (workloads, unowned) = by_pods(snapshot, service);
        (FoundBy::Pods, workloads, unowned)
    } else if any_workload_read && service.has_selector && !service.selector.is_empty() {
        (FoundBy::Selector, by_selector(read, service), 0)
    } else {
        (FoundBy::Unknown, Vec::new(), 0)
    };
    WorkloadsReport { found_by, workloads, unowned_endpoints, reads: read.reads.clone() }
}

/// The controllers of the Pods behind the Service's endpoints, with how many of their Pods back
/// one; and the endpoints no controlled Pod backs.
fn by_pods(snapshot: &Snapshot, service: &Service) -> (Vec<BackingWorkload>, u32) {
    let read = &snapshot.workloads;
    let by_ip: HashMap<&str, &Pod> = (read.pods.iter())
        .filter(|p| p.namespace == service.namespace)
        .flat_map(|p| p.ips.iter().map(move |ip| (ip.as_str(), p)))
        .collect();
    let mut pods: BTreeMap<(WorkloadKind, Option<String>, String), Vec<&str>> = BTreeMap::new();
    let mut unowned = 0u32;
    let endpoints = snapshot.slices.iter().filter(|s| s.is_for(service)).flat_map(|s| s.endpoints.iter());
    for endpoint in endpoints {
        let pod = endpoint.addresses.iter().find_map(|a| by_ip.get(a.as_str()));
        match pod.and_then(|p| p.owner.as_ref().map(|o| (p, o))) {
            Some((pod, owner)) => {
                let (kind, owner_kind, name) = controller(read, &pod.namespace, owner);
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
            let mut backing = backing(read, kind, &service.namespace, &name);
            backing.owner_kind = owner_kind;
            backing.pods = Some(u32::try_from(names.len()).unwrap_or(u32::MAX));
            backing
        })
        .collect();
    (backing, unowned)
}

/// The workload a Pod's controller stands for: a ReplicaSet's Deployment when the ReplicaSet was
/// read and a Deployment controls it, else the controller itself (`Other` with its kind).
fn controller(read: &Workloads, namespace: &str, owner: &Owner) -> (WorkloadKind, Option<String>, String) {
    let kind = WorkloadKind::from_kind(&owner.kind);
    if kind == WorkloadKind::ReplicaSet
        && let Some(deployment) = read
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
fn by_selector(read: &Workloads, service: &Service) -> Vec<BackingWorkload> {
    let controlled = |w: &Workload| {
        w.owner.as_ref().is_some_and(|o| {
            o.kind == "Deployment" && read.find(WorkloadKind::Deployment, &w.namespace, &o.name).is_some()
        })
    };
    let mut found: Vec<BackingWorkload> = (read.workloads.iter())
        .filter(|w| w.namespace == service.namespace && !controlled(w))
        .filter(|w| selects(&service.selector, &w.template_labels))
        .map(|w| backing(read, w.kind, &w.namespace, &w.name))
        .collect();
    found.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    found
}

/// A Service's selector selects Pods with `labels` when every one of its pairs is among them
/// (`labels.SelectorFromSet`); an empty selector selects nothing here (the controller makes no
/// endpoints for it).
fn selects(selector: &StrMap, labels: &StrMap) -> bool {
    !selector.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// A workload as the report shows it: what its object says when it was read.
fn backing(read: &Workloads, kind: WorkloadKind, namespace: &str, name: &str) -> BackingWorkload {
    let object = read.find(kind, namespace, name);
    BackingWorkload {
        kind,
        owner_kind: None,
        namespace: namespace.to_string(),
        name: name.to_string(),
        read: object.is_some(),
        replicas: object.map(|w| w.replicas.unwrap_or(1)),
        autoscaler: read.autoscaler(kind, namespace, name).cloned(),
        spread: object.map(|w| w.spread.clone()).unwrap_or_default(),
        pods: None,
    }
}

#[cfg(test)]
mod tests;
