//! Tests mirroring k/k `pkg/proxy/topology_test.go` TestCategorizeEndpoints (v1.36.0 rows, and the
//! annotation rows of v1.24.0/v1.27.0/v1.30.0), `endpointslicecache.go` merging, spec §7.6, W1, W15.

use std::collections::BTreeSet;

use super::*;
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, service};
use crate::model::ANNOTATION_TOPOLOGY_MODE;

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

#[path = "tests_views.rs"]
mod views;
