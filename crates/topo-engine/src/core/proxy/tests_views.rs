//! kube-proxy slice-cache merging and per-zone views (W1, W15).

use super::*;
use crate::core::testkit_td::{ep, node, slice};
use crate::model::Node;
use crate::report::proxy::ProxyMode;

/// Hint names as [`ProxyEndpoint`] holds them.
fn hint_list(names: &[&str]) -> Option<crate::model::NameList> {
    Some(names.iter().map(|n| std::sync::Arc::from(*n)).collect())
}

fn slice_port(name: Option<&str>, port: Option<i32>, protocol: Option<&str>) -> crate::model::SlicePort {
    crate::model::SlicePort { name: name.map(str::to_string), port, protocol: protocol.map(str::to_string) }
}

// endpointslicecache.go: addEndpoints / endpointInfoByServicePort
#[test]
fn endpoints_for_port_merging_and_conditions() {
    let a = slice(
        "a",
        vec![
            ep("10.0.0.1").zone("a").hint_zones(&["a"]).hint_nodes(&["n1"]),
            ep("10.0.0.2").terminating(true).serving(true),
            ep("fd00::0001"),
        ],
    );
    let mut b =
        slice("b", vec![ep("10.0.0.2").ready(true).node("n2"), ep("10.0.0.1").node("n2").hint_zones(&["b"])]);
    b.endpoints.push(crate::model::Endpoint { addresses: vec![].into(), ..ep("x") });
    let got = endpoints_for_port(&[&a, &b], "http", "TCP", "n2", V36);
    let ids: Vec<String> = got.iter().map(ProxyEndpoint::identity).collect();
    assert_eq!(ids, ["10.0.0.1:80", "10.0.0.2:80", "[fd00::1]:80"]);
    // nil conditions: ready, serving, not terminating.
    assert!(got[0].ready && got[0].serving && !got[0].terminating);
    // 1.36: every non-terminating copy replaces the one held (`!exists || !terminating`), so the
    // copy of the slice visited last wins (upstream visits slices in map order: either can).
    assert_eq!((got[0].zone_hints.clone(), got[0].node_hints.clone()), (hint_list(&["b"]), None));
    assert_eq!((got[1].terminating, got[1].is_local), (false, true));
    let reversed = endpoints_for_port(&[&b, &a], "http", "TCP", "n2", V36);
    assert_eq!(reversed[0].zone_hints, hint_list(&["a"]));
    assert_eq!(reversed[0].node_hints, hint_list(&["n1"]));
    // A terminating copy never replaces one held.
    assert_eq!((reversed[1].terminating, reversed[1].is_local), (false, true));
    // ≤1.35: the local copy wins; node hints need the PreferSameTrafficDistribution gate.
    let old = endpoints_for_port(&[&a, &b], "http", "TCP", "n2", Behaviour::new(33));
    assert_eq!(
        (old[0].zone_hints.clone(), old[0].is_local, old[0].node_hints.clone()),
        (hint_list(&["b"]), true, None)
    );
    // Within one slice the order is fixed: the later copy wins (1.36: not terminating; ≤1.35: local).
    let twice = slice("t", vec![ep("10.0.0.4").zone("c"), ep("10.0.0.4").zone("c").hint_zones(&["c"])]);
    assert_eq!(endpoints_for_port(&[&twice], "http", "TCP", "", V36)[0].zone_hints, hint_list(&["c"]));
    let local_twice =
        slice("l", vec![ep("10.0.0.4").node("n2").hint_zones(&["a"]), ep("10.0.0.4").node("n2")]);
    assert_eq!(
        endpoints_for_port(&[&local_twice], "http", "TCP", "n2", Behaviour::new(35))[0].zone_hints,
        None
    );
    // Zone hints are not read with the TopologyAwareHints gate off (≤1.23); empty forZones = none.
    assert_eq!(endpoints_for_port(&[&a], "http", "TCP", "", Behaviour::new(23))[0].zone_hints, None);
    let empty = slice("e", vec![ep("10.0.0.9").hint_zones(&[])]);
    assert_eq!(endpoints_for_port(&[&empty], "http", "TCP", "", V36)[0].zone_hints, None);
    // Ports: matched by name and protocol; nil name or port 0 ignored; nil protocol means TCP.
    let mut ports = slice("p", vec![ep("10.0.0.5")]);
    ports.ports = vec![
        slice_port(None, Some(80), None),
        slice_port(Some("http"), Some(0), None),
        slice_port(Some("http"), Some(8080), None),
    ];
    assert_eq!(endpoints_for_port(&[&ports], "http", "TCP", "", V36)[0].identity(), "10.0.0.5:8080");
    assert!(endpoints_for_port(&[&ports], "http", "UDP", "", V36).is_empty());
    assert!(endpoints_for_port(&[&ports], "metrics", "TCP", "", V36).is_empty());
}

