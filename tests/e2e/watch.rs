//! `kubectl-topo watch` on the real control plane (issue 6): a deployment-like set of pods scaled
//! 3 → 4 → 3 in three equal zones (W2) must stream Active → Blocked → Active, Ctrl-C must end
//! it with exit 0, and an expired watch (a 410 Gone ERROR event, injected once by a loopback proxy)
//! must be relisted without losing the next change.

use std::io::{BufRead, BufReader};
use std::process::Child;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cluster::{Cluster, node};
use crate::gone_proxy::GoneProxy;
use crate::harness::ControlPlane;
use crate::topo::Topo;

const NS: &str = "watch";
const AUTO: &str = "service.kubernetes.io/topology-mode";
const WAIT: Duration = Duration::from_secs(60);

/// A running `kubectl-topo watch … -o json`: its stdout lines as parsed JSON, its stderr kept.
pub struct Watching {
    child: Child,
    lines: Receiver<Value>,
    seen: Vec<Value>,
    stderr: Arc<Mutex<String>>,
}

impl Watching {
    pub fn start(topo: &Topo, kubeconfig: &std::path::Path, args: &[&str]) -> Watching {
        let mut child = topo.spawn_as(kubeconfig, args);
        let (tx, lines) = channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| json!({"unparsable": line, "error": e.to_string()}));
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let (sink, pipe) = (stderr.clone(), child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                sink.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Watching { child, lines, seen: Vec::new(), stderr }
    }

    /// Read lines until one satisfies `pred`; panics with everything seen after `WAIT`.
    pub fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let left = WAIT.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    assert!(v.get("unparsable").is_none(), "watch printed a non-JSON line: {v}");
                    self.seen.push(v.clone());
                    if pred(&v) {
                        return v;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => panic!(
                    "watch: {what}: not seen after {WAIT:?}\nlines: {:#?}\nstderr: {}",
                    self.seen,
                    self.stderr.lock().unwrap()
                ),
            }
        }
    }

    /// SIGINT (what Ctrl-C sends); the exit code and stderr.
    pub fn interrupt(mut self) -> (Option<i32>, String, Vec<Value>) {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill").args(["-INT", &pid]).status().expect("kill");
        assert!(sent.success(), "kill -INT {pid}");
        let status = self.child.wait().expect("wait for watch");
        // Drain what was printed before the signal.
        self.seen.extend(self.lines.try_iter());
        let stderr = self.stderr.lock().unwrap().clone();
        (status.code(), stderr, std::mem::take(&mut self.seen))
    }
}

/// A watch left running by a failed assertion is killed (after `interrupt`, it has exited).
impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn verdict(v: &Value) -> Option<&str> {
    v["after"]["verdict"].as_str()
}

/// The verdicts the lines went through, consecutive repeats and transient Drift removed (between a
/// pod change and the controller's sync, the slices briefly carry hints it is about to remove).
fn transitions(lines: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in lines.iter().filter_map(verdict).filter(|v| *v != "Drift") {
        if out.last().map(String::as_str) != Some(v) {
            out.push(v.to_string());
        }
    }
    out
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else { return };
    let zones =
        [node("a1", Some("zone-a"), "4"), node("b1", Some("zone-b"), "4"), node("c1", Some("zone-c"), "4")];
    cl.set_nodes(&zones).await;
    cl.namespace(NS).await;
    for (i, n) in ["a1", "b1", "c1"].iter().enumerate() {
        cl.create_pod(NS, &format!("web-{i}"), "web", n).await;
    }
    cl.create_service(NS, "web", json!({AUTO: "Auto"}), None).await;
    let one_each = |s: &crate::cluster::SliceState| s.endpoints == 3 && s.hinted == 3;
    cl.wait_slices(NS, "web", "3 endpoints hinted", WAIT, one_each).await;

    scale_3_4_3(cl, topo).await;
    survives_410(cp, cl, topo).await;
}

/// `watch -A` in table form: cluster-scope watches, one `kubectl get -w`-like line per Service.
fn table_all_namespaces(topo: &Topo) {
    let mut child = KillOnDrop(topo.spawn_as(&topo.kubeconfig, &["watch", "-A"]));
    let child = &mut child.0;
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let start = Instant::now();
    let line = loop {
        let line = lines.recv_timeout(WAIT.saturating_sub(start.elapsed())).expect("a line for watch/web");
        if line.contains(" watch/web ") {
            break line;
        }
    };
    let pid = child.id().to_string();
    std::process::Command::new("kill").args(["-INT", &pid]).status().expect("kill");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "watch -A after SIGINT");
    let fields: Vec<&str> = line.split("  ").collect();
    assert!(fields[0].ends_with('Z') && fields[0].contains('T'), "RFC 3339 time first: {line}");
    // The harness runs with no UTF-8 locale, so the arrow is the ASCII one.
    assert_eq!(&fields[1..4], ["watch/web", "IPv4", "- -> Active"], "{line}");
    assert!(fields.len() == 5 && !fields[4].is_empty(), "a reason sentence last: {line}");
}

