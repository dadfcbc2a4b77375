//! The stability certificate: for every replica count of a scaling range and every per-zone
//! placement a zone `topologySpreadConstraint` allows, whether the controller's next fresh sync
//! writes hints (`getAllocations` and `AddHints`' zone check, via [`CpuState::holds`]); summarised
//! as ranges and exceptions (docs/stability.md#certificate).
//!
//! Placements modelled (kube-scheduler `PodTopologySpread`, `topologyKey` = the zone label, pods
//! added one at a time — a scale-up from zero):
//! * `DoNotSchedule`: a pod may go to zone `z` iff `count[z] + 1 − globalMin ≤ maxSkew`, where
//!   `globalMin` is the smallest count over the eligible zones, or 0 when there are fewer eligible
//!   zones than `minDomains`. The placements reachable so are exactly those with `max − min ≤
//!   maxSkew` (or every zone `≤ maxSkew` under `minDomains`); a count with none is unschedulable.
//! * `ScheduleAnyway`, or no constraint: the scheduler only scores, so any placement over the
//!   eligible zones may happen.
//!
//! Not modelled: node affinity and taints beyond "the eligible zones" the caller gives, the
//! `nodeAffinityPolicy`/`nodeTaintsPolicy` fields, `matchLabelKeys`, and scale-in (the ReplicaSet
//! deletes pods without regard to the spread, k/k #124149: any placement may remain).

use std::collections::BTreeMap;

use super::CpuState;
use crate::report::CountRange;
use crate::report::stability::{Certificate, CountException, FAILING_KEPT, PLACEMENT_LIMIT, SpreadRule};

/// The input of a certificate: a replica range, an optional zone spread, the eligible zones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scaling {
    /// Fewest replicas (≥ 0).
    pub min: i64,
    /// Most replicas (≥ `min`).
    pub max: i64,
    /// A zone `topologySpreadConstraint`, if the workload has one.
    pub spread: Option<SpreadRule>,
    /// Zones with schedulable Nodes for the workload.
    pub zones: Vec<String>,
}

/// What one count's placements gave.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    allowed: u64,
    failing: u64,
    examples: Vec<BTreeMap<String, i64>>,
}

/// The certificate of `input` on today's zone CPU `state`.
pub fn certificate(input: &Scaling, state: &CpuState) -> Certificate {
    certificate_with(input, state, 0)
}

/// [`certificate`] with `others` more ready, zoned endpoints behind the Service at every count
/// (other workloads' Pods, held as they are): count `n` is evaluated at `n + others` endpoints.
pub fn certificate_with(input: &Scaling, state: &CpuState, others: i64) -> Certificate {
    let (mut holds, mut unschedulable, mut exceptions) = (Vec::new(), Vec::new(), Vec::new());
    let (mut examined, mut truncated, mut examined_to) = (0u64, false, input.min - 1);
    for n in input.min.max(0)..=input.max {
        // Step A reads only the number of ready endpoints: once per count, not per placement.
        let count_holds = state.holds(n + others, 0);
        let Some(tally) = tally(input, count_holds, n, PLACEMENT_LIMIT - examined) else {
            truncated = true;
            break;
        };
        examined += tally.allowed;
        examined_to = n;
        match (tally.allowed, tally.failing) {
            (0, _) => unschedulable.push(n),
            (_, 0) => holds.push(n),
            (allowed, failing) => exceptions.push(CountException {
                count: n,
                any_placement: failing == allowed,
                allowed,
                failing,
                examples: if failing == allowed { Vec::new() } else { tally.examples },
            }),
        }
    }
    Certificate {
        min: input.min,
        max: input.max,
        spread: input.spread,
        zones: input.zones.clone(),
        holds: ranges(holds.into_iter()),
        exceptions,
        unschedulable: ranges(unschedulable.into_iter()),
        placements_examined: examined,
        truncated,
        examined_to,
    }
}

/// Every allowed placement of `n` pods, evaluated (`holds`: the verdict at this count, the same in
/// every placement whose endpoints all have a zone); None when more than `budget` would be needed.
fn tally(input: &Scaling, holds: bool, n: i64, budget: u64) -> Option<Tally> {
    match input.spread.is_some_and(|r| r.hard) {
        true => tally_visiting(input, holds, n, budget),
        false => tally_anywhere(input, holds, n, budget),
    }
}

/// [`tally`] by visiting every placement.
fn tally_visiting(input: &Scaling, holds: bool, n: i64, budget: u64) -> Option<Tally> {
    let zones = input.zones.len() as i64;
    let (lo, hi) = part_bounds(input.spread, zones, n);
    let mut out = Tally::default();
    let mut parts = vec![0i64; input.zones.len()];
    let ok = each_placement(&mut parts, 0, n, lo, hi, &mut |parts: &[i64]| {
        if !allowed(input.spread, zones, parts) {
            return true;
        }
        out.allowed += 1;
        if !holds {
            out.failing += 1;
            if out.examples.len() < FAILING_KEPT {
                out.examples.push(input.zones.iter().cloned().zip(parts.iter().copied()).collect());
            }
        }
        out.allowed <= budget
    });
    ok.then_some(out)
}

