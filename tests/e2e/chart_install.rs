//! The Helm chart on the real apiserver (issue 36), for the e2e `prometheus_operator` group: the
//! Prometheus Operator's CRDs created for real, then `helm install` of charts/kubectl-topo (helm
//! built from the Go module proxy by tests/helm/build-helm.sh, cached) as release `e2e-topo` in
//! namespace `e2e-chart` — names of their own, so deploy/'s objects that other groups apply do
//! not collide — and a kubeconfig holding a TokenRequest token of the chart's ServiceAccount.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use k8s_openapi::api::authentication::v1::{TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::{Namespace, ServiceAccount};
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use kube::discovery::{Scope, pinned_kind};
use kube::{Api, Client};
use serde_json::{Value, json};

use crate::harness::ControlPlane;
use crate::monitoring::WAIT;

pub const RELEASE: &str = "e2e-topo";
pub const RELEASE_NS: &str = "e2e-chart";
/// The exporter's Service, ServiceAccount and Deployment in the release.
pub const EXPORTER: &str = "e2e-topo-kubectl-topo-exporter";

/// A tool of tests/helm/build-helm.sh, by name (`helm`, `operator`, `prometheus`).
pub fn go_tool(name: &str) -> PathBuf {
    let out = Command::new("bash").args(["tests/helm/build-helm.sh", name]).output().expect("bash");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tests/helm/build-helm.sh {name}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find_map(|l| l.strip_prefix(&format!("{}=", name.to_uppercase())));
    PathBuf::from(line.unwrap_or_else(|| panic!("build-helm.sh printed no {name}: {stdout}")))
}

/// Server-side apply of one object as it is (its own namespace).
pub async fn apply(client: &Client, object: &Value) -> kube::Result<()> {
    let api_version = object["apiVersion"].as_str().expect("apiVersion");
    let kind = object["kind"].as_str().expect("kind");
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let (resource, caps) = pinned_kind(client, &GroupVersionKind::gvk(group, version, kind)).await?;
    let name = object["metadata"]["name"].as_str().expect("name");
    let api: Api<DynamicObject> = if caps.scope == Scope::Namespaced {
        let ns = object["metadata"]["namespace"].as_str().unwrap_or("default");
        Api::namespaced_with(client.clone(), ns, &resource)
    } else {
        Api::all_with(client.clone(), &resource)
    };
    api.patch(name, &PatchParams::apply("e2e-operator").force(), &Patch::Apply(object)).await.map(drop)
}

/// A namespace, unless it exists.
pub async fn namespace(client: &Client, name: &str) {
    let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": name}})).unwrap();
    match Api::<Namespace>::all(client.clone()).create(&PostParams::default(), &ns).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.code == 409 => {}
        Err(e) => panic!("create namespace {name}: {e}"),
    }
}

