//! Helpers of `topologycache/utils.go`: the Step B per-slice check (`getHintsByZone`), Step D
//! giving/receiving zones (`getGivingAndReceivingZones`, `getMost`) and Step E redistribution
//! (`redistributeHints`). Ties that Go breaks by map order are broken here by the
//! lexicographically smallest zone; [`GiveTake`] exposes each tie so `alternatives` can branch.

use std::collections::BTreeMap;

use super::{Allocations, ZoneCounts};
use crate::model::{EndpointSlice, Hints};

// mirrors utils.go: getHintsByZone
/// Zone-hint counts of one slice's ready endpoints, or `None` when the slice must be rewritten: a
/// ready endpoint without zone hints, a hint for a zone not in `allocations`, or a zone whose count
/// plus `allocated` would exceed its maximum. A slice without ready endpoints gives `Some(empty)`.
pub fn get_hints_by_zone(
    slice: &EndpointSlice,
    allocated: &ZoneCounts,
    allocations: &Allocations,
) -> Option<ZoneCounts> {
    let mut hints_by_zone = ZoneCounts::new();
    for endpoint in slice.endpoints.iter().filter(|endpoint| endpoint.controller_ready()) {
        let zones = endpoint.hints.as_ref().and_then(|hints| hints.for_zones.as_ref())?;
        if zones.is_empty() {
            return None;
        }
        for zone in zones {
            if !allocations.contains_key(&**zone) {
                return None;
            }
            *hints_by_zone.entry(zone.to_string()).or_insert(0) += 1;
        }
    }
    for (zone, num_hints) in &hints_by_zone {
        let already = allocated.get(zone).copied().unwrap_or(0);
        let allocation = allocations.get(zone)?;
        if num_hints + already > allocation.maximum {
            return None;
        }
    }
    Some(hints_by_zone)
}

// mirrors utils.go: getMost
/// Every zone holding the strictly positive maximum (any of them can be Go's answer, by map
/// order), and that maximum; `(vec![], 0.0)` when no value is > 0 (Go returns `("", 0)`).
pub fn get_most(zones: &BTreeMap<String, f64>) -> (Vec<String>, f64) {
    let mut num = 0.0;
    for &n in zones.values() {
        if n > num {
            num = n;
        }
    }
    let tied = zones.iter().filter(|&(_, &n)| n > 0.0 && n == num).map(|(zone, _)| zone.clone()).collect();
    (tied, num)
}

/// The state of the Step D loop: remaining surplus/deficit and the integer give/take so far.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct GiveTake {
    giving_desired: BTreeMap<String, f64>,
    receiving_desired: BTreeMap<String, f64>,
    /// Endpoints each zone gives so far.
    pub give: ZoneCounts,
    /// Endpoints each zone receives so far.
    pub take: ZoneCounts,
}

impl GiveTake {
    // mirrors utils.go: getGivingAndReceivingZones, part 1 (float surplus and deficit).
    /// Surplus (`acc - desired` if > 0) and deficit (`desired - acc` if > 0) of every allocated zone.
    pub(super) fn start(allocations: &Allocations, allocated: &ZoneCounts) -> Self {
        let mut state = GiveTake {
            giving_desired: BTreeMap::new(),
            receiving_desired: BTreeMap::new(),
            give: ZoneCounts::new(),
            take: ZoneCounts::new(),
        };
        for (zone, allocation) in allocations {
            let hints = allocated.get(zone).copied().unwrap_or(0) as f64;
            let target = allocation.desired;
            if hints > target {
                state.giving_desired.insert(zone.clone(), hints - target);
            } else if hints < target {
                state.receiving_desired.insert(zone.clone(), target - hints);
            }
        }
        state
    }

    // mirrors utils.go: getGivingAndReceivingZones, the loop's stop rule.
    /// The tied giving and receiving candidates of the next iteration, or `None` when the loop
    /// stops: no zone, `(give < 1 && receive < 1)`, `give < 0.5` or `receive < 0.5`.
    pub(super) fn candidates(&self) -> Option<(Vec<String>, Vec<String>)> {
        let (giving, num_to_give) = get_most(&self.giving_desired);
        let (receiving, num_to_receive) = get_most(&self.receiving_desired);
        if giving.is_empty()
            || receiving.is_empty()
            || (num_to_give < 1.0 && num_to_receive < 1.0)
            || num_to_give < 0.5
            || num_to_receive < 0.5
        {
            return None;
        }
        Some((giving, receiving))
    }

    /// One loop iteration with the chosen zones. A zone named `""` ends the loop as in Go, where
    /// `""` also means "none"; returns false then.
    pub(super) fn step(&mut self, giving_zone: &str, receiving_zone: &str) -> bool {
        if giving_zone.is_empty() || receiving_zone.is_empty() {
            return false;
        }
        *self.give.entry(giving_zone.to_string()).or_insert(0) += 1;
        *self.giving_desired.get_mut(giving_zone).expect("candidate") -= 1.0;
        *self.take.entry(receiving_zone.to_string()).or_insert(0) += 1;
        *self.receiving_desired.get_mut(receiving_zone).expect("candidate") -= 1.0;
        true
    }
}

// mirrors utils.go: getGivingAndReceivingZones
/// Step D with the canonical tie choice (smallest zone name): `(give, take)`.
pub fn get_giving_and_receiving_zones(
    allocations: &Allocations,
    allocated: &ZoneCounts,
) -> (ZoneCounts, ZoneCounts) {
    let mut state = GiveTake::start(allocations, allocated);
    while let Some((giving, receiving)) = state.candidates() {
        if !state.step(&giving[0], &receiving[0]) {
            break;
        }
    }
    (state.give, state.take)
}

// mirrors utils.go: redistributeHints
/// Step E: walks ready endpoints in slice order; one whose own zone still has something to give
/// gets `forZones:[r]` with `r` the smallest zone still receiving (Go: first in map order).
/// Stops once `giving` or `receiving` is empty. Returns the count change per zone.
pub fn redistribute_hints<'a>(
    slices: impl IntoIterator<Item = &'a mut EndpointSlice>,
    mut giving: ZoneCounts,
    mut receiving: ZoneCounts,
) -> ZoneCounts {
    let mut redistributions = ZoneCounts::new();
    for slice in slices {
        for endpoint in slice.endpoints.iter_mut().filter(|endpoint| endpoint.controller_ready()) {
            if giving.is_empty() || receiving.is_empty() {
                return redistributions;
            }
            // "This should always be caught earlier in AddHints()": zone-less endpoints are skipped.
            let Some(giving_zone) =
                endpoint.zone.as_deref().filter(|zone| !zone.is_empty()).map(str::to_string)
            else {
                continue;
            };
            if giving.get(&giving_zone).is_none_or(|&n| n <= 0) {
                continue;
            }
            let Some(receiving_zone) = receiving.iter().find(|&(_, &n)| n > 0).map(|(z, _)| z.clone()) else {
                continue;
            };
            endpoint.hints = Some(Hints::zone(&receiving_zone));
            decrement(&mut giving, &giving_zone);
            decrement(&mut receiving, &receiving_zone);
            *redistributions.entry(receiving_zone).or_insert(0) += 1;
            *redistributions.entry(giving_zone).or_insert(0) -= 1;
        }
    }
    redistributions
}

/// `if n == 1 { delete } else { n-- }`, as upstream updates its giving/receiving maps.
fn decrement(counts: &mut ZoneCounts, zone: &str) {
    match counts.get_mut(zone) {
        Some(n) if *n == 1 => {
            counts.remove(zone);
        }
        Some(n) => *n -= 1,
        None => {}
    }
}
