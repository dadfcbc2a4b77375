//! Worked examples of docs/behaviour.md#worked-examples at the unit level. Expected hints and counts were confirmed against
//! upstream itself: a throwaway Go program linking k8s.io/endpointslice v0.36.6 running
//! `SetNodes` + `AddHints` 10–400 times per example and printing every distinct outcome.

use super::{counts, cpu_ratios, create};
use crate::core::testkit_tc::{EndpointBuild, NodeBuild, SliceBuild, ep, node, slice};
use crate::core::topologycache::{AddHintsOutcome, Disabled, SliceInfo, add_hints};
use crate::core::zones::{Insufficient, set_nodes};
use crate::model::EndpointSlice;

/// One slice "s" with one ready endpoint per zone letter, addresses 10.0.0.<i>.
fn endpoints(zones: &[&str]) -> EndpointSlice {
    zones
        .iter()
        .enumerate()
        .fold(slice("s"), |s, (i, zone)| s.ep(ep(&format!("10.0.0.{i}")).zone(zone).ready()))
}

/// `zone>hint` per endpoint of the written slices (`-` for none), as the Go oracle prints them.
fn written(outcome: &AddHintsOutcome) -> Vec<String> {
    let slices = outcome.slices.to_create.iter().chain(&outcome.slices.to_update);
    slices
        .flat_map(|s| &s.endpoints)
        .map(|e| {
            let hint =
                e.hints.as_ref().and_then(|h| h.for_zones.as_ref()).map_or("-".to_string(), |z| z.concat());
            format!("{}>{hint}", e.zone.as_deref().unwrap_or(""))
        })
        .collect()
}

fn run(cpu: &[(&str, i64)], zones: &[&str]) -> AddHintsOutcome {
    add_hints(&cpu_ratios(cpu), create(vec![endpoints(zones)]))
}

/// The next sync in steady state: every written slice comes back as Unchanged.
fn resync(cpu: &[(&str, i64)], outcome: &AddHintsOutcome) -> AddHintsOutcome {
    let slices = &outcome.slices;
    let unchanged =
        slices.to_create.iter().chain(&slices.to_update).chain(&slices.unchanged).cloned().collect();
    add_hints(&cpu_ratios(cpu), SliceInfo { address_type: "IPv4".into(), unchanged, ..SliceInfo::default() })
}

const ENABLED: &str = "Topology Aware Hints has been enabled, addressType: IPv4";
const W1_CPU: &[(&str, i64)] = &[("a", 12000), ("b", 4000)];

#[test]
fn w1_docs_a_twelve_to_four_cpu() {
    // Go oracle: "W1 a2b2 … slices=[a>a a>a b>a b>b]", "W1 a4 … [a>b a>a a>a a>a]", "W1 b4 … [b>a b>a b>a b>b]".
    let cases: [(&[&str], &[&str]); 4] = [
        (&["a", "a", "b", "b"], &["a>a", "a>a", "b>a", "b>b"]),
        (&["a", "a", "a", "a"], &["a>b", "a>a", "a>a", "a>a"]),
        (&["b", "b", "b", "b"], &["b>a", "b>a", "b>a", "b>b"]),
        (&["a", "a", "a", "b"], &["a>a", "a>a", "a>a", "b>b"]),
    ];
    for (zones, hints) in cases {
        let outcome = run(W1_CPU, zones);
        assert_eq!(written(&outcome), hints, "{zones:?}");
        assert_eq!(outcome.counts, counts(&[("a", 3), ("b", 1)]), "{zones:?}");
        assert_eq!(outcome.alternatives, vec![outcome.counts.clone()], "{zones:?}");
        assert_eq!((outcome.event.event_type.as_str(), outcome.event.message.as_str()), ("Normal", ENABLED));
    }
    let allocations = run(W1_CPU, &["a", "a", "b", "b"]).allocations.unwrap();
    assert_eq!((allocations["a"].minimum, allocations["a"].maximum, allocations["a"].desired), (3, 3, 3.0));
    assert_eq!((allocations["b"].minimum, allocations["b"].maximum, allocations["b"].desired), (1, 1, 1.0));
}

#[test]
fn w2_three_equal_zones_four_endpoints_refused() {
    let outcome = run(&[("a", 1000), ("b", 1000), ("c", 1000)], &["a", "b", "c", "a"]);
    assert_eq!(
        outcome.disabled,
        Some(Disabled::OverloadThreshold { endpoints: 4, zones: 3, minimum_total: 6 })
    );
    assert_eq!(
        outcome.event.message,
        "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold \
         (4 endpoints, 3 zones), addressType: IPv4"
    );
    assert_eq!(outcome.event.event_type, "Warning");
    assert_eq!(written(&outcome), ["a>-", "b>-", "c>-", "a>-"]);
}

