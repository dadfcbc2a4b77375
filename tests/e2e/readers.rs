//! Whole-cluster reads and who may read: `check -A` against `explain`, `version` and shell
//! completion on the live cluster, deploy/rbac.yaml's ClusterRole. Each group creates the Services
//! it reads (these used to be read from the phases before them).

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::fixtures::{self, AUTO, zones3};
use crate::harness;
use crate::scenarios::{Ctx, DEPRECATED, service_with_pods, wait_hinted, wait_unhinted};
use crate::shared::Env;

const WAIT: Duration = Duration::from_secs(30);

/// `check -A` over Services of every kind, in two namespaces (and whatever other groups left).
pub async fn check_all(env: &Env<'_>) {
    let ctx = &mut Ctx::new(env);
    ctx.cl.set_nodes(&zones3()).await;
    for ns in ["check", "check-td"] {
        ctx.cl.namespace(ns).await;
    }
    let each_zone = ["a1", "b1", "c1"];
    service_with_pods(ctx, "check", "active", json!({AUTO: "Auto"}), None, &each_zone).await;
    let four = ["a1", "a1", "b1", "c1"];
    service_with_pods(ctx, "check", "overloaded", json!({AUTO: "Auto"}), None, &four).await;
    service_with_pods(ctx, "check", "plain", json!({}), None, &["a1", "b1"]).await;
    service_with_pods(ctx, "check", "empty", json!({AUTO: "Auto"}), None, &[]).await;
    service_with_pods(ctx, "check-td", "same-zone", json!({}), Some("PreferSameZone"), &each_zone).await;
    service_with_pods(ctx, "check-td", "ignored", json!({DEPRECATED: "AUTO"}), None, &each_zone).await;
    let one_each = [("zone-a", 1), ("zone-b", 1), ("zone-c", 1)];
    wait_hinted(ctx, "check", "active", 3, &one_each).await;
    wait_unhinted(ctx, "check", "overloaded", 4).await;
    wait_unhinted(ctx, "check", "plain", 2).await;
    wait_hinted(ctx, "check-td", "same-zone", 3, &one_each).await;
    wait_unhinted(ctx, "check-td", "ignored", 3).await;
    let start = std::time::Instant::now();
    while ctx.cl.slices("check", "empty").await.is_empty() {
        assert!(start.elapsed() < WAIT, "check/empty: no slice from the controller");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    check_rows(ctx);
}

/// `check -A`: one row per Service of the cluster, each with the verdict `explain` gives.
fn check_rows(ctx: &Ctx<'_>) {
    let Some(topo) = &ctx.topo else { return };
    let report = topo.json(&["check", "-A", "--show-all"]);
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

/// deploy/rbac.yaml is enough for every command; without `list nodes` the error names it. Reads
/// `rbac/web` (the EKS demo) and looks for `web` in `rbac-empty`.
pub async fn rbac(env: &Env<'_>) {
    fixtures::auto_web(&env.cl, "rbac").await;
    env.cl.namespace("rbac-empty").await;
    let (reader, no_nodes) = rbac_users(env).await;
    let Some(topo) = &env.topo else { return };
    for args in [
        vec!["zones"],
        vec!["explain", "svc/web", "-n", "rbac"],
        vec!["check", "-A"],
        vec!["check", "-n", "rbac"],
        vec!["dump", "-A"],
        vec!["dump", "--redact", "-A"],
    ] {
        let r = topo.run_as(&reader, &args);
        assert!(r.code == 0 || r.code == 1, "reader: kubectl-topo {args:?} exited {}:\n{}", r.code, r.stderr);
    }
    let r = topo.run_as(&no_nodes, &["explain", "svc/web", "-n", "rbac"]);
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
    let joined = format!("{}:{}", env.cp.dir.path().join("missing.kubeconfig").display(), reader.display());
    let r = topo.run_as(std::path::Path::new(&joined), &["zones"]);
    assert_eq!(r.code, 0, "KUBECONFIG={joined}: {r:?}");
    not_there(env);
}

/// The shipped ClusterRole (created unless another group did) bound to `topo-reader`, and the
/// same role without `nodes` bound to `topo-limited`: their kubeconfigs, once the reader's
/// binding is in effect.
async fn rbac_users(env: &Env<'_>) -> (std::path::PathBuf, std::path::PathBuf) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/rbac.yaml"))
        .expect("deploy/rbac.yaml");
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).expect("rbac.yaml parses");
    let role = docs.iter().find(|d| d["kind"] == "ClusterRole").expect("a ClusterRole in deploy/rbac.yaml");
    let role_name = role["metadata"]["name"].as_str().unwrap().to_string();
    env.cl.ensure_cluster_role(&serde_json::from_value(role.clone()).unwrap()).await;
    env.cl.bind_cluster_role("e2e-reader", &role_name, "topo-reader").await;
    let mut limited = role.clone();
    limited["metadata"]["name"] = json!("e2e-no-nodes");
    for rule in limited["rules"].as_array_mut().unwrap() {
        if let Some(res) = rule["resources"].as_array_mut() {
            res.retain(|r| r != "nodes");
        }
    }
    env.cl.apply_cluster_role(&serde_json::from_value(limited).unwrap()).await;
    env.cl.bind_cluster_role("e2e-no-nodes", "e2e-no-nodes", "topo-limited").await;
    let reader = env.cp.user_kubeconfig("topo-reader", &[]);
    let no_nodes = env.cp.user_kubeconfig("topo-limited", &[]);

    // RBAC bindings take effect within a moment (the authorizer's informer).
    let reader_client = harness::client_for(&reader).await;
    let nodes: kube::Api<k8s_openapi::api::core::v1::Node> = kube::Api::all(reader_client);
    let start = std::time::Instant::now();
    while nodes.list(&Default::default()).await.is_err() {
        assert!(start.elapsed() < WAIT, "the reader binding never took effect");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    (reader, no_nodes)
}

/// A Service that is not there (exit 2, as from a dump: the name typed is wrong), and a server
/// that is not there (exit 3): one clear line each.
fn not_there(env: &Env<'_>) {
    let Some(topo) = &env.topo else { return };
    // The hint names where that name exists (`rbac`; the error line names only `rbac-empty`).
    let r = topo.run(&["explain", "svc/web", "-n", "rbac-empty"]);
    assert_eq!(r.code, 2, "{r:?}");
    let hint = r.stderr.lines().find(|l| l.starts_with("hint: ")).unwrap_or_default();
    assert!(hint.split([' ', ',', ':']).any(|w| w == "rbac"), "{r:?}");
    // Nothing listening: exit 3, one line.
    let dead = env.cp.dir.path().join("dead.kubeconfig");
    let text = std::fs::read_to_string(&env.cp.admin_kubeconfig)
        .unwrap()
        .replace(&env.cp.server, &format!("https://127.0.0.1:{}", harness::free_port()));
    std::fs::write(&dead, text).unwrap();
    let r = topo.run_as(&dead, &["zones", "--request-timeout", "5s"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.lines().next().unwrap_or_default().contains("cannot reach the API server"), "{r:?}");
}

/// `version` and shell completion ask the live cluster (issue 5): the server version line, and
/// Service names and namespaces as candidates in Cobra's reply format. Reads
/// `complete/demo-service`, made here.
pub async fn plugin_live(env: &Env<'_>) {
    env.cl.namespace("complete").await;
    env.cl.create_service("complete", "demo-service", json!({AUTO: "Auto"}), None).await;
    let Some(topo) = &env.topo else { return };
    let version = topo.run(&["version"]);
    assert_eq!(version.code, 0, "{version:?}");
    assert!(version.stdout.contains(&format!("Server Version: {}", env.cp.version)), "{version:?}");
    let services = topo.run(&["__complete", "explain", "-n", "complete", "svc/"]);
    let names: Vec<&str> = services.stdout.lines().map(|l| l.split('\t').next().unwrap_or("")).collect();
    assert!(names.contains(&"svc/demo-service"), "live Service names: {services:?}");
    assert_eq!(names.last(), Some(&":4"), "Cobra directive NoFileComp: {services:?}");
    let namespaces = topo.run(&["__complete", "check", "-n", ""]);
    assert!(namespaces.stdout.lines().any(|l| l.split('\t').next() == Some("complete")), "{namespaces:?}");
}
