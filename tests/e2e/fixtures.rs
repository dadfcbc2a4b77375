//! Starting points several groups build for themselves (each in its own namespace) instead of
//! relying on what an earlier group left behind.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::cluster::{Cluster, NodeSpec, SliceState, node};

pub const AUTO: &str = "service.kubernetes.io/topology-mode";
const WAIT: Duration = Duration::from_secs(30);

/// Three equal zones: a1, b1, c1 with 4 CPUs each.
pub fn zones3() -> Vec<NodeSpec> {
    vec![node("a1", Some("zone-a"), "4"), node("b1", Some("zone-b"), "4"), node("c1", Some("zone-c"), "4")]
}

/// Pods `<name>-<i>` of app `name` on `nodes`.
pub async fn pods(cl: &Cluster, ns: &str, name: &str, nodes: &[&str]) {
    for (i, n) in nodes.iter().enumerate() {
        cl.create_pod(ns, &format!("{name}-{i}"), name, n).await;
    }
}

/// The EKS demo in namespace `ns`: the Nodes of [`zones3`], Service `web` (topology-mode Auto)
/// with one endpoint per zone, once the controller hinted each its own zone and recorded its
/// `TopologyAwareHintsEnabled` Event.
pub async fn auto_web(cl: &Cluster, ns: &str) -> SliceState {
    cl.set_nodes(&zones3()).await;
    cl.namespace(ns).await;
    pods(cl, ns, "web", &["a1", "b1", "c1"]).await;
    cl.create_service(ns, "web", json!({AUTO: "Auto"}), None).await;
    let own_zone = |s: &SliceState| {
        s.endpoints == 3
            && s.hinted == 3
            && s.rows.iter().all(|r| r.2.as_deref() == r.1.as_ref().map(std::slice::from_ref))
    };
    cl.wait_slices(ns, "web", "one endpoint per zone, hinted its own zone", WAIT, own_zone).await;
    let start = Instant::now();
    while cl.service_events(ns, "web").await.is_empty() {
        assert!(start.elapsed() < WAIT, "{ns}/web: no Event from the controller after {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    cl.settle(ns, "web", Duration::from_secs(2)).await
}

/// Service `name` in `ns` with trafficDistribution PreferSameZone and one endpoint per zone of
/// [`zones3`] (whose Nodes must be in place), once hinted.
pub async fn same_zone(cl: &Cluster, ns: &str, name: &str) -> SliceState {
    pods(cl, ns, name, &["a1", "b1", "c1"]).await;
    cl.create_service(ns, name, json!({}), Some("PreferSameZone")).await;
    cl.wait_slices(ns, name, "3 endpoints hinted", WAIT, |s| s.endpoints == 3 && s.hinted == 3).await;
    cl.settle(ns, name, Duration::from_secs(2)).await
}
