//! Routing one proxy view's requests: per origin zone (total, cross, dropped), per endpoint, and per
//! (origin zone, destination zone) pair. Everything is indexed once per Service ([`Dests`]) and
//! summed in dense scratch vectors, so one routing costs O(groups × their endpoints) with O(1) per
//! step, and its memory is the pairs actually routed (issue 32: a list searched per step made
//! 1,000 zones of one endpoint each a billion steps).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::Origins;
use crate::core::proxy::{Grouped, ProxyNodes};
use crate::model::EndpointSlice;

/// The endpoints of one Service indexed once for its routings (now, after the sync, without
/// hints): every first address with an id and the id of its zone.
pub(super) struct Dests<'a> {
    /// First address → (address id, zone id), for the endpoints of the slices today.
    ids: HashMap<&'a str, (usize, usize)>,
    /// Addresses by id.
    addresses: Vec<&'a str>,
    /// Zone names, sorted; `""` (no zone) always among them.
    zones: Vec<&'a str>,
    /// Id of `""`.
    blank: usize,
}

impl<'a> Dests<'a> {
    /// First address → zone of every endpoint (its `zone`, else its node's zone label; the first
    /// endpoint of an address wins).
    pub(super) fn new(slices: &[&'a EndpointSlice], nodes: &'a ProxyNodes) -> Self {
        let node_zone =
            |name: &str| nodes.row(name).and_then(|row| nodes.node(row).1).filter(|z| !z.is_empty());
        let mut zone_of: HashMap<&'a str, (usize, &'a str)> = HashMap::new();
        let mut addresses: Vec<&'a str> = Vec::new();
        for e in slices.iter().flat_map(|s| &s.endpoints) {
            let Some(address) = e.addresses.first() else { continue };
            let zone = e
                .zone
                .as_deref()
                .filter(|z| !z.is_empty())
                .or_else(|| e.node_name.as_deref().and_then(node_zone));
            zone_of.entry(address.as_str()).or_insert_with(|| {
                addresses.push(address.as_str());
                (addresses.len() - 1, zone.unwrap_or_default())
            });
        }
        // The distinct zones first (a few), so that the sort is not one entry per endpoint.
        let distinct: HashSet<&str> = zone_of.values().map(|v| v.1).chain([""]).collect();
        let mut zones: Vec<&str> = distinct.into_iter().collect();
        zones.sort_unstable();
        let id = |zone: &str| zones.binary_search(&zone).unwrap_or(0);
        let ids = zone_of.into_iter().map(|(a, (i, z))| (a, (i, id(z)))).collect();
        Dests { ids, addresses, zones, blank: 0 }
    }

    /// Zone names by id, sorted.
    pub(super) fn zones(&self) -> &[&'a str] {
        &self.zones
    }

    /// The zone of an address of the slices today (None for any other address).
    pub(super) fn zone_of(&self, address: &str) -> Option<&'a str> {
        self.ids.get(address).map(|&(_, z)| self.zones[z])
    }

    fn zone_id(&self, zone: &str) -> Option<usize> {
        self.zones.binary_search(&zone).ok()
    }
}

/// Requests routed under one proxy view.
#[derive(Debug, Default, Clone)]
pub(super) struct Routed {
    /// Per origin zone (in [`Origins`] order, sorted by name): (total, cross, dropped).
    pub zones: Vec<(f64, f64, f64)>,
    /// Per endpoint that receives requests: its requests.
    pub loads: BTreeMap<String, f64>,
    /// Per origin zone: (destination zone id of [`Dests::zones`], requests), sorted by zone;
    /// a destination `""` is an endpoint without a zone.
    pub flows: Vec<Vec<(usize, f64)>>,
}

/// One endpoint a group sends to: (address id, zone id, whether the address has a known zone).
type Target = (usize, usize, bool);

/// Every group's targets, computed once per distinct endpoint list (groups share their lists).
struct Targets<'v> {
    lists: Vec<&'v [String]>,
    /// Per group: index into `built`.
    of_group: Vec<usize>,
    built: Vec<Vec<Target>>,
    /// Addresses not among today's endpoints (an expected slice may name one), by id past [`Dests`]'.
    extra: Vec<&'v str>,
}

impl<'v> Targets<'v> {
    fn new(view: &'v Grouped, dests: &Dests<'_>) -> Self {
        let lists = view.endpoints();
        let mut by_list: HashMap<(usize, usize), usize> = HashMap::new();
        let mut of_group = Vec::with_capacity(lists.len());
        let mut built: Vec<Vec<Target>> = Vec::new();
        let mut extra: Vec<&'v str> = Vec::new();
        let mut extra_ids: HashMap<&'v str, usize> = HashMap::new();
        for list in &lists {
            let key = (list.as_ptr() as usize, list.len());
            let next = built.len();
            let at = *by_list.entry(key).or_insert(next);
            if at == next {
                let targets = list.iter().map(|a| match dests.ids.get(a.as_str()) {
                    Some(&(id, zone)) => (id, zone, true),
                    None => {
                        let id = *extra_ids.entry(a.as_str()).or_insert_with(|| {
                            extra.push(a.as_str());
                            dests.addresses.len() + extra.len() - 1
                        });
                        (id, dests.blank, false)
                    }
                });
                built.push(targets.collect());
            }
            of_group.push(at);
        }
        Targets { lists, of_group, built, extra }
    }

