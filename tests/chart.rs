//! The Helm chart (charts/kubectl-topo) and the kustomizations of deploy/ read by their real
//! tools, built from the Go module proxy by tests/helm/build-helm.sh (cached, pinned versions):
//! `helm lint --strict`; `helm template` with the defaults renders the very objects
//! `kustomize build` makes of deploy/, deploy/prometheus-operator/ and deploy/grafana/ (modulo
//! Helm's own labels), so the two cannot drift; every part turns off; the values reach the
//! objects; the chart's rules pass promtool and our rule unit tests; `kustomize edit set image`
//! sets the image. The chart on a real apiserver and the Prometheus Operator: the e2e tier.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

const CHART: &str = "charts/kubectl-topo";

/// `tool` (helm or kustomize) from tests/helm/build-helm.sh.
pub fn tool(name: &str) -> PathBuf {
    static TOOLS: OnceLock<BTreeMap<String, PathBuf>> = OnceLock::new();
    let tools = TOOLS.get_or_init(|| {
        let out = Command::new("bash")
            .args(["tests/helm/build-helm.sh", "helm", "kustomize"])
            .output()
            .expect("bash runs tests/helm/build-helm.sh");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "tests/helm/build-helm.sh failed:\n{stderr}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_lowercase(), PathBuf::from(v)))
            .collect()
    });
    tools.get(name).unwrap_or_else(|| panic!("build-helm.sh printed no {name}")).clone()
}

/// promtool (Debian's `prometheus` package, installed by tests/monitoring/install.sh when missing).
fn promtool() -> PathBuf {
    if Command::new("promtool").arg("--version").output().is_err() {
        let status = Command::new("bash").arg("tests/monitoring/install.sh").status().expect("bash");
        assert!(status.success(), "tests/monitoring/install.sh failed");
    }
    PathBuf::from("promtool")
}

/// Run a command; its stdout, or a panic with everything it said.
fn run(command: &mut Command) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{command:?} failed:\n{text}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The objects of a multi-document YAML stream (empty documents dropped).
pub fn objects(text: &str) -> Vec<Value> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).expect("YAML stream");
    docs.into_iter().filter(|d| d.is_object()).collect()
}

/// `helm template` of the chart as release `kubectl-topo` in namespace `kubectl-topo`.
pub fn template(sets: &[&str]) -> Vec<Value> {
    let mut helm = Command::new(tool("helm"));
    helm.args(["template", "kubectl-topo", CHART, "--namespace", "kubectl-topo"]);
    for set in sets {
        helm.args(["--set", set]);
    }
    objects(&run(&mut helm))
}

fn kustomize_build(dir: &Path) -> Vec<Value> {
    objects(&run(Command::new(tool("kustomize")).arg("build").arg(dir)))
}

fn key(object: &Value) -> String {
    let meta = &object["metadata"];
    let ns = meta["namespace"].as_str().unwrap_or("");
    format!("{}/{ns}/{}", object["kind"].as_str().unwrap_or(""), meta["name"].as_str().unwrap_or(""))
}

fn kinds(objects: &[Value]) -> Vec<String> {
    let mut kinds: Vec<String> =
        objects.iter().map(|o| o["kind"].as_str().unwrap_or("").to_string()).collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// Helm's own labels (release, version, chart, manager), wherever they are, selectors included.
const HELM_LABELS: [&str; 4] = [
    "app.kubernetes.io/instance",
    "app.kubernetes.io/version",
    "app.kubernetes.io/managed-by",
    "helm.sh/chart",
];

fn without_helm_labels(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for label in HELM_LABELS {
                map.remove(label);
            }
            map.values_mut().for_each(without_helm_labels);
        }
        Value::Array(items) => items.iter_mut().for_each(without_helm_labels),
        _ => {}
    }
}

#[test]
fn the_chart_passes_helm_lint_strict() {
    let out = run(Command::new(tool("helm")).args(["lint", "--strict", CHART]));
    assert!(out.contains("1 chart(s) linted, 0 chart(s) failed"), "{out}");
    // A value of the wrong type is refused by the chart's schema, not rendered into a bad object.
    let bad = Command::new(tool("helm"))
        .args(["lint", "--strict", CHART, "--set", "exporter.port=metrics"])
        .output()
        .expect("helm runs");
    let text = String::from_utf8_lossy(&bad.stdout).to_string() + &String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && text.contains("/exporter/port': got string, want integer"), "{text}");
}

