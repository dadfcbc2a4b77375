//! The margin and the certificate against the port itself: every answer is re-derived by brute
//! force through `set_nodes` + `get_allocations` (the functions the differential tier holds equal
//! to upstream's Go), and the placements by simulating the scheduler one pod at a time.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::certificate::{Scaling, certificate};
use super::nodes::sizes_by_zone;
use super::{CpuState, NearestShares, margin, row_margin};
use crate::core::testkit_tc::{NodeBuild, node};
use crate::core::topologycache::get_allocations;
use crate::core::zones::set_nodes;
use crate::model::Node;
use crate::report::stability::{NodeChange, SpreadRule};

fn nodes(spec: &[(&str, i64)]) -> Vec<Node> {
    spec.iter().enumerate().map(|(i, (z, m))| node(&format!("n{i}")).zone(z).cpu_millis(*m).ready()).collect()
}

/// The port's verdict: `SetNodes` then `getAllocations` for `n` zoned ready endpoints.
fn port_holds(nodes: &[Node], n: i64) -> bool {
    get_allocations(&set_nodes(nodes).ratios, n).is_ok()
}

fn ready(spec: &[(&str, i64)]) -> BTreeMap<String, i64> {
    spec.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

/// Zone `zone` as one Node of `millis` beside the other zones' Nodes of `rest`.
fn with_zone(zone: &str, millis: i64, rest: &[(&str, i64)]) -> Vec<Node> {
    let mut spec = vec![(zone, millis)];
    spec.extend(rest.iter().copied());
    nodes(&spec)
}

/// Brute force: walk the zone's milli-CPU away from today until the port's verdict changes.
fn brute_flip(zone: &str, millis: i64, rest: &[(&str, i64)], n: i64, step: i64, limit: i64) -> Option<i64> {
    let today = port_holds(&with_zone(zone, millis, rest), n);
    let mut v = millis + step;
    while v >= 1 && v <= limit {
        if port_holds(&with_zone(zone, v, rest), n) != today {
            return Some(v);
        }
        v += step;
    }
    None
}

#[test]
fn post_mortem_shape_four_endpoints_two_zones_drifting_share() {
    // The 2026-09 post-mortem: 4 endpoints in 2 zones, the zones' CPU share drifting across the
    // band. Hints hold for a share of zone a between about 40 % and 60 %.
    let rest = [("b", 5000)];
    for a in [3400, 4000, 5000, 6000, 7400] {
        let cluster = with_zone("a", a, &rest);
        let topology = set_nodes(&cluster);
        let m = margin(&topology, &sizes_by_zone(&cluster), &ready(&[("a", 2), ("b", 2)])).expect("ratios");
        assert_eq!(m.holds, port_holds(&cluster, 4));
        let zone_a = m.shares.iter().find(|s| s.zone == "a").expect("zone a");
        let down = brute_flip("a", a, &rest, 4, -1, 40_000);
        let up = brute_flip("a", a, &rest, 4, 1, 40_000);
        assert_eq!(zone_a.down.map(|f| f.flips_at_millis), down, "a = {a}m, falling");
        assert_eq!(zone_a.up.map(|f| f.flips_at_millis), up, "a = {a}m, growing");
        if m.holds {
            let (lo, hi) =
                (zone_a.down.expect("a band").flips_at_share, zone_a.up.expect("a band").flips_at_share);
            assert!(lo < 0.4 && lo > 0.39 && hi > 0.6 && hi < 0.61, "band {lo}..{hi}");
        }
        if a == 4000 {
            // 44.4 % today, the band ends at 40 %: 4.4 points, under the fragile threshold.
            let points = m.nearest_share_points.expect("a flip");
            assert!(m.fragile && points > 4.0 && points < 4.5, "{points}");
        }
    }
}

#[test]
fn issue_122437_eleven_replicas_four_four_three_under_max_skew_one() {
    let cluster = nodes(&[("a", 4000), ("b", 4000), ("c", 4000)]);
    let state = CpuState::of(&set_nodes(&cluster)).expect("ratios");
    let spread = SpreadRule { max_skew: 1, min_domains: None, hard: true };
    let zones = vec!["a".to_string(), "b".into(), "c".into()];
    let cert = certificate(&Scaling { min: 3, max: 12, spread: Some(spread), zones }, &state);
    let eleven = cert.exceptions.iter().find(|e| e.count == 11).expect("11 is an exception");
    // 4/4/3 in its three arrangements, and every one fails (Σ minimum 12 > 11).
    assert_eq!((eleven.allowed, eleven.failing, eleven.any_placement), (3, 3, true));
    for n in 3..=12 {
        let held = cert.holds.iter().any(|r| r.from <= n && n <= r.to);
        assert_eq!(held, port_holds(&cluster, n), "count {n}");
    }
    // One endpoint more or fewer at 11 is a flip: the margin says so.
    let m = margin(&set_nodes(&cluster), &sizes_by_zone(&cluster), &ready(&[("a", 4), ("b", 4), ("c", 3)]))
        .unwrap();
    assert!(!m.holds && m.fragile && m.endpoints.iter().all(|e| e.add_flips && e.remove_flips == Some(true)));
}

/// Every final placement reachable by adding pods one at a time under the hard spread rule.
fn reachable(zones: usize, n: i64, skew: i64, min_domains: i64) -> BTreeSet<Vec<i64>> {
    let mut level: BTreeSet<Vec<i64>> = [vec![0; zones]].into();
    for _ in 0..n {
        let mut next = BTreeSet::new();
        for parts in &level {
            let global_min = if (zones as i64) < min_domains { 0 } else { *parts.iter().min().unwrap() };
            for z in 0..zones {
                if parts[z] + 1 - global_min <= skew {
                    let mut p = parts.clone();
                    p[z] += 1;
                    next.insert(p);
                }
            }
        }
        level = next;
    }
    level
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn share_margin_is_the_nearest_flip_of_the_port(
        a in 1i64..3000, b in 1i64..3000, c in 0i64..3000, n in 1i64..12,
    ) {
        let mut rest = vec![("b", b)];
        if c > 0 { rest.push(("c", c)); }
        let cluster = with_zone("a", a, &rest);
        let topology = set_nodes(&cluster);
        let m = margin(&topology, &sizes_by_zone(&cluster), &ready(&[("a", n)])).unwrap();
        let zone_a = m.shares.iter().find(|s| s.zone == "a").unwrap();
        let limit = 12 * (a + b + c);
        prop_assert_eq!(zone_a.down.map(|f| f.flips_at_millis), brute_flip("a", a, &rest, n, -1, limit));
        let up = zone_a.up.map(|f| f.flips_at_millis);
        // Above `limit` nothing can change any more (the step candidates end below it).
        prop_assert_eq!(up.filter(|&v| v <= limit), brute_flip("a", a, &rest, n, 1, limit));
    }

    #[test]
    fn a_row_s_margin_is_what_the_full_margin_says_once_per_count(
        a in 1i64..3000, b in 1i64..3000, spread in proptest::collection::vec((0usize..3, 0i64..9), 1..5),
    ) {
        let cluster = with_zone("a", a, &[("b", b)]);
        let topology = set_nodes(&cluster);
        let nearest = NearestShares::default();
        for (i, n) in spread {
            let ready = ready(&[(["a", "b", ""][i], n), ("b", 2)]);
            let full = margin(&topology, &sizes_by_zone(&cluster), &ready);
            // The second lookup of the same count reads what the first one stored.
            for _ in 0..2 {
                let row = row_margin(&topology, &ready, &nearest);
                prop_assert_eq!(row.as_ref().map(|m| m.holds), full.as_ref().map(|m| m.holds));
                prop_assert_eq!(row.as_ref().map(|m| m.fragile), full.as_ref().map(|m| m.fragile));
                prop_assert_eq!(row.as_ref().map(|m| m.nearest_share_points), full.as_ref().map(|m| m.nearest_share_points));
                prop_assert_eq!(row.as_ref().map(|m| &m.endpoints), full.as_ref().map(|m| &m.endpoints));
            }
        }
    }

    #[test]
    fn node_and_endpoint_flips_are_the_port_s(
        sizes in proptest::collection::vec((0usize..3, 1i64..8), 2..7), n in 1i64..14,
    ) {
        let zone = |i: usize| ["a", "b", "c"][i];
        let spec: Vec<(&str, i64)> = sizes.iter().map(|(z, s)| (zone(*z), s * 500)).collect();
        let cluster = nodes(&spec);
        let topology = set_nodes(&cluster);
        let Some(m) = margin(&topology, &sizes_by_zone(&cluster), &ready(&[("a", n)])) else { return Ok(()) };
        let today = port_holds(&cluster, n);
        prop_assert_eq!(m.holds, today);
        let present: BTreeSet<i64> = spec.iter().map(|(_, s)| *s).collect();
        for (z, _) in topology.counted_zones() {
            for &s in &present {
                let mut added = spec.clone();
                added.push((z.as_str(), s));
                let flips = port_holds(&nodes(&added), n) != today;
                let listed = m.nodes.iter().any(|f| &f.zone == z && f.change == NodeChange::Added && f.cpu == format!("{s}m").replace("000m", ""));
                prop_assert_eq!(flips, listed, "add {}m to {}", s, z);
                if let Some(i) = spec.iter().position(|(zz, ss)| zz == z && *ss == s) {
                    let mut removed = spec.clone();
                    removed.remove(i);
                    let flips = port_holds(&nodes(&removed), n) != today;
                    let listed = m.nodes.iter().any(|f| &f.zone == z && f.change == NodeChange::Removed && f.cpu == format!("{s}m").replace("000m", ""));
                    prop_assert_eq!(flips, listed, "remove {}m from {}", s, z);
                }
            }
        }
        let a = m.endpoints.iter().find(|e| e.zone == "a").unwrap();
        prop_assert_eq!(a.add_flips, port_holds(&cluster, n + 1) != today);
        prop_assert_eq!(a.remove_flips, Some(port_holds(&cluster, n - 1) != today));
    }

    #[test]
    fn certificate_placements_are_the_scheduler_s(
        zones in 1usize..4, min in 0i64..6, width in 0i64..6, skew in 1i64..3, min_domains in 1i64..5, hard: bool,
    ) {
        let names: Vec<String> = ["a", "b", "c"][..zones].iter().map(|z| z.to_string()).collect();
        let cluster = nodes(&[("a", 3000), ("b", 2000), ("c", 1000)]);
        let state = CpuState::of(&set_nodes(&cluster)).unwrap();
        let spread = SpreadRule { max_skew: skew, min_domains: Some(min_domains), hard };
        let cert = certificate(&Scaling { min, max: min + width, spread: Some(spread), zones: names }, &state);
        prop_assert!(!cert.truncated);
        for n in min..=min + width {
            let allowed = if hard { reachable(zones, n, skew, min_domains).len() as u64 } else {
                // ScheduleAnyway: every placement, C(n + z − 1, z − 1).
                (1..zones as u64).fold(1u64, |acc, k| acc * (n as u64 + k) / k)
            };
            let in_ranges = |rs: &[crate::report::CountRange]| rs.iter().any(|r| r.from <= n && n <= r.to);
            let exception = cert.exceptions.iter().find(|e| e.count == n);
            match (allowed, port_holds(&cluster, n)) {
                (0, _) => prop_assert!(in_ranges(&cert.unschedulable), "{} unschedulable", n),
                (_, true) => prop_assert!(in_ranges(&cert.holds), "{} holds", n),
                (k, false) => prop_assert!(exception.is_some_and(|e| e.allowed == k && e.any_placement), "{} fails", n),
            }
        }
    }
}

fn event(reason: &str, count: i32, last_seen: &str) -> crate::model::Event {
    crate::model::Event {
        namespace: "ns".into(),
        object_kind: "Service".into(),
        object_name: "svc".into(),
        event_type: "Normal".into(),
        reason: reason.into(),
        message: "m".into(),
        count,
        last_seen: Some(last_seen.into()),
        source: None,
    }
}

#[test]
fn history_counts_switches_on_and_the_switches_off_between_them() {
    use crate::core::topologycache::{EVENT_REASON_DISABLED as OFF, EVENT_REASON_ENABLED as ON};
    assert_eq!(super::history(&[event("Other", 3, "2026-09-01T10:00:00Z")]), None);
    // Switched on three times, off in between and once more at the end: on, off, on, off, on, off.
    let flapping = [event(ON, 3, "2026-09-01T10:40:00Z"), event(OFF, 7, "2026-09-01T10:50:00Z")];
    let h = super::history(&flapping).unwrap();
    assert_eq!((h.enabled, h.disabled_events, h.flips), (3, 7, 6));
    let streak = h.streak.unwrap();
    assert!(
        !streak.hints && streak.since.is_none() && streak.after.as_deref() == Some("2026-09-01T10:40:00Z")
    );
    assert_eq!(h.first_seen.as_deref(), Some("2026-09-01T10:40:00Z"));
    // On now: the last switch on is not followed by a switch off.
    let on_now = [event(OFF, 2, "2026-09-01T09:00:00Z"), event(ON, 2, "2026-09-01T11:00:00Z")];
    let h = super::history(&on_now).unwrap();
    assert_eq!(h.flips, 3);
    assert!(h.streak.unwrap().hints);
    assert_eq!(h.last_seen.as_deref(), Some("2026-09-01T11:00:00Z"));
}

#[test]
fn the_enumeration_stops_at_its_limit_and_says_which_counts_it_certified() {
    use crate::report::stability::PLACEMENT_LIMIT;
    let cluster = nodes(&[("a", 1000), ("b", 1000), ("c", 1000), ("d", 1000), ("e", 1000)]);
    let state = CpuState::of(&set_nodes(&cluster)).unwrap();
    let zones: Vec<String> = ["a", "b", "c", "d", "e"].iter().map(|z| z.to_string()).collect();
    // Without a spread every placement may happen: C(n + 4, 4) of them at count n.
    let cert = certificate(&Scaling { min: 0, max: 80, spread: None, zones }, &state);
    assert!(cert.truncated && cert.examined_to < 80 && cert.placements_examined <= PLACEMENT_LIMIT);
    let placements = |n: u64| (n + 1) * (n + 2) * (n + 3) * (n + 4) / 24;
    let examined: u64 = (0..=cert.examined_to as u64).map(placements).sum();
    assert_eq!(examined, cert.placements_examined, "every count up to examined_to in full");
    assert!(
        examined + placements(cert.examined_to as u64 + 1) > PLACEMENT_LIMIT,
        "stopped only when the next did not fit"
    );
    let last = cert.holds.iter().map(|r| r.to).chain(cert.exceptions.iter().map(|e| e.count)).max();
    assert_eq!(last, Some(cert.examined_to));
}
