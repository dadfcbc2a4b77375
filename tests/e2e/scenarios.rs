//! The scenarios of issue 3, in the order that keeps Node churn small (Nodes are cluster-wide:
//! every topology change affects every Service, so phases replace the Node set).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde_json::{Value, json};

use crate::cluster::{Cluster, NodeSpec, SliceState, node};
use crate::harness::{self, Binaries, ControlPlane};
use crate::topo::{self, Topo};

const WAIT: Duration = Duration::from_secs(30);
const AUTO: &str = "service.kubernetes.io/topology-mode";
const DEPRECATED: &str = "service.kubernetes.io/topology-aware-hints";

struct Ctx {
    cp: ControlPlane,
    cl: Cluster,
    topo: Option<Topo>,
    /// Every Service created (namespace, name), for the final `check -A`.
    services: Vec<(String, String)>,
    /// Notes about controller behaviour worth reporting.
    notes: Vec<String>,
}

/// What `explain` must say about a Service's IPv4 family.
struct Expect<'a> {
    verdict: &'a str,
    codes: &'a [&'a str],
}

const ACTIVE: Expect<'static> = Expect { verdict: "Active", codes: &[] };

pub async fn run_all(bins: &Binaries) {
    let cp = ControlPlane::start(bins).await;
    println!("e2e: kube-apiserver version {}", cp.version);
    let cl = Cluster::new(harness::client_for(&cp.admin_kubeconfig).await);
    let topo = topo::binary().map(|b| Topo::new(b, &cp.admin_kubeconfig));
    if topo.is_none() {
        eprintln!("e2e: kubectl-topo binary not part of this build: checking the controller side only");
    }
    let mut ctx = Ctx { cp, cl, topo, services: Vec::new(), notes: Vec::new() };

    three_equal_zones(&mut ctx).await;
    ignored_nodes(&mut ctx).await;
    node_without_zone(&mut ctx).await;
    two_zones_12_4(&mut ctx).await;
    three_zones_8_4_4(&mut ctx).await;
    check_all(&mut ctx).await;
    plugin_live(&ctx);
    rbac(&mut ctx).await;
    crate::watch::run(&ctx.cp, &ctx.cl, ctx.topo.as_ref()).await;
    crate::replay::run(&ctx.cl, ctx.topo.as_ref()).await;
    crate::cilium::run(&ctx.cp, &ctx.cl, ctx.topo.as_ref()).await;
    crate::live_api::run(&ctx.cp).await;
    if let Some(topo) = &ctx.topo {
        crate::rbac_matrix::run(&ctx.cp, &ctx.cl, topo).await;
        crate::faults::run(&ctx.cp, topo).await;
    }
    let proxy_notes = crate::kube_proxy_scenarios::run(&ctx.cp, &ctx.cl, ctx.topo.as_ref(), bins).await;
    ctx.notes.extend(proxy_notes);

    ctx.cp.check_alive();
    for n in &ctx.notes {
        println!("e2e: note: {n}");
    }
}

fn zones3() -> Vec<NodeSpec> {
    vec![node("a1", Some("zone-a"), "4"), node("b1", Some("zone-b"), "4"), node("c1", Some("zone-c"), "4")]
}

