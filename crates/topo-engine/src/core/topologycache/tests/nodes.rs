//! TestSetNodes (`topologycache_test.go`), Test_checkNodeTopologyDistribution and TestUpdateNode
//! (kubernetes/kubernetes `endpointslice_controller_test.go`), docs/behaviour.md#nodes-and-zone-cpu-ratios.

use super::{Pairs, counts, create};
use crate::core::testkit_tc::{EndpointBuild, NodeBuild, SliceBuild, ep, node, slice};
use crate::core::topologycache::{add_hints, required_endpoints_by_zone, service_overloaded};
use crate::core::zones::{ExclusionReason, Insufficient, PoisonReason, Ratios, set_nodes};
use crate::model::Node;

/// Expected ratios as `(zone, ratio)` pairs.
type RatioPairs = &'static [(&'static str, f64)];

/// `nodeInfo{zone, cpu, ready, labels}` of TestSetNodes (zone "" = no label).
fn info(zone: &str, millis: i64, ready: bool) -> Node {
    let n = node("").cpu_millis(millis).ready_status(if ready { "True" } else { "False" });
    if zone.is_empty() { n } else { n.zone(zone) }
}

#[test]
fn test_set_nodes() {
    let cp = |n: Node| n.control_plane();
    let cases: Vec<(&str, Vec<Node>, bool, Pairs, RatioPairs)> = vec![
        ("empty", vec![], false, &[], &[]),
        ("single node", vec![info("zone-a", 1000, true)], false, &[], &[]),
        ("single zone", vec![info("zone-a", 1000, true), info("zone-a", 1000, true)], false, &[], &[]),
        (
            "2 zones",
            vec![info("zone-a", 1000, true), info("zone-b", 1000, true)],
            true,
            &[("zone-a", 1000), ("zone-b", 1000)],
            &[("zone-a", 0.5), ("zone-b", 0.5)],
        ),
        (
            "2 zones, unready node in 1, ready node in 1",
            vec![info("zone-a", 1000, false), info("zone-b", 1000, true)],
            false,
            &[],
            &[],
        ),
        (
            "2 zones, control plane node in 1, ready node in 1",
            vec![info("zone-a", 1000, true), cp(info("zone-b", 1000, true))],
            false,
            &[],
            &[],
        ),
        (
            "2 zones, unready node in 1, ready node in 2",
            vec![info("zone-a", 1000, true), info("zone-b", 1000, true), info("zone-b", 1000, false)],
            true,
            &[("zone-a", 1000), ("zone-b", 1000)],
            &[("zone-a", 0.5), ("zone-b", 0.5)],
        ),
        (
            "2 zones, control plane node in 1, ready node in 2",
            vec![info("zone-a", 1000, true), info("zone-b", 1000, true), cp(info("zone-b", 1000, true))],
            true,
            &[("zone-a", 1000), ("zone-b", 1000)],
            &[("zone-a", 0.5), ("zone-b", 0.5)],
        ),
        (
            "3 zones, 4 nodes in 1, 2 nodes in 1, 1 node in 1",
            [
                ("zone-a", 1000),
                ("zone-a", 1000),
                ("zone-a", 1000),
                ("zone-a", 2000),
                ("zone-b", 3000),
                ("zone-b", 1500),
                ("zone-c", 500),
            ]
            .iter()
            .map(|(z, m)| info(z, *m, true))
            .collect(),
            true,
            &[("zone-a", 5000), ("zone-b", 4500), ("zone-c", 500)],
            &[("zone-a", 0.5), ("zone-b", 0.45), ("zone-c", 0.05)],
        ),
    ];
    for (name, nodes, sufficient, cpu_by_zone, expected_ratios) in cases {
        let topology = set_nodes(&nodes);
        assert_eq!(topology.insufficient.is_none(), sufficient, "{name}");
        let expected = if sufficient {
            Ratios::Map(expected_ratios.iter().map(|(z, r)| (z.to_string(), *r)).collect())
        } else {
            Ratios::Nil
        };
        assert_eq!(topology.ratios, expected, "{name}");
        if sufficient {
            let cpu: Vec<(&str, i64)> =
                topology.zones.iter().map(|(z, c)| (z.as_str(), c.cpu_millis)).collect();
            assert_eq!(cpu, cpu_by_zone, "{name}");
        }
    }
}

