//! deploy/ against the real apiserver, for the e2e `monitoring` group:
//! * every manifest applies with a server-side dry run and strict field validation — the
//!   Prometheus Operator's ServiceMonitor and PrometheusRule too, after creating the operator's
//!   real CRDs (tests/monitoring/operator-crds.sh: the Go module proxy, cached) and waiting until
//!   they are Established; a misspelt field in each kind of file is refused, so the check can fail;
//! * `serve` runs with only the rights deploy/ gives it: deploy/'s ServiceAccount, bound only to
//!   the read-only ClusterRole, with a real token from the TokenRequest API (the test apiserver
//!   signs service-account tokens) in a kubeconfig of its own. It becomes ready and exports the
//!   verdict, and the same token cannot read Secrets or change a Service.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use k8s_openapi::api::authentication::v1::{TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::{Secret, Service, ServiceAccount};
use kube::api::{
    DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams, PostParams, ValidationDirective,
};
use kube::discovery::{Scope, pinned_kind};
use kube::{Api, Client};
use serde_json::{Value, json};

use crate::harness::{ControlPlane, client_for};
use crate::monitoring::{WAIT, get, serve};
use crate::topo::Topo;

/// The documents of a YAML file (`---` separated, a leading one allowed).
fn documents(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    documents_of(&text, path)
}

