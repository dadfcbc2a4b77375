//! Plain data shared by every layer: the cluster [`Snapshot`] that `source` produces and `core`
//! consumes, CPU amounts, and the behaviour version. No I/O, no k8s-openapi types, no clock.

pub mod cpu;
pub mod dataplane;
pub mod frontdoor;
pub mod ingress;
pub mod names;
mod object_ref;
pub mod selector;
mod shared;
pub mod snapshot;
pub mod strmap;
pub mod version;
pub mod workload;

pub use cpu::CpuAmount;
pub use dataplane::*;
pub use frontdoor::*;
pub use ingress::*;
pub use names::Names;
pub use object_ref::ObjectRef;
pub use snapshot::*;
pub use strmap::StrMap;
pub use version::Behaviour;
pub use workload::*;
