//! Issue 9: our per-zone routing view (`explain -o json` → `families[].proxy[]`) against real
//! kube-proxies. For each round, once the controller's slices have settled, a marker Service is
//! created and every kube-proxy is awaited until it programmed the marker and completed a sync
//! that started after the settled state; then, per Service and kube-proxy node:
//! * the endpoint IPs its rules DNAT the ClusterIP to must equal our `endpoints` for that node
//!   and what the scenario implies;
//! * `Local` must be a KUBE-SVL chain, no endpoints a DROP/REJECT filter rule;
//! * the topology lines kube-proxy printed for the Service in that sync (klog, `--v=7`) must equal
//!   our `logLine` (empty when it used the hints).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::cluster::{Cluster, NodeSpec, SliceState, node};
use crate::harness::{Binaries, ControlPlane};
use crate::kube_proxy::Fleet;
use crate::proxy_rules;
use crate::topo::Topo;

const WAIT: Duration = Duration::from_secs(30);
const AUTO: &str = "service.kubernetes.io/topology-mode";
const NS: &str = "kp-zones";
const SYNC_NS: &str = "kp-sync";

/// What one round checks: per Service, per kube-proxy node, the endpoint IPs it must reach.
type Want = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

struct Round<'a> {
    cl: &'a Cluster,
    topo: &'a Topo,
    fleet: &'a mut Fleet,
    rounds: usize,
    /// Lines for the summary.
    summary: Vec<String>,
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: Option<&Topo>, bins: &Binaries) -> Vec<String> {
    let Some(topo) = topo else { return vec!["kube-proxy tier skipped: no kubectl-topo binary".into()] };
    let mut fleet = Fleet::new(cp, &bins.kube_proxy);
    cl.namespace(NS).await;
    cl.namespace(SYNC_NS).await;
    let mut r = Round { cl, topo, fleet: &mut fleet, rounds: 0, summary: Vec::new() };
    zones_phase(&mut r).await;
    split_phase(&mut r).await;
    let mut notes = std::mem::take(&mut r.summary);
    let rounds = r.rounds;
    let modes: Vec<&str> = fleet.modes.iter().map(|m| m.flag()).collect();
    notes.push(format!("kube-proxy ran in {} mode; {rounds} comparison rounds", modes.join(" and ")));
    fleet.stop_all();
    notes
}

fn zone_nodes() -> Vec<NodeSpec> {
    vec![
        node("k-a1", Some("zone-a"), "4"),
        // Not counted by the controller (control plane), but kube-proxy runs there: a second
        // zone-a node for PreferSameNode.
        NodeSpec { control_plane: true, ..node("k-a2", Some("zone-a"), "4") },
        node("k-b1", Some("zone-b"), "4"),
        node("k-c1", Some("zone-c"), "4"),
        // A node without zone label; a control-plane one, or the controller would drop every hint.
        NodeSpec { control_plane: true, ..node("k-nz", None, "4") },
    ]
}

/// kube-proxy waits up to 30 s for its Node to have an address (pkg/proxy/node.go): give each
/// Node an InternalIP from TEST-NET-1 (never routed; the namespaces have only a loopback).
async fn node_ips(cl: &Cluster, nodes: &[&str]) {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(101);
    let api: Api<Node> = Api::all(cl.client.clone());
    for name in nodes {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let addresses = json!({"status": {"addresses": [
            {"type": "InternalIP", "address": format!("192.0.2.{n}")},
            {"type": "Hostname", "address": name}]}});
        api.patch_status(name, &PatchParams::default(), &Patch::Merge(&addresses))
            .await
            .expect("node address");
    }
}

/// Nodes exactly `specs` (with addresses) and a kube-proxy on each.
async fn nodes_with_proxies(r: &mut Round<'_>, specs: &[NodeSpec]) {
    r.fleet.stop_all();
    r.cl.set_nodes(specs).await;
    let names: Vec<&str> = specs.iter().map(|n| n.name.as_str()).collect();
    node_ips(r.cl, &names).await;
    for n in specs {
        let note = r.fleet.start(&n.name, n.zone.as_deref()).await;
        r.summary.extend(note);
    }
}

