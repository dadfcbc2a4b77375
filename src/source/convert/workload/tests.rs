use serde_json::json;

use super::*;

#[test]
fn a_pod_keeps_its_controller_node_and_addresses() {
    let value = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"namespace": "shop", "name": "web-1", "ownerReferences": [
            {"kind": "Node", "name": "n1"},
            {"kind": "ReplicaSet", "name": "web-5d9", "controller": true}]},
        "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "nginx"}]},
        "status": {"podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.1"}, {"ip": "fd00::1"}]}});
    let Found::Pod(pod) = Found::decode(WorkloadObject::Pods, value).unwrap() else { panic!("not a Pod") };
    assert_eq!(pod.owner, Some(Owner { kind: "ReplicaSet".into(), name: "web-5d9".into() }));
    assert_eq!(pod.node_name.as_deref(), Some("n1"));
    assert_eq!(pod.ips, ["10.0.0.1", "fd00::1"]);
    let old = json!({"metadata": {"name": "p"}, "status": {"podIP": "10.0.0.2"}});
    let Found::Pod(pod) = Found::decode(WorkloadObject::Pods, old).unwrap() else { panic!("not a Pod") };
    assert_eq!((pod.ips, pod.owner), (vec!["10.0.0.2".to_string()], None), "podIP alone, no controller");
}

#[test]
fn a_deployment_keeps_replicas_labels_and_spread() {
    let value = json!({"metadata": {"namespace": "shop", "name": "web"},
        "spec": {"replicas": 4, "template": {"metadata": {"labels": {"app": "web", "tier": "fe"}},
          "spec": {"topologySpreadConstraints": [
            {"topologyKey": "topology.kubernetes.io/zone", "maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule",
             "minDomains": 3, "nodeTaintsPolicy": "Honor",
             "labelSelector": {"matchLabels": {"app": "web"},
               "matchExpressions": [{"key": "tier", "operator": "In", "values": ["fe", "be"]}]}},
            {"topologyKey": "kubernetes.io/hostname", "maxSkew": 2, "whenUnsatisfiable": "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app": "other"}}},
            {"topologyKey": "kubernetes.io/hostname", "maxSkew": 1, "whenUnsatisfiable": "ScheduleAnyway"}]}}}});
    let Found::Workload(w) = Found::decode(WorkloadObject::Deployments, value).unwrap() else { panic!() };
    assert_eq!((w.kind, w.replicas, w.owner.clone()), (WorkloadKind::Deployment, Some(4), None));
    assert_eq!(w.template_labels.get("tier").map(String::as_str), Some("fe"));
    let selects: Vec<bool> = w.spread.iter().map(|c| c.selects_own_pods).collect();
    assert_eq!(selects, [true, false, false], "own labels; another app's; no selector");
    let zone = &w.spread[0];
    assert_eq!(
        (zone.max_skew, zone.min_domains, zone.node_taints_policy.as_deref()),
        (1, Some(3), Some("Honor"))
    );
}

#[test]
fn a_replica_set_keeps_its_deployment_and_an_hpa_its_range() {
    let rs = json!({"metadata": {"namespace": "shop", "name": "web-5d9",
        "ownerReferences": [{"kind": "Deployment", "name": "web", "controller": true}]}, "spec": {"replicas": 0}});
    let Found::Workload(rs) = Found::decode(WorkloadObject::ReplicaSets, rs).unwrap() else { panic!() };
    assert_eq!(rs.owner, Some(Owner { kind: "Deployment".into(), name: "web".into() }));
    let hpa = json!({"metadata": {"namespace": "shop", "name": "web-hpa"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 12}});
    let Found::Hpa(hpa) = Found::decode(WorkloadObject::HorizontalPodAutoscalers, hpa).unwrap() else {
        panic!()
    };
    assert_eq!(
        (hpa.range.min, hpa.range.max, hpa.target.name.as_str()),
        (1, 12, "web"),
        "minReplicas defaults to 1"
    );
}

#[test]
fn a_wrong_type_is_an_error_naming_the_type() {
    let value = json!({"metadata": {"name": "web"}, "spec": {"replicas": "three"}});
    let err = Found::decode(WorkloadObject::Deployments, value).unwrap_err().to_string();
    assert!(err.contains("i32"), "{err}");
}

#[test]
fn a_dump_without_them_says_not_in_the_dump_unless_recorded() {
    let mut workloads = Workloads::default();
    Found::Pod(Pod { namespace: "a".into(), name: "p".into(), owner: None, node_name: None, ips: vec![] })
        .apply(&mut workloads);
    let recorded = [(WorkloadObject::Deployments, ReadStatus::Forbidden)].into_iter().collect();
    dump_statuses(&mut workloads, &recorded);
    assert_eq!(workloads.status(WorkloadObject::Pods), Some(ReadStatus::Read));
    assert_eq!(workloads.status(WorkloadObject::Deployments), Some(ReadStatus::Forbidden));
    assert_eq!(workloads.status(WorkloadObject::ReplicaSets), Some(ReadStatus::NotInDump));
}

#[test]
fn a_dump_of_the_model_reads_back_into_the_same_model() {
    let spread = |selects_own_pods| SpreadConstraint {
        topology_key: "topology.kubernetes.io/zone".into(),
        max_skew: 1,
        min_domains: Some(2),
        when_unsatisfiable: "DoNotSchedule".into(),
        node_affinity_policy: None,
        node_taints_policy: Some("Honor".into()),
        selects_own_pods,
    };
    let labels: BTreeMap<String, String> = [("app".to_string(), "web".to_string())].into();
    let owner = Owner { kind: "Deployment".into(), name: "web".into() };
    let mut workloads = Workloads::default();
    let found = [
        Found::Pod(Pod {
            namespace: "shop".into(),
            name: "web-1".into(),
            owner: Some(Owner { kind: "ReplicaSet".into(), name: "web-5d9".into() }),
            node_name: Some("n1".into()),
            ips: vec!["10.0.0.1".into()],
        }),
        Found::Workload(Workload {
            kind: WorkloadKind::Deployment,
            namespace: "shop".into(),
            name: "web".into(),
            replicas: Some(3),
            owner: None,
            spread: vec![spread(true), spread(false)],
            template_labels: labels.clone().into(),
        }),
        Found::Workload(Workload {
            kind: WorkloadKind::ReplicaSet,
            namespace: "shop".into(),
            name: "web-5d9".into(),
            replicas: None,
            owner: Some(owner.clone()),
            spread: vec![],
            template_labels: labels.into(),
        }),
        Found::Hpa(Hpa {
            namespace: "shop".into(),
            target: owner,
            range: Autoscaler { name: "h".into(), min: 2, max: 5 },
        }),
    ];
    found.iter().cloned().for_each(|f| f.apply(&mut workloads));
    let mut read_back = Workloads::default();
    for item in items(&workloads, &|_, name| name.to_string()) {
        let kind = item["kind"].as_str().unwrap().to_string();
        let api_version = item["apiVersion"].as_str().unwrap().to_string();
        let object = object_named(&api_version, &kind).unwrap();
        Found::decode(object, item).unwrap().apply(&mut read_back);
    }
    assert_eq!(read_back, workloads);
}
