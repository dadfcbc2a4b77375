//! Every outcome Go's random map order can produce (spec §2.9), so a diff can accept any of them.
//!
//! Two choices are random upstream: which of several bit-identical maxima `getMost` returns in
//! Step D (changes `give`/`take`, example W8), and which receiving zone Step E picks per moved
//! endpoint (changes counts only when there are fewer movable endpoints than `take` asks for).
//! Step D is explored as a graph of loop states (a state is fully described by `give`/`take`, so
//! merging equal states keeps this polynomial); Step E outcomes are enumerated directly.

use std::collections::BTreeSet;

use super::utils::GiveTake;
use super::{Allocations, ZoneCounts};
use crate::model::EndpointSlice;

/// Bound on distinct outcomes (and, ×16, on Step D states visited) before we give up and flag it.
pub const ALTERNATIVES_LIMIT: usize = 1024;

/// Every `(give, take)` pair some tie order in `getGivingAndReceivingZones` yields, sorted; true
/// when the bound was hit.
pub fn giving_and_receiving_alternatives(
    allocations: &Allocations,
    allocated: &ZoneCounts,
) -> (Vec<(ZoneCounts, ZoneCounts)>, bool) {
    let start = GiveTake::start(allocations, allocated);
    let mut visited = BTreeSet::from([(start.give.clone(), start.take.clone())]);
    let mut results = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(state) = stack.pop() {
        if results.len() >= ALTERNATIVES_LIMIT || visited.len() >= ALTERNATIVES_LIMIT * 16 {
            return (results.into_iter().collect(), true);
        }
        let Some((giving, receiving)) = state.candidates() else {
            results.insert((state.give.clone(), state.take.clone()));
            continue;
        };
        for giving_zone in &giving {
            for receiving_zone in &receiving {
                let mut next = state.clone();
                if !next.step(giving_zone, receiving_zone) {
                    results.insert((state.give.clone(), state.take.clone()));
                } else if visited.insert((next.give.clone(), next.take.clone())) {
                    stack.push(next);
                }
            }
        }
    }
    (results.into_iter().collect(), false)
}

/// Every final per-zone count vector (`acc` after redistribution) reachable by any tie choice in
/// Steps D and E, sorted and deduplicated; true when the bound was hit.
///
/// `allocated` is `acc` after Step C; `allocatable` are ToCreate then ToUpdate after Step C.
pub fn count_alternatives(
    allocations: &Allocations,
    allocated: &ZoneCounts,
    allocatable: &[&EndpointSlice],
) -> (Vec<ZoneCounts>, bool) {
    let (pairs, mut truncated) = giving_and_receiving_alternatives(allocations, allocated);
    let movable = movable_by_zone(allocatable);
    let mut results = BTreeSet::new();
    for (give, take) in pairs {
        let mut base = allocated.clone();
        let mut moves = 0;
        for (zone, &num) in &give {
            let moved = num.min(movable.get(zone).copied().unwrap_or(0));
            if moved > 0 {
                *base.entry(zone.clone()).or_insert(0) -= moved;
                moves += moved;
            }
        }
        let receivers: Vec<(&String, i64)> = take.iter().map(|(zone, &n)| (zone, n)).collect();
        distribute(&receivers, moves, &mut base, &mut results);
        if results.len() >= ALTERNATIVES_LIMIT {
            truncated = true;
            break;
        }
    }
    (results.into_iter().collect(), truncated)
}

/// Ready endpoints with a non-empty zone per zone in the allocatable slices: the most Step E can
/// move away from each zone.
fn movable_by_zone(allocatable: &[&EndpointSlice]) -> ZoneCounts {
    let mut movable = ZoneCounts::new();
    for endpoint in allocatable.iter().flat_map(|slice| &slice.endpoints) {
        if let Some(zone) = endpoint.zone.as_ref().filter(|z| !z.is_empty() && endpoint.controller_ready()) {
            *movable.entry(zone.clone()).or_insert(0) += 1;
        }
    }
    movable
}

/// Adds every split of `moves` over `receivers` (each at most its `take`) to `counts`, recording
/// the results. Zones receiving nothing get no new key, as upstream only touches moved zones.
fn distribute(
    receivers: &[(&String, i64)],
    moves: i64,
    counts: &mut ZoneCounts,
    results: &mut BTreeSet<ZoneCounts>,
) {
    if results.len() >= ALTERNATIVES_LIMIT {
        return;
    }
    let Some(((zone, cap), rest)) = receivers.split_first() else {
        if moves == 0 {
            results.insert(counts.clone());
        }
        return;
    };
    let rest_cap: i64 = rest.iter().map(|(_, cap)| cap).sum();
    for here in (moves - rest_cap).max(0)..=moves.min(*cap) {
        let before = counts.get(*zone).copied();
        if here > 0 {
            *counts.entry((*zone).clone()).or_insert(0) += here;
        }
        distribute(rest, moves - here, counts, results);
        match before {
            Some(n) => counts.insert((*zone).clone(), n),
            None => counts.remove(*zone),
        };
    }
}
