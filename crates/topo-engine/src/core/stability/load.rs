//! Load under a trafficDistribution heuristic (`PreferSameZone`, `PreferSameNode`, `PreferClose`;
//! docs/stability.md#load-without-a-safeguard). Upstream's `trafficdist.ReconcileHints` writes a
//! zone (or node) hint on every ready endpoint with no overload check, unlike the Auto path's 20 %
//! threshold, so kube-proxy keeps each zone's (node's) requests on its own endpoints however few
//! they are. From the cross-zone routing (`core::analyze::crosszone`: requests per node from zone
//! CPU or `--traffic`, routed by kube-proxy's view after the next sync), the endpoints above
//! [`LOAD_FACTOR`] times an even share and the ready endpoints that receive nothing.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::EndpointSlice;
use crate::report::CrossZone;
use crate::report::stability::load::{LOAD_FACTOR, LoadCheck, LoadedEndpoint};

/// The load check of one family: `cross` its routing (with per-endpoint loads: `explain`'s detail),
/// `managed` the controller's slices (their ready endpoints are the ones that should get requests).
pub fn load_check(cross: &CrossZone, managed: &[EndpointSlice]) -> LoadCheck {
    let expected: BTreeMap<&str, f64> =
        cross.endpoints.iter().map(|e| (e.address.as_str(), e.load.expected)).collect();
    let mut overloaded: Vec<LoadedEndpoint> = (cross.endpoints.iter())
        .filter(|e| e.load.expected > LOAD_FACTOR)
        .map(|e| LoadedEndpoint { address: e.address.clone(), zone: e.zone.clone(), load: e.load.expected })
        .collect();
    overloaded.sort_by(|a, b| b.load.total_cmp(&a.load).then_with(|| a.address.cmp(&b.address)));
    let mut ready = 0i64;
    let mut idle: BTreeSet<(String, String)> = BTreeSet::new();
    for endpoint in managed.iter().flat_map(|s| s.endpoints.iter()).filter(|e| e.controller_ready()) {
        ready += 1;
        let Some(address) = endpoint.addresses.first() else { continue };
        if expected.get(address.as_str()).is_none_or(|load| *load <= 0.0) {
            let zone = endpoint.zone.as_deref().unwrap_or_default().to_string();
            idle.insert((zone, address.clone()));
        }
    }
    LoadCheck {
        factor: LOAD_FACTOR,
        traffic_source: cross.traffic_source,
        ready_endpoints: ready,
        max_load: cross.max_load.expected,
        overloaded,
        idle: idle.into_iter().map(|(zone, address)| LoadedEndpoint { address, zone, load: 0.0 }).collect(),
    }
}