/// [`tally`] when the scheduler may place pods anywhere (no hard spread): every placement is
/// allowed and the verdict is the count's, so the placements are counted, not visited — C(n + z −
/// 1, z − 1) of them over `z` zones — and only the first failing ones in [`each_placement`]'s order
/// are made. The same tally as visiting them all, at the cost of one.
fn tally_anywhere(input: &Scaling, holds: bool, n: i64, budget: u64) -> Option<Tally> {
    let allowed = placements_anywhere(input.zones.len(), n, budget)?;
    let mut out = Tally { allowed, ..Tally::default() };
    if !holds && allowed > 0 {
        out.failing = allowed;
        let mut parts = vec![0i64; input.zones.len()];
        each_placement(&mut parts, 0, n, 0, n, &mut |parts: &[i64]| {
            out.examples.push(input.zones.iter().cloned().zip(parts.iter().copied()).collect());
            out.examples.len() < FAILING_KEPT
        });
    }
    Some(out)
}

/// The placements of `n` pods over `zones` zones, C(n + zones − 1, zones − 1) (none without a
/// zone); None when more than `budget`.
fn placements_anywhere(zones: usize, n: i64, budget: u64) -> Option<u64> {
    if zones == 0 {
        return Some(0);
    }
    let n = u128::try_from(n).unwrap_or(0);
    // C(n + k, k) for k = zones − 1, built up as C(n + i, i) = C(n + i − 1, i − 1) · (n + i) / i
    // (exact at every step); past the budget it only grows.
    let mut count: u128 = 1;
    for i in 1..zones as u128 {
        count = count * (n + i) / i;
        if count > u128::from(budget) {
            return None;
        }
    }
    u64::try_from(count).ok().filter(|c| *c <= budget)
}

/// Bounds on every zone's count that no allowed placement leaves (they prune the enumeration).
fn part_bounds(spread: Option<SpreadRule>, zones: i64, n: i64) -> (i64, i64) {
    match spread {
        Some(rule) if rule.hard && zones < rule.min_domains.unwrap_or(1) => (0, rule.max_skew.min(n)),
        Some(rule) if rule.hard && zones > 0 => {
            ((n / zones - rule.max_skew).max(0), (n / zones + 1 + rule.max_skew).min(n))
        }
        _ => (0, n),
    }
}

/// The spread allows this final placement (module docs).
fn allowed(spread: Option<SpreadRule>, zones: i64, parts: &[i64]) -> bool {
    let Some(rule) = spread.filter(|r| r.hard) else { return true };
    let max = parts.iter().copied().max().unwrap_or(0);
    let min =
        if zones < rule.min_domains.unwrap_or(1) { 0 } else { parts.iter().copied().min().unwrap_or(0) };
    max - min <= rule.max_skew
}

/// Calls `visit` on every vector of `parts.len()` counts in `lo..=hi` summing to `left` (from
/// index `at`); stops and returns false as soon as `visit` does.
fn each_placement(
    parts: &mut [i64],
    at: usize,
    left: i64,
    lo: i64,
    hi: i64,
    visit: &mut dyn FnMut(&[i64]) -> bool,
) -> bool {
    if at + 1 == parts.len() {
        if left < lo || left > hi {
            return true;
        }
        parts[at] = left;
        return visit(parts);
    }
    if parts.is_empty() {
        return true;
    }
    let rest = (parts.len() - at - 1) as i64;
    for count in lo..=hi.min(left) {
        if left - count < lo * rest || left - count > hi * rest {
            continue;
        }
        parts[at] = count;
        if !each_placement(parts, at + 1, left - count, lo, hi, visit) {
            return false;
        }
    }
    true
}

/// Consecutive counts folded into inclusive ranges.
fn ranges(counts: impl Iterator<Item = i64>) -> Vec<CountRange> {
    let mut out: Vec<CountRange> = Vec::new();
    for n in counts {
        match out.last_mut() {
            Some(last) if last.to + 1 == n => last.to = n,
            _ => out.push(CountRange { from: n, to: n }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting the placements a soft or absent spread allows gives what visiting them gives, up to
    /// the budget and past it.
    #[test]
    fn counted_placements_are_the_visited_ones() {
        for zones in 0..5usize {
            let names: Vec<String> = (0..zones).map(|z| format!("z{z}")).collect();
            for spread in [None, Some(SpreadRule { max_skew: 1, min_domains: None, hard: false })] {
                let input = Scaling { min: 0, max: 0, spread, zones: names.clone() };
                for n in 0..14 {
                    for (holds, budget) in [(true, 10_000), (false, 10_000), (false, 30), (true, 0)] {
                        let visited = tally_visiting(&input, holds, n, budget);
                        assert_eq!(tally_anywhere(&input, holds, n, budget), visited, "{zones} zones, {n}");
                    }
                }
            }
        }
    }
}