async fn pods(cl: &Cluster, ns: &str, svc: &str, nodes: &[&str]) {
    for (i, n) in nodes.iter().enumerate() {
        cl.create_pod(ns, &format!("{svc}-{i}"), svc, n).await;
    }
}

/// Per kube-proxy node, the endpoint IPs of `state` on the listed nodes (`ALL`: every endpoint).
fn reach(state: &SliceState, rows: &[(&str, &[&str])]) -> BTreeMap<String, BTreeSet<String>> {
    let on = |nodes: &[&str]| -> BTreeSet<String> {
        let rows = state.rows.iter();
        rows.filter(|r| nodes == ALL || r.4.as_deref().is_some_and(|n| nodes.contains(&n)))
            .map(|r| r.0.clone())
            .collect()
    };
    rows.iter().map(|(proxy, nodes)| (proxy.to_string(), on(nodes))).collect()
}

/// Every endpoint (in [`reach`]).
const ALL: &[&str] = &["*"];
/// Each zone's own endpoints, zone-a's for the control-plane node k-a2 too; all for k-nz (no
/// zone label).
const OWN_ZONE: &[(&str, &[&str])] =
    &[("k-a1", &["k-a1"]), ("k-a2", &["k-a1"]), ("k-b1", &["k-b1"]), ("k-c1", &["k-c1"]), ("k-nz", ALL)];
const EVERYWHERE_ALL: &[(&str, &[&str])] =
    &[("k-a1", ALL), ("k-a2", ALL), ("k-b1", ALL), ("k-c1", ALL), ("k-nz", ALL)];

/// A Service without selector whose only slice is ours (another manager: the controller leaves
/// it alone, kube-proxy and kubectl-topo read it like any other).
async fn manual_service(cl: &Cluster, ns: &str, name: &str, endpoints: Value) {
    let svc: Service = serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": ns},
        "spec": {"ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}]}
    }))
    .unwrap();
    Api::<Service>::namespaced(cl.client.clone(), ns)
        .create(&PostParams::default(), &svc)
        .await
        .expect("service");
    let slice: EndpointSlice = serde_json::from_value(json!({
        "metadata": {"name": format!("{name}-manual"), "namespace": ns, "labels": {
            "kubernetes.io/service-name": name, "endpointslice.kubernetes.io/managed-by": "e2e.kubectl-topo"}},
        "addressType": "IPv4",
        "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}],
        "endpoints": endpoints
    }))
    .unwrap();
    Api::<EndpointSlice>::namespaced(cl.client.clone(), ns)
        .create(&PostParams::default(), &slice)
        .await
        .expect("slice");
}

fn manual_endpoint(ip: &str, node: &str, zone: &str, hinted: bool) -> Value {
    let mut ep = json!({"addresses": [ip], "conditions": {"ready": true, "serving": true, "terminating": false},
                        "nodeName": node, "zone": zone});
    if hinted {
        ep["hints"] = json!({"forZones": [{"name": zone}]});
    }
    ep
}

fn manual_endpoints(hint_c: bool) -> Value {
    json!([
        manual_endpoint("10.244.200.1", "k-a1", "zone-a", true),
        manual_endpoint("10.244.200.2", "k-b1", "zone-b", true),
        manual_endpoint("10.244.200.3", "k-c1", "zone-c", hint_c),
    ])
}

async fn settle(cl: &Cluster, svc: &str, what: &str, pred: impl Fn(&SliceState) -> bool) -> SliceState {
    cl.wait_slices(NS, svc, what, WAIT, pred).await;
    cl.settle(NS, svc, Duration::from_secs(2)).await
}

fn hinted_own_zone(s: &SliceState, n: usize) -> bool {
    s.endpoints == n && s.rows.iter().all(|r| r.2.as_deref() == r.1.as_ref().map(std::slice::from_ref))
}

