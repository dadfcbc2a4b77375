//! Least privilege on the real control plane: every command as a user bound only to the shipped
//! read-only ClusterRole (deploy/rbac.yaml) gives exactly what an admin gets, and as users missing
//! one permission each (nodes, endpointslices, services, events) it either degrades honestly (a
//! `note:` on stderr and the same note in the report's `partial`) or stops with exit code 3 and one
//! `error:` line naming the missing permission plus a `hint:` naming the ClusterRole to bind.
//!
//! Reads two Services made here: `matrix/web` (the EKS demo: Auto, Active, with the controller's
//! Event) and `matrix-td/same-zone` (trafficDistribution), each alone in its namespace.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use k8s_openapi::api::rbac::v1::ClusterRole;
use serde_json::{Value, json};

use crate::cluster::Cluster;
use crate::harness::{self, ControlPlane};
use crate::topo::{Run, Topo};

const ROLE: &str = "kubectl-topo-reader";
const NS: &str = "matrix";
const TD_NS: &str = "matrix-td";
const AUTO: [&str; 4] = ["explain", "svc/web", "-n", NS];
const TD: [&str; 4] = ["explain", "svc/same-zone", "-n", TD_NS];
const SIMULATE: [&str; 6] = ["simulate", "svc/web", "-n", NS, "--replicas", "9"];

/// Every command of the CLI that reads a cluster (`completion` reads nothing).
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["zones"],
        AUTO.to_vec(),
        TD.to_vec(),
        vec!["check", "-A"],
        vec!["check", "-n", NS],
        vec!["dump", "-A"],
        vec!["version"],
        SIMULATE.to_vec(),
    ]
}

pub async fn run(cp: &ControlPlane, cl: &Cluster, topo: &Topo) {
    crate::fixtures::auto_web(cl, NS).await;
    cl.namespace(TD_NS).await;
    crate::fixtures::same_zone(cl, TD_NS, "same-zone").await;
    let started = Instant::now();
    let role = shipped_role();
    let _ = kube::Api::<ClusterRole>::all(cl.client.clone()).create(&Default::default(), &role).await;
    let mut users = vec![("matrix-reader", user(cp, cl, ROLE, "matrix-reader").await)];
    for resource in ["nodes", "endpointslices", "services", "events"] {
        let name = format!("matrix-no-{resource}");
        let mut limited = without(&role, resource);
        limited.metadata.name = Some(name.clone());
        cl.apply_cluster_role(&limited).await;
        users.push((resource, user(cp, cl, &name, &name).await));
    }
    for (_, kc) in &users {
        wait_allowed(kc).await;
    }
    let (reader, limited) = users.split_first().unwrap();
    full_reader(topo, &reader.1);
    for (resource, kc) in limited {
        match *resource {
            "nodes" => no_nodes(topo, kc),
            "endpointslices" => fatal_for_reports(topo, kc, &["list endpointslices.discovery.k8s.io"]),
            "services" => fatal_for_reports(topo, kc, &["services"]),
            _ => no_events(topo, kc),
        }
    }
    eprintln!(
        "e2e: RBAC matrix (5 users x {} commands) in {:.1}s",
        commands().len(),
        started.elapsed().as_secs_f64()
    );
}

fn shipped_role() -> ClusterRole {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/rbac.yaml")).unwrap();
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).expect("rbac.yaml parses");
    let role = docs.into_iter().find(|d| d["kind"] == "ClusterRole").expect("a ClusterRole");
    assert_eq!(role["metadata"]["name"], ROLE);
    serde_json::from_value(role).unwrap()
}

/// The shipped role without one resource (rules left empty are dropped).
fn without(role: &ClusterRole, resource: &str) -> ClusterRole {
    let mut r = role.clone();
    let rules = r.rules.take().unwrap_or_default();
    let kept = rules
        .into_iter()
        .filter_map(|mut rule| {
            rule.resources.as_mut()?.retain(|x| x != resource);
            rule.resources.as_ref().is_some_and(|x| !x.is_empty()).then_some(rule)
        })
        .collect();
    r.rules = Some(kept);
    r
}

async fn user(cp: &ControlPlane, cl: &Cluster, role: &str, name: &str) -> PathBuf {
    cl.bind_cluster_role(name, role, name).await;
    cp.user_kubeconfig(name, &[])
}

