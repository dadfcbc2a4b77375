//! `simulate --apply` through the binary (docs/apply.md): rendered manifests over the bundled
//! demo dump, before → after per Service, the certificate after the change, the CI formats and the
//! gate's exit code; bad manifests as one error line. Counts that hold are checked against the
//! engine's own predicate (`analyze::hints_hold`), which the replicas property test holds to the port.

use std::collections::BTreeMap;

use kubectl_topo::source::dump::parse_dump;
use serde_json::Value;
use topo_engine::core::analyze::hints_hold;
use topo_engine::core::zones::set_nodes;

use crate::support::{json, path, read, topo};

const DEMO: &str = "examples/demo-cluster.yaml";
const ELEVEN: &str = "tests/fixtures/apply/demo-11-replicas.yaml";
const SIX: &str = "tests/fixtures/apply/demo-6-replicas.yaml";

/// Whether a fresh sync on the demo cluster's Nodes writes hints for `n` zoned endpoints.
fn holds(n: i64) -> bool {
    let snapshot = parse_dump(&read(&path(DEMO)), "test").expect("dump parses").snapshot;
    let topology = set_nodes(&snapshot.nodes);
    let weights: BTreeMap<String, i64> = topology.counted_zones().map(|(z, _)| (z.clone(), 1)).collect();
    hints_hold(&topology.ratios, &weights, n)
}

fn apply(manifests: &[&str], extra: &[&str], code: i32) -> Value {
    let mut args = vec!["simulate", "-n", "demo", "-f", DEMO];
    for m in manifests {
        args.extend(["--apply", m]);
    }
    args.extend(extra);
    json(&args, code)
}

fn the_service<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let services = doc["services"].as_array().expect("services");
    services.iter().find(|s| s["service"]["name"] == name).unwrap_or_else(|| panic!("{name} in {doc}"))
}

fn sum_after(zones: &Value, key: &str) -> i64 {
    zones.as_array().unwrap().iter().map(|z| z[key]["after"].as_i64().unwrap()).sum()
}

#[test]
fn eleven_replicas_with_max_skew_one_fail_the_gate_k8s_122437() {
    assert!(holds(3) && !holds(11) && holds(6), "the demo's zones: 3 and 6 hold, 11 does not");
    let doc = apply(&[ELEVEN], &[], 1);
    assert_eq!(doc["kind"], "ApplyReport");
    assert_eq!(doc["objects"][0]["kind"], "Deployment");
    assert_eq!(doc["objects"][0]["namespace"], "demo", "a manifest without namespace is in -n's");
    let [web] = doc["services"].as_array().unwrap().as_slice() else { panic!("one Service: {doc}") };
    assert_eq!(web["service"]["name"], "demo-service");
    assert_eq!(web["causes"], serde_json::json!(["Workloads"]));
    let family = &web["simulation"]["summary"][0];
    assert_eq!(family["verdict"]["before"], "Active");
    assert_eq!(family["verdict"]["after"], "Blocked");
    assert_eq!(sum_after(&family["zones"], "ready"), 11);
    assert_eq!(sum_after(&family["zones"], "hinted"), 0, "hints removed");
    let certificate = &web["certificate"];
    assert_eq!((certificate["min"].as_i64(), certificate["max"].as_i64()), (Some(11), Some(11)));
    assert_eq!(certificate["spread"]["maxSkew"], 1);
    let eleven = &certificate["exceptions"][0];
    assert_eq!((eleven["count"].as_i64(), eleven["allowed"].as_i64()), (Some(11), Some(3)), "4/4/3, 3 ways");
}