/// Pods first, then the Service: its first sync sees every endpoint, so the controller records one
/// event instead of one per pod (events are rate-limited per object, ~25 then dropped).
async fn service_with_pods(
    ctx: &mut Ctx,
    ns: &str,
    name: &str,
    ann: Value,
    td: Option<&str>,
    nodes: &[&str],
) {
    for (i, n) in nodes.iter().enumerate() {
        ctx.cl.create_pod(ns, &format!("{name}-{i}"), name, n).await;
    }
    ctx.cl.create_service(ns, name, ann, td).await;
    ctx.services.push((ns.to_string(), name.to_string()));
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

/// Wait for `endpoints` endpoints with the given hinted-per-zone counts.
async fn wait_hinted(ctx: &Ctx, ns: &str, svc: &str, endpoints: usize, want: &[(&str, usize)]) -> SliceState {
    let want = counts(want);
    let what = format!("{endpoints} endpoints hinted {want:?}");
    ctx.cl.wait_slices(ns, svc, &what, WAIT, |s| s.endpoints == endpoints && s.hinted_per_zone == want).await;
    ctx.cl.settle(ns, svc, Duration::from_secs(2)).await
}

/// Wait for `endpoints` endpoints and no hints at all.
async fn wait_unhinted(ctx: &Ctx, ns: &str, svc: &str, endpoints: usize) -> SliceState {
    ctx.cl.wait_slices(ns, svc, "no hints", WAIT, |s| s.endpoints == endpoints && s.hinted == 0).await;
    ctx.cl.settle(ns, svc, Duration::from_secs(2)).await
}

fn family(report: &Value) -> &Value {
    report["families"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["addressType"] == "IPv4").or(f.first()))
        .unwrap_or_else(|| panic!("no family in {report:#}"))
}

fn codes(fam: &Value) -> Vec<String> {
    fam["reasons"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["code"].as_str().map(String::from))
        .collect()
}

/// `zones[]` of a family as zone → (expectedHinted, actualHinted).
fn zone_rows(fam: &Value) -> BTreeMap<String, (i64, i64)> {
    fam["zones"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|z| {
            let name = z["zone"].as_str().unwrap_or_default().to_string();
            (name, (z["expectedHinted"].as_i64().unwrap_or(-1), z["actualHinted"].as_i64().unwrap_or(-1)))
        })
        .collect()
}

