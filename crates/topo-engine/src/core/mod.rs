//! The pure engine: a port of the EndpointSlice controller's hint logic (`k8s.io/endpointslice`
//! packages `topologycache`, `trafficdist`) and of kube-proxy's use of hints
//! (`k8s.io/kubernetes/pkg/proxy/topology.go`). No I/O, no clock, no environment, no printing.
//! Each ported function names the upstream function it mirrors.

pub mod analyze;
pub mod mode;
pub mod proxy;
#[cfg(test)]
pub(crate) mod testkit_tc;
#[cfg(test)]
pub(crate) mod testkit_td;
pub mod topologycache;
pub mod trafficdist;
pub mod whatif;
pub mod zones;
