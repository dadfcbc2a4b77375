use super::*;
use crate::core::mode::{ModePath, select_mode};
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, ep, service, slice};
use crate::model::ANNOTATION_TOPOLOGY_AWARE_HINTS;

const V36: Behaviour = Behaviour::new(36);

/// 8 ready endpoints (zone + node) as in upstream TestReconcileHints: two create slices
/// (a,b),(a,b) and two update slices (a,a),(b,c).
fn eight() -> TdSlices {
    let e = |i: u8, zone: &str| ep(&format!("10.0.0.{i}")).zone(zone).node(&format!("node-{i}")).ready(true);
    TdSlices {
        address_type: "IPv4".into(),
        to_create: vec![
            slice("c1", vec![e(1, "zone-a"), e(2, "zone-b")]),
            slice("c2", vec![e(3, "zone-a"), e(4, "zone-b")]),
        ],
        to_update: vec![
            slice("u1", vec![e(5, "zone-a"), e(6, "zone-a")]),
            slice("u2", vec![e(7, "zone-b"), e(8, "zone-c")]),
        ],
        unchanged: vec![],
    }
}

fn strip_zones(mut slices: TdSlices) -> TdSlices {
    for s in slices.to_create.iter_mut().chain(slices.to_update.iter_mut()) {
        s.endpoints.iter_mut().for_each(|e| e.zone = None);
    }
    slices
}

fn all(slices: &TdSlices) -> impl Iterator<Item = &Endpoint> {
    slices.to_create.iter().chain(&slices.to_update).chain(&slices.unchanged).flat_map(|s| &s.endpoints)
}

fn own_hints(endpoint: &Endpoint, zone: bool, node: bool) -> Option<Hints> {
    let for_zones = endpoint.zone.clone().filter(|_| zone).map(|z| [z].into());
    let for_nodes = endpoint.node_name.clone().filter(|_| node).map(|n| [n].into());
    (for_zones.is_some() || for_nodes.is_some()).then_some(Hints { for_zones, for_nodes })
}

// upstream trafficdist_test.go: TestReconcileHints, the rows over the 8-endpoint input
#[test]
fn test_reconcile_hints_eight_endpoints() {
    let cases = [
        ("should set zone hints with PreferClose", Some("PreferClose"), false, true, false),
        ("should set zone hints with PreferSameZone", Some("PreferSameZone"), false, true, false),
        ("should set zone and node hints with PreferSameNode", Some("PreferSameNode"), false, true, true),
        (
            "should not create hints with PreferClose if there are no zones",
            Some("PreferClose"),
            true,
            false,
            false,
        ),
        (
            "should create only node hints with PreferSameNode if there are no zones",
            Some("PreferSameNode"),
            true,
            false,
            true,
        ),
    ];
    for (name, td, no_zones, zone, node) in cases {
        let input = if no_zones { strip_zones(eight()) } else { eight() };
        let got = reconcile_hints(td, &input, V36);
        assert_eq!(got.to_create.len(), 2, "{name}");
        assert_eq!(got.to_update.len(), 2, "{name}");
        for endpoint in all(&got) {
            assert_eq!(endpoint.hints, own_hints(endpoint, zone, node), "{name}: {:?}", endpoint.addresses);
        }
    }
}

#[test]
fn test_reconcile_hints_should_correct_incorrect_hints_with_prefer_close() {
    let input = TdSlices {
        address_type: "IPv4".into(),
        to_create: vec![],
        to_update: vec![slice(
            "u",
            vec![ep("10.0.0.1").zone("zone-a").node("node-1").ready(true).hint_zones(&["zone-b"])],
        )],
        unchanged: vec![
            slice(
                "x",
                vec![ep("10.0.0.2").zone("zone-b").node("node-2").ready(true).hint_zones(&["zone-c"])],
            ),
            slice("y", vec![ep("10.0.0.3").zone("zone-c").node("node-3").ready(true)]),
        ],
    };
    let got = reconcile_hints(Some("PreferClose"), &input, V36);
    let names: Vec<_> = got.to_update.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["u", "x", "y"]);
    assert!(got.unchanged.is_empty());
    for endpoint in all(&got) {
        assert_eq!(endpoint.hints, own_hints(endpoint, true, false));
    }
}

