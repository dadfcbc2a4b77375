//! Laying manifests over a Snapshot as `kubectl apply` would: each object replaces the object of
//! its kind, namespace and name, or is added; a later object of the same key replaces an earlier
//! one; the fields the API server fills are kept from the cluster's Service.

use std::collections::BTreeMap;

use crate::model::{Hpa, Node, Service, Snapshot, Workload, WorkloadKind};
use crate::report::apply::{AppliedKind, AppliedObject, ObjectChange};

use super::Manifests;

/// The manifest's Service with what the API server fills kept from the cluster's object.
pub(super) fn filled(manifest: &Service, cluster: Option<&Service>) -> Service {
    let mut s = manifest.clone();
    let Some(c) = cluster else { return s };
    if s.cluster_ip.as_deref().is_none_or(str::is_empty) {
        s.cluster_ip.clone_from(&c.cluster_ip);
    }
    if s.ip_families.is_empty() {
        s.ip_families.clone_from(&c.ip_families);
    }
    if s.internal_traffic_policy.is_none() {
        s.internal_traffic_policy.clone_from(&c.internal_traffic_policy);
    }
    if s.external_traffic_policy.is_none() {
        s.external_traffic_policy.clone_from(&c.external_traffic_policy);
    }
    // Node ports are allocated by the API server; a manifest rarely names them.
    if s.service_type == c.service_type {
        s.externally_accessible |= c.externally_accessible;
    }
    s
}

/// Added, replaced or unchanged; `manifest` None: not in the manifests (unchanged).
pub(super) fn change_of<T: PartialEq>(cluster: Option<&T>, manifest: Option<&T>) -> ObjectChange {
    match (cluster, manifest) {
        (_, None) => ObjectChange::Unchanged,
        (None, Some(_)) => ObjectChange::Added,
        (Some(c), Some(m)) if c == m => ObjectChange::Unchanged,
        (Some(_), Some(_)) => ObjectChange::Replaced,
    }
}

/// Every object of the manifests and what it does to the cluster.
pub(super) fn objects(snapshot: &Snapshot, m: &Manifests) -> Vec<AppliedObject> {
    let object = |kind, namespace: &str, name: &str, change| AppliedObject {
        kind,
        namespace: namespace.to_string(),
        name: name.to_string(),
        change,
    };
    let mut out = Vec::new();
    for n in &m.nodes {
        let change = change_of(snapshot.nodes.iter().find(|c| c.name == n.name), Some(n));
        out.push(object(AppliedKind::Node, "", &n.name, change));
    }
    for s in &m.services {
        let cluster = snapshot.services.iter().find(|c| service_key(c) == service_key(s));
        let change = change_of(cluster, Some(&filled(s, cluster)));
        out.push(object(AppliedKind::Service, &s.namespace, &s.name, change));
    }
    for w in &m.workloads {
        let cluster = snapshot.workloads.find(w.kind, &w.namespace, &w.name);
        let kind = match w.kind {
            WorkloadKind::StatefulSet => AppliedKind::StatefulSet,
            WorkloadKind::ReplicaSet => AppliedKind::ReplicaSet,
            WorkloadKind::Deployment | WorkloadKind::Other => AppliedKind::Deployment,
        };
        out.push(object(kind, &w.namespace, &w.name, change_of(cluster, Some(w))));
    }
    for h in &m.autoscalers {
        let cluster = snapshot.workloads.autoscalers.iter().find(|c| hpa_key(c) == hpa_key(h));
        let change = change_of(cluster, Some(h));
        out.push(object(AppliedKind::HorizontalPodAutoscaler, &h.namespace, &h.range.name, change));
    }
    out
}

pub(super) type Key = (String, String, String);

pub(super) fn service_key(s: &Service) -> Key {
    (String::new(), s.namespace.clone(), s.name.clone())
}

pub(super) fn workload_key(w: &Workload) -> Key {
    (w.kind.to_string(), w.namespace.clone(), w.name.clone())
}

pub(super) fn hpa_key(h: &Hpa) -> Key {
    (String::new(), h.namespace.clone(), h.range.name.clone())
}

fn node_key(n: &Node) -> Key {
    (String::new(), String::new(), n.name.clone())
}

/// `cluster` with each of `manifests` replacing the object of its key (in place), or added after.
pub(super) fn laid_over<T: Clone>(cluster: &[T], manifests: &[T], key: fn(&T) -> Key) -> Vec<T> {
    let mut out = cluster.to_vec();
    let mut at: BTreeMap<Key, usize> = out.iter().enumerate().map(|(i, o)| (key(o), i)).collect();
    for m in manifests {
        match at.get(&key(m)) {
            Some(&i) => out[i] = m.clone(),
            None => {
                at.insert(key(m), out.len());
                out.push(m.clone());
            }
        }
    }
    out
}

/// The manifests with a later object of the same kind, namespace and name replacing an earlier
/// one, as applying them in order would.
pub(super) fn last_wins(m: &Manifests) -> Manifests {
    Manifests {
        nodes: laid_over(&[], &m.nodes, node_key),
        services: laid_over(&[], &m.services, service_key),
        workloads: laid_over(&[], &m.workloads, workload_key),
        autoscalers: laid_over(&[], &m.autoscalers, hpa_key),
    }
}
