//! Test builders for mode selection, `trafficdist` and kube-proxy tests: synthetic Services,
//! EndpointSlices, endpoints and Nodes with upstream-like defaults (as in upstream's `*_test.go`, style practice 11).

use std::sync::Arc;

use crate::model::{
    CONTROLLER_NAME, Endpoint, EndpointSlice, Hints, LABEL_ZONE, Node, Service, ServicePort, SlicePort,
};

/// An endpoint with one address, no conditions, no topology (shared with the topologycache kit).
pub(crate) use super::testkit_tc::ep;

/// Chainable setters for [`Endpoint`] in tests.
pub(crate) trait EndpointTestExt: Sized {
    /// `zone`.
    fn zone(self, zone: &str) -> Self;
    /// `nodeName`.
    fn node(self, node: &str) -> Self;
    /// `conditions.ready`.
    fn ready(self, ready: bool) -> Self;
    /// `conditions.serving`.
    fn serving(self, serving: bool) -> Self;
    /// `conditions.terminating`.
    fn terminating(self, terminating: bool) -> Self;
    /// `hints.forZones` (keeps existing forNodes).
    fn hint_zones(self, zones: &[&str]) -> Self;
    /// `hints.forNodes` (keeps existing forZones).
    fn hint_nodes(self, nodes: &[&str]) -> Self;
    /// `hints: {}` (present but empty).
    fn hints_empty(self) -> Self;
}

fn names(values: &[&str]) -> Vec<Arc<str>> {
    values.iter().map(|&v| v.into()).collect()
}

impl EndpointTestExt for Endpoint {
    fn zone(mut self, zone: &str) -> Self {
        self.zone = Some(zone.into());
        self
    }
    fn node(mut self, node: &str) -> Self {
        self.node_name = Some(node.into());
        self
    }
    fn ready(mut self, ready: bool) -> Self {
        self.ready = Some(ready);
        self
    }
    fn serving(mut self, serving: bool) -> Self {
        self.serving = Some(serving);
        self
    }
    fn terminating(mut self, terminating: bool) -> Self {
        self.terminating = Some(terminating);
        self
    }
    fn hint_zones(mut self, zones: &[&str]) -> Self {
        self.hints.get_or_insert_with(Hints::default).for_zones = Some(names(zones).into());
        self
    }
    fn hint_nodes(mut self, nodes: &[&str]) -> Self {
        self.hints.get_or_insert_with(Hints::default).for_nodes = Some(names(nodes).into());
        self
    }
    fn hints_empty(mut self) -> Self {
        self.hints = Some(Hints::default());
        self
    }
}

/// A controller-managed IPv4 slice of Service `demo/demo-service` with port `http` 80/TCP.
pub(crate) fn slice(name: &str, endpoints: Vec<Endpoint>) -> EndpointSlice {
    EndpointSlice {
        namespace: "demo".to_string(),
        name: name.to_string(),
        service_name: Some("demo-service".to_string()),
        managed_by: Some(CONTROLLER_NAME.to_string()),
        address_type: "IPv4".to_string(),
        ports: vec![SlicePort {
            name: Some("http".to_string()),
            port: Some(80),
            protocol: Some("TCP".to_string()),
        }],
        endpoints,
    }
}

/// Service `demo/demo-service`, ClusterIP 10.96.0.10, port `http` 80/TCP, with a selector.
pub(crate) fn service() -> Service {
    Service {
        namespace: "demo".to_string(),
        name: "demo-service".to_string(),
        labels: Default::default(),
        annotations: Default::default(),
        has_selector: true,
        selector: Default::default(),
        service_type: "ClusterIP".to_string(),
        cluster_ip: Some("10.96.0.10".to_string()),
        ip_families: vec!["IPv4".to_string()],
        traffic_distribution: None,
        internal_traffic_policy: None,
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        line: Default::default(),
        ports: vec![ServicePort {
            name: "http".to_string(),
            port: 80,
            protocol: "TCP".to_string(),
            node_port: 0,
        }],
    }
}

/// Chainable setters for [`Service`] in tests.
pub(crate) trait ServiceTestExt: Sized {
    /// Adds an annotation.
    fn annotation(self, key: &str, value: &str) -> Self;
    /// Sets `spec.trafficDistribution`.
    fn traffic_distribution(self, value: &str) -> Self;
    /// `internalTrafficPolicy: Local`.
    fn itp_local(self) -> Self;
    /// `type: NodePort`, nodePort 30080, `externalTrafficPolicy: Local`.
    fn etp_local_node_port(self) -> Self;
    /// `type: NodePort`, nodePort 30080.
    fn node_port(self) -> Self;
}

impl ServiceTestExt for Service {
    fn annotation(mut self, key: &str, value: &str) -> Self {
        self.annotations.insert(key.to_string(), value.to_string());
        self
    }
    fn traffic_distribution(mut self, value: &str) -> Self {
        self.traffic_distribution = Some(value.to_string());
        self
    }
    fn itp_local(mut self) -> Self {
        self.internal_traffic_policy = Some("Local".to_string());
        self
    }
    fn etp_local_node_port(self) -> Self {
        let mut svc = self.node_port();
        svc.external_traffic_policy = Some("Local".to_string());
        svc
    }
    fn node_port(mut self) -> Self {
        self.service_type = "NodePort".to_string();
        self.externally_accessible = true;
        for port in &mut self.ports {
            port.node_port = 30080;
        }
        self
    }
}

/// A Ready node, optionally in a zone.
pub(crate) fn node(name: &str, zone: Option<&str>) -> Node {
    let mut labels = crate::model::StrMap::new();
    if let Some(zone) = zone {
        labels.insert(LABEL_ZONE.to_string(), zone.to_string());
    }
    Node {
        name: name.to_string(),
        labels,
        allocatable_cpu: None,
        ready: Some("True".to_string()),
        kubelet_version: None,
    }
}
