//! W1–W13: the annotation (Auto) path — safeguards, allocations, redistribution, steady state.

use topo_engine::report::proxy::ProxyMode;
use topo_engine::report::reason::ReasonCode as C;
use topo_engine::report::{ControllerAction, Verdict};

use super::*;
use crate::support::dump::{NodeSpec, node, with_node, with_zone_hints, without_item};

const ENABLED: &str = "Topology Aware Hints has been enabled, addressType: IPv4";

fn disabled(message: &str) -> (String, String, String) {
    ("Warning".into(), "TopologyAwareHintsDisabled".into(), format!("{message}, addressType: IPv4"))
}

fn unable(endpoints: i64, zones: i64) -> String {
    format!(
        "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold \
         ({endpoints} endpoints, {zones} zones)"
    )
}

#[test]
fn w01_docs_12_4_vcpu() {
    let r = explain(&fixture("w01-docs-12-4-vcpu"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing]));
    assert_eq!(f.action, ControllerAction::Write);
    assert_eq!(event(f), ("Normal".into(), "TopologyAwareHintsEnabled".into(), ENABLED.into()));
    assert_eq!(zone(f, "a").cpu_share, Some(0.75));
    assert_eq!(zone(f, "b").cpu_share, Some(0.25));
    assert_eq!(bounds(f, "a"), (Some(3), Some(3), 3, 0));
    assert_eq!(bounds(f, "b"), (Some(1), Some(1), 1, 0));
    // b1, the first zone-b endpoint in slice order, is the one moved to a.
    let want = [("10.0.1.11", "a"), ("10.0.1.12", "a"), ("10.0.2.11", "a"), ("10.0.2.12", "b")];
    for (address, hint) in want {
        assert_eq!(endpoint(f, address).expected_zones, zones_of(&[hint]), "{address}");
    }
    assert_eq!(f.count_outcomes, vec![counts(&[("a", 3), ("b", 1)])]);
}

/// W1 with the controller's hints written in: kube-proxy in a → {a1,a2,b1}, in b → {b2}; a node in a
/// zone without hints and a node without a zone label (control-plane, so the ratios stay) → all four.
#[test]
fn w01_kube_proxy_with_the_written_hints() {
    let hinted = with_zone_hints(
        &fixture("w01-docs-12-4-vcpu"),
        &[("10.0.1.11", "a"), ("10.0.1.12", "a"), ("10.0.2.11", "a"), ("10.0.2.12", "b")],
    );
    let cp = |name, zone| NodeSpec { name, zone, cpu: Some("4"), ready: true, control_plane: true };
    let text = with_node(&with_node(&hinted, &cp("cp-c", Some("c"))), &cp("cp-none", None));
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!((f.verdict, f.action), (Verdict::Active, ControllerAction::Keep));
    let all = strings(&["10.0.1.11", "10.0.1.12", "10.0.2.11", "10.0.2.12"]);
    let zone_a = strings(&["10.0.1.11", "10.0.1.12", "10.0.2.11"]);
    assert_eq!(proxy_on(f, "node-a"), (ProxyMode::PreferSameZone, zone_a, Some(C::ProxyMissingNodeHint)));
    assert_eq!(proxy_on(f, "node-b").1, strings(&["10.0.2.12"]));
    assert_eq!(proxy_on(f, "cp-c"), (ProxyMode::Cluster, all.clone(), Some(C::ProxyZoneNotHinted)));
    assert_eq!(proxy_on(f, "cp-none"), (ProxyMode::Cluster, all, Some(C::ProxyNodeMissingZone)));
}

