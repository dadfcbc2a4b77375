//! The pure engine: a port of the EndpointSlice controller's hint logic (`k8s.io/endpointslice`
//! packages `topologycache`, `trafficdist`) and of kube-proxy's use of hints
//! (`k8s.io/kubernetes/pkg/proxy/topology.go`). No I/O, no clock, no environment, no printing.
//! Each ported function names the upstream function it mirrors.
//!
//! Modules, each importing only those above it in this list:
//! * [`zones`]: `SetNodes` (which nodes the controller counts, zone CPU ratios);
//! * [`topologycache`], [`trafficdist`]: the two hint paths (`AddHints`, `ReconcileHints`);
//! * [`mode`]: which of them the controller takes for a Service, or hint removal;
//! * [`proxy`]: what kube-proxy routes to, per node, given the slices and their hints;
//! * [`stability`]: the Auto verdict inverted: the margin to its next flip, a certificate over a
//!   scaling range, the flips the Events recorded;
//! * [`analyze`]: `explain`, `check`, `zones`: the above in steady state, turned into verdicts,
//!   with replicas needed and the cross-zone share;
//! * [`version`]: which Kubernetes version to model for a cluster (the server's, the kubelets',
//!   or the newest line), and the Nodes whose kube-proxy runs older;
//! * [`whatif`]: `simulate`, a changed cluster and the controller's reaction, analysed before and
//!   after.

pub mod analyze;
pub mod mode;
pub mod proxy;
pub mod stability;
#[cfg(test)]
pub(crate) mod testkit_tc;
#[cfg(test)]
pub(crate) mod testkit_td;
pub mod topologycache;
pub mod trafficdist;
pub mod version;
pub mod whatif;
pub mod zones;