/// Bindings reach the authorizer through an informer: wait until `get services` in a namespace
/// is allowed or forbidden for a reason other than the binding (every user may list something).
async fn wait_allowed(kc: &Path) {
    let client = harness::client_for(kc).await;
    let start = Instant::now();
    loop {
        let checks = [
            kube::Api::<k8s_openapi::api::core::v1::Node>::all(client.clone())
                .list(&Default::default())
                .await
                .is_ok(),
            kube::Api::<k8s_openapi::api::core::v1::Service>::all(client.clone())
                .list(&Default::default())
                .await
                .is_ok(),
        ];
        if checks.iter().any(|ok| *ok) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "binding for {} never took effect", kc.display());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn with(args: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    args.iter().chain(extra).copied().collect()
}

/// Exit 3, one error line containing `parts` (the denied request) and one hint naming the role.
fn denied(r: &Run, args: &[&str], parts: &[&str]) {
    assert_eq!(r.code, 3, "{args:?}: {r:?}");
    let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.starts_with("note: ")).collect();
    assert_eq!(lines.len(), 2, "{args:?}: one error and one hint line: {r:?}");
    assert!(lines[0].starts_with("error: forbidden: cannot "), "{args:?}: {r:?}");
    for p in parts {
        assert!(lines[0].contains(p), "{args:?}: {p:?} missing from {:?}", lines[0]);
    }
    assert!(
        lines[1].starts_with("hint: ") && lines[1].contains(ROLE) && lines[1].contains("deploy/rbac.yaml"),
        "{r:?}"
    );
}

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {r:?}"))
}

fn partial(v: &Value) -> Vec<String> {
    v["partial"].as_array().into_iter().flatten().filter_map(|n| n.as_str().map(String::from)).collect()
}

/// Bound only to the shipped ClusterRole: byte-for-byte what the admin gets, for every command, but
/// for `explain`'s Data plane section: the optional reads (deploy/rbac.yaml's Role in kube-system)
/// are forbidden to this user, and the section says so (`DataPlaneUnknown`) where the admin, who
/// finds no Cilium, has no such row.
fn full_reader(topo: &Topo, kc: &Path) {
    for args in commands() {
        let (mine, admin) = (topo.run_as(kc, &args), topo.run(&args));
        assert_eq!((mine.code, &mine.stderr), (admin.code, &admin.stderr), "{args:?}: {mine:?}");
        assert!(mine.code == 0 || mine.code == 1, "{args:?}: {mine:?}");
        if args[0] == "dump" {
            assert_eq!(kinds(&mine.stdout), kinds(&admin.stdout), "{args:?}");
        } else {
            assert_eq!(before_data_plane(&mine.stdout), before_data_plane(&admin.stdout), "{args:?}");
            let section = mine.stdout.split_once("\nData plane\n").map(|(_, s)| s);
            assert!(
                section
                    .is_none_or(|s| s.contains("DataPlaneUnknown") && s.contains("forbidden to this user")),
                "{args:?}: {}",
                mine.stdout
            );
        }
    }
}

/// An output up to `explain`'s Data plane section.
fn before_data_plane(out: &str) -> &str {
    out.split("\nData plane\n").next().unwrap_or(out)
}

/// Items per kind of a dump.
fn kinds(dump: &str) -> std::collections::BTreeMap<String, usize> {
    let v: Value = serde_saphyr::from_str(dump).expect("dump YAML");
    let mut counts = std::collections::BTreeMap::new();
    for item in v["items"].as_array().into_iter().flatten() {
        *counts.entry(item["kind"].as_str().unwrap_or_default().to_string()).or_default() += 1;
    }
    counts
}