type ZoneSummary = (String, Vec<String>, ProxyMode, Vec<String>, Option<ReasonCode>);

fn zones_of(view: &ProxyView) -> Vec<ZoneSummary> {
    let owned = |v: &[String]| v.to_vec();
    view.zones
        .iter()
        .map(|z| {
            (z.zone.clone(), owned(&z.nodes), z.mode, owned(&z.endpoints), z.reason.as_ref().map(|r| r.code))
        })
        .collect()
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| v.to_string()).collect()
}

/// W15: p1{a,n1}, p2{a,n2}, p3{b,n3}, all ready; kube-proxy on n1(a), n4(a), n5(c).
fn w15_slice() -> crate::model::EndpointSlice {
    let p = |addr: &str, zone: &str, node: &str| {
        ep(addr).zone(zone).node(node).ready(true).hint_zones(&[zone]).hint_nodes(&[node])
    };
    slice(
        "s",
        vec![p("10.0.0.1", "zone-a", "n1"), p("10.0.0.2", "zone-a", "n2"), p("10.0.0.3", "zone-b", "n3")],
    )
}

fn w15_nodes() -> Vec<Node> {
    vec![node("n1", Some("zone-a")), node("n4", Some("zone-a")), node("n5", Some("zone-c"))]
}

#[test]
fn w15_prefer_same_node_per_node() {
    use ProxyMode::*;
    use ReasonCode::*;
    let s = w15_slice();
    let view = proxy_view(&service(), &[&s], &w15_nodes(), V36);
    let z = |zone: &str, nodes: &[&str], mode, eps: &[&str], reason| {
        (zone.to_string(), strings(nodes), mode, strings(eps), reason)
    };
    assert_eq!(
        zones_of(&view),
        [
            z("zone-a", &["n1"], PreferSameNode, &["10.0.0.1"], None),
            z("zone-a", &["n4"], PreferSameZone, &["10.0.0.1", "10.0.0.2"], Some(ProxyNodeNotHinted)),
            z("zone-c", &["n5"], Cluster, &["10.0.0.1", "10.0.0.2", "10.0.0.3"], Some(ProxyZoneNotHinted)),
        ]
    );
    assert_eq!(
        view.zones[2].log_line.as_deref(),
        Some(concat!(
            r#""Ignoring same-node topology hints for service since no hints were provided for node" service="10.96.0.10:80/TCP" node="n5""#,
            "\n",
            r#""Ignoring same-zone topology hints for service since no hints were provided for zone" service="10.96.0.10:80/TCP" zone="zone-c""#
        ))
    );
    // 1.33 kube-proxy with the gate off ignores forNodes: n1 gets zone mode.
    let v133 = proxy_view(&service(), &[&s], &w15_nodes(), Behaviour::new(33));
    assert_eq!(
        (v133.zones[0].mode, v133.zones[0].endpoints.len(), v133.zones[0].nodes.len()),
        (PreferSameZone, 2, 2)
    );
    // p2 loses its hints (foreign slice): node and zone modes impossible → all endpoints.
    let mut stripped = w15_slice();
    stripped.endpoints[1].hints = None;
    let view = proxy_view(&service(), &[&stripped], &w15_nodes(), V36);
    assert!(view.zones.iter().all(|z| z.mode == Cluster && z.endpoints.len() == 3));
    assert_eq!(view.zones[0].reason.as_ref().map(|r| r.code), Some(ProxyMissingZoneHint));
    assert_eq!(view.zones[0].log_line.as_deref().map(|l| l.lines().count()), Some(2));
}

