//! `simulate --apply -` on a chart rendered by the real `helm template` (built by
//! tests/helm/build-helm.sh, as the chart tests build it): tests/fixtures/apply/chart over
//! examples/demo-cluster.yaml. Its default values are kubernetes/kubernetes#122437's shape (11
//! replicas, maxSkew 1 over three equal zones): the gate fails; 6 replicas pass; with its
//! autoscaler (3–12) the certificate names the counts where hints would not hold.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::chart::tool;
use crate::support::topo_std;

const CHART: &str = "tests/fixtures/apply/chart";

/// `helm template demo CHART -n demo --set …` piped into `simulate --apply -`; exit code and JSON.
fn judged(sets: &[&str], fail_on: &str) -> (i32, Value) {
    let mut helm = Command::new(tool("helm"));
    helm.args(["template", "demo", CHART, "--namespace", "demo"]);
    for set in sets {
        helm.args(["--set", set]);
    }
    let rendered = helm.output().expect("helm runs");
    assert!(rendered.status.success(), "{}", String::from_utf8_lossy(&rendered.stderr));
    let mut topo = topo_std()
        .args(["simulate", "--apply", "-", "-n", "demo", "-f", "examples/demo-cluster.yaml"])
        .args(["--fail-on", fail_on, "-o", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl-topo runs");
    topo.stdin.take().unwrap().write_all(&rendered.stdout).unwrap();
    let out = topo.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("skipped 1 object(s) of kinds not applied (v1 ConfigMap: 1)"), "{stderr}");
    (out.status.code().unwrap_or(-1), serde_json::from_slice(&out.stdout).expect("JSON"))
}

fn service(doc: &Value) -> &Value {
    let services = doc["services"].as_array().unwrap();
    services.iter().find(|s| s["service"]["name"] == "demo-service").expect("demo-service")
}

#[test]
fn a_rendered_chart_is_judged_before_it_is_applied() {
    let (code, doc) = judged(&[], "blocked");
    assert_eq!(code, 1, "{doc}");
    let family = &service(&doc)["simulation"]["summary"][0];
    assert_eq!(
        (family["verdict"]["before"].as_str(), family["verdict"]["after"].as_str()),
        (Some("Active"), Some("Blocked"))
    );
    let (code, doc) = judged(&["replicas=6"], "blocked");
    assert_eq!(code, 0, "{doc}");
    assert_eq!(service(&doc)["simulation"]["summary"][0]["verdict"]["after"], "Active");
    // With its autoscaler the Deployment stays at 3 (the API server's 1, raised to minReplicas):
    // hints hold today, and the certificate names the counts of 3–12 where they would not.
    let (code, doc) = judged(&["autoscaling.enabled=true"], "blocked");
    assert_eq!(code, 0, "{doc}");
    let certificate = &service(&doc)["certificate"];
    assert_eq!((certificate["min"].as_i64(), certificate["max"].as_i64()), (Some(3), Some(12)));
    let failing: Vec<i64> =
        certificate["exceptions"].as_array().unwrap().iter().map(|e| e["count"].as_i64().unwrap()).collect();
    assert!(failing.contains(&11) && !failing.contains(&3) && !failing.contains(&6), "{failing:?}");
}
