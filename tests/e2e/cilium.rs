//! The Cilium data-plane caveat on the real apiserver (issue 6): with ConfigMap
//! `kube-system/cilium-config` saying kube-proxy is replaced and service topology is off,
//! `explain` notes that hints change no routing, `dump` carries the ConfigMap and `--from-file`
//! reads it back; a user of deploy/rbac.yaml's ClusterRole alone gets no note (and no error), and
//! the optional Role of deploy/rbac.yaml makes the ConfigMap readable. The Service is `cilium/web`,
//! the EKS demo made here.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::Api;
use kube::api::{DeleteParams, PostParams};
use serde_json::{Value, json};

use crate::cluster::Cluster;
use crate::harness::{self, ControlPlane};
use crate::topo::Topo;
use crate::watch::{Watching, verdict};

const WAIT: Duration = Duration::from_secs(30);
const NS: &str = "cilium";
const SERVICE: [&str; 4] = ["explain", "svc/web", "-n", NS];

fn notes(report: &Value) -> Vec<String> {
    report["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n["code"].as_str().map(String::from))
        .collect()
}

/// Create, ignoring "already exists" (the rbac scenario may have created the ClusterRole).
async fn create<K>(api: Api<K>, object: &Value)
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let typed: K = serde_json::from_value(object.clone()).expect("rbac.yaml object");
    match api.create(&PostParams::default(), &typed).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.code == 409 => {}
        Err(e) => panic!("create {object}: {e}"),
    }
}

/// deploy/rbac.yaml's roles and the example bindings of deploy/rbac-bindings-example.yaml.
fn rbac_docs() -> Vec<Value> {
    ["/deploy/rbac.yaml", "/deploy/rbac-bindings-example.yaml"]
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(format!("{}{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            serde_saphyr::from_multiple::<Value>(&text).expect(file)
        })
        .collect()
}

fn doc<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter().find(|d| d["kind"] == kind).unwrap_or_else(|| panic!("no {kind} in deploy/rbac.yaml"))
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    crate::fixtures::auto_web(cl, NS).await;
    let Some(topo) = topo else { return };
    let config_maps: Api<ConfigMap> = Api::namespaced(cl.client.clone(), "kube-system");
    let cm: ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": "cilium-config", "namespace": "kube-system"},
        "data": {"kube-proxy-replacement": "true", "enable-service-topology": "false", "cluster-name": "e2e"}
    }))
    .unwrap();
    config_maps.create(&PostParams::default(), &cm).await.expect("create cilium-config");

    let live = topo.json(&SERVICE);
    assert!(notes(&live).contains(&"CiliumIgnoresHints".to_string()), "live explain notes: {live:#}");
    let dump = topo.dump(&["-n", NS]);
    let items = dump["items"].as_array().unwrap();
    let dumped = items.iter().find(|i| i["kind"] == "ConfigMap").expect("dump carries cilium-config");
    assert_eq!(dumped["metadata"]["name"], "cilium-config");
    assert!(dumped["data"].get("cluster-name").is_none(), "only the keys read are dumped: {dumped:#}");
    let file = cp.dir.path().join("dump-cilium.json");
    std::fs::write(&file, serde_json::to_string(&dump).unwrap()).unwrap();
    let mut args = SERVICE.to_vec();
    args.extend(["--from-file", file.to_str().unwrap()]);
    let from_dump = topo.json(&args);
    assert!(notes(&from_dump).contains(&"CiliumIgnoresHints".to_string()), "{from_dump:#}");

    rbac(cp, cl, topo).await;
    config_maps.delete("cilium-config", &DeleteParams::default()).await.expect("delete cilium-config");
    println!(
        "e2e: cilium-config: live, dump and --from-file note CiliumIgnoresHints; rbac.yaml's Role reads it"
    );
}

/// The ClusterRole alone: no note, no error. With the optional Role: the note.
async fn rbac(cp: &ControlPlane, cl: &Cluster, topo: &Topo) {
    let docs = rbac_docs();
    create(Api::<ClusterRole>::all(cl.client.clone()), doc(&docs, "ClusterRole")).await;
    create(Api::<ClusterRoleBinding>::all(cl.client.clone()), doc(&docs, "ClusterRoleBinding")).await;
    let group = doc(&docs, "ClusterRoleBinding")["subjects"][0]["name"].as_str().unwrap().to_string();
    let user = cp.user_kubeconfig("topo-cilium", &[&group]);
    let client = harness::client_for(&user).await;
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(client.clone());
    let start = Instant::now();
    while nodes.list(&Default::default()).await.is_err() {
        assert!(start.elapsed() < WAIT, "the group binding never took effect");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let r = topo.run_as(&user, &[&SERVICE[..], &["-o", "json"]].concat());
    assert!(r.code == 0 || r.code == 1, "ClusterRole only: {r:?}");
    // The ClusterRole's `watch` verb is enough for `kubectl topo watch`.
    let mut w = Watching::start(topo, &user, &["watch", "svc/web", "-n", NS, "-o", "json"]);
    w.until("a first line as the rbac.yaml reader", |v| verdict(v).is_some());
    let (code, stderr, _) = w.interrupt();
    assert_eq!(code, Some(0), "watch as the rbac.yaml reader: {stderr}");
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(!notes(&report).iter().any(|n| n.starts_with("Cilium")), "forbidden: say nothing: {report:#}");

    create(Api::<Role>::namespaced(cl.client.clone(), "kube-system"), doc(&docs, "Role")).await;
    create(Api::<RoleBinding>::namespaced(cl.client.clone(), "kube-system"), doc(&docs, "RoleBinding")).await;
    let readable: Api<ConfigMap> = Api::namespaced(client, "kube-system");
    let start = Instant::now();
    while readable.get("cilium-config").await.is_err() {
        assert!(
            start.elapsed() < WAIT,
            "the Role of deploy/rbac.yaml never let the group read cilium-config"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let r = topo.run_as(&user, &[&SERVICE[..], &["-o", "json"]].concat());
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(notes(&report).contains(&"CiliumIgnoresHints".to_string()), "with the Role: {report:#}");
}
