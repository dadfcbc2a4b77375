//! The words of `simulate --apply` (docs/apply.md): what each manifest does, why a Service is in
//! the report, its workloads, and the gate.

use crate::escape::escape;
use crate::triage::FailOn;
use topo_engine::report::apply::{AppliedObject, AppliedWorkload, Cause, ObjectChange, ServiceApply};
use topo_engine::report::whatif::FamilyDelta;

/// `added`, `replaced`, `unchanged`.
pub(crate) fn change(c: ObjectChange) -> &'static str {
    match c {
        ObjectChange::Added => "added",
        ObjectChange::Replaced => "replaced",
        ObjectChange::Unchanged => "unchanged",
    }
}

/// `Deployment shop/web (replaced)`.
pub(crate) fn object(o: &AppliedObject) -> String {
    let name = if o.namespace.is_empty() { o.name.clone() } else { format!("{}/{}", o.namespace, o.name) };
    format!("{} {} ({})", o.kind, escape(&name), change(o.change))
}

/// Why a Service is in the report, as one phrase.
pub(crate) fn causes(causes: &[Cause]) -> String {
    let words: Vec<&str> = causes
        .iter()
        .map(|c| match c {
            Cause::Service => "its Service object changes",
            Cause::Workloads => "a workload behind it changes",
            Cause::Nodes => "the Nodes change",
        })
        .collect();
    super::list(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>())
}

/// `Deployment web (replaced): 3 → 11 replicas, autoscaler web 6–12, zone maxSkew 1`.
pub(crate) fn workload(w: &AppliedWorkload) -> String {
    let count = |n: Option<i64>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
    let replicas = match (w.replicas.before, w.replicas.after) {
        (before, after) if before == after => format!("{} replicas", count(after)),
        (None, after) => format!("{} replicas", count(after)),
        (before, after) => format!("{} → {} replicas", count(before), count(after)),
    };
    let mut line = format!("{} {} ({}): {replicas}", w.kind, escape(&w.name), change(w.change));
    if let Some(a) = &w.autoscaler {
        line.push_str(&format!(", autoscaler {} {}–{}", escape(&a.name), a.min, a.max));
    }
    if let Some(s) = w.spread {
        let how = if s.hard { "DoNotSchedule" } else { "ScheduleAnyway" };
        line.push_str(&format!(", zone spread maxSkew {} {how}", s.max_skew));
    }
    line
}

/// Zones with hinted endpoints before → after, `3 → 0`.
pub(crate) fn hinted_zones(f: &FamilyDelta) -> String {
    let count = |after: bool| {
        f.zones.iter().filter(|z| (if after { z.hinted.after } else { z.hinted.before }) > 0).count()
    };
    let (before, after) = (count(false), count(true));
    if before == after { before.to_string() } else { format!("{before} → {after}") }
}

/// `Active → Blocked`, `-` for a Service that does not exist yet.
pub(crate) fn verdicts(s: &ServiceApply, f: &FamilyDelta) -> String {
    let show = |v: Option<topo_engine::report::Verdict>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    let before = if s.change == ObjectChange::Added { "-".to_string() } else { show(f.verdict.before) };
    let after = show(f.verdict.after);
    if before == after { after } else { format!("{before} → {after}") }
}

/// The level as typed after `--fail-on`.
pub(crate) fn level(fail_on: FailOn) -> &'static str {
    match fail_on {
        FailOn::None => "none",
        FailOn::Drift => "drift",
        FailOn::Blocked => "blocked",
        FailOn::Fragile => "fragile",
        FailOn::Any => "any",
    }
}

/// The gate's verdict on one Service.
pub(crate) fn gate(failing: bool, fail_on: FailOn) -> String {
    match failing {
        true => format!("FAIL: the change brings it to --fail-on {}", level(fail_on)),
        false => format!("pass at --fail-on {}", level(fail_on)),
    }
}

/// `2 Services affected, 1 fails the gate (--fail-on blocked)`.
pub(crate) fn summary(affected: usize, failing: usize, fail_on: FailOn) -> String {
    let services = if affected == 1 { "Service" } else { "Services" };
    format!("{affected} {services} affected, {failing} failing the gate (--fail-on {})", level(fail_on))
}

/// The `note:` when the manifests change nothing of the Services in scope.
pub(crate) fn nothing_affected(namespace: &str) -> String {
    format!(
        "the manifests change no Service of namespace {} (nor the workloads behind one, nor the Nodes)",
        escape(namespace)
    )
}

/// The `note:` when the cluster's workloads were not read: the manifests' are the only ones known.
pub(crate) fn workloads_unknown() -> &'static str {
    "the cluster's workloads were not read (not in the dump, or forbidden): a Service's endpoints follow \
     the manifests' workloads alone"
}
