//! `kubectl topo serve` on the real apiserver under faults (issue 37, items 1 and 3):
//!
//! - the apiserver frozen with SIGSTOP for 30 s (it keeps its connections and answers nothing, as
//!   a hung apiserver does): `time() - kubectl_topo_last_sync_timestamp_seconds` must grow with it
//!   (the old heartbeat kept it under 15 s: nothing failed); after SIGCONT every watch is heard
//!   from again and `/metrics` shows the verdict `check -A` computes;
//! - the exporter's RBAC binding (deploy/rbac.yaml's role) revoked until its watches are refused,
//!   a Service deleted meanwhile, then the binding restored: the Service must leave `/metrics`.
//!
//! The times from SIGCONT and from the restore to fresh are printed.

use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::Api;

use crate::cluster::Cluster;
use crate::harness::{self, ControlPlane};
use crate::monitoring::{WAIT, get, serve};
use crate::topo::Topo;

const NS: &str = "serve-faults";

/// Sends SIGCONT when dropped, so a failed assertion never leaves the apiserver stopped.
struct Frozen(String);

impl Frozen {
    fn new(pid: u32) -> Frozen {
        let pid = pid.to_string();
        assert!(Command::new("kill").args(["-STOP", &pid]).status().expect("kill").success());
        Frozen(pid)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-CONT", &self.0]).status();
    }
}

/// Seconds since the last sync, and the scrape.
fn staleness(port: u16) -> (f64, String) {
    let (status, text) = get(port, "/metrics").expect("serve answers /metrics");
    assert_eq!(status, 200);
    let last: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("kubectl_topo_last_sync_timestamp_seconds "))
        .and_then(|v| v.trim().parse().ok())
        .expect("last_sync");
    (SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64() - last, text)
}

/// `check -A`'s verdict of NS/web's IPv4 family.
fn checked_verdict(topo: &Topo) -> String {
    let run = topo.run(&["check", "-A", "-o", "json", "--fail-on", "none"]);
    assert_eq!(run.code, 0, "{run:?}");
    let report: Value = serde_json::from_str(&run.stdout).expect("check JSON");
    let services = report["services"].as_array().expect("services");
    let web = services
        .iter()
        .find(|s| s["service"]["namespace"] == NS && s["service"]["name"] == "web")
        .expect("web checked");
    web["families"][0]["verdict"].as_str().expect("verdict").to_string()
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else { return };
    crate::fixtures::auto_web(cl, NS).await;

    let (mut exporter, port) = serve(topo, &cp.admin_kubeconfig);
    let start = Instant::now();
    while staleness(port).0 > 90.0 || get(port, "/readyz").map(|r| r.0) != Some(200) {
        assert!(start.elapsed() < WAIT, "not ready: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let pid = cp.apiserver_pid().expect("the apiserver runs");
    let frozen = Frozen::new(pid);
    tokio::time::sleep(Duration::from_secs(30)).await;
    let (stale, _) = staleness(port);
    assert!(stale >= 28.0, "after a 30 s freeze the metrics are only {stale:.1}s old: {}", exporter.stderr());
    drop(frozen);
    let thawed = Instant::now();
    while staleness(port).0 > 5.0 {
        assert!(thawed.elapsed() < WAIT, "not heard from again: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "e2e: serve_faults: heard from every watch {:.2}s after SIGCONT",
        thawed.elapsed().as_secs_f64()
    );
    let verdict = checked_verdict(topo);
    let series = format!("namespace=\"{NS}\",service=\"web\",address_type=\"IPv4\",verdict=\"{verdict}\"");
    let (_, text) = staleness(port);
    assert!(text.contains(&series), "check -A says {verdict}; /metrics:\n{text}");
    assert_eq!(exporter.terminate(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
    revoked(cp, cl, topo).await;
}

const READER: &str = "serve-faults-reader";

/// deploy/rbac.yaml's ClusterRole (created unless another group did), bound to [`READER`]: its
/// kubeconfig once the binding is in effect.
async fn bound_reader(cp: &ControlPlane, cl: &Cluster) -> std::path::PathBuf {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/rbac.yaml")).unwrap();
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).expect("rbac.yaml parses");
    let role = docs.into_iter().find(|d| d["kind"] == "ClusterRole").expect("a ClusterRole");
    let name = role["metadata"]["name"].as_str().unwrap().to_string();
    cl.ensure_cluster_role(&serde_json::from_value::<ClusterRole>(role).unwrap()).await;
    cl.bind_cluster_role(READER, &name, READER).await;
    let kubeconfig = cp.user_kubeconfig(READER, &[]);
    let services: Api<Service> = Api::all(harness::client_for(&kubeconfig).await);
    let start = Instant::now();
    while services.list(&Default::default()).await.is_err() {
        assert!(start.elapsed() < WAIT, "the binding never took effect");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    kubeconfig
}

async fn revoked(cp: &ControlPlane, cl: &Cluster, topo: &Topo) {
    cl.create_service(NS, "gone", json!({"service.kubernetes.io/topology-mode": "Auto"}), None).await;
    let kubeconfig = bound_reader(cp, cl).await;
    let (mut exporter, port) = serve(topo, &kubeconfig);
    let start = Instant::now();
    while staleness(port).0 > 90.0 || !staleness(port).1.contains("service=\"gone\"") {
        assert!(start.elapsed() < WAIT, "not ready: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let bindings: Api<ClusterRoleBinding> = Api::all(cl.client.clone());
    let binding = bindings.get(READER).await.expect("the binding");
    bindings.delete(READER, &Default::default()).await.expect("revoke");
    // Each watch is refused when it is renewed (at most 60 s): wait until all three were.
    let refused = |stderr: &str| {
        ["nodes", "services", "endpointslices"]
            .iter()
            .all(|what| stderr.lines().any(|l| l.contains("forbidden") && l.contains(&format!(" {what}"))))
    };
    let start = Instant::now();
    while !refused(&exporter.stderr()) {
        assert!(start.elapsed() < 2 * WAIT, "the watches were not refused: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Api::<Service>::namespaced(cl.client.clone(), NS)
        .delete("gone", &Default::default())
        .await
        .expect("delete");
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (stale, text) = staleness(port);
    assert!(text.contains("service=\"gone\""), "while refused, the last known state stays");
    let mut restored = binding;
    restored.metadata = kube::api::ObjectMeta { name: Some(READER.into()), ..Default::default() };
    bindings.create(&Default::default(), &restored).await.expect("restore");
    let back = Instant::now();
    while staleness(port).0 > 5.0 || staleness(port).1.contains("service=\"gone\"") {
        assert!(back.elapsed() < WAIT, "not caught up after the restore: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "e2e: serve_faults: RBAC restored: caught up after {:.2}s (stale {stale:.0}s when restored)",
        back.elapsed().as_secs_f64()
    );
    bindings.delete(READER, &Default::default()).await.expect("clean up the binding");
    assert_eq!(exporter.terminate(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
}
