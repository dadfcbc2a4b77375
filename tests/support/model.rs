//! `model::Snapshot` values built directly (no YAML), for tests that generate many clusters.

use topo_engine::model::{
    ANNOTATION_TOPOLOGY_MODE, CONTROLLER_NAME, CpuAmount, Endpoint, EndpointSlice, LABEL_ZONE, Node, Service,
    ServicePort, SlicePort, Snapshot,
};

/// A Ready worker in `zone` with `millis` of allocatable CPU.
pub fn node(name: &str, zone: &str, millis: i64) -> Node {
    let labels = [(LABEL_ZONE.to_string(), zone.to_string())].into();
    Node {
        name: name.into(),
        labels,
        allocatable_cpu: Some(CpuAmount::from_millis(millis)),
        ready: Some("True".into()),
        kubelet_version: None,
    }
}

/// ClusterIP Service `w/svc` annotated `topology-mode: Auto`, port `http` 80/TCP.
pub fn auto_service() -> Service {
    Service {
        namespace: "w".into(),
        name: "svc".into(),
        labels: Default::default(),
        annotations: [(ANNOTATION_TOPOLOGY_MODE.to_string(), "Auto".to_string())].into(),
        has_selector: true,
        selector: Default::default(),
        service_type: "ClusterIP".into(),
        cluster_ip: Some("10.96.0.10".into()),
        ip_families: vec!["IPv4".into()],
        traffic_distribution: None,
        internal_traffic_policy: None,
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        line: Default::default(),
        ports: vec![ServicePort { name: "http".into(), port: 80, protocol: "TCP".into(), node_port: 0 }],
    }
}

/// A ready endpoint without hints; `zone` `None` = no zone.
pub fn endpoint(address: String, zone: Option<&str>, node: Option<&str>) -> Endpoint {
    Endpoint {
        addresses: vec![address].into(),
        ready: Some(true),
        serving: Some(true),
        terminating: Some(false),
        node_name: node.map(Into::into),
        zone: zone.map(Into::into),
        hints: None,
    }
}

/// A controller-managed IPv4 slice of `w/svc`.
pub fn slice(name: &str, endpoints: Vec<Endpoint>) -> EndpointSlice {
    EndpointSlice {
        namespace: "w".into(),
        name: name.into(),
        service_name: Some("svc".into()),
        managed_by: Some(CONTROLLER_NAME.into()),
        address_type: "IPv4".into(),
        ports: vec![SlicePort { name: Some("http".into()), port: Some(8080), protocol: Some("TCP".into()) }],
        endpoints,
    }
}

/// A snapshot of these nodes, the one Service and its slices.
pub fn snapshot(nodes: Vec<Node>, service: Service, slices: Vec<EndpointSlice>) -> Snapshot {
    Snapshot { nodes, services: vec![service], slices, ..Snapshot::default() }
}
