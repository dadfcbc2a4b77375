//! From a Snapshot to reports (`explain`, `check`, `zones`, `watch`): runs the upstream ports per
//! Service and address family in steady state (every live managed slice "Unchanged",
//! docs/behaviour.md#steady-state-and-ties) and turns their outcome into verdicts, reasons and
//! diffs, with the replicas needed ([`replicas`], spread by [`spread`]) and the share of requests
//! that leave their zone ([`crosszone`], under a [`TrafficModel`]). Pure; `simulate` builds on it.

mod asked;
mod callers;
mod caveats;
mod certify;
mod cluster;
pub mod crosszone;
mod dataplane;
mod equivalence;
mod extras;
mod family;
pub mod frontdoor;
mod hint_readers;
mod outcome;
mod parallel;
mod releases;
pub mod replicas;
mod rows;
pub mod spread;
pub mod workloads;
mod zone_limit;
mod zones;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::core::mode::{self, ModeDecision};
use crate::model::{Behaviour, EndpointSlice, Event, Service, Snapshot};
use crate::report::check::CheckFamily;
use crate::report::reason::Reason;
use crate::report::{CheckReport, CheckRow, CheckSummary, ServiceRef, ServiceReport, Verdict, ZoneReport};

pub use certify::certify_rows;
pub use cluster::{Cluster, NodeIndex};
pub use crosszone::{CrossZoneInput, TrafficModel, cross_zone};
pub use replicas::{hints_hold, replicas_needed, spread_weights};
pub use rows::hinted_counts;
pub use workloads::workloads;
pub use zone_limit::{MAX_ZONES, TooManyZones, slice_zone_names, zone_limit, zone_limit_of, zone_names_of};
pub use zones::zones_report;

/// [`service_reports_with`] on a [`NodeIndex`] built from `snapshot.nodes`, carrying only what
/// `serve`'s summary reads ([`Cluster::summary_only`]: no endpoint rows, replicas needed,
/// cross-zone rows, destinations, endpoint loads or load check; every figure it carries is the
/// full report's).
pub fn service_reports_indexed(
    snapshot: &Snapshot,
    services: &[&Service],
    behaviour: Behaviour,
    index: &NodeIndex,
    workers: usize,
) -> Vec<ServiceReport> {
    let cluster = Cluster {
        proxy_detail: false,
        summary_only: true,
        ..Cluster::with_index(snapshot, behaviour, index)
    };
    parallel::map_in_order(services, workers, |s| service_report(&cluster, s))
}

/// `zones`.
pub fn zones(snapshot: &Snapshot, behaviour: Behaviour) -> ZoneReport {
    zones_report(&Cluster::new(snapshot, behaviour))
}

/// `explain` for one Service.
pub fn explain(snapshot: &Snapshot, service: &Service, behaviour: Behaviour) -> ServiceReport {
    explain_with(snapshot, service, behaviour, &TrafficModel::default())
}

/// `explain` with a traffic model for the cross-zone share.
pub fn explain_with(
    snapshot: &Snapshot,
    service: &Service,
    behaviour: Behaviour,
    traffic: &TrafficModel,
) -> ServiceReport {
    service_report(&Cluster::with_traffic(snapshot, behaviour, traffic), service)
}

/// `check` over the given Services (sorted by namespace, name in the output), on two threads.
pub fn check(snapshot: &Snapshot, services: &[&Service], behaviour: Behaviour) -> CheckReport {
    check_with(snapshot, services, behaviour, &TrafficModel::default(), 2)
}

/// `check` with a traffic model for the cross-zone column, on up to `workers` threads (the
/// report is the same on any number).
pub fn check_with(
    snapshot: &Snapshot,
    services: &[&Service],
    behaviour: Behaviour,
    traffic: &TrafficModel,
    workers: usize,
) -> CheckReport {
    // A check row shows no per-node kube-proxy groups, rows or routing detail: they are not
    // materialised.
    let cluster = Cluster {
        proxy_detail: false,
        row_only: true,
        ..Cluster::with_traffic(snapshot, behaviour, traffic)
    };
    let mut rows = parallel::map_in_order(services, workers, |s| check_row(service_report(&cluster, s)));
    rows.sort_by(|a, b| a.service.cmp(&b.service));
    let summary = CheckSummary::of(&rows);
    CheckReport {
        kubernetes_version: behaviour.to_string(),
        kubernetes_version_basis: None,
        services: rows,
        summary,
        partial: snapshot.info.partial.clone(),
    }
}

/// The full report of each given Service (for `watch`, which compares them over time).
pub fn service_reports(
    snapshot: &Snapshot,
    services: &[&Service],
    behaviour: Behaviour,
) -> Vec<ServiceReport> {
    let cluster = Cluster::new(snapshot, behaviour);
    services.iter().map(|s| service_report(&cluster, s)).collect()
}

/// The full report of each given Service, in order, with a traffic model, on up to `workers`
/// threads, without the per-node kube-proxy groups (as `check`: with thousands of nodes they would
/// dominate the memory). The `check` pictures draw them.
pub fn service_reports_with(
    snapshot: &Snapshot,
    services: &[&Service],
    behaviour: Behaviour,
    traffic: &TrafficModel,
    workers: usize,
) -> Vec<ServiceReport> {
    let cluster = Cluster { proxy_detail: false, ..Cluster::with_traffic(snapshot, behaviour, traffic) };
    parallel::map_in_order(services, workers, |s| service_report(&cluster, s))
}