/// One source of truth: with its defaults (and the Namespace, which deploy/ creates) the chart
/// renders exactly the objects of deploy/'s three kustomizations: same kinds, names, namespaces
/// and specs; deploy/'s labels are all there; only Helm's own labels are added.
#[test]
fn the_chart_with_defaults_renders_what_kustomize_builds_from_deploy() {
    let mut from_deploy = Vec::new();
    for dir in ["deploy", "deploy/prometheus-operator", "deploy/grafana"] {
        from_deploy.extend(kustomize_build(Path::new(dir)));
    }
    let rendered = template(&["namespace.create=true"]);
    let index = |objects: Vec<Value>| -> BTreeMap<String, Value> {
        objects.into_iter().map(|o| (key(&o), o)).collect()
    };
    let (from_deploy, mut rendered) = (index(from_deploy), index(rendered));
    assert_eq!(
        from_deploy.keys().collect::<Vec<_>>(),
        rendered.keys().collect::<Vec<_>>(),
        "the chart and deploy/ make different objects"
    );
    assert_eq!(from_deploy.len(), 14, "{:?}", from_deploy.keys());
    for (key, mut expected) in from_deploy {
        let mut got = rendered.remove(&key).unwrap();
        let labels = |o: &Value| o["metadata"]["labels"].as_object().cloned().unwrap_or_default();
        let (want, have) = (labels(&expected), labels(&got));
        for (label, value) in &want {
            assert_eq!(have.get(label), Some(value), "{key}: label {label} (chart: {have:?})");
        }
        without_helm_labels(&mut got);
        for object in [&mut expected, &mut got] {
            object["metadata"].as_object_mut().unwrap().remove("labels");
        }
        assert_eq!(got, expected, "{key}: the chart renders\n{got:#}\ndeploy/ has\n{expected:#}");
    }
}

/// Helm cannot read files outside the chart: the rules and the dashboard are copies, byte for byte.
#[test]
fn the_charts_rules_and_dashboard_are_deploys_files() {
    for (copy, original) in [
        ("files/rules.yaml", "deploy/prometheus/rules.yaml"),
        ("files/kubectl-topo-dashboard.json", "deploy/grafana/kubectl-topo-dashboard.json"),
    ] {
        let copy = Path::new(CHART).join(copy);
        let (a, b) = (std::fs::read(&copy).unwrap(), std::fs::read(original).unwrap());
        assert!(
            a == b,
            "{} differs from {original}: copy it again (cp {original} {})",
            copy.display(),
            copy.display()
        );
    }
}

/// The PrometheusRule the chart renders, as a plain rule file, passes `promtool check rules` and
/// our rule unit tests (deploy/prometheus/rules.test.yaml).
#[test]
fn the_charts_alert_rules_pass_our_rule_unit_tests() {
    let rule = template(&[]).into_iter().find(|o| o["kind"] == "PrometheusRule").expect("a PrometheusRule");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rules.yaml"), serde_json::to_string(&rule["spec"]).unwrap()).unwrap();
    std::fs::copy("deploy/prometheus/rules.test.yaml", dir.path().join("rules.test.yaml")).unwrap();
    let promtool = promtool();
    let check = run(Command::new(&promtool).args(["check", "rules"]).arg(dir.path().join("rules.yaml")));
    // Every alert of deploy/'s rule file, which the chart ships as its copy.
    let rules = std::fs::read_to_string("deploy/prometheus/rules.yaml").unwrap();
    let found = format!("SUCCESS: {} rules found", rules.matches("- alert:").count());
    assert!(check.contains(&found), "{check}");
    let test = run(Command::new(&promtool).args(["test", "rules"]).arg(dir.path().join("rules.test.yaml")));
    assert!(test.contains("SUCCESS"), "{test}");
}

