//! Test builders for nodes, endpoints and slices (tables read like upstream's `*_test.go`):
//! `node("n1").zone("a").cpu_millis(1000).ready()`,
//! `slice("s1").ep(ep("10.0.0.1").zone("a").ready().hint("a"))`.
//! CPU is given in milli-cores until `CpuAmount::parse` lands.

use crate::core::zones::Ratios;
use crate::model::{CONTROLLER_NAME, CpuAmount, Endpoint, EndpointSlice, Hints, LABEL_ZONE, Node};

/// A node with no labels, no allocatable CPU and no Ready condition.
pub(crate) fn node(name: &str) -> Node {
    Node {
        name: name.to_string(),
        labels: Default::default(),
        allocatable_cpu: None,
        ready: None,
        kubelet_version: None,
    }
}

/// Builder methods for [`Node`].
pub(crate) trait NodeBuild: Sized {
    /// Sets a label.
    fn label(self, key: &str, value: &str) -> Self;
    /// Sets allocatable CPU in milli-cores.
    fn cpu_millis(self, millis: i64) -> Self;
    /// Sets the Ready condition's status (`"True"`, `"False"`, `"Unknown"`).
    fn ready_status(self, status: &str) -> Self;
    /// Sets the zone label.
    fn zone(self, zone: &str) -> Self {
        self.label(LABEL_ZONE, zone)
    }
    /// Ready condition `True`.
    fn ready(self) -> Self {
        self.ready_status("True")
    }
    /// Ready condition `False`.
    fn not_ready(self) -> Self {
        self.ready_status("False")
    }
    /// Adds `node-role.kubernetes.io/control-plane: ""`.
    fn control_plane(self) -> Self {
        self.label("node-role.kubernetes.io/control-plane", "")
    }
}

impl NodeBuild for Node {
    fn label(mut self, key: &str, value: &str) -> Self {
        self.labels.insert(key.to_string(), value.to_string());
        self
    }
    fn cpu_millis(mut self, millis: i64) -> Self {
        self.allocatable_cpu = Some(CpuAmount::from_millis(millis));
        self
    }
    fn ready_status(mut self, status: &str) -> Self {
        self.ready = Some(status.to_string());
        self
    }
}

/// An endpoint with one address, no zone, readiness absent and no hints.
pub(crate) fn ep(address: &str) -> Endpoint {
    Endpoint {
        addresses: vec![address.to_string()].into(),
        ready: None,
        serving: None,
        terminating: None,
        node_name: None,
        zone: None,
        hints: None,
    }
}

/// Builder methods for [`Endpoint`].
pub(crate) trait EndpointBuild: Sized {
    /// Sets `zone`.
    fn zone(self, zone: &str) -> Self;
    /// Sets `conditions.ready`.
    fn ready_is(self, ready: bool) -> Self;
    /// Appends a `forZones` entry (creating the hints).
    fn hint(self, zone: &str) -> Self;
    /// Sets `hints` as given.
    fn hints(self, hints: Option<Hints>) -> Self;
    /// `conditions.ready: true`.
    fn ready(self) -> Self {
        self.ready_is(true)
    }
    /// `conditions.ready: false`.
    fn unready(self) -> Self {
        self.ready_is(false)
    }
}

impl EndpointBuild for Endpoint {
    fn zone(mut self, zone: &str) -> Self {
        self.zone = Some(zone.into());
        self
    }
    fn ready_is(mut self, ready: bool) -> Self {
        self.ready = Some(ready);
        self
    }
    fn hint(mut self, zone: &str) -> Self {
        let hints = self.hints.get_or_insert_with(Hints::default);
        let mut zones = hints.for_zones.take().map(Vec::from).unwrap_or_default();
        zones.push(zone.into());
        hints.for_zones = Some(zones.into());
        self
    }
    fn hints(mut self, hints: Option<Hints>) -> Self {
        self.hints = hints;
        self
    }
}

/// An empty controller-managed IPv4 slice in namespace `ns`.
pub(crate) fn slice(name: &str) -> EndpointSlice {
    EndpointSlice {
        namespace: "ns".to_string(),
        name: name.to_string(),
        service_name: Some("svc".to_string()),
        managed_by: Some(CONTROLLER_NAME.to_string()),
        address_type: "IPv4".to_string(),
        ports: Vec::new(),
        endpoints: Vec::new(),
    }
}

/// Builder methods for [`EndpointSlice`].
pub(crate) trait SliceBuild: Sized {
    /// Appends an endpoint.
    fn ep(self, endpoint: Endpoint) -> Self;
}

impl SliceBuild for EndpointSlice {
    fn ep(mut self, endpoint: Endpoint) -> Self {
        self.endpoints.push(endpoint);
        self
    }
}

/// A non-nil ratio map from `(zone, ratio)` pairs.
pub(crate) fn ratios(pairs: &[(&str, f64)]) -> Ratios {
    Ratios::Map(pairs.iter().map(|(zone, ratio)| (zone.to_string(), *ratio)).collect())
}
