//! The annotation path: `TopologyCache.AddHints` (`topologycache/topologycache.go`, docs/behaviour.md#auto-allocation
//! Steps A–F), on a fresh cache (so success always emits `TopologyAwareHintsEnabled`).

use super::removal::remove_hints_tracking;
use super::{
    AddHintsOutcome, Allocations, ControllerEvent, Disabled, SliceInfo, ZoneCounts, count_alternatives,
    get_allocated_hints_by_zone, get_allocations, get_giving_and_receiving_zones, get_total_ready_endpoints,
    redistribute_hints,
};
use crate::core::zones::Ratios;
use crate::model::{EndpointSlice, Hints};

// mirrors topologycache.go: AddHints
/// Runs Steps A–F for one address type with `ratios` in the cache and returns the slices as
/// upstream leaves them, the event, and every intermediate value (canonical tie choices).
pub fn add_hints(ratios: &Ratios, mut si: SliceInfo) -> AddHintsOutcome {
    let total_ready = get_total_ready_endpoints(&si);
    let allocations = match get_allocations(ratios, total_ready) {
        Ok(allocations) => allocations,
        Err(why) => return disable(si, why, None, total_ready, Vec::new()),
    };
    let (mut allocated, rejected) = get_allocated_hints_by_zone(&mut si, &allocations);
    let addresses = ready_endpoints_without_zone(&si);
    if !addresses.is_empty() {
        let why = Disabled::NoZoneSpecified { addresses };
        return disable(si, why, Some(allocations), total_ready, rejected);
    }
    assign_same_zone_hints(&mut si, &mut allocated);
    let (alternatives, alternatives_truncated) =
        count_alternatives(&allocations, &allocated, &allocatable(&si));
    let (give, take) = get_giving_and_receiving_zones(&allocations, &allocated);
    let redistributions = redistribute_hints(
        si.to_create.iter_mut().chain(si.to_update.iter_mut()),
        give.clone(),
        take.clone(),
    );
    for (zone, diff) in redistributions {
        *allocated.entry(zone).or_insert(0) += diff;
    }
    if allocated.is_empty() {
        let mut outcome = disable(si, Disabled::NoHintsAllocated, Some(allocations), total_ready, rejected);
        (outcome.give, outcome.take) = (give, take);
        return outcome;
    }
    AddHintsOutcome {
        event: ControllerEvent::enabled(&si.address_type),
        slices: si,
        rejected_unchanged: rejected,
        disabled: None,
        allocations: Some(allocations),
        total_ready,
        counts: allocated,
        give,
        take,
        removal: None,
        alternatives,
        alternatives_truncated,
    }
}

/// The abort path shared by every safeguard: event, `RemoveHintsFromSlices`, nothing cached.
fn disable(
    si: SliceInfo,
    why: Disabled,
    allocations: Option<Allocations>,
    total_ready: i64,
    rejected_unchanged: Vec<String>,
) -> AddHintsOutcome {
    let event = ControllerEvent::disabled(&why, &si.address_type);
    let (slices, removal) = remove_hints_tracking(si);
    AddHintsOutcome {
        slices,
        rejected_unchanged,
        event,
        disabled: Some(why),
        allocations,
        total_ready,
        counts: ZoneCounts::new(),
        give: ZoneCounts::new(),
        take: ZoneCounts::new(),
        removal: Some(removal),
        alternatives: Vec::new(),
        alternatives_truncated: false,
    }
}

/// ToCreate then ToUpdate: the slices Steps C and E may rewrite.
fn allocatable(si: &SliceInfo) -> Vec<&EndpointSlice> {
    si.to_create.iter().chain(si.to_update.iter()).collect()
}

/// First address of every ready endpoint without a zone (`Zone == nil || *Zone == ""`) in the
/// allocatable slices. Upstream aborts at the first; the outcome is the same.
fn ready_endpoints_without_zone(si: &SliceInfo) -> Vec<String> {
    allocatable(si)
        .into_iter()
        .flat_map(|slice| &slice.endpoints)
        .filter(|endpoint| endpoint.controller_ready() && endpoint.zone.as_deref().is_none_or(str::is_empty))
        .map(|endpoint| endpoint.addresses.first().cloned().unwrap_or_default())
        .collect()
}

// mirrors topologycache.go: AddHints "step 1: assign same-zone hints"
/// Step C: every ready endpoint of the allocatable slices gets exactly `forZones:[own zone]` (any
/// `forNodes` dropped) and is counted. Non-ready endpoints keep whatever hints they had: upstream
/// clears a loop copy only. Call only after checking that every ready endpoint has a zone.
fn assign_same_zone_hints(si: &mut SliceInfo, allocated: &mut ZoneCounts) {
    let slices = si.to_create.iter_mut().chain(si.to_update.iter_mut());
    for endpoint in slices.flat_map(|slice| slice.endpoints.iter_mut()) {
        if !endpoint.controller_ready() {
            continue;
        }
        if let Some(zone) = endpoint.zone.clone() {
            *allocated.entry(zone.to_string()).or_insert(0) += 1;
            endpoint.hints = Some(Hints::zone(&zone));
        }
    }
}