#[test]
fn a_change_that_keeps_the_hints_passes_and_a_range_is_certified() {
    let doc = apply(&[SIX], &[], 0);
    let web = the_service(&doc, "demo-service");
    assert_eq!(web["simulation"]["summary"][0]["verdict"]["after"], "Active");
    assert_eq!(sum_after(&web["simulation"]["summary"][0]["zones"], "ready"), 6);
    // The directory: the Deployment leaves replicas to its autoscaler (3–12), the ConfigMap is a note.
    let out = topo()
        .args([
            "simulate",
            "-n",
            "demo",
            "-f",
            DEMO,
            "--apply",
            "tests/fixtures/apply/rendered",
            "-o",
            "json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("rendered/configmap.yaml: nothing to apply (found v1 ConfigMap: 1)"), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let web = the_service(&doc, "demo-service");
    assert_eq!(web["workloads"][0]["autoscaler"]["min"], 3);
    assert_eq!(web["workloads"][0]["replicas"]["after"], 3, "no replicas: the API server's 1, raised to 3");
    let certificate = &web["certificate"];
    for n in 3..=12 {
        let exception = certificate["exceptions"].as_array().unwrap().iter().find(|e| e["count"] == n);
        assert_eq!(exception.is_none(), holds(n), "count {n}");
    }
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn an_autoscaler_over_counts_that_fail_is_fragile_not_blocked() {
    let run = |fail_on: &str| {
        let args = ["simulate", "-n", "w", "-f", "tests/fixtures/w13-stable-imbalance.yaml"];
        let out = topo()
            .args(args)
            .args(["--apply", "tests/fixtures/apply/w13-autoscaler.yaml", "--fail-on", fail_on, "-o", "json"])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), doc)
    };
    let (code, doc) = run("blocked");
    assert_eq!(code, Some(0));
    let svc = the_service(&doc, "svc");
    let family = &svc["simulation"]["summary"][0];
    assert_eq!(
        (family["verdict"]["before"].as_str(), family["verdict"]["after"].as_str()),
        (Some("Active"), Some("Active"))
    );
    assert_eq!(
        svc["simulation"]["before"]["families"][0]["stability"]["fragile"], false,
        "not fragile today"
    );
    let exceptions: Vec<i64> = svc["certificate"]["exceptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_i64().unwrap())
        .collect();
    assert!(!exceptions.is_empty(), "{doc}");
    assert!(exceptions.iter().all(|n| !holds(*n)), "{exceptions:?}");
    assert_eq!(run("fragile").0, Some(1), "the autoscaler may pick a count where hints do not hold");
}

#[test]
fn a_service_switched_to_prefer_close_and_a_node_pool_change() {
    let doc = apply(&["tests/fixtures/apply/demo-service-4-prefer-close.yaml"], &[], 0);
    let svc = the_service(&doc, "demo-service-4");
    assert_eq!((svc["change"].as_str(), svc["causes"][0].as_str()), (Some("Replaced"), Some("Service")));
    let family = &svc["simulation"]["summary"][0];
    assert_eq!(family["verdict"]["before"], "Blocked");
    assert_eq!(family["verdict"]["after"], "Active");
    assert!(svc.get("certificate").is_none(), "not Auto after the change: no certificate");
    // A fourth zone: three endpoints no longer cover four zones, demo-service's hints go.
    let doc = apply(&["tests/fixtures/apply/node-pool-zone-d.yaml"], &[], 1);
    assert_eq!(doc["objects"][0]["change"], "Added");
    for s in doc["services"].as_array().unwrap() {
        assert_eq!(s["causes"], serde_json::json!(["Nodes"]), "{s}");
    }
    let web = the_service(&doc, "demo-service");
    let verdict = &web["simulation"]["summary"][0]["verdict"];
    assert_eq!((verdict["before"].as_str(), verdict["after"].as_str()), (Some("Active"), Some("Blocked")));
    let zones = web["certificate"]["zones"].as_array().unwrap();
    assert_eq!(zones.len(), 4, "the fourth zone counts after the change");
}

#[test]
fn the_ci_formats_say_the_same_and_stdin_reads_the_chart() {
    let run = |format: &str| {
        let out = topo()
            .args(["simulate", "-n", "demo", "-f", DEMO, "--apply", "-", "-o", format])
            .write_stdin(read(&path(ELEVEN)))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let markdown = run("markdown");
    assert!(markdown.contains("| **fail** | demo/demo-service | IPv4 | Active → Blocked |"), "{markdown}");
    assert!(markdown.contains("they do not at 11 (any placement)"), "{markdown}");
    let junit = run("junit");
    assert!(junit.contains(r#"tests="1" failures="1""#), "{junit}");
    assert!(junit.contains("<failure message=\"IPv4 Active → Blocked\" type=\"blocked\">"), "{junit}");
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty() && results.iter().all(|r| r["level"] == "error"), "{sarif}");
    let table = run("table");
    assert!(table.contains("FAIL: the change brings it to --fail-on blocked"), "{table}");
    assert!(table.contains("Stability certificate"), "{table}");
}

/// Runs a refused command: exit 2 and exactly one `error:` line, which contains `want`.
fn refused(args: &[&str], want: &str) {
    let out = topo().args(["simulate", "-n", "demo", "-f", DEMO]).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    assert!(errors[0].contains(want), "{args:?}: {stderr}");
    assert!(stderr.contains("hint:"), "{args:?}: {stderr}");
}

#[test]
fn bad_manifests_are_one_error_line() {
    refused(
        &["--apply", "tests/fixtures/apply/invalid.yaml"],
        "--apply tests/fixtures/apply/invalid.yaml:6:",
    );
    refused(&["--apply", "tests/fixtures/apply/other-namespace.yaml"], "Deployment shop/demo-service");
    refused(&["--apply", "tests/fixtures/apply/other-namespace.yaml"], "is not in namespace demo");
    refused(&["--apply", "tests/fixtures/apply/configmap-only.yaml"], "(found v1 ConfigMap: 1)");
    refused(&["--apply", "tests/fixtures/apply/missing.yaml"], "--apply tests/fixtures/apply/missing.yaml:");
    refused(&["--apply", ELEVEN, "--replicas", "3"], "drop --replicas");
    refused(
        &["--apply", "tests/fixtures/apply/node-pool-zone-d.yaml", "-o", "html"],
        "-o html draws one Service",
    );
}
