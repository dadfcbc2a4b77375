//! The `spec.trafficDistribution` path of the EndpointSlice controller: a port of
//! `k8s.io/endpointslice/trafficdist` (spec §3). Pure: inputs are never mutated; the result is a
//! new set of slice lists. Two versions exist: 1.33+ (`PreferClose`/`PreferSameZone`/
//! `PreferSameNode`, zone hints only for endpoints with a zone, node hints for `PreferSameNode`)
//! and ≤1.32 (only `PreferClose`; every ready endpoint gets `forZones:[zone or ""]`).

use serde::Serialize;

use crate::model::{Behaviour, Endpoint, EndpointSlice, Hints};

/// `spec.trafficDistribution` value `PreferClose`.
pub const PREFER_CLOSE: &str = "PreferClose";
/// `spec.trafficDistribution` value `PreferSameZone` (1.33+).
pub const PREFER_SAME_ZONE: &str = "PreferSameZone";
/// `spec.trafficDistribution` value `PreferSameNode` (1.33+).
pub const PREFER_SAME_NODE: &str = "PreferSameNode";

/// The slice lists `ReconcileHints` takes and returns; same shape as `topologycache::SliceInfo`
/// without the address type (to be unified at merge time).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TdSlices {
    /// Slices the controller will create.
    pub to_create: Vec<EndpointSlice>,
    /// Slices the controller will update.
    pub to_update: Vec<EndpointSlice>,
    /// Existing slices left as they are.
    pub unchanged: Vec<EndpointSlice>,
}

/// Which heuristic `ReconcileHints` applies (spec §3 step 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Heuristic {
    /// `preferCloseHeuristic`: own-zone hints on ready endpoints; own-node hints when `node_hints`.
    PreferClose {
        /// `generateNodeHints` (value `PreferSameNode`).
        node_hints: bool,
    },
    /// `defaultHeuristic`: remove every hint.
    Default,
}

/// True for controllers before ES `ae45d1c` (first in 1.33.0-rc.0): only `PreferClose` is close and
/// zone-less ready endpoints get a `""` zone hint (spec §3).
fn legacy_prefer_close(behaviour: Behaviour) -> bool {
    behaviour.minor < 33
}

// mirrors trafficdist.go: ReconcileHints (choice of heuristic via closeTrafficDistribution)
/// The heuristic `ReconcileHints` picks for a `trafficDistribution` value at this version.
pub fn heuristic_for(traffic_distribution: Option<&str>, behaviour: Behaviour) -> Heuristic {
    match traffic_distribution {
        Some(PREFER_CLOSE) => Heuristic::PreferClose { node_hints: false },
        Some(PREFER_SAME_ZONE) if !legacy_prefer_close(behaviour) => {
            Heuristic::PreferClose { node_hints: false }
        }
        Some(PREFER_SAME_NODE) if !legacy_prefer_close(behaviour) => {
            Heuristic::PreferClose { node_hints: true }
        }
        _ => Heuristic::Default,
    }
}

// mirrors trafficdist.go: ReconcileHints
/// Reconciles hints for a `trafficDistribution` value: Unchanged slices that need an update are
/// copied to ToUpdate (appended in order), then every ToCreate/ToUpdate slice is updated. The input
/// is never mutated (upstream deep-copies Unchanged slices for the same reason).
pub fn reconcile_hints(
    traffic_distribution: Option<&str>,
    slices: &TdSlices,
    behaviour: Behaviour,
) -> TdSlices {
    let heuristic = heuristic_for(traffic_distribution, behaviour);
    let legacy = legacy_prefer_close(behaviour);
    let mut to_create = slices.to_create.clone();
    let mut to_update = slices.to_update.clone();
    let mut unchanged = Vec::new();
    for slice in &slices.unchanged {
        if needs_update(heuristic, legacy, slice) {
            to_update.push(slice.clone());
        } else {
            unchanged.push(slice.clone());
        }
    }
    for slice in to_create.iter_mut().chain(to_update.iter_mut()) {
        update(heuristic, legacy, slice);
    }
    TdSlices { to_create, to_update, unchanged }
}

// mirrors trafficdist.go: defaultHeuristic.needsUpdate / preferCloseHeuristic.needsUpdate
fn needs_update(heuristic: Heuristic, legacy: bool, slice: &EndpointSlice) -> bool {
    match heuristic {
        Heuristic::Default => slice.endpoints.iter().any(|endpoint| endpoint.hints.is_some()),
        Heuristic::PreferClose { node_hints } => {
            slice.endpoints.iter().filter(|endpoint| endpoint.controller_ready()).any(|endpoint| {
                if legacy {
                    legacy_needs_update(endpoint)
                } else {
                    prefer_close_needs_update(endpoint, node_hints)
                }
            })
        }
    }
}