#[test]
fn test_reconcile_hints_unready_endpoints_should_not_trigger_updates() {
    let unready = slice("x", vec![ep("10.0.0.2").zone("zone-b").node("node-2").ready(false)]);
    let input = TdSlices { unchanged: vec![unready.clone()], ..TdSlices::default() };
    for minor in [32, 36] {
        let got = reconcile_hints(Some("PreferClose"), &input, Behaviour::new(minor));
        assert_eq!(got.unchanged, vec![unready.clone()], "1.{minor}");
        assert!(got.to_update.is_empty());
    }
}

#[test]
fn test_reconcile_hints_should_remove_hints_when_unrecognized_or_unset() {
    let hinted = |i: u8, zone: &str| ep(&format!("10.0.0.{i}")).zone(zone).ready(true).hint_zones(&[zone]);
    let unknown = TdSlices {
        address_type: "IPv4".into(),
        to_create: vec![
            slice("c1", vec![hinted(1, "zone-a"), hinted(2, "zone-b")]),
            slice("c2", vec![hinted(3, "zone-a")]),
        ],
        to_update: vec![slice("u1", vec![hinted(5, "zone-a")])],
        unchanged: vec![],
    };
    let unset = TdSlices {
        to_update: vec![slice("u1", vec![hinted(5, "zone-a")])],
        unchanged: vec![slice("x", vec![hinted(6, "zone-b")])],
        ..TdSlices::default()
    };
    for (td, input, updates) in [(Some("Unknown"), unknown, 1), (None, unset, 2)] {
        let got = reconcile_hints(td, &input, V36);
        assert_eq!(got.to_update.len(), updates, "{td:?}");
        assert!(got.unchanged.is_empty());
        assert!(all(&got).all(|e| e.hints.is_none()), "{td:?}");
    }
}

#[test]
fn test_reconcile_hints_does_not_mutate_unchanged_slices() {
    let original = slice("x", vec![ep("10.0.0.1").zone("zone-a").node("node-1").ready(true)]);
    let input = TdSlices { unchanged: vec![original.clone()], ..TdSlices::default() };
    let got = reconcile_hints(Some("PreferClose"), &input, V36);
    assert_eq!(input.unchanged, vec![original]);
    assert_eq!(got.to_update[0].endpoints[0].hints, Some(Hints::zone("zone-a")));
}

#[test]
fn prefer_close_needs_update_edge_cases() {
    let unchanged = |e: Endpoint| TdSlices { unchanged: vec![slice("x", vec![e])], ..TdSlices::default() };
    let cases = [
        ("correct hint kept", ep("1").zone("a").ready(true).hint_zones(&["a"]), "PreferClose", false),
        ("two zone hints", ep("1").zone("a").ready(true).hint_zones(&["a", "b"]), "PreferClose", true),
        ("stale zone hint without zone", ep("1").ready(true).hint_zones(&["a"]), "PreferClose", true),
        ("empty hints without zone are fine", ep("1").ready(true).hints_empty(), "PreferClose", false),
        (
            "stale node hint for PreferClose",
            ep("1").zone("a").node("n").ready(true).hint_zones(&["a"]).hint_nodes(&["n"]),
            "PreferClose",
            true,
        ),
        (
            "missing node hint for PreferSameNode",
            ep("1").zone("a").node("n").ready(true).hint_zones(&["a"]),
            "PreferSameNode",
            true,
        ),
        ("nil ready is not ready", ep("1").zone("a"), "PreferClose", false),
    ];
    for (name, endpoint, td, moved) in cases {
        let got = reconcile_hints(Some(td), &unchanged(endpoint), V36);
        assert_eq!(got.to_update.len() == 1, moved, "{name}");
    }
}