/// Phase 1 — 3 zones (+ a control-plane node in zone-a): the EKS demo, PreferSameNode,
/// PreferSameZone, iTP=Local, a slice losing one hint, then a zone added without endpoints.
async fn zones_phase(r: &mut Round<'_>) {
    let cl = r.cl;
    nodes_with_proxies(r, &zone_nodes()).await;
    pods(cl, NS, "eks", &["k-a1", "k-b1", "k-c1"]).await;
    cl.create_service(NS, "eks", json!({AUTO: "Auto"}), None).await;
    pods(cl, NS, "same-node", &["k-a1", "k-a2", "k-b1"]).await;
    cl.create_service(NS, "same-node", json!({}), Some("PreferSameNode")).await;
    pods(cl, NS, "same-zone", &["k-a1", "k-b1", "k-c1"]).await;
    cl.create_service(NS, "same-zone", json!({}), Some("PreferSameZone")).await;
    pods(cl, NS, "local", &["k-a1", "k-a1", "k-b1"]).await;
    cl.create_service(NS, "local", json!({}), None).await;
    cl.patch_service(NS, "local", json!({"spec": {"internalTrafficPolicy": "Local"}})).await;
    manual_service(cl, NS, "lost-hint", manual_endpoints(true)).await;

    let eks = settle(cl, "eks", "own-zone hints", |s| hinted_own_zone(s, 3)).await;
    let same_node = settle(cl, "same-node", "node hints", |s| {
        let own_node = |r: &crate::cluster::Row| {
            r.3.is_some() && r.3.as_deref() == r.4.as_ref().map(std::slice::from_ref)
        };
        s.endpoints == 3 && s.rows.iter().all(own_node)
    })
    .await;
    let zone = settle(cl, "same-zone", "own-zone hints", |s| hinted_own_zone(s, 3)).await;
    let local = settle(cl, "local", "3 endpoints", |s| s.endpoints == 3).await;
    let lost = settle(cl, "lost-hint", "manual slice", |s| s.endpoints == 3).await;
    let w = Want::from([
        ("eks".into(), reach(&eks, OWN_ZONE)),
        // Own node; k-c1 has no endpoint and zone-c no hint: all.
        (
            "same-node".into(),
            reach(
                &same_node,
                &[
                    ("k-a1", &["k-a1"]),
                    ("k-a2", &["k-a2"]),
                    ("k-b1", &["k-b1"]),
                    ("k-c1", ALL),
                    ("k-nz", ALL),
                ],
            ),
        ),
        ("same-zone".into(), reach(&zone, OWN_ZONE)),
        (
            "local".into(),
            reach(
                &local,
                &[("k-a1", &["k-a1"]), ("k-a2", &[]), ("k-b1", &["k-b1"]), ("k-c1", &[]), ("k-nz", &[])],
            ),
        ),
        ("lost-hint".into(), reach(&lost, OWN_ZONE)),
    ]);
    r.compare("3 zones", NS, &w).await;
    hint_lost(r).await;
    zone_added(r).await;
}

/// One endpoint of the manual slice loses its hint: every zone falls back to all endpoints.
async fn hint_lost(r: &mut Round<'_>) {
    Api::<EndpointSlice>::namespaced(r.cl.client.clone(), NS)
        .patch(
            "lost-hint-manual",
            &PatchParams::default(),
            &Patch::Merge(&json!({"endpoints": manual_endpoints(false)})),
        )
        .await
        .expect("edit the manual slice");
    let lost = settle(r.cl, "lost-hint", "one hint removed", |s| s.hinted == 2).await;
    r.compare("a hint removed", NS, &Want::from([("lost-hint".into(), reach(&lost, EVERYWHERE_ALL))])).await;
}

/// A zone without endpoints: the Auto Service loses its hints (4 zones, 3 endpoints), the
/// PreferSameZone one keeps them and only zone-d falls back to all.
async fn zone_added(r: &mut Round<'_>) {
    let cl = r.cl;
    cl.create_node(&node("k-d1", Some("zone-d"), "4")).await;
    node_ips(cl, &["k-d1"]).await;
    let note = r.fleet.start("k-d1", Some("zone-d")).await;
    r.summary.extend(note);
    let eks = settle(cl, "eks", "hints removed", |s| s.endpoints == 3 && s.hinted == 0).await;
    let zone = settle(cl, "same-zone", "own-zone hints", |s| hinted_own_zone(s, 3)).await;
    let mut eks = reach(&eks, EVERYWHERE_ALL);
    eks.insert("k-d1".into(), eks["k-a1"].clone());
    let mut same_zone = reach(&zone, OWN_ZONE);
    same_zone.insert("k-d1".into(), reach(&zone, &[("k-d1", ALL)])["k-d1"].clone());
    r.compare("zone-d added", NS, &Want::from([("eks".into(), eks), ("same-zone".into(), same_zone)])).await;
}

