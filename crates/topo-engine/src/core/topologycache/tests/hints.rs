//! TestAddHints (`topologycache/topologycache_test.go`) and AddHints paths upstream does not test.

use super::{counts, create};
use crate::core::testkit_tc::{EndpointBuild, SliceBuild, ep, ratios, slice};
use crate::core::topologycache::{Disabled, SliceInfo, ZoneCounts, add_hints};
use crate::core::zones::Ratios;
use crate::model::{EndpointSlice, Hints};

struct AddHintsCase {
    name: &'static str,
    ratios: Ratios,
    slice_info: SliceInfo,
    expected_to_create: Vec<EndpointSlice>,
    expected_to_update: Vec<EndpointSlice>,
    /// Cached counts; `None` = nothing cached (hints removed).
    expected_counts: Option<ZoneCounts>,
    expected_event: (&'static str, &'static str, &'static str),
}

const DISABLED: &str = "TopologyAwareHintsDisabled";
const ENABLED: &str = "TopologyAwareHintsEnabled";

fn two_endpoints(hint: bool) -> EndpointSlice {
    let a = ep("10.1.2.3").zone("zone-a").ready();
    let b = ep("10.1.2.4").zone("zone-b").ready();
    if hint { slice("").ep(a.hint("zone-a")).ep(b.hint("zone-b")) } else { slice("").ep(a).ep(b) }
}

fn three_zone_case() -> AddHintsCase {
    let e = |address: &str, zone: &str| ep(address).zone(zone).ready();
    let h = |address: &str, zone: &str, hint: &str| e(address, zone).hint(hint);
    AddHintsCase {
        name: "slices to create and update within 3 zone threshold",
        ratios: ratios(&[("zone-a", 0.35), ("zone-b", 0.35), ("zone-c", 0.30)]),
        slice_info: SliceInfo {
            address_type: "IPv4".into(),
            to_create: vec![
                slice("").ep(e("10.1.2.3", "zone-a")).ep(e("10.1.2.4", "zone-b")),
                slice("").ep(e("10.1.3.3", "zone-c")).ep(e("10.1.3.4", "zone-c")).ep(e("10.1.3.4", "zone-a")),
            ],
            to_update: vec![
                slice("").ep(e("10.2.2.3", "zone-a")).ep(e("10.2.2.4", "zone-a")),
                slice("").ep(e("10.2.3.3", "zone-b")).ep(e("10.2.3.4", "zone-c")).ep(e("10.2.3.4", "zone-a")),
            ],
            unchanged: vec![],
        },
        expected_to_create: vec![
            slice("").ep(h("10.1.2.3", "zone-a", "zone-b")).ep(h("10.1.2.4", "zone-b", "zone-b")),
            slice("")
                .ep(h("10.1.3.3", "zone-c", "zone-c"))
                .ep(h("10.1.3.4", "zone-c", "zone-c"))
                .ep(h("10.1.3.4", "zone-a", "zone-a")),
        ],
        expected_to_update: vec![
            slice("").ep(h("10.2.2.3", "zone-a", "zone-a")).ep(h("10.2.2.4", "zone-a", "zone-a")),
            slice("")
                .ep(h("10.2.3.3", "zone-b", "zone-b"))
                .ep(h("10.2.3.4", "zone-c", "zone-c"))
                .ep(h("10.2.3.4", "zone-a", "zone-a")),
        ],
        expected_counts: Some(counts(&[("zone-a", 4), ("zone-b", 3), ("zone-c", 3)])),
        expected_event: ("Normal", ENABLED, "Topology Aware Hints has been enabled"),
    }
}

fn add_hints_cases() -> Vec<AddHintsCase> {
    let unready = ep("10.1.2.5").zone("zone-b").unready();
    let unknown = ep("10.1.2.6").zone("zone-b");
    let four = two_endpoints(false).ep(unready.clone()).ep(unknown.clone());
    let four_hinted = two_endpoints(true).ep(unready).ep(unknown);
    let insufficient =
        "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes";
    vec![
        AddHintsCase {
            name: "empty",
            ratios: Ratios::Nil,
            slice_info: SliceInfo { address_type: "IPv4".into(), ..SliceInfo::default() },
            expected_to_create: vec![],
            expected_to_update: vec![],
            expected_counts: None,
            expected_event: ("Warning", DISABLED, insufficient),
        },
        AddHintsCase {
            name: "slice to create, no zone ratios",
            ratios: Ratios::Nil,
            slice_info: create(vec![slice("").ep(ep("10.1.2.3").zone("zone-a").ready())]),
            expected_to_create: vec![slice("").ep(ep("10.1.2.3").zone("zone-a").ready())],
            expected_to_update: vec![],
            expected_counts: None,
            expected_event: ("Warning", DISABLED, insufficient),
        },
        AddHintsCase {
            name: "slice to create with 2 endpoints, zone ratios require 3",
            ratios: ratios(&[("zone-a", 0.3), ("zone-b", 0.4), ("zone-c", 0.3)]),
            slice_info: create(vec![two_endpoints(false)]),
            expected_to_create: vec![two_endpoints(false)],
            expected_to_update: vec![],
            expected_counts: None,
            expected_event: ("Warning", DISABLED, "Insufficient number of endpoints"),
        },
        AddHintsCase {
            name: "slice to create with 2 endpoints, zone ratios only require 2",
            ratios: ratios(&[("zone-a", 0.45), ("zone-b", 0.55)]),
            slice_info: create(vec![two_endpoints(false)]),
            expected_to_create: vec![two_endpoints(true)],
            expected_to_update: vec![],
            expected_counts: Some(counts(&[("zone-a", 1), ("zone-b", 1)])),
            expected_event: ("Normal", ENABLED, "Topology Aware Hints has been enabled"),
        },
        AddHintsCase {
            name: "slice to create with 2 ready, 1 unready, 1 unknown endpoints, zone ratios only require 2",
            ratios: ratios(&[("zone-a", 0.45), ("zone-b", 0.55)]),
            slice_info: create(vec![four]),
            expected_to_create: vec![four_hinted],
            expected_to_update: vec![],
            expected_counts: Some(counts(&[("zone-a", 1), ("zone-b", 1)])),
            expected_event: ("Normal", ENABLED, "Topology Aware Hints has been enabled"),
        },
        three_zone_case(),
    ]
}

#[test]
fn test_add_hints() {
    for case in add_hints_cases() {
        let outcome = add_hints(&case.ratios, case.slice_info);
        let name = case.name;
        assert_eq!(outcome.slices.to_create, case.expected_to_create, "{name}: to_create");
        assert_eq!(outcome.slices.to_update, case.expected_to_update, "{name}: to_update");
        let cached = outcome.disabled.is_none().then_some(outcome.counts);
        assert_eq!(cached, case.expected_counts, "{name}: cached counts");
        let (event_type, reason, prefix) = case.expected_event;
        assert_eq!(outcome.event.event_type, event_type, "{name}");
        assert_eq!(outcome.event.reason, reason, "{name}");
        assert!(outcome.event.message.starts_with(prefix), "{name}: {}", outcome.event.message);
        assert!(outcome.event.message.ends_with(", addressType: IPv4"), "{name}: {}", outcome.event.message);
    }
}

#[test]
fn event_messages_are_upstream_texts_with_numbers() {
    let outcome =
        add_hints(&ratios(&[("a", 0.3), ("b", 0.4), ("c", 0.3)]), create(vec![two_endpoints(false)]));
    assert_eq!(
        outcome.event.message,
        "Insufficient number of endpoints (2 endpoints, 3 zones), addressType: IPv4"
    );
    assert_eq!(outcome.disabled, Some(Disabled::InsufficientEndpoints { endpoints: 2, zones: 3 }));
    let outcome = add_hints(&Ratios::initial(), create(vec![two_endpoints(false)]));
    assert_eq!(outcome.event.message, "Nodes only ready in one zone, addressType: IPv4");
    assert_eq!(outcome.disabled, Some(Disabled::OneZone));
}

#[test]
fn endpoint_without_zone_removes_all_hints() {
    // W6: ready zone-less endpoints in a slice being written. n = 7, ratios .5/.5 → max 4 each.
    let si = SliceInfo {
        address_type: "IPv6".into(),
        to_create: vec![
            slice("new")
                .ep(ep("10.0.0.1").zone("a").ready())
                .ep(ep("10.0.0.2").ready())
                .ep(ep("10.0.0.3").zone("").ready())
                .ep(ep("10.0.0.4").unready())
                .ep(ep("10.0.0.6").zone("b").ready()),
        ],
        to_update: vec![slice("upd").ep(ep("10.0.0.5").zone("b").ready().hint("a"))],
        unchanged: vec![
            slice("kept").ep(ep("10.0.1.1").zone("a").ready().hint("a")),
            slice("nohint").ep(ep("10.0.1.2").zone("b").ready()),
            slice("plain").ep(ep("10.0.1.3").zone("b").unready()),
        ],
    };
    let outcome = add_hints(&ratios(&[("a", 0.5), ("b", 0.5)]), si);
    let addresses = vec!["10.0.0.2".to_string(), "10.0.0.3".to_string()];
    assert_eq!(outcome.disabled, Some(Disabled::NoZoneSpecified { addresses }));
    assert_eq!(
        outcome.event.message,
        "One or more endpoints do not have a zone specified, addressType: IPv6"
    );
    // Step B ran first: "nohint" (ready, no hints) was rejected, "kept" and "plain" passed. Then the
    // removal moved "kept" (it has hints) and left "plain" (no hints at all).
    assert_eq!(outcome.rejected_unchanged, vec!["nohint".to_string()]);
    assert_eq!(outcome.removal.unwrap().moved_unchanged, vec!["kept".to_string()]);
    let names: Vec<&str> = outcome.slices.to_update.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["upd", "nohint", "kept"]);
    assert_eq!(outcome.slices.unchanged.len(), 1);
    assert_eq!(outcome.slices.unchanged[0].name, "plain");
    let all = outcome.slices.to_create.iter().chain(&outcome.slices.to_update);
    assert!(all.flat_map(|s| &s.endpoints).all(|e| e.hints.is_none()));
    assert!(outcome.counts.is_empty() && outcome.alternatives.is_empty());
}

