//! Builders are JSON literals: they read like the YAML users paste, and exercise the same serde
//! path as dumps.

use serde_json::{Value, json};

use super::*;

fn typed<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("valid object")
}

fn node(cpu: Option<&str>, conditions: Value) -> core::Node {
    let mut status = json!({ "conditions": conditions });
    if let Some(cpu) = cpu {
        status["allocatable"] = json!({ "cpu": cpu, "memory": "7Gi" });
    }
    typed(json!({
        "metadata": { "name": "n1", "labels": { "topology.kubernetes.io/zone": "a" } },
        "status": status,
    }))
}

#[test]
fn node_reads_cpu_ready_and_labels() {
    let n = node_from(&node(Some("1930m"), json!([{ "type": "Ready", "status": "True" }]))).unwrap();
    assert_eq!(n.name, "n1");
    assert_eq!(n.labels["topology.kubernetes.io/zone"], "a");
    assert_eq!(n.allocatable_cpu, Some(CpuAmount::from_millis(1930)));
    assert_eq!(n.ready.as_deref(), Some("True"));
}

#[test]
fn node_keeps_absent_cpu_and_absent_ready_apart() {
    let n = node_from(&node(None, json!([{ "type": "MemoryPressure", "status": "False" }]))).unwrap();
    assert_eq!((n.allocatable_cpu, n.ready), (None, None));
    let first_wins = json!([{ "type": "Ready", "status": "Unknown" }, { "type": "Ready", "status": "True" }]);
    assert_eq!(node_from(&node(Some("0"), first_wins)).unwrap().ready.as_deref(), Some("Unknown"));
    let bare: core::Node = typed(json!({ "metadata": { "name": "bare" } }));
    let n = node_from(&bare).unwrap();
    assert!(n.labels.is_empty() && n.allocatable_cpu.is_none() && n.ready.is_none());
}

#[test]
fn node_cpu_is_trimmed_like_go_and_errors_name_the_field() {
    let n = node_from(&node(Some(" 2 "), json!([]))).unwrap();
    assert_eq!(n.allocatable_cpu, Some(CpuAmount::from_millis(2000)));
    let err = node_from(&node(Some("abc"), json!([]))).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"status.allocatable.cpu: invalid quantity "abc" (expected e.g. "1930m" or "2")"#
    );
}

fn service(spec: Value, status: Value) -> Service {
    service_from(&typed(json!({
        "metadata": { "name": "svc", "namespace": "w", "uid": "u-1",
                      "annotations": { "service.kubernetes.io/topology-mode": "Auto" } },
        "spec": spec,
        "status": status,
    })))
}

#[test]
fn service_defaults_and_selector_presence() {
    let s = service(json!({ "ports": [{ "port": 80 }] }), json!({}));
    assert_eq!((s.namespace.as_str(), s.name.as_str()), ("w", "svc"));
    assert_eq!(s.service_type, "ClusterIP");
    assert!(!s.has_selector && !s.externally_accessible && !s.publish_not_ready_addresses);
    assert_eq!(
        s.ports,
        vec![ServicePort { name: String::new(), port: 80, protocol: "TCP".into(), node_port: 0 }]
    );
    assert_eq!(s.annotations["service.kubernetes.io/topology-mode"], "Auto");
    assert!(s.internal_traffic_policy.is_none() && s.traffic_distribution.is_none());
    assert!(service(json!({ "selector": {} }), json!({})).has_selector, "empty selector still counts");
}

#[test]
fn service_copies_spec_fields_as_written() {
    let s = service(
        json!({ "type": "ClusterIP", "clusterIP": "None", "ipFamilies": ["IPv4", "IPv6"],
                "trafficDistribution": "PreferSameNode", "internalTrafficPolicy": "Local",
                "externalTrafficPolicy": "Cluster", "publishNotReadyAddresses": true,
                "ports": [{ "name": "http", "port": 80, "protocol": "UDP" }] }),
        json!({}),
    );
    assert_eq!(s.cluster_ip.as_deref(), Some("None"));
    assert_eq!(s.ip_families, ["IPv4", "IPv6"]);
    assert_eq!(s.traffic_distribution.as_deref(), Some("PreferSameNode"));
    assert_eq!(s.internal_traffic_policy.as_deref(), Some("Local"));
    assert_eq!(s.external_traffic_policy.as_deref(), Some("Cluster"));
    assert!(s.publish_not_ready_addresses);
    assert_eq!((s.ports[0].name.as_str(), s.ports[0].protocol.as_str()), ("http", "UDP"));
}

#[test]
fn service_externally_accessible_like_kube_proxy() {
    let node_port = json!({ "type": "NodePort", "ports": [{ "port": 80, "nodePort": 30080 }] });
    assert!(service(node_port, json!({})).externally_accessible);
    let lb = json!({ "loadBalancer": { "ingress": [{ "hostname": "x.elb" }, { "ip": "1.2.3.4" }] } });
    assert!(service(json!({}), lb).externally_accessible);
    let hostname_only = json!({ "loadBalancer": { "ingress": [{ "hostname": "x.elb" }] } });
    assert!(!service(json!({}), hostname_only).externally_accessible);
    assert!(service(json!({ "externalIPs": ["5.6.7.8"] }), json!({})).externally_accessible);
    assert!(!service(json!({ "externalIPs": [] }), json!({})).externally_accessible);
}

