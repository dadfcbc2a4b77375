//! The what-if sections of `explain` on fixtures: replicas needed, the cross-zone share (default and
//! `--traffic` models) and the data-plane caveats (headless Service, Windows nodes).

use kubectl_topo::prose::whatif::count_ranges;
use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze::{self, TrafficModel};
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::ServiceReport;
use topo_engine::report::reason::ReasonCode as C;

use crate::support::{path, read};

fn load(name: &str) -> Snapshot {
    parse_dump(&read(&path(&format!("tests/fixtures/{name}.yaml"))), "test").unwrap().snapshot
}

fn explain(s: &Snapshot, traffic: &TrafficModel) -> ServiceReport {
    let behaviour: Behaviour = "1.36".parse().unwrap();
    analyze::explain_with(s, &s.services[0], behaviour, traffic)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn w02_replicas_needed() {
    let r = explain(&load("w02-three-zones-four-endpoints"), &TrafficModel::ZoneCpu);
    let replicas = r.families[0].replicas.as_ref().unwrap();
    assert_eq!(count_ranges(&replicas.working, replicas.beyond_limit), "3, 6–7, 9–10, ≥ 12");
    assert_eq!((replicas.ready_endpoints, replicas.nearest), (4, Some(6)));
    let two = |zones: &[&str]| zones.iter().map(|z| (z.to_string(), 2)).collect();
    assert_eq!(replicas.minimum_by_zone, two(&["a", "b", "c"]));
    // Spread as today (a:2 b:1 c:1) at 6: a:3, and the remaining seat to b (tie → zone name).
    let at_six = [("a", 3), ("b", 2), ("c", 1)].iter().map(|(z, n)| (z.to_string(), *n)).collect();
    assert_eq!(replicas.spread_at_nearest, at_six);
}

#[test]
fn w01_float_boundary_in_replicas_needed() {
    // 12/4 vCPU: n = 5 fails (min 4 + 2); n = 8 works although 6·K rounds up to 6 (5.000000000000001).
    let r = explain(&load("w01-docs-12-4-vcpu"), &TrafficModel::ZoneCpu);
    let replicas = r.families[0].replicas.as_ref().unwrap();
    assert_eq!(count_ranges(&replicas.working, replicas.beyond_limit), "3–4, ≥ 6");
    assert_eq!(replicas.nearest, Some(4));
}

#[test]
fn w01_cross_zone_share_now_after_sync_and_without_hints() {
    let r = explain(&load("w01-docs-12-4-vcpu"), &TrafficModel::ZoneCpu);
    let c = r.families[0].cross_zone.as_ref().unwrap();
    // Zone a (75 % of requests) → {a1, a2, b1}: a third leaves; zone b → {b2}: none.
    assert!(close(c.overall.expected.cross_zone, 0.25));
    assert!(close(c.overall.now.cross_zone, 0.5) && close(c.overall.without_hints.cross_zone, 0.5));
    assert!(close(c.zones[0].traffic_share, 0.75) && close(c.zones[0].share.expected.cross_zone, 1.0 / 3.0));
    // The controller's allocation gives every endpoint exactly an even share.
    assert_eq!(c.max_load.expected, Some(1.0));

    let given = TrafficModel::Given([("a".to_string(), 1.0), ("b".to_string(), 1.0)].into());
    let r = explain(&load("w01-docs-12-4-vcpu"), &given);
    let c = r.families[0].cross_zone.as_ref().unwrap();
    assert!(close(c.overall.expected.cross_zone, 1.0 / 6.0), "{:?}", c.overall);
    // b2 alone serves zone b's half of the requests: twice an even share.
    let b2 = c.endpoints.iter().find(|e| e.address == "10.0.2.12").unwrap();
    assert!(close(b2.load.expected, 2.0));
}

#[test]
fn headless_service_has_a_caveat_and_no_cross_zone_share() {
    let mut s = load("w03-four-zones-hinted");
    s.services[0].cluster_ip = Some("None".into());
    let r = explain(&s, &TrafficModel::ZoneCpu);
    let notes: Vec<C> = r.notes.iter().map(|n| n.code).collect();
    assert_eq!(notes, vec![C::HeadlessService]);
    assert!(r.families[0].cross_zone.is_none());
}

#[test]
fn windows_nodes_are_named_in_a_caveat() {
    let mut s = load("w03-four-zones-hinted");
    s.nodes[1].labels.insert("kubernetes.io/os".into(), "windows".into());
    let r = explain(&s, &TrafficModel::ZoneCpu);
    let note = r.notes.iter().find(|n| n.code == C::WindowsNodes).expect("windows caveat");
    assert_eq!(note.facts.nodes, vec!["node-b".to_string()]);
    let sentence = kubectl_topo::prose::sentence(note);
    assert!(sentence.contains("node-b run Windows"), "{sentence}");
    // kube-proxy on node-b routes to all four endpoints: three quarters of zone b's requests leave.
    let c = r.families[0].cross_zone.as_ref().unwrap();
    let b = c.zones.iter().find(|z| z.zone == "b").unwrap();
    assert!(close(b.share.now.cross_zone, 0.75));
}

#[test]
fn cilium_config_in_a_dump_gives_a_data_plane_caveat() {
    let base = read(&path("tests/fixtures/w03-four-zones-hinted.yaml"));
    let with = |data: &str| {
        let cm = format!(
            "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cilium-config\n  namespace: kube-system\ndata:\n{data}"
        );
        parse_dump(&format!("{base}{cm}"), "test").unwrap().snapshot
    };
    let codes = |s: &Snapshot| -> Vec<C> {
        explain(s, &TrafficModel::ZoneCpu).notes.iter().map(|n| n.code).collect()
    };
    let off = with("  kube-proxy-replacement: \"true\"\n  enable-service-topology: \"false\"\n");
    assert!(codes(&off).contains(&C::CiliumIgnoresHints), "{:?}", codes(&off));
    let on = with("  kube-proxy-replacement: \"true\"\n  enable-service-topology: \"true\"\n");
    // topology-mode is read from Cilium 1.14 on; with no Cilium version read, the path says so.
    let path = explain(&on, &TrafficModel::ZoneCpu).data_plane[0].verdict;
    assert_eq!(path, C::CiliumVersionUnknown);
    let agent = "\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: cilium\n  namespace: kube-system\n\
                 spec:\n  template:\n    spec:\n      containers:\n      - name: cilium-agent\n        image: quay.io/cilium/cilium:v1.15.1\n";
    let on =
        with(&format!("  kube-proxy-replacement: \"true\"\n  enable-service-topology: \"true\"\n{agent}"));
    assert!(codes(&on).contains(&C::CiliumAppliesHints), "{:?}", codes(&on));
    let kube_proxy = with("  kube-proxy-replacement: \"false\"\n");
    assert!(!codes(&kube_proxy).iter().any(|c| matches!(c, C::CiliumIgnoresHints | C::CiliumAppliesHints)));
    let plain = load("w03-four-zones-hinted");
    assert!(!codes(&plain).iter().any(|c| matches!(c, C::CiliumIgnoresHints | C::CiliumAppliesHints)));
}
