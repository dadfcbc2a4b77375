//! "Replicas needed" (Auto mode): for which ready-endpoint counts the controller writes hints
//! after a fresh sync, with today's zone weights and the Service's pods spread as today.
//!
//! A count `n` works iff `getAllocations` succeeds for `n` (bit-exact, docs/behaviour.md#floating-point) **and** the
//! endpoints, spread by [`super::spread::spread`], include none without a zone (Step C would abort
//! with "One or more endpoints do not have a zone specified"). Nothing else can stop a fresh sync:
//! Step F's "No hints allocated" needs zero zoned ready endpoints, impossible once `n ≥ 2` zones'
//! worth passed Step A (docs/behaviour.md#step-f-finish). The property test in `tests/replicas_property.rs` checks
//! this against the real engine for every count in [1, 100].

use std::collections::BTreeMap;

use super::spread::{ZoneSpread, ready_spread, spread};
use crate::core::topologycache::overload_factor;
use crate::core::zones::{NodeTopology, Ratios};
use crate::model::EndpointSlice;
use crate::report::{CountRange, ReplicasNeeded, SpreadBasis};

/// Counts examined for the list of working counts.
pub const COUNT_LIMIT: i64 = 100;

/// How far above the current count [`ReplicasNeeded::nearest`] is searched.
const NEAREST_SEARCH: i64 = 1000;

/// Today's spread: ready endpoints per zone (`""` = no zone) of the managed slices; when there are
/// none, the zones' CPU (counted nodes), i.e. where the controller wants endpoints.
pub fn spread_weights(
    managed: &[EndpointSlice],
    topology: &NodeTopology,
) -> (BTreeMap<String, i64>, SpreadBasis) {
    let weights = ready_spread(managed);
    if !weights.is_empty() {
        return (weights, SpreadBasis::AsToday);
    }
    let cpu = topology.zone_cpu().map(|(zone, millis)| (zone.clone(), millis)).collect();
    (cpu, SpreadBasis::ZoneCpu)
}

/// True when a fresh sync with `n` ready endpoints spread by `weights` writes hints.
///
/// `replicas_needed` asks this for up to 1,100 counts per Auto family, so it builds nothing: the
/// safeguards of `getAllocations` are checked with its own arithmetic ([`allocations_hold`]), and
/// the spread is built only when it can place an endpoint without a zone ([`spread_holds`]).
pub fn hints_hold(ratios: &Ratios, weights: &BTreeMap<String, i64>, n: i64) -> bool {
    allocations_hold(ratios, n) && spread_holds(weights, n)
}

/// `get_allocations(ratios, n).is_ok()` without building the allocations: the same checks in the
/// same order, each minimum `ceil(ratio · n · K)` computed with the same f64 operations.
fn allocations_hold(ratios: &Ratios, n: i64) -> bool {
    let Some(map) = ratios.as_map() else { return false };
    let zones = map.len() as i64;
    if zones < 2 || zones > n {
        return false;
    }
    let minimum = |ratio: f64| ((ratio * n as f64) * overload_factor()).ceil() as i64;
    map.values().map(|&ratio| minimum(ratio)).sum::<i64>() <= n
}

/// `spread(weights, n)` places `n` endpoints, none of them without a zone. Without a zone-less
/// group of positive weight that is true whenever the total weight and `n` are positive: the
/// largest-remainder rule gives `floor(n·w/W)` per zone and the `n - Σ floor(·) < |zones|` seats
/// left one each to zones of positive weight, `n` in all. Otherwise the spread is built.
fn spread_holds(weights: &BTreeMap<String, i64>, n: i64) -> bool {
    let total: i128 = weights.values().map(|w| i128::from((*w).max(0))).sum();
    if total == 0 || n <= 0 {
        // `spread` places nothing.
        return n == 0;
    }
    if weights.get("").is_none_or(|w| *w <= 0) {
        return true;
    }
    let placed = spread(weights, n);
    placed.values().sum::<i64>() == n && placed.get("").copied().unwrap_or(0) == 0
}

/// Per ratio zone, the fewest endpoints that keep it within the 20 % threshold at `n` endpoints:
/// `ceil(ratio · n · K)`, as `getAllocations` computes it (even when Step A would abort).
pub fn minimum_by_zone(ratios: &Ratios, n: i64) -> BTreeMap<String, i64> {
    let Some(map) = ratios.as_map() else { return BTreeMap::new() };
    map.iter()
        .map(|(zone, ratio)| (zone.clone(), ((ratio * n as f64) * overload_factor()).ceil() as i64))
        .collect()
}

/// The replicas-needed answer for a family with `current` ready endpoints.
pub fn replicas_needed(
    ratios: &Ratios,
    weights: &BTreeMap<String, i64>,
    basis: SpreadBasis,
    current: i64,
) -> ReplicasNeeded {
    let working = ranges((1..=COUNT_LIMIT).filter(|&n| hints_hold(ratios, weights, n)));
    let start = current.max(1);
    let nearest = (start..=start + NEAREST_SEARCH).find(|&n| hints_hold(ratios, weights, n));
    let zoned_only = weights.get("").copied().unwrap_or(0) == 0;
    // Σ ceil(r·n·K) < n·K + |Z| ≤ n once n ≥ 6·|Z|: every count above the limit works too.
    let beyond_limit = zoned_only
        && 6 * (ratios.len() as i64) < COUNT_LIMIT
        && working.last().is_some_and(|r| r.to == COUNT_LIMIT);
    let at = |n: Option<i64>| n.map(|n| (spread(weights, n), minimum_by_zone(ratios, n)));
    let (spread_at_nearest, minimum_at_nearest) = at(nearest).unwrap_or_default();
    ReplicasNeeded {
        ready_endpoints: current,
        nearest,
        working,
        beyond_limit,
        minimum_by_zone: if current > 0 { minimum_by_zone(ratios, current) } else { BTreeMap::new() },
        spread_basis: basis,
        spread_at_nearest: positive(spread_at_nearest),
        minimum_at_nearest,
    }
}

fn positive(spread: ZoneSpread) -> ZoneSpread {
    spread.into_iter().filter(|(_, n)| *n > 0).collect()
}

/// Consecutive counts folded into inclusive ranges.
pub fn ranges(counts: impl Iterator<Item = i64>) -> Vec<CountRange> {
    let mut out: Vec<CountRange> = Vec::new();
    for n in counts {
        match out.last_mut() {
            Some(last) if last.to + 1 == n => last.to = n,
            _ => out.push(CountRange { from: n, to: n }),
        }
    }
    out
}
