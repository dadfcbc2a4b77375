//! `simulate`: apply changes to a Snapshot, let the controller react as upstream would (sync or not,
//! docs/behaviour.md#overload-recheck-and-requeue), and report `explain` before and after with a summary.

use std::collections::BTreeMap;

use super::changes::{Changes, ModeChoice};
use super::endpoints::{EndpointContext, FamilyPlan, plan_family};
use super::nodes::{NodeChange, apply_nodes};
use super::sync::{FamilySync, SyncInput, Triggers, decide, run_sync};
use crate::core::analyze::{TrafficModel, address_types, explain_with, hinted_counts};
use crate::core::mode::{self, ModePath};
use crate::core::topologycache::ZoneCounts;
use crate::core::zones::{NodeTopology, set_nodes};
use crate::model::{
    ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Behaviour, EndpointSlice, Service, Snapshot,
};
use crate::report::ServiceRef;
use crate::report::whatif::{SimulationReport, SyncView};

pub use super::error::{Misfit, SimulateError};

/// Simulate `changes` on `service` (which must be in `snapshot`).
pub fn simulate(
    snapshot: &Snapshot,
    service: &Service,
    behaviour: Behaviour,
    changes: &Changes,
    traffic: &TrafficModel,
) -> Result<SimulationReport, SimulateError> {
    simulate_replacing(snapshot, (service, service), behaviour, changes, traffic)
}

/// [`simulate`] with the Service object itself replaced (`simulate --apply`: a manifest's
/// annotations, `trafficDistribution`, `internalTrafficPolicy`, selector): `services` is the
/// Service in `snapshot` and its replacement, which `changes.mode` then changes further.
pub fn simulate_replacing(
    snapshot: &Snapshot,
    services: (&Service, &Service),
    behaviour: Behaviour,
    changes: &Changes,
    traffic: &TrafficModel,
) -> Result<SimulationReport, SimulateError> {
    let (service, replacement) = services;
    let before = explain_with(snapshot, service, behaviour, traffic);
    let changed = change(snapshot, (service, replacement), changes)?;
    let (sync, after_slices) = react(snapshot, service, behaviour, &changed);
    let after_snapshot = Snapshot {
        nodes: changed.nodes.nodes.clone(),
        services: snapshot
            .services
            .iter()
            .map(|s| if s == service { changed.service.clone() } else { s.clone() })
            .collect(),
        slices: replace_slices(snapshot, service, after_slices),
        ..snapshot.clone()
    };
    let after = explain_with(&after_snapshot, &changed.service, behaviour, traffic);
    Ok(SimulationReport {
        service: ServiceRef { namespace: service.namespace.clone(), name: service.name.clone() },
        kubernetes_version: behaviour.to_string(),
        kubernetes_version_basis: None,
        changes: changes.describe(),
        sync,
        summary: super::summary::deltas(&before, &after),
        before,
        after,
    })
}

/// The cluster after the changes, before the controller reacts.
struct Changed {
    nodes: NodeChange,
    service: Service,
    /// `SetNodes` over the changed nodes.
    topology: NodeTopology,
    /// Per address family: its live managed slices and the reconciler's plan for them.
    plans: Vec<(String, Vec<EndpointSlice>, FamilyPlan)>,
}

fn change(
    snapshot: &Snapshot,
    (service, replacement): (&Service, &Service),
    changes: &Changes,
) -> Result<Changed, SimulateError> {
    let nodes = apply_nodes(&snapshot.nodes, changes)?;
    let changed_service = with_mode(replacement, changes.mode);
    let topology = set_nodes(&nodes.nodes);
    let ctx = EndpointContext {
        service: &changed_service,
        nodes: &nodes.nodes,
        topology: &topology,
        removed: &nodes.removed,
        changes,
    };
    let mut plans = Vec::new();
    for family in address_types(&changed_service, &own_slices(snapshot, service, None)) {
        let managed: Vec<EndpointSlice> =
            own_slices(snapshot, service, Some(&family)).into_iter().cloned().collect();
        let plan = plan_family(&ctx, &managed)?;
        plans.push((family, managed, plan));
    }
    Ok(Changed { nodes, service: changed_service, topology, plans })
}