#[test]
fn w02_three_zones_four_endpoints() {
    let r = explain(&fixture("w02-three-zones-four-endpoints"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    let facts = &f.reasons[0].facts;
    assert_eq!((facts.endpoints, facts.zones, facts.minimum_total), (Some(4), Some(3), Some(6)));
    // 2/1/1: a one-endpoint zone gets 1/3 of the traffic instead of 1/4 → 33 %.
    assert_eq!(facts.overload_percent, Some(33.3));
    assert_eq!(event(f), disabled(&unable(4, 3)));
    for z in ["a", "b", "c"] {
        assert_eq!(bounds(f, z), (None, None, 0, 0), "{z}");
    }
    let b = zone(f, "b").expected_overload_percent.unwrap();
    assert!((b - 100.0 / 3.0).abs() < 1e-9, "{b}");
    assert!(f.count_outcomes.is_empty());
}

#[test]
fn w03_four_zones_hinted() {
    let r = explain(&fixture("w03-four-zones-hinted"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, f.action), (Verdict::Active, ControllerAction::Keep));
    assert!(f.reasons.is_empty() && f.rewritten_slices.is_empty(), "{:?}", f.reasons);
    assert_eq!(f.overloaded, Some(false));
    for z in ["a", "b", "c", "d"] {
        assert_eq!(bounds(f, z), (Some(1), Some(1), 1, 1), "{z}");
    }
}

/// W3 after zone d's node is deleted: the recheck finds the cached 1/1/1/1 overloaded (each zone now
/// needs 2), and the sync that follows removes every hint (W2: 4 endpoints, 3 zones).
#[test]
fn w03_zone_d_disappears() {
    let text = without_item(&fixture("w03-four-zones-hinted"), "Node", "node-d");
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!(f.overloaded, Some(true));
    assert_eq!((f.verdict, f.action), (Verdict::Drift, ControllerAction::Remove));
    assert_eq!(codes(f), vec![C::HintsUnexpected, C::OverloadThreshold]);
    assert_eq!(event(f), disabled(&unable(4, 3)));
    assert!(f.endpoints.iter().all(|e| e.expected_zones.is_none()));
}

/// W3 with a fifth zone and no endpoint in it: 5 zones > 4 endpoints; kube-proxy in the new zone
/// finds no hint for it and routes to all endpoints.
#[test]
fn w03_fifth_zone_added() {
    let text = with_node(&fixture("w03-four-zones-hinted"), &node("node-e", "e", "4"));
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsUnexpected, C::InsufficientEndpoints]));
    let facts = &f.reasons[1].facts;
    assert_eq!((facts.endpoints, facts.zones), (Some(4), Some(5)));
    assert_eq!(event(f), disabled("Insufficient number of endpoints (4 endpoints, 5 zones)"));
    let (mode, endpoints, reason) = proxy_on(f, "node-e");
    assert_eq!((mode, endpoints.len(), reason), (ProxyMode::Cluster, 4, Some(C::ProxyZoneNotHinted)));
}

#[test]
fn w04_two_to_one_two_endpoints() {
    let r = explain(&fixture("w04-two-to-one-two-endpoints"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    let facts = &f.reasons[0].facts;
    assert_eq!((facts.endpoints, facts.zones, facts.minimum_total), (Some(2), Some(2), Some(3)));
    assert_eq!(facts.overload_percent, Some(33.3));
    assert_eq!(event(f), disabled(&unable(2, 2)));
}

#[test]
fn w05_single_zone() {
    let text = fixture("w05-single-zone");
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::SingleZone]));
    assert_eq!(f.reasons[0].facts.zones, Some(1));
    let message = "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes";
    assert_eq!(event(f), disabled(message));
    // The zone-less control-plane node is ignored, not a poisoning node.
    let zones = analyze::zones(&snapshot(&text), behaviour("1.36"));
    assert!(zones.disabling.is_empty(), "{:?}", zones.disabling);
    assert_eq!(zones.excluded.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["control-plane-1"]);
}

#[test]
fn w06_endpoint_without_zone() {
    let r = explain(&fixture("w06-endpoint-without-zone"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, f.action), (Verdict::Drift, ControllerAction::Remove));
    assert_eq!(codes(f), vec![C::HintsUnexpected, C::EndpointMissingZone]);
    assert_eq!(f.reasons[1].facts.addresses, strings(&["10.0.7.10"]));
    assert_eq!(event(f), disabled("One or more endpoints do not have a zone specified"));
    assert!(f.endpoints.iter().all(|e| e.expected_zones.is_none()), "all hints removed");
}

/// W6's fixture with one endpoint per zone (n = 4, 3 equal zones): Step A aborts before Step C ever
/// sees the zoneless endpoint (checked against k8s.io/endpointslice@v0.36.6).
#[test]
fn w06_one_endpoint_per_zone_stops_at_the_overload_threshold_first() {
    let mut text = fixture("w06-endpoint-without-zone");
    for pod in ["svc-a2", "svc-b2", "svc-c2"] {
        text = without_endpoint(&text, pod);
    }
    let f = &explain(&text, "svc").families[0];
    assert_eq!(codes(f), vec![C::HintsUnexpected, C::OverloadThreshold]);
    assert_eq!(event(f), disabled(&unable(4, 3)));
}

/// Drop the endpoint whose targetRef is `pod` (fixture endpoints start with `  - addresses:`).
fn without_endpoint(text: &str, pod: &str) -> String {
    let at = text.find(&format!("      name: {pod}\n")).expect("pod");
    let start = text[..at].rfind("  - addresses:\n").expect("endpoint start");
    let end = at + text[at..].find("  - addresses:\n").expect("a next endpoint");
    format!("{}{}", &text[..start], &text[end..])
}

