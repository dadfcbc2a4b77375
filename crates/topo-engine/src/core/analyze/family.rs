//! One Service address family: run the path the controller takes (Auto, trafficDistribution or
//! removal) on the live managed slices as "Unchanged", then decide the verdict (docs/behaviour.md#steady-state-and-ties).

use super::Cluster;
use super::extras::family_extras;
use super::outcome::{Outcome, outcome};
use super::rows::{endpoint_rows, has_hints, zone_rows};
use crate::core::mode::{ModeDecision, ModePath as Path};
use crate::core::proxy;
use crate::core::topologycache;
use crate::core::trafficdist::Heuristic;
use crate::core::zones::Ratios;
use crate::model::{EndpointSlice, Service};
use crate::report::proxy::ProxyZoneView;
use crate::report::reason::{Facts, Reason, ReasonCode as C};
use crate::report::{ControllerAction, FamilyReport, Verdict};

/// Analyse one address family of `service`.
pub(super) fn analyze(
    cluster: &Cluster<'_>,
    service: &Service,
    address_type: &str,
    decision: &ModeDecision,
    skip: Option<&Reason>,
) -> FamilyReport {
    let all: Vec<&EndpointSlice> =
        cluster.slices_of(service).iter().copied().filter(|s| s.address_type == address_type).collect();
    let nodes_known = !cluster.snapshot.info.nodes_unavailable;
    // kube-proxy's routing by zone needs each node's zone: not shown when Nodes could not be read;
    // `check` shows no per-node groups at all.
    let proxy = match nodes_known && cluster.proxy_detail {
        true => proxy::proxy_view_on(service, &all, &cluster.proxy_nodes, cluster.behaviour).zones,
        false => Vec::new(),
    };
    let (managed, outcome, unmanaged) = outcome(cluster, service, address_type, decision, skip);
    if let Some(reason) = unmanaged {
        if reason.code == C::NoManagedSlices && cluster.snapshot.info.slices_unavailable {
            return unknown_slices(cluster, address_type, outcome);
        }
        return finish(cluster, address_type, &managed, outcome, Verdict::Unmanaged, vec![reason], proxy);
    }
    if !nodes_known {
        return unknown_nodes(cluster, address_type, decision, managed, outcome, proxy);
    }
    let (verdict, reasons) = verdict(cluster, decision, &managed, &outcome);
    let extras = family_extras(cluster, service, &all, &managed, (&outcome.expected, outcome.kept), decision);
    let mut report = finish(cluster, address_type, &managed, outcome, verdict, reasons, proxy);
    extras.apply(&mut report);
    report
}

/// Nodes could not be read: the Auto allocation depends on zone weights, so its verdict is Unknown;
/// the trafficDistribution and removal paths do not read Nodes and keep theirs. Neither gets the
/// replicas needed or the cross-zone share (both weigh zones by node CPU).
fn unknown_nodes(
    cluster: &Cluster<'_>,
    address_type: &str,
    decision: &ModeDecision,
    managed: Vec<EndpointSlice>,
    outcome: Outcome,
    proxy: Vec<ProxyZoneView>,
) -> FamilyReport {
    if matches!(decision.path, Path::Annotation) {
        let outcome = Outcome { expected: managed.clone(), ..Outcome::default() };
        let reasons = vec![Reason::new(C::NodesUnknown)];
        let mut report = finish(cluster, address_type, &managed, outcome, Verdict::Unknown, reasons, proxy);
        report.action = ControllerAction::Unknown;
        return report;
    }
    let (verdict, reasons) = verdict(cluster, decision, &managed, &outcome);
    finish(cluster, address_type, &managed, outcome, verdict, reasons, proxy)
}

/// No EndpointSlice was read at all (a dump without them): no slice is not "nobody manages them",
/// so the verdict is Unknown, with no zone, endpoint or kube-proxy rows (each would count the
/// endpoints as zero).
fn unknown_slices(cluster: &Cluster<'_>, address_type: &str, outcome: Outcome) -> FamilyReport {
    let reasons = vec![Reason::new(C::SlicesUnknown)];
    let mut report = finish(cluster, address_type, &[], outcome, Verdict::Unknown, reasons, Vec::new());
    report.action = ControllerAction::Unknown;
    report.zones.clear();
    report.endpoints.clear();
    report
}

fn finish(
    cluster: &Cluster<'_>,
    address_type: &str,
    managed: &[EndpointSlice],
    outcome: Outcome,
    verdict: Verdict,
    reasons: Vec<Reason>,
    proxy: Vec<ProxyZoneView>,
) -> FamilyReport {
    let ratios = match &cluster.topology.ratios {
        Ratios::Map(m) => Some(m),
        Ratios::Nil => None,
    };
    // A check row shows neither.
    let (zones, endpoints) = match (cluster.row_only, cluster.summary_only) {
        (true, _) => (Vec::new(), Vec::new()),
        (false, summary_only) => (
            zone_rows(&cluster.topology, ratios, managed, &outcome.expected, outcome.allocations.as_ref()),
            // `serve`'s summary shows no endpoint row.
            if summary_only { Vec::new() } else { endpoint_rows(managed, &outcome.expected) },
        ),
    };
    let overloaded = overloaded_now(cluster, managed, &outcome);
    let action = action(managed, &outcome);
    FamilyReport {
        address_type: address_type.to_string(),
        verdict,
        reasons,
        action,
        event: outcome.event.clone(),
        rewritten_slices: outcome.rewritten.clone(),
        count_outcomes: outcome.alternatives.clone(),
        overloaded,
        zones,
        endpoints,
        proxy,
        replicas: None,
        cross_zone: None,
        stability: None,
        load: None,
        ignored: Vec::new(),
    }
}

