//! `kubectl topo serve` on the real control plane, scraped by a real Prometheus (Debian's
//! `prometheus`, started here on 127.0.0.1 with a temporary config and data directory, a 1 s
//! scrape and evaluation interval, and a copy of deploy/prometheus/rules.yaml whose `for:` are
//! 1 s). The test reads Prometheus's HTTP API only:
//! * the EKS demo (W2): 3 zones, 3 replicas → Active; 4 → Blocked / OverloadThreshold and
//!   `KubectlTopoHintsDisabled` fires; back to 3 → Active;
//! * the kubernetes/kubernetes#123401 trap: a zone-less node removes the hints, deleting it
//!   does not bring them back (a Service without cached hints is not requeued) → `kubectl_topo_hints_stale` 1 and
//!   `KubectlTopoHintsStale` fires; a Service update resyncs it → 0;
//! * the exporter reaches the apiserver through `gone_proxy.rs`, which answers the first
//!   EndpointSlice watch with 410 Gone: it relists and `kubectl_topo_watch_restarts_total` counts it;
//! * SIGTERM stops the exporter with exit code 0;
//! * deploy/ applies to this apiserver, the Prometheus Operator's kinds included, and `serve`
//!   runs with only deploy/'s rights (`monitoring_deploy.rs`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cluster::{Cluster, node};
use crate::gone_proxy::GoneProxy;
use crate::harness::{ControlPlane, free_port};
use crate::topo::Topo;

const NS: &str = "monitoring";
const AUTO: &str = "service.kubernetes.io/topology-mode";
pub const WAIT: Duration = Duration::from_secs(90);