#[test]
fn w15_traffic_policies_and_terminating() {
    let s = w15_slice();
    let n4 = [node("n4", Some("zone-a"))];
    let itp = proxy_view(&service().itp_local(), &[&s], &n4, V36);
    let z = &itp.zones[0];
    assert_eq!(
        (z.mode, z.endpoints.len(), z.reason.as_ref().map(|r| r.code)),
        (ProxyMode::Local, 0, Some(ReasonCode::TrafficPolicyLocal))
    );
    let etp = proxy_view(&service().etp_local_node_port(), &[&s], &n4, V36);
    let z = &etp.zones[0];
    assert_eq!(
        (z.mode, z.endpoints.to_vec(), z.external_endpoints.clone()),
        (ProxyMode::PreferSameZone, strings(&["10.0.0.1", "10.0.0.2"]), Some(vec![]))
    );
    let mut terminating = w15_slice();
    for endpoint in &mut terminating.endpoints {
        (endpoint.ready, endpoint.serving, endpoint.terminating) = (Some(false), Some(true), Some(true));
    }
    let view = proxy_view(&service(), &[&terminating], &n4, V36);
    let z = &view.zones[0];
    assert_eq!(
        (z.mode, z.endpoints.len(), z.reason.as_ref().map(|r| r.code)),
        (ProxyMode::Cluster, 3, Some(ReasonCode::ProxyNoReadyEndpoints))
    );
}

/// W1: hints a1→a, a2→a, b1→a, b2→b; nodes in a, b, c and one without a zone label.
#[test]
fn w1_kube_proxy_per_zone_and_hypothetical_nodes() {
    let e = |addr: &str, zone: &str, hint: &str| ep(addr).zone(zone).ready(true).hint_zones(&[hint]);
    let s = slice(
        "s",
        vec![
            e("10.0.0.1", "a", "a"),
            e("10.0.0.2", "a", "a"),
            e("10.0.0.3", "b", "a"),
            e("10.0.0.4", "b", "b"),
        ],
    );
    let nodes = [
        node("na1", Some("a")),
        node("na2", Some("a")),
        node("nb", Some("b")),
        node("nc", Some("c")),
        node("cp", None),
    ];
    let view = proxy_view(&service(), &[&s], &nodes, V36);
    let summary: Vec<_> =
        view.zones.iter().map(|z| (z.zone.as_str(), z.nodes.len(), z.endpoints.len())).collect();
    assert_eq!(summary, [("", 1, 4), ("a", 2, 3), ("b", 1, 1), ("c", 1, 4)]);
    assert_eq!(view.zones[0].reason.as_ref().map(|r| r.code), Some(ReasonCode::ProxyNodeMissingZone));
    assert!(!view.hypothetical_nodes);
    // Nodes unreadable: one hypothetical node per zone seen (a, b).
    let guessed = proxy_view(&service(), &[&s], &[], V36);
    assert!(guessed.hypothetical_nodes);
    let summary: Vec<_> =
        guessed.zones.iter().map(|z| (z.zone.as_str(), z.nodes.len(), z.endpoints.len())).collect();
    assert_eq!(summary, [("a", 0, 3), ("b", 0, 1)]);
}

#[test]
fn view_skips_and_windows() {
    let s = w15_slice();
    let mut headless = service();
    headless.cluster_ip = Some("None".into());
    assert!(proxy_view(&headless, &[&s], &w15_nodes(), V36).skipped.is_some());
    let mut windows = node("w1", Some("zone-a"));
    windows.labels.insert("kubernetes.io/os".into(), "windows".into());
    let view = proxy_view(&service(), &[&s], &[windows], V36);
    let z = &view.zones[0];
    assert_eq!(
        (z.mode, z.endpoints.len(), z.reason.as_ref().map(|r| r.code)),
        (ProxyMode::Cluster, 3, Some(ReasonCode::ProxyWindowsIgnoresHints))
    );
    // 1.30–1.32 `""` zone hints: a node without a zone label uses them (docs/behaviour.md#proxy-eras, derived) at 1.33+.
    let empty_hint = slice(
        "e",
        vec![
            ep("10.0.0.7").ready(true).hint_zones(&[""]),
            ep("10.0.0.8").zone("b").ready(true).hint_zones(&["b"]),
        ],
    );
    let nodes = [node("nz", None)];
    assert_eq!(
        proxy_view(&service(), &[&empty_hint], &nodes, V36).zones[0].endpoints.to_vec(),
        strings(&["10.0.0.7"])
    );
    assert_eq!(
        proxy_view(&service(), &[&empty_hint], &nodes, Behaviour::new(32)).zones[0].endpoints.len(),
        2
    );
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["zones"][0]["mode"], "Cluster");
    assert_eq!(json["hypotheticalNodes"], false);
}

