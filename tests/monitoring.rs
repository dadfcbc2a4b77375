//! `serve`'s monitoring artefacts read by their real consumers: the alert rules by `promtool check
//! rules` and `promtool test rules` (our rule unit tests, deploy/prometheus/rules.test.yaml), the
//! `/metrics` text of the demo cluster by `promtool check metrics`, and the Prometheus Operator's
//! copy of the rules against the plain rule file. promtool comes from Debian's `prometheus`
//! package (tests/monitoring/install.sh, run by scripts/test-all.sh; this test runs it too when
//! promtool is missing).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use kubectl_topo::serve::exporter::exposition::Exposition;
use kubectl_topo::serve::exporter::format::Format;
use kubectl_topo::serve::exporter::metrics::Health;
use kubectl_topo::serve::exporter::{Change, Exporter, Object, Resource};
use kubectl_topo::source::{self, DumpPath, Request, Scope, SourceSpec};
use topo_engine::model::Behaviour;

fn promtool() -> Command {
    if Command::new("promtool").arg("--version").output().is_err() {
        let status = Command::new("bash").arg("tests/monitoring/install.sh").status().expect("bash");
        assert!(status.success(), "tests/monitoring/install.sh failed");
    }
    Command::new("promtool")
}

fn run(mut command: Command, stdin: Option<&str>) -> String {
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("promtool runs");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).expect("write stdin");
    }
    drop(input);
    let output = child.wait_with_output().expect("promtool ends");
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{command:?} failed:\n{text}");
    text
}

#[test]
fn alert_rules_pass_promtool_check_and_our_rule_unit_tests() {
    let mut check = promtool();
    check.args(["check", "rules", "deploy/prometheus/rules.yaml"]);
    let rules = std::fs::read_to_string("deploy/prometheus/rules.yaml").unwrap();
    let found = format!("SUCCESS: {} rules found", rules.matches("- alert:").count());
    assert!(run(check, None).contains(&found));
    let mut test = promtool();
    test.args(["test", "rules", "deploy/prometheus/rules.test.yaml"]);
    assert!(run(test, None).contains("SUCCESS"));
}

#[test]
fn the_prometheus_operator_rule_carries_the_same_groups() {
    let read = |path: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(path).expect(path);
        serde_saphyr::from_str(&text).expect(path)
    };
    let plain = read("deploy/prometheus/rules.yaml");
    let operator = read("deploy/prometheus-operator/prometheusrule.yaml");
    assert_eq!(operator["kind"], "PrometheusRule");
    assert_eq!(operator["spec"]["groups"], plain["groups"]);
}

/// The demo cluster loaded into the exporter state, as watches would hand it over.
/// What `serve` answers a scrape of the demo in OpenMetrics, through its own kept text.
fn served_text() -> String {
    let mut state = demo_state();
    let mut exposition = Exposition::new(None);
    exposition.refresh(&mut state);
    exposition.scrape(&state, &Health::default(), Format::OpenMetrics)
}

fn demo_state() -> Exporter {
    let spec = SourceSpec::Dump(DumpPath::File(Path::new("examples/demo-cluster.yaml").into()));
    let request = Request {
        scope: &Scope::AllNamespaces,
        service: None,
        nodes_only: false,
        whole: false,
        workloads: false,
    };
    let snapshot = source::load(&spec, request, &mut Vec::new()).expect("demo dump").snapshot;
    let mut state = Exporter::new(Behaviour::default());
    let nodes = snapshot.nodes.into_iter().map(Object::Node).collect();
    let services = snapshot.services.into_iter().map(Object::Service).collect();
    let slices = snapshot.slices.into_iter().map(Object::Slice).collect();
    state.apply(Change::Listed(Resource::Nodes, nodes));
    state.apply(Change::Listed(Resource::Services, services));
    state.apply(Change::Listed(Resource::EndpointSlices, slices));
    state.recompute(1_700_000_000.0);
    state
}

