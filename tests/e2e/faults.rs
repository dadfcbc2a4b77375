//! API faults through the fault proxy (`fault_proxy.rs`) in front of the real apiserver, and the
//! faults that need no proxy (connection refused, an expired token, a wrong CA). Each: exit code 3
//! (the documented "cluster or API error") and one clear `error:` line naming the call, plus one
//! `hint:` line; recoveries (one 503, one 410 on a `continue` page) must give the full answer.

use std::path::Path;

use kubectl_topo::source::live::RETRY;
use serde_json::Value;

use crate::cluster::Cluster;
use crate::fault_proxy::{Fault, FaultProxy, Rule};
use crate::harness::{self, ControlPlane};
use crate::topo::{Run, Topo};

const NODES: &str = "/api/v1/nodes";
/// The namespace of the Services made here: `web` (the EKS demo) and `plain` (no topology).
const NS: &str = "faults";
const VERSION: &str = "/version";

/// The one error line (and its hint) of a failed run; nothing else on stderr but `note:` lines.
fn error_line(r: &Run) -> String {
    let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.starts_with("note: ")).collect();
    assert_eq!(lines.len(), 2, "one error and one hint line: {r:?}");
    assert!(lines[0].starts_with("error: ") && lines[1].starts_with("hint: "), "{r:?}");
    lines[0].to_string()
}

fn fails_with(r: &Run, parts: &[&str]) {
    assert_eq!(r.code, 3, "exit code 3 (cluster or API error): {r:?}");
    let line = error_line(r);
    for p in parts {
        assert!(line.contains(p), "{p:?} missing from {line:?}");
    }
}

/// Zone names and CPU from `zones -o json`, for comparing a recovered run with a clean one.
fn zones(r: &Run) -> Vec<(String, i64)> {
    assert_eq!(r.code, 0, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).expect("zones JSON");
    v["zones"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|z| (z["zone"].as_str().unwrap_or_default().to_string(), z["cpuMillis"].as_i64().unwrap_or(-1)))
        .collect()
}

async fn proxy(
    cp: &ControlPlane,
    rules: Vec<Rule>,
    page_limit: Option<u32>,
) -> (FaultProxy, std::path::PathBuf) {
    let p = FaultProxy::start(&cp.admin_kubeconfig, rules, page_limit).await;
    let kc =
        p.kubeconfig(&cp.dir.path().join(format!("proxy-{}.kubeconfig", p.url.rsplit(':').next().unwrap())));
    (p, kc)
}

/// Sets up its own Services ([`NS`]) on the Nodes of `fixtures::zones3` (three zones to compare).
pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: &Topo) {
    crate::fixtures::auto_web(cl, NS).await;
    cl.create_service(NS, "plain", serde_json::json!({}), None).await;
    let started = std::time::Instant::now();
    let t = "--request-timeout=2s";
    let clean = zones(&topo.run(&["zones", "-o", "json"]));
    assert!(clean.len() >= 2, "several zones to compare: {clean:?}");

    // Through the proxy without faults: the same answer (the proxy itself is transparent).
    let (p, kc) = proxy(cp, vec![], None).await;
    assert_eq!(zones(&topo.run_as(&kc, &["zones", "-o", "json", t])), clean);
    assert!(p.count(NODES) >= 1, "{:?}", p.log());
    drop(p);

    forbidden_per_resource(cp, topo).await;
    not_found(cp, topo).await;
    retries(cp, topo, &clean).await;
    hang(cp, topo).await;
    expired_continue(cp, topo, &clean).await;
    truncated(cp, topo).await;
    without_proxy(cp, topo);
    eprintln!("e2e: API faults in {:.1}s", started.elapsed().as_secs_f64());
}

