//! `explain deploy/NAME`, `explain statefulset/NAME`, `explain pod/NAME`: the Services in front of
//! a workload or a Pod, found as `explain`'s Workloads section finds the workloads behind a
//! Service (`core::analyze::workloads`), over every Service of the namespace.

use crate::error::Error;
use crate::prose::workloads::{self as words, InFrontMiss};
use crate::settings::{Behind, BehindKind};
use topo_engine::core::analyze;
use topo_engine::model::{ReadStatus, Service, Snapshot, WorkloadKind, WorkloadObject};
use topo_engine::report::workloads::FoundBy;

/// The Services of `namespace` in front of `behind`, in snapshot order; an error naming what was
/// unavailable when none is found.
pub(super) fn services_in_front<'a>(
    snapshot: &'a Snapshot,
    namespace: &str,
    behind: &Behind,
) -> Result<Vec<&'a Service>, Error> {
    let in_namespace = snapshot.services.iter().filter(|s| s.namespace == namespace);
    let found: Vec<&Service> = match behind.kind {
        BehindKind::Pod => in_namespace.filter(|s| pod_behind(snapshot, s, &behind.name)).collect(),
        BehindKind::Deployment | BehindKind::StatefulSet => {
            let kind = match behind.kind {
                BehindKind::Deployment => WorkloadKind::Deployment,
                _ => WorkloadKind::StatefulSet,
            };
            in_namespace
                .filter(|s| {
                    let report = analyze::workloads(snapshot, s);
                    report.found_by != FoundBy::Unknown
                        && report.workloads.iter().any(|w| w.kind == kind && w.name == behind.name)
                })
                .collect()
        }
    };
    if !found.is_empty() {
        return Ok(found);
    }
    let kind = match behind.kind {
        BehindKind::Deployment => "deployment",
        BehindKind::StatefulSet => "statefulset",
        BehindKind::Pod => "pod",
    };
    Err(Error::NothingInFront(Box::new(InFrontMiss {
        what: format!("{kind}/{}", behind.name),
        namespace: namespace.to_string(),
        unavailable: unavailable(snapshot, behind.kind),
    })))
}

/// Whether a Service's endpoints carry an address of Pod `name`.
fn pod_behind(snapshot: &Snapshot, service: &Service, name: &str) -> bool {
    let Some(pod) =
        snapshot.workloads.pods.iter().find(|p| p.namespace == service.namespace && p.name == name)
    else {
        return false;
    };
    (snapshot.slices.iter().filter(|s| s.is_for(service)))
        .flat_map(|s| s.endpoints.iter())
        .any(|e| e.addresses.iter().any(|a| pod.ips.contains(a)))
}

/// The reads that would have found it and were not done: Pods for a Pod; for a workload, Pods
/// and its own kind when neither was read.
fn unavailable(snapshot: &Snapshot, kind: BehindKind) -> Vec<String> {
    let reads = &snapshot.workloads;
    let own = match kind {
        BehindKind::Pod => None,
        BehindKind::Deployment => Some(WorkloadObject::Deployments),
        BehindKind::StatefulSet => Some(WorkloadObject::StatefulSets),
    };
    let read = |o: WorkloadObject| reads.status(o) == Some(ReadStatus::Read);
    if read(WorkloadObject::Pods) || own.is_some_and(read) {
        return Vec::new();
    }
    [Some(WorkloadObject::Pods), own]
        .into_iter()
        .flatten()
        .map(|o| format!("{} {}", words::object(o), crate::prose::dataplane::read_status(reads.status(o))))
        .collect()
}