#[test]
fn metrics_of_the_demo_cluster_pass_promtool_check_metrics() {
    let mut state = demo_state();
    let health = Health::default();
    health.recompute_seconds.observe(0.002);
    // What `serve` answers curl and older scrapers: the kept per-Service text in the text format.
    let mut exposition = Exposition::new(Some("demo"));
    exposition.refresh(&mut state);
    let text = exposition.scrape(&state, &health, Format::PrometheusText);
    let mut check = promtool();
    check.args(["check", "metrics"]);
    run(check, Some(&text));
    let blocked = "kubectl_topo_service_verdict{cluster=\"demo\",namespace=\"demo\",service=\"demo-service-4\",\
                   address_type=\"IPv4\",verdict=\"Blocked\",reason=\"OverloadThreshold\",mode=\"Auto\",ignored=\"false\"} 1";
    assert!(text.contains(blocked), "{text}");
    for name in
        ["hinted_endpoints", "expected_hinted_endpoints", "cross_zone_ratio", "zone_cpu_ratio", "hints_stale"]
    {
        assert!(text.contains(&format!("# TYPE kubectl_topo_{name} gauge")), "{name}:\n{text}");
    }
}

#[test]
fn no_series_is_labelled_per_endpoint_or_per_node() {
    let text = served_text();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let labels = line.split_once('{').map_or("", |(_, rest)| rest);
        for forbidden in ["node=", "pod=", "address=", "endpoint=", "slice="] {
            assert!(!labels.contains(forbidden), "{line}");
        }
    }
}

/// The Dockerfile builds with a real builder (buildah, Debian's package; installed by
/// tests/monitoring/install.sh) from a directory holding only the static musl binary of the
/// release archive (built by scripts/dist.sh, as tests/dist.rs does), without any registry (`FROM
/// scratch`), into a temporary storage root; the image's config runs it as non-root with `serve`
/// as its command. Then the image runs. `podman run` cannot here (crun: `setrlimit RLIMIT_NOFILE` /
/// `RLIMIT_NPROC`: Operation not permitted, in this sandbox), so the test runs what a runtime
/// would: the image's root filesystem (`buildah from` + `buildah mount`) as the only files
/// (`chroot`), no network (`unshare --net`), the image's USER (`chroot --userspec`), its
/// Entrypoint and Cmd.
#[test]
fn the_image_builds_from_the_static_binary_and_runs_as_its_non_root_user() {
    if Command::new("buildah").arg("--version").output().is_err() {
        let status = Command::new("bash").arg("tests/monitoring/install.sh").status().expect("bash");
        assert!(status.success(), "tests/monitoring/install.sh failed");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let context = dir.path().join("context");
    std::fs::create_dir(&context).unwrap();
    std::fs::copy(static_binary(dir.path()), context.join("kubectl-topo")).expect("copy binary");
    let (root, runroot) = (dir.path().join("root"), dir.path().join("runroot"));
    let buildah = |args: &[&str]| {
        let mut command = Command::new("buildah");
        command
            .arg("--root")
            .arg(&root)
            .arg("--runroot")
            .arg(&runroot)
            .arg("--storage-driver=vfs")
            .args(args);
        command
    };
    let dockerfile = std::fs::canonicalize("deploy/Dockerfile").unwrap();
    let mut build = buildah(&["build", "--isolation", "chroot", "-t", "localhost/kubectl-topo:test", "-f"]);
    build.arg(&dockerfile).arg(&context);
    run(build, None);
    let inspect = run(buildah(&["inspect", "localhost/kubectl-topo:test"]), None);
    let inspect: serde_json::Value = serde_json::from_str(inspect.trim()).expect("buildah inspect JSON");
    let config = &inspect["OCIv1"]["config"];
    assert_eq!(config["User"], "65532:65532");
    assert_eq!(config["Entrypoint"], serde_json::json!(["/usr/local/bin/kubectl-topo"]));
    assert_eq!(config["Cmd"], serde_json::json!(["serve"]));
    assert!(config["ExposedPorts"]["10064/tcp"].is_object(), "{config}");
    let container = last_line(&run(buildah(&["from", "localhost/kubectl-topo:test"]), None));
    let rootfs = last_line(&run(buildah(&["mount", &container]), None));
    run_image(Path::new(&rootfs), config);
    let _ = buildah(&["umount", &container]).output();
    // The storage root holds files owned by other uids inside the image: buildah removes it.
    let _ = buildah(&["rm", "--all"]).output();
    let _ = buildah(&["rmi", "--all", "--force"]).output();
}

/// The static linux/amd64 binary of the release archive, as `scripts/dist.sh --profile
/// dist-check` builds it (only that platform; the build is shared with tests/dist.rs through the
/// target directory), unpacked under `dir`.
fn static_binary(dir: &Path) -> std::path::PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join("dist");
    let status = Command::new("bash")
        .arg("scripts/dist.sh")
        .args(["--profile", "dist-check", "--platforms", "linux/amd64", "--out"])
        .arg(&out)
        .env("CARGO_TARGET_DIR", tmp.parent().expect("CARGO_TARGET_TMPDIR is <target>/tmp"))
        .env("KUBECTL_TOPO", env!("CARGO_BIN_EXE_kubectl-topo"))
        .status()
        .expect("bash runs scripts/dist.sh");
    assert!(status.success(), "scripts/dist.sh failed (see its output above)");
    let archive = out.join(format!("kubectl-topo_v{}_linux_amd64.tar.gz", env!("CARGO_PKG_VERSION")));
    let mut untar = Command::new("tar");
    untar.arg("-xzf").arg(&archive).arg("-C").arg(&out);
    run(untar, None);
    out.join("kubectl-topo")
}