    fn of(&self, group: usize) -> &[Target] {
        &self.built[self.of_group[group]]
    }

    fn address<'a>(&self, dests: &Dests<'a>, id: usize) -> &'v str
    where
        'a: 'v,
    {
        match dests.addresses.get(id) {
            Some(a) => a,
            None => self.extra[id - dests.addresses.len()],
        }
    }

    fn addresses(&self, dests: &Dests<'_>) -> usize {
        dests.addresses.len() + self.extra.len()
    }
}

/// The requests of every group of origins sent evenly over the endpoints of the group.
/// Without `detail`, only the per-zone totals (`Routed::zones`) are summed.
pub(super) fn route(
    view: &Grouped,
    nodes: &ProxyNodes,
    origins: &Origins,
    dests: &Dests<'_>,
    detail: bool,
) -> Routed {
    let targets = Targets::new(view, dests);
    debug_assert_eq!(targets.lists.len(), view.zones().len());
    // A group's origins share its zone: an endpoint there is not cross-zone.
    let group_zone: Vec<Option<usize>> = view.zones().iter().map(|z| dests.zone_id(z)).collect();
    let mut zones: Vec<(f64, f64, f64)> = origins.zone_totals.iter().map(|&t| (t, 0.0, 0.0)).collect();
    let mut loads: Vec<Option<f64>> = vec![None; if detail { targets.addresses(dests) } else { 0 }];
    origins.unplaced.iter().for_each(|&(z, w)| zones[z].2 += w);
    let sent = origins.per_group(view, nodes);
    for &(g, z, weight) in &sent {
        let list = targets.of(g);
        if list.is_empty() {
            zones[z].2 += weight;
            continue;
        }
        let each = weight / list.len() as f64;
        for &(id, zone, known) in list {
            if detail {
                *loads[id].get_or_insert_default() += each;
            }
            if !known || group_zone[g] != Some(zone) {
                zones[z].1 += each;
            }
        }
    }
    if !detail {
        return Routed { zones, ..Routed::default() };
    }
    let flows = per_destination(&sent, &targets, dests, zones.len());
    let loads =
        loads.iter().enumerate().filter_map(|(id, v)| Some((targets.address(dests, id).to_string(), (*v)?)));
    Routed { zones, loads: loads.collect(), flows }
}

/// Requests per (origin zone, destination zone): each origin zone's requests summed per endpoint
/// in the order they are sent, then per destination zone in the order the endpoints were first
/// reached (the same additions, in the same order, as one map per origin zone would make).
fn per_destination(
    sent: &[(usize, usize, f64)],
    targets: &Targets<'_>,
    dests: &Dests<'_>,
    origin_zones: usize,
) -> Vec<Vec<(usize, f64)>> {
    let mut by_zone: Vec<&(usize, usize, f64)> = sent.iter().collect();
    // Stable: within an origin zone, the order the requests are sent in.
    by_zone.sort_by_key(|e| e.1);
    let mut per_endpoint: Vec<Option<f64>> = vec![None; targets.addresses(dests)];
    let mut zone_of_endpoint: Vec<usize> = vec![dests.blank; per_endpoint.len()];
    let mut per_zone: Vec<Option<f64>> = vec![None; dests.zones.len()];
    let mut flows: Vec<Vec<(usize, f64)>> = vec![Vec::new(); origin_zones];
    let (mut reached, mut reached_zones) = (Vec::new(), Vec::new());
    for chunk in by_zone.chunk_by(|a, b| a.1 == b.1) {
        for &&(g, _, weight) in chunk {
            let list = targets.of(g);
            let each = weight / list.len().max(1) as f64;
            for &(id, zone, _) in list {
                match &mut per_endpoint[id] {
                    Some(v) => *v += each,
                    slot @ None => {
                        *slot = Some(each);
                        zone_of_endpoint[id] = zone;
                        reached.push(id);
                    }
                }
            }
        }
        for id in reached.drain(..) {
            let w = per_endpoint[id].take().unwrap_or_default();
            let zone = zone_of_endpoint[id];
            if per_zone[zone].is_none() {
                reached_zones.push(zone);
            }
            *per_zone[zone].get_or_insert_default() += w;
        }
        reached_zones.sort_unstable();
        let row = reached_zones.drain(..).map(|zone| (zone, per_zone[zone].take().unwrap_or_default()));
        flows[chunk[0].1] = row.collect();
    }
    flows
}
