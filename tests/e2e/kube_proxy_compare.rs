//! One comparison: what a real kube-proxy programmed and logged for a Service versus the entry of
//! `explain -o json` → `families[IPv4].proxy[]` for that kube-proxy's node.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::proxy_rules::Routing;

/// `proxy[]` of the report's IPv4 family.
pub fn proxy_view(report: &Value) -> Vec<Value> {
    let families = report["families"].as_array().cloned().unwrap_or_default();
    let family = families
        .iter()
        .find(|f| f["addressType"] == "IPv4")
        .unwrap_or_else(|| panic!("no IPv4 family in {report:#}"));
    family["proxy"].as_array().cloned().unwrap_or_default()
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array().into_iter().flatten().filter_map(|s| s.as_str().map(String::from)).collect()
}

/// Assert that kube-proxy on `node` and our view agree (endpoints, chain kind, drop, topology
/// log lines) and that both reach `expected`; returns a one-line summary.
pub fn check(
    what: &str,
    view: &[Value],
    node: &str,
    routing: &Routing,
    kp_lines: &[String],
    expected: &BTreeSet<String>,
    rules_text: impl Fn() -> String,
) -> String {
    let ours = view
        .iter()
        .find(|z| z["nodes"].as_array().is_some_and(|n| n.iter().any(|n| n == node)))
        .unwrap_or_else(|| panic!("{what}: no proxy[] entry for node {node} in {view:#?}"));
    let context = || {
        format!("{what}\nkube-proxy: {routing:?}\nkube-proxy topology lines: {kp_lines:#?}\nours: {ours:#}")
    };
    let ips = routing.ips();
    if ips != strings(&ours["endpoints"]) {
        panic!(
            "{what}: kube-proxy and kubectl-topo disagree on the endpoints\n{}\nrules:\n{}",
            context(),
            rules_text()
        );
    }
    assert_eq!(&ips, expected, "{what}: both differ from what the scenario implies\n{}", context());
    let local = ours["mode"] == "Local";
    match routing {
        Routing::Endpoints { chain, .. } => assert!(
            routing.local_chain() == local,
            "{what}: mode {} but kube-proxy jumps to {chain}\n{}",
            ours["mode"],
            context()
        ),
        Routing::Filtered { target, .. } => {
            let want = if local { "DROP" } else { "REJECT" };
            assert_eq!(target, want, "{what}: unexpected filter verdict\n{}", context());
        }
        Routing::Absent => {
            panic!(
                "{what}: kube-proxy has no rule for the ClusterIP\n{}\nrules:\n{}",
                context(),
                rules_text()
            )
        }
    }
    let our_lines: Vec<String> =
        ours["logLine"].as_str().map(|l| l.lines().map(String::from).collect()).unwrap_or_default();
    assert_eq!(
        kp_lines,
        our_lines.as_slice(),
        "{what}: kube-proxy's topology log lines vs logLine\n{}",
        context()
    );
    let reason = ours["reason"]["code"].as_str().unwrap_or("-");
    let shown: Vec<&str> = ips.iter().map(String::as_str).collect();
    format!(
        "{what}: {} endpoint(s) [{}], mode {}, reason {reason}, {} log line(s) matched",
        ips.len(),
        shown.join(" "),
        ours["mode"].as_str().unwrap_or("?"),
        kp_lines.len()
    )
}
