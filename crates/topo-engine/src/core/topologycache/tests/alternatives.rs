//! Tie enumeration (docs/behaviour.md#steady-state-and-ties): Step D ties (W8 in `worked`) and Step E choices that change counts.

use super::{counts, create};
use crate::core::testkit_tc::{EndpointBuild, SliceBuild, ep, ratios, slice};
use crate::core::topologycache::{
    ALTERNATIVES_LIMIT, Allocation, Allocations, SliceInfo, add_hints, count_alternatives,
    giving_and_receiving_alternatives,
};

#[test]
fn step_e_choice_matters_when_few_endpoints_can_move() {
    // Equal thirds, n = 30 → max 12. Kept a:11; new a:1, b:9, c:9 → acc a12 b9 c9; give a:2,
    // take b:1 c:1, but only one a-endpoint is movable: it goes to b or to c (Go map order).
    let third = 1000.0 / 3000.0;
    let kept =
        (0..11).fold(slice("kept"), |s, i| s.ep(ep(&format!("10.0.0.{i}")).zone("a").ready().hint("a")));
    let new = (0..19).fold(slice("new"), |s, i| {
        let zone = match i {
            0 => "a",
            1..=9 => "b",
            _ => "c",
        };
        s.ep(ep(&format!("10.0.1.{i}")).zone(zone).ready())
    });
    let si = SliceInfo { unchanged: vec![kept], ..create(vec![new]) };
    let outcome = add_hints(&ratios(&[("a", third), ("b", third), ("c", third)]), si);
    assert_eq!(
        (outcome.give.clone(), outcome.take.clone()),
        (counts(&[("a", 2)]), counts(&[("b", 1), ("c", 1)]))
    );
    assert_eq!(outcome.counts, counts(&[("a", 11), ("b", 10), ("c", 9)]));
    let expected = vec![counts(&[("a", 11), ("b", 9), ("c", 10)]), counts(&[("a", 11), ("b", 10), ("c", 9)])];
    assert_eq!((outcome.alternatives, outcome.alternatives_truncated), (expected, false));
}

#[test]
fn step_d_ties_converge_to_one_give_take() {
    // W12-like: deficits a, b tie; either order ends with take a:1, b:1.
    let allocations: Allocations = [("a", 1.0), ("b", 1.0), ("c", 1.0)]
        .iter()
        .map(|(z, d)| (z.to_string(), Allocation { desired: *d, ..Allocation::default() }))
        .collect();
    let (pairs, truncated) = giving_and_receiving_alternatives(&allocations, &counts(&[("c", 3)]));
    assert_eq!(pairs, vec![(counts(&[("c", 2)]), counts(&[("a", 1), ("b", 1)]))]);
    assert!(!truncated);
}

#[test]
fn enumeration_is_bounded_and_says_so() {
    // Three zones each take 40 from g, only 60 endpoints movable: 1261 splits of 60 into ≤ 40s.
    let mut allocations: Allocations =
        (0..3).map(|i| (format!("r{i}"), Allocation { desired: 40.0, ..Allocation::default() })).collect();
    allocations.insert("g".into(), Allocation::default());
    let g_endpoints = |n: usize| {
        (0..n).fold(slice("s"), |s, i| s.ep(ep(&format!("10.0.{}.{}", i / 200, i % 200)).zone("g").ready()))
    };
    let movable = g_endpoints(60);
    let (outcomes, truncated) = count_alternatives(&allocations, &counts(&[("g", 120)]), &[&movable]);
    assert!(truncated);
    assert_eq!(outcomes.len(), ALTERNATIVES_LIMIT);
    // With all 120 endpoints movable every branch ends the same.
    let movable = g_endpoints(120);
    let (outcomes, truncated) = count_alternatives(&allocations, &counts(&[("g", 120)]), &[&movable]);
    assert_eq!(outcomes, vec![counts(&[("g", 0), ("r0", 40), ("r1", 40), ("r2", 40)])]);
    assert!(!truncated);
}