/// Without `list nodes`: zones and simulate stop; explain/check of Auto Services say Unknown and
/// exit 3 when that is all they could say; trafficDistribution still gets its verdict; dump
/// records the gap; version works.
fn no_nodes(topo: &Topo, kc: &Path) {
    let note = "Nodes not read (forbidden to list nodes at cluster scope)";
    let nodes = ["list nodes at cluster scope"];
    denied(&topo.run_as(kc, &["zones"]), &["zones"], &nodes);
    denied(
        &topo.run_as(kc, &SIMULATE),
        &SIMULATE,
        &["list nodes at cluster scope, so there is nothing to simulate"],
    );
    assert_eq!(topo.run_as(kc, &["version"]).stdout, topo.run(&["version"]).stdout);

    // Auto: the report (verdict Unknown, NodesUnknown, the note) and exit 3: no verdict at all.
    let r = topo.run_as(kc, &with(&AUTO, &["-o", "json"]));
    denied(&r, &AUTO, &["list nodes at cluster scope, so zone weights are unknown"]);
    let v = json(&r);
    assert!(partial(&v).iter().any(|n| n.starts_with(note)), "{v:#}");
    for fam in v["families"].as_array().unwrap() {
        assert_eq!(fam["verdict"], "Unknown", "{fam:#}");
        assert_eq!(fam["reasons"][0]["code"], "NodesUnknown", "{fam:#}");
    }
    assert!(r.stderr.lines().any(|l| l.starts_with("note: ") && l.contains(note)), "{r:?}");
    let r = topo.run_as(kc, &["check", "-n", NS]);
    denied(&r, &["check"], &nodes);
    assert!(r.stdout.contains("Unknown") && r.stdout.contains("Partial data: Nodes not read"), "{r:?}");

    // trafficDistribution does not read Nodes: the verdict stands, the note says what is missing.
    let (mine, admin) =
        (json(&topo.run_as(kc, &with(&TD, &["-o", "json"]))), json(&topo.run(&with(&TD, &["-o", "json"]))));
    let verdicts = |v: &Value| {
        v["families"].as_array().unwrap().iter().map(|f| f["verdict"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(verdicts(&mine), verdicts(&admin));
    assert!(partial(&mine).iter().any(|n| n.starts_with(note)), "{mine:#}");

    // check -A: Auto rows Unknown, every other row as the admin sees it; the report is useful.
    // --show-all: compare every row, the Services nobody asked hints for included.
    let r = topo.run_as(kc, &["check", "-A", "--show-all", "-o", "json"]);
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    let (mine, admin) = (json(&r), json(&topo.run(&["check", "-A", "--show-all", "-o", "json"])));
    let rows = |v: &Value| v["services"].as_array().unwrap().clone();
    let (mut unknown, mut known) = (0, 0);
    for (m, a) in rows(&mine).iter().zip(rows(&admin).iter()) {
        assert_eq!(m["service"], a["service"]);
        for (mf, af) in m["families"].as_array().unwrap().iter().zip(a["families"].as_array().unwrap()) {
            if mf["verdict"] == "Unknown" {
                assert_eq!(m["mode"], "Auto", "only Auto needs zone weights: {m:#}");
                unknown += 1;
            } else {
                assert_eq!(mf["verdict"], af["verdict"], "{m:#}");
                known += 1;
            }
        }
    }
    assert!(unknown > 0 && known > 0, "both kinds of rows: {mine:#}");
    assert_eq!(mine["summary"]["verdicts"]["Unknown"], json!(unknown), "{mine:#}");

    // dump: no Nodes, the gap recorded; replaying it gives the same honest report.
    let r = topo.run_as(kc, &["dump", "-n", NS]);
    assert_eq!(r.code, 0, "{r:?}");
    let dumped: Value = serde_saphyr::from_str(&r.stdout).unwrap();
    let info =
        dumped["items"].as_array().unwrap().iter().find(|i| i["kind"] == "ClusterInfo").unwrap().clone();
    assert_eq!(info["nodesUnavailable"], true, "{info:#}");
    assert!(!kinds(&r.stdout).contains_key("Node"));
    let file = std::env::temp_dir().join(format!("kubectl-topo-e2e-no-nodes-{}.yaml", std::process::id()));
    std::fs::write(&file, &r.stdout).unwrap();
    let replay = topo.run(&["explain", "svc/web", "-n", NS, "-f", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    denied(&replay, &["explain -f dump"], &nodes);
}

/// Services or EndpointSlices forbidden: every report needs them, so every command but `zones`
/// and `version` stops with the denied request named.
fn fatal_for_reports(topo: &Topo, kc: &Path, parts: &[&str]) {
    for args in commands() {
        let r = topo.run_as(kc, &args);
        if matches!(args[0], "zones" | "version") {
            let admin = topo.run(&args);
            assert_eq!((r.code, &r.stdout), (admin.code, &admin.stdout), "{args:?}: {r:?}");
        } else {
            denied(&r, &args, parts);
            assert!(r.stdout.is_empty(), "{args:?}: no partial report without its subject: {r:?}");
        }
    }
}

/// Events forbidden: every command works, verdicts unchanged, the gap noted.
fn no_events(topo: &Topo, kc: &Path) {
    for args in commands() {
        let r = topo.run_as(kc, &args);
        let admin = topo.run(&args);
        assert_eq!(r.code, admin.code, "{args:?}: {r:?}");
        if matches!(args[0], "zones" | "version") {
            assert_eq!(r.stdout, admin.stdout, "{args:?}");
            continue;
        }
        let note = r.stderr.lines().find(|l| l.starts_with("note: ")).unwrap_or_default();
        assert!(note.contains("Events not shown (forbidden to list events"), "{args:?}: {r:?}");
        assert!(note.contains(ROLE), "{args:?}: the ClusterRole to bind: {r:?}");
        assert!(!r.stderr.contains("error:"), "{args:?}: {r:?}");
    }
    let (mine, admin) = (
        json(&topo.run_as(kc, &with(&AUTO, &["-o", "json"]))),
        json(&topo.run(&with(&AUTO, &["-o", "json"]))),
    );
    assert_eq!(mine["families"], admin["families"], "verdicts do not depend on Events");
    assert_eq!(mine["events"], json!([]));
    assert!(admin["events"].as_array().is_some_and(|e| !e.is_empty()), "the admin sees the Events");
    assert!(partial(&mine)[0].starts_with("Events not shown"), "{mine:#}");
}
