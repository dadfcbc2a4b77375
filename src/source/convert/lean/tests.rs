//! The lean types give the model the k8s-openapi types give, on the same text: full objects as
//! kubectl prints them, absent and `null` fields, and the errors of the fields that are read.

use serde_json::{Value, json};

use super::*;

fn both<K: serde::de::DeserializeOwned, L: serde::de::DeserializeOwned>(value: &Value) -> (K, L) {
    let text = value.to_string();
    (
        serde_json::from_str(&text).expect("k8s-openapi decodes"),
        serde_json::from_str(&text).expect("lean decodes"),
    )
}

fn full_node() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "name": "n1", "uid": "u", "creationTimestamp": "2026-01-02T03:04:05Z",
            "labels": { "topology.kubernetes.io/zone": "a", "kubernetes.io/os": "linux",
                        "node.kubernetes.io/instance-type": "m5.large", "kubernetes.io/hostname": "n1" },
            "annotations": { "node.alpha.kubernetes.io/ttl": "0" },
            "managedFields": [{ "manager": "kubelet", "fieldsV1": { "f:status": {} } }]
        },
        "spec": { "providerID": "aws:///a/i-1", "podCIDR": "10.0.0.0/24", "taints": [{ "key": "k", "effect": "NoSchedule" }] },
        "status": {
            "addresses": [{ "type": "InternalIP", "address": "10.0.0.1" }],
            "allocatable": { "cpu": "1930m", "memory": "7Gi", "pods": "110" },
            "capacity": { "cpu": "2" },
            "conditions": [
                { "type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2026-01-02T03:04:05Z" },
                { "type": "Ready", "status": "True", "reason": "KubeletReady" },
                { "type": "Ready", "status": "False" }
            ],
            "images": [{ "names": ["registry/a:1"], "sizeBytes": 12345 }],
            "nodeInfo": { "kubeletVersion": "v1.36.2", "osImage": "Bottlerocket", "architecture": "amd64" }
        }
    })
}

#[test]
fn nodes_read_the_same_as_through_k8s_openapi() {
    let bare = json!({ "metadata": { "name": "bare" }, "status": null });
    let nulls = json!({ "metadata": { "name": "x", "labels": null },
                        "status": { "conditions": [{ "type": null, "status": "True" }], "nodeInfo": { "kubeletVersion": "" } } });
    let no_cpu = json!({ "metadata": { "name": "y" }, "status": { "allocatable": { "memory": "1Gi" },
                         "conditions": [{ "type": "Ready" }] } });
    let (_, lean): (k8s_openapi::api::core::v1::Node, Node) = both(&full_node());
    let labels = lean.into_model().unwrap().labels;
    assert_eq!(labels.keys().collect::<Vec<_>>(), ["kubernetes.io/os", "topology.kubernetes.io/zone"]);
    for value in [full_node(), bare, nulls, no_cpu] {
        let (k8s, lean): (k8s_openapi::api::core::v1::Node, Node) = both(&value);
        assert_eq!(lean.into_model(), super::super::node_from(&k8s), "{value}");
    }
}

#[test]
fn a_node_cpu_error_is_the_same() {
    let value = json!({ "metadata": { "name": "n" }, "status": { "allocatable": { "cpu": "-1" } } });
    let (k8s, lean): (k8s_openapi::api::core::v1::Node, Node) = both(&value);
    let error = lean.into_model().unwrap_err();
    assert_eq!(error, super::super::node_from(&k8s).unwrap_err());
    assert_eq!(error.field, "status.allocatable.cpu");
}

#[test]
fn services_read_the_same_as_through_k8s_openapi() {
    let full = json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": { "name": "web", "namespace": "shop", "uid": "u-1", "labels": { "app": "web" },
                      "annotations": { "service.kubernetes.io/topology-mode": "Auto" } },
        "spec": { "selector": { "app": "web" }, "type": "NodePort", "clusterIP": "10.96.0.10",
                  "clusterIPs": ["10.96.0.10"], "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
                  "trafficDistribution": "PreferClose", "internalTrafficPolicy": "Local",
                  "externalTrafficPolicy": "Cluster", "externalIPs": [], "publishNotReadyAddresses": true,
                  "sessionAffinity": "None",
                  "ports": [{ "name": "http", "port": 80, "targetPort": "http", "protocol": "UDP", "nodePort": 30080 },
                            { "port": 443, "targetPort": 8443 }] },
        "status": { "loadBalancer": { "ingress": [{ "ip": "" }, { "hostname": "lb.example" }] } }
    });
    let bare = json!({ "metadata": { "name": "bare", "namespace": "d" } });
    let lb = json!({ "metadata": { "name": "lb" }, "spec": { "selector": {} },
                     "status": { "loadBalancer": { "ingress": [{ "ip": "1.2.3.4" }] } } });
    let nulls = json!({ "metadata": { "name": "n" }, "spec": { "type": null, "ports": [{ "port": null }] } });
    for value in [full, bare, lb, nulls] {
        let (k8s, lean): (k8s_openapi::api::core::v1::Service, Service) = both(&value);
        assert_eq!(lean.into_model(), super::super::service_from(&k8s), "{value}");
    }
}

