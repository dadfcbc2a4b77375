use super::*;

#[test]
fn each_read_is_recognised_by_kind_namespace_and_name() {
    let found = |kind, ns, name| optional_read(kind, ns, name).map(|r| r.object);
    assert_eq!(
        found(ObjectKind::ConfigMap, "kube-system", "kube-proxy-config"),
        Some(OptionalObject::KubeProxyConfig)
    );
    assert_eq!(
        found(ObjectKind::DaemonSet, "kube-system", "kube-proxy"),
        Some(OptionalObject::KubeProxyAgent)
    );
    assert_eq!(found(ObjectKind::ConfigMap, "kube-system", "cilium"), None, "a DaemonSet's name");
    assert_eq!(found(ObjectKind::DaemonSet, "default", "kube-proxy"), None);
}

#[test]
fn the_named_container_wins_over_the_first() {
    let containers = vec![
        ("init".to_string(), Some("busybox:1".to_string())),
        ("cilium-agent".to_string(), Some("quay.io/cilium/cilium:v1.13.4".to_string())),
    ];
    let found = from_daemon_set("kube-system", "cilium", &containers);
    assert_eq!(found, Some(Found::Image(OptionalObject::CiliumAgent, containers[1].1.clone())));
    let other = [("proxy".to_string(), Some("registry.k8s.io/kube-proxy:v1.30.2".to_string()))];
    assert_eq!(
        from_daemon_set("kube-system", "kube-proxy", &other),
        Some(Found::Image(OptionalObject::KubeProxyAgent, other[0].1.clone()))
    );
}

#[test]
fn a_reduced_kube_proxy_config_keeps_only_its_mode() {
    let read = optional_read(ObjectKind::ConfigMap, "kube-system", "kube-proxy").unwrap();
    let mut data = BTreeMap::new();
    data.insert("config.conf".to_string(), "clusterCIDR: 10.0.0.0/8\nmode: ipvs\n".to_string());
    data.insert("kubeconfig.conf".to_string(), "server: https://10.0.0.1".to_string());
    let cm = core::ConfigMap { data: Some(data), ..core::ConfigMap::default() };
    let reduced = reduce_config_map(read, cm).data.unwrap();
    assert_eq!(reduced.len(), 1);
    assert_eq!(reduced["config.conf"], "mode: \"ipvs\"\n");
}

#[test]
fn ovn_kubernetes_is_one_read_in_two_places() {
    for ns in ["ovn-kubernetes", "openshift-ovn-kubernetes"] {
        let found = optional_read(ObjectKind::DaemonSet, ns, "ovnkube-node").map(|r| r.object);
        assert_eq!(found, Some(OptionalObject::OvnKubeNode), "{ns}");
    }
    assert_eq!(merge(ReadStatus::Absent, ReadStatus::Read), ReadStatus::Read);
    assert_eq!(merge(ReadStatus::Forbidden, ReadStatus::Absent), ReadStatus::Forbidden);
    assert_eq!(merge(ReadStatus::Absent, ReadStatus::Failed), ReadStatus::Failed);
}

#[test]
fn ingress_nginx_controller_keeps_its_image_and_topology_flag() {
    let item = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"namespace": "ingress-nginx", "name": "ingress-nginx-controller"},
        "spec": {"template": {"spec": {"containers": [{"name": "controller",
            "image": "registry.k8s.io/ingress-nginx/controller:v1.9.4",
            "args": ["/nginx-ingress-controller", "--election-id=x", "--enable-topology-aware-routing=true"]}]}}}});
    let (ns, name, containers) = deployment_parts(&item);
    let Some(Found::IngressNginx(controller)) = from_deployment(&ns, &name, &containers) else {
        panic!("ingress-nginx's controller")
    };
    assert!(controller.topology_aware_routing);
    assert_eq!(controller.image.as_deref(), Some("registry.k8s.io/ingress-nginx/controller:v1.9.4"));
    assert!(from_deployment("default", &name, &containers).is_none(), "another namespace");
}

#[test]
fn a_reduced_linkerd_config_keeps_its_version_and_endpoint_slices() {
    let read = optional_read(ObjectKind::ConfigMap, "linkerd", "linkerd-config").unwrap();
    let mut data = BTreeMap::new();
    let values =
        "identityTrustAnchorsPEM: |\n  -----BEGIN CERTIFICATE-----\nlinkerdVersion: stable-2.14.10\n";
    data.insert("values".to_string(), values.to_string());
    data.insert("linkerd-crds-chart-version".to_string(), "linkerd-crds-1.0.0-edge".to_string());
    let cm = core::ConfigMap { data: Some(data), ..core::ConfigMap::default() };
    let reduced = reduce_config_map(read, cm).data.unwrap();
    assert_eq!(reduced.len(), 1);
    assert_eq!(reduced["values"], "linkerdVersion: \"stable-2.14.10\"\n");
}

/// deploy/rbac.yaml grants `get` on every optional read by its names, and `list` on every
/// front-door list: a row of the tables without its rule would read as forbidden everywhere.
#[test]
fn deploy_rbac_grants_every_optional_read_and_front_door_list() {
    use super::super::frontdoor::FRONT_LISTS;
    let text = include_str!("../../../../deploy/rbac.yaml");
    let documents: Vec<serde_json::Value> =
        text.split("\n---").filter_map(|doc| serde_saphyr::from_str::<serde_json::Value>(doc).ok()).collect();
    let rules: Vec<&serde_json::Value> = (documents.iter())
        .filter_map(|d| d.get("rules").and_then(serde_json::Value::as_array))
        .flatten()
        .collect();
    let strings = |rule: &serde_json::Value, key: &str| -> Vec<String> {
        let list = rule.get(key).and_then(serde_json::Value::as_array);
        list.into_iter().flatten().filter_map(|v| v.as_str().map(str::to_string)).collect()
    };
    let grants = |group: &str, resource: &str, verb: &str, name: Option<&str>| {
        rules.iter().any(|rule| {
            strings(rule, "apiGroups").iter().any(|g| g == group)
                && strings(rule, "resources").iter().any(|r| r == resource)
                && strings(rule, "verbs").iter().any(|v| v == verb)
                && name.is_none_or(|n| strings(rule, "resourceNames").iter().any(|r| r == n))
        })
    };
    for read in &OPTIONAL_READS {
        let (group, resource) = match read.kind {
            ObjectKind::ConfigMap => ("", "configmaps"),
            ObjectKind::DaemonSet => ("apps", "daemonsets"),
            ObjectKind::Deployment => ("apps", "deployments"),
        };
        for name in read.names {
            assert!(grants(group, resource, "get", Some(name)), "get {resource} {name}");
        }
    }
    for list in &FRONT_LISTS {
        assert!(grants(list.group, list.plural, "list", None), "list {}", list.plural);
    }
}
