//! `serve` reads the optional objects too (issue 33's acceptance: the exporter carries the worst
//! path's verdict). DaemonSet `istio-system/ztunnel` (Istio 1.29) exists before `serve` starts, the
//! Service `serve-dp/web` asks for hints with `topology-mode: Auto`, which ztunnel does not read:
//! `kubectl_topo_service_data_plane` must carry `path="IstioAmbient"`,
//! `verdict="FrontDoorIgnoresHints"`, and `explain` agrees. The Gateway API CRDs are not
//! installed, so their lists answer 404 and read as absent (no unknown row). Then the Namespace
//! gets Istio's annotation: a 1.29 ztunnel does not read it (istio/istio#58701 is 1.30), a 1.30 one
//! does, which `explain` (a fresh read, as serve's next periodic one) shows.

use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Namespace;
use kube::Api;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::cluster::Cluster;
use crate::harness::ControlPlane;
use crate::monitoring::{WAIT, get, serve};
use crate::topo::Topo;

const NS: &str = "serve-dp";

fn ztunnel(tag: &str) -> DaemonSet {
    serde_json::from_value(json!({
        "metadata": {"name": "ztunnel", "namespace": "istio-system"},
        "spec": {
            "selector": {"matchLabels": {"app": "ztunnel"}},
            "template": {"metadata": {"labels": {"app": "ztunnel"}},
                "spec": {"containers": [{"name": "istio-proxy", "image": format!("docker.io/istio/ztunnel:{tag}-distroless")}]}}
        }
    }))
    .unwrap()
}

/// The Istio ambient path of `explain svc/web` (its verdict), live.
fn ambient_verdict(topo: &Topo) -> Option<String> {
    let report: Value = topo.json(&["explain", "svc/web", "-n", NS]);
    let paths = report["dataPlane"].as_array()?;
    let ambient = paths.iter().find(|p| p["path"] == "IstioAmbient")?;
    ambient["verdict"].as_str().map(String::from)
}

async fn ensure_namespace(cl: &Cluster, name: &str) {
    let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": name}})).unwrap();
    match Api::<Namespace>::all(cl.client.clone()).create(&PostParams::default(), &ns).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.code == 409 => {}
        Err(e) => panic!("create namespace {name}: {e}"),
    }
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    crate::fixtures::auto_web(cl, NS).await;
    let Some(topo) = topo else { return };
    ensure_namespace(cl, "istio-system").await;
    let daemon_sets: Api<DaemonSet> = Api::namespaced(cl.client.clone(), "istio-system");
    let _ = daemon_sets.delete("ztunnel", &DeleteParams::default()).await;
    daemon_sets.create(&PostParams::default(), &ztunnel("1.29.1")).await.expect("create ztunnel");

    let (exporter, port) = serve(topo, &cp.admin_kubeconfig);
    let series = format!(
        "kubectl_topo_service_data_plane{{namespace=\"{NS}\",service=\"web\",path=\"IstioAmbient\",verdict=\"FrontDoorIgnoresHints\"}} 1"
    );
    let start = Instant::now();
    loop {
        let body = get(port, "/metrics").map(|(_, b)| b).unwrap_or_default();
        if body.lines().any(|l| l == series) {
            break;
        }
        assert!(
            start.elapsed() < WAIT,
            "{series} never served:\n{body}\nserve's stderr:\n{}",
            exporter.stderr()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    println!(
        "e2e: serve_data_plane: the exporter serves the worst path after {:.1}s",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(ambient_verdict(topo).as_deref(), Some("FrontDoorIgnoresHints"), "explain agrees");

    // The Namespace's annotation: not read by 1.29, read by 1.30 (a Namespace list, lean).
    let namespaces: Api<Namespace> = Api::all(cl.client.clone());
    let patch =
        json!({"metadata": {"annotations": {"networking.istio.io/traffic-distribution": "PreferClose"}}});
    namespaces.patch(NS, &PatchParams::default(), &Patch::Merge(&patch)).await.expect("annotate");
    assert_eq!(
        ambient_verdict(topo).as_deref(),
        Some("FrontDoorIgnoresHints"),
        "1.29 ignores the Namespace's"
    );
    let image = json!({"spec": {"template": {"spec": {"containers": [{"name": "istio-proxy",
        "image": "docker.io/istio/ztunnel:1.30.0-distroless"}]}}}});
    daemon_sets.patch("ztunnel", &PatchParams::default(), &Patch::Strategic(&image)).await.expect("upgrade");
    assert_eq!(ambient_verdict(topo).as_deref(), Some("FrontDoorPrefersZone"), "1.30 reads the Namespace's");

    drop(exporter);
    daemon_sets.delete("ztunnel", &DeleteParams::default()).await.expect("delete ztunnel");
}