const W07_HINTS: [(&str, &str); 4] =
    [("10.0.1.11", "a"), ("10.0.1.12", "a"), ("10.0.9.11", "x"), ("10.0.9.12", "x")];

#[test]
fn w07_control_plane_zone() {
    let r = explain(&fixture("w07-control-plane-zone"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing, C::RewrittenEverySync]));
    assert_eq!(bounds(f, "a"), (Some(2), Some(2), 2, 0));
    assert_eq!(bounds(f, "b"), (Some(2), Some(2), 0, 0));
    assert_eq!(zone(f, "x").expected_hinted, 2);
    for (address, hint) in W07_HINTS {
        assert_eq!(endpoint(f, address).expected_zones, zones_of(&[hint]), "{address}");
    }
}

/// W7 once written: the hints for `x` ∉ zones fail the keep-check, so every sync rewrites them
/// identically; kube-proxy in b finds no hint for its zone.
#[test]
fn w07_written_hints_are_rewritten_every_sync() {
    let text = with_zone_hints(&fixture("w07-control-plane-zone"), &W07_HINTS);
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!(f.verdict, Verdict::Active);
    assert_eq!(codes(f), vec![C::RewrittenEverySync, C::Overloaded]);
    assert_eq!(f.rewritten_slices, strings(&["svc-w07"]));
    assert_eq!(f.overloaded, Some(true), "zone b has no hinted endpoint");
    assert_eq!(proxy_on(f, "node-a").1, strings(&["10.0.1.11", "10.0.1.12"]));
    assert_eq!(proxy_on(f, "node-b").0, ProxyMode::Cluster);
    assert_eq!(proxy_on(f, "node-b").2, Some(C::ProxyZoneNotHinted));
    assert_eq!(proxy_on(f, "node-x").1, strings(&["10.0.9.11", "10.0.9.12"]));
}

#[test]
fn w08_tie() {
    let r = explain(&fixture("w08-tie"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing]));
    let mut outcomes = f.count_outcomes.clone();
    outcomes.sort();
    let b4 = counts(&[("a", 7), ("b", 4), ("c", 3)]);
    let c4 = counts(&[("a", 7), ("b", 3), ("c", 4)]);
    assert_eq!(outcomes, vec![c4, b4]);
    assert_eq!(bounds(f, "a"), (Some(6), Some(8), 7, 0));
    assert_eq!((zone(f, "b").minimum, zone(f, "b").maximum), (Some(3), Some(5)));
    let foreign: Vec<_> = f
        .endpoints
        .iter()
        .filter(|e| e.expected_zones.as_ref().is_some_and(|z| Some(&z[0]) != e.zone.as_ref()))
        .collect();
    assert_eq!(foreign.len(), 1, "exactly one endpoint moves");
    assert_eq!(foreign[0].zone.as_deref(), Some("a"));
    assert!(matches!(foreign[0].expected_zones.as_ref().unwrap()[0].as_str(), "b" | "c"));
}

/// Both tie outcomes, once written, are accepted as the controller's own output.
#[test]
fn w08_both_tie_outcomes_are_accepted() {
    let own: Vec<(String, String)> = (11..=18)
        .map(|k| (format!("10.0.1.{k}"), "a".to_string()))
        .chain((11..=13).map(|k| (format!("10.0.2.{k}"), "b".to_string())))
        .chain((11..=13).map(|k| (format!("10.0.3.{k}"), "c".to_string())))
        .collect();
    for to in ["b", "c"] {
        let hints: Vec<(&str, &str)> =
            own.iter().map(|(a, z)| (a.as_str(), if a == "10.0.1.11" { to } else { z.as_str() })).collect();
        let r = explain(&with_zone_hints(&fixture("w08-tie"), &hints), "svc");
        let f = family(&r);
        assert_eq!((f.verdict, f.action), (Verdict::Active, ControllerAction::Keep), "a1 → {to}");
        assert!(f.endpoints.iter().all(|e| e.status == topo_engine::report::EndpointStatus::Ok));
    }
}

const W09_HINTS: [(&str, &str); 6] = [
    ("10.0.1.11", "a"),
    ("10.0.1.12", "a"),
    ("10.0.2.11", "b"),
    ("10.0.2.12", "b"),
    ("10.0.2.13", "b"),
    ("10.0.2.14", "b"),
];

