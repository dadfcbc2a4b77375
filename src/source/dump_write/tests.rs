use super::*;
use k8s_openapi::api::core::v1::{Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;

fn raw() -> Raw {
    let node: Node = serde_json::from_value(json!({
        "metadata": {"name": "ip-10-0-1-5.ec2.internal", "labels": {"topology.kubernetes.io/zone": "us-east-1a",
          "kubernetes.io/hostname": "ip-10-0-1-5.ec2.internal"},
          "managedFields": [{"manager": "kubelet"}]},
        "status": {"allocatable": {"cpu": "3920m"}, "addresses": [{"type": "InternalIP", "address": "10.0.1.5"}]}
    }))
    .unwrap();
    let svc: Service = serde_json::from_value(json!({
        "metadata": {"name": "demo-service", "namespace": "demo", "annotations": {
            "service.kubernetes.io/topology-mode": "Auto",
            "kubectl-topo.io/ignore": "OverloadThreshold",
            "team.example.com/owner": "alice",
            "kubectl.kubernetes.io/last-applied-configuration": "{}"}},
        "spec": {"clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"], "selector": {"app": "demo"}}
    }))
    .unwrap();
    let slice: EndpointSlice = serde_json::from_value(json!({
        "metadata": {"name": "demo-service-abcde", "namespace": "demo",
          "labels": {"kubernetes.io/service-name": "demo-service",
                     "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}},
        "addressType": "IPv4",
        "endpoints": [{"addresses": ["10.0.1.77"], "nodeName": "ip-10-0-1-5.ec2.internal", "zone": "us-east-1a",
          "conditions": {"ready": true}, "hints": {"forZones": [{"name": "us-east-1a"}],
          "forNodes": [{"name": "ip-10-0-1-5.ec2.internal"}]}}]
    }))
    .unwrap();
    Raw {
        nodes: vec![node],
        services: vec![svc],
        slices: vec![slice],
        events: vec![],
        config_maps: vec![],
        daemon_sets: vec![],
        front_doors: Default::default(),
        reads: Default::default(),
        server_version: Some("v1.36.3".into()),
        notes: vec![],
        nodes_unavailable: false,
        workloads: Default::default(),
    }
}

#[test]
fn cilium_config_survives_a_redacted_dump_round_trip() {
    let cm: k8s_openapi::api::core::v1::ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": "cilium-config", "namespace": "kube-system"},
        "data": {"kube-proxy-replacement": "true", "enable-service-topology": "false"}
    }))
    .unwrap();
    let with = Raw { config_maps: vec![cm], ..raw() };
    let yaml = serde_saphyr::to_string(&dump_value(DumpInput::Redacted(
        &crate::source::convert::snapshot_from_raw(&with),
    )))
    .unwrap();
    let parsed = crate::source::dump::parse_dump(&yaml, "dump").unwrap();
    let cilium = parsed.snapshot.data_plane.cilium.expect("cilium-config read back");
    assert_eq!(cilium.kube_proxy_replacement.as_deref(), Some("true"));
    assert_eq!(cilium.service_topology.as_deref(), Some("false"));
    let without = serde_saphyr::to_string(&dump_value(DumpInput::Raw(&raw()))).unwrap();
    assert_eq!(crate::source::dump::parse_dump(&without, "dump").unwrap().snapshot.data_plane.cilium, None);
}

#[test]
fn a_partly_forbidden_read_replays_as_partial() {
    let note = crate::prose::nodes_forbidden_note("list nodes at cluster scope");
    let partial = Raw { nodes: vec![], nodes_unavailable: true, notes: vec![note.clone()], ..raw() };
    let text = serde_saphyr::to_string(&dump_value(DumpInput::Raw(&partial))).unwrap();
    let parsed = crate::source::dump::parse_dump(&text, "dump.yaml").unwrap();
    assert!(parsed.snapshot.info.nodes_unavailable);
    assert_eq!(parsed.snapshot.info.partial, vec![note]);
    let whole = crate::source::dump::parse_dump(
        &serde_saphyr::to_string(&dump_value(DumpInput::Raw(&raw()))).unwrap(),
        "d",
    )
    .unwrap();
    assert!(!whole.snapshot.info.nodes_unavailable && whole.snapshot.info.partial.is_empty());
}

#[test]
fn list_with_types_cluster_info_and_stripped_metadata() {
    let v = dump_value(DumpInput::Raw(&raw()));
    assert_eq!(v["kind"], "List");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[0]["kind"], "Node");
    assert_eq!(items[0]["apiVersion"], "v1");
    assert!(items[0]["metadata"].get("managedFields").is_none());
    assert_eq!(items[1]["metadata"]["annotations"].as_object().unwrap().len(), 3);
    assert_eq!(items[2]["apiVersion"], "discovery.k8s.io/v1");
    assert_eq!(
        items[3],
        json!({"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.3"})
    );
    let yaml = serde_saphyr::to_string(&v).unwrap();
    assert!(yaml.contains("kind: ClusterInfo"), "{yaml}");
}

/// `dump -o json` carries exactly what the YAML dump carries, and `--from-file` reads it back
/// through the JSON reader.
#[test]
fn json_dump_reads_back_like_the_yaml_dump_through_the_streaming_reader() {
    let write = |format| {
        let mut out = Vec::new();
        write_dump(DumpInput::Raw(&raw()), format, &mut out).unwrap().unwrap();
        String::from_utf8(out).unwrap()
    };
    let (yaml, json) = (write(DumpFormat::Yaml), write(DumpFormat::Json));
    assert!(json.starts_with('{') && json.ends_with("}\n"), "{json}");
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), dump_value(DumpInput::Raw(&raw())));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dump.json");
    std::fs::write(&path, &json).unwrap();
    let streamed = crate::source::read_dump_file(&path, "dump").expect("the streaming reader reads it");
    let from_yaml = crate::source::dump::parse_dump(&yaml, "dump").unwrap();
    assert_eq!(streamed, from_yaml);
    assert_eq!(streamed.snapshot.info.server_version.as_deref(), Some("v1.36.3"));
    assert_eq!(streamed.snapshot.slices.len(), 1);
}
