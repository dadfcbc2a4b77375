//! The scenarios of issue 3, phases A–E: one test each (`main.rs`). Nodes are cluster-wide (every
//! topology change affects every Service), so each phase makes the Node set exactly what it needs,
//! after `shared::reset` deleted every Pod of the groups before it.

use std::collections::BTreeMap;
use std::ops::Deref;
use std::time::Duration;

use serde_json::{Value, json};

use crate::cluster::{NodeSpec, SliceState, node};
use crate::fixtures::{AUTO, zones3};
use crate::shared::Env;
use crate::verify::{ACTIVE, Expect, codes, family, verify};

const WAIT: Duration = Duration::from_secs(30);
pub const DEPRECATED: &str = "service.kubernetes.io/topology-aware-hints";

/// One group's view of the shared [`Env`], and the Services the group created.
pub struct Ctx<'a> {
    env: &'a Env<'a>,
    /// Every Service created (namespace, name).
    pub services: Vec<(String, String)>,
}

impl<'a> Ctx<'a> {
    pub fn new(env: &'a Env<'a>) -> Ctx<'a> {
        Ctx { env, services: Vec::new() }
    }
}

impl<'a> Deref for Ctx<'a> {
    type Target = Env<'a>;

    fn deref(&self) -> &Env<'a> {
        self.env
    }
}

/// Pods first, then the Service: its first sync sees every endpoint, so the controller records one
/// event instead of one per pod (events are rate-limited per object, ~25 then dropped).
pub async fn service_with_pods(
    ctx: &mut Ctx<'_>,
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
pub async fn wait_hinted(
    ctx: &Ctx<'_>,
    ns: &str,
    svc: &str,
    endpoints: usize,
    want: &[(&str, usize)],
) -> SliceState {
    let want = counts(want);
    let what = format!("{endpoints} endpoints hinted {want:?}");
    ctx.cl.wait_slices(ns, svc, &what, WAIT, |s| s.endpoints == endpoints && s.hinted_per_zone == want).await;
    ctx.cl.settle(ns, svc, Duration::from_secs(2)).await
}

/// Wait for `endpoints` endpoints and no hints at all.
pub async fn wait_unhinted(ctx: &Ctx<'_>, ns: &str, svc: &str, endpoints: usize) -> SliceState {
    ctx.cl.wait_slices(ns, svc, "no hints", WAIT, |s| s.endpoints == endpoints && s.hinted == 0).await;
    ctx.cl.settle(ns, svc, Duration::from_secs(2)).await
}

/// Phase A — 3 equal zones: the EKS demo, Disabled after Auto, the deprecated annotation and
/// trafficDistribution.
pub async fn three_equal_zones(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
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

/// Phase B's Nodes: [`zones3`], a control-plane node and a big NotReady node in zone-a.
fn ignored_node_set() -> Vec<NodeSpec> {
    let mut nodes = zones3();
    nodes.push(NodeSpec { control_plane: true, ..node("cp1", None, "8") });
    nodes.push(NodeSpec { ready: false, ..node("nr1", Some("zone-a"), "16") });
    nodes
}

/// Phase B — a control-plane node and a NotReady node are not counted: with the big NotReady node
/// counted zone-a would weigh 20/28 and 3 endpoints could not be hinted.
pub async fn ignored_nodes(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
    ctx.cl.set_nodes(&ignored_node_set()).await;
    ctx.cl.namespace("ignored").await;
    service_with_pods(ctx, "ignored", "web", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1"]).await;
    let s = wait_hinted(ctx, "ignored", "web", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;
    verify(ctx, "ignored", "web", &ACTIVE, &s, true).await;
    zones_match(ctx, &[("zone-a", 4000), ("zone-b", 4000), ("zone-c", 4000)]);
}

/// Phase C — a Ready worker without zone label disables hints cluster-wide; labelling it does not
/// bring them back by itself (the Service is not requeued), a Service update does.
///
/// It starts where phase B ended (its Nodes) with a Service that has cached hints: phase A's EKS
/// demo, made here as `nozone/cached` rather than read from phase A's namespace.
pub async fn node_without_zone(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
    ctx.cl.set_nodes(&ignored_node_set()).await;
    ctx.cl.namespace("nozone").await;
    service_with_pods(ctx, "nozone", "cached", json!({AUTO: "Auto"}), None, &["a1", "b1", "c1"]).await;
    wait_hinted(ctx, "nozone", "cached", 3, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 1)]).await;

    ctx.cl.create_node(&node("w-nozone", None, "4")).await;
    // Services with cached hints are requeued and lose them.
    let s = wait_unhinted(ctx, "nozone", "cached", 3).await;
    verify(ctx, "nozone", "cached", &Expect { verdict: "Blocked", codes: &["NodeMissingZone"] }, &s, true)
        .await;

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
        ctx.note(
            "labelling the zone-less node did not requeue a Service whose hints had been removed (k/k #123401); \
             a Service update did",
        );
        if let Some(topo) = &ctx.topo {
            let r = topo.json(&["explain", "svc/web", "-n", "nozone"]);
            ctx.note(format!(
                "explain before the resync: verdict {} reasons {:?}",
                family(&r)["verdict"],
                codes(family(&r))
            ));
        }
    } else {
        ctx.note("labelling the zone-less node requeued the Service by itself");
    }
    ctx.cl.patch_service("nozone", "web", json!({"metadata": {"annotations": {"e2e/resync": "1"}}})).await;
    let s = wait_hinted(ctx, "nozone", "web", 4, &[("zone-a", 1), ("zone-b", 1), ("zone-c", 2)]).await;
    verify(ctx, "nozone", "web", &ACTIVE, &s, true).await;
}

/// Phase D — docs example (a): 12/4 vCPU, endpoints a:2 b:2 → one zone-b endpoint hinted zone-a.
pub async fn two_zones_12_4(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
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
pub async fn three_zones_8_4_4(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
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
fn zones_match(ctx: &Ctx<'_>, want: &[(&str, i64)]) {
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
