//! Tests mirroring k/k `pkg/proxy/topology_test.go` TestCategorizeEndpoints (v1.36.0 rows, and the
//! annotation rows of v1.24.0/v1.27.0/v1.30.0), `endpointslicecache.go` merging, spec §7.6, W1, W15.

use std::collections::BTreeSet;

use super::*;
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, ep, node, service, slice};
use crate::model::{ANNOTATION_TOPOLOGY_MODE, Node};

const V36: Behaviour = Behaviour { minor: 36 };

/// `&BaseEndpointInfo{endpoint: "<addr>:80"}`: not ready, not serving, not terminating, no hints.
fn pe(address: &str) -> ProxyEndpoint {
    ProxyEndpoint {
        address: address.to_string(),
        port: 80,
        node_name: None,
        is_local: false,
        ready: false,
        serving: false,
        terminating: false,
        zone_hints: None,
        node_hints: None,
    }
}

trait PeExt {
    fn r(self) -> Self;
    fn st(self) -> Self;
    fn local(self) -> Self;
    fn zones(self, zones: &[&str]) -> Self;
    fn nodes(self, nodes: &[&str]) -> Self;
}

impl PeExt for ProxyEndpoint {
    fn r(mut self) -> Self {
        self.ready = true;
        self
    }
    fn st(mut self) -> Self {
        (self.serving, self.terminating) = (true, true);
        self
    }
    fn local(mut self) -> Self {
        self.is_local = true;
        self
    }
    fn zones(mut self, zones: &[&str]) -> Self {
        self.zone_hints = Some(zones.iter().map(|z| z.to_string()).collect());
        self
    }
    fn nodes(mut self, nodes: &[&str]) -> Self {
        self.node_hints = Some(nodes.iter().map(|n| n.to_string()).collect());
        self
    }
}

fn info() -> ProxyServiceInfo {
    ProxyServiceInfo {
        cluster_ip: "10.96.0.10".into(),
        port: 80,
        protocol: "TCP".into(),
        internal_policy_local: false,
        external_policy_local: false,
        externally_accessible: false,
        hints_annotation: None,
    }
}

fn policy(itp: bool, etp: bool, node_port: bool) -> ProxyServiceInfo {
    ProxyServiceInfo {
        internal_policy_local: itp,
        external_policy_local: etp,
        externally_accessible: node_port,
        ..info()
    }
}

/// Four ready endpoints .3(a) .4(b) .5(c) .6(a) by hint.
fn abca() -> Vec<ProxyEndpoint> {
    vec![
        pe("10.1.2.3").r().zones(&["zone-a"]),
        pe("10.1.2.4").r().zones(&["zone-b"]),
        pe("10.1.2.5").r().zones(&["zone-c"]),
        pe("10.1.2.6").r().zones(&["zone-a"]),
    ]
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|id| if id.contains(':') { id.to_string() } else { format!("{id}:80") }).collect()
}

struct Row {
    name: &'static str,
    minor: u32,
    node: &'static str,
    zone: Option<&'static str>,
    svc: ProxyServiceInfo,
    endpoints: Vec<ProxyEndpoint>,
    cluster: &'static [&'static str],
    local: &'static [&'static str],
    all: Option<&'static [&'static str]>,
    only_remote: bool,
}

fn row(
    name: &'static str,
    zone: Option<&'static str>,
    svc: ProxyServiceInfo,
    endpoints: Vec<ProxyEndpoint>,
) -> Row {
    Row {
        name,
        minor: 36,
        node: "",
        zone,
        svc,
        endpoints,
        cluster: &[],
        local: &[],
        all: None,
        only_remote: false,
    }
}

