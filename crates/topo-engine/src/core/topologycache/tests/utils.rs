//! `utils_test.go` and `sliceinfo_test.go` (endpointslice `topologycache/`), plus `getMost`, `getAllocations` and
//! `RemoveHintsFromSlices`, which upstream tests only through `AddHints`.

use std::collections::BTreeMap;

use super::{Pairs, counts, create};
use crate::core::testkit_tc::{EndpointBuild, SliceBuild, ep, slice};
use crate::core::topologycache::{
    Allocation, Allocations, SliceInfo, get_giving_and_receiving_zones, get_hints_by_zone, get_most,
    get_total_ready_endpoints, redistribute_hints, remove_hints_from_slices,
};
use crate::model::{EndpointSlice, Hints};

fn hinted(zone: &str, hint: &str) -> crate::model::Endpoint {
    ep("").zone(zone).ready().hint(hint)
}

#[test]
fn test_redistribute_hints() {
    let cases: Vec<(&str, Vec<EndpointSlice>, Pairs, Pairs, Pairs)> = vec![
        ("empty", vec![], &[], &[], &[]),
        (
            "single endpoint",
            vec![slice("").ep(hinted("zone-a", "zone-a"))],
            &[("zone-a", 1)],
            &[("zone-b", 1)],
            &[("zone-a", -1), ("zone-b", 1)],
        ),
        (
            "endpoints from 1 zone redistributed to 2 other zones",
            vec![
                slice("")
                    .ep(hinted("zone-a", "zone-a"))
                    .ep(hinted("zone-a", "zone-a"))
                    .ep(hinted("zone-a", "zone-a")),
            ],
            &[("zone-a", 2)],
            &[("zone-b", 1), ("zone-c", 1)],
            &[("zone-a", -2), ("zone-b", 1), ("zone-c", 1)],
        ),
    ];
    for (name, mut slices, giving, receiving, expected) in cases {
        let actual = redistribute_hints(slices.iter_mut(), counts(giving), counts(receiving));
        assert_eq!(actual, counts(expected), "{name}");
    }
}

#[test]
fn redistribute_hints_rewrites_moved_endpoints_in_order() {
    let mut slices = [slice("").ep(hinted("a", "a")).ep(ep("").zone("a").unready()).ep(hinted("a", "a"))];
    redistribute_hints(slices.iter_mut(), counts(&[("a", 1)]), counts(&[("c", 1)]));
    let hints: Vec<_> = slices[0].endpoints.iter().map(|e| e.hints.clone()).collect();
    assert_eq!(hints, vec![Some(Hints::zone("c")), None, Some(Hints::zone("a"))]);
}

fn desired(pairs: &[(&str, f64)]) -> Allocations {
    pairs
        .iter()
        .map(|(zone, d)| (zone.to_string(), Allocation { desired: *d, ..Allocation::default() }))
        .collect()
}

#[test]
fn test_get_giving_and_receiving_zones() {
    let abc = |a, b, c| desired(&[("zone-a", a), ("zone-b", b), ("zone-c", c)]);
    let cases: Vec<(&str, Allocations, Pairs, Pairs, Pairs)> = vec![
        ("empty", desired(&[]), &[], &[], &[]),
        (
            "simple allocation with no need for rebalancing",
            abc(1.2, 1.1, 1.0),
            &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)],
            &[],
            &[],
        ),
        (
            "preference for same zone even when giving an extra endpoint would result in slightly better distribution",
            abc(5.1, 5.1, 5.8),
            &[("zone-a", 16)],
            &[("zone-a", 10)],
            &[("zone-b", 5), ("zone-c", 5)],
        ),
        (
            "when 2 zones need < 1 endpoint, give to zone that needs endpoint most",
            abc(5.0, 5.6, 5.4),
            &[("zone-a", 16)],
            &[("zone-a", 11)],
            &[("zone-b", 6), ("zone-c", 5)],
        ),
        (
            "when 2 zones have extra endpoints, give from zone with most extra",
            abc(5.0, 5.6, 5.4),
            &[("zone-b", 8), ("zone-c", 8)],
            &[("zone-b", 2), ("zone-c", 3)],
            &[("zone-a", 5)],
        ),
        (
            "ensure function can handle unexpected data (more allocated than allocations)",
            abc(5.0, 5.0, 5.0),
            &[("zone-a", 6), ("zone-b", 6), ("zone-c", 6)],
            &[],
            &[],
        ),
        (
            "ensure function can handle unexpected data (negative allocations)",
            abc(-5.0, -5.0, -5.0),
            &[("zone-a", 6), ("zone-b", 6), ("zone-c", 6)],
            &[],
            &[],
        ),
        (
            "ensure function can handle unexpected data (negative allocated)",
            abc(5.0, 5.0, 5.0),
            &[("zone-a", -4), ("zone-b", -3), ("zone-c", -2)],
            &[],
            &[],
        ),
        (
            "ensure function can handle unexpected data (negative for 1 zone)",
            abc(5.0, 5.0, 5.0),
            &[("zone-a", -40), ("zone-b", 20), ("zone-c", 20)],
            &[("zone-b", 15), ("zone-c", 15)],
            &[("zone-a", 30)],
        ),
    ];
    for (name, allocations, allocated, give, take) in cases {
        let actual = get_giving_and_receiving_zones(&allocations, &counts(allocated));
        assert_eq!(actual, (counts(give), counts(take)), "{name}");
    }
}