/// Phase 2 — 12/4 vCPU, endpoints a:2 b:2: zone-a reaches 3 (one zone-b endpoint is hinted
/// zone-a), zone-b reaches 1.
async fn split_phase(r: &mut Round<'_>) {
    let cl = r.cl;
    nodes_with_proxies(r, &[node("k2-a1", Some("zone-a"), "12"), node("k2-b1", Some("zone-b"), "4")]).await;
    pods(cl, NS, "split", &["k2-a1", "k2-a1", "k2-b1", "k2-b1"]).await;
    cl.create_service(NS, "split", json!({AUTO: "Auto"}), None).await;
    let s = settle(cl, "split", "hinted a:3 b:1", |s| {
        s.endpoints == 4 && s.hinted_per_zone == BTreeMap::from([("zone-a".into(), 3), ("zone-b".into(), 1)])
    })
    .await;
    let hinted = |zone: &str| -> BTreeSet<String> {
        s.rows
            .iter()
            .filter(|r| r.2.as_ref().is_some_and(|z| z.iter().any(|z| z == zone)))
            .map(|r| r.0.clone())
            .collect()
    };
    let (a, b) = (hinted("zone-a"), hinted("zone-b"));
    assert_eq!((a.len(), b.len()), (3, 1), "12/4 split: {s:#?}");
    let w = Want::from([("split".into(), BTreeMap::from([("k2-a1".into(), a), ("k2-b1".into(), b)]))]);
    r.compare("12/4 split", NS, &w).await;
}

impl Round<'_> {
    /// Create the round's marker Service and wait for every kube-proxy to sync past it.
    async fn sync(&mut self) -> Vec<(String, Vec<String>)> {
        self.rounds += 1;
        let offsets = self.fleet.log_offsets();
        let name = format!("sync-{}", self.rounds);
        let svc: Service = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": SYNC_NS},
            "spec": {"ports": [{"port": 80, "protocol": "TCP"}]}
        }))
        .unwrap();
        let created = Api::<Service>::namespaced(self.cl.client.clone(), SYNC_NS)
            .create(&PostParams::default(), &svc)
            .await
            .expect("marker service");
        let ip = created.spec.and_then(|s| s.cluster_ip).expect("marker ClusterIP");
        self.fleet.synced_after(self.rounds, &ip, &offsets, Duration::from_secs(60)).await
    }

    async fn compare(&mut self, round: &str, ns: &str, want: &Want) {
        let synced = self.sync().await;
        for (svc, per_node) in want {
            let service =
                Api::<Service>::namespaced(self.cl.client.clone(), ns).get(svc).await.expect("service");
            let ip = service.spec.and_then(|s| s.cluster_ip).expect("ClusterIP");
            let report = self.topo.json(&["explain", &format!("svc/{svc}"), "-n", ns]);
            let view = crate::kube_proxy_compare::proxy_view(&report);
            for (i, proxy) in self.fleet.proxies.iter().enumerate() {
                let Some(expected) = per_node.get(&proxy.node) else { continue };
                let (dump, block) = &synced[i];
                let routing = proxy.mode.routing(dump, &ip, 80, "tcp");
                let kp_lines = proxy_rules::topology_lines(block, &format!("{ip}:80/TCP"));
                let line = crate::kube_proxy_compare::check(
                    &format!("{round}: {ns}/{svc} on {} ({})", proxy.node, proxy.mode.flag()),
                    &view,
                    &proxy.node,
                    &routing,
                    &kp_lines,
                    expected,
                    || proxy.save_text(),
                );
                self.summary.push(line);
            }
        }
    }
}