#[test]
fn set_nodes_reports_every_node_upstream_would_stop_at() {
    let nodes = vec![
        node("cp").zone("x").control_plane().ready(),
        node("down").zone("a").cpu_millis(1000).not_ready(),
        node("nolabel-ready-missing").cpu_millis(1000),
        node("ok-a").zone("a").cpu_millis(1000).ready(),
        node("empty-zone").zone("").cpu_millis(1000).ready(),
        node("no-cpu").zone("b").ready(),
        node("nothing").ready(),
        node("ok-b").zone("b").cpu_millis(2000).ready(),
    ];
    let topology = set_nodes(&nodes);
    let excluded: Vec<_> =
        topology.excluded.iter().map(|n| (n.name.as_str(), n.zone.as_deref(), n.why)).collect();
    assert_eq!(
        excluded,
        [
            ("cp", Some("x"), ExclusionReason::ControlPlane),
            ("down", Some("a"), ExclusionReason::NotReady),
            ("nolabel-ready-missing", None, ExclusionReason::NotReady),
        ]
    );
    let poisoning: Vec<_> = topology.poisoning.iter().map(|n| (n.name.as_str(), n.why)).collect();
    assert_eq!(
        poisoning,
        [
            ("empty-zone", PoisonReason::MissingZone),
            ("no-cpu", PoisonReason::MissingCpu),
            ("nothing", PoisonReason::MissingZoneAndCpu),
        ]
    );
    let first = Insufficient::Poisoned { node: "empty-zone".into(), why: PoisonReason::MissingZone };
    assert_eq!((topology.insufficient, topology.ratios), (Some(first), Ratios::Nil));
    let per_zone: Vec<_> = topology
        .zones
        .iter()
        .map(|(z, c)| (z.as_str(), c.nodes_total, c.nodes_counted, c.cpu_millis))
        .collect();
    assert_eq!(per_zone, [("a", 2, 1, 1000), ("b", 2, 2, 2000), ("x", 1, 0, 0)]);
    assert_eq!(topology.total_cpu_millis, 3000);
}

#[test]
fn set_nodes_rounds_sums_up_to_milli_before_dividing() {
    // Two 0.5m nodes sum to exactly 1m (rounding each up would give 2m); total 1001m.
    let half_milli = |name: &str| Node {
        allocatable_cpu: Some(crate::model::CpuAmount::from_nanos(500_000)),
        ..node(name).zone("a").ready()
    };
    let nodes = [half_milli("a1"), half_milli("a2"), node("b").zone("b").cpu_millis(1000).ready()];
    let topology = set_nodes(&nodes);
    assert_eq!((topology.zones["a"].cpu_millis, topology.total_cpu_millis), (1, 1001));
    assert_eq!(topology.ratios.as_map().unwrap()["a"], 1.0 / 1001.0);
    let single = set_nodes(&[node("a").zone("a").cpu_millis(1).ready()]);
    assert_eq!(single.insufficient, Some(Insufficient::FewerThanTwoZones { zones: 1 }));
}

/// `nodeInfo{zoneLabel, ready, cpu}` of Test_checkNodeTopologyDistribution.
fn check_node(zone: Option<&str>, ready: bool, millis: Option<i64>) -> Node {
    let mut n = node("").ready_status(if ready { "True" } else { "False" });
    if let Some(zone) = zone {
        n = n.zone(zone);
    }
    if let Some(millis) = millis {
        n = n.cpu_millis(millis);
    }
    n
}