#[test]
fn stop_rule_boundaries() {
    // Not in upstream's table: exactly 0.5 is not "< 0.5", so one side at 0.5 and the other ≥ 1 moves.
    let cases: Vec<(&str, Allocations, Pairs, Pairs, Pairs)> = vec![
        (
            "surplus 0.5, deficit 1.5",
            desired(&[("a", 2.5), ("b", 1.5)]),
            &[("a", 3)],
            &[("a", 1)],
            &[("b", 1)],
        ),
        (
            "surplus 1.0, deficit 0.5",
            desired(&[("a", 1.0), ("b", 0.5)]),
            &[("a", 2)],
            &[("a", 1)],
            &[("b", 1)],
        ),
        ("both 0.75", desired(&[("a", 1.25), ("b", 0.75)]), &[("a", 2)], &[], &[]),
        ("surplus 0.4, deficit 3", desired(&[("a", 1.6), ("b", 3.0)]), &[("a", 2)], &[], &[]),
    ];
    for (name, allocations, allocated, give, take) in cases {
        let actual = get_giving_and_receiving_zones(&allocations, &counts(allocated));
        assert_eq!(actual, (counts(give), counts(take)), "{name}");
    }
}

fn maximum(pairs: &[(&str, i64)]) -> Allocations {
    pairs
        .iter()
        .map(|(zone, m)| (zone.to_string(), Allocation { maximum: *m, ..Allocation::default() }))
        .collect()
}

#[test]
fn test_get_hints_by_zone() {
    const THREE: Pairs = &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)];
    let empty_list =
        ep("").zone("zone-a").ready().hints(Some(Hints { for_zones: Some(vec![].into()), for_nodes: None }));
    let cases: Vec<(&str, EndpointSlice, Pairs, Pairs, Option<Pairs>)> = vec![
        ("empty", slice(""), &[], &[], Some(&[])),
        (
            "single zone hint",
            slice("").ep(hinted("zone-a", "zone-a")),
            &[("zone-a", 1)],
            &[("zone-a", 3)],
            Some(&[("zone-a", 1)]),
        ),
        (
            "single zone hint with 1 unready endpoint and 1 unknown endpoint",
            slice("")
                .ep(hinted("zone-a", "zone-a"))
                .ep(ep("").zone("zone-a").unready().hint("zone-a"))
                .ep(ep("").zone("zone-a").hint("zone-a")),
            &[("zone-a", 1)],
            &[("zone-a", 3)],
            Some(&[("zone-a", 1)]),
        ),
        (
            "multiple zone hints",
            slice("")
                .ep(hinted("zone-a", "zone-a"))
                .ep(hinted("zone-a", "zone-b"))
                .ep(hinted("zone-b", "zone-b")),
            THREE,
            &[("zone-a", 3), ("zone-b", 3), ("zone-c", 3)],
            Some(&[("zone-a", 1), ("zone-b", 2)]),
        ),
        (
            "invalid by zones that no longer requires any allocations",
            slice("").ep(hinted("zone-a", "zone-non-existent")),
            THREE,
            &[("zone-a", 3)],
            None,
        ),
        (
            "invalid by endpoints with nil hints",
            slice("").ep(ep("").zone("zone-a").ready()),
            &[],
            &[("zone-a", 3)],
            None,
        ),
        ("invalid by endpoint with no hints", slice("").ep(empty_list), &[], &[("zone-a", 3)], None),
        (
            "invalid by hints that would make minimum allocations impossible",
            slice("").ep(hinted("zone-a", "zone-a")).ep(hinted("zone-a", "zone-a")),
            &[("zone-a", 1)],
            &[("zone-a", 2)],
            None,
        ),
    ];
    for (name, slice, allocated, allocations, expected) in cases {
        let actual = get_hints_by_zone(&slice, &counts(allocated), &maximum(allocations));
        assert_eq!(actual, expected.map(counts), "{name}");
    }
}