#[test]
fn w09_float_bounds() {
    let r = explain(&fixture("w09-float-bounds"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing, C::RewrittenEverySync]));
    assert_eq!(bounds(f, "a"), (Some(3), Some(3), 2, 0));
    assert_eq!(bounds(f, "b"), (Some(3), Some(3), 4, 0));
    assert_eq!((zone(f, "a").desired, zone(f, "b").desired), (Some(3.0), Some(3.5999999999999996)));
    for (address, hint) in W09_HINTS {
        assert_eq!(endpoint(f, address).expected_zones, zones_of(&[hint]), "{address}");
    }
    // What the sync caches (a:2 < 3) is overloaded at once: upstream GetOverloadedServices lists it.
    assert_eq!(f.overloaded, Some(true));
}

#[test]
fn w09_written_hints_are_rewritten_every_sync_and_overloaded() {
    let text = with_zone_hints(&fixture("w09-float-bounds"), &W09_HINTS);
    let r = explain(&text, "svc");
    let f = family(&r);
    assert_eq!(f.verdict, Verdict::Active);
    assert_eq!(codes(f), vec![C::RewrittenEverySync, C::Overloaded]);
    assert_eq!(f.rewritten_slices, strings(&["svc-w09"]));
    assert_eq!(f.overloaded, Some(true));
}

#[test]
fn w10_bounds_no_float() {
    let r = explain(&fixture("w10-bounds-no-float"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing, C::RewrittenEverySync]));
    assert_eq!(bounds(f, "a"), (Some(2), Some(2), 1, 0));
    assert_eq!(bounds(f, "b"), (Some(5), Some(5), 6, 0));
    assert_eq!(zone(f, "a").desired, Some(2.0));
    assert_eq!(endpoint(f, "10.0.1.11").expected_zones, zones_of(&["a"]));
    for k in 11..=16 {
        assert_eq!(endpoint(f, &format!("10.0.2.{k}")).expected_zones, zones_of(&["b"]));
    }
    // Written as computed: a:1 < min 2, b:6 > max 5, so every sync rejects and rewrites it.
    let hints: Vec<(String, &str)> = std::iter::once(("10.0.1.11".to_string(), "a"))
        .chain((11..=16).map(|k| (format!("10.0.2.{k}"), "b")))
        .collect();
    let pairs: Vec<(&str, &str)> = hints.iter().map(|(a, z)| (a.as_str(), *z)).collect();
    let again = explain(&with_zone_hints(&fixture("w10-bounds-no-float"), &pairs), "svc");
    let f = family(&again);
    assert_eq!((f.verdict, codes(f)), (Verdict::Active, vec![C::RewrittenEverySync, C::Overloaded]));
    assert_eq!(f.rewritten_slices, strings(&["svc-w10"]));
}

#[test]
fn w11_float_refuses() {
    let r = explain(&fixture("w11-float-refuses"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    let facts = &f.reasons[0].facts;
    // min 2/5 in floating point (exact math: 1/4, which would fit).
    assert_eq!((facts.endpoints, facts.zones, facts.minimum_total), (Some(6), Some(2), Some(7)));
    assert_eq!(event(f), disabled(&unable(6, 2)));
}

#[test]
fn w12_all_in_one_zone() {
    let r = explain(&fixture("w12-all-in-one-zone"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing]));
    assert_eq!(f.count_outcomes, vec![counts(&[("a", 1), ("b", 1), ("c", 1)])]);
    let mut hinted: Vec<String> = expected_zones(f).into_values().map(|z| z.unwrap().concat()).collect();
    hinted.sort();
    assert_eq!(hinted, strings(&["a", "b", "c"]));
    for z in ["a", "b", "c"] {
        assert_eq!(bounds(f, z), (Some(1), Some(1), 1, 0), "{z}");
    }
}

#[test]
fn w13_stable_imbalance() {
    let r = explain(&fixture("w13-stable-imbalance"), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, f.action), (Verdict::Active, ControllerAction::Keep));
    assert!(f.reasons.is_empty(), "12/9/9 is not drift: {:?}", codes(f));
    assert!(f.rewritten_slices.is_empty());
    assert_eq!(f.overloaded, Some(false));
    assert_eq!(bounds(f, "a"), (Some(9), Some(12), 12, 12));
    assert_eq!(bounds(f, "b"), (Some(9), Some(12), 9, 9));
    assert_eq!(bounds(f, "c"), (Some(9), Some(12), 9, 9));
    assert_eq!(zone(f, "a").desired, Some(10.0));
}
