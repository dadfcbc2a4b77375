//! A dump made without `list nodes` (ClusterInfo `nodesUnavailable: true`, as `dump` writes it for
//! a user missing that permission): what still has an answer gets it, Auto Services get the verdict
//! Unknown, and exit code 3 only when nothing could be answered.

use crate::support::{demo, read, topo};

const NODES: [&str; 3] =
    ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-41.ec2.internal", "ip-10-0-3-17.ec2.internal"];

/// The demo dump without its Nodes, recorded as forbidden.
fn without_nodes() -> String {
    let mut text = read(&demo());
    for n in NODES {
        text = crate::support::dump::without_item(&text, "Node", n);
    }
    let info = "- apiVersion: kubectl-topo/v1alpha1\n  kind: ClusterInfo\n  nodesUnavailable: true\n  \
                partial: [\"Nodes not read (forbidden to list nodes at cluster scope)\"]\n";
    text.replacen("items:\n", &format!("items:\n{info}"), 1)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = topo().args(args).args(["-f", "-"]).write_stdin(without_nodes()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn check_answers_what_does_not_need_nodes_and_marks_auto_unknown() {
    let (code, stdout, stderr) = run(&["check", "-A", "-o", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let verdict = |name: &str| {
        let row = v["services"].as_array().unwrap().iter().find(|r| r["service"]["name"] == name).unwrap();
        row["families"][0]["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict("demo-service"), "Unknown");
    assert_eq!(verdict("demo-service-4"), "Unknown");
    assert_eq!(verdict("demo-same-node"), "Active");
    assert_eq!(v["summary"]["verdicts"]["Unknown"], 2);
    assert_eq!(v["partial"][0], "Nodes not read (forbidden to list nodes at cluster scope)");
}

#[test]
fn explain_of_an_auto_service_prints_the_report_and_exits_3() {
    let (code, stdout, stderr) = run(&["explain", "svc/demo-service", "-n", "demo", "-o", "json"]);
    assert_eq!(code, 3, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["families"][0]["verdict"], "Unknown");
    assert_eq!(v["families"][0]["action"], "Unknown");
    assert_eq!(v["families"][0]["reasons"][0]["code"], "NodesUnknown");
    assert!(
        v["families"][0].get("crossZone").is_none() && v["families"][0]["proxy"] == serde_json::json!([])
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0]
            .starts_with("error: forbidden: cannot list nodes at cluster scope, so zone weights are unknown")
    );
    assert!(lines[1].starts_with("hint: ") && lines[1].contains("kubectl-topo-reader"), "{stderr}");
}

#[test]
fn trafficdistribution_does_not_need_nodes() {
    let (code, stdout, stderr) = run(&["explain", "svc/demo-same-node", "-n", "demo", "-o", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["families"][0]["verdict"], "Active");
}

#[test]
fn zones_and_simulate_need_nodes() {
    for args in [&["zones"][..], &["simulate", "svc/demo-same-node", "-n", "demo", "--replicas", "4"][..]] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with("error: forbidden: cannot list nodes at cluster scope, so "), "{stderr}");
    }
}
