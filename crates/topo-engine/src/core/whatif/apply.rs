//! `simulate --apply` (docs/apply.md): rendered manifests laid over a Snapshot as `kubectl apply`
//! would lay them (by kind, namespace and name: replaced, or added), and every Service they affect
//! simulated as `simulate` does, with the certificate after the change.
//!
//! What is modelled, per Service in scope:
//! * the Service object: the manifest's, with the fields the API server fills and a manifest
//!   leaves out (`clusterIP`, `ipFamilies`, the traffic policies, node ports) kept from the
//!   cluster's;
//! * its endpoints, when a workload behind it (its selector against the pod templates) is added or
//!   replaced, or its autoscaler is, or its selector changes: the sum of those workloads' counts —
//!   `spec.replicas` (the cluster's when the manifest leaves it out, else the API server's 1),
//!   within the HorizontalPodAutoscaler's range — spread as `simulate --replicas` spreads them
//!   (as today's ready endpoints, or by zone CPU when there are none);
//! * Nodes: each manifest's Node replaces the Node of its name or is added
//!   ([`Changes::put_nodes`]), beside the node flags;
//! * the certificate (Auto only): the sum of the workloads' ranges, the spread of a lone workload.
//!
//! The scheduler's placement is not known: the simulation places endpoints one way; the certificate
//! says whether hints hold in every placement the spread allows.

use super::changes::{Changes, MAX_REPLICAS};
use super::error::{Misfit, SimulateError};
use super::simulate::simulate_replacing;
use crate::core::analyze::TrafficModel;
use crate::core::mode::{ModePath, select_mode};
use crate::core::stability::service_certificate;
use crate::model::{Autoscaler, Behaviour, Hpa, LABEL_ZONE, Node, Service, Snapshot, Workload, WorkloadKind};
use crate::report::ServiceRef;
use crate::report::apply::{AppliedKind, AppliedWorkload, ApplyReport, Cause, ObjectChange, ServiceApply};
use crate::report::stability::SpreadRule;
use crate::report::whatif::BeforeAfter;

/// The objects of the manifests, their namespace filled in, in the order read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifests {
    /// `v1 Node`.
    pub nodes: Vec<Node>,
    /// `v1 Service`.
    pub services: Vec<Service>,
    /// `apps/v1` Deployments, StatefulSets, ReplicaSets.
    pub workloads: Vec<Workload>,
    /// `autoscaling/v2` HorizontalPodAutoscalers.
    pub autoscalers: Vec<Hpa>,
}

/// Which Services a run reports on, and what else it changes.
#[derive(Debug, Clone, Copy)]
pub struct ApplyScope<'a> {
    /// This namespace only (None: every namespace).
    pub namespace: Option<&'a str>,
    /// This Service only.
    pub service: Option<&'a str>,
    /// The node flags beside `--apply` (`--remove-node`, `--remove-zone`, `--not-ready`,
    /// `--add-node`, `--set-cpu`).
    pub node_changes: &'a Changes,
    /// `--traffic`.
    pub traffic: &'a TrafficModel,
}

/// What every Service of one run is simulated against.
struct Context<'a> {
    snapshot: &'a Snapshot,
    manifests: &'a Manifests,
    behaviour: Behaviour,
    traffic: &'a TrafficModel,
    /// The node changes (flags and manifests' Nodes), for every Service.
    changes: Changes,
    nodes_changed: bool,
    /// The cluster's workloads with the manifests' laid over them.
    workloads: Vec<Workload>,
    /// The cluster's autoscalers with the manifests' laid over them.
    autoscalers: Vec<Hpa>,
}

