//! The real Prometheus Operator (v0.85.0, `cmd/operator` built from the Go module proxy by
//! tests/helm/build-helm.sh, cached) reconciles the chart's ServiceMonitor and PrometheusRule on
//! this apiserver, and a real Prometheus runs the configuration it generates against `serve`
//! (issue 36). That Prometheus is v3.5.0 built the same way: Debian's 2.42 has no Kubernetes
//! service discovery, which the generated configuration uses.
//! * the chart installed with helm (`chart_install.rs`); a Prometheus object selecting
//!   `release: kube-prometheus-stack` as kube-prometheus-stack's does, discovering through
//!   EndpointSlices (this control plane runs no Endpoints controller);
//! * a control ServiceMonitor, the chart's without `honorLabels` (what deploy/ shipped before);
//! * the exporter's Pod (no kubelet: its status written as one would) behind the chart's Service,
//!   `serve` itself on 127.0.0.1 as the chart's ServiceAccount, and a Blocked Service `e2e-demo/web`;
//! * the Operator's Secret (prometheus.yaml.gz) and rule ConfigMap, read back and run as they are,
//!   but for what a Pod would provide: the config-reloader's `$(POD_NAME)`/`$(SHARD)`, the service
//!   account (here a kubeconfig for Kubernetes discovery), the rule files' directory, and the Pod
//!   IP (a last relabeling sends the scrape to 127.0.0.1); the Operator's relabelings are kept;
//! * `KubectlTopoHintsDisabled` names `e2e-demo/web`; with the control ServiceMonitor it names the
//!   exporter's own namespace and Service, and ours become `exported_*` — the bug of issue 36.

use std::process::Command;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::{Patch, PatchParams, PostParams};
use kube::{Api, Client};
use serde_json::{Value, json};

use crate::chart_install::{self, EXPORTER, RELEASE, RELEASE_NS, apply, go_tool, namespace};
use crate::cluster::{Cluster, node};
use crate::harness::{ControlPlane, Proc, free_port, tail};
use crate::monitoring::{WAIT, get, serve};
use crate::topo::Topo;

const PROM_NS: &str = "e2e-prometheus";
const DEMO_NS: &str = "e2e-demo";
const AUTO: &str = "service.kubernetes.io/topology-mode";

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>) {
    chart_install::operator_crds(&cl.client).await;
    chart_install::install(cp, &cl.client).await;
    let Some(topo) = topo else {
        chart_install::uninstall(cp);
        return;
    };
    cl.set_nodes(&[
        node("a1", Some("zone-a"), "4"),
        node("b1", Some("zone-b"), "4"),
        node("c1", Some("zone-c"), "4"),
    ])
    .await;
    exporter_pod(&cl.client).await;
    control_monitor(&cl.client).await;
    let operator = start_operator(cp);
    namespace(&cl.client, PROM_NS).await;
    apply(&cl.client, &prometheus_object()).await.expect("Prometheus object");
    let (config, rules) = generated(&cl.client, &operator).await;

    namespace(&cl.client, DEMO_NS).await;
    for (i, n) in ["a1", "b1", "c1", "a1"].iter().enumerate() {
        cl.create_pod(DEMO_NS, &format!("web-{i}"), "web", n).await;
    }
    cl.create_service(DEMO_NS, "web", json!({AUTO: "Auto"}), None).await;
    cl.wait_slices(DEMO_NS, "web", "4 endpoints", WAIT, |s| s.endpoints == 4).await;

    let kubeconfig = chart_install::exporter_kubeconfig(cp, &cl.client).await;
    let (exporter, port) = serve(topo, &kubeconfig);
    let prometheus = Prometheus::start(cp, &config, &rules, port);
    let (honored, control) = prometheus.until_both_alerts().await;
    assert_eq!(honored["service"], "web", "{honored:#}");
    assert!(honored["exported_namespace"].is_null() && honored["exported_service"].is_null(), "{honored:#}");
    assert_eq!(honored["reason"], "OverloadThreshold", "{honored:#}");
    assert_eq!(honored["job"], EXPORTER, "the Operator's job label: {honored:#}");
    assert_eq!(honored["endpoint"], "metrics", "the Operator's endpoint label: {honored:#}");
    // The control reproduces issue 36: the target's labels win.
    assert_eq!(
        (&control["namespace"], &control["service"]),
        (&json!(RELEASE_NS), &json!(EXPORTER)),
        "{control:#}"
    );
    assert_eq!(control["exported_service"], "web", "{control:#}");
    assert_eq!(honored["pod"], format!("{EXPORTER}-0"), "the Operator's pod label: {honored:#}");
    let summaries = prometheus.summaries();
    let ours = format!("Topology hints disabled for {DEMO_NS}/web (IPv4): OverloadThreshold");
    let wrong = format!("Topology hints disabled for {RELEASE_NS}/{EXPORTER} (IPv4): OverloadThreshold");
    assert_eq!(summaries, (ours, wrong));
    println!(
        "e2e: prometheus_operator: KubectlTopoHintsDisabled names {DEMO_NS}/web (the control: {RELEASE_NS}/{EXPORTER})"
    );
    drop(prometheus);
    drop(exporter);
    drop(operator);
    chart_install::uninstall(cp);
}