/// 403 on one resource at a time: Nodes and Events degrade (noted), Services and EndpointSlices
/// stop `check` with the permission named.
async fn forbidden_per_resource(cp: &ControlPlane, topo: &Topo) {
    let cases: [(&str, Option<&str>); 4] = [
        (NODES, None),
        ("/api/v1/services", Some("forbidden: cannot list services at cluster scope")),
        (
            "/apis/discovery.k8s.io/v1/endpointslices",
            Some("forbidden: cannot list endpointslices.discovery.k8s.io at cluster scope"),
        ),
        ("/api/v1/events", None),
    ];
    for (path, fatal) in cases {
        let (p, kc) = proxy(cp, vec![Rule::always(path, Fault::Status(403))], None).await;
        let r = topo.run_as(&kc, &["check", "-A", "-o", "json", "--request-timeout=2s"]);
        assert!(p.log().iter().any(|e| e.status == 403), "403 injected on {path}: {:?}", p.log());
        match fatal {
            Some(message) => {
                fails_with(&r, &[message]);
                assert!(r.stderr.contains("kubectl-topo-reader"), "the ClusterRole to bind: {r:?}");
            }
            None => {
                assert!(r.code == 0 || r.code == 1, "{path} forbidden degrades: {r:?}");
                let v: Value = serde_json::from_str(&r.stdout).expect("check JSON");
                let partial = v["partial"].as_array().cloned().unwrap_or_default();
                assert_eq!(partial.len(), 1, "one partial-data note: {v:#}");
                let kind = if path == NODES { "Nodes not read" } else { "Events not shown" };
                assert!(partial[0].as_str().unwrap().starts_with(kind), "{partial:?}");
                assert!(r.stderr.lines().any(|l| l.starts_with("note: ") && l.contains(kind)), "{r:?}");
            }
        }
    }
}

