//! `simulate --apply` on a rendered chart agrees with applying it (issue 34 item 6): the chart of
//! tests/fixtures/apply/chart, rendered by the real `helm template` at 6 and then 11 replicas
//! (kubernetes/kubernetes#122437's shape: maxSkew 1 over three equal zones), judged against a
//! `dump` of the real cluster; then the change applied for real — the Pods created where the
//! simulation placed them (no scheduler runs here, so the placement is the simulation's; which
//! placements the scheduler may pick is the certificate's question) — and the real
//! kube-controller-manager must write exactly the hints per zone the simulation says, and `explain`
//! on the live cluster must give its verdict after.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::chart_install::go_tool;
use crate::fixtures::{AUTO, pods, zones3};
use crate::shared::Env;

const NS: &str = "e2e-apply";
const SVC: &str = "demo-service";
const WAIT: Duration = Duration::from_secs(30);

/// `helm template` of the chart at `replicas`, into `to`.
fn render(replicas: usize, to: &std::path::Path) {
    let chart = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/apply/chart");
    let out = Command::new(go_tool("helm"))
        .args(["template", "demo", chart, "--namespace", NS, "--set", &format!("replicas={replicas}")])
        .output()
        .expect("helm runs");
    assert!(out.status.success(), "helm template: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(to, &out.stdout).unwrap();
}

pub async fn run(env: &Env<'_>) {
    let topo = env.topo.as_ref().expect("the kubectl-topo binary is built");
    let cl = &env.cl;
    cl.set_nodes(&zones3()).await;
    cl.namespace(NS).await;
    pods(cl, NS, SVC, &["a1", "b1", "c1"]).await;
    cl.create_service(NS, SVC, json!({AUTO: "Auto"}), None).await;
    cl.wait_slices(NS, SVC, "3 endpoints, hinted", WAIT, |s| s.endpoints == 3 && s.hinted == 3).await;
    let node_of = BTreeMap::from([("zone-a", "a1"), ("zone-b", "b1"), ("zone-c", "c1")]);
    let mut next = 3;
    for replicas in [6, 11] {
        let dir = tempfile::tempdir().unwrap();
        let (dump, rendered) = (dir.path().join("cluster.yaml"), dir.path().join("rendered.yaml"));
        let r = topo.run(&["dump", "-n", NS]);
        assert_eq!(r.code, 0, "dump: {}", r.stderr);
        std::fs::write(&dump, r.stdout).unwrap();
        render(replicas, &rendered);
        let args =
            ["simulate", "--apply", rendered.to_str().unwrap(), "-f", dump.to_str().unwrap(), "-n", NS];
        let doc = topo.json(&args);
        let services = doc["services"].as_array().expect("services");
        let service = services.iter().find(|s| s["service"]["name"] == SVC).expect("the chart's Service");
        let family = &service["simulation"]["summary"][0];
        // Apply it: the Pods the simulation added, on the Node of their zone.
        let today = cl.settle(NS, SVC, Duration::from_secs(1)).await;
        let mut hinted: BTreeMap<String, usize> = BTreeMap::new();
        for zone in family["zones"].as_array().unwrap() {
            let name = zone["zone"].as_str().unwrap();
            let after = zone["ready"]["after"].as_u64().unwrap() as usize;
            let have = today.endpoints_per_zone.get(name).copied().unwrap_or(0);
            for _ in have..after {
                cl.create_pod(NS, &format!("{SVC}-{next}"), SVC, node_of[name]).await;
                next += 1;
            }
            let n = zone["hinted"]["after"].as_u64().unwrap() as usize;
            if n > 0 {
                hinted.insert(name.to_string(), n);
            }
        }
        let what = format!("{replicas} endpoints hinted {hinted:?}, as simulated");
        let total: usize = hinted.values().sum();
        cl.wait_slices(NS, SVC, &what, WAIT, |s| {
            s.endpoints == replicas && s.hinted_per_zone == hinted && s.hinted == total
        })
        .await;
        cl.settle(NS, SVC, Duration::from_secs(2)).await;
        let live = topo.json(&["explain", &format!("svc/{SVC}"), "-n", NS]);
        assert_eq!(live["families"][0]["verdict"], family["verdict"]["after"], "{replicas}: {family}");
        let expected: Value = json!(if replicas == 11 { "Blocked" } else { "Active" });
        assert_eq!(family["verdict"]["after"], expected, "{replicas} replicas over three equal zones");
    }
}
