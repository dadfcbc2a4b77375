//! Unit tests of the what-if engine: replicas needed, the traffic origins of the cross-zone share,
//! the description of changes, and the sync decision.

mod changes;
mod crosszone;
mod crosszone_groups;
mod replicas;
mod sync;