impl Row {
    fn cluster(mut self, ids: &'static [&'static str]) -> Self {
        self.cluster = ids;
        self
    }
    fn local(mut self, ids: &'static [&'static str]) -> Self {
        self.local = ids;
        self
    }
    fn all(mut self, ids: &'static [&'static str]) -> Self {
        self.all = Some(ids);
        self
    }
    fn at(mut self, minor: u32, node: &'static str) -> Self {
        (self.minor, self.node) = (minor, node);
        self
    }
    fn only_remote(mut self) -> Self {
        self.only_remote = true;
        self
    }

    // mirrors topology_test.go: the checks after CategorizeEndpoints (nil and empty lists equal)
    fn check(&self) {
        let node = ProxyNode { name: self.node, zone: self.zone, windows: false };
        let got = categorize_endpoints(&self.endpoints, &self.svc, &node, Behaviour::new(self.minor));
        let as_set = |list: &Option<Vec<String>>| list.iter().flatten().cloned().collect::<BTreeSet<_>>();
        assert_eq!(as_set(&got.cluster), set(self.cluster), "{}: cluster", self.name);
        assert_eq!(as_set(&got.local), set(self.local), "{}: local", self.name);
        let want_all = match (self.cluster.is_empty(), self.local.is_empty()) {
            (false, true) => set(self.cluster),
            (true, false) => set(self.local),
            _ => set(self.all.unwrap_or(&[])),
        };
        assert_eq!(
            got.all_reachable.iter().cloned().collect::<BTreeSet<_>>(),
            want_all,
            "{}: all",
            self.name
        );
        assert_eq!(got.has_any_endpoints, !want_all.is_empty() || self.only_remote, "{}: hasAny", self.name);
    }
}