fn documents_of(text: &str, path: &Path) -> Vec<Value> {
    let text = text.strip_prefix("---\n").unwrap_or(text);
    text.split("\n---\n")
        .filter(|doc| doc.lines().any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')))
        .map(|doc| serde_saphyr::from_str(doc).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// Server-side apply of one object (namespaced objects into `namespace` when given, else their
/// own); `dry_run` with strict field validation.
async fn apply(
    client: &Client,
    mut object: Value,
    namespace: Option<&str>,
    dry_run: bool,
) -> kube::Result<()> {
    let api_version = object["apiVersion"].as_str().expect("apiVersion").to_string();
    let kind = object["kind"].as_str().expect("kind").to_string();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", &api_version));
    let (resource, caps) = pinned_kind(client, &GroupVersionKind::gvk(group, version, &kind)).await?;
    let name = object["metadata"]["name"].as_str().expect("name").to_string();
    let api: Api<DynamicObject> = if caps.scope == Scope::Namespaced {
        if let Some(ns) = namespace {
            object["metadata"]["namespace"] = json!(ns);
        }
        let ns = object["metadata"]["namespace"].as_str().unwrap_or("default").to_string();
        Api::namespaced_with(client.clone(), &ns, &resource)
    } else {
        Api::all_with(client.clone(), &resource)
    };
    let params = PatchParams {
        dry_run,
        field_validation: Some(ValidationDirective::Strict),
        ..PatchParams::apply("e2e-monitoring").force()
    };
    api.patch(&name, &params, &Patch::Apply(&object)).await.map(drop)
}

/// Dry-run every document of `files` (namespaced ones in `default`: in a dry run their own
/// Namespace is not created); how many.
async fn dry_run_files(client: &Client, files: &[PathBuf]) -> usize {
    let mut applied = 0;
    for file in files {
        for object in documents(file) {
            let what = format!("{}/{}", object["kind"], object["metadata"]["name"]);
            apply(client, object, Some("default"), true)
                .await
                .unwrap_or_else(|e| panic!("{}: {what} does not apply: {e}", file.display()));
            applied += 1;
        }
    }
    applied
}

fn files_in(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    // Objects only: a kustomization.yaml is kustomize's, not the apiserver's.
    files.retain(|f| f.extension().is_some_and(|e| e == "yaml") && !f.ends_with("kustomization.yaml"));
    files.sort();
    files
}

/// The Prometheus Operator's ServiceMonitor and PrometheusRule CRDs, created for real; waits
/// until they are Established and their kinds are discovered.
async fn install_operator_crds(client: &Client) {
    let out = Command::new("bash").arg("tests/monitoring/operator-crds.sh").output().expect("bash");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tests/monitoring/operator-crds.sh: {stderr}");
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    for (plural, kind) in [("servicemonitors", "ServiceMonitor"), ("prometheusrules", "PrometheusRule")] {
        let file = dir.join(format!("monitoring.coreos.com_{plural}.yaml"));
        for crd in documents(&file) {
            apply(client, crd, None, false).await.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        }
        let crds: Api<DynamicObject> = Api::all_with(
            client.clone(),
            &kube::api::ApiResource::from_gvk(&GroupVersionKind::gvk(
                "apiextensions.k8s.io",
                "v1",
                "CustomResourceDefinition",
            )),
        );
        let name = format!("{plural}.monitoring.coreos.com");
        let start = Instant::now();
        loop {
            let crd = crds.get(&name).await.expect("CRD");
            let conditions = crd.data["status"]["conditions"].as_array().cloned().unwrap_or_default();
            let established = conditions.iter().any(|c| c["type"] == "Established" && c["status"] == "True");
            let gvk = GroupVersionKind::gvk("monitoring.coreos.com", "v1", kind);
            if established && pinned_kind(client, &gvk).await.is_ok() {
                break;
            }
            assert!(start.elapsed() < WAIT, "{name} not Established: {}", crd.data["status"]);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    println!("e2e: monitoring: Prometheus Operator CRDs Established (from {})", dir.display());
}

/// Every manifest of deploy/ applies (server-side dry run, strict field validation), and a
/// misspelt field in each kind of file is refused.
pub async fn dry_run_deploy(client: &Client) {
    let mut files = vec![PathBuf::from("deploy/rbac.yaml")];
    files.extend(files_in("deploy/exporter"));
    let core = dry_run_files(client, &files).await;
    assert!(core >= 9, "only {core} objects");
    install_operator_crds(client).await;
    let operator = files_in("deploy/prometheus-operator");
    let kinds = dry_run_files(client, &operator).await;
    assert_eq!(kinds, 2, "a ServiceMonitor and a PrometheusRule: {operator:?}");
    println!("e2e: monitoring: deploy/ applies (server-side dry run, strict): {} objects", core + kinds);
    let misspelt = [
        ("deploy/prometheus-operator/servicemonitor.yaml", "interval:", "intervall:"),
        ("deploy/prometheus-operator/prometheusrule.yaml", "for:", "fro:"),
        ("deploy/exporter/20-deployment.yaml", "readOnlyRootFilesystem:", "readOnlyRootFileSystem:"),
    ];
    for (file, field, typo) in misspelt {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains(field), "{file} has no {field}");
        let bad = text.replacen(field, typo, 1);
        let object = documents_of(&bad, Path::new(file)).remove(0);
        let refused = apply(client, object, Some("default"), true).await;
        let error = refused.expect_err(&format!("{file} with `{typo}` applied"));
        let field = typo.trim_end_matches(':');
        assert!(error.to_string().contains(field), "{file}: refused, but not for {field}: {error}");
    }
}

/// A kubeconfig holding a TokenRequest token of deploy/'s ServiceAccount.
async fn exporter_kubeconfig(cp: &ControlPlane, client: &Client) -> PathBuf {
    // From deploy/rbac.yaml only the ClusterRole: its example bindings name a group other
    // groups of this tier use.
    let role = documents(Path::new("deploy/rbac.yaml")).into_iter().filter(|d| d["kind"] == "ClusterRole");
    let identity = ["deploy/exporter/00-namespace.yaml", "deploy/exporter/10-serviceaccount.yaml"];
    for object in role.chain(identity.iter().flat_map(|f| documents(Path::new(f)))) {
        let what = format!("{}/{}", object["kind"], object["metadata"]["name"]);
        apply(client, object, None, false).await.unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), "kubectl-topo");
    let request = TokenRequest {
        spec: Some(TokenRequestSpec { expiration_seconds: Some(3600), ..TokenRequestSpec::default() }),
        ..TokenRequest::default()
    };
    let token = accounts
        .create_token_request("kubectl-topo-exporter", &PostParams::default(), &request)
        .await
        .expect("TokenRequest for kubectl-topo/kubectl-topo-exporter")
        .status
        .expect("token status")
        .token
        .expect("a token");
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: e2e\n  cluster:\n    server: {}\n    certificate-authority: {}\n\
         users:\n- name: exporter\n  user:\n    token: {token}\n\
         contexts:\n- name: exporter@e2e\n  context:\n    cluster: e2e\n    user: exporter\ncurrent-context: exporter@e2e\n",
        cp.server,
        cp.ca.display()
    );
    let path = cp.dir.path().join("monitoring-exporter-sa.kubeconfig");
    std::fs::write(&path, text).unwrap();
    path
}

/// `serve` as deploy/'s ServiceAccount: ready, the verdict of `ns/service` exported, and nothing
/// more allowed than reading.
pub async fn serve_as_exporter_account(
    cp: &ControlPlane,
    client: &Client,
    topo: &Topo,
    ns: &str,
    service: &str,
) {
    let kubeconfig = exporter_kubeconfig(cp, client).await;
    let (exporter, port) = serve(topo, &kubeconfig);
    let start = Instant::now();
    let wanted = format!("kubectl_topo_service_verdict{{namespace=\"{ns}\",service=\"{service}\",");
    loop {
        let metrics = get(port, "/metrics").map(|(_, body)| body).unwrap_or_default();
        let ready = get(port, "/readyz").map(|(s, _)| s) == Some(200);
        if ready && metrics.lines().any(|l| l.starts_with(&wanted) && l.contains("verdict=\"Active\"")) {
            break;
        }
        assert!(
            start.elapsed() < WAIT,
            "serve as the ServiceAccount: not ready or no verdict: {}",
            exporter.stderr()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    println!(
        "e2e: monitoring: serve as the ServiceAccount ready after {:.1}s",
        start.elapsed().as_secs_f64()
    );
    let stderr = exporter.stderr();
    assert!(!stderr.contains("orbidden"), "the read-only ClusterRole was not enough: {stderr}");
    drop(exporter);
    let account = client_for(&kubeconfig).await;
    let secrets: Api<Secret> = Api::all(account.clone());
    let denied = secrets.list(&ListParams::default()).await.expect_err("the ServiceAccount lists Secrets");
    assert!(matches!(&denied, kube::Error::Api(s) if s.code == 403), "{denied}");
    let services: Api<Service> = Api::namespaced(account, ns);
    let patch = Patch::Merge(json!({"metadata": {"labels": {"e2e/exporter": "wrote"}}}));
    let denied =
        services.patch(service, &PatchParams::default(), &patch).await.expect_err("it patched a Service");
    assert!(matches!(&denied, kube::Error::Api(s) if s.code == 403), "{denied}");
}
