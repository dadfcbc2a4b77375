//! The engine of kubectl-topo: a pure port of the EndpointSlice controller's topology-hint logic
//! (`k8s.io/endpointslice` packages `topologycache` and `trafficdist`) and of kube-proxy's use of
//! hints (`k8s.io/kubernetes` `pkg/proxy/topology.go`).
//!
//! Three layers, each importing only those below it:
//! * [`model`]: the cluster as data (`Snapshot`: Nodes, Services, EndpointSlices), CPU amounts and
//!   the behaviour of each Kubernetes version;
//! * [`report`]: what the engine concludes, as codes and facts only (reason codes, verdicts, typed
//!   numbers and names; no sentence); generic over how a reason is presented, so the caller can
//!   attach words without a second set of types;
//! * [`core`]: the algorithms, one function per upstream function, each naming what it mirrors.
//!
//! No I/O, no clock, no environment, no async, no printing: the caller reads the cluster and
//! renders the report. See `docs/architecture.md`.

// `pub` only where a caller outside the crate reaches it; the compiler reports any other (the walls
// are the compiler's, not discipline).
#![warn(unreachable_pub)]
// Tests are tables (one row per upstream case): long by design; product code keeps the limit.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod core;
pub mod model;
pub mod report;
