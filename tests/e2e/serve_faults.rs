//! `kubectl topo serve` on the real apiserver under faults (issue 37, items 1 and 3), scraped by a
//! real Prometheus with the shipped rules (a test copy: `fault_alerts.rs`):
//!
//! - the apiserver frozen with SIGSTOP (it keeps its connections and answers nothing, as a hung
//!   apiserver does) until `KubectlTopoExporterStale` fires: `time() -
//!   kubectl_topo_last_sync_timestamp_seconds` must grow with it (the old heartbeat kept it under
//!   15 s: nothing failed); after SIGCONT every watch is heard from again, `/metrics` equals a
//!   fresh `check -A` and the alert resolves;
//! - the apiserver killed and restarted, and killed while etcd is compacted (`serve_outages.rs`);
//! - the exporter's RBAC binding (deploy/rbac.yaml's role) revoked until its watches are refused
//!   and the alert fires, a Service deleted meanwhile, then the binding restored: the Service must
//!   leave `/metrics`, which must equal `check -A`, and the alert resolve.
//!
//! The times from SIGCONT, from the apiserver ready and from the restore to fresh are printed.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::Api;

use crate::cluster::Cluster;
use crate::fault_alerts::{Prometheus, STALE_AFTER};
use crate::fault_state::{services_exported, staleness, until_equal_to_check};
use crate::harness::{self, ControlPlane};
use crate::monitoring::{WAIT, get, serve};
use crate::serve_outages::{self, Outage};
use crate::topo::Topo;

pub const NS: &str = "serve-faults";

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

/// Until `serve` on `port` is ready and has heard from every watch lately.
async fn until_fresh(port: u16, exporter: &crate::monitoring::Running) {
    let start = Instant::now();
    while staleness(port).0 > 90.0 || get(port, "/readyz").map(|r| r.0) != Some(200) {
        assert!(start.elapsed() < WAIT, "not ready: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else { return };
    crate::fixtures::auto_web(cl, NS).await;

    let (mut exporter, port) = serve(topo, &cp.admin_kubeconfig);
    until_fresh(port, &exporter).await;
    let prometheus = Prometheus::start(port).await;
    until_equal_to_check(port, topo, "before the faults").await;
    frozen(cp, topo, port, &prometheus, &exporter).await;
    let outage = Outage { cp, cl, topo, port, prometheus: &prometheus, exporter: &exporter };
    serve_outages::killed(&outage).await;
    serve_outages::compacted(&outage).await;
    serve_outages::exact_head(&outage).await;
    serve_outages::quiet_without_bookmarks(&outage).await;
    assert_eq!(exporter.terminate(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
    drop(prometheus);
    serve_outages::restore(cp).await;
    revoked(cp, cl, topo).await;
}

/// SIGSTOP until the alert fires, then SIGCONT.
async fn frozen(
    cp: &ControlPlane,
    topo: &Topo,
    port: u16,
    prometheus: &Prometheus,
    exporter: &crate::monitoring::Running,
) {
    let pid = cp.apiserver_pid().expect("the apiserver runs");
    let frozen = Frozen::new(pid);
    prometheus.until_firing().await;
    let (stale, _) = staleness(port);
    assert!(stale > STALE_AFTER, "the alert fired at a staleness of {stale:.1}s: {}", exporter.stderr());
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
    until_equal_to_check(port, topo, "after the freeze").await;
    prometheus.until_resolved().await;
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
    let gone = format!("{NS}/gone");
    let start = Instant::now();
    while staleness(port).0 > 90.0 || !services_exported(&staleness(port).1).contains(&gone) {
        assert!(start.elapsed() < WAIT, "not ready: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let prometheus = Prometheus::start(port).await;
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
    prometheus.until_firing().await;
    let (stale, text) = staleness(port);
    assert!(stale > STALE_AFTER, "the alert fired at a staleness of {stale:.1}s");
    assert!(services_exported(&text).contains(&gone), "while refused, the last known state stays");
    let mut restored = binding;
    restored.metadata = kube::api::ObjectMeta { name: Some(READER.into()), ..Default::default() };
    bindings.create(&Default::default(), &restored).await.expect("restore");
    let back = Instant::now();
    while staleness(port).0 > 5.0 || services_exported(&staleness(port).1).contains(&gone) {
        assert!(back.elapsed() < WAIT, "not caught up after the restore: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "e2e: serve_faults: RBAC restored: caught up after {:.2}s (stale {stale:.0}s when restored)",
        back.elapsed().as_secs_f64()
    );
    until_equal_to_check(port, topo, "after the RBAC restore").await;
    prometheus.until_resolved().await;
    bindings.delete(READER, &Default::default()).await.expect("clean up the binding");
    assert_eq!(exporter.terminate(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
}