/// 404 on the Service (a name that does not exist) and a 404 injected on a Service that does.
async fn not_found(cp: &ControlPlane, topo: &Topo) {
    let (_p, kc) = proxy(cp, vec![], None).await;
    let r = topo.run_as(&kc, &["explain", "svc/no-such-service", "-n", NS]);
    // A name that is not there is exit 2, from a live cluster as from a dump.
    assert_eq!(r.code, 2, "{r:?}");
    assert!(error_line(&r).contains("service faults/no-such-service not found"), "{r:?}");
    let svc = "/api/v1/namespaces/faults/services/web";
    let (_p, kc) = proxy(cp, vec![Rule::always(svc, Fault::Status(404))], None).await;
    let r = topo.run_as(&kc, &["explain", "svc/web", "-n", NS]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(error_line(&r).contains("service faults/web not found"), "{r:?}");
}

/// 500 every time: retried with backoff, RETRY.attempts requests in all, then one error line.
/// One 503: retried once and the answer is complete.
async fn retries(cp: &ControlPlane, topo: &Topo, clean: &[(String, i64)]) {
    let (p, kc) = proxy(cp, vec![Rule::always(NODES, Fault::Status(500))], None).await;
    let r = topo.run_as(&kc, &["zones", "--request-timeout=2s"]);
    fails_with(
        &r,
        &[
            "cannot list nodes at cluster scope",
            "answered 500",
            &format!("after {} attempts", RETRY.attempts),
        ],
    );
    assert_eq!(p.count(NODES), RETRY.attempts as usize, "bounded retries: {:?}", p.log());
    drop(p);

    let once = Rule { times: Some(1), ..Rule::always(NODES, Fault::Status(503)) };
    let (p, kc) = proxy(cp, vec![once], None).await;
    assert_eq!(zones(&topo.run_as(&kc, &["zones", "-o", "json", "--request-timeout=2s"])), clean);
    assert_eq!(p.count(NODES), 2, "one retry after the 503: {:?}", p.log());
}

/// A server that accepts and never answers: `--request-timeout` bounds it and the error names the
/// call that timed out; it is not retried.
async fn hang(cp: &ControlPlane, topo: &Topo) {
    let (p, kc) = proxy(cp, vec![Rule::always(NODES, Fault::Hang)], None).await;
    let r = topo.run_as(&kc, &["check", "-A", "--request-timeout=2s"]);
    fails_with(&r, &["timed out after 2s trying to list nodes at cluster scope"]);
    assert_eq!(p.count(NODES), 1, "a timeout is not retried: {:?}", p.log());
    drop(p);
    let (_p, kc) = proxy(cp, vec![Rule::always(VERSION, Fault::Hang)], None).await;
    let r = topo.run_as(&kc, &["explain", "svc/web", "-n", NS, "--request-timeout", "1s"]);
    fails_with(&r, &["timed out after 1s trying to get the server version (/version)"]);
}

/// A 410 Gone on the `continue` page of a list paged by one (the proxy rewrites `limit`): the list
/// restarts from its first page and the answer is complete.
async fn expired_continue(cp: &ControlPlane, topo: &Topo, clean: &[(String, i64)]) {
    let gone = Rule { continue_only: true, times: Some(1), ..Rule::always(NODES, Fault::Status(410)) };
    let (p, kc) = proxy(cp, vec![gone], Some(1)).await;
    assert_eq!(zones(&topo.run_as(&kc, &["zones", "-o", "json", "--request-timeout=2s"])), clean);
    let log = p.log();
    let first_pages = log
        .iter()
        .filter(|e| e.target.starts_with("GET /api/v1/nodes?") && !e.target.contains("continue="))
        .count();
    assert_eq!(first_pages, 2, "restarted once from the first page: {log:?}");
    assert!(log.iter().any(|e| e.status == 410), "{log:?}");
    drop(p);
    // Expired on every continue page: bounded restarts, then the 410 is the error.
    let always = Rule { continue_only: true, ..Rule::always(NODES, Fault::Status(410)) };
    let (p, kc) = proxy(cp, vec![always], Some(1)).await;
    let r = topo.run_as(&kc, &["zones", "--request-timeout=2s"]);
    fails_with(&r, &["cannot list nodes at cluster scope", "answered 410"]);
    let restarts = kubectl_topo::source::live::LIST_RESTARTS as usize;
    assert_eq!(p.log().iter().filter(|e| e.status == 410).count(), restarts + 1, "{:?}", p.log());
}

/// The body cut off half-way (Content-Length promises more): retried, then one error line.
async fn truncated(cp: &ControlPlane, topo: &Topo) {
    let (p, kc) = proxy(cp, vec![Rule::always(NODES, Fault::Truncate)], None).await;
    let r = topo.run_as(&kc, &["zones", "--request-timeout=2s"]);
    fails_with(&r, &["answer was cut off while trying to list nodes at cluster scope"]);
    assert_eq!(p.count(NODES), RETRY.attempts as usize, "{:?}", p.log());
    assert!(r.stdout.is_empty(), "no partial output: {r:?}");
}

/// Connection refused, an expired (unknown) bearer token, and a kubeconfig trusting another CA:
/// no proxy needed. The wrong CA must fail, never fall back to an unverified connection.
fn without_proxy(cp: &ControlPlane, topo: &Topo) {
    let dir = cp.dir.path();
    let admin = std::fs::read_to_string(&cp.admin_kubeconfig).unwrap();

    let refused = dir.join("refused.kubeconfig");
    std::fs::write(
        &refused,
        admin.replace(&cp.server, &format!("https://127.0.0.1:{}", harness::free_port())),
    )
    .unwrap();
    let r = topo.run_as(&refused, &["check", "-A", "--request-timeout=2s"]);
    fails_with(&r, &["cannot reach the API server at https://127.0.0.1:", "get the server version"]);

    let token = dir.join("expired-token.kubeconfig");
    write_token_kubeconfig(&token, &cp.server, &cp.ca, "expired-e2e-token");
    let r = topo.run_as(&token, &["zones", "--request-timeout=2s"]);
    fails_with(&r, &["unauthorized: ", "rejected the credentials"]);
    assert!(r.stderr.contains("log in again"), "{r:?}");

    let wrong_ca = dir.join("wrong-ca.kubeconfig");
    let pki = dir.join("pki");
    let admin_user = harness::User {
        name: "admin".into(),
        cert: pki.join("user-admin.crt"),
        key: pki.join("user-admin.key"),
    };
    harness::write_kubeconfig(&wrong_ca, &cp.server, &pki.join("front-proxy-ca.crt"), &admin_user);
    for args in [&["zones"][..], &["check", "-A"][..]] {
        let mut all = args.to_vec();
        all.push("--request-timeout=2s");
        let r = topo.run_as(&wrong_ca, &all);
        fails_with(&r, &["TLS error talking to", "certificate"]);
        assert!(r.stdout.is_empty(), "nothing read without a verified server: {r:?}");
    }
}

fn write_token_kubeconfig(path: &Path, server: &str, ca: &Path, token: &str) {
    let ca = ca.display();
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: e2e\n  cluster:\n    server: {server}\n    certificate-authority: {ca}\n\
         users:\n- name: expired\n  user:\n    token: {token}\ncontexts:\n- name: expired@e2e\n  context:\n    cluster: e2e\n    user: expired\n\
         current-context: expired@e2e\n"
    );
    std::fs::write(path, text).unwrap();
}
