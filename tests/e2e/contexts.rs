//! `check --all-contexts` and repeated `--context` on the real control plane (issue 20): one
//! kube-apiserver under two contexts plus a context whose server is a dead 127.0.0.1 port. Both
//! live contexts are reported, the dead one is an `Error` row and a `note:`, and the exit code
//! is 3 (no findings, a cluster failed); `-o json` is a `CheckReportList`.

use std::path::Path;

use serde_json::{Value, json};

use crate::fixtures;
use crate::harness;
use crate::shared::Env;

pub async fn run(env: &Env<'_>) {
    fixtures::auto_web(&env.cl, "contexts").await;
    let Some(topo) = &env.topo else { return };
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("three-contexts.kubeconfig");
    let port = write_contexts(&env.cp.admin_kubeconfig, &kubeconfig);

    let r = topo.run_as(&kubeconfig, &["check", "--all-contexts", "-n", "contexts"]);
    assert_eq!(r.code, 3, "{r:?}");
    let rows: Vec<Vec<&str>> = r
        .stdout
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{r:?}");
    for (row, context) in rows.iter().zip(["e2e-one", "e2e-two"]) {
        assert_eq!(row[..5], [context, "contexts", "web", "Auto", "Active"], "{r:?}");
    }
    assert_eq!(rows[2][..5], ["dead", "-", "-", "-", "Error"], "{r:?}");
    let dead = format!("127.0.0.1:{port}");
    assert!(
        r.stdout.contains(&format!("dead: error: cannot reach the API server at https://{dead}")),
        "{r:?}"
    );
    // Told once, under the table (issue 35): not again as a note on stderr.
    assert!(!r.stderr.contains("cannot reach"), "{r:?}");
    assert!(!r.stderr.lines().any(|l| l.starts_with("error:")), "{r:?}");

    let r = topo.run_as(&kubeconfig, &["check", "--all-contexts", "-n", "contexts", "-o", "json"]);
    assert_eq!(r.code, 3, "{r:?}");
    let list: Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(list["kind"], "CheckReportList");
    let items = list["items"].as_array().unwrap();
    let verdict = |i: usize| &items[i]["report"]["services"][0]["families"][0]["verdict"];
    assert_eq!((verdict(0), verdict(1)), (&json!("Active"), &json!("Active")), "{list:#}");
    assert_eq!((&items[2]["cluster"], &items[2]["error"]["exitCode"]), (&json!("dead"), &json!(3)));
    // With -o json the error is in the list, and a person reading stderr still hears of it.
    assert!(r.stderr.lines().any(|l| l.starts_with("note: dead: ") && l.contains("cannot reach")), "{r:?}");

    // --context repeated picks clusters: the two live ones alone, nothing failing, exit 0.
    let r = topo
        .run_as(&kubeconfig, &["check", "--context", "e2e-one", "--context", "e2e-two", "-n", "contexts"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("CLUSTER "), "{r:?}");
}

/// The admin kubeconfig with contexts `e2e-one` and `e2e-two` on the control plane and `dead` on
/// a free 127.0.0.1 port nothing listens on; returns that port.
fn write_contexts(admin: &Path, out: &Path) -> u16 {
    let mut config: Value = serde_saphyr::from_str(&std::fs::read_to_string(admin).unwrap()).unwrap();
    let live = config["contexts"][0]["context"].clone();
    let port = harness::free_port();
    config["clusters"].as_array_mut().unwrap().push(json!({
        "name": "dead", "cluster": { "server": format!("https://127.0.0.1:{port}") }
    }));
    let mut dead = live.clone();
    dead["cluster"] = json!("dead");
    config["contexts"] = json!([
        { "name": "e2e-one", "context": live },
        { "name": "e2e-two", "context": live },
        { "name": "dead", "context": dead },
    ]);
    config["current-context"] = json!("e2e-one");
    std::fs::write(out, serde_json::to_string_pretty(&config).unwrap()).unwrap();
    port
}
