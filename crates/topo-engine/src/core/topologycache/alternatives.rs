//! Every outcome Go's random map order can produce (docs/behaviour.md#steady-state-and-ties), so a diff can accept any of them.
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
        distribute(&receivers, moves, &base, &mut results);
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
            *movable.entry(zone.to_string()).or_insert(0) += 1;
        }
    }
    movable
}

/// Adds every split of `moves` over `receivers` (each at most its `take`) to `counts`, recording
/// the results. Zones receiving nothing get no new key, as upstream only touches moved zones.
///
/// Iterative (an odometer over the per-receiver amounts, smallest first), so a cluster with
/// 10^5 receiving zones cannot overflow the stack; it stops at [`ALTERNATIVES_LIMIT`] results.
fn distribute(
    receivers: &[(&String, i64)],
    moves: i64,
    counts: &ZoneCounts,
    results: &mut BTreeSet<ZoneCounts>,
) {
    // suffix[i]: the most receivers i.. can take together.
    let mut suffix = vec![0i64; receivers.len() + 1];
    for (i, (_, cap)) in receivers.iter().enumerate().rev() {
        suffix[i] = suffix[i + 1].saturating_add((*cap).max(0));
    }
    if moves < 0 || moves > suffix[0] {
        return;
    }
    // With `left ≤ suffix[i]` (kept by choosing at least `left - suffix[i + 1]`), every range is
    // non-empty and every full assignment places exactly `moves`.
    let lowest = |i: usize, left: i64| (left - suffix[i + 1]).max(0);
    let highest = |i: usize, left: i64| left.min(receivers[i].1);
    let mut chosen: Vec<i64> = Vec::with_capacity(receivers.len());
    let mut left = moves;
    loop {
        while chosen.len() < receivers.len() {
            let here = lowest(chosen.len(), left);
            chosen.push(here);
            left -= here;
        }
        if results.len() >= ALTERNATIVES_LIMIT {
            return;
        }
        results.insert(with_moves(counts, receivers, &chosen));
        loop {
            let Some(here) = chosen.pop() else { return };
            left += here;
            if here < highest(chosen.len(), left) {
                chosen.push(here + 1);
                left -= here + 1;
                break;
            }
        }
    }
}

/// `counts` plus `chosen[i]` endpoints for receiver `i` (no key for a zone receiving nothing).
fn with_moves(counts: &ZoneCounts, receivers: &[(&String, i64)], chosen: &[i64]) -> ZoneCounts {
    let mut out = counts.clone();
    for ((zone, _), &here) in receivers.iter().zip(chosen) {
        if here > 0 {
            *out.entry((*zone).clone()).or_insert(0) += here;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zones(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("z{i:06}")).collect()
    }

    #[test]
    fn every_split_within_the_caps_is_recorded() {
        let names = zones(3);
        let receivers = [(&names[0], 2), (&names[1], 1), (&names[2], 0)];
        let mut results = BTreeSet::new();
        distribute(&receivers, 2, &ZoneCounts::from([(names[2].clone(), 5)]), &mut results);
        let expected: BTreeSet<ZoneCounts> = [
            ZoneCounts::from([(names[0].clone(), 2), (names[2].clone(), 5)]),
            ZoneCounts::from([(names[0].clone(), 1), (names[1].clone(), 1), (names[2].clone(), 5)]),
        ]
        .into();
        assert_eq!(results, expected);
        let mut none = BTreeSet::new();
        distribute(&receivers, 4, &ZoneCounts::new(), &mut none);
        assert!(none.is_empty(), "4 moves cannot fit caps 2+1+0: {none:?}");
    }

    #[test]
    fn a_hundred_thousand_receiving_zones_do_not_overflow_the_stack() {
        // The recursive version used one stack frame per receiving zone.
        let names = zones(100_000);
        let receivers: Vec<(&String, i64)> = names.iter().map(|z| (z, 1)).collect();
        let mut results = BTreeSet::new();
        distribute(&receivers, 100_000, &ZoneCounts::new(), &mut results);
        assert_eq!(results.len(), 1);
        assert!(results.iter().all(|r| r.len() == 100_000 && r.values().all(|&n| n == 1)));
        let mut many = BTreeSet::new();
        distribute(&receivers[..2_000], 1, &ZoneCounts::new(), &mut many);
        assert_eq!(many.len(), ALTERNATIVES_LIMIT, "bounded");
    }
}
