//! The most zones a snapshot may name (docs/behaviour.md#limits). Routing compares every zone
//! that sends requests with every zone that receives them, and the report lists the pairs: beyond
//! any real cluster, that is minutes of work and gigabytes of report for nothing (issue 32).

use std::collections::HashSet;

use crate::model::{EndpointSlice, LABEL_ZONE, Node, Snapshot};

/// The most distinct zone names a snapshot may carry on its Nodes' zone labels, its endpoints'
/// `zone` and their zone hints together. A cloud region has three to six zones and the largest
/// providers about 120 in all the world, so a thousand is far above any real cluster, while its
/// routing matrix (a million pairs at most) still fits in tens of megabytes.
pub const MAX_ZONES: usize = 1_000;

/// A snapshot names more than [`MAX_ZONES`] zones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyZones {
    /// The limit exceeded ([`MAX_ZONES`]).
    pub limit: usize,
}

/// `Err` when `snapshot` names more than `limit` zones (Nodes' zone labels, endpoints' `zone`,
/// zone hints); stops counting as soon as it does.
pub fn zone_limit(snapshot: &Snapshot, limit: usize) -> Result<(), TooManyZones> {
    zone_limit_of(&snapshot.nodes, &snapshot.slices, limit)
}

/// [`zone_limit`] over Nodes and EndpointSlices held elsewhere than in a [`Snapshot`] (`serve`'s
/// store, by name).
pub fn zone_limit_of<'a>(
    nodes: impl IntoIterator<Item = &'a Node>,
    slices: impl IntoIterator<Item = &'a EndpointSlice>,
    limit: usize,
) -> Result<(), TooManyZones> {
    zone_names_of(nodes, slices, limit).map(|_| ())
}

/// The distinct zone names of `nodes` and `slices` as [`zone_limit`] counts them, or `Err` as
/// soon as there are more than `limit`. `serve` keeps the set: a change that names only zones of
/// it cannot take the count over the limit, so only a new name costs a count of everything.
pub fn zone_names_of<'a>(
    nodes: impl IntoIterator<Item = &'a Node>,
    slices: impl IntoIterator<Item = &'a EndpointSlice>,
    limit: usize,
) -> Result<HashSet<&'a str>, TooManyZones> {
    let mut seen: HashSet<&str> = HashSet::new();
    let labels = nodes.into_iter().filter_map(|n| n.labels.get(LABEL_ZONE)).map(String::as_str);
    let named = slices.into_iter().flat_map(slice_zone_names);
    // Neighbours mostly name the same zone (a slice's endpoints, their hints): hashed once per run
    // of equal names rather than once per name (150,000 names on the large cluster).
    let mut last: Option<&str> = None;
    for zone in labels.chain(named) {
        if last == Some(zone) {
            continue;
        }
        last = Some(zone);
        if seen.insert(zone) && seen.len() > limit {
            return Err(TooManyZones { limit });
        }
    }
    Ok(seen)
}

/// The zone names one slice carries: its endpoints' `zone`, then their zone hints.
pub fn slice_zone_names(slice: &EndpointSlice) -> impl Iterator<Item = &str> {
    let own = slice.endpoints.iter().filter_map(|e| e.zone.as_deref());
    let hinted = slice.endpoints.iter().filter_map(|e| e.hints.as_ref()?.for_zones.as_deref()).flatten();
    own.chain(hinted.map(|z| &**z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testkit_td::{EndpointTestExt, ep, node, slice};

    fn snapshot(node_zones: &[&str], endpoint_zones: &[&str], hinted: &[&str]) -> Snapshot {
        let nodes = node_zones.iter().enumerate().map(|(i, z)| node(&format!("n{i}"), Some(z))).collect();
        let mut endpoints: Vec<_> =
            endpoint_zones.iter().enumerate().map(|(i, z)| ep(&format!("10.0.0.{i}")).zone(z)).collect();
        endpoints.push(ep("10.0.1.1").hint_zones(hinted));
        Snapshot { nodes, slices: vec![slice("s", endpoints)], ..Snapshot::default() }
    }

    #[test]
    fn counts_distinct_zones_of_nodes_endpoints_and_hints() {
        let s = snapshot(&["a", "b", "a"], &["b", "c"], &["d", "a"]);
        assert_eq!(zone_limit(&s, 4), Ok(()));
        assert_eq!(zone_limit(&s, 3), Err(TooManyZones { limit: 3 }));
        // Each source alone can go over.
        assert!(zone_limit(&snapshot(&["a", "b"], &[], &[]), 1).is_err());
        assert!(zone_limit(&snapshot(&[], &["a", "b"], &[]), 1).is_err());
        assert!(zone_limit(&snapshot(&[], &[], &["a", "b"]), 1).is_err());
        assert_eq!(zone_limit(&snapshot(&["a"], &["a"], &["a"]), 1), Ok(()));
    }
}
