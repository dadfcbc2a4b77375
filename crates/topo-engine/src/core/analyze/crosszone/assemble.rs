//! Assembling the report of one family's cross-zone computation from its three routings (now,
//! after the next sync, without hints): shares per origin zone, per destination zone, per endpoint.

use std::collections::BTreeMap;

use super::{Routed, TrafficModel};
use crate::report::{CrossZone, CrossZoneRow, EndpointLoad, Outcomes, Share, TrafficSource, ZoneFlow};

/// Where the requests of `origin` go, per destination zone, as fractions of its requests.
fn destinations(r: &[Routed; 3], origin: &str) -> Vec<ZoneFlow> {
    let fraction = |routed: &Routed, dest: &str| {
        let total = routed.zones.get(origin).map_or(0.0, |v| v.0);
        let sent = routed.flows.get(origin).and_then(|to| to.get(dest)).copied().unwrap_or(0.0);
        if total > 0.0 { sent / total } else { 0.0 }
    };
    let mut dests: Vec<&String> =
        r.iter().filter_map(|x| x.flows.get(origin)).flat_map(|to| to.keys()).collect();
    dests.sort();
    dests.dedup();
    dests
        .into_iter()
        .map(|dest| ZoneFlow {
            zone: dest.clone(),
            share: Outcomes {
                now: fraction(&r[0], dest),
                expected: fraction(&r[1], dest),
                without_hints: fraction(&r[2], dest),
            },
        })
        .collect()
}

/// Per endpoint that receives requests in some state, its load relative to an even share: 1/n over
/// the endpoints kube-proxy uses without hints.
fn endpoint_loads(zone_of: &BTreeMap<String, String>, r: &[Routed; 3]) -> Vec<EndpointLoad> {
    let n = r[2].loads.len() as f64;
    // Each address's zone looked up once, not at every comparison.
    let mut keyed: Vec<(Option<&String>, &String)> =
        r.iter().flat_map(|x| x.loads.keys()).map(|a| (zone_of.get(a), a)).collect();
    keyed.sort_unstable();
    keyed.dedup();
    let addresses = keyed.into_iter().map(|(_, a)| a);
    let load = |i: usize, a: &String| r[i].loads.get(a).copied().unwrap_or(0.0) * n;
    addresses
        .map(|a| EndpointLoad {
            address: a.clone(),
            zone: zone_of.get(a).cloned().unwrap_or_default(),
            load: Outcomes { now: load(0, a), expected: load(1, a), without_hints: load(2, a) },
        })
        .collect()
}

/// The share of `zone`'s requests (all zones': `None`) that leave their zone or are dropped.
fn share(routed: &Routed, zone: Option<&str>) -> Share {
    let (t, c, d) = match zone {
        // One zone: its own row, as the fold over that single row gives (0.0 + v).
        Some(want) => routed.zones.get(want).map_or((0.0, 0.0, 0.0), |v| (0.0 + v.0, 0.0 + v.1, 0.0 + v.2)),
        None => routed.zones.values().fold((0.0, 0.0, 0.0), |acc, v| (acc.0 + v.0, acc.1 + v.1, acc.2 + v.2)),
    };
    if t > 0.0 { Share { cross_zone: c / t, dropped: d / t } } else { Share::default() }
}

fn traffic_source(model: &TrafficModel) -> TrafficSource {
    match model {
        TrafficModel::ZoneCpu => TrafficSource::ZoneCpu,
        TrafficModel::Given(_) => TrafficSource::Given,
    }
}

/// What `check` shows of the share: overall, now and after the next sync (the same figures as
/// [`assemble`] gives); no rows, endpoints or share without hints.
pub(super) fn overall_only(model: &TrafficModel, now: &Routed, expected: &Routed) -> CrossZone {
    CrossZone {
        traffic_source: traffic_source(model),
        zones: Vec::new(),
        overall: Outcomes {
            now: share(now, None),
            expected: share(expected, None),
            without_hints: Share::default(),
        },
        max_load: Outcomes { now: None, expected: None, without_hints: None },
        endpoints: Vec::new(),
    }
}

pub(super) fn assemble(
    model: &TrafficModel,
    zone_of: &BTreeMap<String, String>,
    r: [Routed; 3],
) -> CrossZone {
    let outcomes = |zone: Option<&str>| Outcomes {
        now: share(&r[0], zone),
        expected: share(&r[1], zone),
        without_hints: share(&r[2], zone),
    };
    let zones = r[0]
        .zones
        .iter()
        .map(|(zone, v)| CrossZoneRow {
            zone: zone.clone(),
            traffic_share: v.0,
            share: outcomes(Some(zone)),
            destinations: destinations(&r, zone),
        })
        .collect();
    let endpoints = endpoint_loads(zone_of, &r);
    let max = |f: fn(&Outcomes<f64>) -> f64| endpoints.iter().map(|e| f(&e.load)).reduce(f64::max);
    CrossZone {
        traffic_source: traffic_source(model),
        zones,
        overall: outcomes(None),
        max_load: Outcomes {
            now: max(|o| o.now),
            expected: max(|o| o.expected),
            without_hints: max(|o| o.without_hints),
        },
        endpoints,
    }
}