fn zone_hints(endpoint: &Endpoint) -> &[String] {
    endpoint.hints.as_ref().and_then(|hints| hints.for_zones.as_deref()).unwrap_or(&[])
}

fn node_hints(endpoint: &Endpoint) -> &[String] {
    endpoint.hints.as_ref().and_then(|hints| hints.for_nodes.as_deref()).unwrap_or(&[])
}

/// One ready endpoint, 1.33+ rules: wanted hint missing/wrong, or an unwanted hint present.
fn prefer_close_needs_update(endpoint: &Endpoint, generate_node_hints: bool) -> bool {
    let zones = zone_hints(endpoint);
    let zone_wrong = match &endpoint.zone {
        // `Hints == nil || len(ForZones) != 1 || ForZones[0].Name != zone`
        Some(zone) => zones.len() != 1 || &zones[0] != zone,
        None => !zones.is_empty(),
    };
    let nodes = node_hints(endpoint);
    let node_wrong = match (&endpoint.node_name, generate_node_hints) {
        (Some(node), true) => nodes.len() != 1 || &nodes[0] != node,
        _ => !nodes.is_empty(),
    };
    zone_wrong || node_wrong
}

/// One ready endpoint, ≤1.32 rules: exactly one zone hint equal to the zone (or `""`).
fn legacy_needs_update(endpoint: &Endpoint) -> bool {
    let zones = zone_hints(endpoint);
    let wanted = endpoint.zone.as_deref().unwrap_or("");
    endpoint.hints.is_none() || zones.len() != 1 || zones[0] != wanted
}

// mirrors trafficdist.go: defaultHeuristic.update / preferCloseHeuristic.update
fn update(heuristic: Heuristic, legacy: bool, slice: &mut EndpointSlice) {
    for endpoint in &mut slice.endpoints {
        match heuristic {
            Heuristic::Default => endpoint.hints = None,
            Heuristic::PreferClose { .. } if !endpoint.controller_ready() => {}
            Heuristic::PreferClose { .. } if legacy => {
                let zone = endpoint.zone.clone().unwrap_or_default();
                endpoint.hints = Some(Hints::zone(&zone));
            }
            Heuristic::PreferClose { node_hints } => {
                let for_zones = endpoint.zone.clone().map(|zone| vec![zone]);
                let for_nodes = endpoint.node_name.clone().filter(|_| node_hints).map(|node| vec![node]);
                endpoint.hints = if for_zones.is_some() || for_nodes.is_some() {
                    Some(Hints { for_zones, for_nodes })
                } else {
                    None
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::mode::{ModePath, select_mode};
    use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, ep, service, slice};
    use crate::model::ANNOTATION_TOPOLOGY_AWARE_HINTS;

    const V36: Behaviour = Behaviour { minor: 36 };

    /// 8 ready endpoints (zone + node) as in upstream TestReconcileHints: two create slices
    /// (a,b),(a,b) and two update slices (a,a),(b,c).
    fn eight() -> TdSlices {
        let e =
            |i: u8, zone: &str| ep(&format!("10.0.0.{i}")).zone(zone).node(&format!("node-{i}")).ready(true);
        TdSlices {
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
        let for_zones = endpoint.zone.clone().filter(|_| zone).map(|z| vec![z]);
        let for_nodes = endpoint.node_name.clone().filter(|_| node).map(|n| vec![n]);
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
                assert_eq!(
                    endpoint.hints,
                    own_hints(endpoint, zone, node),
                    "{name}: {:?}",
                    endpoint.addresses
                );
            }
        }
    }

    #[test]
    fn test_reconcile_hints_should_correct_incorrect_hints_with_prefer_close() {
        let input = TdSlices {
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
        let hinted =
            |i: u8, zone: &str| ep(&format!("10.0.0.{i}")).zone(zone).ready(true).hint_zones(&[zone]);
        let unknown = TdSlices {
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
        let unchanged =
            |e: Endpoint| TdSlices { unchanged: vec![slice("x", vec![e])], ..TdSlices::default() };
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

    fn count_hints(slices: &TdSlices, pick: fn(&Hints) -> Option<&Vec<String>>) -> Vec<(String, usize)> {
        let mut counts = std::collections::BTreeMap::new();
        for hint in all(slices).filter_map(|e| e.hints.as_ref()).filter_map(pick).flatten() {
            *counts.entry(hint.clone()).or_insert(0) += 1;
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
            assert_eq!(count_hints(&got, |h| h.for_zones.as_ref()), want_zones, "{name}");
            assert_eq!(count_hints(&got, |h| h.for_nodes.as_ref()), want_nodes, "{name}");
        }
        let auto =
            service().annotation(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto").traffic_distribution("PreferClose");
        assert_eq!(select_mode(&auto, V36).path, ModePath::Annotation, "PreferClose, Auto");
    }
}