#[test]
fn slice_keeps_absent_and_empty_hints_apart() {
    let slice: discovery::EndpointSlice = typed(json!({
        "metadata": { "name": "svc-abc", "namespace": "w", "labels": {
            "kubernetes.io/service-name": "svc",
            "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io" } },
        "addressType": "IPv4",
        "ports": [{ "name": "http", "port": 8080, "protocol": "TCP" }, {}],
        "endpoints": [
            { "addresses": ["10.0.1.5"], "conditions": { "ready": true, "serving": true, "terminating": false },
              "nodeName": "n1", "zone": "a", "hints": { "forZones": [{ "name": "a" }], "forNodes": [{ "name": "n1" }] } },
            { "addresses": ["10.0.2.5"], "hints": { "forZones": [] } },
            { "addresses": ["10.0.3.5"], "conditions": {}, "hints": {} },
        ],
    }));
    let s = slice_from(&slice);
    assert!(s.is_controller_managed());
    assert_eq!((s.service_name.as_deref(), s.address_type.as_str()), (Some("svc"), "IPv4"));
    assert_eq!(s.ports[1], SlicePort { name: None, port: None, protocol: None });
    let [full, empty, absent] = &s.endpoints[..] else { panic!("three endpoints") };
    assert_eq!((full.ready, full.serving, full.terminating), (Some(true), Some(true), Some(false)));
    assert_eq!((full.node_name.as_deref(), full.zone.as_deref()), (Some("n1"), Some("a")));
    assert_eq!(
        full.hints,
        Some(Hints { for_zones: Some(vec!["a".into()].into()), for_nodes: Some(vec!["n1".into()].into()) })
    );
    assert_eq!(empty.hints, Some(Hints { for_zones: Some(vec![].into()), for_nodes: None }));
    assert_eq!((empty.ready, empty.zone.as_ref()), (None, None));
    assert_eq!(absent.hints, Some(Hints::default()));
}

#[test]
fn fqdn_and_foreign_slices_are_kept() {
    let slice: discovery::EndpointSlice = typed(json!({
        "metadata": { "name": "ext", "namespace": "w", "labels": { "endpointslice.kubernetes.io/managed-by": "me" } },
        "addressType": "FQDN", "endpoints": [{ "addresses": ["example.com"] }],
    }));
    let s = slice_from(&slice);
    assert_eq!(
        (s.address_type.as_str(), s.service_name.as_ref(), s.is_controller_managed()),
        ("FQDN", None, false)
    );
}

#[test]
fn core_event_is_normalised() {
    let event: core::Event = typed(json!({
        "metadata": { "name": "svc.17f", "namespace": "w" },
        "involvedObject": { "kind": "Service", "name": "svc", "namespace": "w" },
        "type": "Warning", "reason": "TopologyAwareHintsDisabled", "message": "Nodes only ready in one zone, addressType: IPv4",
        "count": 15, "lastTimestamp": "2026-08-01T10:00:00Z", "source": { "component": "endpoint-slice-controller" },
    }));
    let e = event_from_core(&event);
    assert_eq!(
        (e.object_kind.as_str(), e.object_name.as_str(), e.namespace.as_str()),
        ("Service", "svc", "w")
    );
    assert_eq!((e.event_type.as_str(), e.count), ("Warning", 15));
    assert_eq!(e.last_seen.as_deref(), Some("2026-08-01T10:00:00Z"));
    assert_eq!(e.source.as_deref(), Some("endpoint-slice-controller"));
    let bare: core::Event = typed(json!({ "metadata": { "namespace": "w" }, "involvedObject": {} }));
    let e = event_from_core(&bare);
    assert_eq!((e.count, e.namespace.as_str(), e.source.clone(), e.last_seen.clone()), (1, "w", None, None));
}

#[test]
fn events_v1_event_is_normalised() {
    let event: events::Event = typed(json!({
        "metadata": { "name": "svc.17f", "namespace": "w" },
        "eventTime": "2026-08-01T09:00:00.000000Z",
        "regarding": { "kind": "Service", "name": "svc", "namespace": "w" },
        "type": "Normal", "reason": "TopologyAwareHintsEnabled", "note": "Topology Aware Hints has been enabled, addressType: IPv4",
        "series": { "count": 3, "lastObservedTime": "2026-08-01T10:00:00.000000Z" },
        "reportingController": "endpoint-slice-controller",
    }));
    let e = event_from_events_v1(&event);
    assert_eq!(e.message, "Topology Aware Hints has been enabled, addressType: IPv4");
    assert_eq!((e.count, e.last_seen.as_deref()), (3, Some("2026-08-01T10:00:00Z")));
    assert_eq!(e.source.as_deref(), Some("endpoint-slice-controller"));
}
