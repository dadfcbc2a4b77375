//! Who may read `/metrics` of `kubectl topo serve --auth=tokenreview`, decided by the real
//! apiserver: the exporter runs as a ServiceAccount bound to the built-in `system:auth-delegator`
//! (and the read-only ClusterRole of deploy/rbac.yaml) over HTTPS with a certificate made by
//! openssl, and curl scrapes it with `--cacert`:
//! * without a token: 401;
//! * with the token of a ServiceAccount that may not `get` the non-resource URL `/metrics`: 403;
//! * with the token of one bound to a ClusterRole that grants it: 200 and the metrics;
//! * a token the apiserver does not authenticate: 401; `/healthz` and `/readyz` need none (the
//!   kubelet's probes carry no token).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use k8s_openapi::api::authentication::v1::{TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::{Namespace, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::Client;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::cluster::Cluster;
use crate::harness::ControlPlane;
use crate::monitoring::{Running, WAIT};
use crate::topo::Topo;

const NS: &str = "e2e-serve-auth";

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else {
        eprintln!("e2e: serve_auth: SKIPPED: the kubectl-topo binary is not part of this build");
        return;
    };
    let client = &cl.client;
    accounts(client).await;
    let exporter_config = kubeconfig(cp, client, "exporter").await;
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(dir.path());
    let args = [
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--tls-cert-file",
        cert.to_str().unwrap(),
        "--tls-private-key-file",
        key.to_str().unwrap(),
        "--auth=tokenreview",
    ];
    let mut exporter = Running::new(topo.spawn_as(&exporter_config, &args));
    let port = port_of(&exporter);
    let scrape = |path: &str, token: Option<&str>| curl(&cert, port, path, token);
    let start = Instant::now();
    while scrape("/readyz", None).0 != 200 {
        assert!(start.elapsed() < WAIT, "not ready over HTTPS: {}", exporter.stderr());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(scrape("/healthz", None).0, 200, "probes need no token");
    let (status, body) = scrape("/metrics", None);
    assert_eq!(status, 401, "no token: {body}");
    let (status, body) = scrape("/metrics", Some("not-a-token"));
    assert_eq!(status, 401, "a token the apiserver does not know: {body}");
    let nobody = token(client, "nobody").await;
    let (status, body) = scrape("/metrics", Some(&nobody));
    assert_eq!(status, 403, "a ServiceAccount without get on /metrics: {body}");
    let scraper = token(client, "scraper").await;
    let (status, body) = scrape("/metrics", Some(&scraper));
    assert_eq!(status, 200, "a ServiceAccount allowed to get /metrics: {body}");
    assert!(body.contains("kubectl_topo_ready 1"), "{body}");
    println!("e2e: serve_auth: 401 without a token, 403 for nobody, 200 for the scraper, over HTTPS");
    assert_eq!(exporter.terminate(), Some(0), "serve after SIGTERM: {}", exporter.stderr());
}

/// The namespace, three ServiceAccounts (the exporter, a scraper, nobody) and their rights.
async fn accounts(client: &Client) {
    let apply = PatchParams::apply("e2e-serve-auth").force();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}});
    namespaces.patch(NS, &apply, &Patch::Apply(ns)).await.expect("namespace");
    let sas: Api<ServiceAccount> = Api::namespaced(client.clone(), NS);
    for name in ["exporter", "scraper", "nobody"] {
        let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name, "namespace": NS}});
        sas.patch(name, &apply, &Patch::Apply(sa)).await.expect("service account");
    }
    let roles: Api<ClusterRole> = Api::all(client.clone());
    let reader = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "e2e-serve-auth-reader"},
        "rules": [{"apiGroups": [""], "resources": ["nodes", "services", "events"], "verbs": ["get", "list", "watch"]},
                  {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": ["get", "list", "watch"]}]});
    let metrics = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "e2e-serve-auth-metrics"},
        "rules": [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}]});
    for role in [reader, metrics] {
        let name = role["metadata"]["name"].as_str().unwrap().to_string();
        roles.patch(&name, &apply, &Patch::Apply(role)).await.expect("cluster role");
    }
    let bindings: Api<ClusterRoleBinding> = Api::all(client.clone());
    let bound = [
        ("e2e-serve-auth-exporter-reader", "e2e-serve-auth-reader", "exporter"),
        ("e2e-serve-auth-exporter-delegator", "system:auth-delegator", "exporter"),
        ("e2e-serve-auth-scraper", "e2e-serve-auth-metrics", "scraper"),
    ];
    for (name, role, account) in bound {
        let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": {"name": name},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": [{"kind": "ServiceAccount", "name": account, "namespace": NS}]});
        bindings.patch(name, &apply, &Patch::Apply(binding)).await.expect("cluster role binding");
    }
}

/// A TokenRequest token of the ServiceAccount `name`.
async fn token(client: &Client, name: &str) -> String {
    let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), NS);
    let request = TokenRequest {
        spec: Some(TokenRequestSpec { expiration_seconds: Some(3600), ..TokenRequestSpec::default() }),
        ..TokenRequest::default()
    };
    let answer = accounts.create_token_request(name, &PostParams::default(), &request).await;
    answer.expect("TokenRequest").status.expect("token status").token.expect("a token")
}

/// A kubeconfig of the ServiceAccount `name`.
async fn kubeconfig(cp: &ControlPlane, client: &Client, name: &str) -> PathBuf {
    let token = token(client, name).await;
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: e2e\n  cluster:\n    server: {}\n    certificate-authority: {}\n\
         users:\n- name: {name}\n  user:\n    token: {token}\n\
         contexts:\n- name: {name}@e2e\n  context:\n    cluster: e2e\n    user: {name}\ncurrent-context: {name}@e2e\n",
        cp.server,
        cp.ca.display()
    );
    let path = cp.dir.path().join(format!("serve-auth-{name}.kubeconfig"));
    std::fs::write(&path, text).unwrap();
    path
}

/// A self-signed certificate for 127.0.0.1 and localhost, by openssl.
fn certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join("tls.crt"), dir.join("tls.key"));
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
        ])
        .args(["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl runs");
    assert!(made.status.success(), "openssl: {}", String::from_utf8_lossy(&made.stderr));
    (cert, key)
}

/// The port `serve` says it listens on over HTTPS.
fn port_of(exporter: &Running) -> u16 {
    let start = Instant::now();
    loop {
        let stderr = exporter.stderr();
        let prefix = "note: serving /metrics, /healthz and /readyz on https://127.0.0.1:";
        if let Some(port) =
            stderr.lines().find_map(|l| l.strip_prefix(prefix)).and_then(|p| p.trim().parse().ok())
        {
            return port;
        }
        assert!(start.elapsed() < WAIT, "serve did not start over HTTPS: {stderr}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// curl over HTTPS trusting only `ca`: the status and the body.
fn curl(ca: &Path, port: u16, path: &str, token: Option<&str>) -> (u16, String) {
    let mut command = Command::new("curl");
    command.args(["--silent", "--show-error", "--max-time", "20", "--write-out", "\n%{http_code}"]);
    command.arg("--cacert").arg(ca);
    if let Some(token) = token {
        command.args(["--header", &format!("Authorization: Bearer {token}")]);
    }
    let out = command.arg(format!("https://127.0.0.1:{port}{path}")).output().expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", "0"));
    (status.trim().parse().unwrap_or(0), body.to_string())
}