#[test]
fn legacy_prefer_close_writes_empty_zone_hint() {
    // 1.30–1.32: only PreferClose is close; zone-less ready endpoints get forZones:[""].
    let input = TdSlices {
        address_type: "IPv4".into(),
        to_create: vec![slice(
            "c",
            vec![ep("10.0.0.1").node("n1").ready(true), ep("10.0.0.2").zone("a").ready(true)],
        )],
        ..TdSlices::default()
    };
    let got = reconcile_hints(Some("PreferClose"), &input, Behaviour::new(31));
    assert_eq!(got.to_create[0].endpoints[0].hints, Some(Hints::zone("")));
    assert_eq!(got.to_create[0].endpoints[1].hints, Some(Hints::zone("a")));
    let same_zone = reconcile_hints(Some("PreferSameZone"), &input, Behaviour::new(32));
    assert!(same_zone.to_create[0].endpoints.iter().all(|e| e.hints.is_none()));
    // A `""` hint is correct at 1.32 but stale at 1.33+.
    let kept = TdSlices {
        unchanged: vec![slice("x", vec![ep("1").ready(true).hint_zones(&[""])])],
        ..TdSlices::default()
    };
    assert_eq!(reconcile_hints(Some("PreferClose"), &kept, Behaviour::new(32)).unchanged.len(), 1);
    assert_eq!(reconcile_hints(Some("PreferClose"), &kept, Behaviour::new(33)).to_update.len(), 1);
}

/// W14 / reconciler_test.go TestReconcile_TrafficDistribution pods: node-0(a){pod-0},
/// node-1(b){pod-1..3}, node-2(c){pod-4,5}; fresh slice to create.
fn w14_slices() -> TdSlices {
    let pods = [
        (0, "zone-a", 0),
        (1, "zone-b", 1),
        (2, "zone-b", 1),
        (3, "zone-b", 1),
        (4, "zone-c", 2),
        (5, "zone-c", 2),
    ];
    let endpoints = pods
        .iter()
        .map(|(i, zone, n)| ep(&format!("10.0.0.{i}")).zone(zone).node(&format!("node-{n}")).ready(true))
        .collect();
    TdSlices { to_create: vec![slice("s", endpoints)], ..TdSlices::default() }
}

fn count_hints(slices: &TdSlices, pick: fn(&Hints) -> Option<&[Arc<str>]>) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::new();
    for hint in all(slices).filter_map(|e| e.hints.as_ref()).filter_map(pick).flatten() {
        *counts.entry(hint.to_string()).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

// reconciler_test.go: TestReconcile_TrafficDistribution (mode selection + trafficdist; the
// "PreferClose, Auto" row is the annotation path, whose hints belong to topologycache)
#[test]
fn test_reconcile_traffic_distribution() {
    let zones = |v: &[(&str, usize)]| v.iter().map(|(z, n)| (z.to_string(), *n)).collect::<Vec<_>>();
    let abc = zones(&[("zone-a", 1), ("zone-b", 3), ("zone-c", 2)]);
    let cases = [
        ("PreferClose, Disabled", 36, Some("PreferClose"), "Disabled", abc.clone(), vec![]),
        ("nil, empty", 36, None, "", vec![], vec![]),
        (
            "PreferSameNode, gate on",
            34,
            Some("PreferSameNode"),
            "Disabled",
            abc.clone(),
            zones(&[("node-0", 1), ("node-1", 3), ("node-2", 2)]),
        ),
        ("PreferSameZone, gate off", 33, Some("PreferSameZone"), "Disabled", vec![], vec![]),
    ];
    for (name, minor, td, annotation, want_zones, want_nodes) in cases {
        let behaviour = Behaviour::new(minor);
        let mut svc = service().annotation(ANNOTATION_TOPOLOGY_AWARE_HINTS, annotation);
        svc.traffic_distribution = td.map(str::to_string);
        let got = match select_mode(&svc, behaviour).path {
            ModePath::TrafficDistribution { .. } => reconcile_hints(td, &w14_slices(), behaviour),
            ModePath::RemoveHints => reconcile_hints(None, &w14_slices(), behaviour), // same effect
            ModePath::Annotation => panic!("{name}: unexpected annotation path"),
        };
        assert_eq!(count_hints(&got, |h| h.for_zones.as_deref()), want_zones, "{name}");
        assert_eq!(count_hints(&got, |h| h.for_nodes.as_deref()), want_nodes, "{name}");
    }
    let auto =
        service().annotation(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto").traffic_distribution("PreferClose");
    assert_eq!(select_mode(&auto, V36).path, ModePath::Annotation, "PreferClose, Auto");
}