#[test]
fn w4_two_to_one_cpu() {
    let cpu = &[("a", 2000), ("b", 1000)];
    let outcome = run(cpu, &["a", "b"]);
    assert_eq!(
        outcome.disabled,
        Some(Disabled::OverloadThreshold { endpoints: 2, zones: 2, minimum_total: 3 })
    );
    // Go oracle: "W4-3 … counts=a2 b1 slices=[a>a b>a b>b]".
    let outcome = run(cpu, &["a", "b", "b"]);
    assert_eq!(written(&outcome), ["a>a", "b>a", "b>b"]);
    assert_eq!(outcome.counts, counts(&[("a", 2), ("b", 1)]));
}

#[test]
fn w5_single_zone_means_insufficient_node_info() {
    let nodes =
        [node("w1").zone("a").cpu_millis(1000).ready(), node("w2").zone("a").cpu_millis(1000).ready()];
    let topology = set_nodes(&nodes);
    assert_eq!(topology.insufficient, Some(Insufficient::FewerThanTwoZones { zones: 1 }));
    let outcome = add_hints(&topology.ratios, create(vec![endpoints(&["a", "a"])]));
    assert_eq!(outcome.disabled, Some(Disabled::InsufficientNodeInfo));
    let expected = "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes, \
                    addressType: IPv4";
    assert_eq!(outcome.event.message, expected);
    // A zone-less control-plane node next to two zones is ignored.
    let nodes =
        [nodes[0].clone(), node("w3").zone("b").cpu_millis(1000).ready(), node("cp").control_plane().ready()];
    assert!(set_nodes(&nodes).insufficient.is_none());
}

#[test]
fn w7_control_plane_only_zone_is_a_hint_sink() {
    let cpu = &[("a", 4000), ("b", 4000)];
    let outcome = run(cpu, &["a", "a", "x", "x"]);
    assert_eq!(written(&outcome), ["a>a", "a>a", "x>x", "x>x"]);
    assert_eq!(outcome.counts, counts(&[("a", 2), ("x", 2)]));
    assert_eq!((outcome.give.clone(), outcome.take.clone()), (counts(&[]), counts(&[])));
    // Next sync: hints for x ∉ Z fail Step B, the slice is rewritten identically, every time.
    let next = resync(cpu, &outcome);
    assert_eq!(next.rejected_unchanged, ["s"]);
    assert_eq!(written(&next), written(&outcome));
}

#[test]
fn w8_tie_gives_two_outcomes() {
    // Go oracle (400 runs): 269× "a7 b4 c3 … [a>b …]" and 131× "a7 b3 c4 … [a>c …]".
    let zones = ["a", "a", "a", "a", "a", "a", "a", "a", "b", "b", "b", "c", "c", "c"];
    let outcome = run(&[("a", 2000), ("b", 1000), ("c", 1000)], &zones);
    assert_eq!(outcome.counts, counts(&[("a", 7), ("b", 4), ("c", 3)]));
    assert_eq!(written(&outcome)[0], "a>b");
    let both = vec![counts(&[("a", 7), ("b", 3), ("c", 4)]), counts(&[("a", 7), ("b", 4), ("c", 3)])];
    assert_eq!((outcome.alternatives, outcome.alternatives_truncated), (both, false));
}

#[test]
fn w9_written_hints_violate_bounds_and_are_rewritten_every_sync() {
    let cpu = &[("a", 2000), ("b", 3000)];
    let outcome = run(cpu, &["a", "a", "b", "b", "b", "b"]);
    assert_eq!(written(&outcome), ["a>a", "a>a", "b>b", "b>b", "b>b", "b>b"]);
    assert_eq!(outcome.counts, counts(&[("a", 2), ("b", 4)]));
    let allocations = outcome.allocations.clone().unwrap();
    assert!(outcome.counts["a"] < allocations["a"].minimum && outcome.counts["b"] > allocations["b"].maximum);
    let next = resync(cpu, &outcome);
    assert_eq!(next.rejected_unchanged, ["s"]);
    assert_eq!(written(&next), written(&outcome));
}

#[test]
fn w10_same_violation_without_float_effect() {
    let cpu = &[("a", 1000), ("b", 4000)];
    let outcome = run(cpu, &["a", "b", "b", "b", "b", "b", "b"]);
    assert_eq!(outcome.counts, counts(&[("a", 1), ("b", 6)]));
    let allocations = outcome.allocations.clone().unwrap();
    assert_eq!((allocations["a"].minimum, allocations["a"].maximum), (2, 2));
    assert_eq!((allocations["b"].minimum, allocations["b"].maximum), (5, 5));
    assert!(outcome.give.is_empty() && outcome.take.is_empty());
    assert_eq!(resync(cpu, &outcome).rejected_unchanged, ["s"]);
}

