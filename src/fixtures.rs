//! Builders of small model objects for the crate's property tests (`cfg(test)` only): Nodes,
//! Services and EndpointSlices in three zones `a`, `b`, `c`, named by index, as the exporter's
//! and the incomplete-dump properties generate them.

use std::collections::BTreeMap;

use topo_engine::model::cpu::CpuAmount;
use topo_engine::model::{
    ANNOTATION_TOPOLOGY_MODE, CONTROLLER_NAME, Endpoint, EndpointSlice, Hints, LABEL_ZONE, Node, Service,
};

/// The zones the builders place objects in, by index.
pub(crate) const ZONES: [&str; 3] = ["a", "b", "c"];

/// Node `n{i}` in zone `zone` (none: no zone label) with `cpu` CPUs allocatable (none: unknown).
pub(crate) fn node(i: usize, zone: Option<usize>, cpu: Option<u8>, ready: bool) -> Node {
    let labels: BTreeMap<String, String> =
        zone.map(|z| (LABEL_ZONE.to_string(), ZONES[z].to_string())).into_iter().collect();
    Node {
        name: format!("n{i}"),
        labels: labels.into(),
        allocatable_cpu: cpu.map(|c| CpuAmount::parse(&c.to_string()).expect("a CPU count")),
        ready: Some(if ready { "True" } else { "False" }.to_string()),
        kubelet_version: None,
    }
}

/// Node `n{i}` alone in zone `zone-{i}` (4 CPUs, ready): one zone per Node, for the zone limit.
pub(crate) fn node_in_own_zone(i: usize) -> Node {
    let mut node = node(i, None, Some(4), true);
    node.labels = BTreeMap::from([(LABEL_ZONE.to_string(), format!("zone-{i}"))]).into();
    node
}

/// Service `ns/s{i}`. `mode`: 0 none, 1 Auto, 2 PreferClose, 3 PreferSameNode, 4 no selector,
/// 5 ExternalName.
pub(crate) fn service(i: usize, mode: u8) -> Service {
    let annotations: BTreeMap<String, String> =
        (mode == 1).then(|| (ANNOTATION_TOPOLOGY_MODE.to_string(), "Auto".to_string())).into_iter().collect();
    let distribution = match mode {
        2 => Some("PreferClose".to_string()),
        3 => Some("PreferSameNode".to_string()),
        _ => None,
    };
    Service {
        namespace: "ns".into(),
        name: format!("s{i}"),
        labels: Default::default(),
        annotations: annotations.into(),
        has_selector: mode != 4,
        selector: Default::default(),
        service_type: if mode == 5 { "ExternalName" } else { "ClusterIP" }.into(),
        cluster_ip: Some(format!("10.0.0.{i}")),
        ip_families: vec!["IPv4".into()],
        traffic_distribution: distribution,
        internal_traffic_policy: None,
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        line: Default::default(),
        ports: vec![],
    }
}

/// (zone, ready, hinted zone) of one endpoint.
pub(crate) type EndpointSpec = (Option<usize>, bool, Option<usize>);

/// Slice `ns/sl{i}` of Service `s{owner}`, managed by the EndpointSlice controller.
pub(crate) fn slice(i: usize, owner: usize, endpoints: &[EndpointSpec]) -> EndpointSlice {
    EndpointSlice {
        namespace: "ns".into(),
        name: format!("sl{i}"),
        service_name: Some(format!("s{owner}")),
        managed_by: Some(CONTROLLER_NAME.to_string()),
        address_type: "IPv4".into(),
        ports: vec![],
        endpoints: endpoints
            .iter()
            .enumerate()
            .map(|(e, (zone, ready, hint))| Endpoint {
                addresses: vec![format!("10.1.{i}.{e}")].into(),
                ready: Some(*ready),
                serving: Some(*ready),
                terminating: Some(false),
                node_name: zone.map(|z| format!("n{z}").into()),
                zone: zone.map(|z| ZONES[z].into()),
                hints: hint.map(|h| Hints::zone(ZONES[h])),
            })
            .collect(),
    }
}
