use super::*;
use crate::model::{Autoscaler, Endpoint, EndpointSlice, Hpa, LABEL_SERVICE_NAME};

fn service(selector: &[(&str, &str)]) -> Service {
    let selector: BTreeMap<String, String> =
        selector.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let text = format!(
        r#"{{"namespace":"shop","name":"web","labels":{{}},"annotations":{{}},"has_selector":true,
        "selector":{},"service_type":"ClusterIP","cluster_ip":"10.96.0.1","ip_families":["IPv4"],
        "traffic_distribution":null,"internal_traffic_policy":null,"external_traffic_policy":null,
        "externally_accessible":false,"publish_not_ready_addresses":false,"ports":[]}}"#,
        serde_json::to_string(&selector).unwrap()
    );
    serde_json::from_str(&text).unwrap()
}

fn endpoint(ip: &str) -> Endpoint {
    Endpoint {
        addresses: vec![ip.to_string()].into(),
        ready: Some(true),
        serving: Some(true),
        terminating: Some(false),
        node_name: None,
        zone: None,
        hints: None,
    }
}

fn slice(ips: &[&str]) -> EndpointSlice {
    EndpointSlice {
        namespace: "shop".into(),
        name: "web-abc".into(),
        service_name: Some("web".into()),
        managed_by: None,
        address_type: "IPv4".into(),
        ports: vec![],
        endpoints: ips.iter().map(|ip| endpoint(ip)).collect(),
    }
}

fn pod(name: &str, ip: &str, owner: Option<(&str, &str)>) -> Pod {
    Pod {
        namespace: "shop".into(),
        name: name.into(),
        owner: owner.map(|(kind, name)| Owner { kind: kind.into(), name: name.into() }),
        node_name: None,
        ips: vec![ip.into()],
    }
}

fn workload(kind: WorkloadKind, name: &str, owner: Option<&str>, labels: &[(&str, &str)]) -> Workload {
    Workload {
        kind,
        namespace: "shop".into(),
        name: name.into(),
        replicas: Some(3),
        owner: owner.map(|o| Owner { kind: "Deployment".into(), name: o.into() }),
        spread: vec![],
        template_labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>()
            .into(),
    }
}

fn all_read() -> BTreeMap<WorkloadObject, ReadStatus> {
    [
        WorkloadObject::Pods,
        WorkloadObject::Deployments,
        WorkloadObject::StatefulSets,
        WorkloadObject::ReplicaSets,
        WorkloadObject::HorizontalPodAutoscalers,
    ]
    .into_iter()
    .map(|o| (o, ReadStatus::Read))
    .collect()
}

fn cluster() -> Snapshot {
    let mut snapshot = Snapshot {
        slices: vec![slice(&["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.9"])],
        ..Snapshot::default()
    };
    snapshot.workloads = Workloads {
        reads: all_read(),
        workloads: vec![
            workload(WorkloadKind::Deployment, "web", None, &[("app", "web")]),
            workload(WorkloadKind::ReplicaSet, "web-5d9", Some("web"), &[("app", "web")]),
            workload(WorkloadKind::StatefulSet, "cache", None, &[("app", "web"), ("tier", "cache")]),
        ],
        autoscalers: vec![Hpa {
            namespace: "shop".into(),
            target: Owner { kind: "Deployment".into(), name: "web".into() },
            range: Autoscaler { name: "web".into(), min: 2, max: 9 },
        }],
        pods: vec![
            pod("web-5d9-a", "10.0.0.1", Some(("ReplicaSet", "web-5d9"))),
            pod("web-5d9-b", "10.0.0.2", Some(("ReplicaSet", "web-5d9"))),
            pod("agent-x", "10.0.0.3", Some(("DaemonSet", "agent"))),
        ],
    };
    let _ = LABEL_SERVICE_NAME;
    snapshot
}

#[test]
fn pods_lead_through_their_replica_set_to_the_deployment() {
    let snapshot = cluster();
    let report = workloads(&snapshot, &service(&[("app", "web")]));
    assert_eq!(report.found_by, FoundBy::Pods);
    let names: Vec<_> = report.workloads.iter().map(|w| (w.kind, w.name.as_str(), w.pods)).collect();
    assert_eq!(names, [(WorkloadKind::Deployment, "web", Some(2)), (WorkloadKind::Other, "agent", Some(1))]);
    let web = &report.workloads[0];
    assert_eq!(web.autoscaler.as_ref().map(|a| (a.min, a.max)), Some((2, 9)));
    assert_eq!((web.read, web.replicas), (true, Some(3)));
    assert_eq!(report.workloads[1].owner_kind.as_deref(), Some("DaemonSet"));
    assert_eq!(report.unowned_endpoints, 1, "10.0.0.9 has no Pod");
}

#[test]
fn without_the_replica_set_the_pods_name_it() {
    let mut snapshot = cluster();
    snapshot.workloads.workloads.retain(|w| w.kind != WorkloadKind::ReplicaSet);
    let report = workloads(&snapshot, &service(&[("app", "web")]));
    let first = &report.workloads[0];
    assert_eq!(
        (first.kind, first.name.as_str(), first.read, first.replicas),
        (WorkloadKind::ReplicaSet, "web-5d9", false, None)
    );
}

#[test]
fn without_pods_the_selector_picks_the_templates() {
    let mut snapshot = cluster();
    snapshot.workloads.pods.clear();
    snapshot.workloads.reads.insert(WorkloadObject::Pods, ReadStatus::NotInDump);
    let report = workloads(&snapshot, &service(&[("app", "web")]));
    assert_eq!(report.found_by, FoundBy::Selector);
    let names: Vec<_> = report.workloads.iter().map(|w| (w.kind, w.name.as_str())).collect();
    // The ReplicaSet is its Deployment's: shown once, as the Deployment.
    assert_eq!(names, [(WorkloadKind::Deployment, "web"), (WorkloadKind::StatefulSet, "cache")]);
    let narrower = workloads(&snapshot, &service(&[("app", "web"), ("tier", "cache")]));
    assert_eq!(narrower.workloads.len(), 1);
}

#[test]
fn nothing_read_is_unknown_with_the_statuses() {
    let mut snapshot = cluster();
    for status in snapshot.workloads.reads.values_mut() {
        *status = ReadStatus::Forbidden;
    }
    let report = workloads(&snapshot, &service(&[("app", "web")]));
    assert_eq!(report.found_by, FoundBy::Unknown);
    assert!(report.workloads.is_empty());
    assert_eq!(report.reads.get(&WorkloadObject::Pods), Some(&ReadStatus::Forbidden));
}
