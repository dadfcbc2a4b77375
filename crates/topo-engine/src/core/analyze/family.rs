//! One Service address family: run the path the controller takes (Auto, trafficDistribution or
//! removal) on the live managed slices as "Unchanged", then decide the verdict (docs/behaviour.md#steady-state-and-ties).

use std::collections::{BTreeMap, HashMap};

use super::Cluster;
use super::equivalence::equivalent_rewrite;
use super::extras::family_extras;
use super::rows::{endpoint_rows, has_hints, zone_rows};
use crate::core::mode::{ModeDecision, ModePath as Path};
use crate::core::proxy;
use crate::core::topologycache::{self, Allocation, Disabled, SliceInfo};
use crate::core::trafficdist;
use crate::core::trafficdist::Heuristic;
use crate::core::zones::Ratios;
use crate::model::{EndpointSlice, Service};
use crate::report::proxy::ProxyZoneView;
use crate::report::reason::{Facts, Reason, ReasonCode as C};
use crate::report::{ControllerAction, ControllerEvent, FamilyReport, Verdict};

/// What the controller's next sync does to this family's managed slices.
#[derive(Debug, Default)]
pub(super) struct Outcome {
    /// Managed slices after the sync, in the order of the live ones.
    pub expected: Vec<EndpointSlice>,
    /// Names of slices the sync writes.
    pub rewritten: Vec<String>,
    /// Event the sync emits.
    pub event: Option<ControllerEvent>,
    /// Safeguard that removed hints (Auto path).
    pub disabled: Option<Reason>,
    /// Allocations (Auto path, when computed).
    pub allocations: Option<BTreeMap<String, Allocation>>,
    /// Reachable per-zone count vectors (Auto path).
    pub alternatives: Vec<BTreeMap<String, i64>>,
    /// Live state is one of the controller's valid outputs although it rewrites it (docs/behaviour.md#steady-state-and-ties).
    pub equivalent: bool,
    /// The expected output fails the keep-check itself (W7, W9, W10).
    pub rewritten_every_sync: bool,
    /// The annotation (Auto) path ran: the controller caches hint counts for the overload recheck.
    pub auto_path: bool,
    /// `expected` is the live managed slices as they are (none sent, names distinct).
    pub kept: bool,
}

