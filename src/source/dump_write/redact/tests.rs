use serde_json::{Value, json};

use super::items;
use crate::source::convert::snapshot_from_raw;
use crate::source::live::Raw;

/// A Raw with the tell-tales an EKS cluster carries: node-group and cluster names, account IDs,
/// provider IDs, UIDs, Pod names, addresses, custom labels and annotations.
fn raw() -> Raw {
    let node = |name: &str, ip: &str| {
        serde_json::from_value(json!({
            "metadata": {"name": name, "uid": "0f1e2d3c-node-uid", "labels": {
                "topology.kubernetes.io/zone": "us-east-1a", "kubernetes.io/os": "linux",
                "eks.amazonaws.com/nodegroup": "ng-payments-prod", "alpha.eksctl.io/cluster-name": "acme-prod",
                "node-role.kubernetes.io/control-plane": "acme", "kubernetes.io/hostname": name},
              "annotations": {"alpha.kubernetes.io/provided-node-ip": ip}},
            "spec": {"providerID": "aws:///us-east-1a/i-0123456789abcdef0"},
            "status": {"allocatable": {"cpu": "3920m"}, "addresses": [{"type": "InternalIP", "address": ip}],
              "conditions": [{"type": "MemoryPressure", "status": "False", "message": "kubelet on acme-prod"},
                             {"type": "Ready", "status": "True", "reason": "KubeletReady"}],
              "nodeInfo": {"architecture": "amd64", "bootID": "b", "containerRuntimeVersion": "c", "kernelVersion": "k",
                "kubeProxyVersion": "", "kubeletVersion": "v1.33.4-eks-123456789012", "machineID": "m",
                "operatingSystem": "linux", "osImage": "Amazon Linux", "systemUUID": "ec2-uuid"}}
        }))
        .unwrap()
    };
    let svc = serde_json::from_value(json!({
        "metadata": {"name": "payments-api", "namespace": "payments", "uid": "5e235e23-svc-uid",
          "labels": {"app": "payments-api", "team": "acme-payments"},
          "annotations": {"service.kubernetes.io/topology-mode": "Auto", "kubectl-topo.io/ignore": "HintsMissing",
            "eks.amazonaws.com/role-arn": "arn:aws:iam::123456789012:role/payments"}},
        "spec": {"clusterIP": "172.20.14.7", "selector": {"app": "payments-api"}, "type": "ClusterIP",
          "ports": [{"name": "http", "port": 80, "protocol": "TCP"}]}
    }))
    .unwrap();
    let slice = serde_json::from_value(json!({
        "metadata": {"name": "payments-api-x7k2q", "namespace": "payments", "uid": "slice-uid-77",
          "labels": {"kubernetes.io/service-name": "payments-api", "app": "payments-api",
                     "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"},
          "ownerReferences": [{"apiVersion": "v1", "kind": "Service", "name": "payments-api", "uid": "5e235e23-svc-uid"}]},
        "addressType": "IPv4",
        "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}],
        "endpoints": [
          {"addresses": ["10.0.1.77"], "nodeName": "ip-10-0-1-5.ec2.internal", "zone": "us-east-1a",
           "targetRef": {"kind": "Pod", "name": "payments-api-6f7d9-abcde", "namespace": "payments"},
           "conditions": {"ready": true}, "hints": {"forZones": [{"name": "us-east-1a"}]}},
          {"addresses": ["10.0.1.9"], "nodeName": "ip-10-0-2-6.ec2.internal", "zone": "us-east-1a",
           "conditions": {"ready": false, "terminating": true}}]
    }))
    .unwrap();
    let events = vec![
        serde_json::from_value(json!({"metadata": {"name": "payments-api.1", "namespace": "payments"},
            "involvedObject": {"kind": "Service", "name": "payments-api", "namespace": "payments"},
            "reason": "TopologyAwareHintsEnabled", "type": "Normal", "count": 2,
            "message": "Topology Aware Hints has been enabled, addressType: IPv4"}))
        .unwrap(),
        serde_json::from_value(json!({"metadata": {"name": "payments-api.2", "namespace": "payments"},
            "involvedObject": {"kind": "Service", "name": "payments-api", "namespace": "payments"},
            "reason": "EnsuringLoadBalancer", "type": "Normal",
            "message": "a1b2-acme-prod.elb.us-east-1.amazonaws.com"}))
        .unwrap(),
    ];
    Raw {
        nodes: vec![
            node("ip-10-0-1-5.ec2.internal", "10.0.1.5"),
            node("ip-10-0-2-6.ec2.internal", "10.0.2.6"),
        ],
        services: vec![svc],
        slices: vec![slice],
        events,
        server_version: Some("v1.33.4".into()),
        notes: vec![crate::prose::partial::events_forbidden_note("list events in namespace \"payments\"")],
        ..Raw::default()
    }
}

