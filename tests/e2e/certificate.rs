//! The stability certificate against the real control plane (issue 34, docs/stability.md): a
//! Deployment (its ReplicaSet, an autoscaling/v2 HPA 2..9, a zone spread with maxSkew 1) behind an
//! Auto Service, read from the real apiserver by `explain`; then its Pods scaled through every
//! count of the HPA's range, placed as the spread allows, and at each count the real
//! kube-controller-manager must write hints exactly where the certificate says they hold and
//! remove them exactly where it says they do not.
//!
//! There is no kubelet, ReplicaSet controller or HPA controller here: the Pods are created with
//! the ReplicaSet as their controller ownerReference, as the ReplicaSet controller would.

use std::time::Duration;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::cluster::{Cluster, SliceState, ZONE, node};
use crate::topo::Topo;

const NS: &str = "certify";
const AUTO: &str = "service.kubernetes.io/topology-mode";
const WAIT: Duration = Duration::from_secs(60);
const ZONES: [(&str, &str); 3] = [("a1", "zone-a"), ("b1", "zone-b"), ("c1", "zone-c")];

pub async fn run(cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else { return };
    let nodes: Vec<_> = ZONES.iter().map(|(n, z)| node(n, Some(z), "4")).collect();
    cl.set_nodes(&nodes).await;
    cl.namespace(NS).await;
    let rs_uid = workload(cl).await;
    for i in 0..3 {
        pod(cl, &rs_uid, i).await;
    }
    cl.create_service(NS, "web", json!({AUTO: "Auto"}), None).await;
    cl.wait_slices(NS, "web", "3 endpoints hinted", WAIT, |s| s.endpoints == 3 && s.hinted == 3).await;

    let report = topo.json(&["explain", "svc/web", "-n", NS]);
    let cert = certificate_of(&report);
    let by_deploy = topo.json(&["explain", "deploy/web", "-n", NS]);
    assert_eq!(certificate_of(&by_deploy), cert, "explain deploy/web certifies the same");
    let by_hand = topo.json(&["simulate", "svc/web", "-n", NS, "--replicas", "2..9", "--max-skew", "1"]);
    assert_eq!(by_hand["certificate"], cert, "simulate with the same range and spread by hand");
    // `check --certify` reads the same workloads live (the namespace's Pods, paged) and agrees.
    let checked = topo.json(&["check", "-n", NS, "--certify"]);
    let row = (checked["services"].as_array().unwrap().iter()).find(|r| r["service"]["name"] == "web");
    assert_eq!(
        row.map(|r| r["certificates"]["workloads"][0]["certificate"].clone()),
        Some(cert.clone()),
        "{checked:#}"
    );
    // Today's margin names the same flip: one more endpoint (4) switches hints off.
    let margin = &report["families"][0]["stability"];
    assert_eq!(margin["holds"], true, "{margin:#}");
    assert_eq!(margin["endpoints"][0]["addFlips"], !holds(&cert, 4), "{margin:#}");

    // Down to 2, then up through the whole range: the controller agrees at every count.
    let mut running = 3;
    for n in [2, 3, 4, 5, 6, 7, 8, 9] {
        while running < n {
            pod(cl, &rs_uid, running).await;
            running += 1;
        }
        while running > n {
            running -= 1;
            cl.delete_pod(NS, &format!("web-{running}")).await;
        }
        let expected = holds(&cert, n);
        let want = |s: &SliceState| s.endpoints == n && s.hinted == if expected { n } else { 0 };
        let what = format!("{n} endpoints, hints {}", if expected { "written" } else { "removed" });
        cl.wait_slices(NS, "web", &what, WAIT, want).await;
        let settled = cl.settle(NS, "web", Duration::from_secs(2)).await;
        assert!(want(&settled), "count {n}: the controller moved on from {what}: {settled:#?}");
    }
}