/// The live managed slices of one family and what the controller's next sync does to them; the
/// reason when the controller does not reconcile them at all.
pub(super) fn outcome(
    cluster: &Cluster<'_>,
    service: &Service,
    address_type: &str,
    decision: &ModeDecision,
    skip: Option<&Reason>,
) -> (Vec<EndpointSlice>, Outcome, Option<Reason>) {
    let managed: Vec<EndpointSlice> = cluster
        .slices_of(service)
        .iter()
        .filter(|s| s.address_type == address_type && s.is_controller_managed())
        .map(|s| (*s).clone())
        .collect();
    let unmanaged = skip.cloned().or_else(|| managed.is_empty().then(|| Reason::new(C::NoManagedSlices)));
    if let Some(reason) = unmanaged {
        let outcome = Outcome { expected: managed.clone(), kept: true, ..Outcome::default() };
        return (managed, outcome, Some(reason));
    }
    let outcome = match &decision.path {
        Path::Annotation => auto_outcome(cluster, address_type, &managed),
        Path::TrafficDistribution { .. } => td_outcome(cluster, service, address_type, &managed),
        Path::RemoveHints => remove_outcome(address_type, &managed),
    };
    (managed, outcome, None)
}

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
    let (zones, endpoints) = match cluster.row_only {
        true => (Vec::new(), Vec::new()),
        false => (
            zone_rows(&cluster.topology, ratios, managed, &outcome.expected, outcome.allocations.as_ref()),
            endpoint_rows(managed, &outcome.expected),
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

/// Annotation path: `AddHints` with the live slices as Unchanged.
fn auto_outcome(cluster: &Cluster<'_>, address_type: &str, managed: &[EndpointSlice]) -> Outcome {
    let info = unchanged_info(address_type, managed);
    let mut result = topologycache::add_hints(&cluster.topology.ratios, info);
    let kept = result.slices.to_update.is_empty() && distinct_names(managed);
    let mut outcome = Outcome {
        disabled: result.disabled.as_ref().map(|d| disabled_reason(cluster, d, managed)),
        event: cluster.behaviour.controller_emits_events().then(|| result.event.into()),
        allocations: result.allocations,
        alternatives: result.alternatives,
        auto_path: true,
        ..Outcome::default()
    };
    // Step B rejections happen before an abort, so upstream still sends those slices as updates
    // (hints cleared) on every sync.
    outcome.rewritten = match outcome.disabled {
        Some(_) => names(&result.slices.to_update),
        None => result.rejected_unchanged,
    };
    let mut slices = std::mem::take(&mut result.slices.to_update);
    slices.append(&mut result.slices.unchanged);
    let expected = in_live_order(managed, slices);
    if outcome.disabled.is_none() && !outcome.rewritten.is_empty() {
        let allocations = outcome.allocations.as_ref();
        outcome.rewritten_every_sync = allocations.is_some_and(|a| {
            let mut again = unchanged_info(address_type, &expected);
            !topologycache::get_allocated_hints_by_zone(&mut again, a).1.is_empty()
        });
        outcome.equivalent = equivalent_rewrite(managed, &outcome.rewritten, &outcome.alternatives);
    }
    outcome.kept = kept || outcome.equivalent;
    outcome.expected = if outcome.equivalent { managed.to_vec() } else { expected };
    outcome
}

/// trafficDistribution path: `trafficdist.ReconcileHints` with the live slices as Unchanged.
fn td_outcome(
    cluster: &Cluster<'_>,
    service: &Service,
    address_type: &str,
    managed: &[EndpointSlice],
) -> Outcome {
    let mut out = trafficdist::reconcile_hints(
        service.traffic_distribution.as_deref(),
        &unchanged_info(address_type, managed),
        cluster.behaviour,
    );
    let (rewritten, kept) = (names(&out.to_update), out.to_update.is_empty() && distinct_names(managed));
    out.to_update.append(&mut out.unchanged);
    Outcome { rewritten, expected: in_live_order(managed, out.to_update), kept, ..Outcome::default() }
}

/// Removal (`RemoveHintsFromSlices`, endpointslice `topologycache/utils.go`).
fn remove_outcome(address_type: &str, managed: &[EndpointSlice]) -> Outcome {
    let mut out = topologycache::remove_hints_from_slices(unchanged_info(address_type, managed));
    let (rewritten, kept) = (names(&out.to_update), out.to_update.is_empty() && distinct_names(managed));
    out.to_update.append(&mut out.unchanged);
    Outcome { rewritten, expected: in_live_order(managed, out.to_update), kept, ..Outcome::default() }
}

/// No two live slices share a name: then [`in_live_order`] over the Unchanged slices alone (the
/// ports never modify one they leave there) gives back the live slices, each as it is.
fn distinct_names(live: &[EndpointSlice]) -> bool {
    let mut names: Vec<&str> = live.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    names.windows(2).all(|w| w[0] != w[1])
}

/// All live managed slices of a family as "Unchanged": the steady state (docs/behaviour.md#steady-state-and-ties).
fn unchanged_info(address_type: &str, slices: &[EndpointSlice]) -> SliceInfo {
    SliceInfo {
        address_type: address_type.to_string(),
        to_create: vec![],
        to_update: vec![],
        unchanged: slices.to_vec(),
    }
}

/// Put the controller's output slices back into the live order (matched by name; of several
/// outputs with one name the last). With distinct live names each output is moved, not copied.
fn in_live_order(live: &[EndpointSlice], out: Vec<EndpointSlice>) -> Vec<EndpointSlice> {
    if !distinct_names(live) {
        let by_name: BTreeMap<&str, &EndpointSlice> = out.iter().map(|s| (s.name.as_str(), s)).collect();
        let matched = |s: &EndpointSlice| by_name.get(s.name.as_str()).map(|o| (*o).clone());
        return live.iter().map(|s| matched(s).unwrap_or_else(|| s.clone())).collect();
    }
    let at: HashMap<&str, usize> = live.iter().enumerate().map(|(i, s)| (s.name.as_str(), i)).collect();
    let mut slots: Vec<Option<EndpointSlice>> = live.iter().map(|_| None).collect();
    for slice in out {
        if let Some(&i) = at.get(slice.name.as_str()) {
            slots[i] = Some(slice);
        }
    }
    slots.into_iter().zip(live).map(|(o, s)| o.unwrap_or_else(|| s.clone())).collect()
}

/// Names of the slices a sync sends as updates (upstream sends every ToUpdate slice, changed or not).
fn names(slices: &[EndpointSlice]) -> Vec<String> {
    slices.iter().map(|s| s.name.clone()).collect()
}

/// The safeguard behind a `Disabled` outcome, with its numbers.
fn disabled_reason(cluster: &Cluster<'_>, disabled: &Disabled, managed: &[EndpointSlice]) -> Reason {
    super::zones::disabled_reason(&cluster.topology, disabled, managed)
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