/// A child process killed when dropped (a failed assertion must not leave it running).
pub struct Running {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Running {
    pub fn new(mut child: Child) -> Running {
        let stderr = Arc::new(Mutex::new(String::new()));
        let (sink, pipe) = (stderr.clone(), child.stderr.take().expect("piped stderr"));
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                sink.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Running { child, stderr }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// SIGTERM, then its exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
        self.child.wait().expect("wait for serve").code()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GET over plain HTTP/1.0 on 127.0.0.1: (status, body).
pub fn get(port: u16, path_and_query: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(stream, "GET {path_and_query} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, body.to_string()))
}

fn encode(query: &str) -> String {
    query
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A Prometheus on 127.0.0.1 scraping the exporter every second.
struct Prometheus {
    port: u16,
    process: Running,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    fn start(exporter_port: u16) -> Prometheus {
        let dir = tempfile::tempdir().expect("temp dir");
        let rules = std::fs::read_to_string("deploy/prometheus/rules.yaml").expect("rules");
        // The test copy: every `for:` is one second.
        let rules: String = rules
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("for: ") {
                    l.split("for:").next().unwrap().to_string() + "for: 1s"
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(dir.path().join("rules.yaml"), rules).unwrap();
        let config = format!(
            "global: {{scrape_interval: 1s, evaluation_interval: 1s}}\nrule_files: [rules.yaml]\n\
             scrape_configs:\n  - job_name: kubectl-topo\n    static_configs: [{{targets: ['127.0.0.1:{exporter_port}']}}]\n"
        );
        std::fs::write(dir.path().join("prometheus.yml"), config).unwrap();
        let port = free_port();
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", dir.path().join("prometheus.yml").display()))
            .arg(format!("--storage.tsdb.path={}", dir.path().join("data").display()))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start prometheus (tests/monitoring/install.sh installs it)");
        Prometheus { port, process: Running::new(child), _dir: dir }
    }

    /// The vector result of an instant query (empty on any failure).
    fn query(&self, query: &str) -> Vec<Value> {
        let Some((200, body)) = get(self.port, &format!("/api/v1/query?query={}", encode(query))) else {
            return Vec::new();
        };
        let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        v["data"]["result"].as_array().cloned().unwrap_or_default()
    }

    /// Wait until `query` returns at least one series; the series.
    async fn until(&self, what: &str, query: &str) -> Vec<Value> {
        let start = Instant::now();
        loop {
            let result = self.query(query);
            if !result.is_empty() {
                println!("e2e: monitoring: {what} after {:.1}s", start.elapsed().as_secs_f64());
                return result;
            }
            assert!(
                start.elapsed() < WAIT,
                "{what}: `{query}` empty after {WAIT:?}\nthe Service's series: {:#?}\nprometheus stderr (tail): {}",
                self.query(&format!("{{__name__=~\"kubectl_topo_service_verdict|kubectl_topo_hints_stale\",namespace=\"{NS}\"}}")),
                tail(&self.process.stderr(), 5)
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Start `serve --listen 127.0.0.1:0`; its process and the port it reports on stderr.
pub fn serve(topo: &Topo, kubeconfig: &Path) -> (Running, u16) {
    let exporter = Running::new(topo.spawn_as(kubeconfig, &["serve", "--listen", "127.0.0.1:0"]));
    let start = Instant::now();
    loop {
        let stderr = exporter.stderr();
        if let Some(port) = stderr
            .lines()
            .find_map(|l| l.strip_prefix("note: serving /metrics, /healthz and /readyz on http://127.0.0.1:"))
            .and_then(|p| p.trim().parse().ok())
        {
            return (exporter, port);
        }
        assert!(start.elapsed() < WAIT, "serve did not start: {stderr}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn verdict(reason: &str, verdict: &str) -> String {
    format!(
        "kubectl_topo_service_verdict{{namespace=\"{NS}\",service=\"web\",verdict=\"{verdict}\",reason=~\"{reason}\"}} == 1"
    )
}

/// Three equal zones (the EKS demo).
fn zones() -> [crate::cluster::NodeSpec; 3] {
    [node("a1", Some("zone-a"), "4"), node("b1", Some("zone-b"), "4"), node("c1", Some("zone-c"), "4")]
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    crate::monitoring_deploy::dry_run_deploy(&cl.client).await;
    let Some(topo) = topo else { return };
    cl.set_nodes(&zones()).await;
    cl.namespace(NS).await;
    for (i, n) in ["a1", "b1", "c1"].iter().enumerate() {
        cl.create_pod(NS, &format!("web-{i}"), "web", n).await;
    }
    cl.create_service(NS, "web", json!({AUTO: "Auto"}), None).await;
    cl.wait_slices(NS, "web", "3 endpoints hinted", WAIT, |s| s.endpoints == 3 && s.hinted == 3).await;

    // Through a proxy that answers the first EndpointSlice watch with 410 Gone: serve relists.
    let proxy = GoneProxy::start(&cp.admin_kubeconfig, "endpointslices");
    let kubeconfig = cp.dir.path().join("monitoring-gone-proxy.kubeconfig");
    proxy.write_kubeconfig(&kubeconfig);
    let (mut exporter, port) = serve(topo, &kubeconfig);
    let start = Instant::now();
    while get(port, "/readyz").map(|(s, _)| s) != Some(200) {
        assert!(start.elapsed() < WAIT, "not ready: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!("e2e: monitoring: serve ready after {:.1}s", start.elapsed().as_secs_f64());
    let prometheus = Prometheus::start(port);
    prometheus.until("up", "up{job=\"kubectl-topo\"} == 1").await;
    let restarted = "kubectl_topo_watch_restarts_total{resource=\"endpointslices\"} >= 1";
    prometheus.until("the EndpointSlice watch restarted after the 410", restarted).await;
    assert!(proxy.injected() && proxy.lists() >= 2, "410 injected, relisted: {}", exporter.stderr());
    prometheus.until("Active with 3 replicas", &verdict("", "Active")).await;
    // A second exporter with only deploy/'s rights sees the same.
    crate::monitoring_deploy::serve_as_exporter_account(cp, &cl.client, topo, NS, "web").await;

    cl.create_pod(NS, "web-3", "web", "a1").await;
    prometheus.until("Blocked with 4 replicas", &verdict("OverloadThreshold", "Blocked")).await;
    let alert = "ALERTS{alertname=\"KubectlTopoHintsDisabled\",alertstate=\"firing\",service=\"web\",reason=\"OverloadThreshold\"}";
    prometheus.until("KubectlTopoHintsDisabled firing", alert).await;
    cl.delete_pod(NS, "web-3").await;
    prometheus.until("Active again with 3 replicas", &verdict("", "Active")).await;

    stale_trap(cl, &prometheus).await;

    // SIGTERM (what the kubelet sends) stops it with exit code 0.
    let pid = exporter.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
    let status = exporter.child.wait().expect("wait for serve");
    assert_eq!(status.code(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
}

/// kubernetes/kubernetes#123401: hints removed because of a zone-less node do not come back when
/// the node is deleted (a Service without cached hints is not requeued); the exporter says stale,
/// and the alert fires, until a Service update resyncs it.
async fn stale_trap(cl: &Cluster, prometheus: &Prometheus) {
    // The controller must be done with the Service (a pod deletion can leave a sync queued, and
    // a later sync would write the hints back whatever the nodes do).
    let settled = cl.settle(NS, "web", Duration::from_secs(3)).await;
    assert_eq!((settled.endpoints, settled.hinted), (3, 3), "settled before the trap");
    cl.create_node(&node("w-nozone", None, "4")).await;
    cl.wait_slices(NS, "web", "hints removed (zone-less node)", WAIT, |s| s.endpoints == 3 && s.hinted == 0)
        .await;
    prometheus.until("Blocked by the zone-less node", &verdict("NodeMissingZone", "Blocked")).await;
    let settled = cl.settle(NS, "web", Duration::from_secs(3)).await;
    assert_eq!(settled.hinted, 0, "hints stay removed while the zone-less node exists");
    cl.set_nodes(&zones()).await;
    let stale = format!("kubectl_topo_hints_stale{{namespace=\"{NS}\",service=\"web\"}} == 1");
    prometheus.until("stale after deleting the zone-less node", &stale).await;
    let alert = "ALERTS{alertname=\"KubectlTopoHintsStale\",alertstate=\"firing\",service=\"web\"}";
    prometheus.until("KubectlTopoHintsStale firing", alert).await;
    let slices = cl.slices(NS, "web").await;
    assert_eq!(crate::cluster::SliceState::of(&slices).hinted, 0, "the controller resynced by itself");
    cl.patch_service(NS, "web", json!({"metadata": {"annotations": {"e2e/resync": "1"}}})).await;
    let fresh = format!("kubectl_topo_hints_stale{{namespace=\"{NS}\",service=\"web\"}} == 0");
    prometheus.until("not stale after the Service update", &fresh).await;
}
