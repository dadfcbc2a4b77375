//! Per-zone and per-endpoint rows of a family report.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::core::topologycache::Allocation;
use crate::core::zones::NodeTopology;
use crate::model::{Endpoint, EndpointSlice, Hints};
use crate::report::{EndpointRow, EndpointStatus, ZoneRow};

/// True when any endpoint of the slice carries a `hints` object (the removal test of `RemoveHintsFromSlices`).
pub(crate) fn has_hints(slice: &EndpointSlice) -> bool {
    slice.endpoints.iter().any(|e| e.hints.is_some())
}

fn ready_endpoints(slices: &[EndpointSlice]) -> impl Iterator<Item = &Endpoint> {
    slices.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready())
}

/// Per-zone count of `forZones` entries over ready endpoints (how the controller counts hints).
pub fn hinted_counts(slices: &[EndpointSlice]) -> BTreeMap<String, i64> {
    let mut counts = BTreeMap::new();
    for e in ready_endpoints(slices) {
        for z in e.hints.as_ref().and_then(|h| h.for_zones.as_ref()).into_iter().flatten() {
            super::spread::add_one(&mut counts, z);
        }
    }
    counts
}

/// Per-zone count of ready endpoints by their own zone.
pub(crate) fn own_zone_counts(slices: &[EndpointSlice]) -> BTreeMap<String, i64> {
    let mut counts = BTreeMap::new();
    for e in ready_endpoints(slices) {
        if let Some(z) = e.zone.as_ref().filter(|z| !z.is_empty()) {
            super::spread::add_one(&mut counts, z);
        }
    }
    counts
}

/// Expected overload per zone in percent: traffic from zone z is ∝ its CPU share and served by `k`
/// endpoints; relative to an even 1/n share that is `share · n / k − 1`. None when `k` is 0.
pub(crate) fn overload_percent(share: f64, n: i64, k: i64) -> Option<f64> {
    (k > 0 && n > 0).then(|| (share * n as f64 / k as f64 - 1.0) * 100.0)
}

/// Zone rows: every zone with counted CPU, with endpoints, or named by a hint.
pub(crate) fn zone_rows(
    topology: &NodeTopology,
    ratios: Option<&BTreeMap<String, f64>>,
    live: &[EndpointSlice],
    expected: &[EndpointSlice],
    allocations: Option<&BTreeMap<String, Allocation>>,
) -> Vec<ZoneRow> {
    let (own, actual, wanted) = (own_zone_counts(live), hinted_counts(live), hinted_counts(expected));
    let n: i64 = own.values().sum::<i64>()
        + ready_endpoints(live).filter(|e| e.zone.as_deref().is_none_or(str::is_empty)).count() as i64;
    let hints_expected = !wanted.is_empty();
    let zones: BTreeSet<&String> = topology
        .counted_zones()
        .map(|(name, _)| name)
        .chain(own.keys())
        .chain(actual.keys())
        .chain(wanted.keys())
        .collect();
    zones
        .into_iter()
        .map(|zone| {
            let share = ratios.and_then(|r| r.get(zone)).copied();
            let alloc = allocations.and_then(|a| a.get(zone));
            let ready = own.get(zone).copied().unwrap_or(0);
            let expected_hinted = wanted.get(zone).copied().unwrap_or(0);
            let k = if hints_expected { expected_hinted } else { ready };
            ZoneRow {
                zone: zone.clone(),
                cpu_millis: topology.zones.get(zone).map(|z| z.cpu_millis),
                cpu_share: share,
                ready_endpoints: ready,
                desired: alloc.map(|a| a.desired),
                minimum: alloc.map(|a| a.minimum),
                maximum: alloc.map(|a| a.maximum),
                expected_hinted,
                actual_hinted: actual.get(zone).copied().unwrap_or(0),
                expected_overload_percent: share.and_then(|s| overload_percent(s, n, k)),
            }
        })
        .collect()
}

/// The model's shared names as the report's own strings.
fn owned(names: &[Arc<str>]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn zones_of(h: Option<&Hints>) -> Option<Vec<String>> {
    h.and_then(|h| h.for_zones.as_deref()).map(owned)
}

fn nodes_of(h: Option<&Hints>) -> Option<Vec<String>> {
    h.and_then(|h| h.for_nodes.as_deref()).map(owned)
}

/// Endpoint rows of the managed slices: live hints next to the hints after the next sync.
pub(crate) fn endpoint_rows(live: &[EndpointSlice], expected: &[EndpointSlice]) -> Vec<EndpointRow> {
    let mut rows = Vec::new();
    for (slice, out) in live.iter().zip(expected) {
        for (i, e) in slice.endpoints.iter().enumerate() {
            let want = out.endpoints.get(i).and_then(|x| x.hints.as_ref());
            let have = e.hints.as_ref();
            let status = match (have, want) {
                (a, b) if a == b => {
                    if e.controller_ready() {
                        EndpointStatus::Ok
                    } else {
                        EndpointStatus::NotReady
                    }
                }
                (None, Some(_)) => EndpointStatus::Missing,
                (Some(_), None) => EndpointStatus::Unexpected,
                _ => EndpointStatus::Different,
            };
            rows.push(EndpointRow {
                slice: slice.name.clone(),
                addresses: e.addresses.clone().into(),
                zone: e.zone.as_deref().map(str::to_string),
                node: e.node_name.as_deref().map(str::to_string),
                ready: e.controller_ready(),
                actual_zones: zones_of(have),
                expected_zones: zones_of(want),
                actual_nodes: nodes_of(have),
                expected_nodes: nodes_of(want),
                status,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overload_of_the_docs_examples() {
        // W2: 3 equal zones, 4 endpoints 2/1/1 → a one-endpoint zone gets 1/3 instead of 1/4: 33 %.
        let p = overload_percent(1.0 / 3.0, 4, 1).unwrap();
        assert!((p - 33.333).abs() < 0.01, "{p}");
        // W4: zone a twice zone b, 1+1 endpoints → zone a's endpoint gets 2/3 vs 1/2: 33 %.
        assert!((overload_percent(2.0 / 3.0, 2, 1).unwrap() - 33.333).abs() < 0.01);
        assert_eq!(overload_percent(0.5, 4, 0), None);
    }
}