/// Assert what `kubectl-topo` says about the live Service and about a hint-less dump of it.
async fn verify(
    ctx: &Ctx,
    ns: &str,
    svc: &str,
    expect: &Expect<'_>,
    state: &SliceState,
    fresh_matches: bool,
) -> Value {
    let Some(topo) = &ctx.topo else { return Value::Null };
    let target = format!("svc/{svc}");
    let live = topo.json(&["explain", &target, "-n", ns]);
    let fam = family(&live);
    let ctx_text = || format!("{ns}/{svc}: slices {state:#?}\nreport {live:#}");
    assert_eq!(fam["verdict"], expect.verdict, "verdict of {}", ctx_text());
    let got = codes(fam);
    for c in expect.codes {
        assert!(got.iter().any(|g| g == c), "{ns}/{svc}: reason {c} missing from {got:?}\n{}", ctx_text());
    }
    let rows = zone_rows(fam);
    for (zone, (_, actual)) in &rows {
        let on_slices = state.hinted_per_zone.get(zone).copied().unwrap_or(0) as i64;
        assert_eq!(*actual, on_slices, "{ns}/{svc} zone {zone}: actualHinted vs slices\n{}", ctx_text());
    }
    for (zone, n) in &state.hinted_per_zone {
        if !rows.is_empty() {
            assert!(
                rows.contains_key(zone),
                "{ns}/{svc}: no zone row for hinted zone {zone} ({n})\n{}",
                ctx_text()
            );
        }
    }
    if fresh_matches {
        // Recompute from a dump with every hint removed: must reproduce what the controller wrote.
        let mut dump = topo.dump(&["-n", ns]);
        topo::strip_hints(&mut dump);
        let file = ctx.cp.dir.path().join(format!("dump-{ns}-{svc}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&dump).unwrap()).unwrap();
        let fresh = topo.json(&["explain", &target, "-n", ns, "--from-file", file.to_str().unwrap()]);
        let fam = family(&fresh);
        for (zone, (expected, _)) in zone_rows(fam) {
            let written = state.hinted_per_zone.get(&zone).copied().unwrap_or(0) as i64;
            assert_eq!(
                expected, written,
                "{ns}/{svc} zone {zone}: expectedHinted (from a hint-less dump) vs controller\n{fresh:#}"
            );
        }
        if fam["zones"].as_array().is_some_and(|z| !z.is_empty()) {
            for zone in state.hinted_per_zone.keys() {
                assert!(zone_rows(fam).contains_key(zone), "{ns}/{svc}: zone {zone} missing from {fresh:#}");
            }
        }
    }
    live
}

/// Phase A — 3 equal zones: the EKS demo, Disabled after Auto, the deprecated annotation and
/// trafficDistribution.
async fn three_equal_zones(ctx: &mut Ctx) {
    ctx.cl.set_nodes(&zones3()).await;

    // EKS demo: 3 endpoints, 1 per zone → each hinted its own zone.
    ctx.cl.namespace("demo").await;
    service_with_pods(ctx, "demo", "demo-service", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1"]).await;
    let s = wait_hinted(ctx, "demo", "demo-service", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    assert!(
        s.rows.iter().all(|r| r.2.as_deref() == r.1.as_ref().map(std::slice::from_ref)),
        "own-zone hints: {s:#?}"
    );
    verify(ctx, "demo", "demo-service", &ACTIVE, &s, true).await;

    // Scale to 4: 3 zones × min 2 > 4 endpoints → the controller removes every hint (W2, 33 %).
    ctx.cl.create_pod("demo", "demo-service-3", "demo-service", "a1").await;
    let s = wait_unhinted(ctx, "demo", "demo-service", 4).await;
    let events = ctx.cl.service_events("demo", "demo-service").await;
    assert!(
        events.iter().any(|(_, m)| m.contains("Unable to allocate minimum required endpoints")),
        "expected the overload Warning event, got {events:?}"
    );
    let report = verify(
        ctx,
        "demo",
        "demo-service",
        &Expect { verdict: "Blocked", codes: &["OverloadThreshold"] },
        &s,
        true,
    )
    .await;
    if !report.is_null() {
        let fam = family(&report);
        let pct: Vec<f64> = fam["reasons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["overloadPercent"].as_f64())
            .chain(
                fam["zones"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|z| z["expectedOverloadPercent"].as_f64()),
            )
            .collect();
        assert!(
            pct.iter().any(|p| (p - 33.3).abs() < 0.5),
            "33 % expected overload not reported: {pct:?}\n{report:#}"
        );
    }

    // Back to 3: hints return (the pod deletion resyncs the Service).
    ctx.cl.delete_pod("demo", "demo-service-3").await;
    let s = wait_hinted(ctx, "demo", "demo-service", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    verify(ctx, "demo", "demo-service", &ACTIVE, &s, true).await;

    // topology-mode: Disabled after Auto → hints removed, Warning TopologyAwareHintsDisabled.
    ctx.cl.namespace("disable").await;
    service_with_pods(ctx, "disable", "web", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1"]).await;
    let s = wait_hinted(ctx, "disable", "web", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    verify(ctx, "disable", "web", &ACTIVE, &s, true).await;
    ctx.cl.patch_service("disable", "web", json!({"metadata": {"annotations": {AUTO: "Disabled"}}})).await;
    let s = wait_unhinted(ctx, "disable", "web", 3).await;
    let events = ctx.cl.service_events("disable", "web").await;
    assert!(events.iter().any(|(r, _)| r == "TopologyAwareHintsDisabled"), "events: {events:?}");
    verify(ctx, "disable", "web", &Expect { verdict: "NotEnabled", codes: &[] }, &s, true).await;

    // The deprecated annotation: `auto` enables; its presence (any value) beats topology-mode.
    ctx.cl.namespace("deprecated").await;
    service_with_pods(ctx, "deprecated", "old", json!({DEPRECATED: "auto"}), None, &["a1", "b1", "c1"]).await;
    let s = wait_hinted(ctx, "deprecated", "old", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    verify(ctx, "deprecated", "old", &ACTIVE, &s, true).await;
    // The API refuses the two keys with different values, so "the deprecated key wins by presence"
    // can only be seen with a value the controller does not accept: `AUTO` (case-sensitive).
    let refused = ctx
        .cl
        .try_create_service("deprecated", "both", json!({DEPRECATED: "Disabled", AUTO: "Auto"}), None)
        .await;
    assert!(refused.is_err(), "apiserver accepted differing topology annotations");
    service_with_pods(ctx, "deprecated", "upper", json!({DEPRECATED: "AUTO"}), None, &["a1", "b1", "c1"])
        .await;
    ctx.cl.wait_slices("deprecated", "upper", "3 endpoints", WAIT, |s| s.endpoints == 3).await;
    let s = wait_unhinted(ctx, "deprecated", "upper", 3).await;
    // The user asked for hints with a value the controller ignores: Blocked, not NotEnabled.
    let ignored = Expect { verdict: "Blocked", codes: &["AnnotationValueIgnored"] };
    verify(ctx, "deprecated", "upper", &ignored, &s, true).await;

    // trafficDistribution: PreferSameZone → own zone; PreferSameNode → own zone and own node.
    ctx.cl.namespace("traffic").await;
    service_with_pods(
        ctx,
        "traffic",
        "same-zone",
        json!({}),
        Some("PreferSameZone"),
        &["a1", "b1", "b1", "c1"],
    )
    .await;
    let s = wait_hinted(ctx, "traffic", "same-zone", 4, &[("zone-a", 1), ("zone-b", 2), ("zone-c", 1)]).await;
    verify(ctx, "traffic", "same-zone", &ACTIVE, &s, true).await;
    service_with_pods(ctx, "traffic", "same-node", json!({}), Some("PreferSameNode"), &["a1", "b1", "c1"])
        .await;
    let s = ctx
        .cl
        .wait_slices("traffic", "same-node", "forNodes = own node", WAIT, |s| {
            s.endpoints == 3
                && s.rows.iter().all(|r| {
                    r.3.as_ref().is_some_and(|n| Some(n) == r.4.as_ref().map(|x| vec![x.clone()]).as_ref())
                })
        })
        .await;
    let report = verify(ctx, "traffic", "same-node", &ACTIVE, &s, true).await;
    if !report.is_null() {
        for ep in family(&report)["endpoints"].as_array().into_iter().flatten() {
            assert_eq!(ep["expectedNodes"], json!([ep["node"]]), "expectedNodes: {ep:#}");
            assert_eq!(ep["expectedZones"], json!([ep["zone"]]), "expectedZones: {ep:#}");
        }
    }
}

/// Phase B — a control-plane node and a NotReady node are not counted: with the big NotReady node
/// counted zone-a would weigh 20/28 and 3 endpoints could not be hinted.
async fn ignored_nodes(ctx: &mut Ctx) {
    let mut nodes = zones3();
    nodes.push(NodeSpec { control_plane: true, ..node("cp1", None, "8") });
    nodes.push(NodeSpec { ready: false, ..node("nr1", Some("zone-a"), "16") });
    ctx.cl.set_nodes(&nodes).await;
    ctx.cl.namespace("ignored").await;
    service_with_pods(ctx, "ignored", "web", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1"]).await;
    let s = wait_hinted(ctx, "ignored", "web", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    verify(ctx, "ignored", "web", &ACTIVE, &s, true).await;
    zones_match(ctx, &[("zone-a", 4000), ("zone-b", 4000), ("zone-c", 4000)]);
}

/// Phase C — a Ready worker without zone label disables hints cluster-wide; labelling it does not
/// bring them back by itself (the Service is not requeued), a Service update does.
async fn node_without_zone(ctx: &mut Ctx) {
    ctx.cl.create_node(&node("w-nozone", None, "4")).await;
    // Services with cached hints are requeued and lose them.
    let s = wait_unhinted(ctx, "demo", "demo-service", 3).await;
    verify(
        ctx,
        "demo",
        "demo-service",
        &Expect { verdict: "Blocked", codes: &["NodeMissingZone"] },
        &s,
        true,
    )
    .await;

    ctx.cl.namespace("nozone").await;
    service_with_pods(ctx, "nozone", "web", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1", "c1"]).await;
    let s = wait_unhinted(ctx, "nozone", "web", 4).await;
    let events = ctx.cl.service_events("nozone", "web").await;
    assert!(events.iter().any(|(_, m)| m.contains("Insufficient Node information")), "events: {events:?}");
    verify(ctx, "nozone", "web", &Expect { verdict: "Blocked", codes: &["NodeMissingZone"] }, &s, true).await;

    // Label it zone-c: weights 4/4/8 → 4 endpoints a:1 b:1 c:2 fit exactly.
    ctx.cl.label_node("w-nozone", crate::cluster::ZONE, Some("zone-c")).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let s = SliceState::of(&ctx.cl.slices("nozone", "web").await);
    if s.hinted == 0 {
        ctx.notes.push(
            "labelling the zone-less node did not requeue a Service whose hints had been removed (k/k #123401); \
             a Service update did"
                .into(),
        );
        if let Some(topo) = &ctx.topo {
            let r = topo.json(&["explain", "svc/web", "-n", "nozone"]);
            ctx.notes.push(format!(
                "explain before the resync: verdict {} reasons {:?}",
                family(&r)["verdict"],
                codes(family(&r))
            ));
        }
    } else {
        ctx.notes.push("labelling the zone-less node requeued the Service by itself".into());
    }
    ctx.cl.patch_service("nozone", "web", json!({"metadata": {"annotations": {"e2e/resync": "1"}}})).await;
    let s = wait_hinted(ctx, "nozone", "web", 4, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 2)]).await;
    verify(ctx, "nozone", "web", &ACTIVE, &s, true).await;
}

/// Remove the pods of every earlier scenario before their Nodes go away.
async fn clear_pods(ctx: &Ctx) {
    let namespaces: BTreeSet<&str> = ctx.services.iter().map(|(ns, _)| ns.as_str()).collect();
    for ns in namespaces {
        ctx.cl.delete_all_pods(ns).await;
    }
    for (ns, svc) in &ctx.services {
        ctx.cl.wait_slices(ns, svc, "no endpoints", WAIT, |s| s.endpoints == 0).await;
    }
}

/// Phase D — docs example (a): 12/4 vCPU, endpoints a:2 b:2 → one zone-b endpoint hinted zone-a.
async fn two_zones_12_4(ctx: &mut Ctx) {
    clear_pods(ctx).await;
    ctx.cl.set_nodes(&[node("d-a1", Some("zone-a"), "12"), node("d-b1", Some("zone-b"), "4")]).await;
    ctx.cl.namespace("two-zones").await;
    service_with_pods(
        ctx,
        "two-zones",
        "web",
        json!({AUTO: "Auto"}),
        None,
        &["d-a1", "d-a1", "d-b1", "d-b1"],
    )
    .await;
    let s = wait_hinted(ctx, "two-zones", "web", 4, &[("zone-a", 3), ("zone-b", 1)]).await;
    let crossed = s
        .rows
        .iter()
        .filter(|r| r.1.as_deref() == Some("zone-b") && r.2 == Some(vec!["zone-a".to_string()]))
        .count();
    assert_eq!(crossed, 1, "one zone-b endpoint hinted zone-a: {s:#?}");
    verify(ctx, "two-zones", "web", &ACTIVE, &s, true).await;
    zones_match(ctx, &[("zone-a", 12000), ("zone-b", 4000)]);
}

/// Phase E — 8/4/4 with endpoints 6/1/1: two zone-a endpoints move, one to each other zone.
async fn three_zones_8_4_4(ctx: &mut Ctx) {
    clear_pods(ctx).await;
    ctx.cl
        .set_nodes(&[
            node("e-a1", Some("zone-a"), "8"),
            node("e-b1", Some("zone-b"), "4"),
            node("e-c1", Some("zone-c"), "4"),
        ])
        .await;
    ctx.cl.namespace("redistribute").await;
    let pods = ["e-a1", "e-a1", "e-a1", "e-a1", "e-a1", "e-a1", "e-b1", "e-c1"];
    service_with_pods(ctx, "redistribute", "web", json!({AUTO: "Auto"}), None, &pods).await;
    let s = wait_hinted(ctx, "redistribute", "web", 8, &[("zone-a", 4), ("zone-b", 2), ("zone-c", 2)]).await;
    verify(ctx, "redistribute", "web", &ACTIVE, &s, true).await;
    zones_match(ctx, &[("zone-a", 8000), ("zone-b", 4000), ("zone-c", 4000)]);
}

/// `zones -o json` lists exactly the zones of the Nodes created, with their CPU.
fn zones_match(ctx: &Ctx, want: &[(&str, i64)]) {
    let Some(topo) = &ctx.topo else { return };
    let r = topo.json(&["zones"]);
    let got: BTreeMap<String, i64> = r["zones"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|z| (z["zone"].as_str().unwrap_or_default().to_string(), z["cpuMillis"].as_i64().unwrap_or(-1)))
        .collect();
    let want: BTreeMap<String, i64> = want.iter().map(|(z, c)| (z.to_string(), *c)).collect();
    assert_eq!(got, want, "zones report:\n{r:#}");
}

/// `check -A`: one row per Service of the cluster, each with the verdict `explain` gives.
async fn check_all(ctx: &mut Ctx) {
    let Some(topo) = &ctx.topo else { return };
    let report = topo.json(&["check", "-A"]);
    let rows = report["services"].as_array().expect("services[]");
    let mut seen = BTreeSet::new();
    for row in rows {
        let (ns, name) =
            (row["service"]["namespace"].as_str().unwrap(), row["service"]["name"].as_str().unwrap());
        assert!(seen.insert((ns.to_string(), name.to_string())), "duplicate row {ns}/{name}");
        let explain = topo.json(&["explain", &format!("svc/{name}"), "-n", ns]);
        let want: Vec<&Value> =
            explain["families"].as_array().into_iter().flatten().map(|f| &f["verdict"]).collect();
        let got: Vec<&Value> =
            row["families"].as_array().into_iter().flatten().map(|f| &f["verdict"]).collect();
        assert_eq!(got, want, "check -A vs explain for {ns}/{name}");
    }
    for (ns, svc) in &ctx.services {
        assert!(seen.contains(&(ns.clone(), svc.clone())), "check -A has no row for {ns}/{svc}");
    }
}

/// deploy/rbac.yaml is enough for every command; without `list nodes` the error names it.
async fn rbac(ctx: &mut Ctx) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/rbac.yaml"))
        .expect("deploy/rbac.yaml");
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).expect("rbac.yaml parses");
    let role = docs.iter().find(|d| d["kind"] == "ClusterRole").expect("a ClusterRole in deploy/rbac.yaml");
    let role_name = role["metadata"]["name"].as_str().unwrap().to_string();
    ctx.cl.apply_cluster_role(&serde_json::from_value(role.clone()).unwrap()).await;
    ctx.cl.bind_cluster_role("e2e-reader", &role_name, "topo-reader").await;
    let mut limited = role.clone();
    limited["metadata"]["name"] = json!("e2e-no-nodes");
    for rule in limited["rules"].as_array_mut().unwrap() {
        if let Some(res) = rule["resources"].as_array_mut() {
            res.retain(|r| r != "nodes");
        }
    }
    ctx.cl.apply_cluster_role(&serde_json::from_value(limited).unwrap()).await;
    ctx.cl.bind_cluster_role("e2e-no-nodes", "e2e-no-nodes", "topo-limited").await;
    let reader = ctx.cp.user_kubeconfig("topo-reader", &[]);
    let no_nodes = ctx.cp.user_kubeconfig("topo-limited", &[]);

    // RBAC bindings take effect within a moment (the authorizer's informer).
    let reader_client = harness::client_for(&reader).await;
    let nodes: kube::Api<k8s_openapi::api::core::v1::Node> = kube::Api::all(reader_client);
    let start = std::time::Instant::now();
    while nodes.list(&Default::default()).await.is_err() {
        assert!(start.elapsed() < WAIT, "the reader binding never took effect");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let Some(topo) = &ctx.topo else { return };
    for args in [
        vec!["zones"],
        vec!["explain", "svc/web", "-n", "redistribute"],
        vec!["check", "-A"],
        vec!["check", "-n", "demo"],
        vec!["dump", "-A"],
        vec!["dump", "--redact", "-A"],
    ] {
        let r = topo.run_as(&reader, &args);
        assert!(r.code == 0 || r.code == 1, "reader: kubectl-topo {args:?} exited {}:\n{}", r.code, r.stderr);
    }
    let r = topo.run_as(&no_nodes, &["explain", "svc/web", "-n", "redistribute"]);
    assert_eq!(r.code, 3, "without list nodes: {r:?}");
    // The partial-data note comes first (rbac_matrix.rs checks it); then the error and its hint.
    let first = r.stderr.lines().find(|l| !l.starts_with("note: ")).unwrap_or_default();
    assert!(
        first.starts_with("error: ") && first.contains("list nodes") && first.contains("cluster scope"),
        "{r:?}"
    );
    assert!(r.stderr.lines().any(|l| l.starts_with("hint: ") && l.contains("deploy/rbac.yaml")), "{r:?}");
    assert_eq!(
        r.stderr.lines().filter(|l| !l.starts_with("note: ")).count(),
        2,
        "one error, one hint: {r:?}"
    );

    // KUBECONFIG lists several files; missing ones are skipped, as kubectl does.
    let joined = format!("{}:{}", ctx.cp.dir.path().join("missing.kubeconfig").display(), reader.display());
    let r = topo.run_as(std::path::Path::new(&joined), &["zones"]);
    assert_eq!(r.code, 0, "KUBECONFIG={joined}: {r:?}");

    // A Service that is not there: exit 3, and the hint names where that name exists.
    let r = topo.run(&["explain", "svc/demo-service", "-n", "nozone"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("demo"), "{r:?}");
    // Nothing listening: exit 3, one line.
    let dead = ctx.cp.dir.path().join("dead.kubeconfig");
    let text = std::fs::read_to_string(&ctx.cp.admin_kubeconfig)
        .unwrap()
        .replace(&ctx.cp.server, &format!("https://127.0.0.1:{}", harness::free_port()));
    std::fs::write(&dead, text).unwrap();
    let r = topo.run_as(&dead, &["zones", "--request-timeout", "5s"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.lines().next().unwrap_or_default().contains("cannot reach the API server"), "{r:?}");
}

/// `version` and shell completion ask the live cluster (issue 5): the server version line, and
/// Service names and namespaces as candidates in Cobra's reply format.
fn plugin_live(ctx: &Ctx) {
    let Some(topo) = &ctx.topo else { return };
    let version = topo.run(&["version"]);
    assert_eq!(version.code, 0, "{version:?}");
    assert!(version.stdout.contains(&format!("Server Version: {}", ctx.cp.version)), "{version:?}");
    let services = topo.run(&["__complete", "explain", "-n", "demo", "svc/"]);
    let names: Vec<&str> = services.stdout.lines().map(|l| l.split('\t').next().unwrap_or("")).collect();
    assert!(names.contains(&"svc/demo-service"), "live Service names: {services:?}");
    assert_eq!(names.last(), Some(&":4"), "Cobra directive NoFileComp: {services:?}");
    let namespaces = topo.run(&["__complete", "check", "-n", ""]);
    assert!(namespaces.stdout.lines().any(|l| l.split('\t').next() == Some("demo")), "{namespaces:?}");
}