/// Lay `manifests` over `snapshot` and simulate every Service of `scope` they affect.
pub fn apply(
    snapshot: &Snapshot,
    manifests: &Manifests,
    scope: &ApplyScope<'_>,
    behaviour: Behaviour,
) -> Result<ApplyReport, SimulateError> {
    let manifests = &last_wins(manifests);
    let objects = objects(snapshot, manifests);
    let mut changes = scope.node_changes.clone();
    changes.put_nodes = manifests.nodes.clone();
    let nodes_changed = !scope.node_changes.is_empty()
        || objects.iter().any(|o| o.kind == AppliedKind::Node && o.change != ObjectChange::Unchanged);
    let ctx = Context {
        snapshot,
        manifests,
        behaviour,
        traffic: scope.traffic,
        changes,
        nodes_changed,
        workloads: laid_over(&snapshot.workloads.workloads, &manifests.workloads, workload_key),
        autoscalers: laid_over(&snapshot.workloads.autoscalers, &manifests.autoscalers, hpa_key),
    };
    let mut candidates: Vec<Service> = laid_over(&snapshot.services, &manifests.services, service_key);
    candidates.retain(|s| scope.namespace.is_none_or(|ns| s.namespace == ns));
    candidates.retain(|s| scope.service.is_none_or(|name| s.name == name));
    candidates.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut services = Vec::new();
    for service in &candidates {
        if let Some(done) = one(&ctx, service)? {
            services.push(done);
        }
    }
    Ok(ApplyReport {
        kubernetes_version: behaviour.to_string(),
        kubernetes_version_basis: None,
        objects,
        node_changes: scope.node_changes.describe(),
        services,
    })
}

/// One Service: None when nothing of it changes.
fn one(ctx: &Context<'_>, manifest: &Service) -> Result<Option<ServiceApply>, SimulateError> {
    let before = ctx.snapshot.services.iter().find(|s| service_key(s) == service_key(manifest));
    let in_manifests = ctx.manifests.services.iter().any(|s| service_key(s) == service_key(manifest));
    let after = if in_manifests { filled(manifest, before) } else { manifest.clone() };
    let change = change_of(before, in_manifests.then_some(&after));
    let workloads = backing(ctx, &after);
    let touched = workloads.iter().any(|w| w.change != ObjectChange::Unchanged || w.range_touched);
    let selector_changed = before.is_none_or(|b| b.selector != after.selector);
    let mut causes = Vec::new();
    if change != ObjectChange::Unchanged {
        causes.push(Cause::Service);
    }
    if touched {
        causes.push(Cause::Workloads);
    }
    if ctx.nodes_changed {
        causes.push(Cause::Nodes);
    }
    if causes.is_empty() {
        return Ok(None);
    }
    let derive = !workloads.is_empty() && (touched || selector_changed);
    let total: i64 = workloads.iter().map(|w| w.count).sum();
    if derive && total > MAX_REPLICAS {
        let message = format!(
            "--apply: the workloads behind Service {}/{} add up to {total} replicas, more than the {MAX_REPLICAS} simulated",
            after.namespace, after.name
        );
        return Err(SimulateError(message, Misfit::Manifests));
    }
    let changes = Changes { replicas: derive.then_some(total), ..ctx.changes.clone() };
    let simulation = match before {
        Some(before) => {
            simulate_replacing(ctx.snapshot, (before, &after), ctx.behaviour, &changes, ctx.traffic)?
        }
        None => {
            let mut base = ctx.snapshot.clone();
            base.services.push(after.clone());
            simulate_replacing(&base, (&after, &after), ctx.behaviour, &changes, ctx.traffic)?
        }
    };
    let certificate = certificate(ctx, &after, &workloads, &simulation)?;
    Ok(Some(ServiceApply {
        service: ServiceRef { namespace: after.namespace.clone(), name: after.name.clone() },
        change,
        causes,
        workloads: workloads.into_iter().map(|w| w.report).collect(),
        simulation,
        certificate,
    }))
}

/// The certificate after the change, for a Service in Auto mode after it: the workloads' summed
/// range (today's ready endpoints after the change when no workload is known), a lone workload's
/// spread, the zones with counted Nodes after the node changes.
fn certificate(
    ctx: &Context<'_>,
    after: &Service,
    workloads: &[Backing],
    simulation: &crate::report::whatif::SimulationReport,
) -> Result<Option<crate::report::stability::Certificate>, SimulateError> {
    if select_mode(after, ctx.behaviour).path != ModePath::Annotation {
        return Ok(None);
    }
    let (min, max) = match workloads {
        [] => {
            let ready =
                simulation.summary.first().map_or(0, |f| f.zones.iter().map(|z| z.ready.after).sum::<i64>());
            (ready, ready)
        }
        _ => workloads.iter().fold((0, 0), |(lo, hi), w| (lo + w.range.0, hi + w.range.1)),
    };
    let spread = match workloads {
        [lone] => lone.report.spread,
        _ => None,
    };
    let nodes = super::nodes::apply_nodes(&ctx.snapshot.nodes, &ctx.changes)?.nodes;
    let changed = Snapshot { nodes, ..Snapshot::default() };
    let (min, max) = (min.min(MAX_REPLICAS), max.min(MAX_REPLICAS));
    Ok(Some(service_certificate(&changed, after, ctx.behaviour, (min, max, spread)).certificate))
}