// Before 1.36 a later copy of an address replaces the one held only when it is local, whatever
// the traffic policy (k/k v1.35.0 endpointslicecache.go:238): n1, hosting both copies of 10.0.0.6,
// holds the terminating one and falls back to serving+terminating endpoints, while n2 in the same
// (zone-less) class keeps the ready copy. From 1.36 the non-terminating copy wins on every node.
// The differential fixture proxy-pre136-duplicate-on-its-own-node pins the same against upstream.
#[test]
fn a_duplicate_is_merged_per_node_before_1_36() {
    let s = slice(
        "s",
        vec![
            ep("10.0.0.6").node("n1").ready(true),
            ep("10.0.0.6").node("n1").ready(false).serving(true).terminating(true),
            ep("10.0.0.2").node("n9").ready(false).serving(true).terminating(true),
        ],
    );
    let nodes = vec![node("n1", None), node("n2", None)];
    let per_node = |behaviour| -> Vec<(Vec<String>, Vec<String>)> {
        let view = proxy_view(&service(), &[&s], &nodes, behaviour);
        view.zones.iter().map(|z| (z.nodes.clone(), z.endpoints.to_vec())).collect()
    };
    assert_eq!(
        per_node(Behaviour::new(35)),
        [(strings(&["n1"]), strings(&["10.0.0.2", "10.0.0.6"])), (strings(&["n2"]), strings(&["10.0.0.6"]))]
    );
    assert_eq!(per_node(V36), [(strings(&["n1", "n2"]), strings(&["10.0.0.6"]))]);
}

// A skewed cluster (docs/behaviour.md#skewed-clusters): control plane 1.33, whose controller wrote
// zone hints for trafficDistribution PreferClose. kube-proxy on the 1.33 nodes filters by them; on
// the node whose kubelet is 1.30, kube-proxy 1.30 needs the annotation and routes to every
// endpoint. The differential fixture skew-133-control-plane-130-nodes-ignore-prefer-close pins it
// against the 1.33 and 1.30 lines.
#[test]
fn each_node_runs_kube_proxy_at_its_kubelets_version() {
    let s = slice(
        "s",
        vec![
            ep("10.0.0.1").zone("a").ready(true).hint_zones(&["a"]),
            ep("10.0.0.2").zone("b").ready(true).hint_zones(&["b"]),
        ],
    );
    let at =
        |name: &str, kubelet: &str| Node { kubelet_version: Some(kubelet.into()), ..node(name, Some("a")) };
    let nodes = vec![at("new", "v1.33.13"), at("old", "v1.30.14-eks-1"), at("older", "v1.19.0")];
    let prefer_close = Service { traffic_distribution: Some("PreferClose".into()), ..service() };
    let view = proxy_view(&prefer_close, &[&s], &nodes, Behaviour::new(33));
    let rows: Vec<(Vec<String>, ProxyMode, Option<String>)> =
        view.zones.iter().map(|z| (z.nodes.clone(), z.mode, z.kube_proxy_version.clone())).collect();
    assert_eq!(
        rows,
        [
            (strings(&["new"]), ProxyMode::PreferSameZone, None),
            (strings(&["old"]), ProxyMode::Cluster, Some("1.30".into())),
            (strings(&["older"]), ProxyMode::Cluster, Some("1.21".into())),
        ]
    );
    assert_eq!(view.zones[1].endpoints.to_vec(), strings(&["10.0.0.1", "10.0.0.2"]));
    // The same nodes under a 1.30 control plane: nobody is older, nothing is skewed.
    let same = proxy_view(&prefer_close, &[&s], &nodes[..2], Behaviour::new(30));
    assert!(same.zones.iter().all(|z| z.kube_proxy_version.is_none()));
    assert_eq!(ProxyNodes::new(&nodes).skewed_nodes(Behaviour::new(33)), strings(&["old", "older"]));
}