fn last_line(text: &str) -> String {
    text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value.as_array().expect("array").iter().map(|v| v.as_str().expect("string").to_string()).collect()
}

/// Run the image at `rootfs` as a runtime would with `config` (its Entrypoint, its USER unless
/// `user` says otherwise), with `args` for its Cmd.
fn in_image(rootfs: &Path, config: &serde_json::Value, user: Option<&str>, args: &[String]) -> Output {
    let user = user.map_or_else(|| config["User"].as_str().expect("User").to_string(), str::to_string);
    Command::new("unshare")
        .arg("--net")
        .arg("chroot")
        .arg(format!("--userspec={user}"))
        .arg(rootfs)
        .args(strings(&config["Entrypoint"]))
        .args(args)
        // Nothing of this machine's environment but PATH (unshare finds chroot with it).
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("unshare and chroot run")
}

fn run_image(rootfs: &Path, config: &serde_json::Value) {
    let files: Vec<String> =
        walk(rootfs).iter().map(|p| p.strip_prefix(rootfs).unwrap().display().to_string()).collect();
    assert_eq!(files, ["usr/local/bin/kubectl-topo"], "the image holds the binary alone");
    let text = |out: &Output| {
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    let version = in_image(rootfs, config, None, &["version".into()]);
    assert!(version.status.success(), "version in the image: {}", text(&version));
    assert!(text(&version).contains(&format!("v{}", env!("CARGO_PKG_VERSION"))), "{}", text(&version));
    let help = in_image(rootfs, config, None, &["serve".into(), "--help".into()]);
    assert!(help.status.success() && text(&help).contains("Usage: kubectl topo serve"), "{}", text(&help));
    // The default command, outside a Pod: one error line and a hint, exit 3 (no cluster).
    let serve = in_image(rootfs, config, None, &strings(&config["Cmd"]));
    let stderr = String::from_utf8_lossy(&serve.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(serve.status.code(), Some(3), "{stderr}");
    assert!(
        lines.len() == 2
            && lines[0].starts_with("error: no kubeconfig found")
            && lines[1].starts_with("hint: "),
        "{stderr}"
    );
    // Non-root: the image's user may not bind a privileged port; root (the control) may.
    let privileged = ["serve".to_string(), "--listen".into(), "127.0.0.1:80".into()];
    let refused = in_image(rootfs, config, None, &privileged);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: cannot listen on 127.0.0.1:80: Permission denied"), "{stderr}");
    let as_root = in_image(rootfs, config, Some("0:0"), &privileged);
    assert!(!String::from_utf8_lossy(&as_root.stderr).contains("cannot listen"), "{}", text(&as_root));
}

/// Every file (not directory) under `dir`, sorted.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files.sort();
    files
}

/// Every `kubectl_topo_…` name in a text (PromQL of the rules and the dashboard).
fn metric_names(text: &str) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    for (at, _) in text.match_indices("kubectl_topo_") {
        let name: String =
            text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        names.insert(name);
    }
    names
}

