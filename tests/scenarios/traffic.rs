//! W14–W15: the trafficDistribution path and kube-proxy with PreferSameNode hints.

use topo_engine::report::mode::Mode;
use topo_engine::report::proxy::ProxyMode;
use topo_engine::report::reason::ReasonCode as C;
use topo_engine::report::{ControllerAction, Verdict};

use super::*;

/// (address, own zone, node) of W14's six pods p0..p5.
const W14_PODS: [(&str, &str, &str); 6] = [
    ("10.0.1.10", "a", "n0"),
    ("10.0.2.11", "b", "n1"),
    ("10.0.2.12", "b", "n1"),
    ("10.0.2.13", "b", "n1"),
    ("10.0.3.14", "c", "n2"),
    ("10.0.3.15", "c", "n2"),
];

#[test]
fn w14_traffic_distribution() {
    let text = fixture("w14-traffic-distribution");

    let close = explain(&text, "svc-close");
    assert_eq!(close.mode, Mode::PreferClose);
    let f = family(&close);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing]));
    assert!(f.event.is_none(), "the trafficDistribution path emits no events");
    assert!(f.count_outcomes.is_empty());
    for (address, zone, _) in W14_PODS {
        let e = endpoint(f, address);
        assert_eq!((e.expected_zones.clone(), e.expected_nodes.clone()), (zones_of(&[zone]), None));
    }

    let same_node = explain(&text, "svc-same-node");
    assert_eq!(same_node.mode, Mode::PreferSameNode);
    let f = family(&same_node);
    assert_eq!((f.verdict, f.action), (Verdict::Drift, ControllerAction::Write));
    assert!(f.event.is_none());
    for (address, zone, node) in W14_PODS {
        let e = endpoint(f, address);
        assert_eq!(
            (e.expected_zones.clone(), e.expected_nodes.clone()),
            (zones_of(&[zone]), zones_of(&[node]))
        );
    }

    // The annotation wins over PreferClose: CPU-proportional, min = max = 2 → one b pod hinted a.
    let auto = explain(&text, "svc-auto");
    assert_eq!(auto.mode, Mode::Auto);
    let notes: Vec<C> = auto.notes.iter().map(|n| n.code).collect();
    assert_eq!(notes, vec![C::AnnotationOverridesTrafficDistribution]);
    let f = family(&auto);
    assert_eq!(event(f).1, "TopologyAwareHintsEnabled");
    for z in ["a", "b", "c"] {
        assert_eq!(bounds(f, z), (Some(2), Some(2), 2, 0), "{z}");
    }
    let moved: Vec<&str> = W14_PODS
        .iter()
        .filter(|(address, zone, _)| endpoint(f, address).expected_zones != zones_of(&[zone]))
        .map(|(address, zone, _)| {
            assert_eq!((*zone, endpoint(f, address).expected_zones.clone()), ("b", zones_of(&["a"])));
            *address
        })
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert!(f.endpoints.iter().all(|e| e.expected_nodes.is_none()), "no forNodes on the Auto path");
}

const P1: &str = "10.0.1.11";
const P2: &str = "10.0.1.12";
const P3: &str = "10.0.2.11";

#[test]
fn w15_kube_proxy_prefer_same_node() {
    let r = explain(&fixture("w15-kube-proxy-prefer-same-node"), "svc");
    assert_eq!(r.mode, Mode::PreferSameNode);
    let f = family(&r);
    assert_eq!((f.verdict, f.action), (Verdict::Active, ControllerAction::Keep), "controller in sync");
    assert!(f.reasons.is_empty() && f.event.is_none());
    assert_eq!(proxy_on(f, "n1"), (ProxyMode::PreferSameNode, strings(&[P1]), None));
    assert_eq!(proxy_on(f, "n2"), (ProxyMode::PreferSameNode, strings(&[P2]), None));
    assert_eq!(proxy_on(f, "n3"), (ProxyMode::PreferSameNode, strings(&[P3]), None));
    // n4: no node hint names it (V2 log) → zone mode.
    assert_eq!(
        proxy_on(f, "n4"),
        (ProxyMode::PreferSameZone, strings(&[P1, P2]), Some(C::ProxyNodeNotHinted))
    );
    let n4 = f.proxy.iter().find(|v| v.nodes == ["n4"]).unwrap();
    assert_eq!(
        n4.log_line.as_deref(),
        Some(
            "\"Ignoring same-node topology hints for service since no hints were provided for node\" \
             service=\"10.96.0.10:80/TCP\" node=\"n4\""
        )
    );
    // n5: the node line, then no hint for zone c → all three.
    assert_eq!(proxy_on(f, "n5"), (ProxyMode::Cluster, strings(&[P1, P2, P3]), Some(C::ProxyZoneNotHinted)));
    let n5 = f.proxy.iter().find(|v| v.nodes == ["n5"]).unwrap();
    let lines: Vec<&str> = n5.log_line.as_deref().unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains("no hints were provided for node") && lines[0].ends_with("node=\"n5\""));
    assert!(lines[1].contains("no hints were provided for zone") && lines[1].ends_with("zone=\"c\""));
}

/// 1.33: the PreferSameTrafficDistribution gate is off (alpha) in kube-proxy, so forNodes are ignored
/// and n1 gets the zone's {p1,p2}; the 1.33 controller, gate off too, removes the hints.
#[test]
fn w15_kube_proxy_1_33_ignores_node_hints() {
    let r = explain_at(&fixture("w15-kube-proxy-prefer-same-node"), "svc", "1.33");
    let f = family(&r);
    for node in ["n1", "n2", "n4"] {
        let (mode, endpoints, _) = proxy_on(f, node);
        assert_eq!((mode, endpoints), (ProxyMode::PreferSameZone, strings(&[P1, P2])), "{node}");
    }
    assert_eq!(proxy_on(f, "n3").1, strings(&[P3]));
    assert_eq!(proxy_on(f, "n5"), (ProxyMode::Cluster, strings(&[P1, P2, P3]), Some(C::ProxyZoneNotHinted)));
    let n5 = f.proxy.iter().find(|v| v.nodes == ["n5"]).unwrap();
    assert!(!n5.log_line.as_deref().unwrap().contains("same-node"), "no node-hint logic at 1.33");
    assert_eq!(r.mode, Mode::None);
    assert_eq!((f.verdict, codes(f)[0]), (Verdict::Drift, C::HintsUnexpected));
}