#[test]
fn w11_floating_point_refuses_hints() {
    let outcome = run(&[("a", 1000), ("b", 4000)], &["a", "b", "b", "b", "b", "b"]);
    assert_eq!(
        outcome.disabled,
        Some(Disabled::OverloadThreshold { endpoints: 6, zones: 2, minimum_total: 7 })
    );
    let outcome = run(&[("a", 2000), ("b", 3000)], &["a", "b", "b"]);
    assert_eq!(
        outcome.disabled,
        Some(Disabled::OverloadThreshold { endpoints: 3, zones: 2, minimum_total: 4 })
    );
    assert!(outcome.event.message.ends_with("(3 endpoints, 2 zones), addressType: IPv4"));
}

#[test]
fn w12_all_endpoints_in_one_zone() {
    // Go oracle: "[c>a c>b c>c]" or "[c>b c>a c>c]", counts always a1 b1 c1.
    let outcome = run(&[("a", 1000), ("b", 1000), ("c", 1000)], &["c", "c", "c"]);
    assert_eq!(written(&outcome), ["c>a", "c>b", "c>c"]);
    assert_eq!(outcome.alternatives, vec![counts(&[("a", 1), ("b", 1), ("c", 1)])]);
}

#[test]
fn w13_stable_imbalance_is_kept() {
    let cpu = &[("a", 1000), ("b", 1000), ("c", 1000)];
    let hinted = |name: &str, zone: &str, n: usize| {
        (0..n).fold(slice(name), |s, i| s.ep(ep(&format!("10.{name}.{i}")).zone(zone).ready().hint(zone)))
    };
    let unchanged = vec![hinted("sa", "a", 12), hinted("sb", "b", 9), hinted("sc", "c", 9)];
    let si = SliceInfo { address_type: "IPv4".into(), unchanged: unchanged.clone(), ..SliceInfo::default() };
    let outcome = add_hints(&cpu_ratios(cpu), si);
    // Go oracle: "create/update=0/0 unchanged=3 counts=a12 b9 c9".
    assert_eq!(outcome.slices.unchanged, unchanged);
    assert!(outcome.slices.to_create.is_empty() && outcome.slices.to_update.is_empty());
    assert!(outcome.rejected_unchanged.is_empty());
    assert_eq!(outcome.counts, counts(&[("a", 12), ("b", 9), ("c", 9)]));
    // The same endpoints computed fresh give 10/10/10 (two a-endpoints moved).
    let mut zones = vec!["a"; 12];
    zones.extend(["b"; 9].iter().chain(&["c"; 9]));
    assert_eq!(run(cpu, &zones).counts, counts(&[("a", 10), ("b", 10), ("c", 10)]));
}

#[test]
fn reconciler_tables_at_unit_level() {
    // TestReconcileTopology "more slices and endpoints" (endpointslice `reconciler_test.go`): 3 zones × 10 nodes of 100m,
    // slices zone-a-c (2a + 2c) and zone-a-b (2a + 3b) → a3 b3 c3 with one cross-zone hint.
    let nodes: Vec<(&str, i64)> =
        ["a", "b", "c"].iter().flat_map(|z| std::iter::repeat_n((*z, 100), 10)).collect();
    let si = create(vec![endpoints(&["a", "a", "c", "c"]), endpoints(&["a", "a", "b", "b", "b"])]);
    let outcome = add_hints(&cpu_ratios(&nodes), si);
    assert_eq!(outcome.counts, counts(&[("a", 3), ("b", 3), ("c", 3)]));
    let cross_zone = written(&outcome).iter().filter(|h| h[..1] != h[2..]).count();
    assert_eq!(cross_zone, 1);
    // "ratio beyond threshold": zone-a-c alone (4 endpoints, 3 zones) → no hints (W2).
    let outcome = add_hints(&cpu_ratios(&nodes), create(vec![endpoints(&["a", "a", "c", "c"])]));
    assert!(matches!(outcome.disabled, Some(Disabled::OverloadThreshold { endpoints: 4, zones: 3, .. })));
    // TestReconcile_TrafficDistribution "PreferClose, Auto": a1 b3 c2, equal CPU → a2 b2 c2, 1 cross-zone.
    let outcome = run(&[("a", 100), ("b", 100), ("c", 100)], &["a", "b", "b", "b", "c", "c"]);
    assert_eq!(written(&outcome), ["a>a", "b>a", "b>b", "b>b", "c>c", "c>c"]);
}