/// A workload behind a Service after the change, with what the simulation counts of it.
struct Backing {
    report: AppliedWorkload,
    change: ObjectChange,
    /// Its autoscaler is added or replaced by the manifests.
    range_touched: bool,
    /// Replicas simulated.
    count: i64,
    /// Fewest and most replicas (the autoscaler's range, else `count` both).
    range: (i64, i64),
}

/// The workloads (after the change) whose pod template the Service's selector selects, in its
/// namespace, but ReplicaSets a Deployment controls (as `explain`'s Workloads join by selector).
fn backing(ctx: &Context<'_>, service: &Service) -> Vec<Backing> {
    if !service.has_selector || service.selector.is_empty() {
        return Vec::new();
    }
    let controlled = |w: &Workload| {
        w.owner.as_ref().is_some_and(|o| {
            o.kind == "Deployment"
                && ctx.workloads.iter().any(|d| {
                    d.kind == WorkloadKind::Deployment && d.namespace == w.namespace && d.name == o.name
                })
        })
    };
    let selects = |w: &Workload| service.selector.iter().all(|(k, v)| w.template_labels.get(k) == Some(v));
    let mut found: Vec<Backing> = ctx
        .workloads
        .iter()
        .filter(|w| w.namespace == service.namespace && !controlled(w) && selects(w))
        .map(|w| backing_one(ctx, w))
        .collect();
    found.sort_by(|a, b| (a.report.kind, &a.report.name).cmp(&(b.report.kind, &b.report.name)));
    found
}

fn backing_one(ctx: &Context<'_>, w: &Workload) -> Backing {
    let before = ctx.snapshot.workloads.find(w.kind, &w.namespace, &w.name);
    let in_manifests = ctx.manifests.workloads.iter().any(|m| workload_key(m) == workload_key(w));
    let change = change_of(before, in_manifests.then_some(w));
    let target = |h: &&Hpa| {
        h.namespace == w.namespace && h.target.kind == w.kind.to_string() && h.target.name == w.name
    };
    let hpa = ctx.autoscalers.iter().find(target);
    let range_touched = hpa.is_some_and(|h| {
        ctx.manifests.autoscalers.iter().any(|m| hpa_key(m) == hpa_key(h))
            && ctx.snapshot.workloads.autoscalers.iter().find(|c| hpa_key(c) == hpa_key(h)) != Some(h)
    });
    let base = w.replicas.or(before.and_then(|b| b.replicas)).map_or(1, i64::from);
    let autoscaler: Option<Autoscaler> = hpa.map(|h| h.range.clone());
    let (count, range) = match &autoscaler {
        Some(r) => {
            let (lo, hi) = (i64::from(r.min), i64::from(r.max.max(r.min)));
            (base.clamp(lo, hi), (lo, hi))
        }
        None => (base, (base, base)),
    };
    let spread =
        w.spread.iter().find(|c| c.topology_key == LABEL_ZONE && c.selects_own_pods).map(|c| SpreadRule {
            max_skew: i64::from(c.max_skew),
            min_domains: c.min_domains.map(i64::from),
            hard: c.when_unsatisfiable != "ScheduleAnyway",
        });
    let report = AppliedWorkload {
        kind: w.kind,
        name: w.name.clone(),
        change,
        replicas: BeforeAfter { before: before.and_then(|b| b.replicas).map(i64::from), after: Some(count) },
        autoscaler,
        spread,
    };
    Backing { report, change, range_touched, count, range }
}

mod merge;
use merge::{change_of, filled, hpa_key, laid_over, last_wins, objects, service_key, workload_key};

#[cfg(test)]
mod tests;
