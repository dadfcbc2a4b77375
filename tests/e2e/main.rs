//! End-to-end tier: a real etcd + kube-apiserver + kube-controller-manager (EndpointSlice
//! controller only) on 127.0.0.1, built from the Go module proxy by `build-control-plane.sh`
//! (cached outside the repo). One cluster is shared by every scenario; scenarios run in order,
//! each in its own namespace with fresh Services (the controller rate-limits events per object).
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

mod cilium;
mod cluster;
mod fault_proxy;
mod faults;
mod gone_proxy;
mod harness;
mod kube_proxy;
mod kube_proxy_compare;
mod kube_proxy_scenarios;
mod live_api;
mod proxy_nft;
mod proxy_rules;
mod rbac_matrix;
mod replay;
mod scenarios;
mod topo;
mod watch;

#[test]
fn e2e_real_control_plane() {
    let bins = harness::binaries();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(scenarios::run_all(&bins));
}
