//! What the fault tier compares after each fault: the exporter's `/metrics` against a fresh
//! `check -A` of the same apiserver, as a whole (every Service's verdict series), its staleness
//! and its relists.

use std::collections::BTreeSet;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::monitoring::{WAIT, get};
use crate::topo::Topo;

/// Seconds since the last sync, and the scrape.
pub fn staleness(port: u16) -> (f64, String) {
    let (status, text) = get(port, "/metrics").expect("serve answers /metrics");
    assert_eq!(status, 200);
    let last: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("kubectl_topo_last_sync_timestamp_seconds "))
        .and_then(|v| v.trim().parse().ok())
        .expect("last_sync");
    (SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64() - last, text)
}

/// The labels of a sample line `name{k="v",…} value` (values without quotes or backslashes,
/// as Kubernetes names, address types, verdicts and reason codes are).
fn labels(line: &str) -> Vec<(&str, &str)> {
    let inside = line.split_once('{').and_then(|(_, rest)| rest.rsplit_once('}')).map_or("", |(l, _)| l);
    inside
        .split("\",")
        .filter_map(|pair| pair.split_once("=\""))
        .map(|(k, v)| (k, v.trim_end_matches('"')))
        .collect()
}

/// One verdict series as `ns/name family verdict reason`.
fn series(ns: &str, name: &str, family: &str, verdict: &str, reason: &str) -> String {
    format!("{ns}/{name} {family} {verdict} {reason}")
}

/// Every `kubectl_topo_service_verdict` series set to 1 in a scrape.
pub fn exported(text: &str) -> BTreeSet<String> {
    let lines = text.lines().filter(|l| l.starts_with("kubectl_topo_service_verdict{") && l.ends_with(" 1"));
    lines
        .map(|line| {
            let labels = labels(line);
            let label = |k: &str| labels.iter().find(|(key, _)| *key == k).map_or("", |(_, v)| *v);
            series(
                label("namespace"),
                label("service"),
                label("address_type"),
                label("verdict"),
                label("reason"),
            )
        })
        .collect()
}

/// Every Service family's verdict and first reason in a fresh `check -A --show-all -o json`
/// (serve exports every Service, also those nobody asked hints for, which check hides by default).
pub fn checked(topo: &Topo) -> BTreeSet<String> {
    let run = topo.run(&["check", "-A", "--show-all", "-o", "json", "--fail-on", "none"]);
    assert_eq!(run.code, 0, "{run:?}");
    let report: Value = serde_json::from_str(&run.stdout).expect("check JSON");
    let mut all = BTreeSet::new();
    for s in report["services"].as_array().expect("services") {
        let (ns, name) =
            (s["service"]["namespace"].as_str().unwrap(), s["service"]["name"].as_str().unwrap());
        for f in s["families"].as_array().expect("families") {
            let reason = f["reasons"][0]["code"].as_str().unwrap_or("");
            let (family, verdict) = (f["addressType"].as_str().unwrap(), f["verdict"].as_str().unwrap());
            all.insert(series(ns, name, family, verdict, reason));
        }
    }
    all
}

/// Until `/metrics` exports exactly the verdict series a fresh `check -A` computes (the cluster
/// may still move: the controller rewrites slices after a restart); the seconds it took.
pub async fn until_equal_to_check(port: u16, topo: &Topo, what: &str) -> f64 {
    let start = Instant::now();
    loop {
        let before = exported(&staleness(port).1);
        let check = checked(topo);
        let after = exported(&staleness(port).1);
        if before == check && after == check {
            println!(
                "e2e: serve_faults: {what}: /metrics = check -A ({} verdict series) after {:.2}s",
                check.len(),
                start.elapsed().as_secs_f64()
            );
            return start.elapsed().as_secs_f64();
        }
        assert!(
            start.elapsed() < WAIT,
            "{what}: /metrics never equalled check -A\nonly exported: {:#?}\nonly checked: {:#?}",
            after.difference(&check).collect::<Vec<_>>(),
            check.difference(&after).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// `kubectl_topo_watch_restarts_total` (relists after 410 Gone) of nodes, services, endpointslices.
pub fn relists(text: &str) -> [u64; 3] {
    ["nodes", "services", "endpointslices"].map(|r| {
        let prefix = format!("kubectl_topo_watch_restarts_total{{resource=\"{r}\"}} ");
        text.lines().find_map(|l| l.strip_prefix(&prefix)).and_then(|v| v.trim().parse().ok()).unwrap_or(0)
    })
}

/// Names of the Services with any series in a scrape.
pub fn services_exported(text: &str) -> BTreeSet<String> {
    let lines = text.lines().filter(|l| l.starts_with("kubectl_topo_"));
    lines
        .flat_map(|l| {
            let labels = labels(l);
            let label = |k: &str| labels.iter().find(|(key, _)| *key == k).map(|(_, v)| v.to_string());
            label("namespace").zip(label("service")).map(|(ns, s)| format!("{ns}/{s}"))
        })
        .collect()
}
