//! English for the what-if parts: why the controller does (not) reach a simulated state, the counts
//! for which hints hold, and the traffic model of the cross-zone share.

use std::collections::BTreeMap;

use topo_engine::report::whatif::{CountRange, ReplicasNeeded, SpreadBasis, SyncNote, TrafficSource};

/// One sentence per [`SyncNote`].
pub(crate) fn sync_note(note: SyncNote) -> &'static str {
    match note {
        SyncNote::EndpointsChanged => "The Service's endpoints change, so the controller syncs it.",
        SyncNote::ServiceChanged => "The Service object changes, so the controller syncs it.",
        SyncNote::NodesRecomputed => {
            "A node is added, deleted or flips Ready: the controller recomputes the \
             zone weights (SetNodes) and rechecks every Service with cached hints for overload."
        }
        SyncNote::Requeued => {
            "The cached hint counts are overloaded for the new zone weights: the Service is \
             requeued and synced."
        }
        SyncNote::NotRequeuedBalanced => {
            "The cached hint counts pass the overload recheck for the new zone \
             weights: the node change alone does not requeue the Service."
        }
        SyncNote::NotRequeuedNoCache => {
            "The controller has no hints cached for this Service (its slices carry \
             none), so node changes never requeue it (kubernetes/kubernetes#123401)."
        }
        SyncNote::CpuChangeIgnored => {
            "Only allocatable CPU changes: the controller recomputes zone weights \
             only on a node add/delete, a Ready flip or a zone-label change, so it keeps the old weights."
        }
        SyncNote::StaleWeights => {
            "The sync still uses the zone weights from before the CPU change (no node \
             event recomputed them); the after report uses the new CPU, as the controller will after the \
             next node event."
        }
        SyncNote::NotReached => {
            "Nothing syncs the Service: the state below is reached only at its next \
             unrelated sync (an endpoint or Service change, or the informer resync); until then the slices \
             keep today's hints."
        }
    }
}

/// "3, 5–7, ≥ 9" (or "none").
pub fn count_ranges(ranges: &[CountRange], beyond_limit: bool) -> String {
    if ranges.is_empty() {
        return "no count up to 100".into();
    }
    let last = ranges.len() - 1;
    let parts: Vec<String> = ranges
        .iter()
        .enumerate()
        .map(|(i, r)| match (i == last && beyond_limit, r.from == r.to) {
            (true, _) => format!("≥ {}", r.from),
            (false, true) => r.from.to_string(),
            (false, false) => format!("{}–{}", r.from, r.to),
        })
        .collect();
    parts.join(", ")
}

/// "a:2 b:1" (the zone-less group shown as `<none>`).
pub(crate) fn zone_counts(counts: &BTreeMap<String, i64>) -> String {
    let parts: Vec<String> =
        counts.iter().map(|(z, n)| format!("{}:{n}", if z.is_empty() { "<none>" } else { z })).collect();
    if parts.is_empty() { "-".into() } else { parts.join(" ") }
}

/// The replicas-needed lines of `explain` (Auto mode).
pub(crate) fn replicas_lines(r: &ReplicasNeeded) -> Vec<String> {
    let spread = match r.spread_basis {
        SpreadBasis::AsToday => "pods spread as today",
        SpreadBasis::ZoneCpu => "pods spread by zone CPU",
    };
    let mut lines = vec![format!(
        "Replicas: hints hold at {} ready endpoints ({spread}; now {}).",
        count_ranges(&r.working, r.beyond_limit),
        r.ready_endpoints
    )];
    match r.nearest {
        Some(n) if n == r.ready_endpoints => {}
        Some(n) => lines.push(format!(
            "Nearest count that works: {n} (endpoints {}; minimum per zone {}).",
            zone_counts(&r.spread_at_nearest),
            zone_counts(&r.minimum_at_nearest)
        )),
        None => {
            lines.push("No count up to 1000 above today's works with this spread and these zones.".into())
        }
    }
    if !r.minimum_by_zone.is_empty() {
        lines.push(format!(
            "Minimum per zone at {} endpoints (20 % overload threshold): {}.",
            r.ready_endpoints,
            zone_counts(&r.minimum_by_zone)
        ));
    }
    lines
}

/// The traffic model in one line.
pub(crate) fn traffic_model(source: TrafficSource) -> &'static str {
    match source {
        TrafficSource::ZoneCpu => {
            "requests originate in proportion to zone CPU, within a zone to node CPU; \
             kube-proxy spreads each node's requests evenly over its endpoints"
        }
        TrafficSource::Given => {
            "requests originate per zone as given by --traffic, within a zone in \
             proportion to node CPU; kube-proxy spreads each node's requests evenly over its endpoints"
        }
        TrafficSource::FrontDoor => {
            "requests originate per zone as the front door's Pods do, within a zone in \
             proportion to node CPU; kube-proxy spreads each node's requests evenly over its endpoints"
        }
    }
}
