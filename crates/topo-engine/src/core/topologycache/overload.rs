//! Overload recheck after node changes (`serviceOverloaded`, `topologycache/utils.go`, used by
//! `GetOverloadedServices`, docs/behaviour.md#overload-recheck-and-requeue).

use std::collections::BTreeMap;

use super::{ZoneCounts, overload_factor};
use crate::core::zones::Ratios;

// mirrors utils.go: serviceOverloaded
/// True when cached counts `counts` are overloaded for `ratios`: counts non-empty and (no ratios,
/// or a ratio zone missing from `counts`, or some `counts[z] < ceil((Σcounts * ratio[z]) * K)`).
pub fn service_overloaded(counts: &ZoneCounts, ratios: &Ratios) -> bool {
    if counts.is_empty() {
        return false;
    }
    let Some(ratios) = ratios.as_map().filter(|map| !map.is_empty()) else {
        return true;
    };
    let required = required_endpoints_by_zone(counts, ratios);
    ratios.keys().any(|zone| match counts.get(zone) {
        None => true,
        Some(&have) => have < required[zone],
    })
}

/// Per ratio zone, the fewest cached endpoints that are not overloaded:
/// `int(math.Ceil(totalEndpoints * ratio * (1 / (1 + overloadThreshold))))`, evaluated left to right.
pub fn required_endpoints_by_zone(counts: &ZoneCounts, ratios: &BTreeMap<String, f64>) -> ZoneCounts {
    // Go sums float64(count) in map order; integer-valued sums are exact below 2^53, so order is moot.
    let total = counts.values().fold(0.0, |sum, &n| sum + n as f64);
    ratios
        .iter()
        .map(|(zone, ratio)| (zone.clone(), (total * ratio * overload_factor()).ceil() as i64))
        .collect()
}