/// The exporter's Pod as the Deployment would make it, Running and Ready on a1.
async fn exporter_pod(client: &Client) {
    let pods: Api<Pod> = Api::namespaced(client.clone(), RELEASE_NS);
    let labels = json!({"app.kubernetes.io/name": "kubectl-topo", "app.kubernetes.io/instance": RELEASE,
                        "app.kubernetes.io/component": "exporter"});
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": format!("{EXPORTER}-0"), "namespace": RELEASE_NS, "labels": labels},
        "spec": {"nodeName": "a1", "serviceAccountName": EXPORTER, "automountServiceAccountToken": false,
                 "containers": [{"name": "exporter", "image": "kubectl-topo:e2e",
                                 "ports": [{"name": "metrics", "containerPort": 10064}]}]}
    }))
    .unwrap();
    pods.create(&PostParams::default(), &pod).await.expect("the exporter's Pod");
    let now = "2026-01-01T00:00:00Z";
    let conditions: Vec<Value> = ["PodScheduled", "Initialized", "ContainersReady", "Ready"]
        .iter()
        .map(|t| json!({"type": t, "status": "True", "lastTransitionTime": now}))
        .collect();
    let status = json!({"status": {"phase": "Running", "podIP": "10.245.0.10", "podIPs": [{"ip": "10.245.0.10"}],
        "hostIP": "192.0.2.1", "conditions": conditions, "startTime": now}});
    pods.patch_status(&format!("{EXPORTER}-0"), &PatchParams::default(), &Patch::Merge(&status))
        .await
        .expect("the exporter Pod's status");
}

/// The chart's ServiceMonitor without `honorLabels`, its targets marked `variant`.
async fn control_monitor(client: &Client) {
    let monitor = json!({
        "apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
        "metadata": {"name": "e2e-no-honor-labels", "namespace": RELEASE_NS, "labels": {"release": "kube-prometheus-stack"}},
        "spec": {"selector": {"matchLabels": {"app.kubernetes.io/instance": RELEASE, "app.kubernetes.io/component": "exporter"}},
                 "endpoints": [{"port": "metrics", "interval": "1s",
                                "relabelings": [{"targetLabel": "variant", "replacement": "no-honor-labels", "action": "replace"}]}]}
    });
    apply(client, &monitor).await.expect("the control ServiceMonitor");
}

/// As kube-prometheus-stack's Prometheus selects: `release: kube-prometheus-stack`, every namespace.
fn prometheus_object() -> Value {
    let release = json!({"matchLabels": {"release": "kube-prometheus-stack"}});
    json!({
        "apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus",
        "metadata": {"name": "k8s", "namespace": PROM_NS},
        "spec": {"version": prometheus_version(), "serviceDiscoveryRole": "EndpointSlice",
                 "scrapeInterval": "1s", "evaluationInterval": "1s",
                 "serviceMonitorSelector": release, "serviceMonitorNamespaceSelector": {},
                 "ruleSelector": release, "ruleNamespaceSelector": {}}
    })
}

/// The version of our Prometheus (the Operator writes the configuration for it).
fn prometheus_version() -> String {
    let out = Command::new(go_tool("prometheus")).arg("--version").output().expect("prometheus --version");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let version = text.split_whitespace().nth(2).expect("prometheus, version X");
    format!("v{}", version.split(['+', '-']).next().unwrap())
}

fn start_operator(cp: &ControlPlane) -> Proc {
    let pki = cp.dir.path().join("pki");
    let mut command = Command::new(go_tool("operator"));
    command
        .arg(format!("--apiserver={}", cp.server))
        .arg(format!("--ca-file={}", cp.ca.display()))
        .arg(format!("--cert-file={}", pki.join("user-admin.crt").display()))
        .arg(format!("--key-file={}", pki.join("user-admin.key").display()))
        .arg(format!("--web.listen-address=127.0.0.1:{}", free_port()))
        .arg("--log-level=debug");
    Proc::spawn("prometheus-operator", &mut command, cp.dir.path())
}