#[test]
fn services_keep_only_the_annotations_anything_reads() {
    let applied = "{\"apiVersion\":\"v1\",\"kind\":\"Service\"}".repeat(100);
    let value = json!({ "metadata": { "name": "web", "namespace": "shop", "annotations": {
        "kubectl.kubernetes.io/last-applied-configuration": applied,
        "service.kubernetes.io/topology-aware-hints": "auto",
        "service.kubernetes.io/topology-mode": "Auto",
        "kubectl-topo.io/ignore": "HintsMissing",
        "example.com/owner": "team-a" } } });
    let (k8s, lean): (k8s_openapi::api::core::v1::Service, Service) = both(&value);
    for service in [lean.into_model(), super::super::service_from(&k8s)] {
        let keys: Vec<&str> = service.annotations.keys().map(String::as_str).collect();
        let read = [
            "kubectl-topo.io/ignore",
            "service.kubernetes.io/topology-aware-hints",
            "service.kubernetes.io/topology-mode",
        ];
        assert_eq!(keys, read);
        assert_eq!(service.annotations["kubectl-topo.io/ignore"], "HintsMissing");
    }
}

#[test]
fn slices_read_the_same_as_through_k8s_openapi() {
    let full = json!({
        "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
        "metadata": { "name": "web-abc", "namespace": "shop", "generateName": "web-",
                      "labels": { "kubernetes.io/service-name": "web",
                                  "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io" },
                      "ownerReferences": [{ "apiVersion": "v1", "kind": "Service", "name": "web", "uid": "u" }] },
        "ports": [{ "name": "http", "port": 8080, "protocol": "TCP" }, { "name": null }],
        "endpoints": [
            { "addresses": ["10.0.0.1"], "conditions": { "ready": true, "serving": true, "terminating": false },
              "nodeName": "n1", "zone": "a", "hints": { "forZones": [{ "name": "a" }] },
              "targetRef": { "kind": "Pod", "name": "web-1", "namespace": "shop", "uid": "p" } },
            { "addresses": ["10.0.0.2"], "conditions": {}, "hints": { "forNodes": [{ "name": "n2" }], "forZones": [] } },
            { "addresses": ["10.0.0.3"] }
        ]
    });
    let bare = json!({ "metadata": { "name": "s", "labels": { "kubernetes.io/service-name": "x" } }, "endpoints": null });
    for value in [full, bare] {
        let (k8s, lean): (k8s_openapi::api::discovery::v1::EndpointSlice, EndpointSlice) = both(&value);
        assert_eq!(lean.into_model(), super::super::slice_from(&k8s), "{value}");
    }
}

/// The lists an endpoint keeps are boxed slices, which hold no spare room by their type (serde grows
/// a list to four entries as it reads).
#[test]
fn endpoint_lists_are_kept_at_their_length() {
    let value = json!({ "metadata": { "name": "s" }, "endpoints": [
        { "addresses": ["10.0.0.1"], "hints": { "forZones": [{ "name": "a" }], "forNodes": [{ "name": "n1" }] } }
    ] });
    let slice = serde_json::from_value::<EndpointSlice>(value).unwrap().into_model();
    let endpoint = &slice.endpoints[0];
    let hints = endpoint.hints.as_ref().unwrap();
    let (zones, nodes) = (hints.for_zones.as_ref().unwrap(), hints.for_nodes.as_ref().unwrap());
    assert_eq!(&*endpoint.addresses, ["10.0.0.1"]);
    assert_eq!((&*zones[0], &*nodes[0], zones.len(), nodes.len()), ("a", "n1", 1, 1));
}