fn redacted() -> (Vec<Value>, Vec<String>) {
    items(&snapshot_from_raw(&raw()))
}

#[test]
fn no_tell_tale_survives() {
    let text = serde_json::to_string(&redacted()).unwrap();
    for secret in [
        "ip-10-0",
        "payments",
        "acme",
        "ng-",
        "123456789012",
        "uid",
        "i-0123",
        "10.0.1",
        "172.20",
        "arn:",
        "ec2",
        "eks.amazonaws",
        "hostname",
        "abcde",
        "KubeletReady",
        "MemoryPressure",
        "elb",
    ] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
}

#[test]
fn pseudonyms_are_consistent_across_objects() {
    let (items, notes) = redacted();
    let node = items[0]["metadata"]["name"].as_str().unwrap();
    assert_eq!(node, "node-1");
    assert_eq!(items[1]["metadata"]["name"], "node-2");
    let (svc, slice) = (&items[2], &items[3]);
    assert_eq!(slice["endpoints"][0]["nodeName"], node);
    assert_eq!(slice["metadata"]["labels"]["kubernetes.io/service-name"], svc["metadata"]["name"]);
    assert_eq!(slice["metadata"]["namespace"], svc["metadata"]["namespace"]);
    assert_eq!(items[4]["involvedObject"]["name"], svc["metadata"]["name"]);
    assert_eq!(
        notes,
        vec![crate::prose::partial::events_forbidden_note("list events in namespace \"ns-1\"")]
    );
    // Addresses sort as the originals do ("10.0.1.77" < "10.0.1.9" as text).
    assert_eq!(slice["endpoints"][0]["addresses"][0], "10.100.100.100");
    assert_eq!(slice["endpoints"][1]["addresses"][0], "10.100.100.101");
    assert_eq!(svc["spec"]["clusterIP"], "10.100.100.102");
}

#[test]
fn keeps_exactly_what_the_engine_reads() {
    let (items, _) = redacted();
    assert_eq!(
        items[0]["metadata"]["labels"],
        json!({"topology.kubernetes.io/zone": "us-east-1a", "kubernetes.io/os": "linux",
               "node-role.kubernetes.io/control-plane": ""})
    );
    assert_eq!(items[0]["status"]["conditions"], json!([{"type": "Ready", "status": "True"}]));
    assert_eq!(items[0]["status"]["nodeInfo"]["kubeletVersion"], "v1.33.4");
    assert_eq!(
        items[2]["metadata"]["annotations"],
        json!({"service.kubernetes.io/topology-mode": "Auto", "kubectl-topo.io/ignore": "HintsMissing"})
    );
    assert_eq!(items[2]["spec"]["selector"], json!({}));
    assert_eq!(items[3]["endpoints"][1]["conditions"], json!({"ready": false, "terminating": true}));
    // Only the controller's Event: the other one's message carries names.
    assert_eq!(items.iter().filter(|i| i["kind"] == "Event").count(), 1);
}

#[test]
fn the_redacted_dump_reads_back_to_the_same_model_but_names() {
    let original = snapshot_from_raw(&raw());
    let (mut items, _) = items(&original);
    items.push(
        json!({"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.33.4"}),
    );
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string();
    let back = crate::source::dump::parse_dump(&list, "redacted").unwrap().snapshot;
    assert_eq!(back.nodes.len(), 2);
    for (a, b) in original.nodes.iter().zip(&back.nodes) {
        assert_eq!((&a.allocatable_cpu, &a.ready), (&b.allocatable_cpu, &b.ready));
        assert_eq!(b.kubelet_version.as_deref(), Some("v1.33.4"));
    }
    let (a, b) = (&original.slices[0], &back.slices[0]);
    assert_eq!(a.endpoints.len(), b.endpoints.len());
    for (x, y) in a.endpoints.iter().zip(&b.endpoints) {
        assert_eq!(
            (x.ready, x.serving, x.terminating, &x.zone),
            (y.ready, y.serving, y.terminating, &y.zone)
        );
    }
    let (a, b) = (&original.services[0], &back.services[0]);
    assert_eq!(
        (a.has_selector, &a.service_type, a.externally_accessible),
        (b.has_selector, &b.service_type, b.externally_accessible)
    );
    assert_eq!(back.events[0].message, original.events[0].message);
}

#[test]
fn redaction_is_deterministic() {
    assert_eq!(redacted(), redacted());
}
