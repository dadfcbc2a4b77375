//! `simulate` replayed on the real control plane (issue 6): for each change, `simulate` runs on
//! the live cluster first, then the same change is applied for real and the controller must end
//! where `simulate` said — or not move at all when `simulate` said the Service is not synced
//! (k/k #123401: a node change alone does not requeue a Service without cached hints).
//!
//! * W3: 4 equal zones with one endpoint each, then zone d's node is deleted (requeued → a:1 b:1 c:1);
//! * W2: 3 equal zones scaled 3 → 4 (Blocked, OverloadThreshold, every hint removed);
//! * the trap: 2 endpoints in 3 zones (Blocked, nothing cached), then zone c is removed: hints
//!   would be allowed, but the controller does not move until the Service itself changes.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::cluster::{Cluster, SliceState, node};
use crate::topo::Topo;

const NS: &str = "replay";
const AUTO: &str = "service.kubernetes.io/topology-mode";
const WAIT: Duration = Duration::from_secs(60);

/// What `simulate` predicts for the IPv4 family.
#[derive(Debug)]
struct Prediction {
    synced: bool,
    notes: Vec<String>,
    verdict: String,
    reasons: Vec<String>,
    /// Endpoints hinted per zone after the change (zones with none left out).
    hinted: BTreeMap<String, usize>,
    /// What the next sync of the changed cluster writes (`expectedHinted` of `after`).
    next_sync: BTreeMap<String, usize>,
    report: Value,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(String::from)).collect()
}

fn nonzero(rows: &Value, field: impl Fn(&Value) -> Option<i64>) -> BTreeMap<String, usize> {
    rows.as_array()
        .into_iter()
        .flatten()
        .filter_map(|z| Some((z["zone"].as_str()?.to_string(), field(z)?)))
        .filter(|(_, n)| *n > 0)
        .map(|(z, n)| (z, n as usize))
        .collect()
}

fn simulate(topo: &Topo, svc: &str, change: &[&str]) -> Prediction {
    let target = format!("svc/{svc}");
    let mut args = vec!["simulate", target.as_str(), "-n", NS];
    args.extend_from_slice(change);
    let report = topo.json(&args);
    let family = &report["summary"][0];
    let after_family = &report["after"]["families"][0];
    Prediction {
        synced: report["sync"]["synced"].as_bool().expect("sync.synced"),
        notes: strings(&report["sync"]["notes"]),
        verdict: family["verdict"]["after"].as_str().unwrap_or("-").to_string(),
        reasons: strings(&family["reasons"]["after"]),
        hinted: nonzero(&family["zones"], |z| z["hinted"]["after"].as_i64()),
        next_sync: nonzero(&after_family["zones"], |z| z["expectedHinted"].as_i64()),
        report,
    }
}

/// `explain`'s IPv4 verdict of the live Service.
fn live_verdict(topo: &Topo, svc: &str) -> String {
    let report = topo.json(&["explain", &format!("svc/{svc}"), "-n", NS]);
    report["families"][0]["verdict"].as_str().unwrap_or("-").to_string()
}

async fn service(cl: &Cluster, name: &str, nodes: &[&str]) -> SliceState {
    for (i, n) in nodes.iter().enumerate() {
        cl.create_pod(NS, &format!("{name}-{i}"), name, n).await;
    }
    cl.create_service(NS, name, json!({AUTO: "Auto"}), None).await;
    let n = nodes.len();
    cl.wait_slices(NS, name, "all endpoints", WAIT, |s| s.endpoints == n).await;
    cl.settle(NS, name, Duration::from_secs(2)).await
}

pub async fn run(cl: &Cluster, topo: Option<&Topo>) {
    let Some(topo) = topo else { return };
    let four = ["a1", "b1", "c1", "d1"].map(|n| node(n, Some(&format!("zone-{}", &n[..1])), "4"));
    cl.set_nodes(&four).await;
    cl.namespace(NS).await;
    w3_zone_removed(cl, topo).await;
    w2_scaled_to_four(cl, topo).await;
    trap_not_requeued(cl, topo).await;
}

