//! End-to-end tier: a real etcd + kube-apiserver + kube-controller-manager (EndpointSlice
//! controller only) on 127.0.0.1, built from the Go module proxy by `build-control-plane.sh`
//! (cached outside the repo).
//!
//! One `#[test]` per scenario group, so that a failure names its group and one group runs alone:
//! `cargo test --features e2e --test e2e check_all` (a name filter: `rbac` also runs `rbac_matrix`;
//! add `--exact` for one name). The tests of a process share one control plane (`shared.rs`), started by the
//! first group to run and stopped when the test binary exits; groups take turns on it (Nodes are
//! cluster-wide), whatever `--test-threads` says. No group depends on another: before each, every
//! Pod is deleted, and each group creates the Nodes, namespaces and Services it reads (its own
//! namespaces, its own users and bindings), so they pass alone and in any order.
//!
//! Each step first waits until the controller has written what its behaviour implies (read
//! directly with kube-rs: the ground truth), then runs the built `kubectl-topo` binary:
//! * `explain -o json` on the live cluster must give the expected verdict and reason, and
//!   `actualHinted` per zone must equal what is on the slices;
//! * the same `explain` on a `dump` of the cluster with every `hints` field removed must give
//!   `expectedHinted` per zone equal to what the controller wrote.
//!
//! `check -A` must agree with `explain` for every Service, `zones` with the Nodes created, and
//! the read-only ClusterRole of `deploy/rbac.yaml` must be enough for every command.

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

mod apply;
mod certificate;
mod chart_install;
mod cilium;
mod cluster;
mod contexts;
mod etcd;
mod fault_alerts;
mod fault_proxy;
mod fault_state;
mod faults;
mod fixtures;
mod gone_proxy;
mod harness;
mod kube_proxy;
mod kube_proxy_compare;
mod kube_proxy_scenarios;
mod live_api;
mod monitoring;
mod monitoring_deploy;
mod operator;
mod proxy_nft;
mod proxy_rules;
mod rbac_matrix;
mod readers;
mod replay;
mod scenarios;
mod serve_auth;
mod serve_data_plane;
mod serve_faults;
mod serve_outages;
mod shared;
mod topo;
mod verify;
mod watch;

use shared::group;

/// Phase A: the EKS demo, Disabled after Auto, the deprecated annotation, trafficDistribution.
#[test]
fn three_equal_zones() {
    group(scenarios::three_equal_zones);
}

/// Phase B: control-plane and NotReady Nodes are not counted.
#[test]
fn ignored_nodes() {
    group(scenarios::ignored_nodes);
}

/// Phase C: a Ready worker without zone label; labelling it; the Service update that resyncs.
#[test]
fn node_without_zone() {
    group(scenarios::node_without_zone);
}

/// Phase D: 12/4 vCPU, one zone-b endpoint hinted zone-a.
#[test]
fn two_zones_12_4() {
    group(scenarios::two_zones_12_4);
}

/// Phase E: 8/4/4 with endpoints 6/1/1.
#[test]
fn three_zones_8_4_4() {
    group(scenarios::three_zones_8_4_4);
}

/// `simulate --apply` on a rendered chart agrees with applying it (the real controller's hints).
#[test]
fn simulate_apply() {
    group(apply::run);
}

/// `check -A` agrees with `explain` for every Service of the cluster.
#[test]
fn check_all() {
    group(readers::check_all);
}

/// `check --all-contexts`: one apiserver under two contexts plus a dead one (issue 20).
#[test]
fn all_contexts() {
    group(contexts::run);
}

/// `version` and shell completion against the live cluster.
#[test]
fn plugin_live() {
    group(readers::plugin_live);
}

/// deploy/rbac.yaml's ClusterRole is enough; without `list nodes` the error names it.
#[test]
fn rbac() {
    group(readers::rbac);
}

/// `kubectl-topo watch` through a 3 → 4 → 3 scale and a `410 Gone`.
#[test]
fn watch() {
    group(async |env| watch::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// `kubectl topo serve` scraped by a real Prometheus: W2 and the #123401 trap in metrics and
/// alerts, SIGTERM, and deploy/ applied with a server-side dry run.
#[test]
fn monitoring() {
    group(async |env| monitoring::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// The Helm chart installed with helm; the real Prometheus Operator reconciles its ServiceMonitor
/// and PrometheusRule, and a real Prometheus runs what it generates: alerts name the Service.
#[test]
fn prometheus_operator() {
    group(async |env| operator::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// `kubectl topo serve --auth=tokenreview` over HTTPS: the real apiserver refuses a scrape
/// without a token (401) and one without `get` on /metrics (403), admits one with it (200).
#[test]
fn serve_auth() {
    group(async |env| serve_auth::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// `kubectl topo serve` while the apiserver is frozen (SIGSTOP), killed and restarted, killed while
/// etcd is compacted, and while its RBAC binding is revoked: the staleness alert fires in a real
/// Prometheus; after each, every watch lists again, `/metrics` equals `check -A` and nothing
/// deleted meanwhile is exported.
#[test]
fn serve_faults() {
    group(async |env| serve_faults::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// `simulate` predictions replayed for real (W3, W2, the #123401 trap).
#[test]
fn replay() {
    group(async |env| replay::run(&env.cl, env.topo.as_ref()).await);
}

/// The Cilium caveat from `kube-system/cilium-config`.
#[test]
fn cilium() {
    group(async |env| cilium::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// `serve` reads the optional objects (ztunnel, the Namespaces' annotation) and exports the worst
/// data-plane path per Service.
#[test]
fn serve_data_plane() {
    group(async |env| serve_data_plane::run(env.cp, &env.cl, env.topo.as_ref()).await);
}

/// The stability certificate of a Deployment + HPA read live, and the real controller writing and
/// removing hints exactly at the counts it names (issue 34).
#[test]
fn stability_certificate() {
    group(async |env| certificate::run(&env.cl, env.topo.as_ref()).await);
}

/// `source::live` below the CLI: paging, the explain read, 401 / TLS / unreachable.
#[test]
fn live_api() {
    group(async |env| live_api::run(env.cp, &env.cl).await);
}

/// Every command as the shipped ClusterRole's user and as users missing one permission.
#[test]
fn rbac_matrix() {
    group(async |env| {
        if let Some(topo) = &env.topo {
            rbac_matrix::run(env.cp, &env.cl, topo).await;
        }
    });
}

/// API faults through the fault-injecting proxy, and without it.
#[test]
fn faults() {
    group(async |env| {
        if let Some(topo) = &env.topo {
            faults::run(env.cp, &env.cl, topo).await;
        }
    });
}

/// Real kube-proxies (iptables and nftables mode) as ground truth for `explain`'s `proxy[]`.
#[test]
fn kube_proxy_scenarios() {
    group(async |env| {
        for note in kube_proxy_scenarios::run(env.cp, &env.cl, env.topo.as_ref(), env.bins).await {
            env.note(note);
        }
    });
}