#[test]
fn rewritten_endpoints_get_exactly_one_zone_and_unready_keep_theirs() {
    // Step C replaces hints wholesale (drops forNodes); non-ready endpoints are not touched.
    let node_hinted = Hints {
        for_zones: Some(vec!["x".into(), "a".into()].into()),
        for_nodes: Some(vec!["n1".into()].into()),
    };
    let stale = Some(Hints::zone("b"));
    let si = create(vec![
        slice("s")
            .ep(ep("10.0.0.1").zone("a").ready().hints(Some(node_hinted)))
            .ep(ep("10.0.0.2").zone("b").ready())
            .ep(ep("10.0.0.3").zone("a").unready().hints(stale.clone())),
    ]);
    let outcome = add_hints(&ratios(&[("a", 0.5), ("b", 0.5)]), si);
    let endpoints = &outcome.slices.to_create[0].endpoints;
    assert_eq!(endpoints[0].hints, Some(Hints::zone("a")));
    assert_eq!(endpoints[1].hints, Some(Hints::zone("b")));
    assert_eq!(endpoints[2].hints, stale);
}

#[test]
fn rejected_unchanged_slice_is_rewritten_with_current_hints_as_start() {
    // "bad" hints a zone outside the ratios → rejected in Step B, moved to ToUpdate and rewritten.
    // n = 4, ratios .5/.5 → desired 2, min 2, max 2 per zone.
    let si = SliceInfo {
        address_type: "IPv4".into(),
        to_create: vec![],
        to_update: vec![slice("upd").ep(ep("10.0.0.1").zone("a").ready())],
        unchanged: vec![
            slice("bad").ep(ep("10.0.0.2").zone("b").ready().hint("gone")),
            slice("good")
                .ep(ep("10.0.0.3").zone("b").ready().hint("b"))
                .ep(ep("10.0.0.4").zone("b").ready().hint("b")),
        ],
    };
    let outcome = add_hints(&ratios(&[("a", 0.5), ("b", 0.5)]), si);
    assert_eq!(outcome.rejected_unchanged, vec!["bad".to_string()]);
    let names: Vec<&str> = outcome.slices.to_update.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["upd", "bad"]);
    assert_eq!(outcome.slices.unchanged[0].name, "good");
    // Step C: a:1 (upd), b:1 (bad) on top of b:2 kept → b surplus 1, a deficit 1 → "bad"'s endpoint
    // (the only movable b endpoint) is hinted a.
    assert_eq!(outcome.slices.to_update[1].endpoints[0].hints, Some(Hints::zone("a")));
    assert_eq!(outcome.counts, counts(&[("a", 2), ("b", 2)]));
    assert_eq!((outcome.give, outcome.take), (counts(&[("b", 1)]), counts(&[("a", 1)])));
    assert!(outcome.removal.is_none());
}