async fn w3_zone_removed(cl: &Cluster, topo: &Topo) {
    let before = service(cl, "w3", &["a1", "b1", "c1", "d1"]).await;
    assert_eq!(before.hinted, 4, "W3 before: one hint per zone: {before:#?}");
    let p = simulate(topo, "w3", &["--remove-zone", "zone-d"]);
    assert!(p.synced && p.notes.iter().any(|n| n == "Requeued"), "W3: {p:#?}");
    cl.set_nodes(&["a1", "b1", "c1"].map(|n| node(n, Some(&format!("zone-{}", &n[..1])), "4"))).await;
    let want = p.hinted.clone();
    cl.wait_slices(NS, "w3", "what simulate said", WAIT, |s| s.hinted_per_zone == want && s.endpoints == 3)
        .await;
    let s = cl.settle(NS, "w3", Duration::from_secs(2)).await;
    assert_eq!(s.hinted_per_zone, p.hinted, "W3 controller vs simulate {:#}", p.report);
    assert_eq!(live_verdict(topo, "w3"), p.verdict, "W3 verdict");
    println!(
        "e2e: replay W3 (--remove-zone zone-d): simulate {} {:?}, controller {:?}",
        p.verdict, p.hinted, s.hinted_per_zone
    );
}

async fn w2_scaled_to_four(cl: &Cluster, topo: &Topo) {
    let before = service(cl, "w2", &["a1", "b1", "c1"]).await;
    assert_eq!(before.hinted, 3, "W2 before: {before:#?}");
    let p = simulate(topo, "w2", &["--replicas", "4"]);
    assert!(p.synced, "W2: {p:#?}");
    assert!(p.reasons.iter().any(|r| r == "OverloadThreshold"), "W2: {p:#?}");
    cl.create_pod(NS, "w2-3", "w2", "a1").await;
    cl.wait_slices(NS, "w2", "4 endpoints, no hints", WAIT, |s| s.endpoints == 4 && s.hinted == 0).await;
    let s = cl.settle(NS, "w2", Duration::from_secs(2)).await;
    assert_eq!(s.hinted_per_zone, p.hinted, "W2 controller vs simulate {:#}", p.report);
    assert_eq!(live_verdict(topo, "w2"), p.verdict, "W2 verdict");
    println!(
        "e2e: replay W2 (--replicas 4): simulate {} {:?}, controller {:?}",
        p.verdict, p.reasons, s.hinted_per_zone
    );
}

async fn trap_not_requeued(cl: &Cluster, topo: &Topo) {
    let before = service(cl, "trap", &["a1", "b1"]).await;
    assert_eq!(before.hinted, 0, "2 endpoints in 3 zones: no hints: {before:#?}");
    let p = simulate(topo, "trap", &["--remove-zone", "zone-c"]);
    assert!(!p.synced, "the trap: simulate must say the Service is not synced: {p:#?}");
    assert!(p.notes.iter().any(|n| n == "NotRequeuedNoCache"), "{p:#?}");
    assert_eq!(p.next_sync, BTreeMap::from([("zone-a".into(), 1), ("zone-b".into(), 1)]), "{p:#?}");
    cl.set_nodes(&["a1", "b1"].map(|n| node(n, Some(&format!("zone-{}", &n[..1])), "4"))).await;
    // The controller does not move: no hints after the node change has been processed...
    let s = cl.settle(NS, "trap", Duration::from_secs(3)).await;
    assert_eq!(s.hinted, 0, "the trap: the controller moved without a Service change: {s:#?}");
    // ...until the Service itself changes: then it writes what simulate's next sync said.
    cl.patch_service(NS, "trap", json!({"metadata": {"labels": {"touched": "yes"}}})).await;
    let want = p.next_sync.clone();
    let s =
        cl.wait_slices(NS, "trap", "hints after a Service update", WAIT, |s| s.hinted_per_zone == want).await;
    println!(
        "e2e: replay #123401 trap (--remove-zone zone-c): simulate synced=false, controller unmoved, then {:?} after a Service update",
        s.hinted_per_zone
    );
}