/// The Grafana dashboard's queries parse as PromQL (promtool checks them as recording rules) and,
/// with the alert rules, name only metrics the exporter serves.
#[test]
fn dashboard_and_rules_query_only_metrics_the_exporter_serves() {
    let text = std::fs::read_to_string("deploy/grafana/kubectl-topo-dashboard.json").unwrap();
    let dashboard: serde_json::Value = serde_json::from_str(&text).expect("dashboard JSON");
    let exprs: Vec<String> = dashboard["panels"]
        .as_array()
        .expect("panels")
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .map(|t| t["expr"].as_str().expect("expr").to_string())
        .collect();
    assert!(exprs.len() >= 10, "{exprs:?}");
    let rules: Vec<serde_json::Value> = exprs
        .iter()
        .enumerate()
        .map(|(i, e)| serde_json::json!({"record": format!("dashboard:query{i}"), "expr": e}))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dashboard-rules.json");
    let groups = serde_json::json!({"groups": [{"name": "dashboard", "rules": rules}]});
    std::fs::write(&file, groups.to_string()).unwrap();
    let mut check = promtool();
    check.arg("check").arg("rules").arg(&file);
    run(check, None);

    let served = served_text();
    let served: std::collections::BTreeSet<String> = served
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(['{', ' ']).next().unwrap_or("").to_string())
        .collect();
    let rules = std::fs::read_to_string("deploy/prometheus/rules.yaml").unwrap();
    for name in metric_names(&text).into_iter().chain(metric_names(&rules)) {
        assert!(served.contains(&name), "{name} is queried but not served; served: {served:?}");
    }
    // The labels grouped by, matched and shown are the exporter's (`topology_zone`, not `zone`),
    // or `cluster` (--cluster-label, or Prometheus's external label).
    let mut labels: std::collections::BTreeSet<String> = served_text()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('{').map(|(_, rest)| rest.split('}').next().unwrap_or("").to_string()))
        .flat_map(|set| {
            set.split(',').filter_map(|p| p.split_once('=')).map(|(k, _)| k.to_string()).collect::<Vec<_>>()
        })
        .collect();
    labels.insert("cluster".into());
    for used in label_names(&text).into_iter().chain(label_names(&rules)) {
        assert!(labels.contains(&used), "label {used} is used but not served; served: {labels:?}");
    }
}

/// The label names in `by (…)`, `on (…)`, `{{ $labels.x }}` and `{{x}}` of PromQL and templates.
fn label_names(text: &str) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    let word =
        |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    for keyword in ["by (", "on ("] {
        for (at, _) in text.match_indices(keyword) {
            // A keyword, not the end of a word ("duration (p99)").
            if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let list = text[at + keyword.len()..].split(')').next().unwrap_or("");
            names.extend(list.split(',').map(|l| word(l.trim())).filter(|l| !l.is_empty()));
        }
    }
    for (at, _) in text.match_indices("$labels.") {
        names.insert(word(&text[at + "$labels.".len()..]));
    }
    for (at, _) in text.match_indices("{{") {
        let inner = text[at + 2..].trim_start();
        if inner.starts_with(|c: char| c.is_ascii_alphabetic()) {
            names.insert(word(inner));
        }
    }
    names.retain(|n| !n.is_empty() && n != "humanizePercentage" && n != "humanizeDuration");
    names
}

/// `serve`'s own input errors: one `error:` line, one `hint:` line, exit code 2, before any cluster
/// is contacted (no kubeconfig here).
#[test]
fn serve_refuses_a_bad_address_a_port_in_use_and_a_dump() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let cases: [(&[&str], &str); 3] = [
        (&["serve", "--listen", ":9464"], "error: --listen \":9464\" is not an address and port"),
        (&["serve", "--listen", &address], &format!("error: cannot listen on {address}: ")),
        (
            &["serve", "-f", "examples/demo-cluster.yaml"],
            "error: serve does not take -f: it follows a live cluster",
        ),
    ];
    for (args, start) in cases {
        let out = crate::support::topo().args(args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert!(lines[0].starts_with(start) && lines[1].starts_with("hint: "), "{args:?}: {stderr}");
    }
}
