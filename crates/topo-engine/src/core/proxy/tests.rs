//! Tests mirroring k/k `pkg/proxy/topology_test.go` TestCategorizeEndpoints (v1.36.0 rows, and the
//! annotation rows of v1.24.0/v1.27.0/v1.30.0), `endpointslicecache.go` merging, W1, W15.

use std::collections::BTreeSet;

use super::*;
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, service};
use crate::model::ANNOTATION_TOPOLOGY_MODE;

const V36: Behaviour = Behaviour::new(36);

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
        self.zone_hints = Some(zones.iter().map(|z| std::sync::Arc::from(*z)).collect());
        self
    }
    fn nodes(mut self, nodes: &[&str]) -> Self {
        self.node_hints = Some(nodes.iter().map(|n| std::sync::Arc::from(*n)).collect());
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

#[path = "tests_eras.rs"]
mod eras;
#[path = "tests_views.rs"]
mod views;