#[test]
fn test_categorize_endpoints() {
    let two = |a: ProxyEndpoint, b: ProxyEndpoint| vec![a, b];
    let rows = [
        row("should use topology since all endpoints have hints, node has a zone label and and there are endpoints for the node's zone", Some("zone-a"), info(), abca()).cluster(&["10.1.2.3", "10.1.2.6"]),
        row("externalTrafficPolicy: Local, topology ignored for Local endpoints", Some("zone-a"), policy(false, true, true), {
            let mut e = abca();
            e[0].is_local = true;
            e[1].is_local = true;
            e
        })
        .cluster(&["10.1.2.3", "10.1.2.6"]).local(&["10.1.2.3", "10.1.2.4"]).all(&["10.1.2.3", "10.1.2.4", "10.1.2.6"]),
        row("internalTrafficPolicy: Local, topology ignored for Local endpoints", Some("zone-a"), policy(true, false, true), {
            let mut e = abca();
            e[0].is_local = true;
            e[1].is_local = true;
            e
        })
        .cluster(&["10.1.2.3", "10.1.2.6"]).local(&["10.1.2.3", "10.1.2.4"]).all(&["10.1.2.3", "10.1.2.4", "10.1.2.6"]),
        row("empty node labels", None, info(), vec![pe("10.1.2.3").r().zones(&["zone-a"])]).cluster(&["10.1.2.3"]),
        row("empty zone label", Some(""), info(), vec![pe("10.1.2.3").r().zones(&["zone-a"])]).cluster(&["10.1.2.3"]),
        row("node in different zone, no endpoint filtering", Some("zone-b"), info(), vec![pe("10.1.2.3").r().zones(&["zone-a"])]).cluster(&["10.1.2.3"]),
        row("unready endpoint", Some("zone-a"), info(), {
            let mut e = abca();
            e[3].ready = false;
            e
        })
        .cluster(&["10.1.2.3"]),
        row("only unready endpoints in same zone (should not filter)", Some("zone-a"), info(), {
            let mut e = abca();
            (e[0].ready, e[3].ready) = (false, false);
            e
        })
        .cluster(&["10.1.2.4", "10.1.2.5"]),
        row("missing hints, no filtering applied", Some("zone-a"), info(), {
            let mut e = abca();
            e[2].zone_hints = None;
            e
        })
        .cluster(&["10.1.2.3", "10.1.2.4", "10.1.2.5", "10.1.2.6"]),
        row("multiple hints per endpoint, filtering includes any endpoint with zone included", Some("zone-c"), info(), vec![
            pe("10.1.2.3").r().zones(&["zone-a", "zone-b", "zone-c"]),
            pe("10.1.2.4").r().zones(&["zone-b", "zone-c"]),
            pe("10.1.2.5").r().zones(&["zone-b", "zone-d"]),
            pe("10.1.2.6").r().zones(&["zone-c"]),
        ])
        .cluster(&["10.1.2.3", "10.1.2.4", "10.1.2.6"]),
        // preferSameEnabled=false is modelled as 1.33 (PreferSameTrafficDistribution alpha, off).
        row("PreferSameNode falls back to same-zone when feature gate disabled", Some("zone-a"), info(), node_hinted()).at(33, "node-1").cluster(&["10.1.2.3", "10.1.2.6"]),
        row("PreferSameNode available", Some("zone-a"), info(), node_hinted()).at(36, "node-1").cluster(&["10.1.2.3"]),
        row("PreferSameNode ignored if some endpoints unhinted", Some("zone-a"), info(), {
            let mut e = node_hinted();
            (e[1].zone_hints, e[1].node_hints) = (None, None);
            e
        })
        .at(36, "node-1")
        .cluster(&["10.1.2.3", "10.1.2.4", "10.1.2.5", "10.1.2.6"]),
        row("PreferSameNode falls back to PreferSameZone if no endpoint for node", Some("zone-a"), info(), node_hinted()).at(36, "node-0").cluster(&["10.1.2.3", "10.1.2.6"]),
        row("conflicting topology and localness require merging allEndpoints", Some("zone-a"), policy(false, true, true), vec![
            pe("10.0.0.0").r().zones(&["zone-a"]).local(),
            pe("10.0.0.1").r().zones(&["zone-b"]).local(),
            pe("10.0.0.2").r().zones(&["zone-a"]),
            pe("10.0.0.3").r().zones(&["zone-b"]),
        ])
        .cluster(&["10.0.0.0", "10.0.0.2"]).local(&["10.0.0.0", "10.0.0.1"]).all(&["10.0.0.0", "10.0.0.1", "10.0.0.2"]),
        row("internalTrafficPolicy: Local, with empty endpoints", None, policy(true, false, false), vec![]),
        row("internalTrafficPolicy: Local, but all endpoints are remote", None, policy(true, false, false), two(pe("10.0.0.0").r(), pe("10.0.0.1").r())).only_remote(),
        row("internalTrafficPolicy: Local, all endpoints are local", None, policy(true, false, false), two(pe("10.0.0.0").r().local(), pe("10.0.0.1").r().local())).local(&["10.0.0.0", "10.0.0.1"]),
        row("internalTrafficPolicy: Local, some endpoints are local", None, policy(true, false, false), two(pe("10.0.0.0").r().local(), pe("10.0.0.1").r())).local(&["10.0.0.0"]),
        row("Cluster traffic policy, endpoints not Ready", None, info(), two(pe("10.0.0.0"), pe("10.0.0.1"))),
        row("Cluster traffic policy, some endpoints are Ready", None, info(), two(pe("10.0.0.0"), pe("10.0.0.1").r())).cluster(&["10.0.0.1"]),
        row("Cluster traffic policy, all endpoints are terminating", None, info(), two(pe("10.0.0.0").st().local(), pe("10.0.0.1").st())).cluster(&["10.0.0.0", "10.0.0.1"]),
        row("iTP: Local, eTP: Cluster, some endpoints local", None, policy(true, false, true), two(pe("10.0.0.0").r().local(), pe("10.0.0.1").r()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).local(&["10.0.0.0"]).all(&["10.0.0.0", "10.0.0.1"]),
        row("iTP: Cluster, eTP: Local, some endpoints local", None, policy(false, true, true), two(pe("10.0.0.0").r().local(), pe("10.0.0.1").r()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).local(&["10.0.0.0"]).all(&["10.0.0.0", "10.0.0.1"]),
        row("iTP: Local, eTP: Local, some endpoints local", None, policy(true, true, true), two(pe("10.0.0.0").r().local(), pe("10.0.0.1").r()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).local(&["10.0.0.0"]).all(&["10.0.0.0", "10.0.0.1"]),
        row("iTP: Local, eTP: Local, all endpoints remote", None, policy(true, true, true), two(pe("10.0.0.0").r(), pe("10.0.0.1").r()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).all(&["10.0.0.0", "10.0.0.1"]),
        row("iTP: Local, eTP: Local, all endpoints remote and terminating", None, policy(true, true, true), two(pe("10.0.0.0").st(), pe("10.0.0.1").st()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).all(&["10.0.0.0", "10.0.0.1"]).only_remote(),
        row("iTP: Cluster, eTP: Local, with terminating endpoints", None, policy(false, true, true), vec![
            pe("10.0.0.0").r(),
            pe("10.0.0.1").local(),
            pe("10.0.0.2").st().local(),
            pe("10.0.0.3").st(),
        ])
        .cluster(&["10.0.0.0"]).local(&["10.0.0.2"]).all(&["10.0.0.0", "10.0.0.2"]),
        row("externalTrafficPolicy ignored if not externally accessible", None, policy(false, true, false), two(pe("10.0.0.0").r(), pe("10.0.0.1").r().local()))
            .cluster(&["10.0.0.0", "10.0.0.1"]).all(&["10.0.0.0", "10.0.0.1"]),
        row("no cluster endpoints for iTP:Local internal-only service", None, policy(true, false, false), two(pe("10.0.0.0").r(), pe("10.0.0.1").r().local())).local(&["10.0.0.1"]),
        row("empty endpoints when no service endpoints exist", None, info(), vec![]),
        row("single endpoint not ready, not serving, not terminating", Some("zone-a"), info(), vec![pe("10.0.0.0")]),
    ];
    for row in &rows {
        row.check();
    }
}

fn node_hinted() -> Vec<ProxyEndpoint> {
    let mut e = abca();
    for (i, endpoint) in e.iter_mut().enumerate() {
        *endpoint = endpoint.clone().nodes(&[&format!("node-{}", i + 1)]);
    }
    e
}

fn categorize(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node: &str,
    zone: Option<&str>,
    minor: u32,
) -> Categorized {
    categorize_endpoints(
        endpoints,
        svc,
        &ProxyNode { name: node, zone, windows: false },
        Behaviour::new(minor),
    )
}

fn lines(c: &Categorized) -> Vec<(u8, String)> {
    c.logs.iter().map(|log| (log.verbosity, log.line.clone())).collect()
}

fn annotated(key: &str, value: &str) -> ProxyServiceInfo {
    ProxyServiceInfo { hints_annotation: Some((key.to_string(), value.to_string())), ..info() }
}

// topology_test.go at v1.24.0 / v1.27.0 / v1.30.0: the hints-annotation rows (spec §4.4, §7.6)
#[test]
fn test_categorize_endpoints_annotation_eras() {
    let deprecated = ANNOTATION_TOPOLOGY_AWARE_HINTS;
    let filtered = set(&["10.1.2.3", "10.1.2.6"]);
    let everything = set(&["10.1.2.3", "10.1.2.4", "10.1.2.5", "10.1.2.6"]);
    let cases = [
        ("hints enabled, hints annotation == auto", 24, Some("auto"), &filtered),
        ("normal endpoint filtering, Auto annotation", 24, Some("Auto"), &filtered),
        ("hints, hints annotation == disabled, hints ignored", 24, Some("disabled"), &everything),
        (
            "hints, hints annotation == aUto (wrong capitalization), hints ignored",
            24,
            Some("aUto"),
            &everything,
        ),
        ("hints, hints annotation empty, hints ignored", 24, None, &everything),
        (
            "hints, hints annotation == aUto (wrong capitalization), hints no longer ignored",
            27,
            Some("aUto"),
            &filtered,
        ),
        ("1.27: PreferZone enables kube-proxy's use of hints", 27, Some("PreferZone"), &filtered),
        ("hints, hints annotation == disabled, hints ignored (1.29)", 29, Some("Disabled"), &everything),
        ("hints, hints annotation empty, hints ignored (1.30, gate off)", 30, None, &everything),
        (
            "hints, hints annotation empty but trafficDist feature gate enabled, hints are not ignored",
            31,
            None,
            &filtered,
        ),
        (
            "hints disabled, trafficDist feature gate enabled, hints are not ignored",
            32,
            Some("disabled"),
            &filtered,
        ),
        ("newest: no annotation needed", 36, None, &filtered),
    ];
    for (name, minor, value, want) in cases {
        let svc = value.map_or_else(info, |v| annotated(deprecated, v));
        let got = categorize(&abca(), &svc, "", Some("zone-a"), minor);
        assert_eq!(got.cluster.unwrap().into_iter().collect::<BTreeSet<_>>(), *want, "{name}");
        let not_used = got.reason.as_ref().is_some_and(|r| r.code == ReasonCode::ProxyTopologyNotUsed);
        assert_eq!(not_used, want.len() == 4, "{name}: reason {:?}", got.reason);
    }
    let auo = categorize(&abca(), &annotated(deprecated, "aUto"), "", Some("zone-a"), 24);
    let want = r#""Skipping topology aware endpoint filtering since Service has unexpected value" annotationTopologyAwareHints="service.kubernetes.io/topology-aware-hints" hints="aUto""#;
    assert_eq!(lines(&auo), [(0, want.to_string())]);
    // Before 1.27 kube-proxy reads only the deprecated key.
    let mut svc = service().annotation(ANNOTATION_TOPOLOGY_MODE, "Auto");
    assert_eq!(
        ProxyServiceInfo::from_service(&svc, &svc.ports[0], Behaviour::new(26)).hints_annotation,
        None
    );
    svc = svc.annotation(deprecated, "Disabled");
    let read = ProxyServiceInfo::from_service(&svc, &svc.ports[0], Behaviour::new(27)).hints_annotation;
    assert_eq!(read, Some((deprecated.to_string(), "Disabled".to_string())));
}

#[test]
fn skip_logs_per_era() {
    let svc = annotated(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto");
    let missing = {
        let mut e = abca();
        e[0].zone_hints = None;
        e
    };
    let s = r#"service="10.96.0.10:80/TCP""#;
    let skip = "Skipping topology aware endpoint filtering since";
    let same_zone = "Ignoring same-zone topology hints for service since";
    // 1.34+: with the PreferSameTrafficDistribution gate on, zone-only hints first log the V7 node line.
    let node_line = (
        7,
        format!(
            r#""Ignoring same-node topology hints for service since one or more endpoints is missing a node hint" {s}"#
        ),
    );
    type Case = (&'static str, u32, Vec<ProxyEndpoint>, Option<&'static str>, Vec<(u8, String)>);
    let cases: Vec<Case> = vec![
        (
            "W1 zone-c, newest",
            36,
            abca(),
            Some("zone-d"),
            vec![
                node_line.clone(),
                (2, format!(r#""{same_zone} no hints were provided for zone" {s} zone="zone-d""#)),
            ],
        ),
        (
            "no zone label, newest",
            36,
            abca(),
            None,
            vec![
                node_line.clone(),
                (
                    2,
                    format!(r#""{same_zone} node is missing label" {s} label="topology.kubernetes.io/zone""#),
                ),
            ],
        ),
        (
            "missing zone hint, newest",
            36,
            missing.clone(),
            Some("zone-a"),
            vec![
                node_line,
                (7, format!(r#""{same_zone} one or more endpoints is missing a zone hint" {s}"#)),
            ],
        ),
        (
            "1.32: hint checked before label",
            32,
            missing.clone(),
            None,
            vec![(
                7,
                format!(r#""{skip} one or more endpoints is missing a zone hint" endpoint="10.1.2.3:80""#),
            )],
        ),
        (
            "1.32: label after a hinted endpoint",
            32,
            abca(),
            None,
            vec![(2, format!(r#""{skip} node is missing label" label="topology.kubernetes.io/zone""#))],
        ),
        (
            "1.32: zone log at V7",
            32,
            abca(),
            Some("zone-d"),
            vec![(7, format!(r#""{skip} no hints were provided for zone" zone="zone-d""#))],
        ),
        (
            "1.30: label checked first",
            30,
            missing.clone(),
            None,
            vec![(2, format!(r#""{skip} node is missing label" label="topology.kubernetes.io/zone""#))],
        ),
        (
            "1.29: V2 with endpoint",
            29,
            missing.clone(),
            Some("zone-a"),
            vec![(
                2,
                format!(r#""{skip} one or more endpoints is missing a zone hint" endpoint="10.1.2.3:80""#),
            )],
        ),
        (
            "1.27: V0 without endpoint",
            27,
            missing,
            Some("zone-a"),
            vec![(0, format!(r#""{skip} one or more endpoints is missing a zone hint""#))],
        ),
    ];
    for (name, minor, endpoints, zone, want) in cases {
        assert_eq!(lines(&categorize(&endpoints, &svc, "n", zone, minor)), want, "{name}");
    }
}

#[test]
fn no_ready_endpoints_logs_per_era() {
    // Only non-ready (crash-looping) endpoints: 1.33–1.35 log spuriously, 1.36 does not (k/k #136743).
    let unready = vec![pe("10.0.0.1").zones(&["zone-a"])];
    for (minor, logged) in [(33, true), (34, true), (35, true), (36, false)] {
        let got = categorize(&unready, &info(), "n", Some("zone-b"), minor);
        assert_eq!(!got.logs.is_empty(), logged, "1.{minor}");
        assert_eq!(got.reason.map(|r| r.code), Some(ReasonCode::ProxyNoReadyEndpoints), "1.{minor}");
    }
    // No endpoints at all: only 1.33.0–1.33.5 log (fixed by k/k #132680).
    for (minor, logged) in [(33, true), (34, false)] {
        let got = categorize(&[], &info(), "n", Some("zone-b"), minor);
        assert_eq!(!got.logs.is_empty(), logged, "1.{minor}");
        assert_eq!(got.reason.map(|r| r.code), Some(ReasonCode::ProxyNoReadyEndpoints), "1.{minor}");
    }
    // ProxyTerminatingEndpoints off before 1.26: no serving+terminating fallback.
    let terminating = vec![pe("10.0.0.1").st()];
    assert_eq!(categorize(&terminating, &info(), "n", None, 25).cluster, Some(vec![]));
    assert_eq!(
        categorize(&terminating, &info(), "n", None, 26).cluster,
        Some(vec!["10.0.0.1:80".to_string()])
    );
    // 1.21–1.23: gate off, hints never used.
    let old =
        categorize(&abca(), &annotated(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto"), "n", Some("zone-a"), 23);
    assert_eq!((old.topology_mode, old.cluster.map(|c| c.len())), (None, Some(4)));
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
    b.endpoints.push(crate::model::Endpoint { addresses: vec![], ..ep("x") });
    let got = endpoints_for_port(&[&a, &b], "http", "TCP", "n2", V36);
    let ids: Vec<String> = got.iter().map(ProxyEndpoint::identity).collect();
    assert_eq!(ids, ["10.0.0.1:80", "10.0.0.2:80", "[fd00::1]:80"]);
    // nil conditions: ready, serving, not terminating.
    assert!(got[0].ready && got[0].serving && !got[0].terminating);
    // 1.36: first non-terminating copy kept; a non-terminating copy replaces a terminating one.
    assert_eq!(got[0].zone_hints, Some(["a".to_string()].into()));
    assert_eq!((got[1].terminating, got[1].is_local), (false, true));
    assert_eq!(got[0].node_hints, Some(["n1".to_string()].into()));
    // ≤1.35: the local copy wins; node hints need the PreferSameTrafficDistribution gate.
    let old = endpoints_for_port(&[&a, &b], "http", "TCP", "n2", Behaviour::new(33));
    assert_eq!(
        (old[0].zone_hints.clone(), old[0].is_local, old[0].node_hints.clone()),
        (Some(["b".to_string()].into()), true, None)
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
        (z.mode, z.endpoints.clone(), z.external_endpoints.clone()),
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
    // 1.30–1.32 `""` zone hints: a node without a zone label uses them (spec §4.3, derived) at 1.33+.
    let empty_hint = slice(
        "e",
        vec![
            ep("10.0.0.7").ready(true).hint_zones(&[""]),
            ep("10.0.0.8").zone("b").ready(true).hint_zones(&["b"]),
        ],
    );
    let nodes = [node("nz", None)];
    assert_eq!(
        proxy_view(&service(), &[&empty_hint], &nodes, V36).zones[0].endpoints,
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