#[test]
fn test_check_node_topology_distribution() {
    let (a, b, c) = (Some("zone-a"), Some("zone-b"), Some("zone-c"));
    let even = |missing_zone: bool, missing_cpu: bool| {
        vec![
            check_node(b, true, Some(2000)),
            check_node(
                if missing_zone { None } else { b },
                true,
                if missing_cpu { None } else { Some(2000) },
            ),
            check_node(c, true, Some(2000)),
            check_node(c, true, Some(2000)),
        ]
    };
    let lopsided = |a_ready| {
        vec![
            check_node(a, a_ready, Some(100)),
            check_node(b, true, Some(1000)),
            check_node(c, true, Some(2000)),
        ]
    };
    let uneven = || {
        vec![check_node(a, true, Some(2000)), check_node(b, true, Some(1000)), check_node(c, true, Some(100))]
    };
    let cases: Vec<(&str, Vec<Node>, Pairs, bool)> = vec![
        ("empty", vec![], &[], false),
        ("lopsided, queue required", lopsided(true), &[("zone-a", 1), ("zone-b", 2), ("zone-c", 3)], true),
        (
            "lopsided but 1 unready, queue required because unready node means 0 CPU in one zone",
            lopsided(false),
            &[("zone-a", 1), ("zone-b", 2), ("zone-c", 3)],
            true,
        ),
        (
            "even zones, uneven endpoint distribution but within threshold, no sync required",
            even(false, false),
            &[("zone-b", 5), ("zone-c", 4)],
            false,
        ),
        (
            "even zones but node missing zone, sync required",
            even(true, false),
            &[("zone-b", 5), ("zone-c", 4)],
            true,
        ),
        (
            "even zones but node missing cpu, sync required",
            even(false, true),
            &[("zone-b", 5), ("zone-c", 4)],
            true,
        ),
        (
            "even zones, uneven endpoint distribution beyond threshold, no sync required",
            even(false, false),
            &[("zone-b", 6), ("zone-c", 4)],
            true,
        ),
        (
            "3 uneven zones, matching endpoint distribution, no sync required",
            uneven(),
            &[("zone-a", 20), ("zone-b", 10), ("zone-c", 1)],
            false,
        ),
        (
            "3 uneven zones, endpoint distribution within threshold but below 1, sync required",
            uneven(),
            &[("zone-a", 20), ("zone-b", 10), ("zone-c", 0)],
            true,
        ),
    ];
    for (name, nodes, cached, requeued) in cases {
        assert_eq!(service_overloaded(&counts(cached), &set_nodes(&nodes).ratios), requeued, "{name}");
    }
}

#[test]
fn required_endpoints_explain_the_overload_verdicts() {
    // "lopsided": total 6, c ratio 2000/3100 → ceil(6 * 0.645… * K) = 4 > 3.
    let ratios = set_nodes(&[
        check_node(Some("a"), true, Some(100)),
        check_node(Some("b"), true, Some(1000)),
        check_node(Some("c"), true, Some(2000)),
    ])
    .ratios;
    let required =
        required_endpoints_by_zone(&counts(&[("a", 1), ("b", 2), ("c", 3)]), ratios.as_map().unwrap());
    assert_eq!(required, counts(&[("a", 1), ("b", 2), ("c", 4)]));
    // W3: 4 cached endpoints, 3 equal zones left → ceil(4 · ⅓ · K) = 2 each (Go: "W3 overload req=2").
    let thirds = set_nodes(&[
        check_node(Some("a"), true, Some(1000)),
        check_node(Some("b"), true, Some(1000)),
        check_node(Some("c"), true, Some(1000)),
    ])
    .ratios;
    let cached = counts(&[("a", 1), ("b", 1), ("c", 1), ("d", 1)]);
    assert_eq!(
        required_endpoints_by_zone(&cached, thirds.as_map().unwrap()),
        counts(&[("a", 2), ("b", 2), ("c", 2)])
    );
    assert!(service_overloaded(&cached, &thirds));
    // Empty-but-non-nil ratios overload any cached Service; nothing cached is never overloaded.
    assert!(service_overloaded(&cached, &Ratios::initial()));
    assert!(!service_overloaded(&counts(&[]), &Ratios::Nil));
}

#[test]
fn test_update_node() {
    // Two Ready 100m nodes without zone → InsufficientNodeInfo; once labelled → enabled.
    let si = || {
        create(vec![
            slice("svc-abc")
                .ep(ep("172.18.0.2").zone("zone-a").ready())
                .ep(ep("172.18.1.2").zone("zone-b").ready()),
        ])
    };
    let unlabelled = [node("node-1").cpu_millis(100).ready(), node("node-2").cpu_millis(100).ready()];
    let outcome = add_hints(&set_nodes(&unlabelled).ratios, si());
    assert!(outcome.event.message.contains("Insufficient Node information"), "{}", outcome.event.message);
    let labelled = [unlabelled[0].clone().zone("zone-a"), unlabelled[1].clone().zone("zone-b")];
    let outcome = add_hints(&set_nodes(&labelled).ratios, si());
    assert!(
        outcome.event.message.contains("Topology Aware Hints has been enabled"),
        "{}",
        outcome.event.message
    );
}
