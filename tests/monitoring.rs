//! `serve`'s monitoring artefacts read by their real consumers: the alert rules by `promtool check
//! rules` and `promtool test rules` (our rule unit tests, deploy/prometheus/rules.test.yaml), the
//! `/metrics` text of the demo cluster by `promtool check metrics`, and the Prometheus Operator's
//! copy of the rules against the plain rule file. promtool comes from Debian's `prometheus`
//! package (tests/monitoring/install.sh, run by scripts/test-all.sh; this test runs it too when
//! promtool is missing).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use kubectl_topo::exporter::format::Format;
use kubectl_topo::exporter::metrics::{Health, openmetrics};
use kubectl_topo::exporter::{Change, Exporter, Object, Resource};
use kubectl_topo::settings::{DumpPath, Scope, SourceSpec};
use kubectl_topo::source::{self, Request};
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
    assert!(run(check, None).contains("SUCCESS: 6 rules found"));
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
fn demo_state() -> Exporter {
    let spec = SourceSpec::Dump(DumpPath::File(Path::new("examples/demo-cluster.yaml").into()));
    let request = Request { scope: &Scope::AllNamespaces, service: None, nodes_only: false };
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
    let state = demo_state();
    let health = Health::default();
    health.recompute_seconds.observe(0.002);
    let text = Format::PrometheusText.body(openmetrics(&state, &health, Some("demo")));
    let mut check = promtool();
    check.args(["check", "metrics"]);
    run(check, Some(&text));
    let blocked = "kubectl_topo_service_verdict{cluster=\"demo\",namespace=\"demo\",service=\"demo-service-4\",\
                   address_type=\"IPv4\",verdict=\"Blocked\",reason=\"OverloadThreshold\",mode=\"Auto\"} 1";
    assert!(text.contains(blocked), "{text}");
    for name in
        ["hinted_endpoints", "expected_hinted_endpoints", "cross_zone_ratio", "zone_cpu_ratio", "hints_stale"]
    {
        assert!(text.contains(&format!("# TYPE kubectl_topo_{name} gauge")), "{name}:\n{text}");
    }
}

#[test]
fn no_series_is_labelled_per_endpoint_or_per_node() {
    let text = openmetrics(&demo_state(), &Health::default(), None);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let labels = line.split_once('{').map_or("", |(_, rest)| rest);
        for forbidden in ["node=", "pod=", "address=", "endpoint=", "slice="] {
            assert!(!labels.contains(forbidden), "{line}");
        }
    }
}
