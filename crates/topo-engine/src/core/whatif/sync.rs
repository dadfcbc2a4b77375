//! The controller's sync of the changed Service (`reconcileByAddressType`): the mode's path run on
//! the reconciler's lists, and the triggers that decide whether that sync happens at all
//! (docs/behaviour.md#overload-recheck-and-requeue).

use super::endpoints::FamilyPlan;
use crate::core::mode::ModePath;
use crate::core::topologycache::{self, SliceInfo, service_overloaded};
use crate::core::trafficdist;
use crate::core::zones::Ratios;
use crate::model::{Behaviour, EndpointSlice};
use crate::report::ControllerEvent;
use crate::report::whatif::SyncNote;

/// One family after the sync.
#[derive(Debug, Clone, Default)]
pub(crate) struct FamilySync {
    /// Managed slices afterwards: live order, deleted ones dropped, created ones last.
    pub slices: Vec<EndpointSlice>,
    /// The Event the sync emits.
    pub event: Option<ControllerEvent>,
    /// Names of created slices.
    pub created: Vec<String>,
    /// Names of updated slices.
    pub updated: Vec<String>,
}

/// What the sync needs besides the plan.
pub(crate) struct SyncInput<'a> {
    /// The branch the reconciler takes for the changed Service.
    pub path: ModePath,
    /// `spec.trafficDistribution` of the changed Service.
    pub traffic_distribution: Option<&'a str>,
    /// The zone weights the controller holds at the sync.
    pub ratios: &'a Ratios,
    /// Behaviour modelled.
    pub behaviour: Behaviour,
    /// The annotation path ran before and hints were on the slices (the controller's "populated"
    /// flag is set): leaving the path emits "Topology Aware Hints has been disabled", staying on it
    /// emits no second "enabled".
    pub was_populated: bool,
}

// mirrors reconciler.go: reconcileByAddressType (hint branch) for one family
/// Run the sync on one family's plan; `live` gives the order of the slices.
pub(crate) fn run_sync(
    input: &SyncInput<'_>,
    address_type: &str,
    live: &[EndpointSlice],
    plan: FamilyPlan,
) -> FamilySync {
    let (to_create, to_update, unchanged, event) = hint_path(input, address_type, plan);
    let mut slices: Vec<EndpointSlice> = live
        .iter()
        .filter_map(|s| to_update.iter().chain(&unchanged).find(|o| o.name == s.name).cloned())
        .collect();
    slices.extend(to_create.iter().cloned());
    FamilySync {
        slices,
        event,
        created: to_create.iter().map(|s| s.name.clone()).collect(),
        updated: to_update.iter().map(|s| s.name.clone()).collect(),
    }
}

/// The reconciler's lists after the mode's hint path, and the Event it emits.
type Written = (Vec<EndpointSlice>, Vec<EndpointSlice>, Vec<EndpointSlice>, Option<ControllerEvent>);

fn hint_path(input: &SyncInput<'_>, address_type: &str, plan: FamilyPlan) -> Written {
    // The reconciler's lists, as both the topology cache and trafficdist take them.
    let info = SliceInfo {
        address_type: address_type.to_string(),
        to_create: plan.to_create,
        to_update: plan.to_update,
        unchanged: plan.unchanged,
    };
    let (to_create, to_update, unchanged, event) = match input.path {
        ModePath::Annotation => {
            let out = topologycache::add_hints(input.ratios, info);
            // "enabled" is emitted only when the Service's populated flag was not set already.
            let event = (out.disabled.is_some() || !input.was_populated).then_some(out.event.into());
            (out.slices.to_create, out.slices.to_update, out.slices.unchanged, event)
        }
        ModePath::TrafficDistribution { .. } => {
            let out = trafficdist::reconcile_hints(input.traffic_distribution, &info, input.behaviour);
            (out.to_create, out.to_update, out.unchanged, disabled_event(input, address_type))
        }
        ModePath::RemoveHints => {
            let out = topologycache::remove_hints_from_slices(info);
            (out.to_create, out.to_update, out.unchanged, disabled_event(input, address_type))
        }
    };
    (to_create, to_update, unchanged, event.filter(|_| input.behaviour.controller_emits_events()))
}

fn disabled_event(input: &SyncInput<'_>, address_type: &str) -> Option<ControllerEvent> {
    input.was_populated.then(|| topologycache::ControllerEvent::annotation_removed(address_type).into())
}

/// What triggers a sync of the Service.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Triggers {
    /// A node add/delete or Ready flip.
    pub node_event: bool,
    /// Some allocatable CPU changed.
    pub cpu_changed: bool,
    /// The Service's endpoints change.
    pub endpoints_changed: bool,
    /// The Service object changes.
    pub service_changed: bool,
}

/// Whether the Service is synced, the overload recheck's answer, and the notes explaining both.
/// `cached` are the hint counts the controller caches per family (empty: nothing cached), checked
/// against the recomputed weights `ratios` (`serviceOverloaded`).
pub(crate) fn decide(
    t: Triggers,
    cached: &[topologycache::ZoneCounts],
    ratios: &Ratios,
) -> (bool, Option<bool>, Vec<SyncNote>) {
    let mut notes = Vec::new();
    let mut requeued = None;
    if t.node_event {
        notes.push(SyncNote::NodesRecomputed);
        let cached: Vec<_> = cached.iter().filter(|c| !c.is_empty()).collect();
        if cached.is_empty() {
            notes.push(SyncNote::NotRequeuedNoCache);
        } else {
            let overloaded = cached.iter().any(|c| service_overloaded(c, ratios));
            notes.push(if overloaded { SyncNote::Requeued } else { SyncNote::NotRequeuedBalanced });
            requeued = Some(overloaded);
        }
    } else if t.cpu_changed {
        notes.push(SyncNote::CpuChangeIgnored);
    }
    if t.endpoints_changed {
        notes.push(SyncNote::EndpointsChanged);
    }
    if t.service_changed {
        notes.push(SyncNote::ServiceChanged);
    }
    let synced = t.endpoints_changed || t.service_changed || requeued == Some(true);
    if synced && t.cpu_changed && !t.node_event {
        notes.push(SyncNote::StaleWeights);
    }
    if !synced {
        notes.push(SyncNote::NotReached);
    }
    (synced, requeued, notes)
}
