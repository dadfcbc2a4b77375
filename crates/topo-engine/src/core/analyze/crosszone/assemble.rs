//! Assembling the report of one family's cross-zone computation from its three routings (now,
//! after the next sync, without hints): shares per origin zone, per destination zone, per endpoint.

use super::TrafficModel;
use super::route::{Dests, Routed};
use crate::report::{CrossZone, CrossZoneRow, EndpointLoad, Outcomes, Share, TrafficSource, ZoneFlow};

/// Where the requests of origin zone `origin` go, per destination zone, as fractions of its
/// requests: every destination some state sends to, sorted.
fn destinations(r: &[&Routed; 3], origin: usize, zones: &[&str]) -> Vec<ZoneFlow> {
    let rows = r.each_ref().map(|x| x.flows.get(origin).map_or(&[][..], Vec::as_slice));
    let mut dests: Vec<usize> = rows.iter().flat_map(|row| row.iter().map(|d| d.0)).collect();
    dests.sort_unstable();
    dests.dedup();
    let fraction = |i: usize, dest: usize| {
        let total = r[i].zones.get(origin).map_or(0.0, |v| v.0);
        let at = rows[i].binary_search_by_key(&dest, |d| d.0);
        let sent = at.map_or(0.0, |k| rows[i][k].1);
        if total > 0.0 { sent / total } else { 0.0 }
    };
    dests
        .into_iter()
        .map(|dest| ZoneFlow {
            zone: zones[dest].to_string(),
            share: Outcomes {
                now: fraction(0, dest),
                expected: fraction(1, dest),
                without_hints: fraction(2, dest),
            },
        })
        .collect()
}

/// Per endpoint that receives requests in some state, its load relative to an even share: 1/n over
/// the endpoints kube-proxy uses without hints.
fn endpoint_loads(dests: &Dests<'_>, r: &[&Routed; 3]) -> Vec<EndpointLoad> {
    let n = r[2].loads.len() as f64;
    // Each address's zone looked up once, not at every comparison.
    let mut keyed: Vec<(Option<&str>, &String)> =
        r.iter().flat_map(|x| x.loads.keys()).map(|a| (dests.zone_of(a), a)).collect();
    keyed.sort_unstable();
    keyed.dedup();
    let load = |i: usize, a: &String| r[i].loads.get(a).copied().unwrap_or(0.0) * n;
    keyed
        .into_iter()
        .map(|(zone, a)| EndpointLoad {
            address: a.clone(),
            zone: zone.unwrap_or_default().to_string(),
            load: Outcomes { now: load(0, a), expected: load(1, a), without_hints: load(2, a) },
        })
        .collect()
}

/// The share of origin zone `zone`'s requests (all zones': `None`) that leave their zone or are dropped.
fn share(routed: &Routed, zone: Option<usize>) -> Share {
    let (t, c, d) = match zone {
        // One zone: its own row, as the fold over that single row gives (0.0 + v).
        Some(want) => routed.zones.get(want).map_or((0.0, 0.0, 0.0), |v| (0.0 + v.0, 0.0 + v.1, 0.0 + v.2)),
        None => routed.zones.iter().fold((0.0, 0.0, 0.0), |acc, v| (acc.0 + v.0, acc.1 + v.1, acc.2 + v.2)),
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
/// [`assemble`] gives); no rows or endpoints, and the share without hints only when `bare` (the
/// routing without hints) is given (`serve`).
pub(super) fn overall_only(
    model: &TrafficModel,
    now: &Routed,
    expected: &Routed,
    bare: Option<&Routed>,
) -> CrossZone {
    CrossZone {
        traffic_source: traffic_source(model),
        zones: Vec::new(),
        overall: Outcomes {
            now: share(now, None),
            expected: share(expected, None),
            without_hints: bare.map_or_else(Share::default, |bare| share(bare, None)),
        },
        max_load: Outcomes { now: None, expected: None, without_hints: None },
        endpoints: Vec::new(),
    }
}

/// The whole share: per origin zone (`origins`, sorted; [`Routed::zones`] in that order), per
/// destination zone and per endpoint.
pub(super) fn assemble(
    model: &TrafficModel,
    origins: &[String],
    dests: &Dests<'_>,
    r: [&Routed; 3],
) -> CrossZone {
    let outcomes = |zone: Option<usize>| Outcomes {
        now: share(r[0], zone),
        expected: share(r[1], zone),
        without_hints: share(r[2], zone),
    };
    let zones = (r[0].zones.iter().zip(origins).enumerate())
        .map(|(i, (v, zone))| CrossZoneRow {
            zone: zone.clone(),
            traffic_share: v.0,
            share: outcomes(Some(i)),
            destinations: destinations(&r, i, dests.zones()),
        })
        .collect();
    let endpoints = endpoint_loads(dests, &r);
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