/// The Operator's generated configuration (gunzipped) and rule files (name, text), once they
/// hold our job and our alerts.
async fn generated(client: &Client, operator: &Proc) -> (String, Vec<(String, String)>) {
    let secrets: Api<Secret> = Api::namespaced(client.clone(), PROM_NS);
    let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), PROM_NS);
    let job = format!("serviceMonitor/{RELEASE_NS}/{EXPORTER}/0");
    let start = Instant::now();
    loop {
        let config = secrets
            .get_opt("prometheus-k8s")
            .await
            .ok()
            .flatten()
            .and_then(|s| s.data)
            .and_then(|d| d.get("prometheus.yaml.gz").map(|gz| gunzip(&gz.0)));
        let rules =
            config_maps.get_opt("prometheus-k8s-rulefiles-0").await.ok().flatten().and_then(|c| c.data);
        if let (Some(config), Some(rules)) = (config, rules)
            && config.contains(&job)
            && config.contains("e2e-no-honor-labels")
            && rules.values().any(|r| r.contains("KubectlTopoHintsDisabled"))
        {
            println!(
                "e2e: prometheus_operator: configuration generated after {:.1}s",
                start.elapsed().as_secs_f64()
            );
            return (config, rules.into_iter().collect());
        }
        assert!(
            start.elapsed() < WAIT,
            "the Operator generated no configuration with {job}:\n{}",
            tail(&operator.log, 30)
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn gunzip(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("gzip")
        .arg("-dc")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().expect("gzip -dc");
    assert!(out.status.success(), "gzip -dc");
    String::from_utf8(out.stdout).expect("UTF-8 configuration")
}

/// Debian's Prometheus running the Operator's configuration.
struct Prometheus {
    port: u16,
    _process: Proc,
}

impl Prometheus {
    fn start(cp: &ControlPlane, config: &str, rules: &[(String, String)], exporter: u16) -> Prometheus {
        let dir = cp.dir.path().join("prometheus-operator-run");
        std::fs::create_dir_all(dir.join("rules")).unwrap();
        for (name, text) in rules {
            std::fs::write(dir.join("rules").join(name), text).unwrap();
        }
        let config = adapt(config, cp, &dir, exporter);
        std::fs::write(dir.join("prometheus.json"), config).unwrap();
        let port = free_port();
        let mut command = Command::new(go_tool("prometheus"));
        command
            .arg(format!("--config.file={}", dir.join("prometheus.json").display()))
            .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"));
        Prometheus { port, _process: Proc::spawn("prometheus-of-operator", &mut command, cp.dir.path()) }
    }

    fn api(&self, path: &str) -> Value {
        get(self.port, path)
            .map_or(Value::Null, |(_, body)| serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// The labels of `KubectlTopoHintsDisabled` about the demo Service (pending: `for` is 15
    /// minutes) from our job and from the control's. Other groups' Services may alert too.
    async fn until_both_alerts(&self) -> (Value, Value) {
        let start = Instant::now();
        loop {
            let result =
                self.api("/api/v1/query?query=ALERTS%7Balertname%3D%22KubectlTopoHintsDisabled%22%7D");
            let series: Vec<Value> = result["data"]["result"].as_array().cloned().unwrap_or_default();
            let labels: Vec<Value> = series.into_iter().map(|s| s["metric"].clone()).collect();
            let ours = labels.iter().find(|l| l["variant"].is_null() && l["namespace"] == DEMO_NS);
            let control = labels
                .iter()
                .find(|l| l["variant"] == "no-honor-labels" && l["exported_namespace"] == DEMO_NS);
            if let (Some(ours), Some(control)) = (ours, control) {
                println!("e2e: prometheus_operator: both alerts after {:.1}s", start.elapsed().as_secs_f64());
                return (ours.clone(), control.clone());
            }
            assert!(
                start.elapsed() < WAIT,
                "no KubectlTopoHintsDisabled for {DEMO_NS}/web from both jobs: {labels:#?}\ntargets: {}",
                self.api("/api/v1/targets")
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// The summary annotations of both alerts about the demo Service, as Prometheus expanded
    /// them: (ours, the control's).
    fn summaries(&self) -> (String, String) {
        let alerts = self.api("/api/v1/alerts");
        let list = alerts["data"]["alerts"].as_array().cloned().unwrap_or_default();
        let summary = |control: bool| {
            let alert = list.iter().find(|a| {
                let l = &a["labels"];
                l["alertname"] == "KubectlTopoHintsDisabled"
                    && if control { l["exported_namespace"] == DEMO_NS } else { l["namespace"] == DEMO_NS }
            });
            let alert = alert.unwrap_or_else(|| panic!("no alert (control: {control}): {alerts}"));
            alert["annotations"]["summary"].as_str().unwrap_or("").to_string()
        };
        (summary(false), summary(true))
    }
}

/// The generated configuration with what a Pod would provide (module docs); JSON (YAML).
fn adapt(config: &str, cp: &ControlPlane, dir: &std::path::Path, exporter: u16) -> String {
    let config = config.replace("$(POD_NAME)", "prometheus-k8s-0").replace("$(SHARD)", "0");
    let mut config: Value = serde_saphyr::from_str(&config).expect("the Operator's configuration parses");
    config["rule_files"] = json!([dir.join("rules/*.yaml").display().to_string()]);
    let jobs = config["scrape_configs"].as_array_mut().expect("scrape_configs");
    assert!(jobs.len() >= 2, "our job and the control: {jobs:?}");
    for job in jobs {
        for sd in job["kubernetes_sd_configs"].as_array_mut().expect("kubernetes_sd_configs") {
            sd["kubeconfig_file"] = json!(cp.admin_kubeconfig.display().to_string());
        }
        let relabel = json!({"target_label": "__address__", "replacement": format!("127.0.0.1:{exporter}")});
        job["relabel_configs"].as_array_mut().expect("relabel_configs").push(relabel);
    }
    config.to_string()
}