/// A wrong type in a field that is read is refused with the words k8s-openapi uses; one in a field
/// that is not read is not looked at.
#[test]
fn read_fields_are_type_checked_and_others_skipped() {
    let error = |value: Value| serde_json::from_value::<Service>(value).err().map(|e| e.to_string());
    let port = json!({ "metadata": { "name": "s" }, "spec": { "ports": [{ "port": "eighty" }] } });
    assert_eq!(error(port).as_deref(), Some(r#"invalid type: string "eighty", expected i32"#));
    let meta = json!({ "metadata": 5 });
    let k8s = serde_json::from_value::<k8s_openapi::api::core::v1::Service>(meta.clone()).unwrap_err();
    assert_eq!(error(meta), Some(k8s.to_string()));
    let images = json!({ "metadata": { "name": "n" }, "status": { "images": 5 } });
    assert!(serde_json::from_value::<Node>(images).is_ok());
}

/// Of a Node's and a slice's labels and annotations only those the model reads are kept, but
/// the others are still refused as k8s-openapi refuses them (a value that is not a string), and a
/// key given twice as any label is.
#[test]
fn unread_labels_and_annotations_are_dropped_yet_checked() {
    let node = |meta: Value| json!({ "metadata": meta, "status": { "allocatable": { "cpu": "2" } } });
    let read = serde_json::from_value::<Node>(node(json!({
        "name": "n", "labels": { "a": "1", "topology.kubernetes.io/zone": "z" }, "annotations": { "b": "2" }
    })));
    let meta = read.expect("decodes").metadata.expect("metadata");
    let labels: Vec<&str> = meta.labels.iter().flatten().map(|(k, _)| k.as_str()).collect();
    assert_eq!((labels, meta.annotations.map(|a| a.len())), (vec!["topology.kubernetes.io/zone"], Some(0)));
    for (what, meta) in [
        ("label", r#"{"name":"n","labels":{"a":1}}"#),
        ("annotation", r#"{"name":"n","annotations":{"a":["x"]}}"#),
    ] {
        let text = format!(r#"{{"metadata":{meta}}}"#);
        let k8s = serde_json::from_str::<k8s_openapi::api::core::v1::Node>(&text).expect_err(what);
        let lean = serde_json::from_str::<Node>(&text).err().map(|e| e.to_string());
        assert_eq!(lean, Some(k8s.to_string()), "an unread {what} that is not a string");
    }
    for labels in [r#""a":"1","a":"2""#, r#""b":"1","c":"2","a":"3","c":"4""#, r#""c":"1","a":"2","b":"3""#] {
        let text = format!(r#"{{"metadata":{{"name":"s","labels":{{{labels}}}}}}}"#);
        let error = serde_json::from_str::<EndpointSlice>(&text).err().map(|e| e.to_string());
        let twice = labels.matches(r#""a""#).count() > 1 || labels.matches(r#""c""#).count() > 1;
        assert_eq!(error.is_some_and(|e| e.starts_with("duplicate key")), twice, "labels {labels}");
    }
}

/// A live read gives the same Snapshot decoded lean (every command but `dump`) as decoded whole
/// (`dump`): a Node left out with its note, Events, the read's own notes and version included.
#[test]
fn a_lean_read_gives_the_snapshot_a_whole_read_gives() {
    use super::super::{Lean, Listed, Shape, Whole, snapshot_from_lean, snapshot_from_raw};
    let odd = json!({ "metadata": { "name": "odd" }, "status": { "allocatable": { "cpu": "-1" } } });
    let service = json!({ "metadata": { "name": "web", "namespace": "shop" }, "spec": { "selector": {} } });
    let slice = json!({ "metadata": { "name": "web-1", "namespace": "shop",
                                      "labels": { "kubernetes.io/service-name": "web" } },
                        "addressType": "IPv4",
                        "endpoints": [{ "addresses": ["10.0.0.1"], "zone": "a", "nodeName": "n1",
                                        "hints": { "forZones": [{ "name": "a" }] } }] });
    let event = json!({ "metadata": { "name": "e", "namespace": "shop" }, "reason": "TopologyAwareHintsDisabled",
                        "involvedObject": { "kind": "Service", "name": "web", "namespace": "shop" } });
    fn listed<S: Shape>(nodes: &[Value], service: &Value, slice: &Value, event: &Value) -> Listed<S> {
        fn typed<T: serde::de::DeserializeOwned>(v: &Value) -> T {
            serde_json::from_value(v.clone()).expect("decodes")
        }
        Listed {
            nodes: nodes.iter().map(typed).collect(),
            services: vec![typed(service)],
            slices: vec![typed(slice)],
            events: vec![typed(event)],
            server_version: Some("v1.36.3".into()),
            notes: vec!["events: forbidden".into()],
            ..Listed::default()
        }
    }
    let nodes = [full_node(), odd];
    let lean = snapshot_from_lean(listed::<Lean>(&nodes, &service, &slice, &event));
    let whole = snapshot_from_raw(&listed::<Whole>(&nodes, &service, &slice, &event));
    assert_eq!(lean, whole);
    assert_eq!((lean.nodes.len(), lean.services.len(), lean.slices.len(), lean.events.len()), (1, 1, 1, 1));
    assert_eq!(lean.info.partial[0], "events: forbidden");
    assert!(
        lean.info.partial[1].starts_with("node \"odd\" left out: status.allocatable.cpu: "),
        "{:?}",
        lean.info
    );
}
