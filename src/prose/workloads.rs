//! The words of `explain`'s "Workloads" section: how the workloads behind a Service were found,
//! each one's replicas, autoscaler range and spread, and which reads were unavailable.

use topo_engine::model::{ReadStatus, SpreadConstraint, WorkloadKind, WorkloadObject};
use topo_engine::report::workloads::{BackingWorkload, FoundBy, WorkloadsReport};

/// How they were found, as the section's first line says it.
pub(crate) fn found_by(found: FoundBy) -> &'static str {
    match found {
        FoundBy::Pods => "found through the Pods behind its endpoints and their owners",
        FoundBy::Selector => {
            "Pods were not read: found by the Service's selector against each workload's pod template"
        }
        FoundBy::Unknown => "unknown: neither its Pods nor the workloads could be read",
    }
}

/// A kind of read, as kubectl names the resource.
pub(crate) fn object(object: WorkloadObject) -> &'static str {
    match object {
        WorkloadObject::Pods => "pods",
        WorkloadObject::Deployments => "deployments",
        WorkloadObject::StatefulSets => "statefulsets",
        WorkloadObject::ReplicaSets => "replicasets",
        WorkloadObject::HorizontalPodAutoscalers => "horizontalpodautoscalers",
    }
}

/// The reads that were not done, one clause each (`pods forbidden to this user`); empty when
/// every read was done.
pub(crate) fn unavailable(report: &WorkloadsReport) -> Vec<String> {
    (report.reads.iter())
        .filter(|(_, s)| !matches!(s, ReadStatus::Read | ReadStatus::Absent))
        .map(|(o, s)| format!("{} {}", object(*o), super::partial::read_status(Some(*s))))
        .collect()
}

/// What to do about unavailable reads.
pub(crate) const UNAVAILABLE_REMEDY: &str = "grant list on them (deploy/rbac.yaml) or add them to the dump \
     (kubectl get pods,deployments,statefulsets,replicasets,horizontalpodautoscalers.v2.autoscaling -o yaml)";

/// `deployment/web`, or `daemonset/agent` for another owner.
pub(crate) fn name(w: &BackingWorkload) -> String {
    let kind = match (w.kind, &w.owner_kind) {
        (WorkloadKind::Other, Some(kind)) => kind.to_ascii_lowercase(),
        (kind, _) => kind.to_string().to_ascii_lowercase(),
    };
    format!("{kind}/{}", w.name)
}

/// The replicas cell: `3`, `-` when not read.
pub(crate) fn replicas(w: &BackingWorkload) -> String {
    w.replicas.map_or_else(|| "-".to_string(), |r| r.to_string())
}

/// The autoscaler cell: `2-9 (hpa/web)`, `-` when none.
pub(crate) fn autoscaler(w: &BackingWorkload) -> String {
    w.autoscaler.as_ref().map_or_else(|| "-".to_string(), |a| format!("{}-{} (hpa/{})", a.min, a.max, a.name))
}

/// The spread cell: the zone constraints (`zone maxSkew 1 DoNotSchedule`), `none`, or `-` when the
/// workload was not read.
pub(crate) fn spread(w: &BackingWorkload) -> String {
    if !w.read {
        return "-".to_string();
    }
    if w.spread.is_empty() {
        return "none".to_string();
    }
    w.spread.iter().map(constraint).collect::<Vec<_>>().join("; ")
}

fn constraint(c: &SpreadConstraint) -> String {
    let key = match c.topology_key.as_str() {
        topo_engine::model::LABEL_ZONE => "zone",
        "kubernetes.io/hostname" => "node",
        other => other,
    };
    let mut text = format!("{key} maxSkew {} {}", c.max_skew, c.when_unsatisfiable);
    if let Some(min) = c.min_domains {
        text.push_str(&format!(" minDomains {min}"));
    }
    if !c.selects_own_pods {
        text.push_str(" (its selector misses the template's labels)");
    }
    text
}

/// The line under the table about endpoints no workload backs.
pub(crate) fn unowned(count: u32) -> String {
    format!("{count} endpoint(s) have no Pod read or a Pod without a controller")
}

/// The line when no workload was found although the reads were done.
pub(crate) const NONE_FOUND: &str = "no workload found behind this Service";

/// What `explain KIND/NAME` looked for and why it found no Service in front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InFrontMiss {
    /// `deployment/web`.
    pub(crate) what: String,
    /// The namespace searched.
    pub(crate) namespace: String,
    /// The reads that would have told (`pods forbidden to this user`); empty when they were done.
    pub(crate) unavailable: Vec<String>,
}

/// The error line of [`InFrontMiss`].
pub(crate) fn nothing_in_front(miss: &InFrontMiss) -> String {
    match miss.unavailable.as_slice() {
        [] => format!("no Service in namespace {} has endpoints on {}", miss.namespace, miss.what),
        reads => format!(
            "cannot tell which Service is in front of {} in namespace {}: {}",
            miss.what,
            miss.namespace,
            reads.join(", ")
        ),
    }
}

/// What to do about [`InFrontMiss`].
pub(crate) fn nothing_in_front_hint(miss: &InFrontMiss, bin_name: &str) -> String {
    match miss.unavailable.as_slice() {
        [] => format!(
            "check the name and -n (`kubectl get {} -n {}`), or explain the Service itself: `{bin_name} explain svc/NAME`",
            miss.what, miss.namespace
        ),
        _ => UNAVAILABLE_REMEDY.to_string(),
    }
}
