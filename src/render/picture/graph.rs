//! The routing graph of one address family, as every picture format draws it: the engine's
//! per-zone-pair routing facts (`CrossZoneRow.destinations`) reshaped, nothing recomputed.

use std::collections::HashMap;

use topo_engine::report::whatif::{CrossZone, Outcomes};
use topo_engine::report::{FamilyReport, ServiceReport};

/// One routed zone pair: requests of `from` reach endpoints of `to` now or after the next sync.
#[derive(Debug, Clone, PartialEq)]
pub struct Route<'a> {
    /// Origin zone (`""` = no zone).
    pub from: &'a str,
    /// Destination zone (`""` = endpoints without a zone).
    pub to: &'a str,
    /// Fraction (0–1) of all requests that originate in `from`.
    pub from_share: f64,
    /// Fraction (0–1) of `from`'s requests that reach `to`.
    pub share: Outcomes<f64>,
}

impl Route<'_> {
    /// Fraction of all requests on this route now / after the next sync.
    pub fn of_all(&self) -> (f64, f64) {
        (self.from_share * self.share.now, self.from_share * self.share.expected)
    }
}

/// The most zone pairs one picture of a family draws: a thousand zones without hints route a
/// million pairs, which no page or graph can show (issue 32). The widest are kept.
pub(crate) const MAX_ROUTES: usize = 2_000;

/// How many pairs some request takes now or after the next sync (what [`routes`] draws at most
/// [`MAX_ROUTES`] of).
pub fn routed(c: &CrossZone) -> usize {
    every_route(c).count()
}

/// The routed pairs (some request takes them now or after the next sync), by origin then
/// destination; beyond [`MAX_ROUTES`], the widest (by their largest share of all requests).
pub fn routes(c: &CrossZone) -> Vec<Route<'_>> {
    let all: Vec<Route<'_>> = every_route(c).collect();
    if all.len() <= MAX_ROUTES {
        return all;
    }
    let width = |r: &Route<'_>| r.of_all().0.max(r.of_all().1);
    let mut widest: Vec<usize> = (0..all.len()).collect();
    widest.sort_by(|&a, &b| width(&all[b]).total_cmp(&width(&all[a])).then(a.cmp(&b)));
    widest.truncate(MAX_ROUTES);
    widest.sort_unstable();
    widest.into_iter().map(|i| all[i].clone()).collect()
}

fn every_route(c: &CrossZone) -> impl Iterator<Item = Route<'_>> {
    c.zones
        .iter()
        .flat_map(|row| {
            row.destinations.iter().map(move |d| Route {
                from: row.zone.as_str(),
                to: d.zone.as_str(),
                from_share: row.traffic_share,
                share: d.share,
            })
        })
        .filter(|r| r.share.now > 0.0 || r.share.expected > 0.0)
}

/// The nodes of a routing graph: the origin zones with their share of all requests, in route
/// order, and the destination zones sorted, the empty zone (no zone label) last.
pub struct Nodes<'a> {
    /// Origin zones and their share of all requests.
    pub from: Vec<(&'a str, f64)>,
    /// Destination zones.
    pub to: Vec<&'a str>,
    /// Position of each zone in `from` and in `to` (the first, as a search would find).
    at: HashMap<&'a str, (Option<usize>, Option<usize>)>,
}

impl<'a> Nodes<'a> {
    /// The nodes the routes connect.
    pub fn of(routes: &[Route<'a>]) -> Self {
        let mut from: Vec<(&str, f64)> = routes.iter().map(|r| (r.from, r.from_share)).collect();
        from.dedup_by_key(|f| f.0);
        let mut to: Vec<&str> = routes.iter().map(|r| r.to).collect();
        to.sort_by_key(|z| (z.is_empty(), *z));
        to.dedup();
        let mut at: HashMap<&str, (Option<usize>, Option<usize>)> = HashMap::new();
        for (i, f) in from.iter().enumerate() {
            at.entry(f.0).or_default().0.get_or_insert(i);
        }
        for (i, z) in to.iter().enumerate() {
            at.entry(*z).or_default().1.get_or_insert(i);
        }
        Nodes { from, to, at }
    }

    /// The positions of a route's origin node in `from` and destination node in `to` (looked up,
    /// not searched: hundreds of zones route tens of thousands of pairs).
    pub fn edge(&self, r: &Route<'_>) -> (usize, usize) {
        let from = self.at.get(r.from).and_then(|p| p.0).unwrap_or(0);
        (from, self.at.get(r.to).and_then(|p| p.1).unwrap_or(0))
    }
}

/// Every zone the family mentions, sorted, the empty zone (no zone label) last.
pub fn columns(f: &FamilyReport) -> Vec<&str> {
    let mut zones: Vec<&str> = f.zones.iter().map(|z| z.zone.as_str()).collect();
    zones.extend(f.proxy.iter().map(|v| v.zone.as_str()));
    if let Some(c) = &f.cross_zone {
        zones.extend(c.zones.iter().map(|z| z.zone.as_str()));
        zones.extend(c.zones.iter().flat_map(|z| z.destinations.iter().map(|d| d.zone.as_str())));
    }
    zones.sort_by_key(|z| (z.is_empty(), *z));
    zones.dedup();
    zones
}

/// One family of one Service, as a picture shows it.
#[derive(Debug, Clone, Copy)]
pub struct Panel<'a> {
    /// The Service.
    pub service: &'a ServiceReport,
    /// The family.
    pub family: &'a FamilyReport,
    /// Which side of a simulation (None outside `simulate`).
    pub side: Option<Side>,
}

/// A side of a simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Today's cluster.
    Before,
    /// The changed cluster.
    After,
}

/// The panels of some Services, in order.
pub fn panels<'a>(
    reports: impl IntoIterator<Item = &'a ServiceReport>,
    side: Option<Side>,
) -> Vec<Panel<'a>> {
    reports
        .into_iter()
        .flat_map(|service| service.families.iter().map(move |family| Panel { service, family, side }))
        .collect()
}