/// A child process killed when dropped (a failed assertion must not leave it running).
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// W2 through `watch`: Active (3 endpoints) → Blocked (4) → Active (3), then Ctrl-C → exit 0.
async fn scale_3_4_3(cl: &Cluster, topo: &Topo) {
    table_all_namespaces(topo);
    let missing = topo.run(&["watch", "svc/nope", "-n", NS]);
    assert_eq!(missing.code, 2, "a missing Service ends the watch as explain does: {missing:?}");
    assert!(missing.stderr.starts_with("error: ") && missing.stderr.contains("nope"), "{missing:?}");
    let args = ["watch", "svc/web", "-n", NS, "-o", "json"];
    let mut w = Watching::start(topo, &topo.kubeconfig, &args);
    let first = w.until("the initial line", |v| verdict(v).is_some());
    assert_eq!(first["apiVersion"], "kubectl-topo/v1alpha1", "{first:#}");
    assert_eq!((first["kind"].as_str(), first["change"].as_str()), (Some("ServiceChange"), Some("Initial")));
    assert_eq!(first["service"], json!({"namespace": NS, "name": "web"}));
    assert_eq!(verdict(&first), Some("Active"), "{first:#}");

    cl.create_pod(NS, "web-3", "web", "a1").await;
    let blocked = w.until("Blocked after scaling to 4", |v| verdict(v) == Some("Blocked"));
    let codes: Vec<&str> =
        blocked["after"]["reasons"].as_array().unwrap().iter().filter_map(|r| r["code"].as_str()).collect();
    assert_eq!(codes.first(), Some(&"OverloadThreshold"), "{blocked:#}");
    assert!(blocked["after"]["reasons"][0]["message"].as_str().is_some_and(|m| !m.is_empty()));

    cl.delete_pod(NS, "web-3").await;
    let back = w.until("Active after scaling back to 3", |v| verdict(v) == Some("Active"));
    assert!(
        back["cleared"].as_array().is_some_and(|c| c.iter().any(|c| c == "OverloadThreshold")),
        "{back:#}"
    );

    let (code, stderr, lines) = w.interrupt();
    assert_eq!(code, Some(0), "watch after SIGINT: exit {code:?}\nstderr: {stderr}\nlines: {lines:#?}");
    assert_eq!(transitions(&lines), ["Active", "Blocked", "Active"], "{lines:#?}");
    println!("e2e: watch svc/web: {} lines, verdicts {:?}", lines.len(), transitions(&lines));
    let times: Vec<&str> = lines.iter().filter_map(|v| v["time"].as_str()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "timestamps in order: {times:?}");
}

/// The same Service watched through a proxy that answers the first EndpointSlice watch with a
/// 410 Gone ERROR event: the watch relists, notes it on stderr, and still reports the next change.
async fn survives_410(cp: &ControlPlane, cl: &Cluster, topo: &Topo) {
    let proxy = GoneProxy::start(&cp.admin_kubeconfig, "endpointslices");
    let kubeconfig = cp.dir.path().join("gone-proxy.kubeconfig");
    proxy.write_kubeconfig(&kubeconfig);
    let args = ["watch", "svc/web", "-n", NS, "-o", "json"];
    let mut w = Watching::start(topo, &kubeconfig, &args);
    w.until("the initial line through the proxy", |v| verdict(v) == Some("Active"));
    let start = Instant::now();
    while !(proxy.injected() && proxy.lists() >= 2) {
        assert!(
            start.elapsed() < WAIT,
            "no relist after the 410: injected {}, lists {}\nstderr: {}",
            proxy.injected(),
            proxy.lists(),
            w.stderr.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    cl.create_pod(NS, "web-4", "web", "b1").await;
    w.until("Blocked after the relist", |v| verdict(v) == Some("Blocked"));
    let (code, stderr, _) = w.interrupt();
    assert_eq!(code, Some(0), "exit after SIGINT; stderr: {stderr}");
    assert!(stderr.contains("410 Gone"), "the expiry is noted on stderr: {stderr}");
    println!("e2e: watch through the 410 proxy: {} lists, stderr: {}", proxy.lists(), stderr.trim());
    cl.delete_pod(NS, "web-4").await;
}