/// Each part turns off by itself, and everything off renders nothing.
#[test]
fn every_part_of_the_chart_turns_off() {
    let all = kinds(&template(&[]));
    let expected = [
        "ClusterRole",
        "ClusterRoleBinding",
        "ConfigMap",
        "Deployment",
        "NetworkPolicy",
        "PrometheusRule",
        "Role",
        "RoleBinding",
        "Service",
        "ServiceAccount",
        "ServiceMonitor",
    ];
    assert_eq!(all, expected);
    let cases: [(&str, &[&str]); 7] = [
        ("rbac.create=false", &["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"]),
        ("rbac.ciliumConfig.enabled=false", &["Role", "RoleBinding"]),
        ("serviceAccount.create=false", &["ServiceAccount"]),
        ("networkPolicy.enabled=false", &["NetworkPolicy"]),
        ("serviceMonitor.enabled=false", &["ServiceMonitor"]),
        ("prometheusRule.enabled=false", &["PrometheusRule"]),
        ("grafanaDashboard.enabled=false", &["ConfigMap"]),
    ];
    for (set, gone) in cases {
        let left = kinds(&template(&[set]));
        let wanted: Vec<&str> = expected.iter().copied().filter(|k| !gone.contains(k)).collect();
        assert_eq!(left, wanted, "--set {set}");
    }
    // Without the exporter: the reader ClusterRole, the optional Role, the alerts, the dashboard.
    let left = kinds(&template(&["exporter.enabled=false"]));
    assert_eq!(left, ["ClusterRole", "ConfigMap", "PrometheusRule", "Role"]);
    let off = [
        "exporter.enabled=false",
        "rbac.create=false",
        "prometheusRule.enabled=false",
        "grafanaDashboard.enabled=false",
    ];
    assert_eq!(template(&off), Vec::<Value>::new());
}

fn find<'a>(objects: &'a [Value], kind: &str) -> &'a Value {
    objects.iter().find(|o| o["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"))
}

