//! `kubectl topo serve` while the kube-apiserver is gone (issue 37): killed with SIGKILL and
//! started again, and killed while etcd is compacted past every watch's resourceVersion. While it
//! is down, objects are deleted straight in etcd (as another apiserver of the cluster would), so
//! only a relist can tell the exporter. Each fault lasts until the staleness alert fires in the
//! real Prometheus; after it, every watch must have listed again (`watch_restarts_total` of all
//! three resources grew), `/metrics` must equal a fresh `check -A`, and nothing deleted during
//! the fault may still be exported. The time from the apiserver ready to every watch listed
//! again is printed (issue 37's goal: 5 s).

use std::time::{Duration, Instant};

use serde_json::json;

use crate::cluster::{Cluster, node};
use crate::etcd;
use crate::fault_alerts::{Prometheus, STALE_AFTER};
use crate::fault_state::{relists, services_exported, staleness, until_equal_to_check};
use crate::harness::ControlPlane;
use crate::monitoring::WAIT;
use crate::topo::Topo;

use super::serve_faults::NS;

/// What one outage runs on.
pub struct Outage<'a> {
    pub cp: &'a ControlPlane,
    pub cl: &'a Cluster,
    pub topo: &'a Topo,
    pub port: u16,
    pub prometheus: &'a Prometheus,
    pub exporter: &'a crate::monitoring::Running,
}

impl Outage<'_> {
    /// Service `name` (topology-mode Auto, no endpoints) created and exported.
    async fn doomed(&self, name: &str) {
        self.cl.create_service(NS, name, json!({crate::fixtures::AUTO: "Auto"}), None).await;
        until_equal_to_check(self.port, self.topo, &format!("{name} created")).await;
        let exported = services_exported(&staleness(self.port).1);
        assert!(exported.contains(&format!("{NS}/{name}")), "{name} not exported: {exported:?}");
    }

    /// Delete Service `name` (its spec and its slices) straight in etcd.
    fn delete_service_in_etcd(&self, name: &str) {
        let url = &self.cp.etcd_url;
        let spec = format!("/registry/services/specs/{NS}/{name}");
        assert!(etcd::delete_key(url, &spec), "{spec} not in etcd");
        etcd::delete_prefix(url, &format!("/registry/endpointslices/{NS}/{name}-"));
    }

    /// The apiserver is down: wait for the alert, then start it again with `flags`; once every
    /// watch has listed again (all three relist counters grew) and `/metrics` equals `check -A`,
    /// nothing in `gone` may be exported and the alert must resolve.
    async fn recover(&self, what: &str, flags: &[&str], before: [u64; 3], gone: &[String]) -> f64 {
        self.prometheus.until_firing().await;
        let (stale, _) = staleness(self.port);
        assert!(stale > STALE_AFTER, "{what}: the alert fired at a staleness of {stale:.1}s");
        let restarted = now();
        self.cp.restart_apiserver(flags).await;
        let back = Instant::now();
        loop {
            // Heard from since the restart began (the watches may list again before /readyz).
            let (stale, text) = staleness(self.port);
            let counted = relists(&text);
            if now() - stale >= restarted && counted.iter().zip(before).all(|(n, b)| *n > b) {
                break;
            }
            assert!(
                back.elapsed() < WAIT,
                "{what}: not listed again (relists {before:?} → {counted:?}, staleness {stale:.1}s):\n{text}\nserve's stderr:\n{}",
                self.exporter.stderr()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let listed = back.elapsed().as_secs_f64();
        println!(
            "e2e: serve_faults: {what}: every watch listed again {listed:.2}s after the apiserver was ready"
        );
        until_equal_to_check(self.port, self.topo, what).await;
        let exported = services_exported(&staleness(self.port).1);
        for name in gone {
            assert!(!exported.contains(name), "{what}: {name} was deleted and is still exported");
        }
        self.prometheus.until_resolved().await;
        listed
    }
}

fn now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64()
}

/// `kubectl_topo_zone_nodes` of a zone in a scrape.
fn zone_nodes(text: &str, zone: &str) -> Option<u64> {
    let prefix = format!("kubectl_topo_zone_nodes{{topology_zone=\"{zone}\"}} ");
    text.lines().find_map(|l| l.strip_prefix(&prefix)).and_then(|v| v.trim().parse().ok())
}

/// SIGKILL, a Service and a Node deleted in etcd while it is down, started again.
pub async fn killed(o: &Outage<'_>) {
    o.cl.create_node(&node("c2", Some("zone-c"), "4")).await;
    o.doomed("doomed-kill").await;
    let start = Instant::now();
    let text = loop {
        let (_, text) = staleness(o.port);
        if zone_nodes(&text, "zone-c") == Some(2) {
            break text;
        }
        assert!(start.elapsed() < WAIT, "c2 not counted:\n{text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let before = relists(&text);
    o.cp.kill_apiserver();
    o.delete_service_in_etcd("doomed-kill");
    assert!(etcd::delete_key(&o.cp.etcd_url, "/registry/minions/c2"), "Node c2 not in etcd");
    let gone = [format!("{NS}/doomed-kill")];
    o.recover("apiserver killed and restarted", &[], before, &gone).await;
    let (_, text) = staleness(o.port);
    assert_eq!(zone_nodes(&text, "zone-c"), Some(1), "c2 was deleted:\n{text}");
}

/// SIGKILL, etcd compacted past every watch's resourceVersion and a Service deleted after that,
/// then the apiserver started without its watch cache: the watches resume from etcd itself, which
/// answers that their revision is compacted (410 Gone), so they must relist. Two writes of a
/// marker key first put the compaction at least two revisions past the last object any watch
/// saw: a watch resumes from the revision after its resourceVersion, and one that resumes at
/// exactly the compacted revision is not refused (seen: the Service watch then neither relisted
/// nor saw the deletion for 90 s; see the report of this change). Leaves the apiserver without
/// its watch cache: [`restore`] starts it as it was.
pub async fn compacted(o: &Outage<'_>) {
    o.doomed("doomed-compact").await;
    let before = relists(&staleness(o.port).1);
    o.cp.kill_apiserver();
    for i in 0..2 {
        etcd::put(&o.cp.etcd_url, "/e2e/compaction-marker", &i.to_string());
    }
    let revision = etcd::compact(&o.cp.etcd_url);
    println!("e2e: serve_faults: etcd compacted at revision {revision}");
    o.delete_service_in_etcd("doomed-compact");
    let gone = [format!("{NS}/doomed-compact")];
    o.recover("etcd compacted (apiserver without watch cache)", &["--watch-cache=false"], before, &gone)
        .await;
}

/// The apiserver started again as the plane started it (with its watch cache).
pub async fn restore(cp: &ControlPlane) {
    cp.kill_apiserver();
    cp.restart_apiserver(&[]).await;
}