/// Whether and how the controller syncs the changed Service; the managed slices per family after.
fn react(
    snapshot: &Snapshot,
    service: &Service,
    behaviour: Behaviour,
    changed: &Changed,
) -> (SyncView, BTreeMap<String, Vec<EndpointSlice>>) {
    let before_path = mode::select_mode(service, behaviour).path;
    let reconciled = mode::controller_reconciles(&changed.service).is_none();
    let triggers = Triggers {
        node_event: changed.nodes.node_event,
        cpu_changed: changed.nodes.cpu_changed,
        endpoints_changed: reconciled && changed.plans.iter().any(|(_, _, p)| p.changed()),
        service_changed: changed.service != *service,
    };
    // What the controller caches: hint counts of Services on the annotation path.
    let cached: Vec<ZoneCounts> = changed
        .plans
        .iter()
        .filter(|_| before_path == ModePath::Annotation)
        .map(|(_, managed, _)| hinted_counts(managed))
        .collect();
    let (synced, requeued, notes) = decide(triggers, &cached, &changed.topology.ratios);
    // The weights the controller holds at the sync: recomputed only on a node event.
    let ratios =
        if triggers.node_event { changed.topology.ratios.clone() } else { set_nodes(&snapshot.nodes).ratios };
    let input = SyncInput {
        path: mode::select_mode(&changed.service, behaviour).path,
        traffic_distribution: changed.service.traffic_distribution.as_deref(),
        ratios: &ratios,
        behaviour,
        was_populated: before_path == ModePath::Annotation && cached.iter().any(|c| !c.is_empty()),
    };
    let mut sync = SyncView { synced, requeued, notes, ..SyncView::default() };
    let mut after = BTreeMap::new();
    for (family, managed, plan) in &changed.plans {
        let result = if synced && reconciled {
            sync.deleted_slices.extend(plan.deleted.iter().cloned());
            run_sync(&input, family, managed, plan.clone())
        } else {
            FamilySync { slices: managed.clone(), ..FamilySync::default() }
        };
        sync.events.extend(result.event);
        sync.created_slices.extend(result.created);
        sync.updated_slices.extend(result.updated);
        after.insert(family.clone(), result.slices);
    }
    (sync, after)
}

/// The Service's controller-managed slices (of one family, or all).
fn own_slices<'a>(snapshot: &'a Snapshot, service: &Service, family: Option<&str>) -> Vec<&'a EndpointSlice> {
    snapshot
        .slices
        .iter()
        .filter(|s| s.is_for(service) && s.is_controller_managed())
        .filter(|s| family.is_none_or(|f| s.address_type == f))
        .collect()
}

/// The snapshot's slices with the Service's managed slices of each family replaced (in place; new
/// ones after the last).
fn replace_slices(
    snapshot: &Snapshot,
    service: &Service,
    mut families: BTreeMap<String, Vec<EndpointSlice>>,
) -> Vec<EndpointSlice> {
    let own = |s: &EndpointSlice| s.is_for(service) && s.is_controller_managed();
    let mut out = Vec::new();
    for slice in &snapshot.slices {
        if !own(slice) {
            out.push(slice.clone());
        } else if let Some(replacement) = families.get_mut(&slice.address_type)
            && let Some(i) = replacement.iter().position(|r| r.name == slice.name)
        {
            out.push(replacement.remove(i));
        }
    }
    out.extend(families.into_values().flatten());
    out
}

/// The Service with `--mode` applied (annotations and `spec.trafficDistribution`).
fn with_mode(service: &Service, mode: Option<ModeChoice>) -> Service {
    let mut s = service.clone();
    let Some(mode) = mode else { return s };
    s.annotations.remove(ANNOTATION_TOPOLOGY_AWARE_HINTS);
    s.annotations.remove(ANNOTATION_TOPOLOGY_MODE);
    s.traffic_distribution = None;
    match mode {
        ModeChoice::Auto => {
            s.annotations.insert(ANNOTATION_TOPOLOGY_MODE.to_string(), "Auto".to_string());
        }
        ModeChoice::PreferClose => s.traffic_distribution = Some("PreferClose".to_string()),
        ModeChoice::PreferSameZone => s.traffic_distribution = Some("PreferSameZone".to_string()),
        ModeChoice::PreferSameNode => s.traffic_distribution = Some("PreferSameNode".to_string()),
        ModeChoice::None => {}
    }
    s
}