/// The Deployment, its ReplicaSet and its HPA; the ReplicaSet's uid (its Pods' controller).
async fn workload(cl: &Cluster) -> String {
    let labels = json!({"app": "web", "pod-template-hash": "7c9d"});
    let template = json!({
        "metadata": {"labels": labels},
        "spec": {
            "containers": [{"name": "app", "image": "registry.invalid/app:1"}],
            "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": ZONE,
                "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}]
        }
    });
    let deployment: Deployment = serde_json::from_value(json!({
        "metadata": {"name": "web", "namespace": NS},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}, "template": template}
    }))
    .unwrap();
    let created = Api::<Deployment>::namespaced(cl.client.clone(), NS)
        .create(&PostParams::default(), &deployment)
        .await
        .expect("create deployment");
    let owner = owner("Deployment", "web", created.metadata.uid.as_deref().unwrap_or_default());
    let rs: ReplicaSet = serde_json::from_value(json!({
        "metadata": {"name": "web-7c9d", "namespace": NS, "ownerReferences": [owner]},
        "spec": {"replicas": 3, "selector": {"matchLabels": labels}, "template": template}
    }))
    .unwrap();
    let rs = Api::<ReplicaSet>::namespaced(cl.client.clone(), NS)
        .create(&PostParams::default(), &rs)
        .await
        .expect("create replicaset");
    let hpa: HorizontalPodAutoscaler = serde_json::from_value(json!({
        "metadata": {"name": "web", "namespace": NS},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                 "minReplicas": 2, "maxReplicas": 9}
    }))
    .unwrap();
    Api::<HorizontalPodAutoscaler>::namespaced(cl.client.clone(), NS)
        .create(&PostParams::default(), &hpa)
        .await
        .expect("create hpa");
    rs.metadata.uid.unwrap_or_default()
}

fn owner(kind: &str, name: &str, uid: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": kind, "name": name, "uid": uid, "controller": true})
}

/// Pod `web-i` of the ReplicaSet, running and ready in zone `i mod 3` (round robin: every count's
/// placement has a skew of at most 1, as the spread requires).
async fn pod(cl: &Cluster, rs_uid: &str, i: usize) {
    let name = format!("web-{i}");
    let pods: Api<Pod> = Api::namespaced(cl.client.clone(), NS);
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": NS, "labels": {"app": "web", "pod-template-hash": "7c9d"},
                     "ownerReferences": [owner("ReplicaSet", "web-7c9d", rs_uid)]},
        "spec": {"nodeName": ZONES[i % 3].0, "automountServiceAccountToken": false,
                 "containers": [{"name": "app", "image": "registry.invalid/app:1", "ports": [{"containerPort": 8080}]}]}
    }))
    .unwrap();
    pods.create(&PostParams::default(), &pod).await.unwrap_or_else(|e| panic!("create pod {name}: {e}"));
    // Addresses of their own range: the other groups' Pods are gone, but not their numbering.
    let ip = format!("10.246.0.{}", i + 2);
    let now = "2026-01-01T00:00:00Z";
    let conds: Vec<Value> = ["PodScheduled", "Initialized", "ContainersReady", "Ready"]
        .iter()
        .map(|t| json!({"type": t, "status": "True", "lastTransitionTime": now}))
        .collect();
    let status = json!({"status": {"phase": "Running", "podIP": ip, "podIPs": [{"ip": ip}],
        "hostIP": "192.0.2.1", "conditions": conds, "startTime": now}});
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap_or_else(|e| panic!("patch pod status {name}: {e}"));
}

/// The one workload certificate of an `explain` report, checked to be the Deployment's over its
/// HPA's range and template spread.
fn certificate_of(report: &Value) -> Value {
    let certs = &report["certificates"];
    assert!(certs.get("unknown").is_none(), "{certs:#}");
    let w = &certs["workloads"][0];
    assert_eq!((w["kind"].as_str(), w["name"].as_str()), (Some("Deployment"), Some("web")), "{certs:#}");
    assert_eq!(w["range"], json!({"from": "Autoscaler", "name": "web"}), "{w:#}");
    assert_eq!(w["others"], 0, "{w:#}");
    let cert = w["certificate"].clone();
    assert_eq!((cert["min"].as_i64(), cert["max"].as_i64()), (Some(2), Some(9)), "{cert:#}");
    assert_eq!(cert["spread"], json!({"maxSkew": 1, "hard": true}), "{cert:#}");
    cert
}

/// What the certificate says of count `n`: every placement holds, or (an exception) every one
/// fails; anything else fails the test.
fn holds(cert: &Value, n: usize) -> bool {
    let n = n as i64;
    let ranges = cert["holds"].as_array().unwrap();
    if ranges.iter().any(|r| r["from"].as_i64().unwrap() <= n && n <= r["to"].as_i64().unwrap()) {
        return true;
    }
    let exception = cert["exceptions"].as_array().unwrap().iter().find(|e| e["count"] == n);
    assert!(exception.is_some_and(|e| e["anyPlacement"] == true), "count {n}: {cert:#}");
    false
}