#[test]
fn surplus_held_by_kept_slices_is_not_redistributed() {
    // Step E only moves endpoints of slices being written. Equal thirds, n = 30: min 9, max 12.
    // Kept a:12 passes Step B; Step C adds b:9, c:9; Step D asks a to give 2, but no a endpoint
    // is movable, so the counts stay a12 b9 c9 on every branch.
    let mut kept = slice("kept");
    for i in 0..12 {
        kept = kept.ep(ep(&format!("10.0.0.{i}")).zone("a").ready().hint("a"));
    }
    let mut new = slice("new");
    for i in 0..18 {
        new = new.ep(ep(&format!("10.0.1.{i}")).zone(if i < 9 { "b" } else { "c" }).ready());
    }
    let si = SliceInfo { unchanged: vec![kept], ..create(vec![new]) };
    let third = 1000.0 / 3000.0;
    let outcome = add_hints(&ratios(&[("a", third), ("b", third), ("c", third)]), si);
    assert!(outcome.rejected_unchanged.is_empty());
    assert_eq!((outcome.give, outcome.take), (counts(&[("a", 2)]), counts(&[("b", 1), ("c", 1)])));
    assert_eq!(outcome.counts, counts(&[("a", 12), ("b", 9), ("c", 9)]));
    assert_eq!(outcome.alternatives, vec![outcome.counts.clone()]);
    let endpoints = &outcome.slices.to_create[0].endpoints;
    assert!(endpoints.iter().all(|e| e.hints == Some(Hints::zone(e.zone.as_deref().unwrap()))));
}
