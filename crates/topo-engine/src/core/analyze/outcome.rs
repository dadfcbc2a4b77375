//! What the controller's next sync does to one address family's managed slices: the path it
//! takes (Auto `AddHints`, `trafficdist.ReconcileHints`, `RemoveHintsFromSlices`) run on the live
//! slices as "Unchanged" (docs/behaviour.md#steady-state-and-ties); [`super::family`] decides the
//! verdict from it.

use std::collections::{BTreeMap, HashMap};

use super::Cluster;
use super::equivalence::equivalent_rewrite;
use crate::core::mode::{ModeDecision, ModePath as Path};
use crate::core::topologycache::{self, Allocation, Disabled, SliceInfo};
use crate::core::trafficdist;
use crate::model::{EndpointSlice, Service};
use crate::report::ControllerEvent;
use crate::report::reason::{Reason, ReasonCode as C};

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