/// The values users set reach the objects: image, serve's flags, port, resources, the selector
/// labels kube-prometheus-stack wants, the namespaces allowed to scrape, the sidecar's label.
#[test]
fn the_charts_values_reach_the_objects() {
    let defaults = template(&[]);
    let container = &find(&defaults, "Deployment")["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(container["image"], format!("kubectl-topo:{}", env!("CARGO_PKG_VERSION")), "appVersion");
    assert_eq!(find(&defaults, "ServiceMonitor")["spec"]["endpoints"][0]["honorLabels"], true);
    let objects = template(&[
        "image.registry=registry.example.com/team",
        "image.tag=9.9.9",
        "exporter.clusterLabel=prod-eu-1",
        "exporter.kubernetesVersion=1.33",
        "exporter.perZoneSeries=all",
        "exporter.namespaces={prod,staging}",
        "exporter.namespacesDenylist={kube-system}",
        "exporter.metricDenylist={hinted_endpoints,^kubectl_topo_objects$}",
        "exporter.port=9555",
        "exporter.resources.limits.memory=1Gi",
        "prometheusSelectorLabels.release=prom",
        "networkPolicy.allowedNamespaces={observability,monitoring}",
        "grafanaDashboard.namespace=grafana",
    ]);
    let pod = &find(&objects, "Deployment")["spec"]["template"]["spec"];
    let container = &pod["containers"][0];
    assert_eq!(container["image"], "registry.example.com/team/kubectl-topo:9.9.9");
    assert_eq!(
        container["args"],
        json!([
            "serve",
            "--listen",
            "0.0.0.0:9555",
            "--cluster-label",
            "prod-eu-1",
            "--k8s-version",
            "1.33",
            "--per-zone-series=all",
            "--namespaces=prod,staging",
            "--namespaces-denylist=kube-system",
            "--metric-denylist=hinted_endpoints,^kubectl_topo_objects$"
        ])
    );
    assert_eq!(container["ports"][0]["containerPort"], 9555);
    assert_eq!(container["resources"]["limits"]["memory"], "1Gi");
    assert_eq!(find(&objects, "Service")["spec"]["ports"][0]["port"], 9555);
    for kind in ["ServiceMonitor", "PrometheusRule"] {
        assert_eq!(find(&objects, kind)["metadata"]["labels"]["release"], "prom", "{kind}");
    }
    let from = &find(&objects, "NetworkPolicy")["spec"]["ingress"][0]["from"];
    let names: Vec<&Value> = from
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"])
        .collect();
    assert_eq!(names, [&json!("observability"), &json!("monitoring")]);
    let dashboard = find(&objects, "ConfigMap");
    assert_eq!(dashboard["metadata"]["namespace"], "grafana");
    assert_eq!(dashboard["metadata"]["labels"]["grafana_dashboard"], "1");
    let digest = format!("sha256:{}", "ab".repeat(32));
    let pinned = template(&[&format!("image.digest={digest}")]);
    let container = &find(&pinned, "Deployment")["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(container["image"], format!("kubectl-topo@{digest}"));
    // Another release name prefixes every object and still binds the exporter's own account.
    let mut helm = Command::new(tool("helm"));
    helm.args(["template", "topo", CHART, "--namespace", "ops"]);
    let other = self::objects(&run(&mut helm));
    let binding = find(&other, "ClusterRoleBinding");
    assert_eq!(binding["roleRef"]["name"], find(&other, "ClusterRole")["metadata"]["name"]);
    assert_eq!(
        binding["subjects"][0],
        json!({"kind": "ServiceAccount", "name": "topo-kubectl-topo-exporter", "namespace": "ops"})
    );
}

/// HTTPS and the token check as chart values: the Secret mounted and named in serve's flags, the
/// probes and the ServiceMonitor in HTTPS, Prometheus's token sent, the exporter bound to
/// system:auth-delegator; the token check without TLS is refused at install.
#[test]
fn tls_and_token_review_reach_the_exporter_its_probes_its_rbac_and_the_service_monitor() {
    let objects = template(&["exporter.tls.secretName=topo-tls", "exporter.auth=tokenreview"]);
    let pod = &find(&objects, "Deployment")["spec"]["template"]["spec"];
    let container = &pod["containers"][0];
    let args: Vec<&str> = container["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    for arg in [
        "--tls-cert-file=/etc/kubectl-topo/tls/tls.crt",
        "--tls-private-key-file=/etc/kubectl-topo/tls/tls.key",
        "--auth=tokenreview",
    ] {
        assert!(args.contains(&arg), "{arg} in {args:?}");
    }
    assert_eq!(pod["volumes"][0]["secret"]["secretName"], "topo-tls");
    assert_eq!(container["volumeMounts"][0]["mountPath"], "/etc/kubectl-topo/tls");
    for probe in ["readinessProbe", "livenessProbe"] {
        assert_eq!(container[probe]["httpGet"]["scheme"], "HTTPS", "{probe}");
    }
    let endpoint = &find(&objects, "ServiceMonitor")["spec"]["endpoints"][0];
    assert_eq!(endpoint["scheme"], "https");
    assert_eq!(endpoint["tlsConfig"]["serverName"], "kubectl-topo-exporter.kubectl-topo.svc");
    assert_eq!(endpoint["bearerTokenFile"], "/var/run/secrets/kubernetes.io/serviceaccount/token");
    let delegator = objects
        .iter()
        .find(|o| o["kind"] == "ClusterRoleBinding" && o["roleRef"]["name"] == "system:auth-delegator")
        .expect("the exporter bound to system:auth-delegator");
    assert_eq!(delegator["subjects"][0]["name"], "kubectl-topo-exporter");
    // Defaults: none of it.
    let defaults = template(&[]);
    assert!(!defaults.iter().any(|o| o["roleRef"]["name"] == "system:auth-delegator"));
    let mut helm = Command::new(tool("helm"));
    helm.args(["template", "kubectl-topo", CHART, "--set", "exporter.auth=tokenreview"]);
    let refused = helm.output().unwrap();
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && text.contains("exporter.tls.secretName"), "{text}");
}

/// `kustomize edit set image` (what the README tells) changes the image `kubectl apply -k deploy/`
/// runs, and nothing else of the Deployment.
#[test]
fn kustomize_edit_set_image_sets_the_exporters_image() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("deploy");
    run(Command::new("cp").arg("-r").arg("deploy").arg(&copy));
    let before = kustomize_build(&copy);
    run(Command::new(tool("kustomize")).current_dir(&copy).args([
        "edit",
        "set",
        "image",
        "kubectl-topo=registry.example.com/team/kubectl-topo:9.9.9",
    ]));
    let after = kustomize_build(&copy);
    let image = |objects: &[Value]| {
        find(objects, "Deployment")["spec"]["template"]["spec"]["containers"][0]["image"].clone()
    };
    assert_eq!(image(&before), format!("kubectl-topo:{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(image(&after), "registry.example.com/team/kubectl-topo:9.9.9");
    let strip = |mut objects: Vec<Value>| {
        for o in &mut objects {
            if o["kind"] == "Deployment" {
                o["spec"]["template"]["spec"]["containers"][0]["image"] = Value::Null;
            }
        }
        objects
    };
    assert_eq!(strip(before), strip(after));
}