/// A check row lives to the end of the run, one per Service (100,000 on the largest clusters), so
/// its lists are kept at their length: a first push reserves room for four `Reason`s of ~230 bytes.
fn check_row(report: ServiceReport) -> CheckRow {
    // The worst data-plane path, when it ignores the Service's hints, is a finding of every family.
    let path_note = report.notes.iter().find(|n| dataplane::IGNORING.contains(&n.code)).cloned();
    let mut families: Vec<CheckFamily> = report
        .families
        .into_iter()
        .map(|mut f| {
            f.reasons.extend(path_note.clone());
            f.reasons.shrink_to_fit();
            CheckFamily {
                replicas_needed: (f.verdict == Verdict::Blocked)
                    .then(|| f.replicas.as_ref().and_then(|r| r.nearest))
                    .flatten(),
                cross_zone_after_sync: f.cross_zone.as_ref().map(|c| c.overall.expected.cross_zone),
                cross_zone_now: f.cross_zone.as_ref().map(|c| c.overall.now.cross_zone),
                margin_points: f.stability.as_ref().and_then(|m| m.nearest_share_points),
                fragile: f.stability.as_ref().map(|m| m.fragile),
                address_type: f.address_type,
                verdict: f.verdict,
                reasons: f.reasons,
                ignored: Vec::new(),
            }
        })
        .collect();
    families.shrink_to_fit();
    CheckRow { service: report.service, mode: report.mode, families, certificates: None }
}

/// The full report of one Service.
pub fn service_report(cluster: &Cluster<'_>, service: &Service) -> ServiceReport {
    let decision: ModeDecision = mode::select_mode(service, cluster.behaviour);
    let skip: Option<Reason> = mode::controller_reconciles(service);
    // Mode notes only matter when the controller reconciles the Service at all.
    let mut notes: Vec<Reason> = if skip.is_some() { vec![] } else { decision.notes.clone() };
    notes.extend(family::traffic_policy_notes(service));
    let data_plane = dataplane::paths(cluster, service, decision.mode);
    notes.extend(caveats::data_plane_notes(cluster, service, &decision, &data_plane));
    let mut families: Vec<_> = address_types(service, cluster.slices_of(service))
        .into_iter()
        .map(|t| family::analyze(cluster, service, &t, &decision, skip.as_ref()))
        .collect();
    // A check row shows no Event, and finding a Service's reads every Event of the snapshot: a row
    // reads them only on a release whose remedy depends on them (kubernetes/kubernetes#117245).
    let needs_events = !cluster.row_only || cluster.behaviour.ignores_node_zone_updates();
    let events = if needs_events { events(cluster.snapshot, service) } else { Vec::new() };
    releases::node_zone_not_seen(cluster.behaviour, &events, &mut families);
    let history = crate::core::stability::history(&events);
    ServiceReport {
        service: ServiceRef { namespace: service.namespace.clone(), name: service.name.clone() },
        kubernetes_version: cluster.behaviour.to_string(),
        kubernetes_version_basis: None,
        mode: decision.mode,
        mode_source: decision.source.clone(),
        notes,
        families,
        events,
        history,
        partial: cluster.snapshot.info.partial.clone(),
        data_plane,
        workloads: None,
        certificates: None,
    }
}

/// The managed slices of every reported address family as the controller's next sync leaves them
/// (the "expected" side of `FamilyReport.endpoints`, with `hints` objects intact: absent vs `{}`),
/// by address type. When the live state is an equivalent outcome (docs/behaviour.md#steady-state-and-ties) these are the
/// live slices. Used by the upstream differential test.
pub fn expected_slices(
    snapshot: &Snapshot,
    service: &Service,
    behaviour: Behaviour,
) -> BTreeMap<String, Vec<EndpointSlice>> {
    expected_slices_in(&Cluster::new(snapshot, behaviour), service)
}

/// [`expected_slices`] on an indexed cluster (many Services, one `SetNodes`: the bench generator).
pub fn expected_slices_in(cluster: &Cluster<'_>, service: &Service) -> BTreeMap<String, Vec<EndpointSlice>> {
    let decision = mode::select_mode(service, cluster.behaviour);
    let skip = mode::controller_reconciles(service);
    address_types(service, cluster.slices_of(service))
        .into_iter()
        .map(|t| {
            let (_, outcome, _) = outcome::outcome(cluster, service, &t, &decision, skip.as_ref());
            (t, outcome.expected)
        })
        .collect()
}

/// Address types of a Service (mirrors endpointslice utils.go: getAddressTypesForService).
/// A legacy headless Service without families gets both upstream; we show only the families that
/// have slices (IPv4 when none has), so a single-stack dump does not grow an empty IPv6 section.
pub fn address_types(service: &Service, slices: &[&EndpointSlice]) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for family in &service.ip_families {
        if matches!(family.as_str(), "IPv4" | "IPv6") && !types.contains(family) {
            types.push(family.clone());
        }
    }
    if !types.is_empty() {
        return types;
    }
    match service.cluster_ip.as_deref() {
        Some(ip) if ip != "None" && !ip.is_empty() => {
            vec![if ip.contains(':') { "IPv6" } else { "IPv4" }.to_string()]
        }
        _ => {
            let with_slices: Vec<String> = ["IPv4", "IPv6"]
                .into_iter()
                .filter(|t| slices.iter().any(|s| s.address_type == *t))
                .map(str::to_string)
                .collect();
            if with_slices.is_empty() { vec!["IPv4".to_string()] } else { with_slices }
        }
    }
}

fn events(snapshot: &Snapshot, service: &Service) -> Vec<Event> {
    let mut events: Vec<Event> = snapshot
        .events
        .iter()
        .filter(|e| {
            e.object_kind == "Service" && e.namespace == service.namespace && e.object_name == service.name
        })
        .cloned()
        .collect();
    events.sort_by(|a, b| a.last_seen.cmp(&b.last_seen));
    events
}