fn action(managed: &[EndpointSlice], outcome: &Outcome) -> ControllerAction {
    if outcome.rewritten.is_empty() {
        if outcome.expected.iter().any(has_hints) { ControllerAction::Keep } else { ControllerAction::None }
    } else if outcome.expected.iter().any(has_hints) {
        ControllerAction::Write
    } else if managed.iter().any(has_hints) {
        ControllerAction::Remove
    } else {
        ControllerAction::None
    }
}

/// The overload recheck (`serviceOverloaded`), Auto path only, on the counts the controller has cached: today's
/// hints when the slices carry any (the requeue trigger, e.g. W3 after a zone disappears), else the
/// hints its next sync writes and caches (W9: a:2/b:4 is overloaded as soon as it is written, and
/// upstream `GetOverloadedServices` lists the Service after every sync). None without hints.
fn overloaded_now(cluster: &Cluster<'_>, managed: &[EndpointSlice], outcome: &Outcome) -> Option<bool> {
    if !outcome.auto_path {
        return None;
    }
    let live = super::rows::hinted_counts(managed);
    let counts = if live.is_empty() { super::rows::hinted_counts(&outcome.expected) } else { live };
    (!counts.is_empty()).then(|| topologycache::service_overloaded(&counts, &cluster.topology.ratios))
}

/// Verdict and reasons (most important first) from the outcome.
fn verdict(
    cluster: &Cluster<'_>,
    decision: &ModeDecision,
    managed: &[EndpointSlice],
    o: &Outcome,
) -> (Verdict, Vec<Reason>) {
    let present = managed.iter().any(has_hints);
    let slices = Facts { slices: o.rewritten.clone(), ..Facts::default() };
    let mut reasons = Vec::new();
    let verdict = if let Some(safeguard) = &o.disabled {
        if present && !o.rewritten.is_empty() {
            reasons.push(Reason::with(C::HintsUnexpected, slices));
        }
        reasons.push(safeguard.clone());
        if present { Verdict::Drift } else { Verdict::Blocked }
    } else if removes_all_hints(decision) {
        if !o.rewritten.is_empty() {
            reasons.push(Reason::with(C::HintsUnexpected, slices));
        }
        reasons.extend(decision.notes.iter().cloned());
        if !o.rewritten.is_empty() {
            Verdict::Drift
        } else if requested_but_blocked(decision) {
            Verdict::Blocked
        } else {
            Verdict::NotEnabled
        }
    } else if o.rewritten.is_empty() || o.equivalent {
        if o.rewritten_every_sync {
            reasons.push(Reason::with(C::RewrittenEverySync, slices));
        }
        if !o.expected.iter().any(has_hints) {
            reasons.push(super::zones::no_hints_reason(managed));
            return (Verdict::Blocked, reasons);
        }
        Verdict::Active
    } else {
        let code = if !present {
            C::HintsMissing
        } else if o.expected.iter().any(has_hints) {
            C::HintsInvalid
        } else {
            C::HintsUnexpected
        };
        reasons.push(Reason::with(code, slices.clone()));
        if o.rewritten_every_sync {
            reasons.push(Reason::with(C::RewrittenEverySync, slices));
        }
        Verdict::Drift
    };
    if verdict == Verdict::Active && overloaded_now(cluster, managed, o) == Some(true) {
        reasons.push(Reason::new(C::Overloaded));
    }
    (verdict, reasons)
}

/// Service-level data-plane notes: iTP/eTP Local (k/k `serviceport.go` `UsesLocalEndpoints`).
pub(super) fn traffic_policy_notes(service: &Service) -> Vec<Reason> {
    let mut notes = Vec::new();
    if service.internal_traffic_policy.as_deref() == Some("Local") {
        notes.push(proxy::traffic_policy_local("internalTrafficPolicy"));
    }
    if service.external_traffic_policy.as_deref() == Some("Local") && service.externally_accessible {
        notes.push(proxy::traffic_policy_local("externalTrafficPolicy"));
    }
    notes
}

/// True when the user asked for hints (annotation or field) but this version ignores the request;
/// an explicit `Disabled` / empty annotation is not a request.
fn requested_but_blocked(decision: &ModeDecision) -> bool {
    decision.notes.iter().any(|n| match n.code {
        C::TrafficDistributionUnsupported | C::TopologyGateOff => true,
        C::AnnotationValueIgnored => {
            !matches!(n.facts.value.as_deref(), Some("Disabled" | "disabled" | "") | None)
        }
        _ => false,
    })
}

/// The paths whose only effect is removing hints: `RemoveHintsFromSlices`, and trafficdist's
/// default heuristic (1.30–1.32 send every Service without a valid value there, docs/behaviour.md#trafficdistribution).
fn removes_all_hints(decision: &ModeDecision) -> bool {
    matches!(decision.path, Path::RemoveHints | Path::TrafficDistribution { heuristic: Heuristic::Default })
}