#[test]
fn get_hints_by_zone_counts_every_zone_name_and_ignores_for_nodes() {
    let multi = Hints {
        for_zones: Some(vec!["a".into(), "b".into(), "a".into()].into()),
        for_nodes: Some(vec!["n".into()].into()),
    };
    let hints_without_zones = Hints { for_zones: None, for_nodes: Some(vec!["n".into()].into()) };
    let allocations = maximum(&[("a", 5), ("b", 5)]);
    let s = slice("").ep(ep("").zone("a").ready().hints(Some(multi)));
    assert_eq!(get_hints_by_zone(&s, &counts(&[]), &allocations), Some(counts(&[("a", 2), ("b", 1)])));
    let s = slice("").ep(ep("").zone("a").ready().hints(Some(hints_without_zones)));
    assert_eq!(get_hints_by_zone(&s, &counts(&[]), &allocations), None);
}

/// `sliceWithNEndpoints(ready, unready)`.
fn slice_with_n_endpoints(ready: usize, unready: usize) -> EndpointSlice {
    let mut s = slice("");
    for i in 0..ready + unready {
        s = s.ep(ep(&format!("10.1.2.{i}")).ready_is(i < ready));
    }
    s
}

#[test]
fn test_get_total_ready_endpoints() {
    let n = slice_with_n_endpoints;
    let cases = vec![
        ("empty", SliceInfo::default(), 0, 0),
        ("empty slice", create(vec![n(0, 0)]), 0, 0),
        ("multiple slices", create(vec![n(15, 0), n(8, 0)]), 23, 23),
        (
            "slices for all",
            SliceInfo {
                to_update: vec![n(2, 0)],
                unchanged: vec![n(100, 0), n(90, 0)],
                ..create(vec![n(15, 0), n(8, 0)])
            },
            215,
            215,
        ),
        (
            "slices for all with some unready",
            SliceInfo {
                to_update: vec![n(3, 8)],
                unchanged: vec![n(98, 2), n(90, 6)],
                ..create(vec![n(15, 3), n(5, 4)])
            },
            211,
            234,
        ),
    ];
    for (name, si, expected_ready, expected_total) in cases {
        let total: usize = [&si.to_create, &si.to_update, &si.unchanged]
            .into_iter()
            .flatten()
            .map(|s| s.endpoints.len())
            .sum();
        assert_eq!(total, expected_total, "{name}: test helper");
        assert_eq!(get_total_ready_endpoints(&si), expected_ready, "{name}");
    }
    // A nil `ready` is not ready for the controller.
    assert_eq!(get_total_ready_endpoints(&create(vec![slice("").ep(ep("x"))])), 0);
}

#[test]
fn get_most_returns_every_tied_maximum() {
    let map = |pairs: &[(&str, f64)]| -> BTreeMap<String, f64> {
        pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
    };
    assert_eq!(get_most(&map(&[])), (vec![], 0.0));
    assert_eq!(get_most(&map(&[("a", 0.0), ("b", -1.0)])), (vec![], 0.0));
    assert_eq!(
        get_most(&map(&[("a", 0.5), ("b", 1.5), ("c", 1.5)])),
        (vec!["b".to_string(), "c".to_string()], 1.5)
    );
    assert_eq!(get_most(&map(&[("b", 0.5), ("a", 0.25)])), (vec!["b".to_string()], 0.5));
}

#[test]
fn remove_hints_from_slices_moves_only_hinted_unchanged() {
    let empty_hints = Some(Hints::default());
    let si = SliceInfo {
        address_type: "IPv4".into(),
        to_create: vec![slice("c").ep(hinted("a", "a")).ep(ep("").unready().hint("b"))],
        to_update: vec![slice("u").ep(hinted("a", "b"))],
        unchanged: vec![
            slice("plain").ep(ep("").zone("a").ready()),
            slice("empty-hints").ep(ep("").zone("a").unready().hints(empty_hints)),
            slice("hinted").ep(ep("").zone("a").ready()).ep(hinted("a", "a")),
            slice("plain2"),
        ],
    };
    let out = remove_hints_from_slices(si);
    let names = |slices: &[EndpointSlice]| slices.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&out.to_update), ["u", "empty-hints", "hinted"]);
    assert_eq!(names(&out.unchanged), ["plain", "plain2"]);
    let written = out.to_create.iter().chain(&out.to_update);
    assert!(written.flat_map(|s| &s.endpoints).all(|e| e.hints.is_none()));
}
