use std::collections::BTreeMap;

use crate::core::analyze::replicas::{hints_hold, minimum_by_zone, ranges, replicas_needed};
use crate::core::zones::Ratios;
use crate::report::{CountRange, SpreadBasis};

fn map<T: Copy>(pairs: &[(&str, T)]) -> BTreeMap<String, T> {
    pairs.iter().map(|(z, v)| (z.to_string(), *v)).collect()
}

fn ratios(pairs: &[(&str, f64)]) -> Ratios {
    Ratios::Map(map(pairs))
}

fn thirds() -> Ratios {
    let third = 1.0 / 3.0;
    ratios(&[("a", third), ("b", third), ("c", third)])
}

#[test]
fn ranges_fold_consecutive_counts() {
    let r = ranges([1, 2, 3, 5, 7, 8].into_iter());
    let want = [(1, 3), (5, 5), (7, 8)].map(|(from, to)| CountRange { from, to });
    assert_eq!(r, want);
    assert!(ranges(std::iter::empty()).is_empty());
}

#[test]
fn three_equal_zones_hold_at_3_6_7_9_10_and_from_12() {
    let weights = map(&[("a", 1), ("b", 1), ("c", 1)]);
    let holding: Vec<i64> = (1..=13).filter(|&n| hints_hold(&thirds(), &weights, n)).collect();
    assert_eq!(holding, vec![3, 6, 7, 9, 10, 12, 13]);
    let r = replicas_needed(&thirds(), &weights, SpreadBasis::AsToday, 4);
    assert_eq!(r.nearest, Some(6));
    assert!(r.beyond_limit);
    assert_eq!(r.minimum_by_zone, map(&[("a", 2), ("b", 2), ("c", 2)]));
}

#[test]
fn minimums_follow_go_floating_point() {
    // W11: CPU 1:4, 6 endpoints → 1.2000000000000002·K → 2 (exact math: 1); 4.8·K = 4.000000000000001 → 5.
    assert_eq!(minimum_by_zone(&ratios(&[("a", 0.2), ("b", 0.8)]), 6), map(&[("a", 2), ("b", 5)]));
    assert!(minimum_by_zone(&Ratios::Nil, 6).is_empty());
}

#[test]
fn endpoints_without_zone_block_once_the_spread_places_one() {
    // Today a:5 b:5 and one without zone: at 2, 4 and 6 the zone-less share rounds away; from 11 on
    // floor(n/11) ≥ 1 always places one, so no larger count works.
    let weights = map(&[("a", 5), ("b", 5), ("", 1)]);
    let half = ratios(&[("a", 0.5), ("b", 0.5)]);
    let r = replicas_needed(&half, &weights, SpreadBasis::AsToday, 7);
    assert_eq!(r.working, ranges([2, 4, 6].into_iter()));
    assert_eq!((r.nearest, r.beyond_limit), (None, false));
}

#[test]
fn nothing_works_without_ratios_and_the_search_goes_past_100() {
    let weights = map(&[("a", 1), ("b", 1)]);
    let r = replicas_needed(&Ratios::Nil, &weights, SpreadBasis::AsToday, 3);
    assert_eq!((r.nearest, r.working.is_empty()), (None, true));
    let r = replicas_needed(&ratios(&[("a", 0.5), ("b", 0.5)]), &weights, SpreadBasis::AsToday, 150);
    assert_eq!(r.nearest, Some(150));
    // No endpoints at all: nothing can be placed.
    assert!(!hints_hold(&thirds(), &BTreeMap::new(), 3));
}

/// The definition `hints_hold` answers without building anything: `getAllocations` succeeds and
/// the spread places `n` endpoints, none without a zone.
fn hints_hold_by_definition(ratios: &Ratios, weights: &BTreeMap<String, i64>, n: i64) -> bool {
    let placed = crate::core::analyze::spread::spread(weights, n);
    crate::core::topologycache::get_allocations(ratios, n).is_ok()
        && placed.values().sum::<i64>() == n
        && placed.get("").copied().unwrap_or(0) == 0
}

#[test]
fn hints_hold_agrees_with_its_definition() {
    let ratio_sets = [
        Ratios::Nil,
        ratios(&[]),
        ratios(&[("a", 1.0)]),
        thirds(),
        ratios(&[("a", 0.2), ("b", 0.8)]),
        ratios(&[("a", 0.1), ("b", 0.45), ("c", 0.45)]),
        ratios(&[("a", 0.6), ("b", 0.3), ("c", 0.05), ("d", 0.05)]),
    ];
    let weight_sets = [
        map(&[]),
        map(&[("a", 0)]),
        map(&[("a", 1), ("b", 1), ("c", 1)]),
        map(&[("a", 5), ("b", 5), ("", 1)]),
        map(&[("", 3)]),
        map(&[("", 0), ("a", 2)]),
        map(&[("", -1), ("a", 2), ("b", -4)]),
        map(&[("a", 7), ("b", 2), ("c", 1), ("", 2)]),
    ];
    let mut held = 0;
    for r in &ratio_sets {
        for w in &weight_sets {
            for n in -1..=250 {
                let expected = hints_hold_by_definition(r, w, n);
                assert_eq!(hints_hold(r, w, n), expected, "{r:?} {w:?} {n}");
                held += usize::from(expected);
            }
        }
    }
    // Both answers occur: the comparison is not of two constants.
    assert!(held > 1000, "{held}");
}