/// Every CRD of the Prometheus Operator (it starts a controller per kind it finds), created and
/// Established.
pub async fn operator_crds(client: &Client) {
    let out = Command::new("bash").arg("tests/monitoring/operator-crds.sh").output().expect("bash");
    assert!(out.status.success(), "operator-crds.sh: {}", String::from_utf8_lossy(&out.stderr));
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let crds: Api<DynamicObject> = Api::all_with(
        client.clone(),
        &ApiResource::from_gvk(&GroupVersionKind::gvk(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition",
        )),
    );
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let crd: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        apply(client, &crd).await.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = crd["metadata"]["name"].as_str().unwrap();
        let start = Instant::now();
        loop {
            let status = crds.get(name).await.expect("CRD").data["status"].clone();
            let conditions = status["conditions"].as_array().cloned().unwrap_or_default();
            if conditions.iter().any(|c| c["type"] == "Established" && c["status"] == "True") {
                break;
            }
            assert!(start.elapsed() < WAIT, "{name} not Established: {status}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    // Discovery must know the kinds before helm (and kube) can use them.
    for kind in ["Prometheus", "ServiceMonitor", "PrometheusRule"] {
        let gvk = GroupVersionKind::gvk("monitoring.coreos.com", "v1", kind);
        let start = Instant::now();
        while pinned_kind(client, &gvk).await.is_err() {
            assert!(start.elapsed() < WAIT, "{kind} never discovered");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

fn helm(cp: &ControlPlane, args: &[&str]) -> String {
    let out = Command::new(go_tool("helm"))
        .args(args)
        .arg("--kubeconfig")
        .arg(&cp.admin_kubeconfig)
        // Helm's own caches and config in the test's directory, not the developer's.
        .env("HELM_CACHE_HOME", cp.dir.path().join("helm/cache"))
        .env("HELM_CONFIG_HOME", cp.dir.path().join("helm/config"))
        .env("HELM_DATA_HOME", cp.dir.path().join("helm/data"))
        .output()
        .expect("helm runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "helm {args:?}:\n{text}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `helm install` of the chart with its defaults (the release label kube-prometheus-stack wants
/// included) and a 1 s scrape interval; the release is `deployed` and its objects exist.
pub async fn install(cp: &ControlPlane, client: &Client) {
    let _ = Command::new(go_tool("helm"))
        .args(["uninstall", RELEASE, "-n", RELEASE_NS, "--kubeconfig"])
        .arg(&cp.admin_kubeconfig)
        .output();
    helm(
        cp,
        &[
            "install",
            RELEASE,
            "charts/kubectl-topo",
            "-n",
            RELEASE_NS,
            "--create-namespace",
            "--set",
            "serviceMonitor.interval=1s",
        ],
    );
    let status: Value = serde_json::from_str(&helm(cp, &["status", RELEASE, "-n", RELEASE_NS, "-o", "json"]))
        .expect("helm status JSON");
    assert_eq!(status["info"]["status"], "deployed", "{status:#}");
    let gvk = GroupVersionKind::gvk("monitoring.coreos.com", "v1", "ServiceMonitor");
    let (resource, _) = pinned_kind(client, &gvk).await.expect("ServiceMonitor kind");
    let monitor = Api::<DynamicObject>::namespaced_with(client.clone(), RELEASE_NS, &resource)
        .get(EXPORTER)
        .await
        .expect("the chart's ServiceMonitor");
    assert_eq!(monitor.data["spec"]["endpoints"][0]["honorLabels"], true);
    assert_eq!(monitor.metadata.labels.unwrap_or_default()["release"], "kube-prometheus-stack");
    println!("e2e: prometheus_operator: helm install {RELEASE}: deployed");
}

pub fn uninstall(cp: &ControlPlane) {
    helm(cp, &["uninstall", RELEASE, "-n", RELEASE_NS]);
}

/// A kubeconfig holding a TokenRequest token of the chart's ServiceAccount.
pub async fn exporter_kubeconfig(cp: &ControlPlane, client: &Client) -> PathBuf {
    let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), RELEASE_NS);
    let request = TokenRequest {
        spec: Some(TokenRequestSpec { expiration_seconds: Some(3600), ..TokenRequestSpec::default() }),
        ..TokenRequest::default()
    };
    let token = accounts
        .create_token_request(EXPORTER, &PostParams::default(), &request)
        .await
        .expect("TokenRequest for the chart's ServiceAccount")
        .status
        .and_then(|s| s.token)
        .expect("a token");
    let path = cp.dir.path().join("chart-exporter-sa.kubeconfig");
    write_token_kubeconfig(&path, &cp.server, &cp.ca, &token);
    path
}

fn write_token_kubeconfig(path: &Path, server: &str, ca: &Path, token: &str) {
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: e2e\n  cluster:\n    server: {server}\n    certificate-authority: {}\n\
         users:\n- name: exporter\n  user:\n    token: {token}\n\
         contexts:\n- name: exporter@e2e\n  context:\n    cluster: e2e\n    user: exporter\ncurrent-context: exporter@e2e\n",
        ca.display()
    );
    std::fs::write(path, text).unwrap();
}
