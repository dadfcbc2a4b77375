//! The before → after summary of `simulate`: verdicts, reasons, per-zone counts and kube-proxy,
//! taken from the two `explain` reports.

use std::collections::BTreeSet;

use crate::report::whatif::{BeforeAfter, FamilyDelta, ProxyBrief, ZoneDelta};
use crate::report::{FamilyReport, ServiceReport};

/// One delta per address family present before or after.
pub(crate) fn deltas(before: &ServiceReport, after: &ServiceReport) -> Vec<FamilyDelta> {
    let mut families: Vec<&str> = before.families.iter().map(|f| f.address_type.as_str()).collect();
    for f in &after.families {
        if !families.contains(&f.address_type.as_str()) {
            families.push(&f.address_type);
        }
    }
    families
        .into_iter()
        .map(|t| {
            let find = |r: &'_ ServiceReport| r.families.iter().find(|f| f.address_type == t).cloned();
            family_delta(t, find(before).as_ref(), find(after).as_ref())
        })
        .collect()
}

fn family_delta(
    address_type: &str,
    before: Option<&FamilyReport>,
    after: Option<&FamilyReport>,
) -> FamilyDelta {
    let codes =
        |f: Option<&FamilyReport>| f.map(|f| f.reasons.iter().map(|r| r.code).collect()).unwrap_or_default();
    let cross =
        |f: Option<&FamilyReport>| f.and_then(|f| f.cross_zone.as_ref()).map(|c| c.overall.now.cross_zone);
    let mut zones: BTreeSet<&str> = BTreeSet::new();
    for f in before.iter().chain(after.iter()) {
        zones.extend(f.zones.iter().map(|z| z.zone.as_str()));
        zones.extend(f.proxy.iter().map(|p| p.zone.as_str()));
    }
    FamilyDelta {
        address_type: address_type.to_string(),
        verdict: BeforeAfter { before: before.map(|f| f.verdict), after: after.map(|f| f.verdict) },
        reasons: BeforeAfter { before: codes(before), after: codes(after) },
        zones: zones.into_iter().map(|z| zone_delta(z, before, after)).collect(),
        cross_zone: BeforeAfter { before: cross(before), after: cross(after) },
    }
}

fn zone_delta(zone: &str, before: Option<&FamilyReport>, after: Option<&FamilyReport>) -> ZoneDelta {
    fn row<'a>(f: Option<&'a FamilyReport>, zone: &str) -> Option<&'a crate::report::ZoneRow> {
        f.and_then(|f| f.zones.iter().find(|z| z.zone == zone))
    }
    let proxy = |f: Option<&FamilyReport>| -> Vec<ProxyBrief> {
        f.map(|f| {
            f.proxy
                .iter()
                .filter(|p| p.zone == zone)
                .map(|p| ProxyBrief { mode: p.mode, endpoints: p.endpoints.len() })
                .collect()
        })
        .unwrap_or_default()
    };
    let (b, a) = (row(before, zone), row(after, zone));
    ZoneDelta {
        zone: zone.to_string(),
        cpu_share: BeforeAfter { before: b.and_then(|z| z.cpu_share), after: a.and_then(|z| z.cpu_share) },
        ready: BeforeAfter {
            before: b.map_or(0, |z| z.ready_endpoints),
            after: a.map_or(0, |z| z.ready_endpoints),
        },
        hinted: BeforeAfter {
            before: b.map_or(0, |z| z.actual_hinted),
            after: a.map_or(0, |z| z.actual_hinted),
        },
        proxy: BeforeAfter { before: proxy(before), after: proxy(after) },
    }
}
